/* Ranges and arrays in the ordered format (SPEC.md §14.17, §14.18): the
 * bounds or elements are written as ordinary fields after the presence
 * byte, then, at the end call, rewritten in place into Schottky's nested
 * tuples. No allocation: the rewrite runs from the last byte back. */
#include "ordo_internal.h"

enum { NEST_RANGE = ORDO__NEST_RANGE, NEST_ARRAY = ORDO__NEST_ARRAY };

/* A piece of the final payload: bytes escaped `depth` times. Escaping d
 * times turns a 00 into 00 followed by d ff bytes and keeps every other
 * byte, so a nested tuple's bytes never need an intermediate copy. */
typedef struct seg {
    const uint8_t *p;
    size_t n;
    unsigned depth;
} seg;

static ordo_status segs_size(const seg *sg, size_t nseg, size_t *total)
{
    size_t t = 0;
    for (size_t i = 0; i < nseg; i++) {
        size_t z = 0, grow;
        for (size_t j = 0; j < sg[i].n; j++)
            z += sg[i].p[j] == 0;
        if (__builtin_mul_overflow(z, (size_t)sg[i].depth, &grow) ||
            __builtin_add_overflow(t, sg[i].n, &t) || __builtin_add_overflow(t, grow, &t))
            return ORDO_ERR_SIZE_OVERFLOW;
    }
    *total = t;
    return ORDO_OK;
}

/* Writes the segments so that they end at `end`, from the last byte back.
 * A segment may point into the key ahead of where it lands (the raw fields):
 * each of its bytes lands at or after where it was, and is read before
 * anything is written there. */
static void segs_put_back(uint8_t *end, const seg *sg, size_t nseg, uint8_t mask)
{
    uint8_t *w = end;
    for (size_t i = nseg; i-- > 0;) {
        for (size_t j = sg[i].n; j-- > 0;) {
            uint8_t b = sg[i].p[j];
            if (b == 0)
                for (unsigned d = 0; d < sg[i].depth; d++)
                    *--w = 0xff ^ mask;
            *--w = b ^ mask;
        }
    }
}

static ordo_status nest_begin(ordo_key *k, ordo_order o, uint32_t kind)
{
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    /* inside an array (or a record in one) a range or array nests; inside
     * a range nothing does */
    if (k->priv_nest && ((ordo__in_nest(k) && k->priv_nest == NEST_RANGE) ||
                         k->priv_nest_level >= ORDO_NEST_MAX_DEPTH - 1))
        return ordo__stick(&k->priv_err, ORDO_ERR_BAD_STATE);
    size_t start = k->priv_len;
    uint8_t mask;
    if (!ordo__key_field(k, o, 0, &mask)) /* counted as the enclosing array's element */
        return k->priv_err;
    if (k->priv_nest) { /* the enclosing one waits in the stack */
        uint32_t l = k->priv_nest_level++;
        k->priv_nest_outer[l].nest = k->priv_nest;
        k->priv_nest_outer[l].flags = k->priv_nest_flags;
        k->priv_nest_outer[l].order = k->priv_nest_order;
        k->priv_nest_outer[l].rdepth = k->priv_nest_rdepth;
        k->priv_nest_outer[l].sub = k->priv_nest_sub;
        k->priv_nest_outer[l].start = k->priv_nest_start;
        k->priv_nest_outer[l].mid = k->priv_nest_mid;
        k->priv_nest_outer[l].count = k->priv_nest_count;
    }
    k->priv_nest_rdepth = k->priv_depth;
    k->priv_nest = kind;
    k->priv_nest_order = mask;
    k->priv_nest_start = start;
    k->priv_nest_mid = 0;
    k->priv_nest_count = 0;
    return ORDO_OK;
}

static uint32_t load_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* An error at the end call: the unfinished range or array (and any that
 * encloses it) is dropped, so the key keeps whole fields only. */
