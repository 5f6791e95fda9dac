# --- The inspector in a real browser --------------------------------------------------------------------------
#
#   make test-inspector   (in `make test`) the calculator demo writes build/demo/calculator.html (moa_layout_html
#                         through L:html); scripts/test-inspector.py opens it in headless Chromium through
#                         WebDriver (Debian's chromium, chromium-driver, python3-selenium): no console message,
#                         one drawn view per view, hovering a view lists every constraint touching it, clicking a
#                         constraint highlights its views, the timeline slider moves the drawing and the panel,
#                         play runs to the end; then the settings form's page, and a page with no trace and
#                         something in every diagnostics panel (Tests/inspector/diagnostics.lua). The
#                         screenshot goes to build/demo/calculator-inspector.png.

DEPS_PACKAGES += chromium chromium-driver python3-selenium
TEST_EXTRA    += test-inspector

# Debian's selenium is installed for Debian's python3 (the script re-runs itself there if needed).
INSPECTOR_PYTHON ?= /usr/bin/python3

.PHONY: test-inspector

test-inspector: lua
	@mkdir -p $(BUILD)/demo/inspector
	MOA_DEMO_DIR='$(CURDIR)/$(BUILD)/demo' $(LUA) examples/lua/calculator.lua >/dev/null
	$(INSPECTOR_PYTHON) scripts/test-inspector.py $(BUILD)/demo/calculator.html \
		--screenshot $(BUILD)/demo/calculator-inspector.png
	MOA_DEMO_DIR='$(CURDIR)/$(BUILD)/demo/inspector' $(LUA) examples/lua/settings.lua >/dev/null
	$(INSPECTOR_PYTHON) scripts/test-inspector.py $(BUILD)/demo/inspector/settings.html
	$(LUA) Tests/inspector/diagnostics.lua $(BUILD)/demo/inspector/diagnostics.html
	$(INSPECTOR_PYTHON) scripts/test-inspector.py $(BUILD)/demo/inspector/diagnostics.html --view title
