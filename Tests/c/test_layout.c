/*
** test_layout.c -- the layout level through moa.h: a small screen from an eqs block with known frames,
** bad equations (line, offset, expected, suggestion), conflicts named by equation and line, re-issue, xeq,
** right-to-left, intrinsic size and content priorities, the `?` debug callback, violations, ambiguities,
** constraint handles, views and the hierarchy, SVG.
*/
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

#define CHECK_RECT(r, X, Y, W, H) \
    do {                          \
        moa_rect r_ = (r);        \
        CHECK_NEAR(r_.x, X);      \
        CHECK_NEAR(r_.y, Y);      \
        CHECK_NEAR(r_.width, W);  \
        CHECK_NEAR(r_.height, H); \
    } while (0)

static moa_view view_named(moa_layout *L, const char *name) {
    moa_view v = 0;
    CHECK_OK(moa_view_find(L, name, &v));
    return v;
}

static moa_rect frame_of(moa_layout *L, const char *name) {
    moa_rect r = {NAN, NAN, NAN, NAN};
    CHECK_OK(moa_view_frame(L, view_named(L, name), &r));
    return r;
}

static moa_rect root_frame_of(moa_layout *L, const char *name) {
    moa_rect r = {NAN, NAN, NAN, NAN};
    CHECK_OK(moa_view_frame_in_root(L, view_named(L, name), &r));
    return r;
}

/* A 320 x 480 screen: header 60 high on top, footer 44 high at the bottom, content between them inset by 16
** on the sides and 8 from each bar; a 100 x 40 button centred in the content, 10 above its bottom. */
static const char *screen =
    "# the screen\n"
    "header.left == 0\n"
    "header.right == 0\n"
    "header.top == 0\n"
    "header.height == 60\n"
    "content.top == header.bottom + 8\n"
    "content.left == 16\n"
    "content.right == -16\n"
    "content.bottom == footer.top - 8\n"
    "footer.left == 0\n"
    "footer.right == 0\n"
    "footer.bottom == 0\n"
    "footer.height == 44\n"
    "button.centerX == 0\n"
    "button.size == 100x40\n"
    "button.bottom == -10\n";

static moa_layout *make_screen(moa_lcons *out, size_t cap, size_t *count) {
    moa_layout *L = moa_layout_new(320, 480);
    CHECK(L != NULL);
    moa_view header, content, footer, button;
    CHECK_OK(moa_view_new(L, "header", 0, &header));
    CHECK_OK(moa_view_new(L, "content", 0, &content));
    CHECK_OK(moa_view_new(L, "footer", 0, &footer));
    CHECK_OK(moa_view_new(L, "button", content, &button));
    CHECK_OK(moa_layout_eqs(L, screen, out, cap, count));
    return L;
}

static void test_screen(void) {
    moa_lcons cs[32];
    size_t n = 0;
    moa_layout *L = make_screen(cs, 32, &n);
    CHECK(n == 16); /* size gives 2 */
    size_t changed = 0;
    CHECK_OK(moa_layout_solve(L, &changed));
    CHECK(changed == 5); /* root + 4 views, first solve */
    CHECK_RECT(frame_of(L, "header"), 0, 0, 320, 60);
    CHECK_RECT(frame_of(L, "content"), 16, 68, 288, 360);
    CHECK_RECT(frame_of(L, "footer"), 0, 436, 320, 44);
    CHECK_RECT(frame_of(L, "button"), 94, 310, 100, 40);       /* relative to content */
    CHECK_RECT(root_frame_of(L, "button"), 110, 378, 100, 40); /* in root space */
    CHECK_RECT(frame_of(L, "root"), 0, 0, 320, 480);

    /* Nothing changed: a solve reports no view. */
    CHECK_OK(moa_layout_solve(L, &changed));
    CHECK(changed == 0);

    /* Rotation: 480 x 320; every view moves or resizes except the header's origin. */
    CHECK_OK(moa_layout_set_root_size(L, 480, 320));
    double w = 0, h = 0;
    CHECK_OK(moa_layout_root_size(L, &w, &h));
    CHECK_NEAR(w, 480);
    CHECK_NEAR(h, 320);
    CHECK_OK(moa_layout_solve(L, &changed));
    CHECK(changed == 5);
    moa_view list[8];
    size_t nl = 0;
    CHECK_OK(moa_layout_changed_views(L, list, 8, &nl));
    CHECK(nl == 5);
    moa_view root = 0;
    CHECK_OK(moa_layout_root(L, &root));
    CHECK(list[0] == root);
    CHECK_RECT(frame_of(L, "header"), 0, 0, 480, 60);
    CHECK_RECT(frame_of(L, "content"), 16, 68, 448, 200);
    CHECK_RECT(frame_of(L, "footer"), 0, 276, 480, 44);
    CHECK_RECT(frame_of(L, "button"), 174, 150, 100, 40);

    /* The views, in creation order; names and superviews. */
    CHECK_OK(moa_layout_views(L, list, 8, &nl));
    CHECK(nl == 4);
    CHECK(list[0] == view_named(L, "header") && list[3] == view_named(L, "button"));
    const char *name = NULL;
    CHECK_OK(moa_view_name(L, list[3], &name));
    CHECK_STR(name, "button");
    moa_view sup = 0;
    CHECK_OK(moa_view_superview(L, list[3], &sup));
    CHECK(sup == view_named(L, "content"));
    CHECK_OK(moa_view_superview(L, root, &sup));
    CHECK(sup == 0);

    /* Bulk frames: root first, depth-first, guides on request. */
    moa_frame frames[16];
    size_t nf = 0;
    CHECK_OK(moa_layout_frames(L, 0, frames, 16, &nf));
    CHECK(nf == 5);
    CHECK(frames[0].view == root && frames[0].superview == 0 && frames[0].depth == 0);
    CHECK(frames[1].view == view_named(L, "header") && frames[1].depth == 1);
    CHECK(frames[3].view == view_named(L, "button") && frames[3].depth == 2);
    CHECK(frames[3].superview == view_named(L, "content"));
    CHECK_RECT(frames[3].frame, 174, 150, 100, 40);
    CHECK_RECT(frames[3].frame_in_root, 190, 218, 100, 40);
    CHECK(frames[4].view == view_named(L, "footer") && frames[4].is_guide == 0);
    CHECK_OK(moa_layout_frames(L, 1, NULL, 0, &nf));
    CHECK(nf == 8);
    CHECK_OK(moa_layout_frames(L, 1, frames, 2, &nf)); /* a short buffer: count is still the full count */
    CHECK(nf == 8);

    /* Constraints: described back, with their lines. */
    const char *d = NULL;
    CHECK_OK(moa_lcons_describe(L, cs[4], &d));
    CHECK_STR(d, "content.top == header.bottom + 8");
    int line = -1;
    CHECK_OK(moa_lcons_line(L, cs[4], &line));
    CHECK(line == 6); /* line 1 is the comment */
    CHECK_OK(moa_lcons_describe(L, cs[6], &d));
    CHECK_STR(d, "content.right == root.right - 16");
    CHECK_OK(moa_lcons_describe(L, cs[14], &d));
    CHECK_STR(d, "button.height == 40");
    size_t total = 0;
    CHECK_OK(moa_layout_constraints(L, NULL, 0, &total));
    CHECK(total == 16);
    CHECK_OK(moa_layout_describe(L, &d));
    CHECK_CONTAINS(d, "header.left == root.left  # line 2\n");
    CHECK_CONTAINS(d, "button.bottom == content.bottom - 10  # line 16");

    /* Not ambiguous, nothing violated. */
    size_t na = 99;
    CHECK_OK(moa_layout_ambiguities(L, NULL, NULL, 0, &na));
    CHECK(na == 0);
    CHECK_OK(moa_layout_violations(L, NULL, NULL, 0, &na));
    CHECK(na == 0);
    moa_layout_free(L);
}

