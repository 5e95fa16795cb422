/* Collators: PostgreSQL's collation names opened through ICU or libc, and
 * their sort keys. Opening allocates; sort keys use the stack and the
 * caller's buffer, and for ICU text over 512 bytes a UTF-16 copy. */
#define _GNU_SOURCE /* newlocale, nl_langinfo_l; gnu_get_libc_version */
#include "collate.h"

#include <gnu/libc-version.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef ORDO_WITH_ICU
#include <unicode/uchar.h>
#include <unicode/ucol.h>
#include <unicode/uloc.h>
#include <unicode/ustring.h>
#endif

bool ordo_collator_have_icu(void)
{
#ifdef ORDO_WITH_ICU
    return true;
#else
    return false;
#endif
}

static int is_byte_order(const char *name)
{
    return !strcmp(name, "C") || !strcmp(name, "POSIX") || !strcmp(name, "ucs_basic");
}

/* A libc locale name ("en_US.utf8"); anything else that is not byte order
 * is taken as an ICU name (a BCP 47 tag, with or without -x-icu). */
static int is_libc_name(const char *name) { return strpbrk(name, "_.@") != NULL; }

static ordo_status open_libc(ordo_collator *c, const char *name)
{
    /* PostgreSQL 15 opens a libc collation whose collate and ctype agree
     * with both categories (pg_newlocale_from_collation). */
    locale_t loc = newlocale(LC_COLLATE_MASK | LC_CTYPE_MASK, name, (locale_t)0);
    if (!loc)
        return ORDO_ERR_UNKNOWN_COLLATION;
    /* ordo's text is UTF-8, as a UTF8 database's: PostgreSQL has no
     * collation "en_US" (ISO-8859-1) for encoding UTF8. */
    const char *codeset = nl_langinfo_l(CODESET, loc);
    if (!codeset || strcmp(codeset, "UTF-8")) {
        freelocale(loc);
        return ORDO_ERR_UNKNOWN_COLLATION;
    }
    ordo_status st = ordo__glibc_coll_load((void *)loc, &c->glibc);
    if (st != ORDO_OK) {
        freelocale(loc);
        return st;
    }
    c->provider = ORDO_COLL_LIBC;
    c->libc = (void *)loc;
    /* PostgreSQL's collversion for libc collations on glibc, and the
     * revision of ordo's libc key: "+k2" keys follow strcoll_l (SPEC §17.3);
     * a table an earlier ordo loaded (strxfrm_l's order, recorded as the bare
     * glibc version) is then refused by the version check, not scanned in an
     * order its keys do not have. */
    snprintf(c->version, sizeof c->version, "%s+k2", gnu_get_libc_version());
    return ORDO_OK;
}

#ifdef ORDO_WITH_ICU
static ordo_status open_icu(ordo_collator *c, const char *name)
{
    char tag[ORDO_COLL_NAME_MAX + 1];
    size_t n = strlen(name);
    static const char suffix[] = "-x-icu";
    if (n >= sizeof suffix - 1 && !strcmp(name + n - (sizeof suffix - 1), suffix))
        n -= sizeof suffix - 1;
    /* A tag with no language (private use alone: "x-icu") is no collation
     * of PostgreSQL's; "und-x-icu" is the root. */
    if (n == 0 || n >= sizeof tag || ((name[0] | 0x20) == 'x' && (n == 1 || name[1] == '-')))
        return ORDO_ERR_UNKNOWN_COLLATION;
    memcpy(tag, name, n);
    tag[n] = 0;
    /* PostgreSQL 15 gives the language tag to ucol_open (ICU >= 54 reads
     * tags); the tag is parsed first so that a name ICU reads only in part
     * is refused rather than opened as some other locale. */
    char id[ULOC_FULLNAME_CAPACITY + 64];
    int32_t parsed = 0;
    UErrorCode st = U_ZERO_ERROR;
    uloc_forLanguageTag(tag, id, (int32_t)sizeof id, &parsed, &st);
    if (U_FAILURE(st) || st == U_STRING_NOT_TERMINATED_WARNING || (size_t)parsed != n)
        return ORDO_ERR_UNKNOWN_COLLATION;
    st = U_ZERO_ERROR;
    UCollator *u = ucol_open(tag, &st);
    if (U_FAILURE(st) || !u) {
        if (u)
            ucol_close(u);
        return st == U_MEMORY_ALLOCATION_ERROR ? ORDO_ERR_OUT_OF_MEMORY
                                               : ORDO_ERR_UNKNOWN_COLLATION;
    }
    /* ICU falls back to the root collation for a language it has no data
     * for at all ("xx-x-icu"): refused, unless the tag asks for the root. */
    char lang[ULOC_LANG_CAPACITY] = "";
    UErrorCode lst = U_ZERO_ERROR, vst = U_ZERO_ERROR;
    uloc_getLanguage(id, lang, (int32_t)sizeof lang, &lst);
    const char *valid = ucol_getLocaleByType(u, ULOC_VALID_LOCALE, &vst);
    if (U_FAILURE(vst) || !valid ||
        (!strcmp(valid, "root") && lang[0] && strcmp(lang, "und") && strcmp(lang, "root"))) {
        ucol_close(u);
        return ORDO_ERR_UNKNOWN_COLLATION;
    }
    UVersionInfo v;
    ucol_getVersion(u, v);
    char vs[U_MAX_VERSION_STRING_LENGTH];
    u_versionToString(v, vs);
    snprintf(c->version, sizeof c->version, "%s", vs);
    c->provider = ORDO_COLL_ICU;
    c->icu = u;
    return ORDO_OK;
}
#endif

