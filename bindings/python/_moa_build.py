"""The PEP 517 build backend of the moa Python package: a wheel with libmoa.so inside, and nothing to install
first (no setuptools, no build dependency: the standard library only).

pyproject.toml names it (``build-backend = "_moa_build"``, ``backend-path = ["."]``), so these work with no
network beyond what pip itself needs::

    python3 -m pip wheel --no-deps -w build/wheel ./bindings/python    # from the repository root
    python3 -m pip install ./bindings/python                           # or `pip install .` in bindings/python
    python3 -m pip install -e ./bindings/python                        # editable: this checkout's moa/

The wheel holds ``moa/*.py``, ``moa/py.typed`` and ``moa/libmoa.so`` (plus ``moa/libmoafont.so``, the optional
real-font measurer, when there is one); ``moa/_lib.py`` loads the copy next to it. libmoa.so comes from, in order:

1. ``$MOA_LIBRARY`` (it must exist);
2. ``build/lib/libmoa.so`` of the checkout (``../../build/lib`` from this file);
3. neither: ``make -C <repository root> lib`` builds it first, which needs the Swift toolchain (see the
   repository's README).

libmoafont.so comes from ``$MOA_FONT_LIBRARY`` (it must exist), else beside the libmoa.so taken; ``MOA_WHEEL_FONT=0``
leaves it out. At run time it needs the system's FreeType and HarfBuzz (``moa.has_font()`` tells).

The wheel also holds ``moa/_speedups<EXT_SUFFIX>`` (moa/_speedups.c compiled for the Python building it: the
per-frame calls without ctypes, see moa/_lib.py) when this Python is CPython with its headers (Debian:
python3-dev) and a C compiler (``$CC``, else ``cc``) is there; it is then tagged for that interpreter
(``cp311-cp311-<platform>``). Otherwise, or with ``MOA_WHEEL_SPEEDUPS=0``, the wheel is the ctypes-only one
(``py3-none-<platform>``), with the reason on standard error; ``MOA_WHEEL_SPEEDUPS=1`` makes a failed compile an
error. ``python3 _moa_build.py speedups`` compiles it in place (moa/, beside the sources), as `make python-ext` does.

The version is the library's own (``moa_libversion()``, the library loaded with ctypes), else MOA_VERSION of
``Include/moa.h`` (else, in an sdist, PKG-INFO's). The wheel is tagged ``py3-none-<platform>`` (ctypes: no ABI
of Python's, but a native library), or ``cp311-cp311-<platform>`` with the compiled module: ``linux_x86_64``
here; ``MOA_WHEEL_PLATFORM`` overrides the platform tag (e.g. a manylinux tag, when the library is known to
comply). ``SOURCE_DATE_EPOCH`` sets the files' dates.

Metadata is the ``[project]`` table of pyproject.toml (read with tomllib, or on Python < 3.11 with a reader of
the small subset that file uses: strings, arrays of strings, tables).
"""
from __future__ import annotations

import base64
import ctypes
import hashlib
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import zipfile
from typing import Any, Dict, List, Mapping, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))           # bindings/python (or an unpacked sdist)
ROOT = os.path.dirname(os.path.dirname(HERE))                # the repository root, in a checkout
PACKAGE = "moa"
LIBRARY = "libmoa.so"
FONT_LIBRARY = "libmoafont.so"
SPEEDUPS_SOURCE = os.path.join(HERE, PACKAGE, "_speedups.c")  # the optional compiled module, moa._speedups

__all__ = ["build_wheel", "build_sdist", "build_editable", "get_requires_for_build_wheel",
           "get_requires_for_build_sdist", "get_requires_for_build_editable"]


# ---------------------------------------------------------------------------------------------- metadata

