"""moa -- Python binding of Moa, a Cassowary-style constraint layout engine, over libmoa.so with ctypes.

    import moa
    with moa.Layout(320, 480) as L:
        sidebar, content = L.view("sidebar"), L.view("content")
        cs = L.eqs('''
            sidebar.left == 0
            sidebar.top == 0
            sidebar.bottom == 0
            sidebar.width == 200
            content.left == sidebar.right
            content.right == 0
            content.top == 0
            content.bottom == 0
        ''')
        L.solve()
        print(content.frame)         # Rect(x=200.0, y=0.0, width=120.0, height=480.0)

Two levels, as in C and Lua: :class:`Layout` (views, the equation language and Auto Layout's visual format
language, layout guides, stacks (:class:`Stack`), chains (:class:`Chain`) and barriers (:class:`Barrier`),
frames, animations on a clock the caller advances, collapse/show, pan gestures, content that sizes itself:
measure functions, wrapping text, fitting sizes) and :class:`Solver` (variables, linear constraints with
strict priorities, edit variables).
Text can be measured in a real font with :class:`Font` (the optional libmoafont; :func:`has_font`).
Failures raise subclasses of :class:`Error` carrying the library's message and details (line, offset,
expected, suggestion; for a conflict the conflicting equations with their lines; for measured content that
failed, :class:`CallbackError` from the exception the function raised; for a limit reached or a call stopped by
the progress function, :class:`LimitError`). Limits (``set_limit``, ``limit``, ``usage``) bound what a layout or
solver takes; :meth:`Layout.on_progress` watches and may stop a long call.
No compile step: the standard library's ctypes loads libmoa.so (``MOA_LIBRARY``, else the copy inside this
package that an installed wheel ships, else the checkout's ``build/lib/libmoa.so``, else
``ctypes.util.find_library("moa")``; ``moa.library_path`` tells which). ``pip install ./bindings/python`` builds
and installs a wheel with the library inside; ``python -m moa`` runs a small demo. The package is typed
(``py.typed``): type checkers read the signatures. Optional: ``moa._speedups``, a compiled module that makes the
calls of every frame without ctypes (``make python-ext`` in the checkout; the wheel has it when the Python that
built it had its headers and a C compiler); without it, or with ``MOA_PYTHON_SPEEDUPS=0``, ctypes makes them.
Threads: every call holds the GIL (ctypes.PyDLL, as kiwisolver does), so calls never run at once; layouts and
solvers of different threads share nothing. A thread may still call a layout while another is inside one of its
callbacks (a measure function running Python code): keep a layout to one thread at a time.
"""
from ._lib import lib as _lib, path as library_path
from ._errors import (Error, ParseError, ConflictError, NotFoundError, InvalidError, DuplicateError, MisuseError,
                      ClosedError, CallbackError, LimitError, Conflict, PRIORITIES)
from ._layout import (Layout, View, LayoutConstraint, Animation, Collapsible, Pan, Rect, Frame, FrameColumns,
                      Violation, Ambiguity, Usage, CURVES, MAX_MEASURE_ROUNDS)
from ._arrange import (Stack, Chain, Barrier, DISTRIBUTIONS, ALIGNMENTS, CHAIN_STYLES, BARRIER_SIDES,
                       SPACING_DEFAULT)
from ._font import Font, FontMetrics, has_font
from ._solver import Solver, Variable, Expression, Relation, Constraint

#: The version of the loaded library ("X.Y.Z"): Moa's one version (MoaVersion in Swift, MOA_VERSION in moa.h).
version: str = _lib.moa_libversion().decode()
__version__ = version
_VERSION = "moa " + __version__

#: Lua-style constructors: moa.layout(320, 480), moa.solver().
layout = Layout
solver = Solver

__all__ = ["Layout", "View", "LayoutConstraint", "Animation", "Collapsible", "Pan", "Rect", "Frame", "FrameColumns",
           "Violation", "Ambiguity", "Usage", "Stack", "Chain", "Barrier", "DISTRIBUTIONS", "ALIGNMENTS",
           "CHAIN_STYLES", "BARRIER_SIDES", "SPACING_DEFAULT", "Solver", "Variable", "Expression", "Relation",
           "Constraint", "Error", "ParseError", "ConflictError", "NotFoundError", "InvalidError", "DuplicateError",
           "MisuseError", "ClosedError", "CallbackError", "LimitError", "Conflict", "PRIORITIES", "CURVES",
           "MAX_MEASURE_ROUNDS", "Font", "FontMetrics", "has_font", "layout", "solver", "version", "library_path"]
