"""JSON Schemas (draft 2020-12) of the files examdesk writes for other tools: the bank
export (``question-db export --format json``) and the progress export. Tests validate real
exports against them; ``schema(name)`` loads one."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

__all__ = ["schema", "BANK_EXPORT", "PROGRESS_EXPORT"]

BANK_EXPORT = "bank_export"
PROGRESS_EXPORT = "progress_export"


@cache
def schema(name: str) -> dict:
    """The schema ``name`` (``BANK_EXPORT`` or ``PROGRESS_EXPORT``) as a dict."""
    return json.loads((Path(__file__).with_name(f"{name}.schema.json")).read_text("utf-8"))
