"""examdesk's Qt layer: thin views over ``question_db``."""
import os

from . import pyside_workarounds

# Before any signal is emitted anywhere in the app (see the module for the bug).
pyside_workarounds.install()

# Qt's raster engine hands every fill of 96 or more scan lines (a scroll bar's groove, a
# tall text block) to its GUI thread pool and waits for it. For widget-sized fills the
# hand-off costs more than the fill, and on a busy 2-core machine the wait for a pool thread
# was the largest cost of a question switch (py-spy --native: 41% of the switch under
# QScrollBar::paintEvent → QThreadPool::start / QLatch::wait; 6% without the pool).
# Qt reads the variable when it first paints, so setting it at import is early enough.
os.environ.setdefault("QT_NO_GUI_THREADPOOL", "1")
