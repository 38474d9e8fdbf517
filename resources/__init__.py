"""examdesk's icons, style sheets and translations (installed as ``examdesk_resources``)."""
from pathlib import Path

ROOT = Path(__file__).parent
