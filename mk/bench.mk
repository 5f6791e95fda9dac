# --- Benchmarks: scripts/bench.py over the shared kit's workloads and moa-bench's layout scenarios -------------
#
#   make bench          quick (a few minutes): 1k and 10k workloads, drag-50..1600, scenarios at 1k and 10k views;
#                       then moa.kiwi against kiwisolver from Python (make bench-kiwi, mk/embed.mk)
#   make bench-full     also 30k and 100k workloads (generated once into build/bench/), scenarios at 100k views
#   make bench-compare  kiwi beside Moa on the same workloads; fails if a checkpoint checksum differs; kiwi/Moa
#                       per phase and peak RSS. BENCH_FILES="a.lin b.lin" replaces the default set (1k, 10k,
#                       drag-50..400); KIWI_TIMEOUT caps each kiwi process (kiwi takes ~250 s on enaml-10k)
#   make bench-plots    build/bench/*.svg: time against size, log-log, Moa beside kiwi, from the JSON files of
#                       the runs above (runs bench-compare first when there is none)
#   make bench-frames   the frames screen (moa-bench --frames) from C, Lua and Python side by side
#                       (scripts/bench-bindings.py): per phase the fastest of FRAMES_RUNS runs at FRAMES_VIEWS
#                       views, and Lua / C and Python / C (built the same way). The bindings' goal: 1.5x
#   make test-bench     (in `make test`) every scenario at 200 views, scripts/bench.py on one file and the three
#                       frames drivers at 200 views: exit status and output shape only, no timings
#
# BENCH_FLAGS passes more options to scripts/bench.py, e.g. `make bench-compare BENCH_FLAGS=--scenario-lin`
# (kiwi on the layout scenarios' systems too), `BENCH_FLAGS=--full` (100k, kiwi capped by KIWI_TIMEOUT),
# `make bench BENCH_FLAGS="--only chain"`, `BENCH_FLAGS="--remove-max 1000"` (skip the slow 10k removals).
#
# Results: build/bench/bench.json, bench-full.json, compare.json (scripts/bench.py --json). Other builds on the
# machine add noise: compare runs, not single numbers.

BENCH_RUNS   ?= 1
BENCH_FILES  ?=
BENCH_FLAGS  ?=
KIWI_TIMEOUT ?= 60
BENCH_DIR    := $(BUILD)/bench
BENCH_PY     := $(PYTHON) scripts/bench.py --bench $(BINDIR)/moa-bench --shared $(SHARED) --outdir $(BENCH_DIR) \
	--runs $(BENCH_RUNS)

TEST_EXTRA += test-bench

FRAMES_VIEWS ?= 10000
FRAMES_RUNS  ?= 3
BENCH_BINDINGS = $(PYTHON) scripts/bench-bindings.py --c $(BINDIR)/bench-frames --lua $(LUA) \
	--lua-cpath '$(CURDIR)/$(LUA_MODDIR)/?.so' --python $(PYTEST_PYTHON) --pythonpath $(CURDIR)/bindings/python

.PHONY: bench bench-full bench-compare bench-plots bench-frames test-bench

bench: $(BINDIR)/moa-bench
	$(BENCH_PY) $(BENCH_FLAGS) --json $(BENCH_DIR)/bench.json $(if $(BENCH_FILES),--files $(BENCH_FILES))
	$(MAKE) --no-print-directory bench-kiwi

bench-full: $(BINDIR)/moa-bench
	$(BENCH_PY) $(BENCH_FLAGS) --full --json $(BENCH_DIR)/bench-full.json $(if $(BENCH_FILES),--files $(BENCH_FILES))

bench-compare: $(BINDIR)/moa-bench
	$(BENCH_PY) $(BENCH_FLAGS) --compare --kiwi-timeout $(KIWI_TIMEOUT) --json $(BENCH_DIR)/compare.json \
		$(if $(BENCH_FILES),--files $(BENCH_FILES))

bench-plots:
	@[ -n "$$(ls $(BENCH_DIR)/bench.json $(BENCH_DIR)/bench-full.json $(BENCH_DIR)/compare.json 2>/dev/null)" ] || \
		$(MAKE) --no-print-directory bench-compare
	$(PYTHON) scripts/plot-scaling.py --outdir $(BENCH_DIR) $(BENCH_DIR)

# The C driver of the frames benchmark (scripts/bench-frames.c), the baseline of the Lua and Python ones.
$(BINDIR)/bench-frames: scripts/bench-frames.c Include/moa.h $(LIBDIR)/libmoa.so
	@mkdir -p $(BINDIR)
	$(CC) -O2 $(CFLAGS_TEST) $< $(LDFLAGS_MOA) -lm -o $@

bench-frames: $(BINDIR)/bench-frames lua python-ext
	$(BENCH_BINDINGS) --views $(FRAMES_VIEWS) --runs $(FRAMES_RUNS)

test-bench: $(BINDIR)/moa-bench $(BINDIR)/bench-frames lua python-ext
	$(BENCH_PY) --smoke --views 200 $(WORKLOADS)/chain-1k.lin
	$(BENCH_BINDINGS) --smoke
