/*
** chat.c -- a chat screen whose messages wrap in a real font (DejaVu Sans through moafont: FreeType and
** HarfBuzz), laid out by Moa in C.
**
** Bubbles hug their text up to three quarters of the transcript's width, incoming ones on the left, outgoing
** on the right, stacked up from an input bar that rides on the keyboard. The frames are printed in portrait
** (390 x 844), after a rotation (844 x 390: long messages take fewer lines), and while the keyboard comes up
** (0.25 s, the keyboard's curve). Writes build/demo/chat-c.svg, the text drawn in the font it was measured with.
**
** Build and run (from the repository root):   make demo-chat-c
*/
#include <stdio.h>
#include <stdlib.h>

#include "moa.h"
#include "moafont.h"

#define TRY(L, call)                                                                                  \
    do {                                                                                              \
        moa_status st_ = (call);                                                                      \
        if (st_ != MOA_OK) {                                                                          \
            fprintf(stderr, "%s:%d: %s: %s\n%s\n", __FILE__, __LINE__, #call, moa_errstr(st_),        \
                    moa_layout_errmsg(L));                                                            \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

static const struct { int outgoing; const char *text; } messages[] = {
    {0, "Are we still on for tonight?"},
    {1, "Yes! I booked the table by the window, the one with the view over the harbour you liked last time."},
    {0, "Perfect."},
    {0, "Should I bring the book I told you about? It is long, but the first chapters read like a thriller."},
    {1, "Please do. See you at eight."},
};
#define NMESSAGES (sizeof messages / sizeof messages[0])

static moa_view bubble[NMESSAGES], label[NMESSAGES];

static void add(moa_layout *L, const char *fmt, int i, int j) {
    char line[256];
    size_t n = 0;
    snprintf(line, sizeof line, fmt, i, j);
    TRY(L, moa_layout_eqs(L, line, NULL, 0, &n));
}

static void show(moa_layout *L, const char *when) {
    double w, h;
    TRY(L, moa_layout_solve(L, NULL));
    TRY(L, moa_layout_root_size(L, &w, &h));
    printf("%s (%.0f x %.0f)\n", when, w, h);
    for (size_t i = 0; i < NMESSAGES; i++) {
        moa_rect r;
        moa_text_metrics m;
        const char *lines;
        TRY(L, moa_view_frame_in_root(L, bubble[i], &r));
        TRY(L, moa_view_text_lines(L, label[i], &lines, &m));
        printf("  %-3s bubble (%6.1f, %6.1f, %5.1f x %5.1f)  %.0f line%s\n", messages[i].outgoing ? "me" : "you",
               r.x, r.y, r.width, r.height, m.lines, m.lines == 1 ? "" : "s");
    }
}

int main(void) {
    char err[256];
    const char *path = moafont_default_path();
    moafont *font = path ? moafont_open(path, err, sizeof err) : NULL;
    if (!font) {
        fprintf(stderr, "chat: no font (%s); install fonts-dejavu-core\n", path ? err : "DejaVu Sans not found");
        return 1;
    }
    double ascent, descent;
    moafont_metrics(font, &ascent, &descent, NULL);

    moa_layout *L = moa_layout_new(390, 844);
    TRY(L, moa_layout_set_font(L, moafont_family(font), moafont_advance, font, ascent, descent));
    moa_view transcript, input;
    TRY(L, moa_view_new(L, "transcript", 0, &transcript));
    TRY(L, moa_view_new(L, "input", 0, &input));
    size_t n = 0;
    TRY(L, moa_layout_eqs(L,
                          "transcript.left == 0\ntranscript.right == 0\ntranscript.top == safeArea.top\n"
                          "transcript.bottom == input.top\n"
                          "input.left == 0\ninput.right == 0\ninput.height == 52\ninput.bottom == keyboard.top",
                          NULL, 0, &n));
    moa_text_style style = {16, 21, 0, 0, 0, 0};
    for (size_t i = 0; i < NMESSAGES; i++) {
        char name[32];
        snprintf(name, sizeof name, "bubble%zu", i);
        TRY(L, moa_view_new(L, name, transcript, &bubble[i]));
        snprintf(name, sizeof name, "text%zu", i);
        TRY(L, moa_view_new(L, name, bubble[i], &label[i]));
        TRY(L, moa_view_set_text(L, label[i], messages[i].text, &style));
    }
    for (size_t i = 0; i < NMESSAGES; i++) {
        int k = (int)i;
        add(L, "text%d.left == bubble%d.left + 12", k, k);
        add(L, "text%d.right == bubble%d.right - 12", k, k);
        add(L, "text%d.top == bubble%d.top + 8", k, k);
        add(L, "text%d.bottom == bubble%d.bottom - 8", k, k);
        add(L, "bubble%d.width <= transcript.width * 0.75", k, 0);
        add(L, messages[i].outgoing ? "bubble%d.right == transcript.right - 10" : "bubble%d.left == transcript.left + 10",
            k, 0);
        if (i + 1 < NMESSAGES) add(L, "bubble%d.bottom == bubble%d.top - 6", k, k + 1);
    }
    add(L, "bubble%d.bottom == transcript.bottom - 10", (int)NMESSAGES - 1, 0);

    show(L, "portrait");
    TRY(L, moa_layout_set_root_size(L, 844, 390));
    show(L, "landscape");
    TRY(L, moa_layout_set_root_size(L, 390, 844));
    TRY(L, moa_layout_show_keyboard(L, 336, 0.25, MOA_KEYBOARD_CURVE, NULL, NULL, NULL));
    for (int frame = 1; frame <= 15; frame++) {
        TRY(L, moa_layout_advance(L, 1.0 / 60));
        if (frame % 5 == 0) {
            char when[64];
            snprintf(when, sizeof when, "keyboard, frame %d", frame);
            show(L, when);
        }
    }
    moa_measure_stats st;
    TRY(L, moa_layout_measure_stats(L, &st));
    printf("measured %zu times, %zu answers from the cache\n", st.calls, st.cache_hits);

    const char *svg;
    TRY(L, moa_layout_svg(L, 0, &svg));
    FILE *f = fopen("build/demo/chat-c.svg", "w");
    if (f) {
        fputs(svg, f);
        fclose(f);
        printf("wrote build/demo/chat-c.svg\n");
    }
    moa_layout_free(L);
    moafont_close(font);
    return 0;
}
