from lessonkit import Lesson, bars, explorer, param, table

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.widget
def ratios():
    def state(n):
        return {"values": [("n", n), ("1 / (n − 2)", 1 / (n - 2) if n != 2 else float("nan"))]}

    return explorer(params=[param("n", "n", [1, 2, 3])], state=state)
