"""JSON the engine writes into pages."""
from __future__ import annotations

import json

def json_for_script(data) -> str:
    """JSON that is safe inside <script type="application/json">: no `</script>`, no HTML comment openers."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
