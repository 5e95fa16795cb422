/* The ordered format's row builder, size helpers and prefix bound. */
/* This file defines the out-of-line functions that ordo_inline.h's macros
 * would rename. */
#define ORDO_NO_INLINE 1
#include "ordo_internal.h"

static int order_ok(ordo_order o) { return (unsigned)o <= ORDO_DESC_NULLS_LAST; }
static int desc(ordo_order o) { return o >= ORDO_DESC_NULLS_FIRST; }
static int nulls_first(ordo_order o) { return o == ORDO_ASC_NULLS_FIRST || o == ORDO_DESC_NULLS_FIRST; }

/* Presence bytes: NULLS FIRST 00 null / 01 present; NULLS LAST 01 / 00. */
static uint8_t present_byte(ordo_order o) { return nulls_first(o) ? 0x01 : 0x00; }
static uint8_t null_byte(ordo_order o) { return nulls_first(o) ? 0x00 : 0x01; }

void ordo_key_init(ordo_key *k, void *buf, size_t cap, size_t len)
{
    ordo__key_init_inline(k, buf, cap, len);
}

void ordo_key_init_packed(ordo_key *k, void *buf, size_t cap, size_t len)
{
    ordo_key_init(k, buf, cap, len);
    if (k)
        k->priv_packed = 1;
}

/* The order a field is written in: mirrored inside a descending record;
 * as given inside a range or an array (always ascending there). */
static ordo_order written_order(const ordo_key *k, ordo_order o)
{
    return ordo__in_nest(k) ? o : ordo__mirror(k->priv_flip, k->priv_depth, o);
}

/* Checks the order and the room for 1 + n bytes (the key is usable). */
static ordo_status room(ordo_key *k, ordo_order o, size_t n)
{
    if (!order_ok(o))
        return ordo__stick(&k->priv_err, ORDO_ERR_INVALID_ORDER);
    if (k->priv_cap - k->priv_len < 1 || k->priv_cap - k->priv_len - 1 < n)
        return ordo__stick(&k->priv_err, ORDO_ERR_DST_TOO_SMALL);
    return ORDO_OK;
}

/* A fixed-width field's start: in a packed key no presence byte (and
 * room for n bytes only). */
static uint8_t *fixed_field(ordo_key *k, ordo_order o, size_t n, uint8_t *mask)
{
    o = written_order(k, o);
    size_t lead = k->priv_packed ? 0 : 1;
    if (!order_ok(o)) {
        ordo__stick(&k->priv_err, ORDO_ERR_INVALID_ORDER);
        return NULL;
    }
    if (ordo__in_nest(k) && ordo__nest_field(k, o, 0) != ORDO_OK)
        return NULL;
    if (k->priv_cap - k->priv_len < lead || k->priv_cap - k->priv_len - lead < n) {
        ordo__stick(&k->priv_err, ORDO_ERR_DST_TOO_SMALL);
        return NULL;
    }
    uint8_t *p = k->priv_buf + k->priv_len;
    if (lead)
        p[0] = present_byte(o);
    *mask = desc(o) ? 0xff : 0x00;
    k->priv_len += lead + n;
    return p + lead;
}

/* The variable-width fields and records: a packed key cannot hold them. */
uint8_t *ordo__key_field(ordo_key *k, ordo_order o, size_t n, uint8_t *mask)
{
    if (k->priv_packed) {
        ordo__stick(&k->priv_err, ORDO_ERR_BAD_TYPE);
        return NULL;
    }
    return fixed_field(k, o, n, mask);
}

/* One present field: presence byte, then the ASC payload, complemented
 * for DESC. */
static ordo_status field(ordo_key *k, ordo_order o, const uint8_t *payload, size_t n)
{
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    uint8_t mask;
    uint8_t *d = fixed_field(k, o, n, &mask);
    if (!d)
        return k->priv_err;
    for (size_t i = 0; i < n; i++)
        d[i] = payload[i] ^ mask;
    return ORDO_OK;
}

ordo_status ordo_key_null(ordo_key *k, ordo_order o)
{
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    if (k->priv_packed)
        return ordo__stick(&k->priv_err, ORDO_ERR_NULL_VALUE);
    o = written_order(k, o);
    if (ordo__in_nest(k) && order_ok(o) && ordo__nest_field(k, o, 1) != ORDO_OK)
        return k->priv_err;
    ordo_status s = room(k, o, 0);
    if (s != ORDO_OK)
        return s;
    k->priv_buf[k->priv_len++] = null_byte(o);
    return ORDO_OK;
}

