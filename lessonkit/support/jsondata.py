"""JSON the engine writes into pages, and the plain data it is made of."""
from __future__ import annotations

import json
import math
import numbers
from typing import Any


def plain(value: Any, *, keep_tuples: bool = False, text_keys: bool = False, gaps: bool = False) -> Any:
    """`value` as plain Python data — dicts, lists, strings, true/false, None, int and float — all the way down:
    numpy arrays as (nested) lists, numpy scalars and other numbers as int or float. Tuples become lists, or stay
    tuples with `keep_tuples` (a builder's parameter values: a point stays hashable); dict keys stay as they are,
    or become strings with `text_keys` (as JSON writes them). NaN and ±∞ stay, for the caller to refuse at their
    key path (json_for_script refuses them), or become None with `gaps` (a gap in a figure's data). Anything else
    (an object JSON cannot hold) is returned as it is."""
    if hasattr(value, "tolist") and not isinstance(value, (list, tuple, dict)):  # numpy (no import needed here)
        value = value.tolist()
    if isinstance(value, dict):
        return {str(k) if text_keys else k: plain(v, keep_tuples=keep_tuples, text_keys=text_keys, gaps=gaps)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [plain(v, keep_tuples=keep_tuples, text_keys=text_keys, gaps=gaps) for v in value]
        return tuple(items) if keep_tuples and isinstance(value, tuple) else items
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    value = float(value)
    return None if gaps and not math.isfinite(value) else value


def json_for_script(data) -> str:
    """JSON that is safe inside <script type="application/json">: no `</script>`, no HTML comment openers."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
