from lessonkit import Lesson, bars, explorer, param, table

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.widget
def squares():
    return explorer(params=[param("n", "n", [1, 2, 3])],
                    state=lambda n: {"values": [("n", n)] + ([("n²", n * n)] if n > 1 else [])})