static ordo_status be64(ordo_key *k, ordo_order o, uint64_t w)
{
    uint8_t t[8];
    ordo__store_be64(t, w);
    return field(k, o, t, 8);
}

static ordo_status be32(ordo_key *k, ordo_order o, uint32_t w)
{
    uint8_t t[4];
    ordo__store_be32(t, w);
    return field(k, o, t, 4);
}

static ordo_status be16(ordo_key *k, ordo_order o, uint16_t w)
{
    uint8_t t[2];
    ordo__store_be16(t, w);
    return field(k, o, t, 2);
}

static ordo_status one(ordo_key *k, ordo_order o, uint8_t b) { return field(k, o, &b, 1); }

ordo_status ordo_key_bool(ordo_key *k, ordo_order o, bool v) { return one(k, o, v ? 1 : 0); }
ordo_status ordo_key_int8(ordo_key *k, ordo_order o, int8_t v) { return one(k, o, (uint8_t)((uint8_t)v ^ 0x80u)); }
ordo_status ordo_key_int16(ordo_key *k, ordo_order o, int16_t v) { return be16(k, o, (uint16_t)((uint16_t)v ^ 0x8000u)); }
ordo_status ordo_key_int32(ordo_key *k, ordo_order o, int32_t v) { return be32(k, o, (uint32_t)v ^ ORDO_SIGN32); }
ordo_status ordo_key_int64(ordo_key *k, ordo_order o, int64_t v) { return be64(k, o, (uint64_t)v ^ ORDO_SIGN64); }
ordo_status ordo_key_uint8(ordo_key *k, ordo_order o, uint8_t v) { return one(k, o, v); }
ordo_status ordo_key_uint16(ordo_key *k, ordo_order o, uint16_t v) { return be16(k, o, v); }
ordo_status ordo_key_uint32(ordo_key *k, ordo_order o, uint32_t v) { return be32(k, o, v); }
ordo_status ordo_key_uint64(ordo_key *k, ordo_order o, uint64_t v) { return be64(k, o, v); }
ordo_status ordo_key_enum(ordo_key *k, ordo_order o, uint32_t rank) { return be32(k, o, rank); }
ordo_status ordo_key_pg_lsn(ordo_key *k, ordo_order o, uint64_t lsn) { return be64(k, o, lsn); }
ordo_status ordo_key_float32(ordo_key *k, ordo_order o, float v) { return be32(k, o, ordo__ordered_f32_word(v)); }
ordo_status ordo_key_float64(ordo_key *k, ordo_order o, double v) { return be64(k, o, ordo__ordered_f64_word(v)); }

ordo_status ordo_key_int128(ordo_key *k, ordo_order o, int64_t hi, uint64_t lo)
{
    uint8_t t[16];
    ordo__store_be64(t, (uint64_t)hi ^ ORDO_SIGN64);
    ordo__store_be64(t + 8, lo);
    return field(k, o, t, 16);
}

static ordo_status raw(ordo_key *k, ordo_order o, const uint8_t *p, size_t n)
{
    if (!p)
        return k ? ordo__stick(&k->priv_err, ORDO_ERR_NULL_ARG) : ORDO_ERR_NULL_ARG;
    return field(k, o, p, n);
}

ordo_status ordo_key_uuid(ordo_key *k, ordo_order o, const uint8_t u[16]) { return raw(k, o, u, 16); }
ordo_status ordo_key_macaddr(ordo_key *k, ordo_order o, const uint8_t m[6]) { return raw(k, o, m, 6); }
ordo_status ordo_key_macaddr8(ordo_key *k, ordo_order o, const uint8_t m[8]) { return raw(k, o, m, 8); }

/* Values are checked before the order and the room (the notes' rule). */
static ordo_status value_error(ordo_key *k, ordo_status s)
{
    if (!k)
        return ORDO_ERR_NULL_ARG;
    return k->priv_err != ORDO_OK ? k->priv_err : ordo__stick(&k->priv_err, s);
}

ordo_status ordo_key_date(ordo_key *k, ordo_order o, int32_t d)
{
    if (!ordo__date_ok(d))
        return value_error(k, ORDO_ERR_OUT_OF_RANGE);
    return ordo_key_int32(k, o, d);
}

