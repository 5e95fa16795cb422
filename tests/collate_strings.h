/* Text for the collation tests (unit and PostgreSQL oracle): case,
 * accents, combining marks (precomposed and decomposed: equal under ICU,
 * different bytes), punctuation, spaces, digits, emoji, the empty string,
 * Swedish and German (phonebook) letters, ligatures. No 00: PostgreSQL text
 * cannot hold it (ordo refuses it under a collation: ORDO_ERR_INVALID_UTF8). */
#ifndef ORDO_COLLATE_STRINGS_H
#define ORDO_COLLATE_STRINGS_H

#include <stdint.h>
#include <string.h>

static const char *const coll_strings[] = {
    "", " ", "  ", "a", "A", "b", "B", "z", "Z", "apple", "Apple", "APPLE", "Banana", "banana",
    "cherry", "e", "E", "f", "\xc3\xa9" /* é */, "e\xcc\x81" /* e + combining acute */,
    "\xc3\x89" /* É */, "E\xcc\x81", "\xc3\xa8" /* è */, "\xc3\xaa" /* ê */, "ea", "eb",
    "\xc3\xa9t\xc3\xa9", "ete", "\xc3\xa5" /* å */, "a\xcc\x8a" /* a + ring */, "\xc3\xa4" /* ä */,
    "\xc3\xb6" /* ö */, "\xc3\x85ngstr\xc3\xb6m", "A\xcc\x8angstro\xcc\x88m", "o", "ae", "oe",
    "\xc3\xbc" /* ü */, "u", "ue", "uf", "M\xc3\xbcller", "Mueller", "Muller", "Mulle",
    "\xc3\x9f" /* ß */, "ss", "Stra\xc3\x9f" "e", "Strasse", "\xef\xac\x81" /* fi ligature */, "fi",
    "a b", "ab", "a-b", "a_b", "a,b", "a.b", "a\tb", "a\xc2\xa0" "b" /* no-break space */, " a",
    "-a", "co-op", "coop", "Co-op", "1", "10", "2", "9", "09", "a1", "a10", "a2",
    "\xf0\x9f\x98\x80" /* 😀 */, "\xf0\x9f\x98\x80" "a", "a\xf0\x9f\x98\x80",
    "\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd" /* thumbs up, skin tone */, "\xce\xb1" /* α */,
    "\xd1\x8f" /* я */, "\xe3\x81\x82" /* あ */, "\xe3\x82\xa2" /* ア */, "\xea\xb0\x80" /* 가 */,
    "!", "?", "~", "'", "\"", "\xe2\x80\x94" /* em dash */, "ZZZ", "zzz", "zZz", "\xc7\x85" /* ǅ */,
    "dz", "Dz", "DZ", "\xc5\x93" /* œ */, "\xc3\x86" /* Æ */, "AE", "aa", "\xc3\xb8" /* ø */,
};
#define COLL_NSTRINGS (sizeof coll_strings / sizeof coll_strings[0])

/* Text on which glibc 2.36's strxfrm_l and strcoll_l disagree (SPEC.md
 * 17.5): ordo's keys follow strcoll_l, PostgreSQL's order, on them too. */
static const char *const coll_tricky_strings[] = {
    ",1a", "1,a", "-1a", "1-a", " 1a", "1 a", ".5x", "5.x", ",11a", "1,1a", "A", "a",
    "\xcc\x81\x02" "a", "\xcc\x81" "a", "\xcc\x88", "\xd6\xb0" "b", "\xe3\x82\x99", "-", ",", "1",
    "09a", "09  a", "09 a", "0 9a", "a-b-c", "ab-c", "a'b", "ab'",
};
#define COLL_NTRICKY (sizeof coll_tricky_strings / sizeof coll_tricky_strings[0])

/* A corpus of text with spaces, punctuation, hyphens and apostrophes at
 * every position: each base word with one or two separators inserted at
 * every place (between characters, first, last), then random strings of
 * the pieces below; out[i] holds COLL_GEN_LEN bytes at most. Returns the
 * count (at most max); the same seed gives the same corpus. */
#define COLL_GEN_LEN 48
static inline size_t coll_gen_strings(char (*out)[COLL_GEN_LEN], size_t max, uint64_t seed)
{
    /* bases as characters */
    static const char *const bases[][5] = {
        {"0", "9", "a"}, {"1", "a"}, {"a", "b"}, {"a", "1"}, {"c", "o", "o", "p"}, {"A", "b"},
        {"e\xcc\x81", "a"}, {"\xc3\xa9", "t", "\xc3\xa9"}, {"1", "5"}, {"O", "N", "e"},
        {"\xc3\xa4", "z"}, {"s", "s"},
    };
    static const char *const seps[] = {
        " ", "  ", "-", "--", "'", "\xe2\x80\x99" /* ’ */, ",", ".", "_", "\t", "\xc2\xa0",
        "/", "(", "\xe2\x80\x94" /* em dash */, "\xcc\x81" /* combining acute */,
    };
    static const char *const pieces[] = {
        "a", "A", "b", "z", "0", "1", "9", " ", "  ", "-", "'", ",", ".", "_", "\xc3\xa9",
        "e\xcc\x81", "\xcc\x81", "\xc3\xa4", "\xc3\x9f", "ss", "\t", "!", "\xe2\x80\x94",
        "\xc2\xa0", "\xd1\x8f", "ch", "ll", "\xc3\xa5", "o", "\xc3\xb6", "aa", "\xe0\xb8\x81",
        "\xe2\x80\x99", "\xd0\xb4", "\xd1\x97", "\xce\xb1", "\xd8\xb4", "\xd7\x90", "\xe4\xb8\xad",
        "\xe0\xa4\x95", "\xe0\xa4\xbf", "\xd6\xb0", "\xd9\x80", "\xe0\xb9\x80", "Ch", "LL", "dz",
    };
    const size_t nb = sizeof bases / sizeof *bases, ns = sizeof seps / sizeof *seps,
                 np = sizeof pieces / sizeof *pieces;
    size_t n = 0;
    for (size_t b = 0; b < nb && n < max; b++) {
        size_t len = 0;
        while (len < 5 && bases[b][len])
            len++;
        for (size_t s = 0; s < ns && n < max; s++)
            for (size_t p = 0; p <= len && n < max; p++)
                for (size_t q = p; q <= len + 1 && n < max; q++) {
                    /* q == len + 1: one separator only */
                    char *o = out[n++];
                    o[0] = 0;
                    for (size_t c = 0; c <= len; c++) {
                        if (c == p)
                            strcat(o, seps[s]);
                        if (c == q)
                            strcat(o, seps[(s + 1) % ns]);
                        if (c < len)
                            strcat(o, bases[b][c]);
                    }
                }
    }
    while (n < max) {
        char *o = out[n++];
        o[0] = 0;
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        size_t count = (size_t)(seed >> 61); /* 0 .. 7 pieces */
        for (size_t k = 0; k < count; k++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            const char *piece = pieces[(seed >> 33) % np];
            if (strlen(o) + strlen(piece) < COLL_GEN_LEN)
                strcat(o, piece);
        }
    }
    return n;
}

/* The collations the tests prove, by PostgreSQL's names. */
static const char *const coll_libc_names[] = {"en_US.utf8", "sv_SE.utf8", "de_DE.utf8", "C.utf8"};
static const char *const coll_icu_names[] = {"und-x-icu", "en-US-x-icu", "sv-SE-x-icu",
                                             "de-DE-u-co-phonebk-x-icu"};

#endif
