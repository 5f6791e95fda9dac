"""The ctypes declarations of moa/_lib.py against the prototypes of Include/moa.h (the contract).

ctypes cannot see a C header: a wrong argtypes entry (a 64-bit id declared c_int, a dropped argument, a double
passed as an int) is not an error at the call, it silently passes garbage. So this file parses moa.h and
checks, for every function of _lib.py's table, the restype and argtypes ctypes actually uses (the attributes
of ``lib.<name>``), then the Structures and the CFUNCTYPE callback types field by field.

The parser (``parse_header``) is deliberately small. It understands exactly the C that moa.h is written in
and raises ``HeaderError`` on anything else, so a new construct in the header fails here instead of being
skipped:

* comments (kept apart from string literals) and preprocessor lines; the ``#ifdef __cplusplus`` blocks
  (``extern "C" {`` ... ``}``) are dropped, the ``MOA_API`` marker is removed (and counted);
* ``typedef struct T T;`` (an opaque handle), ``typedef struct T { fields } T;``, ``typedef enum T { ... } T;``,
  ``typedef <type> T;`` (ids such as ``typedef uint64_t moa_view;``, ``typedef int moa_status;``),
  ``typedef R (*T)(params);`` (callback types);
* function prototypes, over as many lines as they take: ``R name(void)`` or ``R name(T a, const T *b, ...)``,
  parameters named or not, with ``const`` anywhere and any spacing around ``*``.

Not understood (HeaderError): arrays, variadic functions, function pointers written inline in a parameter
list, several declarators in one declaration (``int a, b;``), unions, variables.

C types map to ctypes as follows; the match is by identity of the ctypes type, so it is strict about the
class (integer, double, pointer) and the width of every integer. (On LP64 Linux ctypes itself makes c_size_t,
c_uint64 and c_ulong one type, and c_int32 and c_int one type: those pairs have the same ABI anyway.)

    uint64_t and the id typedefs (moa_var, moa_view, ...)    c_uint64
    int, moa_status, moa_curve, enums                         c_int
    double / size_t                                           c_double / c_size_t
    const char * (in or out string)                           c_char_p (or POINTER(c_char))
    void *, moa_solver *, moa_layout * (opaque handles)        c_void_p
    T * for any other T                                       POINTER(<T's ctypes type>), e.g.
                                                              const char ** -> POINTER(c_char_p),
                                                              moa_rect * -> POINTER(Rect_)
    moa_rect etc. by value (struct fields)                    the Structure of STRUCTS below
    moa_done_fn etc.                                          the CFUNCTYPE of CALLBACKS below
    void (return)                                             None

c_void_p is ABI-correct for every pointer, but for a typed pointer (a string, a moa_frame array) it throws
away what the header says, so it is accepted there only when VOID_P_EXCEPTIONS names the place with the
reason (the binding deliberately taking a bytes buffer, say).
"""
import ctypes
import os
import re
import sys

import pytest

import moa  # noqa: F401  (conftest puts bindings/python first on sys.path; this loads the library)
from conftest import SOURCE_ROOT

_lib = sys.modules["moa._lib"]  # the module (moa/__init__.py binds the name moa._lib to the CDLL)

# MOA_HEADER, else the checkout's (MOA_SOURCE_ROOT, or the checkout these tests sit in).
HEADER = os.environ.get("MOA_HEADER") or os.path.join(SOURCE_ROOT or ".", "Include", "moa.h")

# The header's structs and callback typedefs -> their names in _lib.py.
STRUCTS = {"moa_term": "Term_", "moa_cons_spec": "ConsSpec_", "moa_rect": "Rect_", "moa_frame": "Frame_",
           "moa_error_info": "ErrorInfo_", "moa_measured_size": "MeasuredSize_", "moa_measure_stats": "MeasureStats_",
           "moa_text_style": "TextStyle_", "moa_text_metrics": "TextMetrics_", "moa_usage": "Usage_"}
CALLBACKS = {"moa_text_fn": "TEXT_FN", "moa_done_fn": "DONE_FN", "moa_rest_fn": "REST_FN",
             "moa_measure_fn": "MEASURE_FN", "moa_text_advance_fn": "ADVANCE_FN", "moa_progress_fn": "PROGRESS_FN",
             "moa_solver_progress_fn": "SOLVER_PROGRESS_FN"}

