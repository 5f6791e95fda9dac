"""The package as pip builds and installs it: where the library is loaded from, py.typed and the types (mypy,
when it is installed), and, in the checkout, the build backend (_moa_build.py: wheel, editable wheel, sdist,
`make lib` when the library is missing)."""
import base64
import hashlib
import importlib.util
import os
import subprocess
import sys
import tarfile
import textwrap
import zipfile

import pytest

import moa
from conftest import PACKAGE_PARENT

_lib = sys.modules["moa._lib"]
_font = sys.modules["moa._font"]
PACKAGE_DIR = os.path.dirname(os.path.abspath(moa.__file__))
BACKEND = os.path.join(PACKAGE_PARENT, "_moa_build.py")  # beside moa/ in the checkout only
HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------------------------------------- loading


def test_library_lookup_order(monkeypatch):
    monkeypatch.setenv("MOA_LIBRARY", "/somewhere/libmoa.so")
    assert _lib._candidates() == (["/somewhere/libmoa.so"], True)  # explicit: used or failed
    monkeypatch.delenv("MOA_LIBRARY")
    found, explicit = _lib._candidates()
    assert not explicit
    assert found[0] == os.path.join(PACKAGE_DIR, "libmoa.so")  # an installed wheel's copy
    assert found[1] == os.path.join(os.path.dirname(os.path.dirname(PACKAGE_PARENT)), "build", "lib", "libmoa.so")


def test_loaded_library():
    env = os.environ.get("MOA_LIBRARY")
    packaged = os.path.join(PACKAGE_DIR, "libmoa.so")
    if env:
        assert moa.library_path == env
    elif os.path.exists(packaged):
        assert moa.library_path == packaged
    assert moa.version == moa._lib.moa_libversion().decode()


def test_font_lookup_order(monkeypatch):
    monkeypatch.setenv("MOA_FONT_LIBRARY", "/somewhere/libmoafont.so")
    assert _font._candidates() == (["/somewhere/libmoafont.so"], True)
    monkeypatch.delenv("MOA_FONT_LIBRARY")
    found, explicit = _font._candidates()
    assert not explicit and found[0] == os.path.join(PACKAGE_DIR, "libmoafont.so")
    beside = os.path.join(os.path.dirname(os.path.abspath(moa.library_path)), "libmoafont.so")
    assert beside in found and found.count(beside) == 1


def test_py_typed():
    assert os.path.isfile(os.path.join(PACKAGE_DIR, "py.typed"))


# ---------------------------------------------------------------------------------------------- types


def _mypy(tmp_path, *files):
    pytest.importorskip("mypy", reason="mypy is not installed (pip install mypy)")
    env = dict(os.environ)
    if os.path.isfile(BACKEND):
        env["MYPYPATH"] = PACKAGE_PARENT  # the checkout's moa; an installed one is found by its py.typed
    r = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / ".mypy_cache"),
                        "--no-error-summary", "--show-error-codes", *files], cwd=str(tmp_path),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300, env=env)
    return r.returncode, r.stdout + r.stderr


def test_typed_usage_checks(tmp_path):
    """tests/typed_usage.py uses the public API with assert_type: mypy finds no error."""
    code, out = _mypy(tmp_path, os.path.join(HERE, "typed_usage.py"))
    assert code == 0, out