ordo_status ordo_collator_open(const char *name, ordo_collator **out)
{
    if (!name || !out)
        return ORDO_ERR_NULL_ARG;
    *out = NULL;
    if (strlen(name) > ORDO_COLL_NAME_MAX)
        return ORDO_ERR_UNKNOWN_COLLATION;
    ordo_collator *c = calloc(1, sizeof *c);
    if (!c)
        return ORDO_ERR_OUT_OF_MEMORY;
    snprintf(c->name, sizeof c->name, "%s", name);
    ordo_status s = ORDO_OK;
    if (is_byte_order(name))
        c->provider = ORDO_COLL_C;
    else if (is_libc_name(name))
        s = open_libc(c, name);
    else
#ifdef ORDO_WITH_ICU
        s = open_icu(c, name);
#else
        s = ORDO_ERR_NO_ICU;
#endif
    if (s != ORDO_OK) {
        free(c);
        return s;
    }
    *out = c;
    return ORDO_OK;
}

void ordo_collator_close(ordo_collator *c)
{
    if (!c)
        return;
    if (c->provider == ORDO_COLL_LIBC)
        freelocale((locale_t)c->libc);
#ifdef ORDO_WITH_ICU
    if (c->provider == ORDO_COLL_ICU)
        ucol_close(c->icu);
#endif
    free(c);
}

const char *ordo_collator_version(const ordo_collator *c) { return c ? c->version : ""; }
const char *ordo_collator_name(const ordo_collator *c) { return c ? c->name : "C"; }

const char *ordo_collator_provider(const ordo_collator *c)
{
    if (!c || c->provider == ORDO_COLL_C)
        return "c";
    return c->provider == ORDO_COLL_ICU ? "icu" : "libc";
}

/* PostgreSQL's UTF-8 check (pg_utf8_verifystr): shortest forms only, no
 * surrogates, nothing past U+10FFFF, and no 00 (text cannot hold it). */
int ordo__utf8_ok(const uint8_t *s, size_t n) { return ordo__utf8_ok_masked(s, n, 0); }