static ordo_status nest_fail(ordo_key *k, ordo_status s)
{
    /* the outermost open one goes too: the field it belongs to is unfinished */
    k->priv_len = k->priv_nest_level ? k->priv_nest_outer[0].start : k->priv_nest_start;
    return ordo__stick(&k->priv_err, s);
}

static int discrete(ordo_type t)
{
    return t == ORDO_TYPE_INT32 || t == ORDO_TYPE_INT64 || t == ORDO_TYPE_DATE;
}

/* How many bounds carry a value. */
static size_t bounded(unsigned flags)
{
    if (flags & ORDO_RANGE_EMPTY)
        return 0;
    return (size_t)!(flags & ORDO_RANGE_LOWER_INF) + !(flags & ORDO_RANGE_UPPER_INF);
}

ordo_status ordo__nest_field(ordo_key *k, ordo_order o, int is_null)
{
    if (o != ORDO_ASC_NULLS_LAST)
        return ordo__stick(&k->priv_err, ORDO_ERR_INVALID_ORDER);
    if (k->priv_nest == NEST_RANGE) {
        if (is_null)
            return ordo__stick(&k->priv_err, ORDO_ERR_NULL_VALUE);
        if (k->priv_nest_count >= bounded(k->priv_nest_flags))
            return ordo__stick(&k->priv_err, ORDO_ERR_BAD_STATE);
        if (k->priv_nest_count == 1)
            k->priv_nest_mid = k->priv_len;
    }
    k->priv_nest_count++;
    return ORDO_OK;
}

ordo_status ordo_key_range_begin(ordo_key *k, ordo_order o, ordo_type subtype, unsigned flags)
{
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    if (flags > 31 || ((flags & ORDO_RANGE_EMPTY) && flags != ORDO_RANGE_EMPTY))
        return ordo__stick(&k->priv_err, ORDO_ERR_INVALID_ARG);
    if (!ordo__type_facts(subtype)->ordered || subtype == ORDO_TYPE_ENCODED)
        return ordo__stick(&k->priv_err, ORDO_ERR_BAD_TYPE);
    ordo_status s = nest_begin(k, o, NEST_RANGE);
    if (s == ORDO_OK) {
        k->priv_nest_flags = flags;
        k->priv_nest_sub = subtype;
    }
    return s;
}

ordo_status ordo_key_array_begin(ordo_key *k, ordo_order o)
{
    return nest_begin(k, o, NEST_ARRAY);
}

/* Rewrites the open range or array's raw fields as the segments, after
 * its presence byte; the key's error if they do not fit. */
static ordo_status nest_finish(ordo_key *k, const seg *sg, size_t nseg)
{
    size_t total, at = k->priv_nest_start + 1;
    ordo_status s = segs_size(sg, nseg, &total);
    if (s == ORDO_OK && (k->priv_cap - at < total))
        s = ORDO_ERR_DST_TOO_SMALL;
    if (s != ORDO_OK)
        return nest_fail(k, s);
    segs_put_back(k->priv_buf + at + total, sg, nseg, (uint8_t)k->priv_nest_order);
    k->priv_len = at + total;
    k->priv_nest = 0;
    if (k->priv_nest_level) { /* back in the enclosing array */
        uint32_t l = --k->priv_nest_level;
        k->priv_nest = k->priv_nest_outer[l].nest;
        k->priv_nest_flags = k->priv_nest_outer[l].flags;
        k->priv_nest_order = k->priv_nest_outer[l].order;
        k->priv_nest_rdepth = k->priv_nest_outer[l].rdepth;
        k->priv_nest_sub = k->priv_nest_outer[l].sub;
        k->priv_nest_start = k->priv_nest_outer[l].start;
        k->priv_nest_mid = k->priv_nest_outer[l].mid;
        k->priv_nest_count = k->priv_nest_outer[l].count;
    }
    return ORDO_OK;
}

static ordo_status nest_end_check(ordo_key *k, uint32_t kind)
{
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    if (k->priv_nest != kind || k->priv_depth != k->priv_nest_rdepth) /* or a record open in it */
        return ordo__stick(&k->priv_err, ORDO_ERR_BAD_STATE);
    return ORDO_OK;
}

