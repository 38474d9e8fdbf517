"""The README's apt line and the list .ci/run installs are the same packages (issue 31):
CI's machine is the learner's."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_apt_packages() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"sudo apt install ((?:[^\n]*\\\n)*[^\n]*)", text)
    assert match, "README has no apt install line"
    return match.group(1).replace("\\\n", " ").split()


def test_ci_installs_what_the_readme_tells_a_learner_to_install():
    listed = [line.strip() for line in
              (ROOT / "scripts" / "debian-packages.txt").read_text().splitlines()
              if line.strip() and not line.startswith("#")]
    assert readme_apt_packages() == listed
    assert "fonts-noto-cjk" in listed
    assert "scripts/debian-packages.txt" in (ROOT / ".ci" / "run").read_text()
