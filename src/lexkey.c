/* The LexKey row builder: one key into caller memory, part by part. */
/* This file defines the out-of-line functions that ordo_inline.h's macros
 * would rename. */
#define ORDO_NO_INLINE 1
#include "ordo_internal.h"

void ordo_lexkey_init(ordo_lexkey *b, void *buf, size_t cap, unsigned flags)
{
    ordo__lexkey_init_inline(b, buf, cap, flags);
}

/* put's checks in their order, once the fast path has seen one fail (or
 * a NULL payload): the status every caller has always got. */
__attribute__((noinline)) static ordo_status put_slow(ordo_lexkey *b, const void *payload, size_t n)
{
    if (b->priv_err != ORDO_OK)
        return b->priv_err;
    if (b->priv_sealed)
        return ordo__stick(&b->priv_err, ORDO_ERR_BAD_STATE);
    if (!payload && n > 0)
        return ordo__stick(&b->priv_err, ORDO_ERR_NULL_ARG);
    size_t sep = b->priv_parts > 0;
    size_t room = b->priv_cap - b->priv_len;
    if (room < sep || room - sep < n)
        return ordo__stick(&b->priv_err, ORDO_ERR_DST_TOO_SMALL);
    if (sep)
        b->priv_buf[b->priv_len] = 0x00;
    if (n)
        memcpy(b->priv_buf + b->priv_len + sep, payload, n);
    b->priv_len += sep + n;
    b->priv_parts++;
    return ORDO_OK;
}

/* n <= 16 bytes from s to d without a call (a row key's parts mostly are
 * that short): two overlapping loads and stores cover 4..16. */
static inline void copy_short(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n >= 8) {
        uint64_t a, z;
        memcpy(&a, s, 8);
        memcpy(&z, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &z, 8);
    } else if (n >= 4) {
        uint32_t a, z;
        memcpy(&a, s, 4);
        memcpy(&z, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &z, 4);
    } else if (n > 0) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* Appends the separator (after the first part) and the payload, or nothing.
 * The fast path is one test: no sticky error, not sealed, a payload of at
 * most 16 bytes with room for it and its separator; it calls nothing, so it
 * needs no stack frame. Anything else goes to put_slow, which checks in the
 * order (and so with the statuses) the builder has always had. */
static inline ordo_status put(ordo_lexkey *b, const void *payload, size_t n)
{
    if (!b)
        return ORDO_ERR_NULL_ARG;
    size_t len = b->priv_len, sep = b->priv_parts != 0, room = b->priv_cap - len;
    if ((b->priv_err != ORDO_OK) | (b->priv_sealed != 0) | (n > 16) || room < n + sep || !payload)
        return put_slow(b, payload, n);
    uint8_t *d = b->priv_buf + len;
    if (sep)
        d[0] = 0x00;
    copy_short(d + sep, (const uint8_t *)payload, n);
    b->priv_len = len + sep + n;
    b->priv_parts++;
    return ORDO_OK;
}

static int legacy(const ordo_lexkey *b)
{
    return b && (b->priv_flags & ORDO_LEXKEY_LEGACY);
}

static ordo_status put_u64(ordo_lexkey *b, uint64_t w)
{
    uint8_t tmp[8];
    ordo__store_be64(tmp, w);
    return put(b, tmp, 8);
}

ordo_status ordo_lexkey_string(ordo_lexkey *b, const char *s, size_t n) { return put(b, s, n); }
ordo_status ordo_lexkey_bytes(ordo_lexkey *b, const void *p, size_t n) { return put(b, p, n); }

ordo_status ordo_lexkey_uuid(ordo_lexkey *b, const uint8_t uuid[16])
{
    if (!uuid)
        return b ? ordo__stick(&b->priv_err, ORDO_ERR_NULL_ARG) : ORDO_ERR_NULL_ARG;
    return put(b, uuid, 16);
}

ordo_status ordo_lexkey_bool(ordo_lexkey *b, bool v)
{
    uint8_t byte = v ? 0x01 : 0x00;
    return put(b, &byte, 1);
}

ordo_status ordo_lexkey_int64(ordo_lexkey *b, int64_t v) { return put_u64(b, ordo__lexkey_i64_word(v)); }
ordo_status ordo_lexkey_int(ordo_lexkey *b, int64_t v) { return ordo_lexkey_int64(b, v); }
ordo_status ordo_lexkey_time(ordo_lexkey *b, int64_t ns) { return ordo_lexkey_int64(b, ns); }
ordo_status ordo_lexkey_duration(ordo_lexkey *b, int64_t ns) { return ordo_lexkey_int64(b, ns); }
ordo_status ordo_lexkey_uint64(ordo_lexkey *b, uint64_t v) { return put_u64(b, v); }

