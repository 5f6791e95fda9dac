/*
** moafont.c -- text measured with FreeType + HarfBuzz for Moa's text layout. The contract is moafont.h.
**
** How it works:
**   - moafont_open maps the file into a HarfBuzz blob, has FreeType read it from that memory (FreeType is the
**     validator: HarfBuzz accepts any bytes as an empty face), takes the family name and the metrics, and
**     frees the FreeType face. Shaping uses HarfBuzz's own OpenType functions on the blob, with the font's
**     scale set to units per em: positions come out in exact font units, unhinted.
**   - moafont_advance looks the string up in the cache first (only valid strings are ever cached, so a hit
**     needs no UTF-8 check), else validates, shapes into the font's reusable buffer, sums x_advance and
**     caches the sum in font units. The result is units * size / upem.
*/
#define _POSIX_C_SOURCE 200809L /* strerror_r (the XSI one: returns int) */

#include "moafont.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_FONT_FORMATS_H
#include <hb.h>
#include <hb-ot.h>

/* ------------------------------------------------------------------------------------------------ cache */

#define CACHE_MAX_ENTRIES 65536u           /* then the table is emptied */
#define CACHE_MAX_SLOTS   (2u * CACHE_MAX_ENTRIES) /* load factor at most 1/2 */
#define CACHE_MIN_SLOTS   256u
#define CACHE_MAX_KEY     256u             /* longer strings are measured every time */
#define CACHE_MAX_TEXT    (2u << 20)       /* bytes of keys kept, then the table is emptied */

typedef struct {
    uint64_t hash;  /* 0: empty slot */
    int64_t units;  /* the advance in font units */
    uint32_t off;   /* the key's bytes: text + off, len bytes */
    uint32_t len;
} slot;

typedef struct {
    slot *slots;    /* nslots (a power of two) or NULL */
    uint32_t nslots;
    uint32_t count;
    char *text;     /* keys, back to back */
    size_t text_used, text_cap;
} cache;

struct moafont {
    hb_face_t *face;
    hb_font_t *font;
    hb_buffer_t *buf;
    hb_language_t lang;
    unsigned upem;
    double ascent, descent, line_gap;
    char *family;
    cache cache;
};

/* FNV-1a, 64-bit; never 0 (0 marks an empty slot). */
static uint64_t hash_bytes(const unsigned char *s, size_t n) {
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211u;
    }
    return h ? h : 1;
}

/* The slot holding the key, or the empty slot where it would go. The table is never full (load <= 1/2). */
static slot *cache_find(const cache *c, uint64_t h, const char *key, size_t len) {
    uint32_t mask = c->nslots - 1;
    for (uint32_t i = (uint32_t)h & mask;; i = (i + 1) & mask) {
        slot *s = &c->slots[i];
        if (s->hash == 0) return s;
        if (s->hash == h && s->len == len && memcmp(c->text + s->off, key, len) == 0) return s;
    }
}

static void cache_clear(cache *c) {
    if (c->slots) memset(c->slots, 0, (size_t)c->nslots * sizeof(slot));
    c->count = 0;
    c->text_used = 0;
}

/* Doubles the table (rehashing every entry). Returns 0 when out of memory (the table is unchanged). */
static int cache_grow(cache *c) {
    uint32_t n = c->nslots ? 2 * c->nslots : CACHE_MIN_SLOTS;
    slot *old = c->slots;
    uint32_t oldn = c->nslots;
    slot *slots = calloc(n, sizeof(slot));
    if (!slots) return 0;
    c->slots = slots;
    c->nslots = n;
    for (uint32_t i = 0; i < oldn; i++) {
        if (old[i].hash == 0) continue;
        uint32_t j = (uint32_t)old[i].hash & (n - 1);
        while (slots[j].hash != 0) j = (j + 1) & (n - 1);
        slots[j] = old[i];
    }
    free(old);
    return 1;
}

