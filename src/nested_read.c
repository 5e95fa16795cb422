/* Reading ranges and arrays back (SPEC.md §14.17, §14.18): the nested
 * tuples are unescaped into the caller's scratch, checked whole, and the
 * values are then read from there by the usual calls. */
#include "ordo_internal.h"

enum { NEST_RANGE = ORDO__NEST_RANGE, NEST_ARRAY = ORDO__NEST_ARRAY };

/* An escaped run from p[0..n) XOR mask up to its terminator: 1 with *used
 * (terminator included) and *len (bytes it holds), 0 when malformed. */
static int unesc_scan(const uint8_t *p, size_t n, uint8_t mask, size_t *used, size_t *len)
{
    size_t i = 0, m = 0;
    for (;;) {
        if (i >= n)
            return 0;
        if ((p[i] ^ mask) != 0) {
            i++, m++;
            continue;
        }
        if (i + 1 >= n)
            return 0;
        uint8_t next = p[i + 1] ^ mask;
        if (next == 0x00)
            break;
        if (next != 0xff)
            return 0;
        i += 2, m++;
    }
    *used = i + 2, *len = m;
    return 1;
}

/* Copies the run scanned above into out (out <= p is allowed: it shrinks). */
static void unesc_copy(const uint8_t *p, uint8_t mask, uint8_t *out, size_t len)
{
    for (size_t w = 0; w < len; w++) {
        uint8_t c = *p ^ mask;
        out[w] = c;
        p += c == 0 ? 2 : 1;
    }
}

/* A field of a nested key held in b[0..n): an ASC NULLS LAST uint8. */
static int get_u8(const uint8_t *b, size_t n, size_t *pos, uint8_t *v)
{
    if (n - *pos < 2 || b[*pos] != 0x00)
        return 0;
    *v = b[*pos + 1];
    *pos += 2;
    return 1;
}

static int get_i32(const uint8_t *b, size_t n, size_t *pos, int64_t *v)
{
    if (n - *pos < 5 || b[*pos] != 0x00)
        return 0;
    const uint8_t *p = b + *pos + 1;
    uint32_t w = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    *v = (int32_t)(w ^ ORDO_SIGN32);
    *pos += 5;
    return 1;
}

/* A nested-tuple field at b[*pos]: unescaped to b + to (to <= *pos). */
static int get_nested(uint8_t *b, size_t n, size_t *pos, size_t to, size_t *len)
{
    size_t used;
    if (n - *pos < 1 || b[*pos] != 0x00 || !unesc_scan(b + *pos + 1, n - *pos - 1, 0, &used, len))
        return 0;
    unesc_copy(b + *pos + 1, 0, b + to, *len);
    *pos += 1 + used;
    return 1;
}

/* Opens the field: its payload unescaped once into scratch. */
static ordo_status open_nested(ordo_key_reader *r, ordo_order o, void *scratch, size_t cap,
                               size_t *need, bool *is_null, size_t *len, size_t *after)
{
    if (!r || !is_null || (!scratch && cap))
        return ORDO_ERR_NULL_ARG;
    if (r->priv_err == ORDO_OK && r->priv_nest &&
        ((ordo__reading_nest(r) && r->priv_nest == NEST_RANGE) ||
         r->priv_nest_level >= ORDO_NEST_MAX_DEPTH - 1))
        return ordo__stick(&r->priv_err, ORDO_ERR_BAD_STATE);
    const uint8_t *k;
    size_t avail, used;
    uint8_t mask;
    ordo_status s = ordo__read_open(r, o, is_null, &k, &avail, &mask);
    if (s != ORDO_OK || *is_null)
        return s;
    if (!unesc_scan(k + 1, avail - 1, mask, &used, len))
        return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
    if (need)
        *need = *len;
    if (*len > cap)
        return ORDO_ERR_DST_TOO_SMALL; /* not sticky: nothing consumed */
    unesc_copy(k + 1, mask, scratch, *len);
    *after = r->priv_pos + 1 + used;
    return ORDO_OK;
}