/* Parse errors: line, byte offset (in the line and in the text), length, what was expected, a suggestion. */
static void test_bad_equations(void) {
    moa_layout *L = moa_layout_new(100, 100);
    moa_view cal;
    CHECK_OK(moa_view_new(L, "calendar", 0, &cal));
    moa_lcons c = 0;
    moa_error_info info;

    CHECK_STATUS(moa_layout_eq(L, "calendar.left = 8", &c), MOA_PARSE);
    CHECK(c == 0);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK(info.code == MOA_PARSE);
    CHECK_STR(info.kind, "parse");
    CHECK(info.line == 1);
    CHECK(info.offset == 14);
    CHECK(info.text_offset == 14);
    CHECK(info.length == 1);
    CHECK_STR(info.expected, "`==`, `<=`, `>=`");
    CHECK_STR(info.source_line, "calendar.left = 8");
    CHECK_CONTAINS(info.message, "did you mean `==`?");
    CHECK_CONTAINS(moa_layout_errmsg(L), "line 1, byte 14: expected a relation");
    CHECK_CONTAINS(moa_layout_errmsg(L), "\n    calendar.left = 8\n                  ^");

    /* An unknown view on line 2 of an eqs block: nothing of line 1 stays. */
    size_t n = 77;
    moa_lcons out[4] = {0, 0, 0, 0};
    CHECK_STATUS(moa_layout_eqs(L, "calendar.left == 0\ncalender.top == 0\n", out, 4, &n), MOA_PARSE);
    CHECK(n == 77 && out[0] == 0); /* not written */
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK_STR(info.kind, "unknownView");
    CHECK(info.line == 2);
    CHECK(info.offset == 0);
    CHECK(info.length == 8);
    CHECK(info.text_offset == 19);
    CHECK_STR(info.suggestion, "calendar");
    CHECK_STR(info.message, "unknown view `calender` (did you mean `calendar`?)");
    CHECK_STR(info.source, "");
    size_t total = 9;
    CHECK_OK(moa_layout_constraints(L, NULL, 0, &total));
    CHECK(total == 0);

    /* Unknown attribute, trailing tokens, with a source name and a first line. */
    CHECK_STATUS(moa_layout_eqs_source(L, "calendar.lefft == 0", "screen.moa", 10, out, 4, &n), MOA_PARSE);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK_STR(info.kind, "unknownAttribute");
    CHECK_STR(info.suggestion, "left");
    CHECK(info.line == 10);
    CHECK(info.offset == 9);
    CHECK_STR(info.source, "screen.moa");
    CHECK_CONTAINS(moa_layout_errmsg(L), "screen.moa:10, byte 9:");
    CHECK_STATUS(moa_layout_eq(L, "calendar.left == 5 6", &c), MOA_PARSE);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK_STR(info.message, "unexpected `6` after the equation");
    CHECK(info.offset == 19);

    /* Not parse errors: a blank line, a size line given to eq, division by zero. */
    CHECK_STATUS(moa_layout_eq(L, "   # nothing", &c), MOA_INVALID);
    CHECK_STATUS(moa_layout_eq(L, "calendar.size == 10x10", &c), MOA_INVALID);
    CHECK_STATUS(moa_layout_eq(L, "calendar.width == root.width / 0", &c), MOA_INVALID);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK_STR(info.kind, "invalid");
    CHECK_STR(info.message, "division by zero");

    /* A success clears the record. */
    CHECK_OK(moa_layout_eq(L, "calendar.left == 5", &c));
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK(info.code == MOA_OK && info.line == 0 && info.offset == -1 && info.length == 0);
    CHECK_STR(info.kind, "");
    CHECK_STR(info.message, "");
    CHECK_STR(moa_layout_errmsg(L), "not an error");
    moa_layout_free(L);
}

/* A required conflict names the constraints it fights by equation and line; nothing changes. */
static void test_conflicts(void) {
    moa_layout *L = moa_layout_new(200, 100);
    moa_view a, b;
    CHECK_OK(moa_view_new(L, "a", 0, &a));
    CHECK_OK(moa_view_new(L, "b", 0, &b));
    moa_lcons cs[4];
    size_t n = 0;
    CHECK_OK(moa_layout_eqs(L, "a.left == 10\nb.left == a.left + 50\na.right == b.left\n", cs, 4, &n));
    CHECK(n == 3);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "a"), 10, 0, 50, 0);

    moa_lcons bad = 0;
    CHECK_STATUS(moa_layout_eq(L, "a.width == 100", &bad), MOA_UNSATISFIABLE);
    CHECK(bad == 0);
    const char *msg = moa_layout_errmsg(L);
    CHECK_CONTAINS(msg, "`a.width == 100` cannot hold together with");
    CHECK_CONTAINS(msg, "`b.left == a.left + 50` (line 2)");
    CHECK_CONTAINS(msg, "`a.right == b.left` (line 3)");
    moa_lcons list[4] = {0, 0, 0, 0};
    size_t nc = 0;
    CHECK_OK(moa_layout_conflicts(L, list, 4, &nc));
    CHECK(nc == 2);
    CHECK(list[0] == cs[1] && list[1] == cs[2]);
    CHECK_OK(moa_layout_conflicts(L, list, 1, &nc)); /* short buffer */
    CHECK(nc == 2);
    moa_error_info info;
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK_STR(info.kind, "unsatisfiable");
    /* errmsg, error_info and conflicts do not change the record. */
    CHECK_CONTAINS(moa_layout_errmsg(L), "(line 3)");

    /* The same in an eqs block: all or nothing, the failing line located. */
    CHECK_STATUS(moa_layout_eqs(L, "b.width == 20\na.width == 100  # too wide\n", list, 4, &nc), MOA_UNSATISFIABLE);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK(info.line == 2 && info.offset == 0 && info.length == 14);
    size_t total = 0;
    CHECK_OK(moa_layout_constraints(L, NULL, 0, &total));
    CHECK(total == 3); /* b.width == 20 did not stay */

    /* Nothing changed: the old frames, and the conflicting constraints are live and describable. */
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "a"), 10, 0, 50, 0);
    CHECK_OK(moa_layout_conflicts(L, list, 4, &nc)); /* the solve cleared the record */
    CHECK(nc == 0);

    /* set_constant / set_priority / set_active that would conflict fail and keep the old value. */
    CHECK_OK(moa_layout_eq(L, "a.width == 50 @ 500", &bad));
    CHECK_STATUS(moa_lcons_set_priority(L, bad, 1000), MOA_OK); /* 50 == 50: holds */
    CHECK_STATUS(moa_lcons_set_constant(L, bad, 60), MOA_UNSATISFIABLE);
    double k = 0;
    CHECK_OK(moa_lcons_constant(L, bad, &k));
    CHECK_NEAR(k, 50);
    CHECK_OK(moa_lcons_set_active(L, bad, 0));
    CHECK_OK(moa_lcons_set_constant(L, bad, 60)); /* inactive: no conflict */
    CHECK_STATUS(moa_lcons_set_active(L, bad, 1), MOA_UNSATISFIABLE);
    int active = -1;
    CHECK_OK(moa_lcons_active(L, bad, &active));
    CHECK(active == 0);
    CHECK_OK(moa_lcons_set_active(L, bad, 0)); /* already inactive: a no-op */
    moa_layout_free(L);
}