ordo_status ordo_lexkey_int32(ordo_lexkey *b, int32_t v)
{
    if (!legacy(b))
        return ordo_lexkey_int64(b, v);
    uint8_t tmp[4];
    ordo__store_be32(tmp, (uint32_t)v ^ ORDO_SIGN32);
    return put(b, tmp, 4);
}

ordo_status ordo_lexkey_int16(ordo_lexkey *b, int16_t v)
{
    if (!legacy(b))
        return ordo_lexkey_int64(b, v);
    uint8_t tmp[2];
    ordo__store_be16(tmp, (uint16_t)((uint16_t)v ^ 0x8000u));
    return put(b, tmp, 2);
}

ordo_status ordo_lexkey_int8(ordo_lexkey *b, int8_t v)
{
    if (!legacy(b))
        return ordo_lexkey_int64(b, v);
    uint8_t byte = (uint8_t)((uint8_t)v ^ 0x80u);
    return put(b, &byte, 1);
}

ordo_status ordo_lexkey_uint32(ordo_lexkey *b, uint32_t v)
{
    if (!legacy(b))
        return put_u64(b, v);
    uint8_t tmp[4];
    ordo__store_be32(tmp, v);
    return put(b, tmp, 4);
}

ordo_status ordo_lexkey_uint16(ordo_lexkey *b, uint16_t v)
{
    if (!legacy(b))
        return put_u64(b, v);
    uint8_t tmp[2];
    ordo__store_be16(tmp, v);
    return put(b, tmp, 2);
}

ordo_status ordo_lexkey_uint8(ordo_lexkey *b, uint8_t v)
{
    if (!legacy(b))
        return put_u64(b, v);
    return put(b, &v, 1);
}

ordo_status ordo_lexkey_float64(ordo_lexkey *b, double v) { return put_u64(b, ordo__lexkey_f64_word(v)); }

ordo_status ordo_lexkey_float32(ordo_lexkey *b, float v)
{
    if (!legacy(b))
        return ordo_lexkey_float64(b, (double)v); /* exact widening */
    uint8_t tmp[4];
    ordo__store_be32(tmp, ordo__lexkey_f32_word(v));
    return put(b, tmp, 4);
}

ordo_status ordo_lexkey_nil(ordo_lexkey *b)
{
    static const uint8_t byte = 0x00;
    return put(b, &byte, 1);
}

ordo_status ordo_lexkey_end(ordo_lexkey *b)
{
    static const uint8_t byte = 0xff;
    return put(b, &byte, 1);
}

/* The first/last suffix is not a part: no separator precedes it. */
static ordo_status seal(ordo_lexkey *b, uint8_t suffix)
{
    if (!b)
        return ORDO_ERR_NULL_ARG;
    if (b->priv_err != ORDO_OK)
        return b->priv_err;
    if (b->priv_sealed)
        return ordo__stick(&b->priv_err, ORDO_ERR_BAD_STATE);
    if (b->priv_parts == 0)
        return ordo__stick(&b->priv_err, ORDO_ERR_NO_PARTS);
    if (b->priv_cap - b->priv_len < 1)
        return ordo__stick(&b->priv_err, ORDO_ERR_DST_TOO_SMALL);
    b->priv_buf[b->priv_len++] = suffix;
    b->priv_sealed = 1;
    return ORDO_OK;
}

ordo_status ordo_lexkey_first(ordo_lexkey *b) { return seal(b, 0x00); }
ordo_status ordo_lexkey_last(ordo_lexkey *b) { return seal(b, 0xff); }

ordo_status ordo_lexkey_finish(const ordo_lexkey *b, size_t *len)
{
    return ordo__lexkey_finish_inline(b, len);
}

size_t ordo_lexkey_length(const ordo_lexkey *b) { return ordo__lexkey_length_inline(b); }

ordo_status ordo_lexkey_part_size(ordo_type t, size_t len, unsigned flags, size_t *size)
{
    if (!size)
        return ORDO_ERR_NULL_ARG;
    if (flags & ~ORDO_LEXKEY_LEGACY)
        return ORDO_ERR_INVALID_ARG;
    int w = ordo__lexkey_fixed_width(t, flags);
    if (w < 0)
        return ORDO_ERR_BAD_TYPE;
    *size = w ? (size_t)w : len;
    return ORDO_OK;
}

ordo_status ordo_lexkey_bound(size_t nparts, size_t var_bytes, size_t *bound)
{
    size_t fixed;
    if (!bound)
        return ORDO_ERR_NULL_ARG;
    if (__builtin_mul_overflow(nparts, ORDO_LEXKEY_BOUND(1, 0), &fixed) ||
        __builtin_add_overflow(fixed, var_bytes, bound))
        return ORDO_ERR_SIZE_OVERFLOW;
    return ORDO_OK;
}