/* Moves the reader into the unescaped values. */
static void enter(ordo_key_reader *r, uint32_t kind, const uint8_t *vals, size_t n, size_t after)
{
    if (r->priv_nest) { /* the enclosing array waits in the stack */
        uint32_t l = r->priv_nest_level++;
        r->priv_nest_outer[l].nest = r->priv_nest;
        r->priv_nest_outer[l].rdepth = r->priv_nest_rdepth;
        r->priv_nest_outer[l].outer_key = r->priv_outer_key;
        r->priv_nest_outer[l].outer_len = r->priv_outer_len;
        r->priv_nest_outer[l].outer_pos = r->priv_outer_pos;
        r->priv_nest_outer[l].nest_end = r->priv_nest_end;
    }
    r->priv_nest_rdepth = r->priv_depth;
    r->priv_outer_key = r->priv_key;
    r->priv_outer_len = r->priv_len;
    r->priv_outer_pos = after;
    r->priv_key = vals;
    r->priv_len = n;
    r->priv_nest_end = n;
    r->priv_pos = 0;
    r->priv_nest = kind;
}

static ordo_status leave(ordo_key_reader *r, uint32_t kind)
{
    if (!r)
        return ORDO_ERR_NULL_ARG;
    if (r->priv_err != ORDO_OK)
        return r->priv_err;
    if (r->priv_nest != kind || r->priv_depth != r->priv_nest_rdepth) /* or a record open in it */
        return ordo__stick(&r->priv_err, ORDO_ERR_BAD_STATE);
    if (r->priv_pos != r->priv_len || r->priv_len != r->priv_nest_end) /* values left unread */
        return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
    r->priv_key = r->priv_outer_key;
    r->priv_len = r->priv_outer_len;
    r->priv_pos = r->priv_outer_pos;
    r->priv_nest = 0;
    if (r->priv_nest_level) { /* back in the enclosing array */
        uint32_t l = --r->priv_nest_level;
        r->priv_nest = r->priv_nest_outer[l].nest;
        r->priv_nest_rdepth = r->priv_nest_outer[l].rdepth;
        r->priv_outer_key = r->priv_nest_outer[l].outer_key;
        r->priv_outer_len = r->priv_nest_outer[l].outer_len;
        r->priv_outer_pos = r->priv_nest_outer[l].outer_pos;
        r->priv_nest_end = r->priv_nest_outer[l].nest_end;
    }
    return ORDO_OK;
}

/* One bound key (b[at..at+n), unescaped): kind, and for a bounded end its
 * value (unescaped to b + *w) and inclusion rank. */
static int get_bound(uint8_t *b, size_t at, size_t n, int upper, size_t *w, size_t *vlen,
                     int *inf, int *inc)
{
    size_t pos = at, end = at + n;
    uint8_t kind, rank;
    if (!get_u8(b, end, &pos, &kind) || kind > 1)
        return 0;
    *inf = upper ? kind == 1 : kind == 0;
    if (*inf)
        return pos == end;
    if (!get_nested(b, end, &pos, *w, vlen) || *vlen == 0 || b[*w] != 0x00 ||
        !get_u8(b, end, &pos, &rank) || rank > 1 || pos != end)
        return 0;
    *inc = upper ? rank == 1 : rank == 0;
    *w += *vlen;
    return 1;
}