/* Remembers key -> units. Best effort: out of memory only means the string is not cached. */
static void cache_put(cache *c, uint64_t h, const char *key, size_t len, int64_t units) {
    if (len > CACHE_MAX_KEY) return;
    if (c->count >= CACHE_MAX_ENTRIES || c->text_used + len > CACHE_MAX_TEXT) cache_clear(c);
    if ((c->count + 1) * 2 > c->nslots) {
        if (c->nslots >= CACHE_MAX_SLOTS || !cache_grow(c)) return; /* cannot happen at full size: see above */
    }
    if (c->text_used + len > c->text_cap) {
        size_t cap = c->text_cap ? c->text_cap : 4096;
        while (cap < c->text_used + len) cap *= 2;
        if (cap > CACHE_MAX_TEXT) cap = CACHE_MAX_TEXT;
        char *text = realloc(c->text, cap);
        if (!text) return;
        c->text = text;
        c->text_cap = cap;
    }
    slot *s = cache_find(c, h, key, len);
    if (s->hash != 0) return; /* already there (not reached: callers look up first) */
    memcpy(c->text + c->text_used, key, len);
    s->hash = h;
    s->units = units;
    s->off = (uint32_t)c->text_used;
    s->len = (uint32_t)len;
    c->text_used += len;
    c->count++;
}

