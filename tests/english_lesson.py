"""An English site, as a teacher who writes in English makes it: site.yaml `language: en` and a lesson that uses every
feature with words of its own — self-checks of each kind (numbers with a unit and scale, a vector, a negative and a
zero answer, single and multiple choice, hints, known mistakes, one placed in the text with its own answer), a figure
whose data table names columns itself, an explorer with a yes/no parameter, bars, a table with booleans, a mask
table, a classroom question. Nothing lessonkit writes for it may be Chinese.

A plain module (not conftest) so tests/ and tests/browser/ can both import it. The numbers the tests expect are
worked out here by hand, not read from the lesson code.
"""
from __future__ import annotations

import math
import re
import textwrap
from pathlib import Path

SLUG = "powers"
# Chinese characters, CJK punctuation (「」，。：；), full-width forms (？（）): none may appear on an English site
CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")

REMAIN_PCT = 0.9 ** 96 * 100                       # 0.0040484 (%): what the student types for challenge 1
MU, SIGMA = 2.5, math.sqrt((7.5 ** 2 + 3 * 2.5 ** 2) / 4)   # of x = [10, 0, 0, 0]: 2.5 and 4.330
XHAT = [7.5 / SIGMA, -2.5 / SIGMA, -2.5 / SIGMA, -2.5 / SIGMA]  # 1.732, −0.577 ×3

YAML = """\
title: Why the sum grows
summary: A small lesson written in English
objectives:
  - Read one computed number
intro: Every number here is computed when the site is built.
question: How large is two to the tenth?
checks:
  - id: pow
    question: What is two to the tenth?
    hints:
      - Double one, ten times.
    check:
      fields:
        - label: Two to the tenth
          answer: two_pow
          tolerance: {absolute: 0.5}
    answer: It is {{ two_pow }}, a little more than a thousand.
challenges:
  - title: What is left
    question: What percentage of the signal is left after 96 layers that each keep 0.9 of it?
    answer: About {{ remain:pct3 }} is left after all the layers.
    hints:
      - Multiply 0.9 by itself 96 times.
      - Then multiply by 100 for a percentage.
    check:
      fields:
        - label: Percentage left
          answer: remain
          scale: 100
          unit: "%"
          tolerance: {relative: 0.05}
          mistakes:
            - {value: 0.006, hint: That is the handout's slip; multiply by 100 only once.}
  - title: Normalise
    question: Normalise the vector x = [10, 0, 0, 0].
    answer: The mean is {{ norm.mu }}, the spread {{ norm.sigma }}, and the result {{ norm.xhat }}.
    check:
      fields:
        - {label: Mean, answer: norm.mu, tolerance: {absolute: 0.01}}
        - {label: Spread, answer: norm.sigma, tolerance: {relative: 0.01}}
        - {label: Normalised, answer: norm.xhat, tolerance: {absolute: 0.01}}
  - title: Pick the true ones
    question: Which of these are true of a layer that keeps 0.9 of its input?
    answer: The first and the third are true; the second has the direction backwards.
    check:
      multiple: true
      choices:
        - {text: The signal shrinks, correct: true}
        - {text: The signal grows, feedback: It has the direction backwards.}
        - {text: Ten layers keep about a third, correct: true}
  - title: One choice
    question: Which number is two to the tenth?
    answer: It is 1024, since ten doublings of one give 1024.
    check:
      choices:
        - {text: "1000", feedback: "Close, but ten doublings give a little more."}
        - {text: "1024", correct: true}
  - title: Below zero and zero
    question: What is the slope of the falling line, and where does it start?
    answer: The slope is {{ drop }} and the line starts at {{ start }}, exactly at zero.
    check:
      fields:
        - {label: Slope, answer: drop, tolerance: {sig: 2}}
        - {label: Start, answer: start, tolerance: {absolute: 0.01}}
"""

MD = """\
## The number {#number}

Two to the tenth is {{ two_pow }}; @fig:curve draws it.

{{< check pow >}}

{{< figure curve >}}

## Widgets {#widgets}

{{< widget scaling >}}

{{< widget two_bars >}}

{{< table flags >}}

{{< widget mask_table >}}
"""

PY = '''\
import numpy as np

from lessonkit import Lesson, bars, explorer, param, table

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.value
def remain():
    return 0.9 ** 96


@lesson.value
def norm():
    x = np.array([10.0, 0, 0, 0])
    mu, sigma = x.mean(), x.std()
    return {"mu": mu, "sigma": sigma, "xhat": ((x - mu) / sigma).tolist()}


@lesson.value
def drop():
    return -0.25


@lesson.value
def start():
    return 0.0


@lesson.value
def flags():
    return table({"n": [1, 2], "even": [False, True]}, caption="Parity")


@lesson.figure(caption="Powers of two and their neighbours", alt="Four panels: a rising line, three bars, two grids")
def curve(plt):
    fig, axs = plt.subplots(1, 4, figsize=(8, 2))
    axs[0].plot(range(49), [n * n for n in range(49)])
    axs[1].bar([0, 1, 2], [3, 1, 2])
    axs[1].set_xticks([0, 1, 2], ["a", "b", "c"])
    axs[2].imshow(np.arange(9.0).reshape(3, 3))
    axs[3].imshow(np.zeros((30, 30)))
    return fig


@lesson.widget
def scaling():
    def state(d, scaled):
        return {"values": [("size", d / (np.sqrt(d) if scaled else 1)), ("scaled", scaled)],
                "text": "Scaling keeps the size near one." if scaled else "Without scaling the size grows."}

    return explorer(params=[param("d", "Width", [4, 16], control="stepper"),
                            param("scaled", "Scaled", [False, True], control="buttons")],
                    state=state, key=[(16, True)], bars="linear", caption="Size of a dot product")


@lesson.widget
def two_bars():
    return bars(["first", "second"], [0.3, 0.7], unit="s", caption="Two bars")


@lesson.widget
def mask_table():
    words = ["the", "cat", "sat"]
    n = len(words)
    return {"rows": words, "cols": words, "context": "Continue “the cat sat”", "initial_mode": "encoder",
            "modes": [{"key": "encoder", "label": "encoder", "visible": np.ones((n, n), dtype=bool).tolist()},
                      {"key": "decoder", "label": "decoder", "visible": np.tril(np.ones((n, n), dtype=bool)).tolist()}]}
'''


def write_english_site(content: Path) -> Path:
    """content/site.yaml (`language: en`) and content/SLUG; returns the lesson folder."""
    folder = content / SLUG
    folder.mkdir(parents=True)
    (content / "site.yaml").write_text("language: en\n", encoding="utf-8")
    for name, text in (("lesson.yaml", YAML), ("lesson.md", MD), ("lesson.py", PY)):
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder
