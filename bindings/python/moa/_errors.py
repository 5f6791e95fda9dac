"""Exceptions of the moa package and the argument checks that run before any call into C.

Every failure of the library becomes an exception of a subclass of :class:`Error`, chosen by the moa_status
code; it carries the library's message (``str(e)``) and the details of moa_error_info. Arguments are checked
in Python first (types, NaN and infinities, embedded NUL bytes), so bad input never reaches the library.
"""
from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Iterable, NamedTuple, Optional, Sequence, Type, Union

from ._lib import lib, PRIORITY_NAMES

if TYPE_CHECKING:
    from ._layout import LayoutConstraint
    from ._solver import Constraint

__all__ = ["Error", "ParseError", "ConflictError", "NotFoundError", "InvalidError", "DuplicateError",
           "MisuseError", "ClosedError", "CallbackError", "LimitError", "Conflict", "STATUS_NAMES", "error_for"]

# moa_status codes (moa.h) and their names from the library (moa_status_name; the Lua binding's details.code).
OK, ERROR, MISUSE, NOMEM, INVALID, NOTFOUND, DUPLICATE, UNSATISFIABLE, PARSE, CALLBACK, LIMIT = range(11)
STATUS_NAMES = {code: lib.moa_status_name(code).decode() for code in range(LIMIT + 1)}


class Conflict(NamedTuple):
    """One constraint of a conflict: the constraint object (a :class:`LayoutConstraint`, or a solver's
    :class:`Constraint`), its equation (or the solver's description of it) and the 1-based line of the eqs text
    it came from (0 if none)."""
    constraint: Union[LayoutConstraint, Constraint]
    equation: str
    line: int


class Error(Exception):
    """A failure reported by libmoa.

    ``str(e)`` is the library's whole message (for equation text: location, message and a caret line).
    Attributes (as the Lua binding's ``details`` table):

    - ``code``: the status name, e.g. ``"PARSE"``, ``"UNSATISFIABLE"``; ``status``: its number;
    - ``kind``: the finer class ("parse", "unknownView", "unknownAttribute", "unsatisfiable", "invalid", ...);
    - ``message``: what went wrong, without the location;
    - ``line`` (1-based, 0 if none), ``offset`` (byte in that line, -1 if none), ``text_offset``, ``length``;
    - ``source_line``, ``expected``, ``suggestion``, ``source`` (strings, "" if none);
    - ``conflicts``: a list of :class:`Conflict` for a conflict, else empty;
    - ``index``: for :meth:`Solver.add_many`, the 0-based position of the item that failed (else None);
      ``batch_conflicts``: the positions of that call's other items in the conflict, ascending (else empty).
    """

    def __init__(self, text: str, status: int = ERROR, kind: str = "", message: Optional[str] = None, line: int = 0,
                 offset: int = -1, text_offset: int = -1, length: int = 0, source_line: str = "", expected: str = "",
                 suggestion: str = "", source: str = "", conflicts: Iterable[Conflict] = ()) -> None:
        super().__init__(text)
        self.status = status
        self.code = STATUS_NAMES.get(status, "UNKNOWN")
        self.kind = kind
        self.message = text if message is None else message
        self.line = line
        self.offset = offset
        self.text_offset = text_offset
        self.length = length
        self.source_line = source_line
        self.expected = expected
        self.suggestion = suggestion
        self.source = source
        self.conflicts: list[Conflict] = list(conflicts)
        self.index: Optional[int] = None
        self.batch_conflicts: list[int] = []


class ParseError(Error):
    """Equation text that does not follow the grammar or names an unknown view or attribute (MOA_PARSE)."""


class ConflictError(Error):
    """A required constraint that cannot hold (MOA_UNSATISFIABLE); ``conflicts`` lists the others involved."""


class NotFoundError(Error, LookupError):
    """A stale id (a removed view or constraint), an unknown name, or xeq naming nothing (MOA_NOTFOUND)."""


class InvalidError(Error, ValueError):
    """A bad value: NaN or infinity, out of range, a bad name or option (MOA_INVALID, or caught in Python)."""


class DuplicateError(Error):
    """A name already taken, a constraint or edit variable added twice (MOA_DUPLICATE)."""


class MisuseError(Error):
    """A call in the wrong state, e.g. advancing the clock from a completion callback (MOA_MISUSE)."""


class ClosedError(MisuseError):
    """The layout or solver was closed: "attempt to use a closed layout"."""