def _toml_subset(text: str) -> Dict[str, Any]:
    """The tables of a TOML file that uses only [table] headers, `key = "string"` (or 'string'), `key = 12`,
    `key = true/false` and arrays of strings (possibly over several lines), with # comments: enough for this
    pyproject.toml on a Python without tomllib. Anything else raises ValueError."""
    string = r'"(?:[^"\\]|\\.)*"|\'[^\']*\''
    out: Dict[str, Any] = {}
    table = out

    def uncomment(line: str) -> str:
        return re.sub(r"(%s)|#.*$" % string, lambda m: m.group(1) or "", line).strip()

    def value(v: str) -> Any:
        if re.fullmatch(string, v):
            return json.loads(v) if v[0] == '"' else v[1:-1]
        if v in ("true", "false"):
            return v == "true"
        if re.fullmatch(r"[+-]?\d+", v):
            return int(v)
        if v.startswith("[") and v.endswith("]"):
            if re.sub(string, "", v[1:-1]).replace(",", "").strip():
                raise ValueError("pyproject.toml: only arrays of strings are read without tomllib: %s" % v)
            return [value(i) for i in re.findall(string, v)]
        raise ValueError("pyproject.toml: a value this reader does not know (use Python 3.11+): %s" % v)

    lines = iter(text.splitlines())
    for raw in lines:
        line = uncomment(raw)
        if not line:
            continue
        m = re.fullmatch(r"\[\s*([A-Za-z0-9_.-]+)\s*\]", line)
        if m:
            table = out
            for part in m.group(1).split("."):
                table = table.setdefault(part, {})
            continue
        m = re.fullmatch(r'([A-Za-z0-9_-]+|"[^"]+")\s*=\s*(.+)', line)
        if not m:
            raise ValueError("pyproject.toml: a line this reader does not know (use Python 3.11+): %s" % line)
        key, rest = m.group(1).strip('"'), m.group(2)
        while rest.startswith("[") and not rest.endswith("]"):  # an array over several lines
            more = next(lines, None)
            if more is None:
                raise ValueError("pyproject.toml: an array is not closed: %s" % key)
            rest += " " + uncomment(more)
        table[key] = value(rest)
    return out


def _pyproject(path: str) -> Dict[str, Any]:
    with open(path, "rb") as f:
        data = f.read()
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        return _toml_subset(data.decode("utf-8"))
    return tomllib.loads(data.decode("utf-8"))


def _project() -> Dict[str, Any]:
    project = _pyproject(os.path.join(HERE, "pyproject.toml")).get("project", {})
    if project.get("name") != PACKAGE:
        raise RuntimeError("pyproject.toml: [project] name must be %r" % PACKAGE)
    return project


def _header_version() -> Optional[str]:
    """MOA_VERSION of Include/moa.h in the checkout, or None."""
    header = os.path.join(ROOT, "Include", "moa.h")
    try:
        with open(header, encoding="utf-8") as f:
            m = re.search(r'^#define MOA_VERSION "([^"]+)"', f.read(), re.M)
    except OSError:
        return None
    return m.group(1) if m else None


def _pkg_info_version() -> Optional[str]:
    """The Version of PKG-INFO (an unpacked sdist), or None."""
    try:
        with open(os.path.join(HERE, "PKG-INFO"), encoding="utf-8") as f:
            m = re.search(r"^Version: (.+)$", f.read(), re.M)
    except OSError:
        return None
    return m.group(1).strip() if m else None


def _library_version(lib: str) -> Optional[str]:
    """moa_libversion() of the library at `lib`, or None when it cannot be loaded here."""
    try:
        fn = ctypes.CDLL(lib).moa_libversion
    except (OSError, AttributeError):
        return None
    fn.restype, fn.argtypes = ctypes.c_char_p, []
    v = fn()
    return v.decode() if v else None


def _version(lib: Optional[str]) -> str:
    v = (_library_version(lib) if lib else None) or _header_version() or _pkg_info_version()
    if not v:
        raise RuntimeError("moa: cannot tell the version (no loadable libmoa.so, no Include/moa.h, no PKG-INFO)")
    if not re.fullmatch(r"\d+(\.\d+)*([.-]?[A-Za-z0-9.]+)?", v):
        raise RuntimeError("moa: %r is not a version pip accepts" % v)
    return v


