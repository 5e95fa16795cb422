/* A sort key in glibc's strcoll_l order (SPEC.md §17.3).
 *
 * PostgreSQL orders libc-collated text by strcoll_l, and glibc's strxfrm_l
 * does not agree with it (SPEC.md §17.5), so ordo builds its own key from
 * the locale's LC_COLLATE tables, which glibc exposes through
 * nl_langinfo_l(_NL_COLLATE_*). The key follows what strcoll_l (glibc
 * 2.36, string/strcoll_l.c) compares, level by level:
 *  - each character (or contraction) has a list of weight bytes per level,
 *    maybe empty (ignorable at that level), and a rule set saying, per
 *    level, whether it is read forward or backward;
 *  - a run of backward characters is read back from its last character,
 *    the earlier ones found by counting from where strcoll_l's current
 *    step began, which passes over some characters and reads ignorable ones
 *    again (put_level says which); the forward character that ends the run
 *    comes after it;
 *  - a level without `position` compares the read characters' weight bytes
 *    as one string; a level with `position` compares, per non-ignorable
 *    character, first how many characters were read since the previous one
 *    (fewer sorts first), then its weights (a shorter list sorts first);
 *  - a string that runs out first sorts first.
 * strcoll_l takes a level's `position` flag from the rule set of the first
 * string's first character; when every rule set agrees (true of every
 * locale glibc 2.36 ships) the flag is the level's, and the comparison is
 * one of two keys. Locales whose rule sets disagree are refused.
 *
 * The key, per level, is the read weights (no position), or for each
 * non-ignorable character E(count) || its weights || 01 (position); levels
 * are separated by 01. Weight bytes are at least 02 (checked), E(count)
 * starts at 02, so 01 sorts below anything that continues a level, and the
 * key holds no 00. */
#define _GNU_SOURCE /* nl_langinfo_l and glibc's _NL_COLLATE_* items */
#include "collate_glibc.h"

#include <langinfo.h>
#include <locale.h>
#include <stdint.h>
#include <string.h>

/* glibc's rule bits (locale/localeinfo.h, enum coll_sort_rule). */
#define GLIBC_BACKWARD 2
#define GLIBC_POSITION 4
/* Extra-table entries are padded to 4 bytes (LOCFILE_ALIGN). */
#define GLIBC_ALIGN 4

static const char *item(locale_t l, nl_item it) { return nl_langinfo_l(it, l); }

/* A word item: nl_langinfo_l returns the union holding it as a pointer. */
static uint32_t item_word(locale_t l, nl_item it)
{
    union {
        const char *p;
        uint32_t w;
    } u;
    u.p = nl_langinfo_l(it, l);
    return u.w;
}

ordo_status ordo__glibc_coll_load(void *loc, ordo__glibc_coll *g)
{
    locale_t l = (locale_t)loc;
    uint32_t nrules = item_word(l, _NL_COLLATE_NRULES);
    /* The tables lie one after the other in the locale's LC_COLLATE data,
     * in item order (localedef writes them so): each one's size is the
     * distance to the next. */
    return ordo__glibc_coll_init(g, nrules, item(l, _NL_COLLATE_RULESETS),
                                 item(l, _NL_COLLATE_TABLEMB), item(l, _NL_COLLATE_WEIGHTMB),
                                 item(l, _NL_COLLATE_EXTRAMB), item(l, _NL_COLLATE_INDIRECTMB),
                                 item(l, _NL_COLLATE_GAP1));
}

