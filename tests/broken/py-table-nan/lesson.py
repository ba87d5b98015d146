from lessonkit import Lesson, bars, explorer, param, table

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.value
def inverses():
    return table({"n": [1, 0], "1 / n": [1.0, float("nan")]}, caption="倒数")
