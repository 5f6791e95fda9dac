/*
** test_moafont.c -- tests of libmoafont (bindings/font/moafont.h) against DejaVu Sans (fonts-dejavu-core).
**
** Advances are checked against FreeType's own unhinted advances, computed here independently (FT_Load_Glyph
** with FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING). Prints "N passed, M failed"; exits 1 when anything failed.
** Run by `make test-font`, then again under valgrind.
*/
#include "moafont.h"

#include <ft2build.h>
#include FT_FREETYPE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (cond) {                                                                        \
            passed++;                                                                      \
        } else {                                                                           \
            failed++;                                                                      \
            fflush(stdout);                                                                \
            fprintf(stderr, "%s:%d: FAIL: %s: ", __FILE__, __LINE__, #cond);              \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
        }                                                                                  \
    } while (0)

static double adv(moafont *f, const char *s, double size) { return moafont_advance(s, strlen(s), size, f); }

/* FreeType's independent answer: the unhinted advances of the string's characters, in font units, with no
** kerning and no ligatures. ASCII or Latin-1/Cyrillic text given as code points. */
static long ft_units(FT_Face face, const unsigned long *cps, size_t n) {
    long total = 0;
    for (size_t i = 0; i < n; i++) {
        FT_UInt g = FT_Get_Char_Index(face, cps[i]);
        if (FT_Load_Glyph(face, g, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING) != 0) return -1;
        total += face->glyph->advance.x;
    }
    return total;
}

static long ft_units_ascii(FT_Face face, const char *s) {
    unsigned long cps[64];
    size_t n = strlen(s);
    if (n > 64) return -1;
    for (size_t i = 0; i < n; i++) cps[i] = (unsigned char)s[i];
    return ft_units(face, cps, n);
}