# moa_* functions of moa.h that the Python binding does not declare (and so does not call), each with the
# reason. A function added to moa.h must be declared in _lib.py or listed here; an entry that _lib.py declares
# after all, or that moa.h no longer has, fails test_allow_list_is_current.
NOT_IN_BINDING = {
    # Empty: the binding declares every function of moa.h. An entry names a function the binding does not use
    # and why; one that no longer applies fails test_allow_list_is_current.
}

# Typed pointers (not void * or an opaque handle) that _lib.py deliberately declares c_void_p, keyed
# "function:parameter-number" (1-based) or "struct.field", with the reason. Empty: the binding declares no
# typed pointer as c_void_p (its c_void_p are the moa_solver * / moa_layout * handles and the `void *ud`
# arguments). An entry that no longer applies fails test_void_p_exceptions_are_current.
VOID_P_EXCEPTIONS = {
}


# ================================================================================================ parser

class HeaderError(Exception):
    """moa.h holds C that parse_header does not understand."""


class CType:
    """A C type: a base name (a builtin such as "uint64_t" or "unsigned int", or a typedef name) and a
    number of `*`. `text` is how the header spelt it (for messages)."""

    def __init__(self, base, ptr, text):
        self.base, self.ptr, self.text = base, ptr, text

    def __repr__(self):
        return "CType(%r, %d)" % (self.base, self.ptr)


class Decl:
    """A function (or a callback typedef): name, return CType, [(param name or None, CType)]."""

    def __init__(self, name, ret, params, exported=False):
        self.name, self.ret, self.params, self.exported = name, ret, params, exported


class Header:
    def __init__(self):
        self.functions = {}   # name -> Decl
        self.aliases = {}     # typedef name -> CType (typedef uint64_t moa_view; typedef int moa_status)
        self.enums = set()    # enum typedef names
        self.opaque = set()   # typedef struct T T; without a body
        self.structs = {}     # name -> [(field name, CType)]
        self.callbacks = {}   # function-pointer typedef name -> Decl
        self.tags = {}        # struct/enum tag -> typedef name
        self.api_markers = 0  # MOA_API occurrences outside preprocessor lines

    def resolve(self, ctype):
        """(kind, base, ptr) with typedef aliases followed: kind is "builtin", "enum", "opaque", "struct"
        or "callback"; base is the builtin's name or the typedef's name."""
        base, ptr = ctype.base, ctype.ptr
        seen = set()
        while base in self.aliases:
            if base in seen:
                raise HeaderError("typedef cycle through %s" % base)
            seen.add(base)
            target = self.aliases[base]
            base, ptr = target.base, ptr + target.ptr
        if base in SCALARS:
            return "builtin", base, ptr
        for kind, names in (("enum", self.enums), ("opaque", self.opaque), ("struct", self.structs),
                            ("callback", self.callbacks)):
            if base in names:
                return kind, base, ptr
        raise HeaderError("unknown type `%s` (in `%s`)" % (base, ctype.text))


