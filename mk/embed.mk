# --- Embedding beyond C and Lua: Python, LuaRocks, a Swift package ------------------------------------------
#
#   make python-ext          moa._speedups, the optional compiled part of the Python package (the calls of every
#                            frame without ctypes), built in place for $(PYTEST_PYTHON): see below
#   make test-python         the Python binding's tests (bindings/python/tests, Debian's python3-pytest), twice:
#                            with moa._speedups (when python-ext could build it) and on ctypes alone
#   make demo-python         run examples/python/layout.py (sidebar + content, a collapse animation, frames)
#   make test-luarocks       `make install` into a scratch prefix, `luarocks make` the rockspec against it into a
#                            scratch tree (from a copy of bindings/lua, so the checkout stays clean), then lua5.4
#                            loads that module and lays out a screen
#   make test-swift-example  build and run examples/swift, a package that depends on this one (its own .build)
#   make test-kiwi-matplotlib  moa.kiwi (kiwisolver's API on Moa) against real kiwisolver: matplotlib
#                            constrained_layout figures laid out with each (matplotlib and kiwisolver from PyPI into
#                            build/venv-mpl), every axes position compared; the largest difference printed
#   make bench-kiwi          moa.kiwi against kiwisolver from Python on the shared workloads (part of make bench)
#   make test-wheel          the Python wheel (`pip install ./bindings/python`: libmoa.so inside) installed in a
#                            fresh venv (build/venv-wheel), then from outside the checkout with nothing on
#                            PYTHONPATH: an import check, `python -m moa`, the Python tests against it
#
# The Python binding needs no compile step: ctypes loads build/lib/libmoa.so (MOA_LIBRARY overrides). The
# compiled module is optional (the package falls back to ctypes without it; MOA_PYTHON_SPEEDUPS=0 forces that).
# These targets run from `make test` (TEST_EXTRA).

TEST_EXTRA    += test-python test-luarocks test-swift-example test-wheel test-kiwi-matplotlib
DEPS_PACKAGES += python3-pytest python3-venv python3-pip python3-dev

# Debian's pytest is installed for Debian's python3, which may not be the first python3 on the PATH.
PYTEST_PYTHON ?= /usr/bin/python3
LUAROCKS      ?= luarocks
EMBED_DIR     := $(BUILD)/embed

.PHONY: python-ext test-python demo-python demo-python-chat test-luarocks test-swift-example test-wheel \
	test-kiwi-matplotlib bench-kiwi

# moa._speedups: bindings/python/moa/_speedups.c compiled by the package's build backend (the same command the
# wheel uses, here with -Werror and the declarations checked against Include/moa.h) into
# bindings/python/moa/_speedups<EXT_SUFFIX> (git-ignored), when older than its sources. It links nothing: at
# import, moa/_lib.py hands it the addresses of the functions ctypes loaded. Without a C compiler or the headers
# of $(PYTEST_PYTHON) (Debian: python3-dev) it says why and succeeds: the package then runs on ctypes alone.
python-ext:
	@PYTHONDONTWRITEBYTECODE=1 $(PYTEST_PYTHON) bindings/python/_moa_build.py speedups

# Twice: as found (with moa._speedups when python-ext built it; test_speedups.py checks it is in use then), and
# with MOA_PYTHON_SPEEDUPS=0 (ctypes alone, the fallback).
test-python: build/lib/libmoa.so python-ext
	@echo "test-python: with moa._speedups (when python-ext built it)"
	cd bindings/python && MOA_LIBRARY='$(CURDIR)/$(LIBDIR)/libmoa.so' PYTHONDONTWRITEBYTECODE=1 \
		$(PYTEST_PYTHON) -m pytest -q -p no:cacheprovider tests
	@echo "test-python: MOA_PYTHON_SPEEDUPS=0 (ctypes alone)"
	cd bindings/python && MOA_LIBRARY='$(CURDIR)/$(LIBDIR)/libmoa.so' PYTHONDONTWRITEBYTECODE=1 MOA_PYTHON_SPEEDUPS=0 \
		$(PYTEST_PYTHON) -m pytest -q -p no:cacheprovider tests

test-wheel: build/lib/libmoa.so
	PYTHON='$(PYTEST_PYTHON)' scripts/test-wheel.sh

test-kiwi-matplotlib: build/lib/libmoa.so
	MOA_LIBRARY='$(CURDIR)/$(LIBDIR)/libmoa.so' PYTHONDONTWRITEBYTECODE=1 $(PYTEST_PYTHON) scripts/kiwi-matplotlib.py