ordo_status ordo_key_time(ordo_key *k, ordo_order o, int64_t us)
{
    if (!ordo__time_ok(us))
        return value_error(k, ORDO_ERR_OUT_OF_RANGE);
    return ordo_key_int64(k, o, us);
}

ordo_status ordo_key_timestamp(ordo_key *k, ordo_order o, int64_t us)
{
    if (!ordo__timestamp_ok(us))
        return value_error(k, ORDO_ERR_OUT_OF_RANGE);
    return ordo_key_int64(k, o, us);
}

ordo_status ordo_key_timestamptz(ordo_key *k, ordo_order o, int64_t us)
{
    return ordo_key_timestamp(k, o, us);
}

ordo_status ordo_key_timetz(ordo_key *k, ordo_order o, int64_t local_us, int32_t east)
{
    if (!ordo__time_ok(local_us) || !ordo__tz_offset_ok(east))
        return value_error(k, ORDO_ERR_OUT_OF_RANGE);
    uint8_t t[12];
    ordo__store_be64(t, (uint64_t)(local_us - (int64_t)east * 1000000) ^ ORDO_SIGN64);
    ordo__store_be32(t + 8, (uint32_t)(-east) ^ ORDO_SIGN32);
    return field(k, o, t, 12);
}

ordo_status ordo_key_interval(ordo_key *k, ordo_order o, int32_t months, int32_t days,
                              int64_t us)
{
    __extension__ typedef __int128 i128;
    i128 v;
    if (months == INT32_MIN && days == INT32_MIN && us == INT64_MIN)
        v = -(((i128)1) << 126) * 2; /* -infinity: the int128 minimum */
    else if (months == INT32_MAX && days == INT32_MAX && us == INT64_MAX)
        v = ~(-(((i128)1) << 126) * 2); /* infinity: the int128 maximum */
    else
        v = (i128)us + (i128)86400000000 * ((i128)days + (i128)30 * months);
    return ordo_key_int128(k, o, (int64_t)(v >> 64), (uint64_t)v);
}

static size_t zeros(const uint8_t *p, size_t n)
{
    size_t z = 0;
    for (const uint8_t *q = n ? memchr(p, 0, n) : NULL; q; q = memchr(q + 1, 0, n - (size_t)(q + 1 - p)))
        z++;
    return z;
}

ordo_status ordo_key_bytes(ordo_key *k, ordo_order o, const void *src, size_t n)
{
    const uint8_t *p = src;
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (!p && n)
        return ordo__stick(&k->priv_err, ORDO_ERR_NULL_ARG);
    size_t z = zeros(p, n), need;
    if (__builtin_add_overflow(n, z + 2, &need))
        return value_error(k, ORDO_ERR_SIZE_OVERFLOW);
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    uint8_t mask;
    uint8_t *d = ordo__key_field(k, o, need, &mask);
    if (!d)
        return k->priv_err;
    for (size_t i = 0; i < n; i++)
        d += ordo__escape_byte(d, p[i], mask);
    d[0] = mask, d[1] = mask; /* terminator 00 00 */
    return ORDO_OK;
}

ordo_status ordo_key_text(ordo_key *k, ordo_order o, const char *s, size_t n)
{
    return ordo_key_bytes(k, o, s, n);
}

ordo_status ordo_key_finish(const ordo_key *k, size_t *len)
{
    return ordo__key_finish_inline(k, len);
}

ordo_status ordo__key_append(ordo_key *k, const void *field, size_t n)
{
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    if (ordo__in_nest(k)) { /* an element of a range or an array: an ASC NULLS LAST field */
        uint8_t pb = n ? ((const uint8_t *)field)[0] : 0xff;
        if (pb > 1)
            return ordo__stick(&k->priv_err, ORDO_ERR_INVALID_VALUE);
        if (ordo__nest_field(k, ORDO_ASC_NULLS_LAST, pb == 1) != ORDO_OK)
            return k->priv_err;
    }
    if (k->priv_cap - k->priv_len < n)
        return ordo__stick(&k->priv_err, ORDO_ERR_DST_TOO_SMALL);
    memcpy(k->priv_buf + k->priv_len, field, n);
    k->priv_len += n;
    return ORDO_OK;
}