ordo_status ordo_key_read_range_begin(ordo_key_reader *r, ordo_order o, ordo_type subtype,
                                      void *scratch, size_t cap, size_t *need, unsigned *flags,
                                      bool *is_null)
{
    size_t n = 0, after = 0;
    if (!flags)
        return ORDO_ERR_NULL_ARG;
    ordo_status s = open_nested(r, o, scratch, cap, need, is_null, &n, &after);
    if (s != ORDO_OK || *is_null)
        return s;
    uint8_t *b = scratch, cls;
    size_t pos = 0, w = 0, lo_n = 0, hi_n = 0, len, at;
    int lo_inf = 1, hi_inf = 1, lo_inc = 0, hi_inc = 0, ok = get_u8(b, n, &pos, &cls) && cls <= 1;
    unsigned fl = ORDO_RANGE_EMPTY;
    if (ok && cls == 1) {
        /* each bound key is unescaped to w first, then read there */
        at = w;
        ok = get_nested(b, n, &pos, at, &len) &&
             get_bound(b, at, len, 0, &w, &lo_n, &lo_inf, &lo_inc);
        at = w;
        ok = ok && get_nested(b, n, &pos, at, &len) &&
             get_bound(b, at, len, 1, &w, &hi_n, &hi_inf, &hi_inc);
        fl = (lo_inf ? ORDO_RANGE_LOWER_INF : lo_inc ? ORDO_RANGE_LOWER_INC : 0) |
             (hi_inf ? ORDO_RANGE_UPPER_INF : hi_inc ? ORDO_RANGE_UPPER_INC : 0);
    }
    ok = ok && pos == n;
    if (ok && !lo_inf && !hi_inf) { /* lower below upper, or equal and both inclusive */
        int c = memcmp(b, b + lo_n, lo_n < hi_n ? lo_n : hi_n);
        if (c == 0)
            c = lo_n < hi_n ? -1 : lo_n > hi_n;
        ok = c < 0 || (c == 0 && lo_inc && hi_inc);
    }
    if (ok && (subtype == ORDO_TYPE_INT32 || subtype == ORDO_TYPE_INT64 || subtype == ORDO_TYPE_DATE)) {
        /* canonical: a finite lower bound inclusive, a finite upper one
         * exclusive (dates at +-infinity excepted) */
        size_t wv = subtype == ORDO_TYPE_INT64 ? 9 : 5;
        const uint8_t *lo = b, *hi = b + lo_n;
        int lo_fin = !lo_inf && !(subtype == ORDO_TYPE_DATE && lo_n == 5 &&
                                  (!memcmp(lo + 1, "\0\0\0\0", 4) || !memcmp(lo + 1, "\xff\xff\xff\xff", 4)));
        int hi_fin = !hi_inf && !(subtype == ORDO_TYPE_DATE && hi_n == 5 &&
                                  (!memcmp(hi + 1, "\0\0\0\0", 4) || !memcmp(hi + 1, "\xff\xff\xff\xff", 4)));
        ok = (lo_inf || lo_n == wv) && (hi_inf || hi_n == wv) && !(lo_fin && !lo_inc) &&
             !(hi_fin && hi_inc);
    }
    if (!ok)
        return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
    *flags = fl;
    enter(r, NEST_RANGE, b, w, after);
    if (!lo_inf && !hi_inf) /* each read stays within its own value */
        r->priv_len = lo_n;
    return ORDO_OK;
}

ordo_status ordo_key_read_range_end(ordo_key_reader *r) { return leave(r, NEST_RANGE); }

ordo_status ordo_key_read_array_begin(ordo_key_reader *r, ordo_order o, void *scratch, size_t cap,
                                      size_t *need, size_t *count, bool *is_null)
{
    size_t n = 0, after = 0;
    if (!count)
        return ORDO_ERR_NULL_ARG;
    ordo_status s = open_nested(r, o, scratch, cap, need, is_null, &n, &after);
    if (s != ORDO_OK || *is_null) {
        *count = 0;
        return s;
    }
    uint8_t *b = scratch;
    size_t pos = 0, len = 0;
    int64_t cnt = -1, rank = -1, dim = -1, lb = -1;
    /* elements, count, rank, and for a non-empty array its length and
     * lower bound 1 (one dimension) */
    int ok = get_nested(b, n, &pos, 0, &len) && get_i32(b, n, &pos, &cnt) &&
             get_i32(b, n, &pos, &rank) && cnt >= 0 && rank == (cnt > 0);
    if (ok && cnt > 0)
        ok = get_i32(b, n, &pos, &dim) && get_i32(b, n, &pos, &lb) && dim == cnt && lb == 1;
    /* every element takes at least its presence byte */
    ok = ok && pos == n && (uint64_t)cnt <= len && (cnt > 0 || len == 0);
    if (!ok)
        return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
    *count = (size_t)cnt;
    enter(r, NEST_ARRAY, b, len, after);
    return ORDO_OK;
}

ordo_status ordo_key_read_array_end(ordo_key_reader *r) { return leave(r, NEST_ARRAY); }
