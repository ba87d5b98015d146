"""Emphasis beside Chinese, Japanese and Korean text (to be written: the CJK-friendly amendment)."""
from __future__ import annotations

from markdown_it.rules_inline import StateInline

scan_delims = StateInline.scanDelims
