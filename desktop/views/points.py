"""Points as the learner reads them: at most two decimals, no trailing zeros."""
from __future__ import annotations


def format_points(value: float | int | None) -> str:
    """1.3333 → '1.33', 8.0 → '8', 0.5 → '0.5', None → '0'."""
    text = f"{round(float(value or 0), 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text
