from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.widget(kind="shelf")
def shelf():
    return {"rows": {"它", "最"}}