ordo_status ordo_key_record_begin(ordo_key *k, ordo_order o)
{
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    /* a record may be an array's element, never a range's bound */
    if (k->priv_depth >= ORDO_RECORD_MAX_DEPTH ||
        (ordo__in_nest(k) && k->priv_nest != ORDO__NEST_ARRAY))
        return ordo__stick(&k->priv_err, ORDO_ERR_BAD_STATE);
    uint8_t mask;
    if (!ordo__key_field(k, o, 0, &mask))
        return k->priv_err;
    ordo__record_push(&k->priv_flip, &k->priv_depth, mask & 1);
    return ORDO_OK;
}

ordo_status ordo_key_record_end(ordo_key *k)
{
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (k->priv_err != ORDO_OK)
        return k->priv_err;
    if (!k->priv_depth || (k->priv_nest && k->priv_nest_rdepth >= k->priv_depth))
        return ordo__stick(&k->priv_err, ORDO_ERR_BAD_STATE); /* a range or array opened in it */
    k->priv_depth--;
    return ORDO_OK;
}

ordo_status ordo_key_field_size(ordo_type t, const void *p, size_t n, size_t *size)
{
    if (!size)
        return ORDO_ERR_NULL_ARG;
    if (t == ORDO_TYPE_NUMERIC)
        return ordo__numeric_size(p, n, size);
    if (t == ORDO_TYPE_BIT)
        return ordo__bits_size(p, n, size);
    if (t == ORDO_TYPE_ENCODED) { /* its own size: at least the presence byte */
        *size = n;
        return n ? ORDO_OK : ORDO_ERR_INVALID_VALUE;
    }
    if (t == ORDO_TYPE_INET || t == ORDO_TYPE_CIDR)
        return ordo__inet_size(p, size); /* p is an ordo_inet */
    if (t == ORDO_TYPE_BYTES || t == ORDO_TYPE_STRING) {
        if (!p && n)
            return ORDO_ERR_NULL_ARG;
        size_t z = zeros(p, n);
        if (__builtin_add_overflow(n, z + 3, size))
            return ORDO_ERR_SIZE_OVERFLOW;
        return ORDO_OK;
    }
    size_t fixed = ordo__type_facts(t)->ordered_size;
    if (!fixed)
        return ORDO_ERR_BAD_TYPE;
    *size = fixed;
    return ORDO_OK;
}

ordo_status ordo_key_packed_size(ordo_type t, size_t *size)
{
    if (!size)
        return ORDO_ERR_NULL_ARG;
    size_t w = ordo__packed_width(t);
    if (!w)
        return ORDO_ERR_BAD_TYPE;
    *size = w;
    return ORDO_OK;
}

ordo_status ordo_key_bytes_bound(size_t n, size_t *size)
{
    if (!size)
        return ORDO_ERR_NULL_ARG;
    if (n > (SIZE_MAX - 3) / 2)
        return ORDO_ERR_SIZE_OVERFLOW;
    *size = 2 * n + 3;
    return ORDO_OK;
}

ordo_status ordo_key_bound(size_t nfields, size_t var_bytes, size_t *bound)
{
    size_t fixed, var;
    if (!bound)
        return ORDO_ERR_NULL_ARG;
    if (__builtin_mul_overflow(nfields, ORDO_KEY_BOUND(1, 0), &fixed) ||
        __builtin_mul_overflow(var_bytes, (size_t)2, &var) ||
        __builtin_add_overflow(fixed, var, bound))
        return ORDO_ERR_SIZE_OVERFLOW;
    return ORDO_OK;
}

ordo_status ordo_prefix_upper_bound(const void *prefix, size_t n, void *dst, size_t cap,
                                    size_t *dst_len)
{
    const uint8_t *p = prefix;
    if (!dst_len || (!p && n) || (!dst && cap))
        return ORDO_ERR_NULL_ARG;
    while (n && p[n - 1] == 0xff)
        n--;
    if (n == 0)
        return ORDO_ERR_NO_BOUND;
    if (*dst_len > cap || cap - *dst_len < n)
        return ORDO_ERR_DST_TOO_SMALL;
    uint8_t *d = (uint8_t *)dst + *dst_len;
    memmove(d, p, n - 1); /* in-place use is allowed */
    d[n - 1] = (uint8_t)(p[n - 1] + 1);
    *dst_len += n;
    return ORDO_OK;
}
