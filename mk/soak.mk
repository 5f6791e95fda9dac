# --- Soak without growth: a long-lived layout keeps memory and speed flat (issue 18) -------------------------
#
#   make test-soak-quick  (in `make test`) Tests/soak/soak.c --quick: 200,000 random operations on one layout of
#                         at most 100 views (views, equations, removals, constants, priorities, animations and the
#                         clock, collapsibles, pans, root size, keyboard, text, frames, traces, the O(layout)
#                         queries now and then) and a raw solver, then 2 threads x 50,000, each thread its own;
#                         every status must be one moa.h documents, every completion called once, and RSS (after
#                         malloc_trim) at the end within 1.10 x + 4 MB of its value after the second tenth; then
#                         Tests/soak/soak.lua --quick (100,000 operations through the Lua API: the Lua heap and the
#                         RSS flat by the same rule). Time per operation is reported, never checked here.
#   make test-soak        the soak benchmark: 10,000,000 operations on one layout of at most 300 views, then
#                         4 threads x 1,000,000, then 1,000,000 from Lua; as above, and it also fails when the time
#                         per operation of the last tenth is more than 2 x that of the second (--check-time)
#
# Each run prints a table per tenth (ns/op, RSS, heap in use, views, constraints, tableau rows and cells) and
# per-thread checksums: the same SOAK_SEED gives the same checksums. To find which kind of operation makes
# memory or time grow, run the programs by hand with --without KIND,... or --only KIND,... (their headers list
# the options), e.g. `build/tests/soak --ops 200000 --without set_priority,animate_priority`.

TEST_EXTRA += test-soak-quick

SOAK_SEED ?= 1
SOAK      := $(BUILD)/tests/soak
SOAK_LUA  = MOA_LUA_CPATH='$(CURDIR)/$(LUA_MODDIR)/?.so' $(LUA) Tests/soak/soak.lua

.PHONY: test-soak test-soak-quick

$(SOAK): Tests/soak/soak.c Include/moa.h $(LIBDIR)/libmoa.so
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_TEST) -O2 $< $(LDFLAGS_MOA) -lpthread -o $@

# `lua` (the Lua module) is defined further down in the Makefile; as a prerequisite it is found when needed.
test-soak-quick: lua $(SOAK)
	$(SOAK) --quick --seed $(SOAK_SEED)
	$(SOAK_LUA) --quick --seed $(SOAK_SEED)

test-soak: lua $(SOAK)
	$(SOAK) --check-time --seed $(SOAK_SEED)
	$(SOAK_LUA) --check-time --seed $(SOAK_SEED)
