from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.value
def grows():
    return [1.0, float("inf")]