/* Re-issuing an equation updates its constant (same id); xeq removes by equation. */
static void test_reissue_and_xeq(void) {
    moa_layout *L = moa_layout_new(100, 100);
    moa_view a;
    CHECK_OK(moa_view_new(L, "a", 0, &a));
    moa_lcons c1, c2, top;
    CHECK_OK(moa_layout_eq(L, "a.left == 10", &c1));
    CHECK_OK(moa_layout_eq(L, "a.top == 0", &top));
    CHECK_STATUS(moa_layout_eq(L, "a.size == 10x10", &c2), MOA_INVALID); /* size makes two: use eqs */
    CHECK_OK(moa_layout_eq(L, "a.left == 25", &c2));
    CHECK(c1 == c2);
    double k = 0;
    CHECK_OK(moa_lcons_constant(L, c1, &k));
    CHECK_NEAR(k, 25);
    moa_lcons lst[4];
    size_t n = 0;
    CHECK_OK(moa_layout_eqs(L, "a.left == 30\na.size == 10x10\n", lst, 4, &n));
    CHECK(n == 3 && lst[0] == c1);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "a"), 30, 0, 10, 10);
    /* Another priority is another constraint. */
    CHECK_OK(moa_layout_eq(L, "a.left == 40 @ low", &c2));
    CHECK(c2 != c1);

    size_t removed = 0;
    CHECK_OK(moa_layout_xeq(L, "a.left == 999", &removed)); /* the constant is not compared */
    CHECK(removed == 1);
    CHECK_STATUS(moa_lcons_constant(L, c1, &k), MOA_NOTFOUND); /* stale */
    CHECK_OK(moa_lcons_constant(L, c2, &k));
    CHECK_NEAR(k, 40);
    CHECK_OK(moa_layout_xeq(L, "a.size == 0", &removed));
    CHECK(removed == 2);
    CHECK_STATUS(moa_layout_xeq(L, "a.left == 0", &removed), MOA_NOTFOUND);
    CHECK_CONTAINS(moa_layout_errmsg(L), "no constraint `a.left == root.left` to remove");
    CHECK_OK(moa_layout_xeq(L, "a.left == 0 @ 250", NULL));
    CHECK_OK(moa_lcons_remove(L, top));
    CHECK_STATUS(moa_lcons_remove(L, top), MOA_NOTFOUND);
    size_t total = 9;
    CHECK_OK(moa_layout_constraints(L, NULL, 0, &total));
    CHECK(total == 0);
    moa_layout_free(L);
}

/* Right-to-left: the same leading/trailing equations give the mirrored layout. */
static void test_rtl(void) {
    moa_layout *L = moa_layout_new(300, 100);
    moa_view box, child;
    CHECK_OK(moa_view_new(L, "box", 0, &box));
    CHECK_OK(moa_view_new(L, "child", box, &child));
    moa_lcons lst[16];
    size_t n;
    CHECK_OK(moa_layout_eqs(L,
                            "box.left == 100\nbox.top == 0\nbox.size == 150x100\n"
                            "child.leading == 10\nchild.top == 0\nchild.size == 50x50\n",
                            lst, 16, &n));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "child"), 10, 0, 50, 50);
    CHECK_OK(moa_view_set_direction(L, box, MOA_RTL));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "child"), 90, 0, 50, 50); /* 150 - 10 - 50 */
    CHECK_OK(moa_view_set_direction(L, child, MOA_LTR));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "child"), 10, 0, 50, 50);
    CHECK_OK(moa_view_set_direction(L, child, MOA_INHERIT));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "child"), 90, 0, 50, 50);
    CHECK_STATUS(moa_view_set_direction(L, child, (moa_layout_direction)7), MOA_INVALID);

    /* On the root, before the equations. */
    moa_layout *M = moa_layout_new(300, 100);
    moa_view root, x;
    CHECK_OK(moa_layout_root(M, &root));
    CHECK_OK(moa_view_set_direction(M, root, MOA_RTL));
    CHECK_OK(moa_view_new(M, "x", 0, &x));
    CHECK_OK(moa_layout_eqs(M, "x.leading == 20\nx.width == 30\nx.top == 0\nx.height == 1", lst, 16, &n));
    CHECK_OK(moa_layout_solve(M, NULL));
    CHECK_RECT(frame_of(M, "x"), 250, 0, 30, 1);
    moa_layout_free(M);

    /* Directional margins: leading 20, trailing 50 are left/right in box's left-to-right parent... */
    moa_view inner;
    CHECK_OK(moa_view_new(L, "inner", box, &inner));
    CHECK_OK(moa_view_set_direction(L, box, MOA_LTR));
    CHECK_OK(moa_layout_eqs(L, "inner.left == box.leftMargin\ninner.right == box.rightMargin\ninner.top == 0\n"
                               "inner.height == 50", lst, 16, &n));
    CHECK_OK(moa_view_set_directional_margins(L, box, 0, 20, 0, 50));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "inner"), 20, 0, 80, 50);
    /* ...and swap sides when box turns right-to-left; a failed call changes nothing. */
    CHECK_OK(moa_view_set_direction(L, box, MOA_RTL));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "inner"), 50, 0, 80, 50);
    CHECK_STATUS(moa_view_set_directional_margins(L, box, 0, NAN, 0, 0), MOA_INVALID);
    CHECK_STATUS(moa_view_set_directional_margins(NULL, box, 0, 0, 0, 0), MOA_MISUSE);
    CHECK_STATUS(moa_view_set_directional_margins(L, 999999, 0, 0, 0, 0), MOA_NOTFOUND);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "inner"), 50, 0, 80, 50);
    moa_layout_free(L);
}

