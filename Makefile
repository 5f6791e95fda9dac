# Moa — build, test, install and benchmark.
#
#   make            build/lib/libmoa.so, build/include/moa.h, build/bin/moa-bench, the C examples
#   make demo       the Lua calculator demo (installs what it needs); make demo-c: the C examples
#   make test       install missing tools, then every test (Swift, C, Lua, Python, fuzz, sanitizers, valgrind,
#                   checksums vs kiwi and HiGHS); ends by listing anything it had to skip, and why
#   make check      the fast edit-and-test loop (a minute or two, tools already installed): Swift tests, C tests,
#                   Lua specs, Python tests, export check; no sanitizer, fuzz or valgrind builds
#   make test-full  `make test` plus checksums on every workload (10k files: minutes)
#   make install    PREFIX=/usr/local (DESTDIR honoured); make uninstall
#   make bench      benchmarks (quick); bench-full, bench-compare (Moa beside kiwi), bench-plots: see mk/bench.mk
#
# Swift builds share one .build directory; do not run two at once.

SWIFT   ?= swift
# Where the Swift toolchain lives (hidden in test-runtime to prove libmoa.so does not need it).
SWIFT_TOOLCHAIN ?= $(abspath $(dir $(realpath $(shell command -v $(SWIFT))))/../..)
CC      ?= cc
PYTHON  ?= python3
SHARED  ?= ../shared
PREFIX  ?= /usr/local
DESTDIR ?=

BUILD   := build
LIBDIR  := $(BUILD)/lib
BINDIR  := $(BUILD)/bin

# The version, read from its C copy in Include/moa.h (MoaVersion in Swift is the source; MoaCTests checks they agree).
VERSION := $(shell sed -n 's/^\#define MOA_VERSION "\(.*\)"/\1/p' Include/moa.h)

# Packages `make deps` installs with apt-get when missing (checked with command -v, then dpkg).
DEPS_PACKAGES ?= gcc make pkg-config python3 lua5.4 liblua5.4-dev lua-busted luarocks valgrind

# Release flags: the Swift runtime linked statically into libmoa.so, only moa_* exported, a plain SONAME, and
# nodelete (hosts such as Lua dlclose modules). moa-bench is built with the same flags: SwiftPM recompiles every
# module when -Xswiftc flags change, so one flag set for both products keeps rebuilds incremental (and gives a
# bench binary that does not need the Swift runtime either).
# Without Swift's run-time exclusivity checks (the compile-time ones stay): they were 8% of building a layout
# from text and of creating views (a check per property access of a view or constraint object). Every test
# build keeps them: the Swift tests (debug), the ASan builds and the fuzzers (mk/reliability.mk), which run the
# same code through the same C calls; a package that depends on this one builds with them too.
SWIFT_RELEASE_FLAGS := -c release -Xswiftc -static-stdlib -Xswiftc -enforce-exclusivity=unchecked \
	-Xlinker --version-script=$(CURDIR)/$(BUILD)/moa.map -Xlinker -soname=libmoa.so -Xlinker -z -Xlinker nodelete

CFLAGS_TEST := -std=c11 -Wall -Wextra -Werror -IInclude
LDFLAGS_MOA := -L$(LIBDIR) -lmoa -Wl,-rpath,$(CURDIR)/$(LIBDIR)

