"""`{{< code >}}` in a challenge's worked answer (render/placers.py answer_ctx, features/code.py place): the solution's
code and what it computed, on screen and printed again with the answers (other ids, not a second showing); left out
with the answer where answers are hidden."""
import re

import pytest

PY = """\
# %% setup
import matplotlib.pyplot as plt
import numpy as np

rate = 0.5

# %% solve
steps = 0
x = 1.0
while x > 0.01:
    x *= rate
    steps += 1
print(f"{steps} 步后 x = {x:.4f}")

# %% figure: path caption="每一步的 x" alt="一条下降的折线"
plt.plot(rate ** np.arange(8))
"""
MD = "## 问题 {#q}\n\n看下面的挑战。\n"
YAML = """\
title: 小课
summary: 一节小课
objectives:
  - 算步数
answers: {answers}
challenges:
  - title: 几步
    question: x 每步减半，几步后小于 0.01？  <!-- literal -->
    answer: |
      {{{{< code solve >}}}}

      {{{{< code path >}}}}
"""


@pytest.mark.parametrize("answers", ["shown", "hidden"])
def test_a_worked_answer_shows_the_solution_s_code(make_lesson, run_build, answers):
    make_lesson(yaml=YAML.format(answers=answers), md=MD, py=PY)
    code, _, err, out = run_build()
    assert code == 0, err
    page = (out / "demo" / "index.html").read_text(encoding="utf-8")
    if answers == "hidden":   # no trace of the answer in the students' site
        assert "steps += 1" not in page and "7 步后" not in page and 'id="code-solve' not in page
        return
    ids = re.findall(r'id="(code-\w+(?:-print)?)"', page)
    assert sorted(ids) == ["code-path", "code-path-print", "code-solve", "code-solve-print"]
    assert page.count("<samp>7 步后 x = 0.0078</samp>") == 2        # 0.5⁷ = 0.0078125 < 0.01 < 0.5⁶
    assert 'id="fig-path"' in page and 'id="fig-path-print"' in page
