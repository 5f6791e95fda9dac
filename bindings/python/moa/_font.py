"""Text measured in a real font: libmoafont (bindings/font/moafont.h), loaded with ctypes when first needed.

    import moa
    if moa.has_font():
        with moa.Font() as font:                  # moafont_default_path(): DejaVu Sans & co.
            font.family                           # "DejaVu Sans"
            font.advance("Hello", 16)             # 40.5546875 (points)
            L.set_font(font)                      # the layout measures its text with it

libmoafont is optional (FreeType and HarfBuzz; `make font`) and separate from libmoa. It is looked up, in order:

1. the path in the environment variable ``MOA_FONT_LIBRARY`` (an explicit choice: used or failed, never
   replaced by another copy);
2. ``libmoafont.so`` inside this package, next to this module (what an installed wheel ships when the wheel
   was built beside a libmoafont; it needs the system's FreeType and HarfBuzz libraries to load);
3. ``libmoafont.so`` in the directory of the loaded libmoa (``moa.library_path``), where `make font` puts it;
4. ``ctypes.util.find_library("moafont")`` (an installed copy).

:func:`has_font` tells whether it can be loaded; :class:`Font` raises OSError (with what was tried) when not.

Lifetime. :meth:`Layout.set_font` hands moafont's own C function (``moafont_advance``) and the font's pointer to
the layout, so measuring never goes through Python; the layout keeps the Font object while it is set. Closing
a Font that a layout still uses (``with moa.Font() as f:`` around a layout that outlives the block) marks it
closed at once (its methods raise ClosedError) but frees the C font only when the last layout lets go of it
(set_font(None) or another font, or the layout closed), so a layout never measures with a freed font.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import math
import os
from typing import Any, Literal, NamedTuple, Optional, Tuple, Union

from . import _errors as E
from ._errors import finite
from ._lib import path as _moa_path, ADVANCE_FN, PACKAGE_DIR

__all__ = ["Font", "FontMetrics", "has_font"]


class FontMetrics(NamedTuple):
    """A font's vertical metrics as fractions of the font size (multiply by the size in points): ascent above
    the baseline, descent below it (positive), line_gap the extra space between lines. The recommended line
    height is (ascent + descent + line_gap) * size."""
    ascent: float
    descent: float
    line_gap: float


_c = ctypes
_SIGNATURES = {
    "moafont_open": (_c.c_void_p, [_c.c_char_p, _c.c_char_p, _c.c_size_t]),
    "moafont_close": (None, [_c.c_void_p]),
    "moafont_advance": (_c.c_double, [_c.c_char_p, _c.c_size_t, _c.c_double, _c.c_void_p]),
    "moafont_family": (_c.c_char_p, [_c.c_void_p]),
    "moafont_metrics": (None, [_c.c_void_p, _c.POINTER(_c.c_double), _c.POINTER(_c.c_double),
                               _c.POINTER(_c.c_double)]),
    "moafont_default_path": (_c.c_char_p, []),
}

#: "lib": the PyDLL, "advance": moafont_advance as a moa_text_advance_fn, "path": where it was loaded from; or
#: "error": why it cannot be loaded.
_state: dict[str, Any] = {}


def _candidates() -> Tuple[list[str], bool]:
    """The paths (or find_library names) to try, in order, and whether the first is an explicit choice."""
    env = os.environ.get("MOA_FONT_LIBRARY")
    if env:
        return [env], True
    found = [os.path.join(PACKAGE_DIR, "libmoafont.so")]
    if os.sep in _moa_path:
        beside = os.path.join(os.path.dirname(os.path.abspath(_moa_path)), "libmoafont.so")
        if beside not in found:
            found.append(beside)
    name = ctypes.util.find_library("moafont")
    if name:
        found.append(name)
    return found, False


def _load() -> ctypes.PyDLL:
    """The loaded libmoafont (declared), loading it on the first call; OSError if it cannot be loaded (the
    outcome is kept: later calls answer the same without trying again)."""
    if "lib" in _state:
        return _state["lib"]
    if "error" in _state:
        raise OSError(_state["error"])
    candidates, explicit = _candidates()
    errors = []
    for cand in candidates:
        if not explicit and os.sep in cand and not os.path.exists(cand):
            errors.append("%s: not found" % cand)
            continue
        try:
            flib = ctypes.PyDLL(cand)  # the GIL held through calls, as for libmoa (_lib.py)
            for name, (res, args) in _SIGNATURES.items():
                fn = getattr(flib, name)
                fn.restype, fn.argtypes = res, args
        except (OSError, AttributeError) as e:
            errors.append("%s: %s" % (cand, e))
            if explicit:
                break
            continue
        _state["lib"] = flib
        # moafont_advance has moa_text_advance_fn's C type: the layout calls it directly, never through Python.
        _state["advance"] = ADVANCE_FN(("moafont_advance", flib))
        _state["path"] = cand
        return flib
    _state["error"] = ("moa: cannot load libmoafont.so, the optional real-font measurer (set MOA_FONT_LIBRARY, "
                       "or run `make font` beside libmoa): " + ("; ".join(errors) or "no candidate"))
    raise OSError(_state["error"])


def has_font() -> bool:
    """Whether libmoafont can be loaded (then :class:`Font` works, given a font file)."""
    try:
        _load()
    except OSError:
        return False
    return True


def _closed_font() -> E.ClosedError:
    return E.ClosedError("attempt to use a closed font", E.MISUSE, "misuse")


class Font:
    """A TrueType/OpenType font opened by libmoafont: ``Font(path=None)`` (None: moafont_default_path(), a
    sans-serif font installed at a well-known place, DejaVu Sans first). Use it in a ``with`` block or call
    :meth:`close`; give it to :meth:`Layout.set_font` to measure a layout's text with it.

    Properties: ``family`` (e.g. "DejaVu Sans"), ``path``, ``closed``. Raises OSError when libmoafont cannot
    be loaded, no default font is installed, or the file cannot be opened as a font (moafont's message).
    """

    def __init__(self, path: Union[str, bytes, os.PathLike[str], os.PathLike[bytes], None] = None) -> None:
        flib = _load()
        self._ptr: Optional[int] = None
        self._users = 0
        self._closed = False
        if path is None:
            p = flib.moafont_default_path()
            if not p:
                raise OSError("moa.Font: no default font installed (DejaVu Sans, Liberation Sans, Noto Sans, "
                              "FreeSans: e.g. fonts-dejavu-core); pass a font file's path")
        else:
            if not isinstance(path, (str, bytes, os.PathLike)):
                raise TypeError("path must be a str, bytes or os.PathLike, got %s" % type(path).__name__)
            p = os.fsencode(path)
            if b"\0" in p:
                raise E.InvalidError("path must not contain NUL characters", E.INVALID, "invalid")
        err = ctypes.create_string_buffer(512)
        ptr = flib.moafont_open(p, err, len(err))
        if not ptr:
            raise OSError(err.value.decode("utf-8", "replace") or "moa.Font: cannot open %r" % os.fsdecode(p))
        self._ptr = ptr
        self._path = os.fsdecode(p)
        self._family = (flib.moafont_family(ptr) or b"").decode("utf-8", "replace")
        a, d, g = ctypes.c_double(0), ctypes.c_double(0), ctypes.c_double(0)
        flib.moafont_metrics(ptr, ctypes.byref(a), ctypes.byref(d), ctypes.byref(g))
        self._metrics = FontMetrics(a.value, d.value, g.value)

    # -- lifecycle

    def close(self) -> None:
        """Close the font (idempotent). A layout still measuring with it keeps the C font until it lets go
        (see the module's notes); this object is closed at once."""
        self._closed = True
        self._free_if_unused()

    def _free_if_unused(self) -> None:
        if self._closed and self._users == 0 and self._ptr is not None:
            ptr, self._ptr = self._ptr, None
            _state["lib"].moafont_close(ptr)

    def _acquire(self) -> Tuple[Any, Optional[int]]:
        """A layout measures with the font from now on: returns (advance function, font pointer)."""
        if self._closed:
            raise _closed_font()
        self._users += 1
        return _state["advance"], self._ptr

    def _release(self) -> None:
        """A layout no longer measures with the font."""
        self._users -= 1
        self._free_if_unused()

    def __del__(self) -> None:
        try:
            self.close()  # a layout still holding it (both collected together) frees it when it lets go
        except BaseException:  # noqa: B902 - never from a finalizer
            pass

    def __enter__(self) -> Font:
        if self._closed:
            raise _closed_font()
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.close()
        return False

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._closed

    def _p(self) -> Optional[int]:
        if self._closed:
            raise _closed_font()
        return self._ptr

    # -- reading

    @property
    def family(self) -> str:
        """The family name from the font's name table, e.g. "DejaVu Sans" ("" when it has none)."""
        self._p()
        return self._family

    @property
    def path(self) -> str:
        """The font file's path."""
        return self._path

    def metrics(self) -> FontMetrics:
        """The vertical metrics as fractions of the font size: a FontMetrics(ascent, descent, line_gap)."""
        self._p()
        return self._metrics

    def advance(self, text_: str, size: float) -> float:
        """The advance width, in points, of `text_` (one line) at `size` points, shaped with HarfBuzz (kerning,
        ligatures): exactly what a layout measures with this font. InvalidError for a negative size or text
        that is not valid Unicode (lone surrogates)."""
        ptr = self._p()
        if not isinstance(text_, str):
            raise TypeError("text must be a str, got %s" % type(text_).__name__)
        b = text_.encode("utf-8", "surrogatepass")
        s = finite(size, "size")
        w = _state["lib"].moafont_advance(b, len(b), s, ptr)
        if math.isnan(w):
            raise E.InvalidError("moa.Font.advance: cannot measure %r at %r pt (a negative size, or text that is "
                                 "not valid Unicode)" % (text_, s), E.INVALID, "invalid")
        return w

    def __repr__(self) -> str:
        if self._closed:
            return "<moa.Font (closed)>"
        return "<moa.Font %r %s>" % (self._family, self._path)


for _cls in (Font, FontMetrics):
    _cls.__module__ = "moa"