/* The bytes are s[i] ^ mask (a descending key's text, checked in place). */
int ordo__utf8_ok_masked(const uint8_t *s, size_t n, uint8_t mask)
{
    const uint64_t ones = 0x0101010101010101u, highs = ones * 0x80, m = ones * mask;
    size_t i = 0;
    while (i < n) {
        /* Eight bytes at once while they are ASCII without 00 (most text):
         * a byte of 00 borrows in w - ones, one of 80..ff has its top bit. */
        if (n - i >= 8) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            w ^= m;
            if (!(((w - ones) | w) & highs)) {
                i += 8;
                continue;
            }
        }
        uint8_t b = s[i] ^ mask;
        if (b >= 0x01 && b < 0x80) {
            i++;
            continue;
        }
        size_t len;
        uint32_t min, cp;
        if (b >= 0xc2 && b <= 0xdf)
            len = 2, min = 0x80, cp = b & 0x1f;
        else if (b >= 0xe0 && b <= 0xef)
            len = 3, min = 0x800, cp = b & 0x0f;
        else if (b >= 0xf0 && b <= 0xf4)
            len = 4, min = 0x10000, cp = b & 0x07;
        else
            return 0; /* 00, a continuation byte, c0/c1, f5..ff */
        if (n - i < len)
            return 0;
        for (size_t j = 1; j < len; j++) {
            uint8_t cb = s[i + j] ^ mask;
            if ((cb & 0xc0) != 0x80)
                return 0;
            cp = (cp << 6) | (cb & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        i += len;
    }
    return 1;
}

/* libc: glibc's strcoll_l order as a key (src/collate_glibc.c). */
static ordo_status libc_key(const ordo_collator *c, const char *s, size_t n, uint8_t *dst,
                            size_t cap, size_t *len)
{
    return ordo__glibc_key(&c->glibc, (const uint8_t *)s, n, dst, cap, len);
}

#ifdef ORDO_WITH_ICU
/* ICU: ucol_getSortKey over the text in UTF-16, on the stack when short
 * (the common case), else in a buffer of its size: one pass, linear in the
 * length (ucol_nextSortKeyPart, which needs no copy, walks the text again
 * for each part beyond the primary level: quadratic). */
#define ORDO_ICU_STACK_UNITS 512

static ordo_status icu_key(const ordo_collator *c, const char *s, size_t n, uint8_t *dst,
                           size_t cap, size_t *len)
{
    if (n > INT32_MAX)
        return ORDO_ERR_OUT_OF_RANGE;
    UChar stack[ORDO_ICU_STACK_UNITS], *u = stack;
    size_t units = ORDO_ICU_STACK_UNITS;
    if (n > units) { /* n bytes of UTF-8 are at most n UTF-16 units */
        if (!(u = malloc(n * sizeof *u)))
            return ORDO_ERR_OUT_OF_MEMORY;
        units = n;
    }
    int32_t ulen = 0;
    UErrorCode st = U_ZERO_ERROR;
    u_strFromUTF8(u, (int32_t)units, &ulen, s, (int32_t)n, &st);
    ordo_status r = ORDO_OK;
    if (U_FAILURE(st)) {
        r = ORDO_ERR_INVALID_UTF8;
    } else {
        uint8_t tmp[1];
        int32_t cap32 = cap > INT32_MAX ? INT32_MAX : (int32_t)cap;
        /* The length includes ICU's 00 terminator, which is not part of
         * the key here. */
        int32_t need = ucol_getSortKey(c->icu, u, ulen, cap ? dst : tmp, cap32);
        if (need <= 0) {
            r = ORDO_ERR_INVALID_VALUE;
        } else {
            *len = (size_t)need - 1;
            r = need <= cap32 ? ORDO_OK : ORDO_ERR_DST_TOO_SMALL;
        }
    }
    if (u != stack)
        free(u);
    return r;
}
#endif

ordo_status ordo__sort_key(const ordo_collator *c, const char *s, size_t n, uint8_t *dst,
                           size_t cap, size_t *len)
{
    switch (c->provider) {
    case ORDO_COLL_LIBC: return libc_key(c, s, n, dst, cap, len);
#ifdef ORDO_WITH_ICU
    case ORDO_COLL_ICU: return icu_key(c, s, n, dst, cap, len);
#endif
    default: return ORDO_ERR_INVALID_ARG;
    }
}

ordo_status ordo_collator_sort_key(const ordo_collator *c, const char *s, size_t n, void *dst,
                                   size_t cap, size_t *len)
{
    if (!c || !len || (!s && n) || (!dst && cap))
        return ORDO_ERR_NULL_ARG;
    if (c->provider == ORDO_COLL_C)
        return ORDO_ERR_INVALID_ARG;
    if (!ordo__utf8_ok((const uint8_t *)s, n))
        return ORDO_ERR_INVALID_UTF8;
    return ordo__sort_key(c, s ? s : "", n, dst, cap, len);
}