/* The name tables the bindings read: priorities (also usable in equation text), curves, status codes. */
static void test_names(void) {
    double v = -1;
    int i, count = 0;
    const char *name;
    CHECK_OK(moa_priority_value("medium", &v));
    CHECK(v == 500);
    CHECK_OK(moa_priority_value("fittingSizeLevel", &v));
    CHECK(v == 50);
    CHECK_STATUS(moa_priority_value("mediums", &v), MOA_NOTFOUND);
    CHECK(v == 50);
    CHECK_STATUS(moa_priority_value(NULL, &v), MOA_MISUSE);
    moa_layout *L = moa_layout_new(100, 100);
    moa_view a;
    CHECK_OK(moa_view_new(L, "a", 0, &a));
    for (i = 0; (name = moa_priority_name(i, &v)) != NULL; i++) {
        char line[96];
        moa_lcons c;
        double p = -1;
        snprintf(line, sizeof line, "a.width == %d @ %s", i, name); /* each name works in equation text */
        CHECK_OK(moa_layout_eq(L, line, &c));
        CHECK_OK(moa_lcons_priority(L, c, &p));
        CHECK(p == v);
        CHECK_OK(moa_lcons_remove(L, c));
        count++;
    }
    CHECK(count >= 18);
    CHECK(moa_priority_name(-1, NULL) == NULL);
    moa_layout_free(L);
    CHECK_STR(moa_curve_name(MOA_EASE_IN_OUT), "easeInOut");
    CHECK_STR(moa_curve_name(MOA_KEYBOARD_CURVE), "keyboard");
    CHECK(moa_curve_name(MOA_CURVE_CUSTOM) == NULL && moa_curve_name(-1) == NULL);
    CHECK_STR(moa_status_name(MOA_PARSE), "PARSE");
    CHECK_STR(moa_status_name(-3), "UNKNOWN");
}

/* Intrinsic size: hugging and compression resistance; MOA_NO_INTRINSIC drops it; ambiguity names the rest. */
static void test_intrinsic(void) {
    moa_layout *L = moa_layout_new(320, 100);
    moa_view label, icon;
    CHECK_OK(moa_view_new(L, "label", 0, &label));
    CHECK_OK(moa_view_new(L, "icon", 0, &icon));
    moa_lcons lst[8];
    size_t n;
    CHECK_OK(moa_layout_eqs(L, "label.left == 8\nlabel.top == 8\nicon.left == label.right + 4\nicon.top == 8\n", lst,
                            8, &n));
    CHECK_OK(moa_view_set_intrinsic_size(L, label, 100, 20));
    CHECK_OK(moa_view_set_intrinsic_size(L, icon, 16, 16));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "label"), 8, 8, 100, 20);
    CHECK_RECT(frame_of(L, "icon"), 112, 8, 16, 16);

    /* Stretch the icon to the right edge at 500: the label hugs less (250 each) ... raise label's hugging. */
    moa_lcons fill;
    CHECK_OK(moa_layout_eq(L, "icon.right == -8 @ 500", &fill));
    CHECK_OK(moa_view_set_content_priority(L, label, MOA_HORIZONTAL, 600, 750));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "label"), 8, 8, 100, 20);
    CHECK_RECT(frame_of(L, "icon"), 112, 8, 200, 16); /* icon's hugging (250) gave way */

    /* The icon's hugging given up is listed as a violation, with how far it is off. */
    moa_lcons viol[4];
    double amount[4];
    size_t nv = 0;
    CHECK_OK(moa_layout_violations(L, viol, amount, 4, &nv));
    CHECK(nv == 1);
    const char *d = NULL;
    CHECK_OK(moa_lcons_describe(L, viol[0], &d));
    CHECK_STR(d, "icon.width <= 16 @ 250");
    CHECK_NEAR(amount[0], 184);
    double p = 0;
    CHECK_OK(moa_lcons_priority(L, viol[0], &p));
    CHECK_NEAR(p, 250);

    /* Both priorities change or neither: a NaN compression leaves the hugging as it was. */
    CHECK_STATUS(moa_view_set_content_priority(L, label, MOA_HORIZONTAL, 100, NAN), MOA_INVALID);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "label"), 8, 8, 100, 20);
    CHECK_STATUS(moa_view_set_content_priority(L, label, (moa_axis)2, 100, 100), MOA_INVALID);

    /* No intrinsic size (and no fill): the label's width and height are no longer fixed, nor is the icon's x. */
    CHECK_OK(moa_lcons_remove(L, fill));
    CHECK_STATUS(moa_view_set_intrinsic_size(L, label, -2, 20), MOA_INVALID);
    CHECK_OK(moa_view_set_intrinsic_size(L, label, MOA_NO_INTRINSIC, MOA_NO_INTRINSIC));
    moa_view views[4];
    int vars[4];
    size_t na = 0;
    CHECK_OK(moa_layout_ambiguities(L, views, vars, 4, &na));
    CHECK(na == 3);
    CHECK(views[0] == label && vars[0] == MOA_VAR_WIDTH);
    CHECK(views[1] == label && vars[1] == MOA_VAR_HEIGHT);
    CHECK(views[2] == icon && vars[2] == MOA_VAR_MIN_X);
    CHECK_OK(moa_layout_ambiguities(L, NULL, vars, 1, &na)); /* either array may be NULL */
    CHECK(na == 3);

    /* Zero is a size (not "none"). */
    CHECK_OK(moa_view_set_intrinsic_size(L, label, 0, 0));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "label"), 8, 8, 0, 0);
    CHECK_RECT(frame_of(L, "icon"), 12, 8, 16, 16);
    /* An intrinsic constraint's constant is the size. */
    CHECK_OK(moa_lcons_set_constant(L, viol[0], 30));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "icon"), 12, 8, 30, 16);
    CHECK_STATUS(moa_lcons_set_active(L, viol[0], 0), MOA_INVALID); /* follows the view */
    CHECK_STATUS(moa_lcons_remove(L, viol[0]), MOA_INVALID);
    moa_layout_free(L);
}