bench-kiwi: build/lib/libmoa.so
	MOA_LIBRARY='$(CURDIR)/$(LIBDIR)/libmoa.so' PYTHONDONTWRITEBYTECODE=1 $(PYTEST_PYTHON) scripts/bench-kiwi.py

demo-python: build/lib/libmoa.so
	MOA_LIBRARY='$(CURDIR)/$(LIBDIR)/libmoa.so' PYTHONDONTWRITEBYTECODE=1 $(PYTHON) examples/python/layout.py

# The chat screen from Python (wrapping text; DejaVu Sans through moafont when `make font` built it).
demo-python-chat: build/lib/libmoa.so
	$(MAKE) --no-print-directory font
	MOA_LIBRARY='$(CURDIR)/$(LIBDIR)/libmoa.so' PYTHONDONTWRITEBYTECODE=1 $(PYTHON) examples/python/chat.py

# The module is built by LuaRocks from the installed header and library only (MOA_INCDIR/MOA_LIBDIR of the
# prefix); it must find that prefix's libmoa.so without LD_LIBRARY_PATH (LuaRocks links with an rpath; checked
# with ldd), and `require "moa"` must come from the rocks tree (checked with package.searchpath).
test-luarocks: lib
	@rm -rf $(EMBED_DIR)/rocks && mkdir -p $(EMBED_DIR)/rocks
	$(MAKE) --no-print-directory install PREFIX=$(CURDIR)/$(EMBED_DIR)/rocks/prefix
	@mkdir -p $(EMBED_DIR)/rocks/src/bindings && cp -R bindings/lua $(EMBED_DIR)/rocks/src/bindings/
	cd $(EMBED_DIR)/rocks/src && $(LUAROCKS) --lua-version=5.4 --tree='$(CURDIR)/$(EMBED_DIR)/rocks/tree' \
		make bindings/lua/moa-scm-1.rockspec MOA_INCDIR='$(CURDIR)/$(EMBED_DIR)/rocks/prefix/include' \
		MOA_LIBDIR='$(CURDIR)/$(EMBED_DIR)/rocks/prefix/lib'
	@so=$$(find $(EMBED_DIR)/rocks/tree -name moa.so -path '*lua/5.4*' | head -1); \
	test -n "$$so" || { echo "FAIL: luarocks installed no moa.so" >&2; exit 1; }; \
	ldd "$$so" | grep -q '$(CURDIR)/$(EMBED_DIR)/rocks/prefix/lib/libmoa.so' || \
		{ echo "FAIL: $$so does not load the installed libmoa.so" >&2; exit 1; }
	cd $(EMBED_DIR) && LUA_PATH=';;' LUA_CPATH='$(CURDIR)/$(EMBED_DIR)/rocks/tree/lib/lua/5.4/?.so' $(LUA) -e "$$EMBED_LUAROCKS_CHECK"

# What test-luarocks runs in lua5.4 (passed through the environment: it spans lines).
define EMBED_LUAROCKS_CODE
local where = assert(package.searchpath("moa", package.cpath))
assert(where:find("/rocks/tree/", 1, true), where)
local moa = require "moa"
assert(moa.version == "$(VERSION)", moa.version)
local L <close> = moa.layout(320, 480)
L:view "sidebar"
L:view "content"
assert(L:eqs [[
  sidebar.left == 0
  sidebar.top == 0
  sidebar.bottom == 0
  sidebar.width == 200
  content.left == sidebar.right
  content.right == 0
  content.top == 0
  content.bottom == 0
]])
L:solve()
local f = L:find("content").frame
assert(f.x == 200 and f.width == 120, "content frame")
local s = moa.solver()
local x = s:var "x"
s:add(x:ge(10))
s:update()
assert(x.value == 10)
print("ok: luarocks built moa from the installed prefix; lua5.4 loads it from " .. where)
endef
test-luarocks: export EMBED_LUAROCKS_CHECK = $(EMBED_LUAROCKS_CODE)

# A separate package with `.package(name: "Moa", path: "../..")`: proves the products build and link from a
# dependent package. Its scratch directory is examples/swift/.build (ignored by git, shared by reruns). SwiftPM
# keeps a path dependency's list of source files in that directory: after a pull that adds a file to Moa the
# build fails on the missing file, so a failed build is tried once more from an empty .build.
test-swift-example:
	cd examples/swift && { $(SWIFT) build || { echo "retrying from an empty .build"; rm -rf .build && $(SWIFT) build; }; }
	cd examples/swift && out=$$($(SWIFT) run --skip-build MoaExample) && echo "$$out" && \
		echo "$$out" | grep -q 'content (0, 0, 320, 480)' && \
		echo "ok: examples/swift builds against this package and runs"
