/*
** _speedups.c -- moa._speedups, the optional compiled part of the Python package: the calls the binding makes
** for every frame (moa_layout_advance_frames, moa_layout_advance, moa_layout_changed_frames), made without
** ctypes. A ctypes call costs about 2 us on the machines Moa is measured on, half of a frame in which one view
** moves; a call from here costs about 0.1 us. Built by `make python-ext` (or into the wheel by _moa_build.py);
** moa/_lib.py uses it when it imports (MOA_PYTHON_SPEEDUPS=0: never), else the same calls go through ctypes.
** The calls of a build are not here: each is one call for thousands of views, and ctypes' cost does not show.
**
** It does not link libmoa: _lib.py loads the library with ctypes and hands bind() the addresses of the functions
** below, so both paths call the one copy ctypes loaded. Each function converts its arguments, makes one call and
** returns the status (and the count): the checks of the arguments, the error messages and the exceptions stay in
** Python (moa/_layout.py), which calls these only with arguments it has checked. The one check made here is the
** one the library cannot make: that an output buffer holds what the call is told it holds. One function does
** more: advance_into, Layout.advance_frames(dt, out=cols) in its usual case (every check made here, the frame,
** the columns' count), which steps aside, before any call, for every case the Python method handles itself.
**
** The GIL stays held during the calls (a frame is microseconds). The library calls back into Python during a
** frame (completions, pan rests, measure and text-advance functions): those are ctypes callbacks, which take the
** GIL themselves (a no-op on the thread that holds it) and never let an exception out (the trampolines of
** _layout.py catch everything and the binding raises it after the call, as on the ctypes path).
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* `make python-ext` defines MOA_SPEEDUPS_CHECK_HEADER with Include/ on the include path: the declarations below
   are then checked against moa.h. Elsewhere (a wheel, an sdist: no moa.h) they stand alone. */
#ifdef MOA_SPEEDUPS_CHECK_HEADER
#include "moa.h"
#define HAVE_MOA_H 1
#endif

#ifndef HAVE_MOA_H
typedef int moa_status;
typedef struct moa_layout moa_layout;
typedef uint64_t moa_view;
typedef struct moa_frame {
    moa_view view, superview;
    double frame[4], frame_in_root[4];
    int depth, is_guide;
} moa_frame;
#endif

typedef moa_status (*advance_fn)(moa_layout *L, double dt);
typedef moa_status (*advance_frames_fn)(moa_layout *L, double dt, moa_frame *out, size_t cap, size_t *count);
typedef moa_status (*changed_frames_fn)(moa_layout *L, moa_frame *out, size_t cap, size_t *count);

#ifdef HAVE_MOA_H
#define SAME(fn, type) _Static_assert(__builtin_types_compatible_p(__typeof__(&fn), type), #fn)
SAME(moa_layout_advance, advance_fn);
SAME(moa_layout_advance_frames, advance_frames_fn);
SAME(moa_layout_changed_frames, changed_frames_fn);
/* The stand-alone moa_frame above has this size too (and Python compares FRAME_SIZE with its ctypes Frame_). */
_Static_assert(sizeof(moa_frame) == 2 * sizeof(moa_view) + 8 * sizeof(double) + 2 * sizeof(int), "moa_frame");
#endif

/* The library's functions, set by bind(). NULL until then: a call before bind() raises instead of crashing. */
static struct {
    advance_fn advance;
    advance_frames_fn advance_frames;
    changed_frames_fn changed_frames;
} moa;

static const struct {
    const char *name;
    size_t offset;
} bound[] = {
    {"moa_layout_advance", offsetof(__typeof__(moa), advance)},
    {"moa_layout_advance_frames", offsetof(__typeof__(moa), advance_frames)},
    {"moa_layout_changed_frames", offsetof(__typeof__(moa), changed_frames)},
};

/* ======================================================================================================== */
/* Arguments                                                                                                */
/* ======================================================================================================== */

static int nargs_are(const char *fn, Py_ssize_t nargs, Py_ssize_t want) {
    if (nargs == want) return 1;
    PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", fn, want, nargs);
    return 0;
}

