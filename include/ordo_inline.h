/*
 * ordo: inline fast paths of the row builders (included by ordo.h).
 *
 * Why: a key of a few parts built through out-of-line calls costs a call per
 * part and keeps the builder in memory between them; inlined, a key built
 * into a local buffer folds to a few stores. Each function below does the
 * common case only (no error pending, nothing unusual, room for the whole
 * part) and otherwise calls the library's out-of-line function of the same
 * name, which does every check in its order: the bytes, the statuses and the
 * stickiness are the library's in every case. The exported functions stay;
 * `(ordo_lexkey_int)(b, v)` (the name in parentheses) calls one directly,
 * and defining ORDO_NO_INLINE before including ordo.h turns the macros off.
 */
#ifndef ORDO_INLINE_H
#define ORDO_INLINE_H

#include <string.h>

/* The functions need C99 or C++; the library's own files (ORDO_NO_INLINE)
 * use the init and finish bodies too, so that each is written once. */
#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)

#ifdef __cplusplus
extern "C" {
#endif

static inline void ordo__store_be64(uint8_t *d, uint64_t w)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    w = __builtin_bswap64(w); /* one store, not eight */
    memcpy(d, &w, 8);
#elif defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    memcpy(d, &w, 8);
#else
    for (int i = 0; i < 8; i++)
        d[i] = (uint8_t)(w >> (56 - 8 * i));
#endif
}

/* ---------------------------------------------------- LexKey row builder */

static inline void ordo__lexkey_init_inline(ordo_lexkey *b, void *buf, size_t cap, unsigned flags)
{
    if (!b)
        return;
    b->priv_buf = (uint8_t *)buf;
    b->priv_cap = buf ? cap : 0;
    b->priv_len = 0;
    b->priv_parts = 0;
    b->priv_flags = flags;
    b->priv_sealed = 0;
    b->priv_err = ORDO_OK;
    if (!buf && cap > 0)
        b->priv_err = ORDO_ERR_NULL_ARG;
    else if (flags & ~ORDO_LEXKEY_LEGACY)
        b->priv_err = ORDO_ERR_INVALID_ARG;
}

/* Where a part of n >= 1 bytes goes (its separator written, the length and
 * the part count advanced), or NULL for the checked path. n >= 1 keeps a
 * NULL buffer (capacity 0) out of the fast path. */
static inline uint8_t *ordo__lexkey_take(ordo_lexkey *b, size_t n)
{
    if (!b || ((int)b->priv_err | b->priv_sealed) != 0)
        return NULL;
    /* the fields in locals, stored back one by one: measured faster than
     * updating them in place (bench/RESULTS.md, the row API inline) */
    size_t len = b->priv_len, parts = b->priv_parts, sep = parts != 0, room = b->priv_cap - len;
    if (room < n || room - n < sep)
        return NULL;
    uint8_t *d = b->priv_buf + len;
    if (sep)
        *d++ = 0x00;
    b->priv_len = len + sep + n;
    b->priv_parts = parts + 1;
    return d;
}

/* An 8-byte word part (big-endian), or 0 for the checked path. */
static inline int ordo__lexkey_put64(ordo_lexkey *b, uint64_t w)
{
    uint8_t *d = ordo__lexkey_take(b, 8);
    if (!d)
        return 0;
    ordo__store_be64(d, w);
    return 1;
}

static inline ordo_status ordo__lexkey_string_inline(ordo_lexkey *b, const char *s, size_t n)
{
    uint8_t *d;
    if (s && n && (d = ordo__lexkey_take(b, n)) != NULL) {
        memcpy(d, s, n);
        return ORDO_OK;
    }
    return (ordo_lexkey_string)(b, s, n);
}

static inline ordo_status ordo__lexkey_bytes_inline(ordo_lexkey *b, const void *p, size_t n)
{
    uint8_t *d;
    if (p && n && (d = ordo__lexkey_take(b, n)) != NULL) {
        memcpy(d, p, n);
        return ORDO_OK;
    }
    return (ordo_lexkey_bytes)(b, p, n);
}

static inline ordo_status ordo__lexkey_bool_inline(ordo_lexkey *b, bool v)
{
    uint8_t *d = ordo__lexkey_take(b, 1);
    if (!d)
        return (ordo_lexkey_bool)(b, v);
    d[0] = v ? 0x01 : 0x00;
    return ORDO_OK;
}

