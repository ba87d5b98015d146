from lessonkit import Lesson, bars, explorer, param, table

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.widget
def mask_table():
    return {"rows": ["甲", "乙"], "cols": ["甲", "乙"], "context": "两个字", "initial_mode": "casual",
            "modes": [{"key": "causal", "label": "因果", "visible": [[True, False], [True, True]]}]}