static const uint8_t lit_00[] = {0x00}, lit_0000[] = {0x00, 0x00}, lit_0001[] = {0x00, 0x01},
                     lit_000100[] = {0x00, 0x01, 0x00}, lit_000000[] = {0x00, 0x00, 0x00};

ordo_status ordo_key_array_end(ordo_key *k)
{
    ordo_status s = nest_end_check(k, NEST_ARRAY);
    if (s != ORDO_OK)
        return s;
    size_t at = k->priv_nest_start + 1, n = k->priv_len - at;
    if (k->priv_nest_count > INT32_MAX)
        return nest_fail(k, ORDO_ERR_OUT_OF_RANGE);
    /* the array key (Schottky): the elements as a nested tuple, then int32
     * fields count, rank and, for a non-empty array, its length and lower
     * bound (1) */
    uint32_t count = (uint32_t)k->priv_nest_count;
    uint8_t tail[22];
    size_t t = 0;
    tail[t++] = 0x00, tail[t++] = 0x00; /* the elements' terminator */
    uint32_t ints[4] = {count, count ? 1u : 0u, count, 1u};
    for (int i = 0; i < (count ? 4 : 2); i++) {
        tail[t++] = 0x00;
        ordo__store_be32(tail + t, ints[i] ^ ORDO_SIGN32);
        t += 4;
    }
    seg sg[] = {{lit_00, 1, 1}, {k->priv_buf + at, n, 2}, {tail, t, 1}, {lit_0000, 2, 0}};
    return nest_finish(k, sg, sizeof sg / sizeof sg[0]);
}

/* A discrete bound's value v (a whole ASC field, 00 then the value) plus 1
 * in place; dates at +-infinity stay. */
static ordo_status step_up(ordo_type t, uint8_t *v, size_t n)
{
    size_t w = t == ORDO_TYPE_INT64 ? 8 : 4;
    if (n != 1 + w || v[0] != 0x00)
        return ORDO_ERR_BAD_TYPE; /* not a field of the subtype */
    if (w == 4) {
        int32_t x = (int32_t)(load_be32(v + 1) ^ ORDO_SIGN32);
        if (t == ORDO_TYPE_DATE && (x == ORDO_DATE_INFINITY || x == ORDO_DATE_NEG_INFINITY))
            return ORDO_OK;
        if (x == INT32_MAX || (t == ORDO_TYPE_DATE && !ordo__date_ok((int64_t)x + 1)))
            return ORDO_ERR_OUT_OF_RANGE;
        ordo__store_be32(v + 1, (uint32_t)(x + 1) ^ ORDO_SIGN32);
    } else {
        int64_t x = (int64_t)(ordo__load_be64(v + 1) ^ ORDO_SIGN64);
        if (x == INT64_MAX)
            return ORDO_ERR_OUT_OF_RANGE;
        ordo__store_be64(v + 1, (uint64_t)(x + 1) ^ ORDO_SIGN64);
    }
    return ORDO_OK;
}

/* The bounds are whole ASC fields: byte order is value order. */
static int field_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : an < bn ? -1 : an > bn;
}

static int date_infinite(ordo_type t, const uint8_t *v, size_t n)
{
    if (t != ORDO_TYPE_DATE || n != 5)
        return 0;
    uint32_t w = load_be32(v + 1);
    return w == 0 || w == UINT32_MAX;
}