/* A layout handle: the int ctypes gives for a moa_layout * (never 0: Python checks the layout is open). */
static moa_layout *handle(PyObject *o) {
    moa_layout *h = PyLong_AsVoidPtr(o);
    if (h == NULL && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a NULL layout handle");
    return h;
}

static int size_arg(PyObject *o, size_t *out) {
    *out = PyLong_AsSize_t(o);
    return !(*out == (size_t)-1 && PyErr_Occurred());
}

static int not_bound(void) {
    PyErr_SetString(PyExc_RuntimeError, "moa._speedups: bind() was not called (moa._lib does it)");
    return 0;
}

/* A writable buffer of at least cap items of item_size bytes (None with cap 0: NULL). The one check made here:
   the library writes cap items where it is told. Release with PyBuffer_Release when *buf is set. */
static int out_buffer(PyObject *o, size_t cap, size_t item_size, Py_buffer *view, void **out) {
    view->obj = NULL;
    *out = NULL;
    if (o == Py_None) {
        if (cap == 0) return 1;
        PyErr_SetString(PyExc_ValueError, "no buffer for a capacity above 0");
        return 0;
    }
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE) < 0) return 0;
    if ((size_t)view->len / item_size < cap) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "the buffer is smaller than its capacity");
        return 0;
    }
    *out = view->buf;
    return 1;
}

/* (status, count), the answer of the calls with an output array. */
static PyObject *status_count(int st, size_t count) {
    PyObject *s = PyLong_FromLong(st), *c = PyLong_FromSize_t(count), *r = NULL;
    if (s != NULL && c != NULL && (r = PyTuple_New(2)) != NULL) {
        PyTuple_SET_ITEM(r, 0, s); /* (steals the references) */
        PyTuple_SET_ITEM(r, 1, c);
        return r;
    }
    Py_XDECREF(s);
    Py_XDECREF(c);
    return NULL;
}

/* ======================================================================================================== */
/* The calls                                                                                                */
/* ======================================================================================================== */

/* bind(addresses): addresses maps each function's name to its address (ctypes.cast(fn, c_void_p).value). */
static PyObject *sp_bind(PyObject *self, PyObject *addresses) {
    (void)self;
    void *found[sizeof bound / sizeof bound[0]];
    for (size_t i = 0; i < sizeof bound / sizeof bound[0]; i++) {
        PyObject *a = PyMapping_GetItemString(addresses, bound[i].name);
        if (a == NULL) return NULL;
        found[i] = PyLong_AsVoidPtr(a);
        Py_DECREF(a);
        if (found[i] == NULL) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "no address for %s", bound[i].name);
            return NULL;
        }
    }
    /* All or nothing: a failed bind leaves the module as it was. */
    for (size_t i = 0; i < sizeof bound / sizeof bound[0]; i++)
        memcpy((char *)&moa + bound[i].offset, &found[i], sizeof found[i]);
    Py_RETURN_NONE;
}

/* advance(handle, dt) -> status (moa_layout_advance). */
static PyObject *sp_advance(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!nargs_are("advance", nargs, 2)) return NULL;
    if (moa.advance == NULL && !not_bound()) return NULL;
    moa_layout *L = handle(args[0]);
    if (L == NULL) return NULL;
    double dt = PyFloat_AsDouble(args[1]);
    if (dt == -1.0 && PyErr_Occurred()) return NULL;
    return PyLong_FromLong(moa.advance(L, dt));
}

/* advance_frames(handle, dt, buffer, cap) -> (status, count) (moa_layout_advance_frames into buffer, an array
   of moa_frame of at least cap items). */
static PyObject *sp_advance_frames(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!nargs_are("advance_frames", nargs, 4)) return NULL;
    if (moa.advance_frames == NULL && !not_bound()) return NULL;
    moa_layout *L = handle(args[0]);
    if (L == NULL) return NULL;
    double dt = PyFloat_AsDouble(args[1]);
    if (dt == -1.0 && PyErr_Occurred()) return NULL;
    size_t cap;
    if (!size_arg(args[3], &cap)) return NULL;
    Py_buffer view;
    void *out;
    if (!out_buffer(args[2], cap, sizeof(moa_frame), &view, &out)) return NULL;
    size_t count = 0;
    int st = moa.advance_frames(L, dt, out, cap, &count);
    if (view.obj != NULL) PyBuffer_Release(&view);
    return status_count(st, count);
}