/* The `?` reports go to the debug callback, which may call back into the layout. */
typedef struct {
    int calls;
    char text[2048];
    moa_layout *L;
    moa_status nested;
    moa_status nested_advance;
} debug_log;

static void on_debug(const char *text, void *ud) {
    debug_log *log = ud;
    log->calls++;
    size_t used = strlen(log->text);
    snprintf(log->text + used, sizeof log->text - used, "%s", text);
    /* Re-entry: reading and even adding an equation works; advancing the clock does not. */
    moa_lcons c;
    log->nested = moa_layout_eq(log->L, "a.top == 3", &c);
    log->nested_advance = moa_layout_advance(log->L, 0.1);
}

static void test_debug_callback(void) {
    moa_layout *L = moa_layout_new(100, 100);
    moa_view a;
    CHECK_OK(moa_view_new(L, "a", 0, &a));
    debug_log log = {0, "", L, -1, -1};
    CHECK_OK(moa_layout_set_debug_callback(L, on_debug, &log));
    moa_lcons c;
    CHECK_OK(moa_layout_eq(L, "a.left == 8 ?", &c));
    CHECK(log.calls == 1);
    CHECK_CONTAINS(log.text, "? eq: a.left == 8 ?");
    CHECK_CONTAINS(log.text, "interpreted: a.left == root.left * 1 + 8 @ 1000");
    CHECK_CONTAINS(log.text, "created constraint");
    CHECK(log.nested == MOA_OK);
    CHECK(log.nested_advance == MOA_MISUSE);
    /* The outer call's outcome is what the record says. */
    CHECK_STR(moa_layout_errmsg(L), "not an error");
    double t = -1;
    CHECK_OK(moa_layout_time(L, &t));
    CHECK_NEAR(t, 0);

    /* A failing line still reports (before its failure is recorded), and the failure survives the callback. */
    log.calls = 0;
    log.text[0] = '\0';
    size_t n;
    moa_lcons lst[2];
    CHECK_STATUS(moa_layout_eqs(L, "a.width == 10 ?\na.width == root.width\n", lst, 2, &n), MOA_UNSATISFIABLE);
    CHECK(log.calls == 1);
    CHECK_CONTAINS(log.text, "not applied (line 2 failed)");
    CHECK_CONTAINS(moa_layout_errmsg(L), "cannot hold");
    moa_error_info info;
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK(info.code == MOA_UNSATISFIABLE && info.line == 2);

    /* xeq reports too; without `?` nothing is reported. */
    log.calls = 0;
    CHECK_OK(moa_layout_xeq(L, "a.left == 0 ?", NULL));
    CHECK(log.calls == 1);
    CHECK_OK(moa_layout_eq(L, "a.left == 1", &c));
    CHECK(log.calls == 1);
    /* NULL restores standard error (not captured here). */
    CHECK_OK(moa_layout_set_debug_callback(L, NULL, NULL));
    moa_layout_free(L);
}

/* Views: hierarchy changes, margins, baselines, guides, names. */
static void test_views(void) {
    moa_layout *L = moa_layout_new(200, 200);
    moa_view a, b, c, d;
    CHECK_OK(moa_view_new(L, "a", 0, &a));
    CHECK_OK(moa_view_new(L, "b", a, &b));
    CHECK_OK(moa_view_new(L, "c", 0, &c));
    CHECK_STATUS(moa_view_new(L, "b", 0, &d), MOA_DUPLICATE);
    CHECK_STATUS(moa_view_new(L, "2x", 0, &d), MOA_INVALID);
    CHECK_STATUS(moa_view_new(L, "root", 0, &d), MOA_INVALID);
    moa_view kb = 0, sa = 0, root = 0;
    CHECK_OK(moa_layout_guide(L, "keyboard", &kb));
    CHECK_OK(moa_layout_guide(L, "safeArea", &sa));
    CHECK_STATUS(moa_layout_guide(L, "root", &d), MOA_NOTFOUND);
    CHECK_OK(moa_layout_root(L, &root));
    CHECK(kb != 0 && kb != sa && kb != root);
    CHECK(kb == view_named(L, "keyboard"));
    CHECK_STATUS(moa_view_new(L, "d", kb, &d), MOA_INVALID); /* a guide has no subviews */
    CHECK_STATUS(moa_view_find(L, "nothing", &d), MOA_NOTFOUND);

    moa_lcons lst[16];
    size_t n;
    CHECK_OK(moa_layout_eqs(L,
                            "a.left == 10\na.top == 10\na.size == 100x100\n"
                            "b.leftMargin == a.leftMargin\nb.top == a.topMargin\nb.size == 20x20\n"
                            "c.top == b.baseline\nc.left == 0\nc.size == 5x5\n"
                            "c.bottom <= keyboard.top\nc.right <= safeArea.right\n",
                            lst, 16, &n));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "b"), 0, 8, 20, 20); /* margins 8 on both */
    CHECK_RECT(root_frame_of(L, "c"), 0, 38, 5, 5);
    CHECK_OK(moa_view_set_margins(L, a, 4, 6, 0, 0));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "b"), -2, 4, 20, 20); /* b.left + 8 == a.left + 6 */
    double off = 12, first = 3;
    CHECK_OK(moa_view_set_baseline(L, b, &off, &first));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(root_frame_of(L, "c"), 0, 26, 5, 5); /* b.top (14) + 12 */
    CHECK_OK(moa_view_set_baseline(L, b, NULL, NULL));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(root_frame_of(L, "c"), 0, 34, 5, 5); /* bottom edge */
    double bad = INFINITY;
    CHECK_STATUS(moa_view_set_baseline(L, b, &bad, NULL), MOA_INVALID);

    /* Keyboard and safe area guides. */
    CHECK_OK(moa_layout_set_keyboard_height(L, 150));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "keyboard"), 0, 50, 200, 150);
    CHECK_STATUS(moa_layout_set_keyboard_height(L, 170), MOA_UNSATISFIABLE); /* c (bottom 39) must stay above */
    CHECK_OK(moa_layout_set_safe_area(L, 0, 0, 0, 195));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "safeArea"), 0, 0, 5, 200);
    CHECK_STATUS(moa_layout_set_safe_area(L, 0, 0, 0, 196), MOA_UNSATISFIABLE); /* c.right (5) <= safeArea.right */
    CHECK_OK(moa_layout_set_keyboard_height(L, 0));
    CHECK_OK(moa_layout_set_safe_area(L, 0, 0, 0, 0));

    /* Reparenting: constraints stay, relative frames follow. */
    CHECK_OK(moa_view_set_superview(L, c, a));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(root_frame_of(L, "c"), 0, 34, 5, 5);
    CHECK_RECT(frame_of(L, "c"), -10, 24, 5, 5);
    CHECK_STATUS(moa_view_set_superview(L, a, c), MOA_INVALID); /* a cycle */
    moa_error_info info;
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK_STR(info.kind, "cycle");
    CHECK_STATUS(moa_view_set_superview(L, root, a), MOA_INVALID);
    CHECK_OK(moa_view_set_superview(L, c, 0)); /* 0: the root */
    CHECK_OK(moa_view_superview(L, c, &d));
    CHECK(d == root);

    /* Removing a view removes its subviews and their constraints; the name is free again. */
    size_t total = 0;
    CHECK_OK(moa_layout_constraints(L, NULL, 0, &total));
    CHECK(total == 14);
    CHECK_OK(moa_view_free(L, a));
    CHECK_STATUS(moa_view_free(L, a), MOA_NOTFOUND);
    CHECK_STATUS(moa_view_name(L, b, &(const char *){NULL}), MOA_NOTFOUND); /* the subview went too */
    CHECK_OK(moa_layout_constraints(L, NULL, 0, &total));
    CHECK(total == 5); /* c.left, c.size (2), c.bottom <= keyboard.top, c.right <= safeArea.right */
    CHECK_OK(moa_view_new(L, "b", 0, &d));
    CHECK(d != b);
    CHECK_STATUS(moa_view_free(L, root), MOA_INVALID);
    CHECK_STATUS(moa_view_free(L, kb), MOA_INVALID);
    moa_layout_free(L);
}