ordo_status ordo_key_range_end(ordo_key *k)
{
    ordo_status s = nest_end_check(k, NEST_RANGE);
    if (s != ORDO_OK)
        return s;
    unsigned fl = k->priv_nest_flags;
    size_t need = bounded(fl), at = k->priv_nest_start + 1;
    if (k->priv_nest_count != need)
        return nest_fail(k, ORDO_ERR_BAD_STATE);
    int lo_inf = (fl & (ORDO_RANGE_LOWER_INF | ORDO_RANGE_EMPTY)) != 0,
        hi_inf = (fl & (ORDO_RANGE_UPPER_INF | ORDO_RANGE_EMPTY)) != 0;
    int lo_inc = !lo_inf && (fl & ORDO_RANGE_LOWER_INC), hi_inc = !hi_inf && (fl & ORDO_RANGE_UPPER_INC);
    uint8_t *lo = k->priv_buf + at, *hi = lo;
    size_t lo_n = 0, hi_n = 0;
    if (!lo_inf && !hi_inf) {
        lo_n = k->priv_nest_mid - at;
        hi = k->priv_buf + k->priv_nest_mid, hi_n = k->priv_len - k->priv_nest_mid;
    } else if (!lo_inf) {
        lo_n = k->priv_len - at;
    } else if (!hi_inf) {
        hi_n = k->priv_len - at;
    }
    /* PostgreSQL's order (make_range): bounds checked and equal bounds
     * made empty first, then a discrete range made canonical, which may
     * make it empty again ((1,2) is [2,2)) */
    int empty = (fl & ORDO_RANGE_EMPTY) != 0;
    if (!empty && !lo_inf && !hi_inf) {
        int c = field_cmp(lo, lo_n, hi, hi_n);
        if (c > 0)
            return nest_fail(k, ORDO_ERR_INVALID_VALUE);
        empty = c == 0 && !(lo_inc && hi_inc);
    }
    ordo_type t = k->priv_nest_sub;
    if (!empty && discrete(t)) { /* PostgreSQL's canonical form: [lower, upper) */
        if (!lo_inf && !lo_inc && !date_infinite(t, lo, lo_n)) {
            if ((s = step_up(t, lo, lo_n)) != ORDO_OK)
                return nest_fail(k, s);
            lo_inc = 1;
        }
        if (!hi_inf && hi_inc && !date_infinite(t, hi, hi_n)) {
            if ((s = step_up(t, hi, hi_n)) != ORDO_OK)
                return nest_fail(k, s);
            hi_inc = 0;
        }
        if (!lo_inf && !hi_inf)
            empty = field_cmp(lo, lo_n, hi, hi_n) == 0 && !(lo_inc && hi_inc);
    }
    if (empty) {
        seg sg[] = {{lit_0000, 2, 1}, {lit_0000, 2, 0}};
        return nest_finish(k, sg, 2);
    }
    /* range key: class 1, then the lower and the upper bound keys, each a
     * nested tuple: kind, and for a bounded end its value (a nested
     * one-field key) and its inclusion rank */
    uint8_t lo_tail[] = {0x00, 0x00, 0x00, (uint8_t)!lo_inc}, hi_tail[] = {0x00, 0x00, 0x00, (uint8_t)hi_inc};
    seg sg[12];
    size_t ns = 0;
    sg[ns++] = (seg){lit_000100, 3, 1};
    if (lo_inf) {
        sg[ns++] = (seg){lit_0000, 2, 2};
    } else {
        sg[ns++] = (seg){lit_000100, 3, 2};
        sg[ns++] = (seg){lo, lo_n, 3};
        sg[ns++] = (seg){lo_tail, 4, 2};
    }
    sg[ns++] = (seg){lit_000000, 3, 1};
    if (hi_inf) {
        sg[ns++] = (seg){lit_0001, 2, 2};
    } else {
        sg[ns++] = (seg){lit_000000, 3, 2};
        sg[ns++] = (seg){hi, hi_n, 3};
        sg[ns++] = (seg){hi_tail, 4, 2};
    }
    sg[ns++] = (seg){lit_0000, 2, 1};
    sg[ns++] = (seg){lit_0000, 2, 0};
    return nest_finish(k, sg, ns);
}

ordo_status ordo_key_encoded(ordo_key *k, const void *field, size_t n)
{
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    if (!field && n)
        return ordo__stick(&k->priv_err, ORDO_ERR_NULL_ARG);
    if (!n)
        return ordo__stick(&k->priv_err, ORDO_ERR_INVALID_VALUE);
    return ordo__key_append(k, field, n);
}