C_TESTS     := $(patsubst Tests/c/%.c,$(BUILD)/tests/%,$(wildcard Tests/c/test_*.c))
C_EXAMPLES  := $(patsubst examples/c/%.c,$(BUILD)/examples/%,$(wildcard examples/c/*.c))

WORKLOADS := $(SHARED)/bench/workloads
# Workloads `make test` checks against the golden checksums (Tests/bench/); `make test-full` checks all of them.
# enaml-5000 (generated) guards against objective rounding noise hiding a lower-priority improvement.
CHECK_QUICK := animate-1k chain-1k churn-1k enaml-1k grid-1k enaml-5000 drag-50 drag-100 drag-200 drag-400 drag-800 drag-1600
# Families regenerated with a shuffled build order (same optimum, so the same checksums as the unshuffled file).
SHUFFLE_FAMILIES := animate chain churn enaml grid drag-200

# Extra test targets from mk/*.mk (each file appends to TEST_EXTRA; `make test` runs them after the core tests).
TEST_EXTRA :=
.DEFAULT_GOAL := all
include $(sort $(wildcard mk/*.mk))

.NOTPARALLEL:
.PHONY: all lib bench-bin examples demo demo-c demo-chat deps test test-after-deps test-start check test-full test-full-after-deps test-swift test-c test-exports test-runtime \
	test-checksums test-checksums-full install uninstall clean FORCE

all: lib $(BUILD)/include/moa.h bench-bin examples lua

# ---------------------------------------------------------------------------------------------------- build

$(BUILD)/moa.map:
	@mkdir -p $(@D)
	printf '{ global: moa_*; local: *; };\n' > $@

lib: $(LIBDIR)/libmoa.so

# FORCE: SwiftPM decides what is stale; the copy happens only when the library changed, and replaces the file
# by a rename (a program still running on the old library, a soak or a benchmark, keeps its copy).
$(LIBDIR)/libmoa.so: $(BUILD)/moa.map FORCE
	$(SWIFT) build $(SWIFT_RELEASE_FLAGS) --product moa
	@mkdir -p $(@D)
	@bin=$$($(SWIFT) build $(SWIFT_RELEASE_FLAGS) --show-bin-path) && \
	if ! cmp -s "$$bin/libmoa.so" $@; then cp "$$bin/libmoa.so" $@.tmp && mv -f $@.tmp $@ && echo "updated $@"; fi

$(BUILD)/include/moa.h: Include/moa.h
	@mkdir -p $(@D)
	cp $< $@

bench-bin: $(BINDIR)/moa-bench

$(BINDIR)/moa-bench: $(BUILD)/moa.map FORCE
	$(SWIFT) build $(SWIFT_RELEASE_FLAGS) --product moa-bench
	@mkdir -p $(@D)
	@bin=$$($(SWIFT) build $(SWIFT_RELEASE_FLAGS) --show-bin-path) && \
	if ! cmp -s "$$bin/moa-bench" $@; then cp "$$bin/moa-bench" $@.tmp && mv -f $@.tmp $@ && echo "updated $@"; fi

examples: $(C_EXAMPLES)

$(BUILD)/examples/%: examples/c/%.c Include/moa.h $(LIBDIR)/libmoa.so
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -O2 -IInclude $< $(LDFLAGS_MOA) -o $@

# ---------------------------------------------------------------------------------------------------- demo

# Moa's main job: the calculator scene from Lua (button grids from stacks, a scripted pan gesture animating the
# button panels, then the display collapsing and showing again), printing frames and writing
# build/demo/calculator.svg, calculator-strip.svg, calculator.csv; then the chat screen and the settings form.
demo: deps
	$(MAKE) demo-calculator demo-chat demo-settings

# The C examples: the raw solver, and a screen from an eqs block.
demo-c: $(BUILD)/examples/solver $(BUILD)/examples/layout
	$(BUILD)/examples/solver
	$(BUILD)/examples/layout

# ---------------------------------------------------------------------------------------------------- deps

deps:
	@missing=""; \
	for p in $(DEPS_PACKAGES); do \
		command -v "$$p" >/dev/null 2>&1 && continue; \
		dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'install ok installed' && continue; \
		missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "deps: installing$$missing"; \
		command -v apt-get >/dev/null 2>&1 || { echo "deps: apt-get not found; please install:$$missing" >&2; exit 1; }; \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y --no-install-recommends $$missing; \
	fi

# ---------------------------------------------------------------------------------------------------- tests

# Checks that cannot run here (no mount namespace, no golden file, ...) append a line to SKIP_LOG; `make test`
# empties it first and prints it last, so nothing is skipped silently.
SKIP_LOG := $(CURDIR)/$(BUILD)/test-skips.log
export MOA_SKIP_LOG := $(SKIP_LOG)

# deps first, then a fresh make: what it installs (FreeType and HarfBuzz for the real-font parts) is seen when
# the Makefile is read again.
test: test-start deps
	@$(MAKE) --no-print-directory test-after-deps

test-after-deps: all test-swift test-c test-lua test-lua-valgrind test-exports test-runtime test-readme test-install test-checksums $(TEST_EXTRA)
	@echo "make test: all passed (Swift tests, $(words $(C_TESTS)) C tests, Lua specs also under valgrind, exports, static runtime," \
		"kiwi checksums on $(words $(CHECK_QUICK)) workloads + $(words $(SHUFFLE_FAMILIES)) shuffled, $(TEST_EXTRA))"
	@if [ -s $(SKIP_LOG) ]; then echo "make test: skipped:"; sed 's/^/  - /' $(SKIP_LOG); else echo "make test: nothing skipped"; fi

test-start:
	@mkdir -p $(BUILD) && rm -f $(SKIP_LOG)

# The fast loop while editing (see the top of this file); `make test` is what CI runs.
check: all test-swift test-c test-lua test-python test-exports
	@echo "make check: passed (Swift tests, $(words $(C_TESTS)) C tests, Lua specs, Python tests, exports); make test runs the rest"

test-full: deps
	@$(MAKE) --no-print-directory test-full-after-deps

test-full-after-deps: all test-swift test-c test-lua test-exports test-runtime test-readme test-install test-checksums-full
	@echo "make test-full: all passed (Swift tests, $(words $(C_TESTS)) C tests, exports, static runtime," \
		"kiwi checksums on every workload with a golden file + $(words $(SHUFFLE_FAMILIES)) shuffled)"

test-swift:
	$(SWIFT) test

test-c: $(C_TESTS)
	@for t in $(C_TESTS); do echo "== $$t"; $$t || { echo "FAIL: $$t" >&2; exit 1; }; done

$(BUILD)/tests/%: Tests/c/%.c Include/moa.h $(LIBDIR)/libmoa.so
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_TEST) $< $(LDFLAGS_MOA) -o $@

test-exports: $(LIBDIR)/libmoa.so
	scripts/check-exports.sh $(LIBDIR)/libmoa.so Include/moa.h

# The Swift runtime is linked into libmoa.so: ldd must not list any libswift*.
test-runtime: $(LIBDIR)/libmoa.so lua
	@if ldd $(LIBDIR)/libmoa.so | grep -i 'libswift'; then \
		echo "FAIL: libmoa.so depends on the Swift runtime" >&2; exit 1; \
	else echo "ok: libmoa.so has no libswift* dependency"; fi
	@# Load it from Python (ctypes) and Lua with the Swift toolchain hidden, where a private mount namespace is
	@# allowed (root on the CI machines); elsewhere the ldd check above stands alone.
	@if unshare -m true 2>/dev/null; then \
		unshare -m sh -c 'mount -t tmpfs none $(SWIFT_TOOLCHAIN) && \
		$(PYTHON) -c "import ctypes; l = ctypes.CDLL(\"$(LIBDIR)/libmoa.so\"); l.moa_libversion.restype = ctypes.c_char_p; assert l.moa_libversion() == b\"$(VERSION)\"" && \
		LUA_CPATH="$(LUA_MODDIR)/?.so;;" $(LUA) -e "assert(require(\"moa\").version == \"$(VERSION)\")"' && \
		echo "ok: libmoa.so loads from Python and Lua with $(SWIFT_TOOLCHAIN) hidden"; \
	else echo "skip: no mount namespace here; not loading with the toolchain hidden"; \
		echo "test-runtime: loading libmoa.so with the Swift toolchain hidden (no mount namespace here)" >> $(SKIP_LOG); fi

# `make install` into a scratch prefix, then a C program built only with pkg-config's flags must run.
test-install: lib
	@rm -rf $(BUILD)/prefix-test
	$(MAKE) --no-print-directory install PREFIX=$(CURDIR)/$(BUILD)/prefix-test
	$(CC) -std=c11 -Wall -Werror examples/c/solver.c \
		$$(PKG_CONFIG_PATH=$(CURDIR)/$(BUILD)/prefix-test/lib/pkgconfig pkg-config --cflags --libs moa) \
		-o $(BUILD)/prefix-test/solver
	$(BUILD)/prefix-test/solver >/dev/null
	@ldd $(BUILD)/prefix-test/solver | grep -q '$(CURDIR)/$(BUILD)/prefix-test/lib/libmoa.so' && \
		echo "ok: installed with moa.pc; a program built with pkg-config runs against the installed copy"

test-readme: $(LIBDIR)/libmoa.so lua
	$(PYTHON) scripts/check-readme.py README.md $(LIBDIR)

CHECKSUMS := $(PYTHON) scripts/check-checksums.py --bench $(BINDIR)/moa-bench --golden Tests/bench \
	--workloads $(WORKLOADS) --shared $(SHARED) --outdir $(BUILD)/shuffled

test-checksums: $(BINDIR)/moa-bench
	$(CHECKSUMS) --shuffle "$(SHUFFLE_FAMILIES)" $(CHECK_QUICK)

test-checksums-full: $(BINDIR)/moa-bench
	$(CHECKSUMS) --shuffle "$(SHUFFLE_FAMILIES)" --all

# ---------------------------------------------------------------------------------------------------- install

install: lib $(BUILD)/include/moa.h $(BUILD)/moa.pc
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 0755 $(LIBDIR)/libmoa.so $(DESTDIR)$(PREFIX)/lib/libmoa.so
	install -m 0644 $(BUILD)/include/moa.h $(DESTDIR)$(PREFIX)/include/moa.h
	install -m 0644 $(BUILD)/moa.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/moa.pc
	@if [ -z "$(DESTDIR)" ] && command -v ldconfig >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then ldconfig; fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/libmoa.so $(DESTDIR)$(PREFIX)/include/moa.h \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig/moa.pc

# Regenerated whenever PREFIX may have changed.
$(BUILD)/moa.pc: moa.pc.in FORCE
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@

# ---------------------------------------------------------------------------------------------------- misc

clean:
	rm -rf $(BUILD)
	$(SWIFT) package clean

FORCE:

# --- Lua ----------------------------------------------------------------------------------------------------
#
#   make lua                build/lib/lua/moa.so, the Lua 5.4 module (bindings/lua; reference: its README.md)
#   make test-lua           its busted specs (bindings/lua/spec; settings in .busted)
#   make test-lua-valgrind  the same under valgrind (needs valgrind): no error, nothing definitely lost
#   make demo-lua           run examples/lua/solver.lua
#   make demo-calculator    run examples/lua/calculator.lua: the calculator scene (a scripted pan gesture, a collapse);
#                           prints its frames, writes build/demo/calculator.svg, calculator-strip.svg, calculator.csv
#   make demo-settings      run examples/lua/settings.lua: a settings form from stacks, VFL and a barrier; a row
#                           hidden and shown animated; writes build/demo/settings.svg, settings-strip.svg
#   make demo-lua-all       run every example in examples/lua (solver, calculator, sidebar, keyboard, chat, settings)
#
# The module links libmoa.so (RUNPATH $ORIGIN/.., so build/lib/lua/moa.so finds build/lib/libmoa.so), never
# liblua: the interpreter provides the Lua API. Its sources are every .c file of bindings/lua (one concern each,
# luaopen_moa in lmoa.c) and their private header lmoa.h.

LUA        ?= lua5.4
BUSTED     ?= busted
LUA_INC    ?= /usr/include/lua5.4
LUA_MODDIR := $(LIBDIR)/lua
LUA_SRC    := $(wildcard bindings/lua/*.c)
VALGRIND_LUA := valgrind --quiet --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
	--error-exitcode=9 --trace-children=yes --suppressions=bindings/lua/valgrind.supp \
	--log-file=$(BUILD)/valgrind-lua/%p.log

.PHONY: lua test-lua test-lua-valgrind demo-lua demo-calculator demo-settings demo-lua-all

lua: $(LUA_MODDIR)/moa.so

# With FreeType and HarfBuzz (mk/font.mk), also moa.font and L:set_font, over build/lib/libmoafont.so.
LUA_FONT := $(if $(FONT_AVAILABLE),-DLMOA_WITH_FONT -Ibindings/font)

$(LUA_MODDIR)/moa.so: $(LUA_SRC) bindings/lua/lmoa.h Include/moa.h $(LIBDIR)/libmoa.so $(if $(FONT_AVAILABLE),$(FONT_LIB))
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -Wall -Wextra -shared -fPIC -I$(LUA_INC) -IInclude $(LUA_FONT) $(LUA_SRC) -L$(LIBDIR) -lmoa \
		$(if $(FONT_AVAILABLE),-lmoafont) -Wl,-rpath,'$$ORIGIN/..' -o $@

test-lua: $(LUA_MODDIR)/moa.so
	$(BUSTED) --lua=$(LUA) --cpath='$(CURDIR)/$(LUA_MODDIR)/?.so' bindings/lua/spec
	@$(if $(FONT_AVAILABLE),,mkdir -p $(BUILD); echo "test-lua: the real-font specs are pending (the module was built without moafont: no freetype2/harfbuzz)" >> $(SKIP_LOG))

# One log per process (busted re-runs itself, and some specs start a fresh lua5.4); a log that is not empty
# holds an error or a definite leak.
test-lua-valgrind: $(LUA_MODDIR)/moa.so
	@rm -rf $(BUILD)/valgrind-lua && mkdir -p $(BUILD)/valgrind-lua
	$(VALGRIND_LUA) $(LUA) $$(command -v $(BUSTED)) --lua=$(LUA) --cpath='$(CURDIR)/$(LUA_MODDIR)/?.so' \
		bindings/lua/spec
	$(VALGRIND_LUA) $(LUA) examples/lua/solver.lua >/dev/null
	MOA_DEMO_DIR='$(CURDIR)/$(BUILD)/valgrind-lua/demo' $(VALGRIND_LUA) $(LUA) examples/lua/calculator.lua >/dev/null
	@rm -rf $(BUILD)/valgrind-lua/demo
	@bad=$$(find $(BUILD)/valgrind-lua -name '*.log' -size +0 | sort); \
	if [ -n "$$bad" ]; then cat $$bad; echo "FAIL: valgrind found errors or leaks (logs: $$bad)" >&2; exit 1; fi; \
	echo "ok: valgrind: no errors, nothing definitely lost ($$(ls $(BUILD)/valgrind-lua | wc -l) processes)"

demo-lua: $(LUA_MODDIR)/moa.so
	$(LUA) examples/lua/solver.lua

demo-calculator: $(LUA_MODDIR)/moa.so
	@mkdir -p $(BUILD)/demo
	MOA_DEMO_DIR='$(CURDIR)/$(BUILD)/demo' $(LUA) examples/lua/calculator.lua

# The chat screen: wrapping messages, rotation, the keyboard; DejaVu Sans through moafont when it was built.
demo-chat: $(LUA_MODDIR)/moa.so
	@mkdir -p $(BUILD)/demo
	MOA_DEMO_DIR='$(CURDIR)/$(BUILD)/demo' $(LUA) examples/lua/chat.lua

# The settings form: stacks, VFL rows, a barrier past the widest label, a row hidden and shown animated.
demo-settings: $(LUA_MODDIR)/moa.so
	@mkdir -p $(BUILD)/demo
	MOA_DEMO_DIR='$(CURDIR)/$(BUILD)/demo' $(LUA) examples/lua/settings.lua

demo-lua-all: $(LUA_MODDIR)/moa.so
	@mkdir -p $(BUILD)/demo
	@for f in solver calculator sidebar keyboard chat settings; do echo "== examples/lua/$$f.lua"; \
		MOA_DEMO_DIR='$(CURDIR)/$(BUILD)/demo' $(LUA) examples/lua/$$f.lua || exit 1; done