/* Constraint handles: constant, priority, active, describe, line. */
static void test_lcons(void) {
    moa_layout *L = moa_layout_new(100, 100);
    moa_view a;
    CHECK_OK(moa_view_new(L, "a", 0, &a));
    moa_lcons c, w;
    CHECK_OK(moa_layout_eq(L, "a.left == 10 @ high", &c));
    CHECK_OK(moa_layout_eq(L, "a.width == root.width / 2 - 4", &w));
    double x = 0;
    CHECK_OK(moa_lcons_priority(L, c, &x));
    CHECK_NEAR(x, 750);
    CHECK_OK(moa_lcons_set_priority(L, c, 1000));
    CHECK_OK(moa_lcons_priority(L, c, &x));
    CHECK_NEAR(x, 1000);
    CHECK_STATUS(moa_lcons_set_priority(L, c, 0.5), MOA_INVALID);
    CHECK_STATUS(moa_lcons_set_priority(L, c, NAN), MOA_INVALID);
    CHECK_OK(moa_lcons_set_constant(L, c, 12.5));
    CHECK_STATUS(moa_lcons_set_constant(L, c, NAN), MOA_INVALID);
    CHECK_STATUS(moa_lcons_set_constant(L, c, 1e13), MOA_INVALID);
    CHECK_OK(moa_lcons_constant(L, c, &x));
    CHECK_NEAR(x, 12.5);
    const char *d;
    CHECK_OK(moa_lcons_describe(L, c, &d));
    CHECK_STR(d, "a.left == root.left + 12.5");
    CHECK_OK(moa_lcons_describe(L, w, &d));
    CHECK_STR(d, "a.width == root.width / 2 - 4");
    int line = -1;
    CHECK_OK(moa_lcons_line(L, c, &line));
    CHECK(line == 0); /* from eq, not eqs */
    int active = 0;
    CHECK_OK(moa_lcons_active(L, c, &active));
    CHECK(active == 1);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "a"), 12.5, 0, 46, 0);
    CHECK_OK(moa_lcons_set_active(L, c, 0));
    CHECK_OK(moa_layout_describe(L, &d));
    CHECK_CONTAINS(d, "a.left == root.left + 12.5  # inactive");
    /* The root size's constraints belong to the layout. */
    moa_layout_free(L);
}

static void test_svg(void) {
    moa_lcons cs[32];
    size_t n;
    moa_layout *L = make_screen(cs, 32, &n);
    const char *svg = NULL;
    CHECK_OK(moa_layout_svg(L, 0, &svg)); /* solves first */
    CHECK(svg != NULL && strncmp(svg, "<svg", 4) == 0);
    CHECK_CONTAINS(svg, "data-view=\"button\"");
    CHECK_CONTAINS(svg, ">header</text>");
    CHECK(strstr(svg, "class=\"constraint\"") == NULL);
    CHECK(strstr(svg, "</svg>") != NULL);
    CHECK_RECT(frame_of(L, "button"), 94, 310, 100, 40);
    CHECK_OK(moa_layout_svg(L, MOA_SVG_CONSTRAINTS | MOA_SVG_GUIDES | MOA_SVG_NO_LABELS, &svg));
    CHECK_CONTAINS(svg, "class=\"constraint\"");
    CHECK_CONTAINS(svg, "content.top == header.bottom + 8");
    CHECK_CONTAINS(svg, "data-view=\"keyboard\"");
    CHECK(strstr(svg, ">header</text>") == NULL);
    CHECK_STATUS(moa_layout_svg(L, 8, &svg), MOA_INVALID);
    moa_layout_free(L);
}

/* The inspector page: self-contained HTML with the data block; the frames, equations (with lines), a recorded
** conflict and a recorded trace are in it; NULL title is the default, NULL L or out is misuse. */
static void test_html(void) {
    moa_lcons cs[32];
    size_t n;
    moa_layout *L = make_screen(cs, 32, &n);
    const char *page = NULL;
    CHECK_OK(moa_layout_html(L, NULL, &page)); /* solves first */
    CHECK(page != NULL && strncmp(page, "<!doctype html>", 15) == 0);
    CHECK_CONTAINS(page, "<script id=\"moa-data\" type=\"application/json\">{\"title\":\"Moa layout\"");
    CHECK_CONTAINS(page, "\"name\":\"button\",\"superview\":\"content\",\"depth\":2,\"kind\":\"view\","
                         "\"frame\":[94,310,100,40],\"rootFrame\":[110,378,100,40]");
    CHECK_CONTAINS(page, "\"equation\":\"content.top == header.bottom + 8\",\"line\":");
    CHECK(strstr(page, "__MOA_DATA__") == NULL);
    CHECK(strstr(page, "\"conflicts\":[]") != NULL);
    CHECK(strstr(page, "\"trace\":[]") != NULL);

    /* A failed call is listed among the conflicts; a recorded trace is the timeline. */
    moa_lcons bad;
    CHECK_STATUS(moa_layout_eq(L, "header.bottom == 100", &bad), MOA_UNSATISFIABLE);
    CHECK_OK(moa_layout_trace_start(L, 0));
    moa_lcons header_height = cs[3];
    CHECK_OK(moa_lcons_animate(L, header_height, 80, 0.1, MOA_LINEAR, 0, NULL, NULL, NULL));
    for (int i = 0; i < 10; i++) CHECK_OK(moa_layout_advance(L, 1.0 / 60));
    CHECK_OK(moa_layout_trace_stop(L));
    CHECK_OK(moa_layout_html(L, "screen </script>", &page));
    CHECK_CONTAINS(page, "{\"title\":\"screen \\u003c/script>\"");
    CHECK_CONTAINS(page, "\"conflicts\":[{\"message\":\"required constraint `header.bottom == root.bottom + 100`");
    CHECK_CONTAINS(page, "\"trace\":[\n{\"time\":0,\"frames\":[{\"name\":\"root\"");
    CHECK_CONTAINS(page, "{\"name\":\"header\",\"rootFrame\":[0,0,320,80]}");

    CHECK_STATUS(moa_layout_html(NULL, NULL, &page), MOA_MISUSE);
    CHECK_STATUS(moa_layout_html(L, NULL, NULL), MOA_MISUSE);
    moa_layout_free(L);
}

