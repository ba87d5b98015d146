from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.value
def doubled(two_pwo):
    return 2 * two_pwo
