from lessonkit import Lesson, bars, explorer, param, table

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.widget
def shares():
    return bars(["编码器", "解码器"], [0.4, 0.6], highlight=["解码"])
