from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.widget(kind="jacobian_grid")
def grid():
    return {"cells": ["1", "0", "0", "1"]}