ordo_status ordo__glibc_coll_init(ordo__glibc_coll *g, uint32_t nrules, const void *rulesets,
                                  const void *table, const void *weights, const void *extra,
                                  const void *indirect, const void *end)
{
    memset(g, 0, sizeof *g);
    g->nrules = nrules;
    if (nrules == 0)
        return ORDO_OK; /* strcmp order */
    if (nrules > ORDO_GLIBC_LEVELS_MAX)
        return ORDO_ERR_UNSUPPORTED_COLLATION;
    /* Anything but tables in this order is a layout ordo does not know. */
    uintptr_t r = (uintptr_t)rulesets, t = (uintptr_t)table, w = (uintptr_t)weights,
              e = (uintptr_t)extra, i = (uintptr_t)indirect, z = (uintptr_t)end;
    if (!r || r >= t || t + 256 * sizeof(int32_t) > w || w >= e || e > i || i > z ||
        (t | i) % sizeof(int32_t))
        return ORDO_ERR_UNSUPPORTED_COLLATION;
    g->rulesets = (const uint8_t *)r;
    g->table = (const int32_t *)t;
    g->weights = (const uint8_t *)w;
    g->extra = (const uint8_t *)e;
    g->indirect = (const int32_t *)i;
    g->nweights = e - w;
    if (g->nweights >= (size_t)1 << 24) /* an entry's weight index has 24 bits */
        return ORDO_ERR_UNSUPPORTED_COLLATION;
    g->nextra = i - e;
    g->nindirect = (z - i) / sizeof(int32_t);
    size_t rows = (t - r) / g->nrules;
    if (rows == 0)
        return ORDO_ERR_UNSUPPORTED_COLLATION;
    g->nrulesets = rows > ORDO_GLIBC_RULESETS_MAX ? ORDO_GLIBC_RULESETS_MAX : (uint32_t)rows;
    /* Level 0 takes rule set 0's flag in strcoll_l; the others the first
     * character's, which is one flag only if all rule sets agree. Rows of
     * zeros are the alignment padding after the last rule set. */
    for (uint32_t p = 0; p < g->nrules; p++)
        g->position[p] = (g->rulesets[p] & GLIBC_POSITION) != 0;
    for (uint32_t row = 0; row < g->nrulesets; row++) {
        const uint8_t *rs = g->rulesets + (size_t)row * g->nrules;
        int zero = 1;
        for (uint32_t p = 0; p < g->nrules; p++)
            zero &= rs[p] == 0;
        if (zero) {
            if (row == 0)
                return ORDO_ERR_UNSUPPORTED_COLLATION;
            continue;
        }
        for (uint32_t p = 1; p < g->nrules; p++)
            if (((rs[p] & GLIBC_POSITION) != 0) != g->position[p])
                return ORDO_ERR_UNSUPPORTED_COLLATION;
        g->row_ok[row] = 1;
    }
    return ORDO_OK;
}

/* The byte at s[i], 00 past the end (strcoll_l reads a 00-terminated
 * string). */
static inline uint8_t at(const uint8_t *s, size_t n, size_t i) { return i < n ? s[i] : 0; }

/* The entry (rule set << 24 | weight index) of the character or
 * contraction at s[*pos], as glibc's findidx chooses it (longest match in
 * the extra table, or a range of characters through the indirect table);
 * *pos moves past it. -1 when the tables are read out of bounds. */
