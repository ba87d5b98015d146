from lessonkit import Lesson, bars, explorer, param, table

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.widget
def powers():
    return explorer(params=[param("n", "指数", [1, 2, 3])],
                    state=lambda n: {"value": [("二的 n 次方", 2 ** n)]})
