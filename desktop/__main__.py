"""``python -m desktop``: the examdesk GUI."""
from .app import main

raise SystemExit(main())