static void cache_free(cache *c) {
    free(c->slots);
    free(c->text);
    memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------------------------------------------------ UTF-8 */

/* 1 when s[0..n) is well-formed UTF-8 (Unicode's definition: no overlong forms, no surrogates, nothing
** above U+10FFFF, no stray or missing continuation bytes). */
static int utf8_valid(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t more;
        uint32_t cp, min;
        if (c >= 0xC2 && c <= 0xDF) {
            more = 1, cp = c & 0x1F, min = 0x80;
        } else if (c >= 0xE0 && c <= 0xEF) {
            more = 2, cp = c & 0x0F, min = 0x800;
        } else if (c >= 0xF0 && c <= 0xF4) {
            more = 3, cp = c & 0x07, min = 0x10000;
        } else {
            return 0; /* 0x80..0xBF stray continuation, 0xC0/0xC1 always overlong, 0xF5..0xFF */
        }
        if (n - i - 1 < more) return 0; /* cut short */
        for (size_t k = 1; k <= more; k++) {
            unsigned b = s[i + k];
            if ((b & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (b & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        i += more + 1;
    }
    return 1;
}

/* ------------------------------------------------------------------------------------------------ open */

static void set_err(char *err, size_t errlen, const char *fmt, ...) {
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static char *dup_string(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* Name ID `id` in English, else in any language; NULL when absent (or out of memory). */
static char *name_from_table(hb_face_t *face, hb_ot_name_id_t id) {
    hb_language_t langs[2] = {hb_language_from_string("en", -1), HB_LANGUAGE_INVALID};
    for (int k = 0; k < 2; k++) {
        unsigned n = hb_ot_name_get_utf8(face, id, langs[k], NULL, NULL);
        if (n == 0) continue;
        char *s = malloc((size_t)n + 1);
        if (!s) return NULL;
        unsigned size = n + 1; /* in: capacity including the NUL; out: bytes written */
        hb_ot_name_get_utf8(face, id, langs[k], &size, s);
        s[size < n ? size : n] = '\0';
        return s;
    }
    return NULL;
}

moafont *moafont_open(const char *path, char *err, size_t errlen) {
    if (!path) {
        set_err(err, errlen, "moafont: no font path (NULL)");
        return NULL;
    }
    /* Open it ourselves first, for the system's reason when that fails (HarfBuzz does not report one). */
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        int e = errno;
        char why[128] = "unknown error";
        if (strerror_r(e, why, sizeof why) != 0) snprintf(why, sizeof why, "error %d", e);
        set_err(err, errlen, "moafont: cannot open %s: %s", path, why);
        return NULL;
    }
    fclose(probe);

    hb_blob_t *blob = hb_blob_create_from_file(path);
    unsigned blob_len = 0;
    const char *data = hb_blob_get_data(blob, &blob_len);
    if (blob_len == 0 || !data) {
        hb_blob_destroy(blob);
        set_err(err, errlen, "moafont: cannot read %s (empty, a directory, or unreadable)", path);
        return NULL;
    }

    /* FreeType checks the file is a font and that it is an SFNT (TrueType/OpenType) one. */
    FT_Library lib = NULL;
    FT_Face ft = NULL;
    FT_Error fe = FT_Init_FreeType(&lib);
    if (fe) {
        hb_blob_destroy(blob);
        set_err(err, errlen, "moafont: cannot start FreeType (error 0x%02X) for %s", (unsigned)fe, path);
        return NULL;
    }
    fe = FT_New_Memory_Face(lib, (const FT_Byte *)data, (FT_Long)blob_len, 0, &ft);
    if (fe) {
        const char *what = NULL;
#if FREETYPE_MAJOR > 2 || (FREETYPE_MAJOR == 2 && FREETYPE_MINOR >= 10)
        what = FT_Error_String(fe); /* NULL unless FreeType was built with FT_CONFIG_OPTION_ERROR_STRINGS */
#endif
        if (!what && fe == FT_Err_Unknown_File_Format) what = "unknown file format";
        if (!what && fe == FT_Err_Invalid_File_Format) what = "broken file";
        set_err(err, errlen, "moafont: %s is not a font FreeType can read (FreeType error 0x%02X%s%s)", path,
                (unsigned)fe, what ? ": " : "", what ? what : "");
        FT_Done_FreeType(lib);
        hb_blob_destroy(blob);
        return NULL;
    }
    if (!FT_IS_SFNT(ft)) {
        set_err(err, errlen, "moafont: %s is not a TrueType/OpenType font (FreeType reads it as %s)", path,
                FT_Get_Font_Format(ft));
        FT_Done_Face(ft);
        FT_Done_FreeType(lib);
        hb_blob_destroy(blob);
        return NULL;
    }

    moafont *f = calloc(1, sizeof *f);
    hb_face_t *face = hb_face_create(blob, 0);
    hb_blob_destroy(blob); /* the face holds its own reference */
    if (!f || face == hb_face_get_empty()) goto nomem;
    f->face = face;
    face = NULL;
    f->font = hb_font_create(f->face);
    if (f->font == hb_font_get_empty()) goto nomem;
    f->upem = hb_face_get_upem(f->face);
    if (f->upem == 0) f->upem = 1000; /* not reached: HarfBuzz substitutes 1000 for a broken head table */
    /* Font units, unhinted: positions and extents in exact font units. (hb_font_create's default scale is
    ** already upem; set it anyway, so nothing depends on that default.) */
    hb_font_set_scale(f->font, (int)f->upem, (int)f->upem);
    f->buf = hb_buffer_create();
    if (!hb_buffer_allocation_successful(f->buf)) goto nomem;
    /* "und": no language, so the font's default language system, whatever the process locale is. (An unset
    ** language would be guessed from setlocale(), which is neither stable nor thread-safe to call.) */
    f->lang = hb_language_from_string("und", -1);

    f->family = name_from_table(f->face, HB_OT_NAME_ID_FONT_FAMILY);
    if (!f->family) f->family = dup_string(ft->family_name ? ft->family_name : "",
                                           ft->family_name ? strlen(ft->family_name) : 0);
    if (!f->family) goto nomem;

    hb_font_extents_t ext;
    if (hb_font_get_h_extents(f->font, &ext)) {
        f->ascent = (double)ext.ascender / f->upem;
        f->descent = -(double)ext.descender / f->upem;
        f->line_gap = (double)ext.line_gap / f->upem;
    } else {
        double u = ft->units_per_EM ? ft->units_per_EM : f->upem;
        f->ascent = ft->ascender / u;
        f->descent = -ft->descender / u;
        f->line_gap = (ft->height - ft->ascender + ft->descender) / u;
    }
    if (f->line_gap < 0) f->line_gap = 0;

    FT_Done_Face(ft);
    FT_Done_FreeType(lib);
    return f;

nomem:
    if (face) hb_face_destroy(face);
    FT_Done_Face(ft);
    FT_Done_FreeType(lib);
    moafont_close(f);
    set_err(err, errlen, "moafont: out of memory opening %s", path);
    return NULL;
}

void moafont_close(moafont *f) {
    if (!f) return;
    hb_buffer_destroy(f->buf);
    hb_font_destroy(f->font);
    hb_face_destroy(f->face);
    free(f->family);
    cache_free(&f->cache);
    free(f);
}

/* ------------------------------------------------------------------------------------------------ measure */

/* The shaped advance of valid UTF-8 in font units; -1 when out of memory. */
static int64_t shape_units(moafont *f, const char *s, size_t len) {
    hb_buffer_t *b = f->buf;
    hb_buffer_clear_contents(b); /* also resets the segment properties */
    hb_buffer_add_utf8(b, s, (int)len, 0, (int)len);
    hb_buffer_set_language(b, f->lang);
    hb_buffer_guess_segment_properties(b); /* script and direction from the text */
    hb_shape(f->font, b, NULL, 0);
    if (!hb_buffer_allocation_successful(b)) return -1;
    unsigned n = 0;
    const hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(b, &n);
    int64_t units = 0;
    for (unsigned i = 0; i < n; i++) units += pos[i].x_advance;
    return units < 0 ? 0 : units;
}

double moafont_advance(const char *utf8, size_t len, double font_size, void *font) {
    moafont *f = font;
    if (!f || !isfinite(font_size) || font_size < 0) return NAN;
    if (len == 0) return 0;
    if (!utf8 || len > INT_MAX) return NAN;

    cache *c = &f->cache;
    uint64_t h = 0;
    if (len <= CACHE_MAX_KEY && c->count > 0) {
        h = hash_bytes((const unsigned char *)utf8, len);
        const slot *s = cache_find(c, h, utf8, len);
        if (s->hash != 0) return (double)s->units * font_size / f->upem;
    }
    if (!utf8_valid((const unsigned char *)utf8, len)) return NAN;
    int64_t units = shape_units(f, utf8, len);
    if (units < 0) return NAN;
    if (len <= CACHE_MAX_KEY) {
        if (h == 0) h = hash_bytes((const unsigned char *)utf8, len);
        cache_put(c, h, utf8, len, units);
    }
    return (double)units * font_size / f->upem;
}

/* ------------------------------------------------------------------------------------------------ info */

const char *moafont_family(const moafont *f) {
    return f && f->family ? f->family : "";
}

void moafont_metrics(const moafont *f, double *ascent, double *descent, double *line_gap) {
    if (ascent) *ascent = f ? f->ascent : NAN;
    if (descent) *descent = f ? f->descent : NAN;
    if (line_gap) *line_gap = f ? f->line_gap : NAN;
}

const char *moafont_default_path(void) {
    static const char *const candidates[] = {
        /* DejaVu Sans: Debian/Ubuntu (fonts-dejavu-core), Fedora (old and new), Arch, openSUSE, FreeBSD */
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/DejaVuSans.ttf",
        "/usr/local/share/fonts/dejavu/DejaVuSans.ttf",
        /* other common sans faces */
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
        "/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
        "/usr/share/fonts/noto/NotoSans-Regular.ttf",
        "/usr/share/fonts/google-noto/NotoSans-Regular.ttf",
        "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
        /* macOS */
        "/System/Library/Fonts/Supplemental/Arial.ttf",
        "/Library/Fonts/Arial.ttf",
        "/System/Library/Fonts/Geneva.ttf",
    };
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        FILE *fp = fopen(candidates[i], "rb");
        if (fp) {
            fclose(fp);
            return candidates[i];
        }
    }
    return NULL;
}