def test_typed_usage_runs():
    sys.path.insert(0, HERE)
    try:
        spec = importlib.util.spec_from_file_location("typed_usage", os.path.join(HERE, "typed_usage.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(HERE)
    assert mod.layout_demo()[:3] == ["content 200", "True", "width"]
    assert mod.solver_demo() == 40.0


def test_type_errors_are_found(tmp_path):
    """The signatures are real types, not Any: misuse is reported where it is."""
    bad = tmp_path / "bad.py"
    bad.write_text(textwrap.dedent("""\
        import moa
        L = moa.Layout(320, 480)
        L.view(3)
        L.solve().append(1)
        x: str = L["a"].frame.x
        moa.Solver().add("x == 1")
        n = L.advance(0.1, views=False) + 1
        L.eqs("a.left == 0")[0].animate("far")
        ok: float = L.fitting_size(L.root)[0]
        """))
    code, out = _mypy(tmp_path, str(bad))
    assert code == 1, out
    lines = sorted({int(line.split(":")[1]) for line in out.splitlines() if line.startswith(str(bad) + ":") or
                    line.startswith("bad.py:")})
    assert lines == [3, 4, 5, 6, 7, 8], out


# ---------------------------------------------------------------------------------------------- the backend

@pytest.fixture
def backend(monkeypatch):
    if not os.path.isfile(BACKEND):
        pytest.skip("no _moa_build.py beside moa/ (an installed package is under test)")
    spec = importlib.util.spec_from_file_location("_moa_build_under_test", BACKEND)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for name in ("MOA_LIBRARY", "MOA_FONT_LIBRARY", "MOA_WHEEL_FONT", "MOA_WHEEL_PLATFORM", "SOURCE_DATE_EPOCH",
                 "MOA_WHEEL_SPEEDUPS", "CC"):
        monkeypatch.delenv(name, raising=False)
    return mod


def _record_ok(zf):
    names = zf.namelist()
    record = [n for n in names if n.endswith(".dist-info/RECORD")]
    assert len(record) == 1
    rows = [line.split(",") for line in zf.read(record[0]).decode().splitlines()]
    assert sorted(r[0] for r in rows) == sorted(names)
    for path, digest, size in rows:
        if path == record[0]:
            assert digest == size == ""
            continue
        data = zf.read(path)
        assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert int(size) == len(data)


def test_pyproject_reader_without_tomllib(backend):
    tomllib = pytest.importorskip("tomllib")
    with open(os.path.join(PACKAGE_PARENT, "pyproject.toml"), "rb") as f:
        data = f.read().decode("utf-8")
    assert backend._toml_subset(data) == tomllib.loads(data)
    sample = 'a = "x # not a comment"  # a comment\n[t.u]\nb = [\n  "1",  # one\n  \'2\',\n]\nc = true\nd = 3\n'
    assert backend._toml_subset(sample) == tomllib.loads(sample)
    with pytest.raises(ValueError):
        backend._toml_subset("a = {inline = 1}\n")


def test_build_wheel(backend, tmp_path, monkeypatch):
    lib = os.path.abspath(moa.library_path)
    if os.sep not in moa.library_path or not os.path.isfile(lib):
        pytest.skip("the loaded library is not a file path")
    monkeypatch.setenv("MOA_LIBRARY", lib)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setenv("MOA_WHEEL_SPEEDUPS", "0")  # the ctypes-only wheel (the compiled one: the test below)
    name = backend.build_wheel(str(tmp_path))
    assert name == "moa-%s-py3-none-%s.whl" % (moa.version, backend._platform_tag(lib))
    assert "-any" not in name
    with zipfile.ZipFile(str(tmp_path / name)) as zf:
        names = set(zf.namelist())
        sources = {"moa/" + n for n in os.listdir(PACKAGE_DIR) if n.endswith(".py")}
        assert sources | {"moa/py.typed", "moa/libmoa.so"} <= names
        assert not any("__pycache__" in n or n.endswith(".pyc") or "_speedups" in n for n in names)
        assert ("moa/libmoafont.so" in names) == os.path.isfile(os.path.join(os.path.dirname(lib), "libmoafont.so"))
        with open(lib, "rb") as f:
            assert zf.read("moa/libmoa.so") == f.read()
        assert zf.getinfo("moa/libmoa.so").external_attr >> 16 & 0o777 == 0o755
        dist = "moa-%s.dist-info/" % moa.version
        meta = zf.read(dist + "METADATA").decode()
        assert "Name: moa\n" in meta and "Version: %s\n" % moa.version in meta and "Requires-Python: >=" in meta
        wheel = zf.read(dist + "WHEEL").decode()
        assert "Root-Is-Purelib: false\n" in wheel and "Tag: " + name[len("moa-%s-" % moa.version):-4] in wheel
        _record_ok(zf)
    again = tmp_path / "again"
    backend.build_wheel(str(again))
    assert (again / name).read_bytes() == (tmp_path / name).read_bytes()  # reproducible (SOURCE_DATE_EPOCH)

    monkeypatch.setenv("MOA_WHEEL_FONT", "0")
    monkeypatch.setenv("MOA_WHEEL_PLATFORM", "linux_test")
    nofont = backend.build_wheel(str(tmp_path / "nofont"))
    assert nofont.endswith("-py3-none-linux_test.whl")
    with zipfile.ZipFile(str(tmp_path / "nofont" / nofont)) as zf:
        assert "moa/libmoafont.so" not in zf.namelist()

    monkeypatch.setenv("MOA_LIBRARY", str(tmp_path / "missing.so"))
    with pytest.raises(RuntimeError, match="MOA_LIBRARY"):
        backend.build_wheel(str(tmp_path / "none"))


def test_build_wheel_with_the_compiled_module(backend, tmp_path, monkeypatch):
    """moa._speedups compiled into the wheel when this Python can (CPython, its headers, a C compiler): the wheel
    is then for this interpreter, and the module in it loads and binds; otherwise the ctypes-only wheel."""
    lib = os.path.abspath(moa.library_path)
    if os.sep not in moa.library_path or not os.path.isfile(lib):
        pytest.skip("the loaded library is not a file path")
    monkeypatch.setenv("MOA_LIBRARY", lib)
    monkeypatch.setenv("MOA_WHEEL_FONT", "0")
    name = backend.build_wheel(str(tmp_path))
    module = backend._wheel_speedups()  # (the same compile, remembered)
    platform = backend._platform_tag(lib)
    if module is None:
        assert name == "moa-%s-py3-none-%s.whl" % (moa.version, platform)
        pytest.skip("moa._speedups cannot be compiled here: the ctypes-only wheel")
    tag = backend._interpreter_tags()
    assert tag.startswith("cp%d%d-cp%d%d" % (sys.version_info[:2] * 2))  # (t, d: free-threaded, debug builds)
    assert name == "moa-%s-%s-%s.whl" % (moa.version, tag, platform)
    arcname = "moa/" + backend._speedups_name()
    site = tmp_path / "site"
    with zipfile.ZipFile(str(tmp_path / name)) as zf:
        assert arcname in zf.namelist() and "moa/_speedups.c" not in zf.namelist()
        assert "Tag: %s-%s\n" % (tag, platform) in zf.read("moa-%s.dist-info/WHEEL" % moa.version).decode()
        _record_ok(zf)
        zf.extractall(str(site))
    # The wheel's module (compiled stand-alone: no moa.h) is the one imported, and it binds to the library.
    env = {k: v for k, v in os.environ.items() if k not in ("MOA_LIBRARY", "PYTHONPATH")}
    env.update(PYTHONPATH=str(site), MOA_PYTHON_SPEEDUPS="1", PYTHONDONTWRITEBYTECODE="1")
    code = ("import importlib, moa; sp = importlib.import_module('moa._lib').speedups; "
            "assert sp.__file__.startswith(%r), sp.__file__; "
            "L = moa.Layout(100, 100); L.view('a'); L.eqs('a.left == 0\\na.top == 0\\na.size == 10x10'); "
            "L.solve(); L.eqs('a.left == 0')[0].animate(50, duration=1); "
            "print(len(L.advance_frames(0.5)), L['a'].frame.x)" % str(site))
    r = subprocess.run([sys.executable, "-c", code], env=env, cwd=str(tmp_path), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.split() == ["1", "25.0"], r.stdout

    # MOA_WHEEL_SPEEDUPS=1: a wheel without the module is an error; unset, the ctypes-only wheel.
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    fresh = backend.build_wheel(str(tmp_path / "nocc"))
    assert fresh == "moa-%s-py3-none-%s.whl" % (moa.version, platform)
    monkeypatch.setenv("MOA_WHEEL_SPEEDUPS", "1")
    with pytest.raises(RuntimeError, match="no C compiler"):
        backend.build_wheel(str(tmp_path / "required"))


def test_build_runs_make_when_the_library_is_missing(backend, tmp_path, monkeypatch):
    """No MOA_LIBRARY and no build/lib/libmoa.so: `make -C <root> lib` (a stand-in make here: no Swift)."""
    lib = os.path.abspath(moa.library_path)
    if os.sep not in moa.library_path or not os.path.isfile(lib):
        pytest.skip("the loaded library is not a file path")
    monkeypatch.setenv("MOA_WHEEL_SPEEDUPS", "0")
    root = tmp_path / "repo"
    (root / "Include").mkdir(parents=True)
    (root / "Include" / "moa.h").write_text('#define MOA_VERSION "%s"\n' % moa.version)
    (root / "Makefile").write_text("lib:\n")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    fake = bindir / "make"
    fake.write_text('#!/bin/sh\necho "make $*" >> "%s"\n[ "$1" = -C ] && mkdir -p "$2/build/lib" && '
                    'cp "%s" "$2/build/lib/libmoa.so"\n' % (tmp_path / "make.log", lib))
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", "%s%s%s" % (bindir, os.pathsep, os.environ.get("PATH", "")))
    monkeypatch.setattr(backend, "ROOT", str(root))
    name = backend.build_wheel(str(tmp_path / "out"))
    assert (tmp_path / "make.log").read_text() == "make -C %s lib\n" % root
    assert name.startswith("moa-%s-py3-none-" % moa.version)

    empty = tmp_path / "notacheckout"
    empty.mkdir()
    monkeypatch.setattr(backend, "ROOT", str(empty))
    with pytest.raises(RuntimeError, match="set MOA_LIBRARY"):
        backend.build_wheel(str(tmp_path / "out2"))


def test_build_editable_and_sdist(backend, tmp_path):
    name = backend.build_editable(str(tmp_path))
    assert name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(str(tmp_path / name)) as zf:
        pth = [n for n in zf.namelist() if n.endswith(".pth")]
        assert len(pth) == 1 and zf.read(pth[0]).decode().strip() == PACKAGE_PARENT
        _record_ok(zf)
    sdist = backend.build_sdist(str(tmp_path))
    with tarfile.open(str(tmp_path / sdist)) as tf:
        names = tf.getnames()
    base = sdist[:-len(".tar.gz")]
    assert {base + "/pyproject.toml", base + "/_moa_build.py", base + "/moa/__init__.py", base + "/moa/py.typed",
            base + "/PKG-INFO", base + "/tests/conftest.py", base + "/moa/_speedups.c"} <= set(names)
    assert not any(n.endswith(".so") for n in names)
