"""Sphinx's and MyST's roles, as a chapter ported from d2l or a Jupyter Book keeps them (`:eqref:`…``,
`:numref:`…``, `{eq}`…``, `{numref}`…``, `:cite:`…``): lessonkit would print them as they are, so each is a warning
at its file and line saying how to write it here (an error under --strict); code and ``code spans`` keep them."""
from __future__ import annotations

from lesson_folders import warning_lines

MD = """\
## 梯度下降 {#gd}

由 :eqref:`eq_gd` 可知，步长太大会发散（:numref:`fig_gd`）。

见 {eq}`eq_gd` 和 {numref}`fig_gd`，出处 :cite:`Boyd.Vandenberghe.2004` 与 {cite:t}`press2022alibi,su2021roformer`。

写成代码是这样：`` :eqref:`eq_gd` ``，不算。

```markdown
:eqref:`eq_gd` 在代码块里也不算
```
"""
YAML = """\
title: 小课
summary: 一节用来测试的小课
objectives:
  - 看懂一个数
challenges:
  - title: 算一算
    question: 按 :eqref:`eq_gd` 走一步。
    answer: |
      先看

      {numref}`fig_gd`。
"""
HINT = " (expected lessonkit's own syntax: `@eq:NAME`, `@fig:NAME`, `[@key]`, `@key`, `[text](#id)`, `{#eq:NAME}`)"
EXPECTED = [
    "demo/lesson.md:3: `:eqref:`eq_gd``: this is Sphinx/MyST syntax; here write `@eq:eq_gd`",
    "demo/lesson.md:3: `:numref:`fig_gd``: this is Sphinx/MyST syntax; here write `@fig:fig_gd`",
    "demo/lesson.md:5: `{eq}`eq_gd``: this is Sphinx/MyST syntax; here write `@eq:eq_gd`",
    "demo/lesson.md:5: `{numref}`fig_gd``: this is Sphinx/MyST syntax; here write `@fig:fig_gd`",
    "demo/lesson.md:5: `:cite:`Boyd.Vandenberghe.2004``: this is Sphinx/MyST syntax; here write "
    "`[@Boyd.Vandenberghe.2004]`",
    "demo/lesson.md:5: `{cite:t}`press2022alibi,su2021roformer``: this is Sphinx/MyST syntax; here write "
    "`@press2022alibi; @su2021roformer`",
    "demo/lesson.yaml:7: `:eqref:`eq_gd``: this is Sphinx/MyST syntax; here write `@eq:eq_gd`",
    "demo/lesson.yaml:11: `{numref}`fig_gd``: this is Sphinx/MyST syntax; here write `@fig:fig_gd`",
]


def test_sphinx_and_myst_roles_are_warnings_with_lessonkits_way(make_lesson, run_build):
    make_lesson(md=MD, yaml=YAML)
    code, _, err, out = run_build()
    assert code == 0 and (out / "demo" / "index.html").is_file()
    lines = warning_lines(err)
    assert lines[0] == f"warning: {len(EXPECTED)} thing(s) to check (the site was built; --strict makes them errors):"
    assert lines[1:] == [line + HINT for line in EXPECTED]


def test_under_strict_they_are_errors(make_lesson, run_build):
    make_lesson(md=MD, yaml=YAML)
    code, _, err, out = run_build("--strict")
    assert code == 1 and not out.exists()
    assert "demo/lesson.md:3: `:eqref:`eq_gd``: this is Sphinx/MyST syntax; here write `@eq:eq_gd`" in err


def test_in_chinese_the_hint_says_what_to_write(make_lesson, run_build, monkeypatch):
    monkeypatch.setenv("LESSONKIT_LANG", "zh-CN")
    make_lesson(md=MD, yaml=YAML)
    _, _, err, _ = run_build()
    assert "demo/lesson.md:3: `:eqref:`eq_gd``：这是 Sphinx/MyST 的写法；在这里写 `@eq:eq_gd`" in err
