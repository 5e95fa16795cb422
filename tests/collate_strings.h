/* Text for the collation tests (unit and PostgreSQL oracle): case,
 * accents, combining marks (precomposed and decomposed: equal under ICU,
 * different bytes), punctuation, spaces, digits, emoji, the empty string,
 * Swedish and German (phonebook) letters, ligatures. No 00: PostgreSQL text
 * cannot hold it (ordo refuses it under a collation: ORDO_ERR_INVALID_UTF8). */
#ifndef ORDO_COLLATE_STRINGS_H
#define ORDO_COLLATE_STRINGS_H

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
 * 17.5): PostgreSQL's order for libc collations is strcoll_l's, which no
 * strxfrm_l key reproduces, so only the ICU collations are held to these. */
static const char *const coll_tricky_strings[] = {
    ",1a", "1,a", "-1a", "1-a", " 1a", "1 a", ".5x", "5.x", ",11a", "1,1a", "A", "a",
    "\xcc\x81\x02" "a", "\xcc\x81" "a", "\xcc\x88", "\xd6\xb0" "b", "\xe3\x82\x99", "-", ",", "1",
};
#define COLL_NTRICKY (sizeof coll_tricky_strings / sizeof coll_tricky_strings[0])

/* The collations the tests prove, by PostgreSQL's names. */
static const char *const coll_libc_names[] = {"en_US.utf8", "sv_SE.utf8"};
static const char *const coll_icu_names[] = {"und-x-icu", "en-US-x-icu", "sv-SE-x-icu",
                                             "de-DE-u-co-phonebk-x-icu"};

#endif
