from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.widget
def shelf():
    return {"books": ["甲", "乙"]}
