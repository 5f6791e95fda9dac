# --- Reliability: libFuzzer, AddressSanitizer, valgrind (issue 6) --------------------------------------------
#
#   make fuzz             each libFuzzer target (parser, solver, layout) for FUZZ_SECONDS (default 300)
#   make test-fuzz        each target on FUZZ_TEST_RUNS inputs from seed 1 (at most FUZZ_TEST_SECONDS), up to FUZZ_MAX_LEN bytes
#   make test-asan        the Swift tests under -sanitize=address, and every C test built with clang
#                         -fsanitize=address against an ASan-instrumented libmoa.so
#   make test-c-valgrind  every C test under valgrind: no error, nothing definitely lost
#
# The fuzz targets are one executable, Sources/moa-fuzz (see its main.swift): `moa-fuzz <target> [options]`.
# Seeds and fixed crash inputs are in Tests/fuzz/corpus/<target>/ (libFuzzer replays them first, so every run
# is also a regression run); the runs work on a copy in build/fuzz/corpus/<target>/ and write crashes to
# build/fuzz/artifacts/. Reproduce a crash with
#   .build-fuzz/release/moa-fuzz <target> build/fuzz/artifacts/<file>            (under libFuzzer)
#   swift build --product moa-fuzz && MOA_FUZZ_TRACE=1 .build/debug/moa-fuzz <target> <file>   (replay + trace)
#
# Builds use their own scratch paths (.build-fuzz, .build-asan): sanitizer flags would otherwise make SwiftPM
# recompile the shared .build.

FUZZ_SECONDS      ?= 300
FUZZ_TEST_SECONDS ?= 30
# make test's runs are reproducible: a fixed seed and a fixed number of inputs (about 30 s each here), with the
# time only as a cap, so CI explores the same inputs on every machine; `make fuzz` explores afresh each time.
FUZZ_TEST_RUNS    ?= 20000
FUZZ_MAX_LEN      ?= 4096
FUZZ_TARGETS      := parser solver layout
FUZZ_BIN          := .build-fuzz/release/moa-fuzz
# clang from the Swift toolchain: its ASan runtime is the one the Swift sanitizer build expects.
ASAN_CC           ?= $(SWIFT_TOOLCHAIN)/usr/bin/clang
ASAN_LIBDIR       := .build-asan/debug
ASAN_C_TESTS      := $(patsubst $(BUILD)/tests/%,$(BUILD)/tests-asan/%,$(C_TESTS))
VALGRIND_C        := valgrind --quiet --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
	--error-exitcode=9

TEST_EXTRA += test-fuzz test-asan test-c-valgrind

.PHONY: fuzz fuzz-bin test-fuzz test-asan test-asan-swift test-asan-c asan-lib test-c-valgrind

# Release (-O, bounds checks kept) with libFuzzer and ASan: about twice the executions per second of -Onone.
# SwiftPM's `--defsym main=` keeps libFuzzer's main from linking, so main.swift calls LLVMFuzzerRunDriver.
# (gold warns "Cannot export local symbol" for every ASan helper: filtered out.)
fuzz-bin:
	@mkdir -p $(BUILD)/fuzz
	@echo "$(SWIFT) build -c release --product moa-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DMOA_FUZZ --scratch-path .build-fuzz"
	@$(SWIFT) build -c release --product moa-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DMOA_FUZZ \
		--scratch-path .build-fuzz > $(BUILD)/fuzz/build.log 2>&1; rc=$$?; \
		grep -v "Cannot export local symbol" $(BUILD)/fuzz/build.log | tail -20; exit $$rc

