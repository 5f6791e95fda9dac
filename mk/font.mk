# --- moafont: text measured in a real font (FreeType + HarfBuzz), optional ------------------------------------
#
#   make font        build/lib/libmoafont.so, build/include/moafont.h (bindings/font; reference: its README.md)
#   make test-font   (in `make test`) Tests/font/test_moafont.c against it, then the same under valgrind: no
#                    error, nothing definitely lost (FreeType's and HarfBuzz's "still reachable" are fine)
#   make demo-chat-c the chat screen in C with the real font (examples/c/font/chat.c), build/demo/chat-c.svg
#
# A self-contained C library: it needs FreeType, HarfBuzz and a C compiler, never libmoa or Swift. The test
# measures with DejaVu Sans (fonts-dejavu-core). Without freetype2 and harfbuzz (as pkg-config sees them) both
# targets print a note and succeed, and test-font writes the skip to the skip log; `make deps` installs them.

DEPS_PACKAGES += libfreetype-dev libharfbuzz-dev fonts-dejavu-core
TEST_EXTRA    += test-font

FONT_AVAILABLE := $(shell pkg-config --exists freetype2 harfbuzz && echo yes)
FONT_PKGS      := freetype2 harfbuzz
FONT_LIB       := $(LIBDIR)/libmoafont.so
FONT_HEADER    := $(BUILD)/include/moafont.h
FONT_TEST      := $(BUILD)/tests/test_moafont
FONT_CFLAGS    := -std=c11 -Wall -Wextra -Werror -pedantic
VALGRIND_FONT  := valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite

.PHONY: font test-font demo-chat-c

ifeq ($(FONT_AVAILABLE),yes)

font: $(FONT_LIB) $(FONT_HEADER)

# Only moafont_* is exported (-fvisibility=hidden; MOAFONT_API in the header).
$(FONT_LIB): bindings/font/moafont.c bindings/font/moafont.h
	@mkdir -p $(@D)
	$(CC) $(FONT_CFLAGS) -O2 -shared -fPIC -fvisibility=hidden $$(pkg-config --cflags $(FONT_PKGS)) $< \
		$$(pkg-config --libs $(FONT_PKGS)) -Wl,--no-undefined -Wl,-soname,libmoafont.so -o $@

$(FONT_HEADER): bindings/font/moafont.h
	@mkdir -p $(@D)
	cp $< $@

# The test also calls FreeType itself (its independent answer for the advances).
$(FONT_TEST): Tests/font/test_moafont.c $(FONT_HEADER) $(FONT_LIB)
	@mkdir -p $(@D)
	$(CC) $(FONT_CFLAGS) -g -I$(BUILD)/include $$(pkg-config --cflags freetype2) $< -L$(LIBDIR) -lmoafont \
		-Wl,-rpath,$(CURDIR)/$(LIBDIR) $$(pkg-config --libs freetype2) -lm -o $@

test-font: $(FONT_TEST)
	$(FONT_TEST)
	@echo "$(VALGRIND_FONT) $(FONT_TEST)"
	@$(VALGRIND_FONT) --log-file=$(FONT_TEST).valgrind.log $(FONT_TEST) > $(FONT_TEST).valgrind.out 2>&1 || \
		{ cat $(FONT_TEST).valgrind.out $(FONT_TEST).valgrind.log; \
		echo "FAIL: $(FONT_TEST) under valgrind (log: $(FONT_TEST).valgrind.log)" >&2; exit 1; }
	@tail -1 $(FONT_TEST).valgrind.out; grep -E 'definitely lost|ERROR SUMMARY' $(FONT_TEST).valgrind.log
	@echo "ok: moafont: tests pass, and under valgrind: no errors, nothing definitely lost"
	$(MAKE) --no-print-directory demo-chat-c

# The C chat example: libmoa and libmoafont together.
$(BUILD)/examples/chat: examples/c/font/chat.c Include/moa.h $(FONT_HEADER) $(FONT_LIB) $(LIBDIR)/libmoa.so
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_TEST) -I$(BUILD)/include $< $(LDFLAGS_MOA) -lmoafont -o $@

demo-chat-c: $(BUILD)/examples/chat
	@mkdir -p $(BUILD)/demo
	$(BUILD)/examples/chat

else

# Not found when this Makefile was read. `make deps` (which `make test` runs first) may have installed them
# since: look again, and build with a fresh make if they are there now.
FONT_MISSING := pkg-config finds no freetype2/harfbuzz (make deps installs libfreetype-dev libharfbuzz-dev)

font:
	@if pkg-config --exists $(FONT_PKGS); then $(MAKE) --no-print-directory font FONT_AVAILABLE=yes; \
	else echo "font: not built: $(FONT_MISSING)"; fi

demo-chat-c:
	@if pkg-config --exists $(FONT_PKGS); then $(MAKE) --no-print-directory demo-chat-c FONT_AVAILABLE=yes; \
	else echo "demo-chat-c: not built: $(FONT_MISSING)"; fi

test-font:
	@if pkg-config --exists $(FONT_PKGS); then $(MAKE) --no-print-directory test-font FONT_AVAILABLE=yes; \
	else echo "skip: test-font: $(FONT_MISSING)"; mkdir -p $(BUILD); \
		echo "test-font: moafont not built or tested: $(FONT_MISSING)" >> $(SKIP_LOG); fi

endif
