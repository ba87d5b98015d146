from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.value
def secrets():
    return lesson.read_text("../py-data-parent/../../secret.txt")