static int32_t find_entry(const ordo__glibc_coll *g, const uint8_t *s, size_t n, size_t *pos)
{
    int32_t v = g->table[s[*pos]];
    size_t from = *pos + 1; /* the bytes after the first */
    if (v >= 0) {
        *pos = from;
        return v;
    }
    size_t o = (size_t)-(int64_t)v;
    for (;;) {
        if (o > g->nextra || g->nextra - o < sizeof(int32_t) + 1)
            return -1;
        int32_t e;
        memcpy(&e, g->extra + o, sizeof e);
        size_t k = g->extra[o + sizeof e];
        const uint8_t *cp = g->extra + o + sizeof e + 1;
        size_t body = e >= 0 ? k : 2 * k; /* a sequence, or a range's two ends */
        if (g->nextra - (o + sizeof e + 1) < body)
            return -1;
        size_t next = o + sizeof e + 1 + body;
        if ((1 + body) % GLIBC_ALIGN)
            next += GLIBC_ALIGN - (1 + body) % GLIBC_ALIGN;
        size_t c = 0;
        while (c < k && cp[c] == at(s, n, from + c))
            c++;
        if (e >= 0) {
            /* A sequence (the list ends with the one of length 0: the
             * first byte alone). */
            if (c == k) {
                if (from + k > n)
                    return -1; /* it matched the terminator */
                *pos = from + k;
                return e;
            }
            o = next;
            continue;
        }
        /* A range start..end of k bytes each: the text lies in it when not
         * below start and not above end. */
        size_t offset = 0;
        if (c != k) {
            if (cp[c] > at(s, n, from + c)) {
                o = next;
                continue;
            }
            size_t d = 0;
            while (d < k && cp[k + d] == at(s, n, from + d))
                d++;
            if (d != k && cp[k + d] < at(s, n, from + d)) {
                o = next;
                continue;
            }
            /* The offset: the text minus start, base 256, from the first
             * byte where they differ. */
            for (; c < k; c++)
                offset = (offset << 8) + (size_t)(at(s, n, from + c) - cp[c]);
        }
        if (from + k > n)
            return -1;
        size_t ix = (size_t)-(int64_t)e;
        if (ix >= g->nindirect || offset >= g->nindirect - ix)
            return -1;
        *pos = from + k;
        return g->indirect[ix + offset];
    }
}

/* The key being written: bytes go to dst while they fit, and are counted. */
typedef struct out {
    uint8_t *dst;
    size_t cap, len;
} out;

static inline void put(out *o, uint8_t b)
{
    if (o->len < o->cap)
        o->dst[o->len] = b;
    o->len++;
}

/* E(count): 02 .. f0 for 1 .. 239, else f1 and two bytes of 7 bits each,
 * plus 2 (count <= ORDO_LIBC_COLLATED_MAX < 2^14). Order-preserving and
 * prefix-free, no byte below 02. */
static void put_count(out *o, size_t count)
{
    if (count <= 239) {
        put(o, (uint8_t)(count + 1));
    } else {
        put(o, 0xf1);
        put(o, (uint8_t)((count >> 7) + 2));
        put(o, (uint8_t)((count & 0x7f) + 2));
    }
}

/* One level's state: characters read since the last non-ignorable one. */
typedef struct level {
    const ordo__glibc_coll *g;
    uint32_t p;
    int position;
    size_t count;
    out *o;
} level;

/* Reads one character (entry) at the level: 1 when it weighs there, 0
 * when it is ignorable, -1 when the tables cannot be read or hold a weight
 * byte below 02 (the key's 01 would no longer sort below every weight). */
static int read_char(level *lv, int32_t entry)
{
    /* the entry's low 24 bits index its weight list at this level (the
     * levels' lists lie one after the other: next_level moves it on) */
    const ordo__glibc_coll *g = lv->g;
    size_t i = (uint32_t)entry & 0xffffff;
    if (i >= g->nweights || g->weights[i] > g->nweights - i - 1)
        return -1;
    size_t len = g->weights[i];
    const uint8_t *w = g->weights + i + 1;
    if (len == 0) {
        lv->count++;
        return 0;
    }
    if (lv->position)
        put_count(lv->o, lv->count);
    for (size_t k = 0; k < len; k++) {
        if (w[k] < 2)
            return -1;
        put(lv->o, w[k]);
    }
    if (lv->position)
        put(lv->o, 1);
    lv->count = 1;
    return 1;
}

/* Each entry moved from its weight list at one level to the next level's;
 * -1 when that leaves the table. */
static int next_level(const ordo__glibc_coll *g, int32_t *ent, size_t m)
{
    for (size_t k = 0; k < m; k++) {
        size_t i = (uint32_t)ent[k] & 0xffffff;
        if (i >= g->nweights || g->weights[i] > g->nweights - i - 1)
            return -1;
        i += 1 + g->weights[i]; /* < nweights < 2^24: checked at load */
        ent[k] = (int32_t)(((uint32_t)ent[k] & 0xff000000u) | (uint32_t)i);
    }
    return 0;
}