# $(1): seconds per target; $(2): more libFuzzer flags. One process per target (-workers=1): the machines are
# shared.
define run_fuzzers
	@mkdir -p $(BUILD)/fuzz/artifacts
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(BUILD)/fuzz/corpus/$$t && cp -n Tests/fuzz/corpus/$$t/* $(BUILD)/fuzz/corpus/$$t/ 2>/dev/null; \
		dict=""; [ -f Tests/fuzz/$$t.dict ] && dict="-dict=Tests/fuzz/$$t.dict"; \
		echo "== fuzz $$t for $(1) s"; start=$$(date +%s); \
		SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 $(FUZZ_BIN) $$t $$dict \
			-max_total_time=$(1) $(2) -max_len=$(FUZZ_MAX_LEN) -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix=$(CURDIR)/$(BUILD)/fuzz/artifacts/$$t- $(BUILD)/fuzz/corpus/$$t \
			> $(BUILD)/fuzz/$$t.log 2>&1; rc=$$?; \
		grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' $(BUILD)/fuzz/$$t.log | tr '\n' ' '; \
		echo "($$(( $$(date +%s) - start )) s)"; \
		if [ $$rc != 0 ]; then grep -E -A30 'INVARIANT|ERROR:|Fatal error' $(BUILD)/fuzz/$$t.log | head -60; \
			echo "FAIL: fuzz target $$t (log: $(BUILD)/fuzz/$$t.log, input: $(BUILD)/fuzz/artifacts/$$t-*)" >&2; exit 1; fi; \
	done
endef

fuzz: fuzz-bin
	$(call run_fuzzers,$(FUZZ_SECONDS))

test-fuzz: fuzz-bin
	$(call run_fuzzers,$(FUZZ_TEST_SECONDS),-seed=1 -runs=$(FUZZ_TEST_RUNS))
	@echo "ok: fuzz targets $(FUZZ_TARGETS): $(FUZZ_TEST_RUNS) inputs each (seed 1, at most $(FUZZ_TEST_SECONDS) s), no crash, no invariant broken"

# --- AddressSanitizer

test-asan: test-asan-swift test-asan-c

# XCTest leaks at exit (toolchain notes, section 7): leaks are off here; valgrind covers them for the C API.
test-asan-swift:
	SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --sanitize=address --scratch-path .build-asan

# The instrumented libmoa.so uses the Swift runtime from the toolchain (RUNPATH), not the static one; the ASan
# runtime comes from the test executable (clang links it statically and exports its symbols), so no LD_PRELOAD.
asan-lib:
	$(SWIFT) build --product moa --sanitize=address --scratch-path .build-asan

$(BUILD)/tests-asan/%: Tests/c/%.c Include/moa.h asan-lib
	@mkdir -p $(@D)
	$(ASAN_CC) $(CFLAGS_TEST) -g -fsanitize=address -fno-omit-frame-pointer $< \
		-L$(ASAN_LIBDIR) -lmoa -Wl,-rpath,$(CURDIR)/$(ASAN_LIBDIR) -o $@

test-asan-c: $(ASAN_C_TESTS)
	@for t in $(ASAN_C_TESTS); do echo "== $$t"; \
		SWIFT_BACKTRACE=enable=no MOA_HOSTILE_SMALL=1 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 $$t >/dev/null || { echo "FAIL: $$t (ASan)" >&2; exit 1; }; \
	done
	@echo "ok: $(words $(ASAN_C_TESTS)) C tests under AddressSanitizer"

# --- valgrind (the release libmoa.so, as shipped)

test-c-valgrind: $(C_TESTS)
	@rm -rf $(BUILD)/valgrind-c && mkdir -p $(BUILD)/valgrind-c
	@for t in $(C_TESTS); do n=$$(basename $$t); echo "== valgrind $$n"; \
		$(VALGRIND_C) --log-file=$(BUILD)/valgrind-c/$$n.log $$t >/dev/null || { cat $(BUILD)/valgrind-c/$$n.log; \
			echo "FAIL: $$t under valgrind (log: $(BUILD)/valgrind-c/$$n.log)" >&2; exit 1; }; \
	done
	@bad=$$(find $(BUILD)/valgrind-c -name '*.log' -size +0 | sort); \
	if [ -n "$$bad" ]; then cat $$bad; echo "FAIL: valgrind found errors or leaks (logs: $$bad)" >&2; exit 1; fi; \
	echo "ok: valgrind: $(words $(C_TESTS)) C tests, no errors, nothing definitely lost"