def _metadata(version: str) -> str:
    """The METADATA / PKG-INFO text (core metadata 2.1) from pyproject.toml's [project]."""
    p = _project()
    lines = ["Metadata-Version: 2.1", "Name: %s" % p["name"], "Version: %s" % version]
    if p.get("description"):
        lines.append("Summary: %s" % p["description"])
    if p.get("keywords"):
        lines.append("Keywords: %s" % ",".join(p["keywords"]))
    if p.get("requires-python"):
        lines.append("Requires-Python: %s" % p["requires-python"])
    for c in p.get("classifiers", []):
        lines.append("Classifier: %s" % c)
    for label, url in p.get("urls", {}).items():
        lines.append("Project-URL: %s, %s" % (label, url))
    for dep in p.get("dependencies", []):
        lines.append("Requires-Dist: %s" % dep)
    body = ""
    readme = p.get("readme")
    if isinstance(readme, str):
        with open(os.path.join(HERE, readme), encoding="utf-8") as f:
            body = f.read()
        lines.append("Description-Content-Type: %s" % ("text/markdown" if readme.endswith(".md") else "text/plain"))
    return "\n".join(lines) + "\n\n" + body


# ---------------------------------------------------------------------------------------------- the library

def _elf_machine(path: str) -> Optional[str]:
    """The machine an ELF file is for ("x86_64", "aarch64", ...), or None when not ELF or not known here."""
    try:
        with open(path, "rb") as f:
            head = f.read(20)
    except OSError:
        return None
    if len(head) < 20 or head[:4] != b"\x7fELF":
        return None
    machine = int.from_bytes(head[18:20], "little" if head[5] == 1 else "big")
    return {3: "i686", 40: "arm", 62: "x86_64", 183: "aarch64", 243: "riscv64", 21: "ppc64"}.get(machine)


def _find_library(build: bool = True) -> Optional[str]:
    """The libmoa.so to ship: $MOA_LIBRARY, else the checkout's build/lib (built with make when missing and
    `build`), else None (only when not `build`)."""
    env = os.environ.get("MOA_LIBRARY")
    if env:
        if not os.path.isfile(env):
            raise RuntimeError("moa: MOA_LIBRARY=%s: no such file" % env)
        return os.path.abspath(env)
    built = os.path.join(ROOT, "build", "lib", LIBRARY)
    if os.path.isfile(built) or not build:
        return built if os.path.isfile(built) else None
    makefile = os.path.join(ROOT, "Makefile")
    if not (os.path.isfile(makefile) and os.path.isfile(os.path.join(ROOT, "Include", "moa.h"))):
        raise RuntimeError("moa: no libmoa.so to put in the wheel: set MOA_LIBRARY to one (this source tree is not "
                           "inside a Moa checkout, so `make lib` cannot build it)")
    print("moa: %s is missing: running `make -C %s lib` (this needs the Swift toolchain)" % (built, ROOT),
          file=sys.stderr)
    try:
        subprocess.check_call(["make", "-C", ROOT, "lib"], stdout=sys.stderr)
    except (OSError, subprocess.CalledProcessError) as e:
        raise RuntimeError("moa: `make -C %s lib` failed (%s): build libmoa.so with Swift first, or set "
                           "MOA_LIBRARY to one" % (ROOT, e)) from None
    if not os.path.isfile(built):
        raise RuntimeError("moa: `make -C %s lib` did not make %s" % (ROOT, built))
    return built


def _find_font_library(lib: str) -> Optional[str]:
    """The libmoafont.so to ship beside libmoa.so, or None."""
    if os.environ.get("MOA_WHEEL_FONT", "1") in ("0", "no", "false"):
        return None
    env = os.environ.get("MOA_FONT_LIBRARY")
    if env:
        if not os.path.isfile(env):
            raise RuntimeError("moa: MOA_FONT_LIBRARY=%s: no such file" % env)
        return os.path.abspath(env)
    beside = os.path.join(os.path.dirname(lib), FONT_LIBRARY)
    return beside if os.path.isfile(beside) else None


def _platform_tag(lib: str) -> str:
    env = os.environ.get("MOA_WHEEL_PLATFORM")
    if env:
        return env
    plat = re.sub(r"[-.]", "_", sysconfig.get_platform())
    machine = plat[len("linux_"):] if plat.startswith("linux_") else None
    lib_machine = _elf_machine(lib)
    if machine and lib_machine and machine != lib_machine:
        raise RuntimeError("moa: %s is for %s but this Python is %s: set MOA_WHEEL_PLATFORM to the wheel's platform "
                           "tag (e.g. linux_%s)" % (lib, lib_machine, plat, lib_machine))
    return plat