/* Changed frames: after a change that moves one view, only that view is listed, with its frames; a container
** whose origin moves lists its subviews too (their frames in root space moved). */
static void test_changed_frames(void) {
    moa_lcons cs[32];
    size_t n = 0, changed = 0, nf = 0;
    moa_layout *L = make_screen(cs, 32, &n);
    moa_frame frames[16];
    CHECK_OK(moa_layout_solve(L, &changed));
    CHECK_OK(moa_layout_changed_frames(L, frames, 16, &nf));
    CHECK(nf == changed && nf == 5);

    /* cs[14] is button.height == 40: the button alone changes. */
    CHECK_OK(moa_lcons_set_constant(L, cs[14], 50));
    CHECK_OK(moa_layout_solve(L, &changed));
    CHECK(changed == 1);
    CHECK_OK(moa_layout_changed_frames(L, NULL, 0, &nf));
    CHECK(nf == 1);
    CHECK_OK(moa_layout_changed_frames(L, frames, 16, &nf));
    CHECK(frames[0].view == view_named(L, "button") && frames[0].superview == view_named(L, "content"));
    CHECK(frames[0].depth == 2 && frames[0].is_guide == 0);
    CHECK_RECT(frames[0].frame, 94, 300, 100, 50); /* its bottom stays 10 above the content's */
    CHECK_RECT(frames[0].frame_in_root, 110, 368, 100, 50);

    /* cs[4] is content.top == header.bottom + 8: the content's top moves, and the button's relative frame. */
    CHECK_OK(moa_lcons_set_constant(L, cs[4], 18));
    CHECK_OK(moa_layout_solve(L, &changed));
    CHECK_OK(moa_layout_changed_frames(L, frames, 16, &nf));
    CHECK(nf == changed && nf == 2);
    CHECK(frames[0].view == view_named(L, "content") && frames[1].view == view_named(L, "button"));
    CHECK_RECT(frames[1].frame, 94, 290, 100, 50);

    /* A listed view removed since is left out, also once a new view took its place in the layout's tables;
    ** the new view is not listed before a solve. */
    {
        moa_view button = view_named(L, "button"), fresh = 0, ids[4];
        size_t nv = 0;
        CHECK_OK(moa_view_free(L, button));
        CHECK_OK(moa_view_new(L, "fresh", 0, &fresh));
        CHECK_OK(moa_layout_changed_frames(L, frames, 16, &nf));
        CHECK(nf == 1 && frames[0].view == view_named(L, "content"));
        CHECK_OK(moa_layout_changed_views(L, ids, 4, &nv));
        CHECK(nv == 1 && ids[0] == view_named(L, "content"));
        CHECK_OK(moa_layout_solve(L, &changed));
        CHECK_OK(moa_layout_changed_frames(L, frames, 16, &nf));
        CHECK(nf == changed && nf >= 1 && frames[nf - 1].view == fresh && frames[nf - 1].depth == 1);
    }

    /* Misuse: NULL count, NULL out with a capacity, no layout. */
    CHECK_STATUS(moa_layout_changed_frames(L, frames, 16, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_changed_frames(L, NULL, 4, &nf), MOA_MISUSE);
    CHECK_STATUS(moa_layout_changed_frames(NULL, frames, 16, &nf), MOA_MISUSE);
    moa_layout_free(L);
}

/* moa_layout_advance_frames: a frame and its changed frames in one call, as moa_layout_advance then
** moa_layout_changed_frames give them; a short array gets the first frames and the full count. */
static void test_advance_frames(void) {
    moa_lcons cs[32];
    size_t n = 0, nf = 99, again = 0;
    moa_layout *L = make_screen(cs, 32, &n);
    moa_frame frames[16], check[16];
    CHECK_OK(moa_layout_solve(L, NULL));
    /* cs[14] is button.height == 40: animated, the button alone moves each frame. */
    CHECK_OK(moa_lcons_animate(L, cs[14], 60, 1.0, MOA_LINEAR, 0, NULL, NULL, NULL));
    CHECK_OK(moa_layout_advance_frames(L, 0.5, frames, 16, &nf));
    CHECK(nf == 1 && frames[0].view == view_named(L, "button"));
    CHECK_RECT(frames[0].frame, 94, 300, 100, 50); /* halfway: 50 high, its bottom 10 above the content's */
    CHECK_OK(moa_layout_changed_frames(L, check, 16, &again));
    CHECK(again == 1 && memcmp(&check[0], &frames[0], sizeof frames[0]) == 0);

    /* The content's top moves: two frames, one written into an array of one, the count says two. */
    CHECK_OK(moa_lcons_animate(L, cs[4], 18, 0.5, MOA_LINEAR, 0, NULL, NULL, NULL));
    CHECK_OK(moa_layout_advance_frames(L, 0.5, frames, 1, &nf));
    CHECK(nf == 2 && frames[0].view == view_named(L, "content"));
    CHECK_OK(moa_layout_changed_frames(L, check, 16, &again));
    CHECK(again == 2 && check[1].view == view_named(L, "button"));
    /* Nothing animating: a frame that moves nothing, with no array at all. */
    CHECK_OK(moa_layout_advance_frames(L, 0.5, NULL, 0, &nf));
    CHECK(nf == 0);

    /* Failures write nothing and move no clock: NULL count, NULL out with a capacity, a bad dt, no layout. */
    double t0 = 0, t1 = 0;
    CHECK_OK(moa_layout_time(L, &t0));
    nf = 77;
    CHECK_STATUS(moa_layout_advance_frames(L, 0.5, frames, 16, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_advance_frames(L, 0.5, NULL, 4, &nf), MOA_MISUSE);
    CHECK_STATUS(moa_layout_advance_frames(L, -1, frames, 16, &nf), MOA_INVALID);
    CHECK_STATUS(moa_layout_advance_frames(L, 0.0 / 0.0, frames, 16, &nf), MOA_INVALID);
    CHECK_STATUS(moa_layout_advance_frames(NULL, 0.5, frames, 16, &nf), MOA_MISUSE);
    CHECK_OK(moa_layout_time(L, &t1));
    CHECK(nf == 77 && t1 == t0);
    moa_layout_free(L);
}

/* moa_views_new: the views of n names in one call, with their intrinsic sizes, as a call per view would make
** them; all or nothing. */
static void test_views_in_bulk(void) {
    moa_layout *L = moa_layout_new(200, 200);
    moa_view box, out[4] = {0, 0, 0, 0}, d = 0;
    CHECK_OK(moa_view_new(L, "box", 0, &box));
    const char *names[4] = {"a", "b", "c", "d"};
    double sizes[8] = {10, 20, 30, MOA_NO_INTRINSIC, MOA_NO_INTRINSIC, 5, 1, 1};
    CHECK_OK(moa_views_new(L, names, 4, box, sizes, out));
    CHECK(out[0] == view_named(L, "a") && out[3] == view_named(L, "d") && out[1] != out[2]);
    size_t n = 0;
    CHECK_OK(moa_layout_eqs(L, "a.left == 0\na.top == 0\nb.left == a.right\nb.top == 0\nb.height == 7\n"
                               "c.left == 0\nc.top == a.bottom\nc.width == 3", NULL, 0, &n));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "a"), 0, 0, 10, 20);
    CHECK_RECT(frame_of(L, "b"), 10, 0, 30, 7);
    CHECK_RECT(frame_of(L, "c"), 0, 20, 3, 5);
    moa_view parent = 0;
    CHECK_OK(moa_view_superview(L, out[2], &parent));
    CHECK(parent == box);

    /* Failures add nothing: a name in use or given twice, a bad name, a bad size, NULLs, a guide as parent. */
    size_t before = 0;
    CHECK_OK(moa_layout_views(L, NULL, 0, &before));
    const char *taken[2] = {"x", "a"}, *twice[3] = {"x", "y", "x"}, *bad[2] = {"x", "2y"}, *holes[2] = {"x", NULL};
    const char *fresh[2] = {"x", "y"};
    double negative[4] = {1, 1, -2, 1}, huge[4] = {1, 1, 1e300, 1};
    moa_view kb = 0;
    CHECK_OK(moa_layout_guide(L, "keyboard", &kb));
    CHECK_STATUS(moa_views_new(L, taken, 2, 0, NULL, out), MOA_DUPLICATE);
    CHECK_STATUS(moa_views_new(L, twice, 3, 0, NULL, out), MOA_DUPLICATE);
    CHECK_STATUS(moa_views_new(L, bad, 2, 0, NULL, out), MOA_INVALID);
    CHECK_STATUS(moa_views_new(L, fresh, 2, 0, negative, out), MOA_INVALID);
    CHECK_STATUS(moa_views_new(L, fresh, 2, 0, huge, out), MOA_INVALID);
    CHECK_STATUS(moa_views_new(L, holes, 2, 0, NULL, out), MOA_MISUSE);
    CHECK_STATUS(moa_views_new(L, fresh, 2, 0, NULL, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_views_new(L, NULL, 2, 0, NULL, out), MOA_MISUSE);
    CHECK_STATUS(moa_views_new(L, fresh, 2, kb, NULL, out), MOA_INVALID);
    CHECK_STATUS(moa_views_new(L, fresh, 2, 12345, NULL, out), MOA_NOTFOUND);
    CHECK_STATUS(moa_views_new(L, fresh, (size_t)-1, 0, NULL, out), MOA_INVALID);
    CHECK_STATUS(moa_views_new(NULL, fresh, 2, 0, NULL, out), MOA_MISUSE);
    size_t after = 0;
    CHECK_OK(moa_layout_views(L, NULL, 0, &after));
    CHECK(after == before);
    CHECK_STATUS(moa_view_find(L, "x", &d), MOA_NOTFOUND);
    CHECK_OK(moa_views_new(L, NULL, 0, 0, NULL, NULL)); /* n = 0 does nothing */
    CHECK_OK(moa_views_new(L, fresh, 2, 0, NULL, out)); /* the names were left free */
    CHECK(out[1] == view_named(L, "y"));
    moa_layout_free(L);
}

/* moa_layout_frames lists the views in hierarchy order after every change of the hierarchy (it reads an order
   the layout keeps between changes): names in `want`, root first, NULL-terminated. */
static void check_frame_order(moa_layout *L, const char *const *want) {
    moa_frame frames[16];
    size_t nf = 0, n = 0;
    CHECK_OK(moa_layout_frames(L, 0, frames, 16, &nf));
    while (want[n]) n++;
    CHECK(nf == n + 1);
    for (size_t i = 0; i < n && i + 1 < nf; i++) {
        CHECK(frames[i + 1].view == view_named(L, want[i]));
        moa_view sup = 0;
        CHECK_OK(moa_view_superview(L, frames[i + 1].view, &sup));
        CHECK(frames[i + 1].superview == sup);
    }
}

static void test_frame_order_follows_the_hierarchy(void) {
    moa_layout *L = moa_layout_new(200, 200);
    moa_view a, b, c, d;
    CHECK_OK(moa_view_new(L, "a", 0, &a));
    CHECK_OK(moa_view_new(L, "b", 0, &b));
    CHECK_OK(moa_view_new(L, "c", b, &c));
    check_frame_order(L, (const char *const[]){"a", "b", "c", NULL});
    CHECK_OK(moa_view_set_superview(L, c, a)); /* moved: listed under a, before b */
    check_frame_order(L, (const char *const[]){"a", "c", "b", NULL});
    CHECK_OK(moa_view_new(L, "d", c, &d)); /* a new view, two levels down */
    check_frame_order(L, (const char *const[]){"a", "c", "d", "b", NULL});
    CHECK_OK(moa_view_free(L, a)); /* removed with its subtree */
    check_frame_order(L, (const char *const[]){"b", NULL});
    CHECK_OK(moa_view_new(L, "e", b, &d)); /* a slot given back, taken again */
    CHECK_OK(moa_view_new(L, "f", 0, &d));
    check_frame_order(L, (const char *const[]){"b", "e", "f", NULL});
    moa_layout_free(L);
}

int main(void) {
    test_frame_order_follows_the_hierarchy();
    test_views_in_bulk();
    test_changed_frames();
    test_advance_frames();
    test_screen();
    test_bad_equations();
    test_conflicts();
    test_reissue_and_xeq();
    test_rtl();
    test_names();
    test_intrinsic();
    test_debug_callback();
    test_views();
    test_lcons();
    test_svg();
    test_html();
    return CHECK_DONE();
}