# C builtin type -> ctypes name. The spellings a header may use; anything else is a HeaderError.
SCALARS = {
    "void": None, "char": "c_char", "signed char": "c_byte", "unsigned char": "c_ubyte",
    "short": "c_short", "unsigned short": "c_ushort", "int": "c_int", "unsigned int": "c_uint",
    "long": "c_long", "unsigned long": "c_ulong", "long long": "c_longlong",
    "unsigned long long": "c_ulonglong", "float": "c_float", "double": "c_double", "_Bool": "c_bool",
    "size_t": "c_size_t", "ptrdiff_t": "c_ssize_t",
    "int8_t": "c_int8", "int16_t": "c_int16", "int32_t": "c_int32", "int64_t": "c_int64",
    "uint8_t": "c_uint8", "uint16_t": "c_uint16", "uint32_t": "c_uint32", "uint64_t": "c_uint64",
}
_BUILTIN_WORDS = {"void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "_Bool"}
_SPELLINGS = {"unsigned": "unsigned int", "signed": "int", "signed int": "int", "short int": "short",
              "unsigned short int": "unsigned short", "long int": "long", "unsigned long int": "unsigned long",
              "long long int": "long long", "unsigned long long int": "unsigned long long"}
_QUALIFIERS = {"const", "volatile", "restrict"}
_TOKEN = re.compile(r"[A-Za-z_]\w*|\.\.\.|\S")


def _strip_comments(text):
    """Comments become a space; string and character literals are kept as they are."""
    def repl(m):
        s = m.group(0)
        return " " if s.startswith("/") else s
    return re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', repl, text, flags=re.S)


def _preprocess(text):
    """The C text outside comments and preprocessor lines, without the __cplusplus-only blocks."""
    text = _strip_comments(text.replace("\\\n", ""))
    kept, stack = [], []  # stack: per open #if, True/False for a __cplusplus test (C sees False), None else
    for line in text.split("\n"):
        d = re.match(r"\s*#\s*(\w+)\s*(.*)", line)
        if d:
            word, rest = d.group(1), d.group(2).strip()
            if word in ("if", "ifdef", "ifndef"):
                cxx = None
                if rest in ("__cplusplus", "defined(__cplusplus)", "defined __cplusplus"):
                    cxx = word == "ifndef"  # as C sees it: #ifdef __cplusplus is off
                elif rest in ("!defined(__cplusplus)", "!defined __cplusplus"):
                    cxx = True
                stack.append(cxx)
            elif word == "else" and stack:
                if stack[-1] is not None:
                    stack[-1] = not stack[-1]
            elif word == "elif" and stack and stack[-1] is not None:
                raise HeaderError("#elif after a __cplusplus test: not understood")
            elif word == "endif":
                if not stack:
                    raise HeaderError("#endif without #if")
                stack.pop()
            continue
        if False not in stack:
            kept.append(line)
    if stack:
        raise HeaderError("unterminated #if")
    return "\n".join(kept)


def _split_declarations(text):
    """The top-level declarations (`;`-terminated, braces balanced), whitespace collapsed."""
    decls, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                raise HeaderError("unbalanced `}` near: %s" % text[max(0, i - 80):i + 1].strip())
        elif ch == ";" and depth == 0:
            decls.append(" ".join(text[start:i].split()))
            start = i + 1
    if depth or text[start:].strip():
        raise HeaderError("text after the last declaration: %r" % text[start:].strip()[:200])
    return [d for d in decls if d]


def parse_type(text, header, want_name):
    """`const char **out` -> (CType("char", 2), "out"). want_name: True (a name is required), False (no
    name allowed) or None (either: a prototype's parameter)."""
    toks = _TOKEN.findall(text)
    for bad in ("[", "(", ")", "...", ",", "=", ":"):
        if bad in toks:
            raise HeaderError("`%s` in `%s`: not understood (arrays, inline function pointers, varargs, "
                              "several declarators, bit-fields)" % (bad, text))
    words = [t for t in toks if t not in _QUALIFIERS]
    i = 0
    if words and words[0] in ("struct", "enum", "union"):
        if words[0] == "union" or len(words) < 2:
            raise HeaderError("`%s`: not understood" % text)
        tag = words[1]
        base = header.tags.get(tag)
        if base is None:
            raise HeaderError("unknown tag `%s %s` in `%s`" % (words[0], tag, text))
        i = 2
    elif words and words[0] in _BUILTIN_WORDS:
        while i < len(words) and words[i] in _BUILTIN_WORDS:
            i += 1
        base = " ".join(words[:i])
        base = _SPELLINGS.get(base, base)
        if base not in SCALARS:
            raise HeaderError("unknown builtin type `%s` in `%s`" % (base, text))
    elif words and words[0] != "*":
        base, i = words[0], 1
    else:
        raise HeaderError("no type in `%s`" % text)
    ptr = 0
    while i < len(words) and words[i] == "*":
        ptr, i = ptr + 1, i + 1
    name = None
    if i < len(words) and re.match(r"[A-Za-z_]\w*$", words[i]):
        name, i = words[i], i + 1
    if i != len(words):
        raise HeaderError("cannot read the type `%s`" % text)
    if want_name and name is None:
        raise HeaderError("`%s` has no name" % text)
    if want_name is False and name is not None:
        raise HeaderError("`%s`: a name where only a type belongs" % text)
    spelt = re.sub(r"\s*\*\s*", "*", " ".join(toks[:len(toks) - (1 if name else 0)]))
    return CType(base, ptr, re.sub(r"(\w)\*", r"\1 *", spelt)), name


def _params(text, header, where):
    text = text.strip()
    if text in ("void", ""):
        return []
    params = []
    for p in text.split(","):
        ctype, name = parse_type(p, header, None)
        if ctype.base == "void" and ctype.ptr == 0:
            raise HeaderError("%s: `void` among other parameters" % where)
        params.append((name, ctype))
    return params


def parse_header(text):
    """Parse the text of moa.h into a Header (see the module's docstring for what is understood)."""
    h = Header()
    body = _preprocess(text)
    h.api_markers = len(re.findall(r"\bMOA_API\b", body))
    for decl in _split_declarations(body):
        exported = bool(re.match(r"MOA_API\b", decl))
        if re.search(r"\bMOA_API\b", decl) and not exported:
            raise HeaderError("MOA_API not at the start of `%s`" % decl)
        decl = re.sub(r"^MOA_API\s*", "", decl)
        m = re.match(r"typedef (struct|enum) (\w+) ?\{(.*)\} ?(\w+)$", decl)
        if m:
            kind, tag, inner, name = m.groups()
            h.tags[tag] = name
            if kind == "enum":
                h.enums.add(name)
                continue
            fields = []
            for f in inner.split(";"):
                if f.strip():
                    ctype, fname = parse_type(f, h, True)
                    h.resolve(ctype)
                    fields.append((fname, ctype))
            h.structs[name] = fields
            continue
        m = re.match(r"typedef struct (\w+) (\w+)$", decl)
        if m:
            h.tags[m.group(1)] = m.group(2)
            h.opaque.add(m.group(2))
            continue
        m = re.match(r"typedef (.+?)\( ?\* ?(\w+) ?\) ?\((.*)\)$", decl)
        if m:
            ret, _ = parse_type(m.group(1), h, False)
            name = m.group(2)
            h.callbacks[name] = Decl(name, ret, _params(m.group(3), h, name))
            continue
        m = re.match(r"typedef (.+)$", decl)
        if m:
            ctype, name = parse_type(m.group(1), h, True)
            h.resolve(ctype)
            h.aliases[name] = ctype
            continue
        m = re.match(r"([^()]*?[\s*])([A-Za-z_]\w*) ?\(([^()]*)\)$", decl)
        if m:
            ret, _ = parse_type(m.group(1), h, False)
            name = m.group(2)
            if name in h.functions:
                raise HeaderError("%s declared twice" % name)
            d = Decl(name, ret, _params(m.group(3), h, name), exported)
            for _, ctype in [(None, d.ret)] + d.params:
                h.resolve(ctype)
            h.functions[name] = d
            continue
        raise HeaderError("declaration not understood: `%s`" % decl)
    for name, d in h.callbacks.items():
        for _, ctype in [(None, d.ret)] + d.params:
            h.resolve(ctype)
    return h


# ================================================================================================ checking

# The name ctname gives a ctypes type that has several (on LP64 Linux c_uint64 is c_ulong is c_size_t).
_PREFERRED = ["c_void_p", "c_char_p", "c_char", "c_bool", "c_int", "c_uint", "c_double", "c_float", "c_uint64",
              "c_int64", "c_size_t", "c_ssize_t", "c_uint32", "c_int32", "c_uint16", "c_int16", "c_uint8",
              "c_int8", "c_short", "c_ushort", "c_long", "c_ulong", "c_longlong", "c_ulonglong"]


def ctname(t, hint=None):
    """A ctypes type as _lib.py would write it: POINTER(c_double), c_uint64, Rect_, DONE_FN. hint: the name
    to prefer when it is one of t's names (c_size_t for a size_t)."""
    if t is None:
        return "None"
    if isinstance(t, type) and issubclass(t, ctypes._Pointer):
        return "POINTER(%s)" % ctname(t._type_, hint)
    for name in ([hint] if hint else []) + _PREFERRED:
        if getattr(ctypes, name, None) is t:
            return name
    for name in list(CALLBACKS.values()) + list(STRUCTS.values()):
        if getattr(_lib, name, None) is t:
            return name
    return getattr(t, "__name__", repr(t))


def accepted(h, ctype):
    """The ctypes types that declare `ctype` exactly (the first is the usual spelling), and the resolved
    (kind, base, ptr)."""
    kind, base, ptr = h.resolve(ctype)

    def at(depth):
        if depth == 0:
            if kind == "builtin":
                return [None if SCALARS[base] is None else getattr(ctypes, SCALARS[base])]
            if kind == "enum":
                return [ctypes.c_int]
            table = STRUCTS if kind == "struct" else CALLBACKS if kind == "callback" else {}
            py = getattr(_lib, table.get(base, ""), None)  # none: unmapped, or an opaque struct by value
            return [py] if py is not None else []
        if depth == 1 and (kind == "opaque" or base == "void"):
            return [ctypes.c_void_p]
        out = [ctypes.POINTER(t) for t in at(depth - 1) if t is not None]
        if depth == 1 and base == "char":
            out.insert(0, ctypes.c_char_p)
        return out

    return at(ptr), (kind, base, ptr)


def resolved(h, ctype):
    """What a typedef'd C type is, for messages: " (= uint64_t)", " (= enum, int)", or "" when plain."""
    kind, base, ptr = h.resolve(ctype)
    if kind == "enum":
        return " (= enum, int)"
    if base == ctype.base:
        return ""
    return " (= %s%s)" % (base, " " + "*" * ptr if ptr else "")


def check_type(h, ctype, py, where, key, used_void_p):
    """None if the ctypes type `py` declares C type `ctype`, else a message."""
    ok, (kind, base, ptr) = accepted(h, ctype)
    if any(py is t for t in ok):
        return None
    if py is ctypes.c_void_p and ptr > 0:
        if key in VOID_P_EXCEPTIONS:
            used_void_p.add(key)
            return None
        return ("%s: C `%s` is a typed pointer but the binding has c_void_p; declare it %s, or list %r in "
                "VOID_P_EXCEPTIONS with the reason" % (where, ctype.text, ctname(ok[0]) if ok else "?", key))
    if not ok:
        table = "CALLBACKS" if kind == "callback" else "STRUCTS"
        return "%s: C `%s` has no Python type (add %s to %s in test_header.py)" % (where, ctype.text, base,
                                                                                   table)
    hint = SCALARS.get(base) if kind == "builtin" else "c_int" if kind == "enum" else None
    return "%s: C `%s`%s needs %s, but the binding has %s" % (
        where, ctype.text, resolved(h, ctype), " or ".join(ctname(t, hint) for t in ok), ctname(py, hint))


def _param_text(name, ctype):
    if not name:
        return ctype.text
    return ctype.text + name if ctype.text.endswith("*") else ctype.text + " " + name


def check_signature(h, d, restype, argtypes, used_void_p):
    """Messages for a ctypes (restype, argtypes) against the header's Decl d."""
    problems = []
    msg = check_type(h, d.ret, restype, "%s: return" % d.name, "%s:return" % d.name, used_void_p)
    if msg:
        problems.append(msg)
    argtypes = list(argtypes or ())
    if len(argtypes) != len(d.params):
        problems.append("%s: the header has %d parameter(s) (%s), the binding %d (%s)" % (
            d.name, len(d.params), ", ".join(_param_text(n, c) for n, c in d.params),
            len(argtypes), ", ".join(ctname(t) for t in argtypes)))
        return problems  # positions would not line up
    for i, ((pname, ctype), py) in enumerate(zip(d.params, argtypes), 1):
        where = "%s: parameter %d%s" % (d.name, i, " `%s`" % pname if pname else "")
        msg = check_type(h, ctype, py, where, "%s:%d" % (d.name, i), used_void_p)
        if msg:
            problems.append(msg)
    return problems


def _fail(problems, what):
    if problems:
        pytest.fail("%d mismatch(es) between %s and Include/moa.h:\n  %s" % (len(problems), what,
                                                                             "\n  ".join(problems)),
                    pytrace=False)


@pytest.fixture(scope="module")
def header():
    if not os.path.exists(HEADER):
        pytest.fail("moa.h not found at %s (set MOA_HEADER or MOA_SOURCE_ROOT)" % HEADER, pytrace=False)
    with open(HEADER, encoding="utf-8") as f:
        text = f.read()
    try:
        return parse_header(text)
    except HeaderError as e:
        pytest.fail("cannot parse %s: %s (teach parse_header in test_header.py, or write the header in the "
                    "forms it reads)" % (HEADER, e), pytrace=False)


def _function_problems(h, used_void_p):
    problems = []
    for name in _lib._SIGNATURES:
        d = h.functions.get(name)
        if d is None:
            problems.append("%s: declared in _lib.py but not in moa.h" % name)
            continue
        fn = getattr(_lib.lib, name)  # what ctypes actually uses (the table, unless something overrode it)
        problems += check_signature(h, d, fn.restype, fn.argtypes, used_void_p)
    return problems


def _struct_problems(h, used_void_p):
    problems = []
    for cname, d_fields in h.structs.items():
        pyname = STRUCTS.get(cname)
        cls = getattr(_lib, pyname, None) if pyname else None
        if cls is None:
            problems.append("struct %s: no ctypes Structure (add it to _lib.py and to STRUCTS)" % cname)
            continue
        if not issubclass(cls, ctypes.Structure) or getattr(cls, "_pack_", 0) or \
                getattr(cls, "_anonymous_", None):
            problems.append("%s: should be a plain ctypes.Structure (no _pack_, no _anonymous_)" % pyname)
        py_fields = list(cls._fields_)
        if [f[0] for f in py_fields] != [f[0] for f in d_fields]:
            problems.append("%s (struct %s): fields %s, the header has %s" % (
                pyname, cname, [f[0] for f in py_fields], [f[0] for f in d_fields]))
            continue
        for (fname, ctype), pf in zip(d_fields, py_fields):
            if len(pf) != 2:
                problems.append("%s.%s: a bit-field in Python, not in the header" % (pyname, fname))
                continue
            msg = check_type(h, ctype, pf[1], "%s.%s (struct %s)" % (pyname, fname, cname),
                             "%s.%s" % (cname, fname), used_void_p)
            if msg:
                problems.append(msg)
    for cname, pyname in STRUCTS.items():
        if cname not in h.structs:
            problems.append("STRUCTS maps %s, which moa.h does not define" % cname)
    for attr in dir(_lib):
        t = getattr(_lib, attr)
        if isinstance(t, type) and issubclass(t, ctypes.Structure) and t.__module__ == _lib.__name__ and \
                attr not in STRUCTS.values():
            problems.append("_lib.%s is a Structure with no struct of moa.h (map it in STRUCTS)" % attr)
    return problems


def _callback_problems(h, used_void_p):
    problems = []
    for cname, d in h.callbacks.items():
        pyname = CALLBACKS.get(cname)
        t = getattr(_lib, pyname, None) if pyname else None
        if t is None:
            problems.append("%s: no CFUNCTYPE in _lib.py (add it and map it in CALLBACKS)" % cname)
            continue
        if not (isinstance(t, type) and issubclass(t, ctypes._CFuncPtr)) or \
                t._flags_ & ctypes._FUNCFLAG_CDECL == 0:
            problems.append("%s (%s): not a ctypes.CFUNCTYPE" % (pyname, cname))
            continue
        problems += [p.replace(cname + ":", "%s (%s):" % (pyname, cname), 1)
                     for p in check_signature(h, d, t._restype_, t._argtypes_, used_void_p)]
    for cname, pyname in CALLBACKS.items():
        if cname not in h.callbacks:
            problems.append("CALLBACKS maps %s, which moa.h does not define" % cname)
    for attr in dir(_lib):
        t = getattr(_lib, attr)
        if isinstance(t, type) and issubclass(t, ctypes._CFuncPtr) and attr not in CALLBACKS.values():
            problems.append("_lib.%s is a CFUNCTYPE with no callback typedef of moa.h (map it in CALLBACKS)"
                            % attr)
    return problems


# ================================================================================================ tests

def test_parser_reads_the_forms_moa_h_uses():
    h = parse_header("""
        /* a comment with ; and ( and "quotes" */
        #ifndef X_H
        #define X_H
        #define X_API __attribute__((visibility("default")))  /* not C declarations */
        #define MOA_API
        #include <stdint.h>
        #ifdef __cplusplus
        extern "C" {
        #endif
        typedef struct h h;
        typedef uint64_t id;             // a comment after code
        typedef int status;
        typedef enum dir { A = 0, B = 1 } dir;
        typedef struct pt { double x; id who; const char *label; } pt;
        typedef void (*cb_fn)(h *L, id which, double, void *ud);
        MOA_API const char* f0(void);
        MOA_API status f1(h *L, char const *name,
                          id parent, unsigned long long n, pt *out,
                          const char **s, cb_fn cb, dir d);
        MOA_API void f2(struct h *, size_t);
        #ifdef __cplusplus
        }
        #endif
        #endif
    """)
    assert h.api_markers == 3 and sorted(h.functions) == ["f0", "f1", "f2"]
    assert h.opaque == {"h"} and h.enums == {"dir"} and list(h.callbacks) == ["cb_fn"]
    assert [(n, c.base, c.ptr) for n, c in h.structs["pt"]] == [("x", "double", 0), ("who", "id", 0),
                                                                ("label", "char", 1)]
    f1 = h.functions["f1"]
    assert (f1.ret.base, f1.ret.ptr) == ("status", 0)
    assert [(n, c.base, c.ptr) for n, c in f1.params] == [
        ("L", "h", 1), ("name", "char", 1), ("parent", "id", 0), ("n", "unsigned long long", 0),
        ("out", "pt", 1), ("s", "char", 2), ("cb", "cb_fn", 0), ("d", "dir", 0)]
    assert h.resolve(f1.params[2][1]) == ("builtin", "uint64_t", 0)
    assert h.resolve(f1.params[0][1]) == ("opaque", "h", 1)
    assert [(n, c.base, c.ptr) for n, c in h.functions["f2"].params] == [(None, "h", 1), (None, "size_t", 0)]
    assert [(n, c.base) for n, c in h.callbacks["cb_fn"].params] == [("L", "h"), ("which", "id"),
                                                                     (None, "double"), ("ud", "void")]
    assert h.functions["f0"].params == [] and (h.functions["f0"].ret.base, h.functions["f0"].ret.ptr) == \
        ("char", 1)


@pytest.mark.parametrize("text", [
    "int f(double v[4]);",                 # arrays
    "int f(const char *fmt, ...);",        # varargs
    "int f(void (*cb)(int));",             # an inline function pointer
    "typedef struct s { int a, b; } s;",   # several declarators
    "int counter;",                        # a variable
    "int f(moa_unknown x);",               # an unknown type
    "int f(void) int g(void);",            # a missing `;`
])
def test_parser_refuses_what_it_does_not_understand(text):
    with pytest.raises(HeaderError):
        parse_header(text)


def test_moa_h_parses(header):
    h = header
    # Every MOA_API marks one exported prototype, and every prototype is exported.
    assert h.api_markers == len(h.functions)
    assert all(d.exported for d in h.functions.values())
    assert all(name.startswith("moa_") for name in h.functions)
    assert {"moa_solver_new", "moa_layout_new", "moa_pan_ended"} <= set(h.functions)
    assert {"moa_solver", "moa_layout"} <= h.opaque
    assert h.resolve(CType("moa_view", 0, "moa_view")) == ("builtin", "uint64_t", 0)
    assert set(h.structs) == set(STRUCTS) and set(h.callbacks) == set(CALLBACKS)


def test_binding_functions_match_header(header):
    """(1) Every function of _lib.py's table is in moa.h, with the same number and kinds of arguments and the
    same return type."""
    _fail(_function_problems(header, set()), "the functions of moa/_lib.py")


def test_header_functions_are_in_the_binding(header):
    """(2) Every moa_* function of moa.h is declared in _lib.py or listed in NOT_IN_BINDING."""
    missing = sorted(n for n in header.functions if n not in _lib._SIGNATURES and n not in NOT_IN_BINDING)
    _fail(["%s: in moa.h but neither declared in _lib.py nor listed in NOT_IN_BINDING" % n for n in missing],
          "the functions of moa/_lib.py")


def test_allow_list_is_current(header):
    stale = ["NOT_IN_BINDING lists %s, which %s" % (n, "_lib.py declares" if n in _lib._SIGNATURES else
                                                    "moa.h does not declare")
             for n in NOT_IN_BINDING if n in _lib._SIGNATURES or n not in header.functions]
    _fail(stale, "NOT_IN_BINDING (in test_header.py)")


def test_structures_match_header(header):
    """(3) The Structures of STRUCTS (Rect_, Frame_, ..., TextMetrics_): the fields of their structs, in order, with
    matching types."""
    _fail(_struct_problems(header, set()), "the Structures of moa/_lib.py")


def test_callback_types_match_header(header):
    """(4) The CFUNCTYPEs of CALLBACKS (DONE_FN, ..., ADVANCE_FN): the function-pointer typedefs of moa.h."""
    _fail(_callback_problems(header, set()), "the CFUNCTYPEs of moa/_lib.py")


def test_void_p_exceptions_are_current(header):
    used = set()
    _function_problems(header, used)
    _struct_problems(header, used)
    _callback_problems(header, used)
    stale = sorted(set(VOID_P_EXCEPTIONS) - used)
    _fail(["VOID_P_EXCEPTIONS lists %s, which is no longer a typed pointer declared c_void_p" % k
           for k in stale], "VOID_P_EXCEPTIONS (in test_header.py)")