/* int64 (and int, time, duration): the value with its sign bit flipped. */
static inline ordo_status ordo__lexkey_int64_inline(ordo_lexkey *b, int64_t v)
{
    return ordo__lexkey_put64(b, (uint64_t)v ^ (UINT64_C(1) << 63)) ? ORDO_OK
                                                                    : (ordo_lexkey_int64)(b, v);
}

static inline ordo_status ordo__lexkey_uint64_inline(ordo_lexkey *b, uint64_t v)
{
    return ordo__lexkey_put64(b, v) ? ORDO_OK : (ordo_lexkey_uint64)(b, v);
}

/* Narrow integers widen to 64 bits in `lexkey`; lexkey-legacy keeps them
 * narrow, out of line. */
static inline int ordo__lexkey_wide(const ordo_lexkey *b)
{
    return b && !(b->priv_flags & ORDO_LEXKEY_LEGACY);
}

static inline ordo_status ordo__lexkey_int32_inline(ordo_lexkey *b, int32_t v)
{
    if (ordo__lexkey_wide(b) && ordo__lexkey_put64(b, (uint64_t)(int64_t)v ^ (UINT64_C(1) << 63)))
        return ORDO_OK;
    return (ordo_lexkey_int32)(b, v);
}

static inline ordo_status ordo__lexkey_uint32_inline(ordo_lexkey *b, uint32_t v)
{
    if (ordo__lexkey_wide(b) && ordo__lexkey_put64(b, v))
        return ORDO_OK;
    return (ordo_lexkey_uint32)(b, v);
}

static inline ordo_status ordo__lexkey_finish_inline(const ordo_lexkey *b, size_t *len)
{
    if (!b)
        return ORDO_ERR_NULL_ARG;
    if (len)
        *len = b->priv_len;
    if (b->priv_err != ORDO_OK)
        return b->priv_err;
    return b->priv_parts ? ORDO_OK : ORDO_ERR_NO_PARTS;
}

static inline size_t ordo__lexkey_length_inline(const ordo_lexkey *b)
{
    return b ? b->priv_len : 0;
}

#ifndef ORDO_NO_INLINE
#define ordo_lexkey_init(b, buf, cap, flags) ordo__lexkey_init_inline(b, buf, cap, flags)
#define ordo_lexkey_string(b, s, n) ordo__lexkey_string_inline(b, s, n)
#define ordo_lexkey_bytes(b, p, n) ordo__lexkey_bytes_inline(b, p, n)
#define ordo_lexkey_bool(b, v) ordo__lexkey_bool_inline(b, v)
#define ordo_lexkey_int64(b, v) ordo__lexkey_int64_inline(b, v)
#define ordo_lexkey_int(b, v) ordo__lexkey_int64_inline(b, v)
#define ordo_lexkey_time(b, v) ordo__lexkey_int64_inline(b, v)
#define ordo_lexkey_duration(b, v) ordo__lexkey_int64_inline(b, v)
#define ordo_lexkey_uint64(b, v) ordo__lexkey_uint64_inline(b, v)
#define ordo_lexkey_int32(b, v) ordo__lexkey_int32_inline(b, v)
#define ordo_lexkey_uint32(b, v) ordo__lexkey_uint32_inline(b, v)
#define ordo_lexkey_finish(b, len) ordo__lexkey_finish_inline(b, len)
#define ordo_lexkey_length(b) ordo__lexkey_length_inline(b)
#endif

/* ---------------------------------------------------- ordered row builder */

static inline void ordo__key_init_inline(ordo_key *k, void *buf, size_t cap, size_t len)
{
    if (!k)
        return;
    k->priv_buf = (uint8_t *)buf;
    k->priv_cap = buf ? cap : 0;
    k->priv_len = 0;
    k->priv_err = ORDO_OK;
    k->priv_flip = 0;
    k->priv_depth = 0;
    k->priv_packed = 0;
    k->priv_nest = 0;
    k->priv_nest_rdepth = 0;
    k->priv_nest_level = 0;
    if (!buf && cap)
        k->priv_err = ORDO_ERR_NULL_ARG;
    else if (len > k->priv_cap)
        k->priv_err = ORDO_ERR_INVALID_ARG;
    else
        k->priv_len = len;
}

