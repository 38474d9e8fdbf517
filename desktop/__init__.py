"""examdesk's Qt layer: thin views over ``question_db``."""
from . import pyside_workarounds

# Before any signal is emitted anywhere in the app (see the module for the bug).
pyside_workarounds.install()