static int backward(const ordo__glibc_coll *g, int32_t entry, uint32_t p)
{
    return (g->rulesets[(size_t)((uint32_t)entry >> 24) * g->nrules + p] & GLIBC_BACKWARD) != 0;
}

/* Level p of the characters ent[0..m), in the order strcoll_l reads them.
 * It reads forward until a character weighs at this level (a step); a run
 * of backward characters (with the forward one that ends it, if any) it
 * reads from its last character back, finding each earlier one by counting
 * characters from `mark`, the end of the previous step or run. That is
 * the run's start only when no ignorable forward character came first in
 * the step; otherwise the count lands that many characters early, and
 * ends on the ignorable characters before the run, read again. Counted
 * so, a run ended by a forward character is read back from its third-to-
 * last character (its second-to-last is passed over), one that ends the
 * string from its second-to-last; the forward character comes last. */
static ordo_status put_level(const ordo__glibc_coll *g, const int32_t *ent, size_t m, uint32_t p,
                             out *o)
{
    level lv = {g, p, g->position[p], 1, o};
    size_t cur = 0, mark = 0;
    while (cur < m) {
        size_t start = cur;
        while (cur < m && backward(g, ent[cur], p))
            cur++;
        size_t k = cur - start;
        int fwd = cur < m;
        cur += fwd;
        int r;
        if (k == 0) {
            if ((r = read_char(&lv, ent[start])) < 0)
                return ORDO_ERR_UNSUPPORTED_COLLATION;
            if (r)
                mark = cur; /* the step ends after it */
            continue;
        }
        size_t from = mark, left = fwd ? (k >= 2 ? k - 2 : 0) : k - 1;
        mark = cur;
        if (read_char(&lv, ent[start + k - 1]) < 0)
            return ORDO_ERR_UNSUPPORTED_COLLATION;
        for (; left; left--)
            if (read_char(&lv, ent[from + left - 1]) < 0)
                return ORDO_ERR_UNSUPPORTED_COLLATION;
        if (fwd && read_char(&lv, ent[cur - 1]) < 0)
            return ORDO_ERR_UNSUPPORTED_COLLATION;
    }
    return ORDO_OK;
}

ordo_status ordo__glibc_key(const ordo__glibc_coll *g, const uint8_t *s, size_t n, uint8_t *dst,
                            size_t cap, size_t *len)
{
    out o = {dst, cap, 0};
    if (n > ORDO_LIBC_COLLATED_MAX)
        return ORDO_ERR_OUT_OF_RANGE;
    if (g->nrules == 0) {
        /* strcmp order: the text itself (as strxfrm_l gives it). */
        if (n && n <= cap) /* an empty text with no buffer (a size pass): no memcpy of NULL */
            memcpy(dst, s, n);
        *len = n;
        return n <= cap ? ORDO_OK : ORDO_ERR_DST_TOO_SMALL;
    }
    /* Each character's entry once, for all levels (at most one per byte). */
    int32_t ent[ORDO_LIBC_COLLATED_MAX];
    size_t m = 0;
    for (size_t pos = 0; pos < n;) {
        int32_t e = find_entry(g, s, n, &pos);
        if (e < 0 || (uint32_t)e >> 24 >= g->nrulesets || !g->row_ok[(uint32_t)e >> 24])
            return ORDO_ERR_UNSUPPORTED_COLLATION;
        ent[m++] = e;
    }
    for (uint32_t p = 0; p < g->nrules; p++) {
        if (p && next_level(g, ent, m) < 0)
            return ORDO_ERR_UNSUPPORTED_COLLATION;
        if (p)
            put(&o, 1);
        ordo_status st = put_level(g, ent, m, p, &o);
        if (st != ORDO_OK)
            return st;
    }
    *len = o.len;
    return o.len <= cap ? ORDO_OK : ORDO_ERR_DST_TOO_SMALL;
}