/* changed_frames(handle, buffer or None, cap) -> (status, count) (moa_layout_changed_frames). */
static PyObject *sp_changed_frames(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!nargs_are("changed_frames", nargs, 3)) return NULL;
    if (moa.changed_frames == NULL && !not_bound()) return NULL;
    moa_layout *L = handle(args[0]);
    if (L == NULL) return NULL;
    size_t cap;
    if (!size_arg(args[2], &cap)) return NULL;
    Py_buffer view;
    void *out;
    if (!out_buffer(args[1], cap, sizeof(moa_frame), &view, &out)) return NULL;
    size_t count = 0;
    int st = moa.changed_frames(L, out, cap, &count);
    if (view.obj != NULL) PyBuffer_Release(&view);
    return status_count(st, count);
}

/* ======================================================================================================== */
/* Layout.advance_frames(dt, out=cols) in one C function                                                     */
/* ======================================================================================================== */

/* The slots advance_into reads and writes, by offset (set by bind_types from moa._layout's classes, whose
   __slots__ put these members at fixed offsets): _Core.h and _Core.callbacks, FrameColumns.buffer and
   FrameColumns._n. Unset (type NULL) until bind_types: advance_into then always falls back. */
static struct {
    PyTypeObject *core, *columns;
    Py_ssize_t core_h, core_callbacks, columns_buffer, columns_n;
} types;

/* The offset of a __slots__ member of cls holding any object (a member descriptor), or -1 with an exception. */
static Py_ssize_t slot_offset(PyTypeObject *cls, const char *name) {
    PyObject *d = PyObject_GetAttrString((PyObject *)cls, name);
    if (d == NULL) return -1;
    Py_ssize_t off = -1;
    if (Py_IS_TYPE(d, &PyMemberDescr_Type) && ((PyMemberDescrObject *)d)->d_member->type == T_OBJECT_EX)
        off = ((PyMemberDescrObject *)d)->d_member->offset;
    else
        PyErr_Format(PyExc_TypeError, "%s.%s is not a __slots__ member", cls->tp_name, name);
    Py_DECREF(d);
    return off;
}

/* A slot's value, borrowed (NULL when unset). */
static PyObject *slot(PyObject *o, Py_ssize_t offset) { return *(PyObject **)((char *)o + offset); }

/* bind_types(core_class, columns_class): moa._layout's _Core and FrameColumns, for advance_into. */
static PyObject *sp_bind_types(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!nargs_are("bind_types", nargs, 2)) return NULL;
    if (!PyType_Check(args[0]) || !PyType_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "bind_types() takes two classes");
        return NULL;
    }
    PyTypeObject *core = (PyTypeObject *)args[0], *columns = (PyTypeObject *)args[1];
    Py_ssize_t h = slot_offset(core, "h"), cb = slot_offset(core, "callbacks");
    Py_ssize_t buf = slot_offset(columns, "buffer"), n = slot_offset(columns, "_n");
    if (h < 0 || cb < 0 || buf < 0 || n < 0) return NULL;
    /* All or nothing, as bind(). The classes are kept alive: the offsets are theirs. */
    Py_INCREF(core);
    Py_INCREF(columns);
    Py_XSETREF(types.core, core);
    Py_XSETREF(types.columns, columns);
    types.core_h = h;
    types.core_callbacks = cb;
    types.columns_buffer = buf;
    types.columns_n = n;
    Py_RETURN_NONE;
}

/* advance_into(core, dt, out) -> out, (status, count) or None: the common case of Layout.advance_frames(dt,
   out=cols) without a line of Python (the method's checks and bookkeeping cost as much as the frame in which
   one view moves). None, before any call, when the case is not the common one: dt not a finite float, core not
   an open _Core with no callbacks registered (nothing can raise in the frame then), out not a FrameColumns
   with a buffer; the method then takes its own path, which makes the same call. Otherwise the frame is made
   into out's buffer: out is returned when it succeeded and all the views that moved fit (out's count set, the
   columns it keeps dropped when the count changed, as the method does); (status, count) when the method must
   finish (a failure, the layout closed, more views moved than out holds). */
