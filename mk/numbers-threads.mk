# --- Threads, ThreadSanitizer and a differential test against HiGHS (issue 6) ------------------------------
#
#   make test-threads   Tests/tsan/test_threads.c against build/lib/libmoa.so: threads each driving their own
#                       layouts and solvers must reproduce the single-threaded checksums (fast)
#   make test-tsan      the same against a libmoa built with ThreadSanitizer (scratch path .build-tsan): zero
#                       reports; first a deliberate race on one layout must be reported (the build is live)
#   make test-highs     scripts/diff-highs.py: HIGHS_COUNT random systems (seed HIGHS_SEED) solved by Moa and,
#                       level by level, by SciPy's HiGHS; per-level optima and rejected adds must agree
#                       (SciPy in the venv build/venv, made with the system's site packages when it has SciPy)

DEPS_PACKAGES += python3-venv
TEST_EXTRA    += test-threads test-tsan test-highs

.PHONY: test-threads test-tsan test-highs

THREADS_ARGS ?= 4 20

$(BUILD)/tests/test_threads: Tests/tsan/test_threads.c Include/moa.h $(LIBDIR)/libmoa.so
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_TEST) $< $(LDFLAGS_MOA) -lpthread -o $@

test-threads: $(BUILD)/tests/test_threads
	$(BUILD)/tests/test_threads $(THREADS_ARGS)

# The TSan runtime bundled with the Swift toolchain needs its clang, and libdispatch/BlocksRuntime at link time.
TSAN_CC      ?= $(SWIFT_TOOLCHAIN)/usr/bin/clang
TSAN_SWIFT   := --sanitize=thread --scratch-path .build-tsan --product moa
TSAN_RTLIB   := $(SWIFT_TOOLCHAIN)/usr/lib/swift/linux
TSAN_OPTS    := TSAN_OPTIONS="exitcode=66 history_size=4"

test-tsan:
	$(SWIFT) build $(TSAN_SWIFT)
	@mkdir -p $(BUILD)/tsan
	@bin=$$($(SWIFT) build $(TSAN_SWIFT) --show-bin-path) && set -x && \
	$(TSAN_CC) -fsanitize=thread -g -O1 -std=c11 -Wall -Wextra -Werror -IInclude Tests/tsan/test_threads.c \
		-L$$bin -lmoa -Wl,-rpath,$$bin -L$(TSAN_RTLIB) -ldispatch -lBlocksRuntime -Wl,-rpath,$(TSAN_RTLIB) \
		-o $(BUILD)/tsan/test_threads
	@# The canary: two threads on one layout (undefined behaviour, see moa.h) must be reported. Undefined
	@# behaviour may also crash or hang after the report, so it gets 60 s and only the report counts.
	@if $(TSAN_OPTS) timeout -s KILL 60 $(BUILD)/tsan/test_threads --race-canary > $(BUILD)/tsan/canary.log 2>&1 || true; \
		grep -q 'WARNING: ThreadSanitizer' $(BUILD)/tsan/canary.log; then \
		echo "ok: ThreadSanitizer reports two threads on one layout (the library is instrumented)"; \
	else echo "FAIL: the TSan build did not report the deliberate race (log: $(BUILD)/tsan/canary.log)" >&2; exit 1; fi
	$(TSAN_OPTS) $(BUILD)/tsan/test_threads 4 4 > $(BUILD)/tsan/threads.log 2>&1 || \
		{ cat $(BUILD)/tsan/threads.log; echo "FAIL: test_threads under ThreadSanitizer" >&2; exit 1; }
	@if grep -q 'WARNING: ThreadSanitizer' $(BUILD)/tsan/threads.log; then cat $(BUILD)/tsan/threads.log; \
		echo "FAIL: ThreadSanitizer reports" >&2; exit 1; fi
	@cat $(BUILD)/tsan/threads.log; echo "ok: ThreadSanitizer: no reports"

HIGHS_VENV  := $(BUILD)/venv
HIGHS_COUNT ?= 500
HIGHS_SEED  ?= 1

$(HIGHS_VENV)/bin/python:
	$(PYTHON) -m venv --system-site-packages $(HIGHS_VENV)
	$(HIGHS_VENV)/bin/python -c 'import scipy' 2>/dev/null || $(HIGHS_VENV)/bin/pip install scipy

test-highs: $(LIBDIR)/libmoa.so $(HIGHS_VENV)/bin/python
	$(HIGHS_VENV)/bin/python scripts/diff-highs.py --lib $(LIBDIR)/libmoa.so --count $(HIGHS_COUNT) --seed $(HIGHS_SEED)
