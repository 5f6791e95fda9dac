/*
** moafont.h -- text measured in a real font, for Moa's text layout (an optional library: libmoafont.so).
**
** Moa wraps text by words and asks a callback for the advance width of each run of UTF-8 text. moafont
** opens a TrueType/OpenType font with FreeType, shapes runs with HarfBuzz (kerning, ligatures, mark
** positioning: the font's default OpenType features) and returns their advance in points, so the layout
** breaks lines where a renderer using the same font would. It needs FreeType and HarfBuzz, not libmoa:
** build it with `make font` (bindings/font/README.md).
**
** CONVENTIONS (they hold for every function below unless its own block says otherwise)
**
**   Units.          Points in, points out: an advance at font_size s is the shaped advance in font units
**                   times s / unitsPerEm. Shaping is unhinted, at the font's own resolution, so advances are
**                   exactly linear in the size (advance(2s) == 2 * advance(s)) and do not depend on any
**                   device, DPI or locale.
**
**   Strings in.     UTF-8 with an explicit byte length (no NUL needed; a NUL inside the length is the
**                   character U+0000). Invalid UTF-8 is refused (NaN), never repaired: overlong forms,
**                   surrogates (U+D800..U+DFFF), code points above U+10FFFF, stray continuation bytes and
**                   sequences cut short by the length.
**
**   Strings out.    Owned by the font (or static): never free them.
**
**   Errors.         No function aborts or prints. moafont_open() explains a failure in a caller's buffer;
**                   moafont_advance() returns NaN for any bad argument.
**
**   Threads.        A moafont is not thread-safe: moafont_advance() updates the font's cache and shaping
**                   buffer, so at most one thread may use a given font at a time (serialize yourself; no lock,
**                   nothing detected). moafont_family() and moafont_metrics() only read what moafont_open()
**                   computed and may run alongside anything but moafont_close(). Separate fonts share
**                   nothing (each has its own FreeType library): different fonts may be used from different
**                   threads at once, and moafont_open() and moafont_default_path() may be called from any
**                   thread.
*/
#ifndef MOAFONT_H
#define MOAFONT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
** MOAFONT_API -- marks every exported function (default visibility with GCC and Clang; the library is
** built with -fvisibility=hidden, so nothing else is exported).
*/
#if defined(__GNUC__) || defined(__clang__)
#  define MOAFONT_API __attribute__((visibility("default")))
#else
#  define MOAFONT_API
#endif

/*
** moafont -- an open font: the file's HarfBuzz face, a shaping buffer and a cache of measured strings.
** Opaque; made by moafont_open(), freed by moafont_close().
*/
typedef struct moafont moafont;

/*
** moafont_open -- open a TrueType/OpenType font file (.ttf, .otf; the first face of a .ttc collection).
**
** `path` names the file. The file is mapped (or read) once and checked by FreeType; the font's family name,
** units per em and vertical metrics are read now.
**
** Returns a new font, to be freed with moafont_close(); NULL on failure: `path` NULL, a file that cannot be
** opened or read (the system's reason is given), a file FreeType cannot read as a font, a font that is not
** TrueType/OpenType (Type 1, bitmap formats: HarfBuzz needs OpenType tables), or out of memory. On failure
** a one-line message naming the path is written to `err` (at most errlen bytes, NUL included, truncated to
** fit); `err` may be NULL or errlen 0 when no message is wanted. On success `err` is not touched.
**
** Threads: safe from any thread (each font has its own FreeType library).
*/
MOAFONT_API moafont *moafont_open(const char *path, char *err, size_t errlen);

/*
** moafont_close -- free a font and everything it owns (its cache, its family string). NULL is a no-op.
**
** Threads: the font must not be in use by another thread.
*/
MOAFONT_API void moafont_close(moafont *font);

/*
** moafont_advance -- the advance width, in points, of `len` bytes of UTF-8 text at `font_size` points.
**
** The text is shaped as one run with HarfBuzz (kerning, ligatures, composition and mark positioning from
** the font's default OpenType features; script and direction guessed from the text, language neutral) and
** the glyphs' advances are summed. `utf8` need not be NUL-terminated: exactly `len` bytes are read.
**
** `font` is a moafont* passed as void* so that this function is Moa's text-advance callback as it stands:
**     typedef double (*moa_text_advance_fn)(const char *utf8, size_t len, double font_size, void *ud);
** e.g. moa_layout_set_font(L, moafont_family(f), moafont_advance, f, ascent, descent).
**
** Every distinct string (up to 256 bytes) is measured once: its advance at unit size is kept in a hash table
** inside the font (at most 65536 strings and 2 MiB of text; when full it is emptied and refills), so a
** layout measuring the same words again and again mostly pays a lookup. Results are the same with or
** without the cache.
**
** Returns the advance (0 or more, finite). Returns 0 for len 0. Returns NaN, and does nothing else, when
** `font` is NULL; when font_size is NaN, infinite or negative; when `utf8` is NULL and len > 0; when the
** text is not valid UTF-8 (see CONVENTIONS); when len exceeds INT_MAX (HarfBuzz's limit); or when shaping
** runs out of memory. (The checks run in that order: a NULL font gives NaN even for len 0.)
**
** Threads: not thread-safe for one font (it updates the cache): see CONVENTIONS.
*/
MOAFONT_API double moafont_advance(const char *utf8, size_t len, double font_size, void *font);

/*
** moafont_family -- the font's family name, in UTF-8, from its name table: the English family name
** (name ID 1, e.g. "DejaVu Sans"; a Condensed or Light face usually says so, "DejaVu Sans Condensed", so
** the name identifies the face a renderer should pick), else the first family name in any language, else
** FreeType's family name.
**
** Returns the name, never NULL: "" when the font has none or `font` is NULL. The string is owned by the
** font and valid until moafont_close().
**
** Threads: read-only; see CONVENTIONS.
*/
MOAFONT_API const char *moafont_family(const moafont *font);

/*
** moafont_metrics -- the font's horizontal-layout vertical metrics, as fractions of the font size (multiply
** by the size in points): `ascent`, the height above the baseline (positive); `descent`, the depth below it
** (positive for ordinary fonts); `line_gap`, the extra space the font asks for between lines (0 or more).
** The recommended line height is (ascent + descent + line_gap) * size.
**
** They are HarfBuzz's: OS/2 typographic metrics when the font sets USE_TYPO_METRICS, else hhea (else OS/2),
** falling back to FreeType's values for a font that has neither table. For DejaVu Sans: 1901/2048,
** 483/2048 and 0.
**
** Each out pointer may be NULL (that value is not written). A NULL font writes NaN to each one given.
**
** Threads: read-only; see CONVENTIONS.
*/
MOAFONT_API void moafont_metrics(const moafont *font, double *ascent, double *descent, double *line_gap);

/*
** moafont_default_path -- the path of a sans-serif font installed at a well-known place, for callers that
** do not care which font (tests, demos).
**
** Tries, in order: DejaVu Sans (Debian/Ubuntu fonts-dejavu-core:
** /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf, then where Fedora, Arch and others keep it), Liberation
** Sans, Noto Sans, GNU FreeSans, then macOS's Arial and Geneva. No fontconfig: the first of these files
** that can be opened for reading wins.
**
** Returns a static string (never free it), or NULL when none of them is installed.
**
** Threads: safe from any thread.
*/
MOAFONT_API const char *moafont_default_path(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MOAFONT_H */