static PyObject *sp_advance_into(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!nargs_are("advance_into", nargs, 3)) return NULL;
    PyObject *core = args[0], *dt = args[1], *out = args[2];
    if (types.core == NULL || moa.advance_frames == NULL) Py_RETURN_NONE;
    if (!Py_IS_TYPE(core, types.core) || !Py_IS_TYPE(out, types.columns) || !PyFloat_CheckExact(dt)) Py_RETURN_NONE;
    double d = PyFloat_AS_DOUBLE(dt);
    PyObject *h = slot(core, types.core_h), *cb = slot(core, types.core_callbacks);
    PyObject *buffer = slot(out, types.columns_buffer);
    if (!(d - d == 0) || h == NULL || !PyLong_CheckExact(h) || cb == NULL || !PyLong_CheckExact(cb) ||
        buffer == NULL)
        Py_RETURN_NONE;
    int overflow = 0;
    if (PyLong_AsLongAndOverflow(cb, &overflow) != 0 || overflow) { /* (callbacks registered, or an error) */
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    moa_layout *L = PyLong_AsVoidPtr(h);
    if (L == NULL) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(buffer, &view, PyBUF_WRITABLE) < 0) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    size_t cap = (size_t)view.len / sizeof(moa_frame), count = 0;
    int st = moa.advance_frames(L, d, cap ? view.buf : NULL, cap, &count);
    PyBuffer_Release(&view);
    if (st != 0 || count > cap || slot(core, types.core_h) != h) return status_count(st, count);
    PyObject *n = slot(out, types.columns_n);
    if (n == NULL || !PyLong_CheckExact(n) || PyLong_AsSize_t(n) != count) {
        PyErr_Clear();
        PyObject *now = PyLong_FromSize_t(count), *dict;
        if (now == NULL) return NULL;
        Py_XSETREF(*(PyObject **)((char *)out + types.columns_n), now);
        if ((dict = PyObject_GenericGetDict(out, NULL)) == NULL) return NULL;
        PyDict_Clear(dict); /* the columns read before: memoryviews of the old count */
        Py_DECREF(dict);
    }
    Py_INCREF(out);
    return out;
}

/* ======================================================================================================== */
/* The module                                                                                               */
/* ======================================================================================================== */

static PyMethodDef methods[] = {
    {"bind", sp_bind, METH_O, "bind(addresses): the library's functions, {name: address}, from moa._lib."},
    {"advance", (PyCFunction)(void (*)(void))sp_advance, METH_FASTCALL,
     "advance(handle, dt) -> status: moa_layout_advance."},
    {"advance_frames", (PyCFunction)(void (*)(void))sp_advance_frames, METH_FASTCALL,
     "advance_frames(handle, dt, buffer, cap) -> (status, count): moa_layout_advance_frames."},
    {"changed_frames", (PyCFunction)(void (*)(void))sp_changed_frames, METH_FASTCALL,
     "changed_frames(handle, buffer or None, cap) -> (status, count): moa_layout_changed_frames."},
    {"bind_types", (PyCFunction)(void (*)(void))sp_bind_types, METH_FASTCALL,
     "bind_types(core_class, columns_class): moa._layout's _Core and FrameColumns, for advance_into."},
    {"advance_into", (PyCFunction)(void (*)(void))sp_advance_into, METH_FASTCALL,
     "advance_into(core, dt, out) -> out, (status, count) or None: Layout.advance_frames(dt, out=out)'s usual "
     "case."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "moa._speedups",
    "The optional compiled part of moa: the hot calls into libmoa without ctypes (see moa/_lib.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speedups(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    /* FUNCTIONS: the names bind() wants; FRAME_SIZE: sizeof(moa_frame), for _lib.py to compare with ctypes'. */
    size_t n = sizeof bound / sizeof bound[0];
    PyObject *names = PyTuple_New((Py_ssize_t)n);
    if (names == NULL) goto fail;
    for (size_t i = 0; i < n; i++) {
        PyObject *name = PyUnicode_FromString(bound[i].name);
        if (name == NULL) {
            Py_DECREF(names);
            goto fail;
        }
        PyTuple_SET_ITEM(names, (Py_ssize_t)i, name);
    }
    if (PyModule_AddObject(m, "FUNCTIONS", names) < 0) {
        Py_DECREF(names);
        goto fail;
    }
    if (PyModule_AddIntConstant(m, "FRAME_SIZE", (long)sizeof(moa_frame)) < 0) goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
