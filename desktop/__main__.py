"""``python -m desktop``: the examdesk GUI."""
from .launch import main

raise SystemExit(main())