/* Where a fixed-width field's n payload bytes go (its presence byte written
 * unless packed, the length advanced), or NULL for the checked path: an
 * error pending, a record, range or array open (orders mirror or nest
 * there), a bad order, no room. *mask: 0xff for DESC, else 00. */
static inline uint8_t *ordo__key_take(ordo_key *k, ordo_order o, size_t n, uint8_t *mask)
{
    if (!k || ((int)k->priv_err | k->priv_depth | k->priv_nest) != 0 ||
        (unsigned)o > (unsigned)ORDO_DESC_NULLS_LAST)
        return NULL;
    size_t lead = k->priv_packed ? 0 : 1;
    if (k->priv_cap - k->priv_len < n + lead)
        return NULL;
    uint8_t *d = k->priv_buf + k->priv_len;
    if (lead) /* present: 01 for NULLS FIRST (ASC 0, DESC 2), 00 for NULLS LAST */
        *d++ = (uint8_t)(((unsigned)o & 1u) ^ 1u);
    *mask = (unsigned)o >= (unsigned)ORDO_DESC_NULLS_FIRST ? 0xff : 0x00;
    k->priv_len += lead + n;
    return d;
}

/* An 8-byte word field (big-endian, complemented for DESC), or 0 for the
 * checked path. */
static inline int ordo__key_put64(ordo_key *k, ordo_order o, uint64_t w)
{
    uint8_t mask;
    uint8_t *d = ordo__key_take(k, o, 8, &mask);
    if (!d)
        return 0;
    ordo__store_be64(d, w ^ (UINT64_C(0) - (uint64_t)(mask & 1u)));
    return 1;
}

static inline ordo_status ordo__key_int64_inline(ordo_key *k, ordo_order o, int64_t v)
{
    return ordo__key_put64(k, o, (uint64_t)v ^ (UINT64_C(1) << 63)) ? ORDO_OK
                                                                    : (ordo_key_int64)(k, o, v);
}

static inline ordo_status ordo__key_uint64_inline(ordo_key *k, ordo_order o, uint64_t v)
{
    return ordo__key_put64(k, o, v) ? ORDO_OK : (ordo_key_uint64)(k, o, v);
}

static inline ordo_status ordo__key_int32_inline(ordo_key *k, ordo_order o, int32_t v)
{
    uint8_t mask;
    uint8_t *d = ordo__key_take(k, o, 4, &mask);
    if (!d)
        return (ordo_key_int32)(k, o, v);
    uint32_t w = ((uint32_t)v ^ UINT32_C(0x80000000)) ^ (UINT32_C(0) - (uint32_t)(mask & 1u));
    for (int i = 0; i < 4; i++)
        d[i] = (uint8_t)(w >> (24 - 8 * i));
    return ORDO_OK;
}

static inline ordo_status ordo__key_bool_inline(ordo_key *k, ordo_order o, bool v)
{
    uint8_t mask;
    uint8_t *d = ordo__key_take(k, o, 1, &mask);
    if (!d)
        return (ordo_key_bool)(k, o, v);
    d[0] = (uint8_t)((v ? 0x01 : 0x00) ^ mask);
    return ORDO_OK;
}

static inline ordo_status ordo__key_finish_inline(const ordo_key *k, size_t *len)
{
    if (!k)
        return ORDO_ERR_NULL_ARG;
    if (len)
        *len = k->priv_len;
    if (k->priv_err == ORDO_OK && (k->priv_depth || k->priv_nest))
        return ORDO_ERR_BAD_STATE; /* a record, range or array not ended */
    return k->priv_err;
}

#ifndef ORDO_NO_INLINE
#define ordo_key_init(k, buf, cap, len) ordo__key_init_inline(k, buf, cap, len)
#define ordo_key_int64(k, o, v) ordo__key_int64_inline(k, o, v)
#define ordo_key_uint64(k, o, v) ordo__key_uint64_inline(k, o, v)
#define ordo_key_int32(k, o, v) ordo__key_int32_inline(k, o, v)
#define ordo_key_bool(k, o, v) ordo__key_bool_inline(k, o, v)
#define ordo_key_finish(k, len) ordo__key_finish_inline(k, len)
#endif

#ifdef __cplusplus
}
#endif

#endif /* C99 or C++ */
#endif /* ORDO_INLINE_H */