int main(void) {
    /* ---- opening */
    const char *path = moafont_default_path();
    CHECK(path != NULL, "no default font: install fonts-dejavu-core (make deps)");
    if (!path) goto done;
    char err[512] = "";
    moafont *f = moafont_open(path, err, sizeof err);
    CHECK(f != NULL, "moafont_open(%s): %s", path, err);
    if (!f) goto done;
    CHECK(strcmp(moafont_family(f), "DejaVu Sans") == 0, "family '%s' (path %s)", moafont_family(f), path);
    CHECK(strcmp(moafont_family(NULL), "") == 0, "family of NULL");

    FT_Library lib;
    FT_Face face;
    CHECK(FT_Init_FreeType(&lib) == 0, "FT_Init_FreeType");
    CHECK(FT_New_Face(lib, path, 0, &face) == 0, "FT_New_Face(%s)", path);
    double upem = face->units_per_EM;
    CHECK(upem == 2048, "DejaVu Sans has 2048 units per em, got %g", upem);

    /* ---- advances against FreeType */
    long hello_units = ft_units_ascii(face, "Hello");
    double hello16 = adv(f, "Hello", 16);
    printf("advance(\"Hello\", 16 pt) = %.9g pt (FreeType: %ld units / %g * 16 = %.9g)\n", hello16, hello_units,
           upem, hello_units * 16 / upem);
    CHECK(hello16 > 0, "%g", hello16);
    CHECK(fabs(hello16 - hello_units * 16 / upem) < 1e-6, "HarfBuzz %.12g, FreeType %.12g", hello16,
          hello_units * 16 / upem);
    const char *plain[] = {"Hello world", "moafont", "0123456789", "minimum", "quick", "i", "W"};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        double want = ft_units_ascii(face, plain[i]) * 12.5 / upem;
        double got = adv(f, plain[i], 12.5);
        CHECK(fabs(got - want) < 1e-6, "'%s': %.12g, FreeType %.12g", plain[i], got, want);
    }
    /* Cyrillic (no kerning between these in DejaVu Sans): "Привет" */
    const unsigned long privet[] = {0x41F, 0x440, 0x438, 0x432, 0x435, 0x442};
    double want_privet = ft_units(face, privet, 6) * 20 / upem;
    double got_privet = adv(f, "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82", 20);
    CHECK(want_privet > 0 && fabs(got_privet - want_privet) < 1e-6, "Привет: %.12g, FreeType %.12g", got_privet,
          want_privet);

    /* ---- linear in size */
    double h32 = adv(f, "Hello", 32);
    CHECK(fabs(h32 - 2 * hello16) < 1e-9, "32 pt %.17g, 2 * 16 pt %.17g", h32, 2 * hello16);
    CHECK(fabs(adv(f, "Hello", 1) * 7.25 - adv(f, "Hello", 7.25)) < 1e-9, "1 pt * 7.25 vs 7.25 pt");
    CHECK(adv(f, "Hello", 0) == 0, "size 0 gives 0");

    /* ---- kerning and shaping (HarfBuzz, not the sum of glyphs) */
    double a = adv(f, "A", 16), v = adv(f, "V", 16), av = adv(f, "AV", 16);
    printf("kerning: advance(\"AV\") = %.9g < advance(\"A\") + advance(\"V\") = %.9g (16 pt)\n", av, a + v);
    CHECK(av < a + v - 0.5, "AV %.9g, A + V %.9g", av, a + v);
    CHECK(adv(f, "To", 16) < adv(f, "T", 16) + adv(f, "o", 16), "To is kerned");
    CHECK(fabs(adv(f, "AV", 16) - av) < 1e-12, "AV again (cached) %.17g vs %.17g", adv(f, "AV", 16), av);
    /* e + COMBINING ACUTE is composed (or the mark gets no advance): the same width as precomposed é */
    double composed = adv(f, "h\xC3\xA9llo", 16), decomposed = adv(f, "he\xCC\x81llo", 16);
    CHECK(fabs(composed - decomposed) < 1e-9, "héllo %.12g, he+U+0301llo %.12g", composed, decomposed);

    /* ---- multi-byte text */
    double hw = adv(f, "h\xC3\xA9llo w\xC3\xB6rld", 16);
    CHECK(isfinite(hw) && hw > 0, "héllo wörld: %g", hw);
    CHECK(hw > adv(f, "hello", 16), "héllo wörld wider than hello: %g", hw);
    int has_cjk = FT_Get_Char_Index(face, 0x65E5) != 0;
    double nihon = adv(f, "\xE6\x97\xA5\xE6\x9C\xAC", 16); /* 日本: .notdef boxes when the font lacks them */
    CHECK(isfinite(nihon) && nihon > 0, "日本 (glyphs in font: %s): %g", has_cjk ? "yes" : "no", nihon);
    double greek = adv(f, "\xCE\xA9\xCE\xBC\xCE\xAD\xCE\xB3\xCE\xB1", 16); /* Ωμέγα */
    CHECK(isfinite(greek) && greek > 0, "Ωμέγα: %g", greek);
    CHECK(isfinite(adv(f, "\xF0\x9F\x98\x80", 16)), "U+1F600 (4 bytes) is valid");
    CHECK(isfinite(moafont_advance("\xF4\x8F\xBF\xBF", 4, 16, f)), "U+10FFFF is valid");
    CHECK(isfinite(moafont_advance("\xED\x9F\xBF", 3, 16, f)), "U+D7FF is valid");
    CHECK(isfinite(moafont_advance("\xEE\x80\x80", 3, 16, f)), "U+E000 is valid");
    CHECK(isfinite(moafont_advance("a\0b", 3, 16, f)), "an embedded U+0000 is valid");

    /* ---- invalid UTF-8: NaN, also the second time (never cached) */
    const char *bad[] = {
        "\xC3\x28",         /* lead byte, then no continuation */
        "\xED\xA0\x80",     /* U+D800, a surrogate */
        "\xED\xBF\xBF",     /* U+DFFF */
        "\xE2\x82",         /* cut short */
        "\xC0\xAF",         /* overlong '/' */
        "\xC1\xBF",         /* overlong */
        "\xE0\x80\xAF",     /* overlong, 3 bytes */
        "\xF0\x80\x80\xAF", /* overlong, 4 bytes */
        "\xF4\x90\x80\x80", /* U+110000 */
        "\xF5\x80\x80\x80", /* lead byte above F4 */
        "\xF8\x88\x80\x80\x80",
        "\x80",             /* stray continuation */
        "\xFF",
        "abc\xC3",          /* valid, then cut short */
        "ok \xE2\x82\xAC \xBF",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(isnan(adv(f, bad[i], 16)), "bad[%zu] not NaN", i);
        CHECK(isnan(adv(f, bad[i], 16)), "bad[%zu] not NaN the second time", i);
    }
    CHECK(isnan(moafont_advance("\xE2\x82\xAC", 2, 16, f)), "€ cut short by len");
    CHECK(isfinite(moafont_advance("ab\xFF", 2, 16, f)), "a bad byte beyond len is not read");

    /* ---- bad arguments */
    CHECK(isnan(moafont_advance("Hello", 5, 16, NULL)), "NULL font");
    CHECK(isnan(moafont_advance("", 0, 16, NULL)), "NULL font, len 0");
    CHECK(isnan(moafont_advance(NULL, 3, 16, f)), "NULL text, len 3");
    CHECK(moafont_advance(NULL, 0, 16, f) == 0, "NULL text, len 0");
    CHECK(isnan(adv(f, "Hello", -1)), "negative size");
    CHECK(isnan(adv(f, "Hello", -1e-300)), "tiny negative size");
    CHECK(isnan(adv(f, "Hello", NAN)), "NaN size");
    CHECK(isnan(adv(f, "Hello", INFINITY)), "infinite size");
    CHECK(isnan(adv(f, "Hello", -INFINITY)), "-infinite size");
    CHECK(moafont_advance("Hello", 0, 16, f) == 0, "len 0");
    CHECK(moafont_advance("", 0, 16, f) == 0, "empty string");

    /* ---- not NUL-terminated: exactly len bytes (valgrind flags a read past the 5-byte block) */
    const char *longer = "Hello, world";
    CHECK(fabs(moafont_advance(longer, 5, 16, f) - hello16) < 1e-12, "first 5 bytes of '%s'", longer);
    CHECK(moafont_advance(longer, 12, 16, f) > hello16 + 1, "all 12 bytes are wider");
    CHECK(fabs(moafont_advance(longer, 5, 16, f) - hello16) < 1e-12, "5 bytes again after 12 (cache key = bytes)");
    char *exact = malloc(5);
    if (exact) {
        memcpy(exact, "Hello", 5);
        CHECK(fabs(moafont_advance(exact, 5, 16, f) - hello16) < 1e-12, "an unterminated 5-byte block");
        memcpy(exact, "Hellp", 5); /* same block, other bytes: the cache must not key on the pointer */
        CHECK(fabs(moafont_advance(exact, 5, 16, f) - hello16) > 1e-3, "other bytes in the same block");
        free(exact);
    }
    CHECK(adv(f, "ab", 16) < adv(f, "abc", 16) && adv(f, "a", 16) < adv(f, "ab", 16), "prefixes differ");

    /* ---- cache: the same value every time, also across the table being emptied and refilled */
    double first = adv(f, "wrapping", 13);
    int same = 1;
    for (int i = 0; i < 100000; i++) {
        double x = adv(f, "wrapping", 13);
        if (x != first) same = 0;
    }
    CHECK(same, "100000 measurements of the same string are identical");
    /* More distinct strings than the cache holds (65536): the table is emptied on the way. */
    double w0 = adv(f, "w0", 10), w777 = adv(f, "w777", 10);
    char key[32];
    for (int i = 0; i < 70000; i++) {
        int n = snprintf(key, sizeof key, "w%d", i);
        double x = moafont_advance(key, (size_t)n, 10, f);
        if (!(x > 0)) {
            same = 0;
            break;
        }
    }
    CHECK(same, "70000 distinct strings measured");
    CHECK(adv(f, "w0", 10) == w0 && adv(f, "w777", 10) == w777 && adv(f, "wrapping", 13) == first,
          "values unchanged after the cache was emptied");
    /* Long strings (not cached) measure the same every time. */
    char big[2048];
    for (size_t i = 0; i < sizeof big; i++) big[i] = "lorem ipsum dolor "[i % 18];
    double b1 = moafont_advance(big, sizeof big, 10, f), b2 = moafont_advance(big, sizeof big, 10, f);
    CHECK(b1 > 0 && b1 == b2, "2048-byte string: %g, %g", b1, b2);

    /* ---- metrics */
    double asc = -1, desc = -1, gap = -1;
    moafont_metrics(f, &asc, &desc, &gap);
    printf("metrics: ascent %.6g, descent %.6g, line gap %.6g (of the size)\n", asc, desc, gap);
    CHECK(asc > 0.5 && asc < 1.2, "ascent %g", asc);
    CHECK(desc > 0 && desc < 0.5, "descent %g", desc);
    CHECK(gap >= 0 && gap < 0.5, "line gap %g", gap);
    CHECK(fabs(asc - face->ascender / upem) < 1e-12 && fabs(desc + face->descender / upem) < 1e-12,
          "ascent/descent agree with FreeType's (%g, %g)", face->ascender / upem, -face->descender / upem);
    moafont_metrics(f, NULL, NULL, NULL);
    moafont_metrics(f, NULL, &desc, NULL);
    CHECK(desc > 0, "one out pointer");
    moafont_metrics(NULL, &asc, &desc, &gap);
    CHECK(isnan(asc) && isnan(desc) && isnan(gap), "NULL font: NaN metrics");

    /* ---- other faces of the family (fonts-dejavu-core installs them beside DejaVuSans.ttf) */
    char other_path[1024];
    const char *slash = strrchr(path, '/');
    int dir = (int)(slash ? slash - path + 1 : 0); /* the directory's length, its '/' included */
    snprintf(other_path, sizeof other_path, "%.*sDejaVuSans-Bold.ttf", dir, path);
    moafont *bold = moafont_open(other_path, err, sizeof err);
    CHECK(bold != NULL, "%s", err);
    if (bold) {
        CHECK(strcmp(moafont_family(bold), "DejaVu Sans") == 0, "bold family '%s'", moafont_family(bold));
        CHECK(adv(bold, "Hello", 16) > hello16, "bold is wider: %g vs %g", adv(bold, "Hello", 16), hello16);
        CHECK(adv(f, "Hello", 16) == hello16, "the regular font is unchanged");
        moafont_close(bold);
    }

    snprintf(other_path, sizeof other_path, "%.*sDejaVuSansCondensed.ttf", dir, path);
    moafont *cond = moafont_open(other_path, err, sizeof err);
    CHECK(cond != NULL, "%s", err);
    if (cond) {
        CHECK(strcmp(moafont_family(cond), "DejaVu Sans Condensed") == 0, "condensed family '%s'",
              moafont_family(cond));
        CHECK(adv(cond, "Hello", 16) < hello16, "condensed is narrower");
        moafont_close(cond);
    }

    /* ---- failures to open */
    const char *missing = "/nonexistent/dir/NoSuchFont-12345.ttf";
    err[0] = '\0';
    CHECK(moafont_open(missing, err, sizeof err) == NULL, "missing file opened");
    CHECK(strstr(err, missing) != NULL, "message names the path: '%s'", err);
    printf("missing file: %s\n", err);
    CHECK(moafont_open(missing, NULL, 0) == NULL, "missing file, no message buffer");
    char small[8];
    memset(small, 'x', sizeof small);
    CHECK(moafont_open(missing, small, sizeof small) == NULL && strlen(small) == sizeof small - 1,
          "message truncated to fit");
    err[0] = '\0';
    CHECK(moafont_open(NULL, err, sizeof err) == NULL && err[0] != '\0', "NULL path: '%s'", err);
    err[0] = '\0';
    CHECK(moafont_open("/", err, sizeof err) == NULL && strstr(err, "/") != NULL, "a directory: '%s'", err);
    err[0] = '\0';
    CHECK(moafont_open("/proc/self/exe", err, sizeof err) == NULL && strstr(err, "/proc/self/exe") != NULL,
          "not a font: '%s'", err);
    printf("not a font: %s\n", err);

    moafont_close(NULL);
    moafont_close(f);
    FT_Done_Face(face);
    FT_Done_FreeType(lib);

done:
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