class CallbackError(Error):
    """Measured content failed (MOA_CALLBACK): a measure function or a font's advance function raised or gave
    a bad answer, or the content did not settle in MAX_MEASURE_ROUNDS solves. Nothing changed. ``str(e)`` is
    the library's message (which view, the proposal, what went wrong); ``e.__cause__`` is the Python exception
    the function raised, when it raised one."""


class LimitError(Error):
    """A limit was reached (MOA_LIMIT): the rows or cells of a solver's tableau (``set_limit("rows" | "cells",
    n)``), the pivots or time one call may take (``set_limit("pivots" | "seconds", n)``, on a solver or a
    layout), or the layout's progress function (:meth:`Layout.on_progress`) returned False. Nothing changed.
    For rows and cells the details locate the equation that did not go in."""


_CLASSES: dict[int, Type[Error]] = {
    PARSE: ParseError, UNSATISFIABLE: ConflictError, NOTFOUND: NotFoundError, INVALID: InvalidError,
    DUPLICATE: DuplicateError, MISUSE: MisuseError, CALLBACK: CallbackError, LIMIT: LimitError}


def error_for(status: int) -> Type[Error]:
    """The exception class for a moa_status."""
    return _CLASSES.get(status, Error)


# ---------------------------------------------------------------------------------------------- argument checks

def finite(x: object, what: str) -> float:
    """x as a float; TypeError unless a real number (bool is refused), InvalidError unless finite."""
    if type(x) is float and x - x == 0:  # the common case first: a finite float (inf - inf and nan are nan)
        return x
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TypeError("%s must be a number, got %s" % (what, type(x).__name__))
    try:
        x = float(x)
    except OverflowError:  # an int or Fraction beyond a double's range
        raise InvalidError("%s must be finite, got a number beyond a double's range" % what, INVALID, "invalid") from None
    if not math.isfinite(x):
        raise InvalidError("%s must be finite, got %r" % (what, x), INVALID, "invalid")
    return x


def text(s: object, what: str) -> bytes:
    """s encoded as UTF-8 for a C string; TypeError unless str, InvalidError if it holds a NUL character."""
    if not isinstance(s, str):
        raise TypeError("%s must be a str, got %s" % (what, type(s).__name__))
    if "\0" in s:
        raise InvalidError("%s must not contain NUL characters" % what, INVALID, "invalid")
    return s.encode("utf-8", "surrogatepass")


def boolean(b: object, what: str) -> int:
    """b as 0/1; TypeError unless a bool."""
    if not isinstance(b, bool):
        raise TypeError("%s must be a bool, got %s" % (what, type(b).__name__))
    return 1 if b else 0


def choice(value: object, names: Sequence[str], what: str) -> int:
    """The index of value in names; TypeError unless str, InvalidError if unknown."""
    if not isinstance(value, str):
        raise TypeError("%s must be a str, got %s" % (what, type(value).__name__))
    try:
        return names.index(value)
    except ValueError:
        raise InvalidError("unknown %s %r (expected %s)" % (what, value, ", ".join(names)), INVALID,
                           "invalid") from None


# Priority names: the library's table (moa_priority_name), the same names equation text takes after `@`;
# moa.PRIORITIES exposes it.
PRIORITIES: dict[str, float] = PRIORITY_NAMES


def priority(p: Union[float, str], what: str = "priority", edit: bool = False) -> float:
    """A priority from a name or a number in (0, 1000] (below 1000 for an edit variable)."""
    if isinstance(p, str):
        if p not in PRIORITIES:
            raise InvalidError("unknown priority name %r (expected required, strong/high, medium, weak/low, fit, "
                               "... or a number in (0, 1000])" % p, INVALID, "invalid")
        value = float(PRIORITIES[p])
    else:
        value = finite(p, what)
        if not 0 < value <= 1000:
            raise InvalidError("%s must be in (0, 1000], got %r" % (what, value), INVALID, "invalid")
    if edit and value >= 1000:
        raise InvalidError("an edit variable cannot be required (use a priority below 1000)", INVALID, "invalid")
    return value


for _cls in (Error, ParseError, ConflictError, NotFoundError, InvalidError, DuplicateError, MisuseError,
             ClosedError, CallbackError, LimitError, Conflict):
    _cls.__module__ = "moa"  # shown in tracebacks as moa.ParseError, not moa._errors.ParseError
