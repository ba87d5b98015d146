from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10