# ---------------------------------------------------------------------------------------------- moa._speedups

def _speedups_name() -> Optional[str]:
    """The file name this Python imports moa._speedups from (_speedups.cpython-311-x86_64-linux-gnu.so), or None
    when this is not CPython (the module uses CPython's C API)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return "_speedups" + suffix if sys.implementation.name == "cpython" and suffix else None


def _interpreter_tags() -> str:
    """The interpreter and ABI tags of a wheel with moa._speedups in it: cp311-cp311 (as packaging.tags names
    them: t for a free-threaded build, d for a debug build)."""
    version = "%d%d" % sys.version_info[:2]
    abi = "cp" + version + ("t" if sysconfig.get_config_var("Py_GIL_DISABLED") else "") + \
        ("d" if sysconfig.get_config_var("Py_DEBUG") else "")
    return "cp%s-%s" % (version, abi)


_compiled: Dict[Tuple[Any, ...], str] = {}  # one compile per process and command (build_wheel may run again)


def compile_speedups(out_dir: str, strict: bool = False, header_dir: Optional[str] = None) -> Tuple[Optional[str], str]:
    """Compile moa/_speedups.c for this Python into out_dir: (the module's path, "") or (None, why not: not
    CPython, no Python.h, no compiler). strict adds -Werror; header_dir (Include/ of the checkout) checks the
    declarations against moa.h. A compile that fails raises CalledProcessError."""
    name = _speedups_name()
    if name is None:
        return None, "%s is not CPython" % sys.implementation.name
    if not os.path.isfile(SPEEDUPS_SOURCE):
        return None, "no %s" % SPEEDUPS_SOURCE
    include = sysconfig.get_paths()["include"]
    if not os.path.isfile(os.path.join(include, "Python.h")):
        return None, "no Python.h in %s (Debian: apt-get install python%d.%d-dev)" % ((include,) + sys.version_info[:2])
    cc = shlex.split(os.environ.get("CC") or "cc")
    if not cc or shutil.which(cc[0]) is None:
        return None, "no C compiler (%s; set CC)" % (os.environ.get("CC") or "cc")
    cmd = cc + ["-std=c11", "-O2", "-Wall", "-Wextra"] + (["-Werror"] if strict else []) + \
        ["-shared", "-fPIC", "-I" + include]
    if header_dir:
        cmd += ["-DMOA_SPEEDUPS_CHECK_HEADER", "-I" + header_dir]
    cmd += [SPEEDUPS_SOURCE, "-o"]
    st = os.stat(SPEEDUPS_SOURCE)
    key = (tuple(cmd), st.st_mtime_ns, st.st_size, os.path.abspath(out_dir))
    if key in _compiled and os.path.isfile(_compiled[key]):
        return _compiled[key], ""
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, name)
    tmp = out + ".tmp"
    print("moa: %s" % " ".join(shlex.quote(a) for a in cmd + [out]), file=sys.stderr)
    try:
        subprocess.check_call(cmd + [tmp], stdout=sys.stderr)
        os.replace(tmp, out)  # a module in use keeps its copy
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    _compiled[key] = out
    return out, ""


_speedups_dir: List[str] = []


def _wheel_speedups() -> Optional[str]:
    """moa._speedups compiled for the wheel (in a directory of this process), or None (the reason printed)."""
    want = os.environ.get("MOA_WHEEL_SPEEDUPS", "")
    if want in ("0", "no", "false", "off"):
        return None
    required = want in ("1", "yes", "true", "on")
    if not _speedups_dir:
        _speedups_dir.append(tempfile.mkdtemp(prefix="moa-speedups-"))
        import atexit
        atexit.register(shutil.rmtree, _speedups_dir[0], True)
    try:
        path, why = compile_speedups(_speedups_dir[0])
    except (OSError, subprocess.CalledProcessError) as e:
        path, why = None, "the compile failed (%s)" % e
    if path is None:
        if required:
            raise RuntimeError("moa: MOA_WHEEL_SPEEDUPS=%s but moa._speedups cannot be built: %s" % (want, why))
        print("moa: the wheel is without moa._speedups (ctypes only): %s" % why, file=sys.stderr)
    return path


# ---------------------------------------------------------------------------------------------- archives

def _date() -> Tuple[int, int, int, int, int, int]:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    t = time.gmtime(max(int(epoch), 315532800)) if epoch and epoch.isdigit() else time.gmtime(315532800)
    return t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec


def _package_files() -> List[Tuple[str, str]]:
    """(path in the archive, path on disk) of moa/*.py and moa/py.typed, sorted."""
    pkg = os.path.join(HERE, PACKAGE)
    names = sorted(n for n in os.listdir(pkg) if n.endswith(".py") or n == "py.typed")
    if "__init__.py" not in names:
        raise RuntimeError("moa: %s has no __init__.py" % pkg)
    return [("%s/%s" % (PACKAGE, n), os.path.join(pkg, n)) for n in names]


class _Wheel:
    """A wheel being written: files added with their hashes, RECORD last."""

    def __init__(self, path: str) -> None:
        self.zip = zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED)
        self.records: List[str] = []
        self.date = _date()

    def add(self, arcname: str, data: bytes, mode: int = 0o644) -> None:
        info = zipfile.ZipInfo(arcname, self.date)
        info.external_attr = (0o100000 | mode) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        self.records.append("%s,sha256=%s,%d" % (arcname, digest, len(data)))

    def add_file(self, arcname: str, path: str, mode: int = 0o644) -> None:
        with open(path, "rb") as f:
            self.add(arcname, f.read(), mode)

    def close(self, dist_info: str) -> None:
        record = "%s/RECORD" % dist_info
        self.records.append("%s,," % record)
        info = zipfile.ZipInfo(record, self.date)
        info.external_attr = (0o100000 | 0o644) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, "\n".join(self.records) + "\n")
        self.zip.close()


def _write_wheel(wheel_directory: str, version: str, tag: str, files: List[Tuple[str, str, int]],
                 extra: Mapping[str, bytes] = {}) -> str:
    name = "%s-%s-%s.whl" % (PACKAGE, version, tag)
    dist_info = "%s-%s.dist-info" % (PACKAGE, version)
    os.makedirs(wheel_directory, exist_ok=True)
    path = os.path.join(wheel_directory, name)
    w = _Wheel(path + ".part")
    try:
        for arcname, src, mode in files:
            w.add_file(arcname, src, mode)
        for arcname, data in extra.items():
            w.add(arcname, data)
        w.add("%s/METADATA" % dist_info, _metadata(version).encode("utf-8"))
        wheel = ("Wheel-Version: 1.0\nGenerator: _moa_build (moa %s)\nRoot-Is-Purelib: %s\nTag: %s\n" %
                 (version, "false" if tag.split("-")[-1] != "any" else "true", tag))
        w.add("%s/WHEEL" % dist_info, wheel.encode("utf-8"))
        w.close(dist_info)
    except BaseException:
        w.zip.close()
        os.unlink(path + ".part")
        raise
    os.replace(path + ".part", path)
    return name


# ---------------------------------------------------------------------------------------------- PEP 517 / 660

def get_requires_for_build_wheel(config_settings: Optional[Mapping[str, Any]] = None) -> List[str]:
    """Nothing: the backend uses the standard library only."""
    return []


def get_requires_for_build_sdist(config_settings: Optional[Mapping[str, Any]] = None) -> List[str]:
    """Nothing: the backend uses the standard library only."""
    return []


def get_requires_for_build_editable(config_settings: Optional[Mapping[str, Any]] = None) -> List[str]:
    """Nothing: the backend uses the standard library only."""
    return []


def build_wheel(wheel_directory: str, config_settings: Optional[Mapping[str, Any]] = None,
                metadata_directory: Optional[str] = None) -> str:
    """The wheel: moa/*.py, moa/py.typed, moa/libmoa.so (and moa/libmoafont.so when there is one, and
    moa/_speedups<EXT_SUFFIX> when it compiles here: then the wheel is for this interpreter)."""
    lib = _find_library()
    assert lib is not None
    version = _version(lib)
    platform = _platform_tag(lib)
    files = [(arc, src, 0o644) for arc, src in _package_files()]
    files.append(("%s/%s" % (PACKAGE, LIBRARY), lib, 0o755))
    font = _find_font_library(lib)
    if font:
        files.append(("%s/%s" % (PACKAGE, FONT_LIBRARY), font, 0o755))
    speedups = _wheel_speedups()
    if speedups:
        files.append(("%s/%s" % (PACKAGE, os.path.basename(speedups)), speedups, 0o755))
    return _write_wheel(wheel_directory, version, (_interpreter_tags() if speedups else "py3-none") + "-" + platform,
                        files)


def build_editable(wheel_directory: str, config_settings: Optional[Mapping[str, Any]] = None,
                   metadata_directory: Optional[str] = None) -> str:
    """An editable wheel: a .pth putting this directory on sys.path, so `import moa` is this checkout's moa/,
    which loads MOA_LIBRARY or the checkout's build/lib/libmoa.so as when run from the checkout (nothing built)."""
    lib = _find_library(build=False)
    version = _version(lib)
    pth = {"__editable__.%s-%s.pth" % (PACKAGE, version): (HERE + "\n").encode("utf-8")}
    return _write_wheel(wheel_directory, version, "py3-none-any", [], pth)


def build_sdist(sdist_directory: str, config_settings: Optional[Mapping[str, Any]] = None) -> str:
    """The source: pyproject.toml, this backend, moa/ and tests/, PKG-INFO (no library: building a wheel from it
    needs MOA_LIBRARY)."""
    lib = _find_library(build=False)
    version = _version(lib)
    base = "%s-%s" % (PACKAGE, version)
    members = [("pyproject.toml", os.path.join(HERE, "pyproject.toml")),
               ("_moa_build.py", os.path.join(HERE, "_moa_build.py"))] + _package_files()
    if os.path.isfile(SPEEDUPS_SOURCE):
        members.append(("%s/%s" % (PACKAGE, os.path.basename(SPEEDUPS_SOURCE)), SPEEDUPS_SOURCE))
    tests = os.path.join(HERE, "tests")
    if os.path.isdir(tests):
        members += [("tests/" + n, os.path.join(tests, n)) for n in sorted(os.listdir(tests))
                    if n.endswith(".py")]
    os.makedirs(sdist_directory, exist_ok=True)
    name = base + ".tar.gz"
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    mtime = int(epoch) if epoch.isdigit() else int(time.time())

    def add(tar: tarfile.TarFile, arcname: str, data: bytes) -> None:
        info = tarfile.TarInfo("%s/%s" % (base, arcname))
        info.size, info.mode, info.mtime = len(data), 0o644, mtime
        tar.addfile(info, io.BytesIO(data))

    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for arcname, src in members:
            with open(src, "rb") as f:
                add(tar, arcname, f.read())
        add(tar, "PKG-INFO", _metadata(version).encode("utf-8"))
    return name


def _main(argv: List[str]) -> int:
    """`python3 _moa_build.py speedups`: compile moa._speedups in place (moa/, beside the sources) with -Werror
    and the declarations checked against Include/moa.h, for `make python-ext`. Without a compiler or Python's
    headers it says why and succeeds (the package runs on ctypes); a failed compile fails."""
    if argv != ["speedups"]:
        print("usage: python3 _moa_build.py speedups", file=sys.stderr)
        return 2
    name = _speedups_name()
    out_dir = os.path.join(HERE, PACKAGE)
    header_dir = os.path.join(ROOT, "Include")
    header = os.path.join(header_dir, "moa.h")
    if name and os.path.isfile(header):
        out = os.path.join(out_dir, name)
        if os.path.isfile(out) and all(os.path.getmtime(out) > os.path.getmtime(p) for p in
                                       (SPEEDUPS_SOURCE, header, os.path.abspath(__file__))):
            return 0  # up to date
    try:
        path, why = compile_speedups(out_dir, strict=True,
                                     header_dir=header_dir if os.path.isfile(header) else None)
    except subprocess.CalledProcessError:
        return 1
    if path is None:
        print("moa: moa._speedups not built: %s; the Python package runs on ctypes alone" % why)
    else:
        print("built %s" % os.path.relpath(path))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
