"""Loading libmoa.so and declaring its C functions for ctypes (Include/moa.h is the contract).

The library is looked up, in order:

1. the path in the environment variable ``MOA_LIBRARY`` (an explicit choice: used or failed, never replaced
   silently by another copy);
2. ``libmoa.so`` inside this package, next to this module (``moa/libmoa.so``: what an installed wheel ships);
3. ``build/lib/libmoa.so`` of the checkout this package sits in (``bindings/python/moa`` -> repository root);
4. ``ctypes.util.find_library("moa")`` (an installed copy, e.g. after ``make install``).

``path`` (``moa.library_path``) is the one loaded. Every function gets explicit ``argtypes``/``restype``: ids are
``uint64_t``, numbers ``double``, handles ``void *``, so ctypes never guesses a C type. Nothing here calls into
the library except to read its name tables (priorities, curves), which the bindings take from the library rather
than keep copies of.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
from typing import Any, Callable, Optional, Tuple, TypeVar

__all__ = ["lib", "path", "DONE_FN", "REST_FN", "TEXT_FN", "MEASURE_FN", "ADVANCE_FN", "PROGRESS_FN",
           "SOLVER_PROGRESS_FN", "Rect_", "Frame_",
           "ErrorInfo_", "Term_", "ConsSpec_", "MeasuredSize_", "MeasureStats_", "TextStyle_", "TextMetrics_",
           "Usage_",
           "PRIORITY_NAMES", "CURVE_NAMES", "speedups", "advance", "advance_frames", "changed_frames"]

# ---------------------------------------------------------------------------------------------- types

_u64 = ctypes.c_uint64
_dbl = ctypes.c_double
_int = ctypes.c_int
_size = ctypes.c_size_t
_ptrdiff = ctypes.c_ssize_t  # ptrdiff_t (the same width as size_t on the platforms libmoa builds for)
_uint = ctypes.c_uint
_vp = ctypes.c_void_p
_str = ctypes.c_char_p
_p = ctypes.POINTER


class Rect_(ctypes.Structure):
    """moa_rect."""
    _fields_ = [("x", _dbl), ("y", _dbl), ("width", _dbl), ("height", _dbl)]


class Frame_(ctypes.Structure):
    """moa_frame."""
    _fields_ = [("view", _u64), ("superview", _u64), ("frame", Rect_), ("frame_in_root", Rect_),
                ("depth", _int), ("is_guide", _int)]


class ErrorInfo_(ctypes.Structure):
    """moa_error_info (the strings are owned by the layout: copy them at once)."""
    _fields_ = [("code", _int), ("line", _int), ("offset", _int), ("text_offset", _int), ("length", _int),
                ("kind", _str), ("message", _str), ("source_line", _str), ("expected", _str),
                ("suggestion", _str), ("source", _str)]


class Term_(ctypes.Structure):
    """moa_term."""
    _fields_ = [("var", _u64), ("coef", _dbl)]


class ConsSpec_(ctypes.Structure):
    """moa_cons_spec (one constraint of a moa_solver_add_many batch: terms[0..nterms-1] + constant REL 0; a weight
    of 0 means 1, a NULL tag "")."""
    _fields_ = [("terms", _p(Term_)), ("nterms", _size), ("constant", _dbl), ("priority", _dbl), ("weight", _dbl),
                ("tag", _str), ("rel", _int)]


class MeasuredSize_(ctypes.Structure):
    """moa_measured_size (a measure callback's answer; NAN baselines for none)."""
    _fields_ = [("width", _dbl), ("height", _dbl), ("baseline", _dbl), ("first_baseline", _dbl)]


class MeasureStats_(ctypes.Structure):
    """moa_measure_stats."""
    _fields_ = [("calls", _size), ("cache_hits", _size), ("last_calls", _size), ("last_rounds", _size)]


class TextStyle_(ctypes.Structure):
    """moa_text_style (a zero field is its default)."""
    _fields_ = [("font_size", _dbl), ("line_height", _dbl), ("max_lines", _int), ("reference_width", _dbl),
                ("min_font_size", _dbl), ("max_font_size", _dbl)]


class TextMetrics_(ctypes.Structure):
    """moa_text_metrics."""
    _fields_ = [("lines", _dbl), ("font_size", _dbl), ("line_height", _dbl), ("first_baseline", _dbl),
                ("width", _dbl), ("height", _dbl)]


class Usage_(ctypes.Structure):
    """moa_usage (what a solver or layout has in use)."""
    _fields_ = [("rows", _size), ("cells", _size), ("variables", _size), ("constraints", _size), ("views", _size)]


# The callback types of moa.h. Completions, pan rests and `?` reports return void: moa.h has no "stop" status
# for them; they must simply return. A measure callback returns a status (not MOA_OK fails the solve with
# MOA_CALLBACK) and a text-advance function a width (NAN fails it). The trampolines in _layout.py never let a
# Python exception escape into C.
DONE_FN = ctypes.CFUNCTYPE(None, _vp, _u64, _int, _vp)          # moa_done_fn(L, animation, finished, ud)
REST_FN = ctypes.CFUNCTYPE(None, _vp, _u64, _dbl, _int, _vp)    # moa_rest_fn(L, pan, rest, finished, ud)
TEXT_FN = ctypes.CFUNCTYPE(None, _str, _vp)                     # moa_text_fn(text, ud)
# moa_measure_fn(L, view, width, width_mode, height, height_mode, out, ud) -> moa_status
MEASURE_FN = ctypes.CFUNCTYPE(_int, _vp, _u64, _dbl, _int, _dbl, _int, _p(MeasuredSize_), _vp)
# moa_text_advance_fn(utf8, len, font_size, ud) -> points. The text is `len` bytes, not NUL-terminated: a
# POINTER(c_char), read with ctypes.string_at(utf8, len) (c_char_p would read up to a NUL).
ADVANCE_FN = ctypes.CFUNCTYPE(_dbl, _p(ctypes.c_char), _size, _dbl, _vp)
# moa_progress_fn(L, steps, ud) -> int: nonzero stops the call (MOA_LIMIT).
PROGRESS_FN = ctypes.CFUNCTYPE(_int, _vp, _u64, _vp)
# moa_solver_progress_fn(s, pivots, ud) -> int: nonzero stops the call (MOA_LIMIT).
SOLVER_PROGRESS_FN = ctypes.CFUNCTYPE(_int, _vp, _u64, _vp)

_S = _int  # moa_status

# name: (restype, argtypes)
_SIGNATURES = {
    "moa_libversion": (_str, []),
    "moa_libversion_number": (_int, []),
    "moa_errstr": (_str, [_int]),
    "moa_status_name": (_str, [_int]),
    "moa_priority_value": (_S, [_str, _p(_dbl)]),
    "moa_priority_name": (_str, [_int, _p(_dbl)]),
    "moa_curve_name": (_str, [_int]),
    # solver
    "moa_solver_errmsg": (_str, [_vp]),
    "moa_solver_conflicts": (_S, [_vp, _p(_u64), _size, _p(_size)]),
    "moa_solver_new": (_vp, []),
    "moa_solver_free": (None, [_vp]),
    "moa_solver_reset": (_S, [_vp]),
    "moa_var_new": (_S, [_vp, _str, _p(_u64)]),
    "moa_var_free": (_S, [_vp, _u64]),
    "moa_var_name": (_S, [_vp, _u64, _p(_str)]),
    "moa_var_set_name": (_S, [_vp, _u64, _str]),
    "moa_var_value": (_S, [_vp, _u64, _p(_dbl)]),
    "moa_solver_values": (_S, [_vp, _p(_u64), _size, _p(_dbl)]),
    "moa_solver_add": (_S, [_vp, _p(Term_), _size, _dbl, _int, _dbl, _str, _p(_u64)]),
    "moa_solver_add_many": (_S, [_vp, _p(ConsSpec_), _size, _p(_u64), _p(_size)]),
    "moa_solver_batch_conflicts": (_S, [_vp, _p(_size), _size, _p(_size)]),
    "moa_cons_remove": (_S, [_vp, _u64]),
    "moa_cons_set_active": (_S, [_vp, _u64, _int]),
    "moa_cons_is_active": (_S, [_vp, _u64, _p(_int)]),
    "moa_cons_constant": (_S, [_vp, _u64, _p(_dbl)]),
    "moa_cons_set_constant": (_S, [_vp, _u64, _dbl]),
    "moa_cons_priority": (_S, [_vp, _u64, _p(_dbl)]),
    "moa_cons_set_priority": (_S, [_vp, _u64, _dbl]),
    "moa_cons_weight": (_S, [_vp, _u64, _p(_dbl)]),
    "moa_cons_set_weight": (_S, [_vp, _u64, _dbl]),
    "moa_cons_tag": (_S, [_vp, _u64, _p(_str)]),
    "moa_cons_describe": (_S, [_vp, _u64, _p(_str)]),
    "moa_solver_add_edit": (_S, [_vp, _u64, _dbl]),
    "moa_solver_remove_edit": (_S, [_vp, _u64]),
    "moa_solver_has_edit": (_S, [_vp, _u64, _p(_int)]),
    "moa_solver_suggest": (_S, [_vp, _u64, _dbl]),
    "moa_solver_update": (_S, [_vp]),
    "moa_solver_counts": (_S, [_vp, _p(_size), _p(_size)]),
    "moa_solver_dump": (_S, [_vp, _p(_str)]),
    # layout
    "moa_layout_new": (_vp, [_dbl, _dbl]),
    "moa_layout_free": (None, [_vp]),
    "moa_layout_errmsg": (_str, [_vp]),
    "moa_layout_error_info": (_S, [_vp, _p(ErrorInfo_)]),
    "moa_layout_conflicts": (_S, [_vp, _p(_u64), _size, _p(_size)]),
    "moa_layout_set_root_size": (_S, [_vp, _dbl, _dbl]),
    "moa_layout_root_size": (_S, [_vp, _p(_dbl), _p(_dbl)]),
    "moa_layout_orientation": (_S, [_vp, _p(_int)]),
    "moa_layout_root": (_S, [_vp, _p(_u64)]),
    "moa_layout_guide": (_S, [_vp, _str, _p(_u64)]),
    "moa_layout_set_safe_area": (_S, [_vp, _dbl, _dbl, _dbl, _dbl]),
    "moa_layout_set_keyboard_height": (_S, [_vp, _dbl]),
    "moa_view_new": (_S, [_vp, _str, _u64, _p(_u64)]),
    "moa_views_new": (_S, [_vp, _p(_str), _size, _u64, _p(_dbl), _p(_u64)]),
    "moa_view_free": (_S, [_vp, _u64]),
    "moa_view_find": (_S, [_vp, _str, _p(_u64)]),
    "moa_view_name": (_S, [_vp, _u64, _p(_str)]),
    "moa_view_superview": (_S, [_vp, _u64, _p(_u64)]),
    "moa_view_set_superview": (_S, [_vp, _u64, _u64]),
    "moa_view_set_margins": (_S, [_vp, _u64, _dbl, _dbl, _dbl, _dbl]),
    "moa_view_set_directional_margins": (_S, [_vp, _u64, _dbl, _dbl, _dbl, _dbl]),
    "moa_view_set_direction": (_S, [_vp, _u64, _int]),
    "moa_view_set_intrinsic_size": (_S, [_vp, _u64, _dbl, _dbl]),
    "moa_view_set_content_priority": (_S, [_vp, _u64, _int, _dbl, _dbl]),
    "moa_view_set_baseline": (_S, [_vp, _u64, _p(_dbl), _p(_dbl)]),
    "moa_view_frame": (_S, [_vp, _u64, _p(Rect_)]),
    "moa_view_frame_in_root": (_S, [_vp, _u64, _p(Rect_)]),
    "moa_layout_eq": (_S, [_vp, _str, _p(_u64)]),
    "moa_layout_eqs": (_S, [_vp, _str, _p(_u64), _size, _p(_size)]),
    "moa_layout_eqs_source": (_S, [_vp, _str, _str, _int, _p(_u64), _size, _p(_size)]),
    "moa_layout_xeq": (_S, [_vp, _str, _p(_size)]),
    "moa_layout_constraints": (_S, [_vp, _p(_u64), _size, _p(_size)]),
    "moa_layout_describe": (_S, [_vp, _p(_str)]),
    "moa_layout_set_debug_callback": (_S, [_vp, TEXT_FN, _vp]),
    "moa_lcons_constant": (_S, [_vp, _u64, _p(_dbl)]),
    "moa_lcons_set_constant": (_S, [_vp, _u64, _dbl]),
    "moa_lcons_priority": (_S, [_vp, _u64, _p(_dbl)]),
    "moa_lcons_set_priority": (_S, [_vp, _u64, _dbl]),
    "moa_lcons_active": (_S, [_vp, _u64, _p(_int)]),
    "moa_lcons_set_active": (_S, [_vp, _u64, _int]),
    "moa_lcons_describe": (_S, [_vp, _u64, _p(_str)]),
    "moa_lcons_line": (_S, [_vp, _u64, _p(_int)]),
    "moa_lcons_remove": (_S, [_vp, _u64]),
    "moa_layout_solve": (_S, [_vp, _p(_size)]),
    "moa_layout_changed_views": (_S, [_vp, _p(_u64), _size, _p(_size)]),
    "moa_layout_views": (_S, [_vp, _p(_u64), _size, _p(_size)]),
    "moa_layout_frames": (_S, [_vp, _int, _p(Frame_), _size, _p(_size)]),
    "moa_layout_changed_frames": (_S, [_vp, _p(Frame_), _size, _p(_size)]),
    "moa_layout_violations": (_S, [_vp, _p(_u64), _p(_dbl), _size, _p(_size)]),
    "moa_layout_ambiguities": (_S, [_vp, _p(_u64), _p(_int), _size, _p(_size)]),
    "moa_layout_svg": (_S, [_vp, _int, _p(_str)]),
    "moa_layout_html": (_S, [_vp, _str, _p(_str)]),
    # content that sizes itself
    "moa_view_set_measure": (_S, [_vp, _u64, MEASURE_FN, _vp]),
    "moa_view_invalidate": (_S, [_vp, _u64]),
    "moa_measure_error": (_S, [_vp, _str]),
    "moa_layout_measure_stats": (_S, [_vp, _p(MeasureStats_)]),
    "moa_view_set_text": (_S, [_vp, _u64, _str, _p(TextStyle_)]),
    "moa_view_text_lines": (_S, [_vp, _u64, _p(_str), _p(TextMetrics_)]),
    "moa_layout_set_font": (_S, [_vp, _str, ADVANCE_FN, _vp, _dbl, _dbl]),
    "moa_layout_fitting_size": (_S, [_vp, _u64, _dbl, _dbl, _dbl, _dbl, _p(_dbl), _p(_dbl)]),
    "moa_layout_advance": (_S, [_vp, _dbl]),
    "moa_layout_advance_frames": (_S, [_vp, _dbl, _p(Frame_), _size, _p(_size)]),
    "moa_layout_seek": (_S, [_vp, _dbl]),
    "moa_layout_time": (_S, [_vp, _p(_dbl)]),
    "moa_layout_is_animating": (_S, [_vp, _p(_int)]),
    "moa_layout_spring_curve": (_S, [_vp, _dbl, _dbl, _p(_dbl), _p(_int)]),
    "moa_layout_bezier_curve": (_S, [_vp, _dbl, _dbl, _dbl, _dbl, _p(_int)]),
    "moa_lcons_animate": (_S, [_vp, _u64, _dbl, _dbl, _int, _dbl, DONE_FN, _vp, _p(_u64)]),
    "moa_lcons_animate_priority": (_S, [_vp, _u64, _dbl, _dbl, _int, _dbl, DONE_FN, _vp, _p(_u64)]),
    "moa_layout_animate_root_size": (_S, [_vp, _dbl, _dbl, _dbl, _int, _dbl, DONE_FN, _vp, _p(_u64)]),
    "moa_animation_cancel": (_S, [_vp, _u64]),
    "moa_lcons_stop_animating": (_S, [_vp, _u64]),
    "moa_layout_cancel_animations": (_S, [_vp]),
    "moa_collapsible_new": (_S, [_vp, _u64, _u64, _int, _p(_u64)]),
    "moa_collapsible_free": (_S, [_vp, _u64]),
    "moa_collapsible_set": (_S, [_vp, _u64, _int, _int, _dbl, _int, DONE_FN, _vp, _p(_u64)]),
    "moa_collapsible_toggle": (_S, [_vp, _u64, _int, _dbl, _int, DONE_FN, _vp, _p(_u64)]),
    "moa_collapsible_is_collapsed": (_S, [_vp, _u64, _p(_int)]),
    "moa_layout_show_keyboard": (_S, [_vp, _dbl, _dbl, _int, DONE_FN, _vp, _p(_u64)]),
    "moa_layout_hide_keyboard": (_S, [_vp, _dbl, _int, DONE_FN, _vp, _p(_u64)]),
    "moa_pan_new": (_S, [_vp, _p(_u64), _size, _int, _p(_dbl), _size, _p(_u64)]),
    "moa_pan_free": (_S, [_vp, _u64]),
    "moa_pan_began": (_S, [_vp, _u64, _p(_int)]),
    "moa_pan_changed": (_S, [_vp, _u64, _dbl, _dbl, _p(_int)]),
    "moa_pan_ended": (_S, [_vp, _u64, _dbl, REST_FN, _vp, _p(_dbl), _p(_int)]),
    "moa_pan_cancelled": (_S, [_vp, _u64, REST_FN, _vp, _p(_dbl), _p(_int)]),
    "moa_pan_move": (_S, [_vp, _u64, _dbl, _int, REST_FN, _vp]),
    "moa_pan_set_enabled": (_S, [_vp, _u64, _int]),
    "moa_pan_set_options": (_S, [_vp, _u64, _dbl, _dbl, _dbl, _dbl, _int]),
    "moa_pan_options": (_S, [_vp, _u64, _p(_dbl), _p(_dbl), _p(_dbl), _p(_dbl), _p(_int)]),
    "moa_pan_set_orientations": (_S, [_vp, _u64, _int]),
    "moa_pan_set_rest_positions": (_S, [_vp, _u64, _p(_dbl), _size]),
    "moa_pan_offset": (_S, [_vp, _u64, _p(_dbl)]),
    "moa_pan_rest_position": (_S, [_vp, _u64, _p(_dbl)]),
    # guides, stacks, chains, barriers, visual format
    "moa_guide_new": (_S, [_vp, _str, _u64, _p(_u64)]),
    "moa_stack_new": (_S, [_vp, _str, _u64, _int, _p(_u64)]),
    "moa_stack_insert": (_S, [_vp, _u64, _u64, _ptrdiff]),
    "moa_stack_insert_views": (_S, [_vp, _u64, _p(_u64), _size, _ptrdiff]),
    "moa_stack_remove": (_S, [_vp, _u64, _u64]),
    "moa_stack_views": (_S, [_vp, _u64, _p(_u64), _size, _p(_size)]),
    "moa_stack_set_axis": (_S, [_vp, _u64, _int]),
    "moa_stack_set_distribution": (_S, [_vp, _u64, _int]),
    "moa_stack_set_alignment": (_S, [_vp, _u64, _int]),
    "moa_stack_set_spacing": (_S, [_vp, _u64, _dbl]),
    "moa_stack_set_margins_relative": (_S, [_vp, _u64, _int]),
    "moa_stack_set_custom_spacing": (_S, [_vp, _u64, _u64, _dbl]),
    "moa_stack_get": (_S, [_vp, _u64, _p(_int), _p(_int), _p(_int), _p(_dbl), _p(_int)]),
    "moa_stack_set_hidden": (_S, [_vp, _u64, _u64, _int, _int, _dbl, _int, DONE_FN, _vp, _p(_u64)]),
    "moa_stack_is_hidden": (_S, [_vp, _u64, _u64, _p(_int)]),
    "moa_chain_new": (_S, [_vp, _p(_u64), _size, _int, _int, _dbl, _dbl, _p(_dbl), _p(_u64)]),
    "moa_chain_free": (_S, [_vp, _u64]),
    "moa_chain_set_style": (_S, [_vp, _u64, _int]),
    "moa_chain_set_bias": (_S, [_vp, _u64, _dbl]),
    "moa_chain_set_gap": (_S, [_vp, _u64, _dbl]),
    "moa_chain_set_weight": (_S, [_vp, _u64, _u64, _dbl]),
    "moa_barrier_new": (_S, [_vp, _str, _u64, _int, _p(_u64), _size, _dbl, _p(_u64)]),
    "moa_barrier_set_views": (_S, [_vp, _u64, _p(_u64), _size]),
    "moa_barrier_set_margin": (_S, [_vp, _u64, _dbl]),
    "moa_layout_vfl": (_S, [_vp, _str, _p(_str), _p(_dbl), _size, _uint, _p(_u64), _size, _p(_size)]),
    "moa_layout_vfl_options": (_S, [_vp, _str, _p(_uint)]),
    "moa_layout_trace_start": (_S, [_vp, _int]),
    "moa_layout_trace_stop": (_S, [_vp]),
    "moa_layout_trace_csv": (_S, [_vp, _p(_str)]),
    "moa_layout_trace_json": (_S, [_vp, _p(_str)]),
    "moa_layout_trace_svg_strip": (_S, [_vp, _size, _int, _p(_str)]),
    # limits and progress (moa_limit is an int)
    "moa_solver_set_limit": (_S, [_vp, _int, _dbl]),
    "moa_solver_set_progress": (_S, [_vp, SOLVER_PROGRESS_FN, _u64, _vp]),
    "moa_solver_limit": (_S, [_vp, _int, _p(_dbl)]),
    "moa_solver_usage": (_S, [_vp, _p(Usage_)]),
    "moa_layout_set_limit": (_S, [_vp, _int, _dbl]),
    "moa_layout_limit": (_S, [_vp, _int, _p(_dbl)]),
    "moa_layout_usage": (_S, [_vp, _p(Usage_)]),
    "moa_layout_set_progress": (_S, [_vp, PROGRESS_FN, _u64, _vp]),
}


#: The library's file name inside the package (an installed wheel ships it next to this module).
LIBRARY_NAME = "libmoa.so"
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _candidates() -> Tuple[list[str], bool]:
    """The paths (or find_library names) to try, in order, and whether the first is an explicit choice."""
    env = os.environ.get("MOA_LIBRARY")
    if env:
        # An explicit choice: use it or fail, never fall back silently to another copy.
        return [env], True
    repo = os.path.dirname(os.path.dirname(os.path.dirname(PACKAGE_DIR)))  # bindings/python/moa -> root
    found = [os.path.join(PACKAGE_DIR, LIBRARY_NAME), os.path.join(repo, "build", "lib", LIBRARY_NAME)]
    name = ctypes.util.find_library("moa")
    if name:
        found.append(name)
    return found, False


def _load() -> Tuple[ctypes.PyDLL, str]:
    candidates, explicit = _candidates()
    errors = []
    for cand in candidates:
        if not explicit and os.sep in cand and not os.path.exists(cand):
            errors.append("%s: not found" % cand)
            continue
        try:
            # PyDLL, not CDLL: the GIL stays held through every call (as kiwisolver's), so two threads never run
            # inside the library at once (two threads on one layout crashed it); callbacks take the GIL they hold.
            return ctypes.PyDLL(cand), cand
        except OSError as e:
            errors.append("%s: %s" % (cand, e))
            if explicit:
                break
    raise ImportError("moa: cannot load libmoa.so (set MOA_LIBRARY, run `make lib` in the repository, "
                      "`make install`, or install the wheel): " + "; ".join(errors))


lib: ctypes.PyDLL
#: The path (or find_library name) of the loaded library.
path: str
lib, path = _load()

for _name, (_res, _args) in _SIGNATURES.items():
    try:
        _fn = getattr(lib, _name)
    except AttributeError:
        raise ImportError("moa: %s has no %s (library older than the binding?)" % (path, _name)) from None
    _fn.restype = _res
    _fn.argtypes = _args


# ---------------------------------------------------------------------------------------------- speedups
#
# The calls made for every frame have two implementations with one signature each: moa._speedups
# (bindings/python/moa/_speedups.c, optional, built by `make python-ext` or into the wheel), which calls the
# library without ctypes' cost per call (~2 us here), and the ctypes functions below. This is the one place that
# chooses: `speedups` is the bound module or None, and the names below are its functions or the ctypes ones.
# MOA_PYTHON_SPEEDUPS=0 forces ctypes; MOA_PYTHON_SPEEDUPS=1 requires the module (ImportError without it: for
# tests that must run the compiled path); unset, it is used when it imports and fits this library (else a
# warning says why not). Both paths make the same C calls with the same arguments: the same results.


def _ct_advance(h: int, dt: float) -> int:
    return lib.moa_layout_advance(h, dt)  # type: ignore[no-any-return]


def _ct_advance_frames(h: int, dt: float, buf: "ctypes.Array[Frame_]", cap: int) -> Tuple[int, int]:
    count = _size(0)
    st = lib.moa_layout_advance_frames(h, dt, buf, cap, ctypes.byref(count))
    return st, count.value


def _ct_changed_frames(h: int, buf: "Optional[ctypes.Array[Frame_]]", cap: int) -> Tuple[int, int]:
    count = _size(0)
    st = lib.moa_layout_changed_frames(h, buf, cap, ctypes.byref(count))
    return st, count.value


def _speedups() -> Any:
    """moa._speedups bound to `lib`, or None (see above)."""
    want = os.environ.get("MOA_PYTHON_SPEEDUPS", "")
    if want in ("0", "no", "false", "off"):
        return None
    required = want in ("1", "yes", "true", "on")
    try:
        from . import _speedups as sp  # type: ignore[attr-defined]
    except ImportError as e:
        if required:
            raise ImportError("moa: MOA_PYTHON_SPEEDUPS=%s but moa._speedups does not import (`make python-ext` "
                              "builds it): %s" % (want, e)) from None
        return None
    why = None
    if sp.FRAME_SIZE != ctypes.sizeof(Frame_):
        why = "built for a moa_frame of %d bytes, not %d" % (sp.FRAME_SIZE, ctypes.sizeof(Frame_))
    elif not all(hasattr(lib, name) for name in sp.FUNCTIONS):
        why = "it calls functions %s does not have" % path
    if why is not None:  # a stale build: rebuild it, or use ctypes
        msg = "moa: moa._speedups (%s) does not fit this library, %s: rebuild it (`make python-ext`)" % (
            sp.__file__, why)
        if required:
            raise ImportError(msg)
        import warnings
        warnings.warn(msg + "; using ctypes", RuntimeWarning)
        return None
    # The addresses of the functions ctypes loaded: the module calls this copy of the library, never another.
    sp.bind({name: ctypes.cast(getattr(lib, name), _vp).value for name in sp.FUNCTIONS})
    return sp


#: moa._speedups (bound to `lib`) when it is in use, else None.
speedups: Any = _speedups()

#: advance(h, dt) -> status: moa_layout_advance.
advance: Callable[[int, float], int] = speedups.advance if speedups else _ct_advance
#: advance_frames(h, dt, buffer, cap) -> (status, count): moa_layout_advance_frames into buffer (cap moa_frame).
advance_frames: Callable[[int, float, Any, int], Tuple[int, int]] = (
    speedups.advance_frames if speedups else _ct_advance_frames)
#: changed_frames(h, buffer or None, cap) -> (status, count): moa_layout_changed_frames.
changed_frames: Callable[[int, Any, int], Tuple[int, int]] = (
    speedups.changed_frames if speedups else _ct_changed_frames)
#: advance_into(core, dt, out) -> out, (status, count) or None: Layout.advance_frames(dt, out=out)'s usual case
#: in one call (moa._layout binds its classes first), or None without the module: that method has no ctypes twin,
#: its Python body is the other path.
advance_into: Optional[Callable[[Any, float, Any], Any]] = speedups.advance_into if speedups else None


_V = TypeVar("_V")


def name_table(name_at: Callable[[int], Tuple[Optional[bytes], _V]]) -> dict[str, _V]:
    """The entries of one of the library's name tables, {name: value}, from name_at(i) -> (name or None,
    value), i = 0, 1, ... until the name is None. The bindings keep no copies of these tables."""
    out: dict[str, _V] = {}
    i = 0
    while True:
        name, value = name_at(i)
        if name is None:
            return out
        out[name.decode()] = value
        i += 1


def _priority_at(i: int) -> Tuple[Optional[bytes], float]:
    v = ctypes.c_double(0)
    return lib.moa_priority_name(i, ctypes.byref(v)), v.value


def _curve_at(i: int) -> Tuple[Optional[bytes], int]:
    return lib.moa_curve_name(i), i


#: Every priority name the library knows (equation text, moa_priority_value), with its value.
PRIORITY_NAMES: dict[str, float] = name_table(_priority_at)
#: The predefined curves' names and their moa_curve values.
CURVE_NAMES: dict[str, int] = name_table(_curve_at)
