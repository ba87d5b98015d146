"""The "kitchen sink" fixture lesson: every Markdown feature once (a bitmap and a vector image, a data file, a table,
maths inside a paragraph, code, a callout, cards, a figure referenced from the text). Built with the book and chapter
fixtures in the fixture course (tests/conftest.py fixture_course); its files are read by tests/test_page_integrity.py
and tests/browser/test_csp.py. A plain module, not conftest."""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

SLUG = "sink"


def tiny_png() -> bytes:
    """A valid 1×1 PNG, written by hand so the test needs no image library."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\x1b\x5b\xb8")) + chunk(b"IEND", b""))


SVG = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><rect width="20" height="10" fill="#0072b2"/></svg>'
SINK_MD = """\
## 图片与数据 {#files}

一张位图：![一个蓝色像素](img/pixel.png)，一张矢量图：![蓝色长方形](diagram.svg "示意")。
数据文件有 {{ rows }} 行，第二行是「{{ second }}」。

| 量 | 值 |
|---|---|
| 行数 | {{ rows }} |

段落里的公式 $$x^2 + y^2 = r^2$$ 也是合法的。

```python
print("<script>不是脚本</script>")
```

## 提示与卡片 {#boxes}

::: warning 注意
见 @fig:line 与 [上一节](#files)。
:::

::: cards
::: card 甲
内容 $\\sqrt{2} \\approx {{ root2 }}$
:::
::: card 乙
内容
:::
:::

{{< figure line >}}
"""
SINK_PY = """\
import numpy as np
from lessonkit import Lesson

lesson = Lesson()
TABLE = lesson.read_text("data/table.csv").splitlines()


@lesson.value
def rows():
    return len(TABLE)


@lesson.value
def second():
    return TABLE[1]


@lesson.value
def root2():
    return float(np.sqrt(2))


@lesson.figure(caption="一条直线，斜率 {{ root2 }}", alt="从原点出发的直线")
def line(plt, root2):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, root2], label="直线")
    ax.legend()
    return fig
"""


def write_sink_lesson(content: Path) -> Path:
    """The lesson's folder under `content`, with its picture, diagram and data file."""
    folder = content / SLUG
    (folder / "img").mkdir(parents=True)
    (folder / "data").mkdir()
    (folder / "lesson.yaml").write_text("title: 大杂烩\nsummary: 每种写法都用一次\nobjectives:\n  - 页面合法\n",
                                        encoding="utf-8")
    (folder / "lesson.md").write_text(SINK_MD, encoding="utf-8")
    (folder / "lesson.py").write_text(SINK_PY, encoding="utf-8")
    (folder / "img" / "pixel.png").write_bytes(tiny_png())
    (folder / "diagram.svg").write_bytes(SVG)
    (folder / "data" / "table.csv").write_text("名称,数值\n甲,1\n乙,2\n", encoding="utf-8")
    return folder
