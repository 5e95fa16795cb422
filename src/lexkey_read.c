/* The LexKey reader: a key split back into parts by their types
 * (SPEC.md §5.1). LexKey escapes nothing, so each read decides the split
 * from the type alone and refuses when the bytes do not settle it. */
#include "ordo_internal.h"

#include <math.h>

/* Width of a variable part (string, bytes): up to the next 00, or to the
 * end of the key when it is the last part. */
#define VAR_WIDTH SIZE_MAX

void ordo_lexkey_reader_init(ordo_lexkey_reader *r, const void *key, size_t len, unsigned flags,
                             size_t nparts)
{
    if (!r)
        return;
    r->priv_key = (const uint8_t *)key;
    r->priv_len = key ? len : 0;
    r->priv_pos = 0;
    r->priv_parts = nparts;
    r->priv_done = 0;
    r->priv_flags = flags;
    r->priv_err = ORDO_OK;
    if (!key && len > 0)
        r->priv_err = ORDO_ERR_NULL_ARG;
    else if (flags & ~ORDO_LEXKEY_LEGACY)
        r->priv_err = ORDO_ERR_INVALID_ARG;
    else if (nparts == 0)
        r->priv_err = ORDO_ERR_NO_PARTS;
}

/* The value of a part's bytes, or 0 when the part type never writes them. */
typedef int (*value_fn)(const uint8_t *p, size_t n, unsigned flags, ordo_type t, void *out);

/* The next part: its separator, then `width` bytes (or VAR_WIDTH) checked by
 * value(), or the nil byte when is_null is given. Exactly one explanation
 * must fit; both is ORDO_ERR_AMBIGUOUS_KEY (nothing consumed), none is
 * ORDO_ERR_MALFORMED_KEY (sticky). out receives the value (out_size bytes,
 * zeroed for nil); *at and *n (may be NULL) where its bytes are. */
static ordo_status next_part(ordo_lexkey_reader *r, size_t width, value_fn value, ordo_type t,
                             void *out, size_t out_size, bool *is_null, size_t *at, size_t *n)
{
    if (!r)
        return ORDO_ERR_NULL_ARG;
    if (r->priv_err != ORDO_OK)
        return r->priv_err;
    if (r->priv_done >= r->priv_parts)
        return ordo__stick(&r->priv_err, ORDO_ERR_BAD_STATE);
    const uint8_t *k = r->priv_key;
    size_t p = r->priv_pos, len = r->priv_len;
    int last = r->priv_done + 1 == r->priv_parts;
    if (r->priv_done > 0) { /* the separator written before every later part */
        if (p >= len || k[p] != 0x00)
            return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
        p++;
    }
    size_t rest = len - p, vn = 0;
    int val_ok;
    if (width == VAR_WIDTH) {
        const uint8_t *z = last || !rest ? NULL : memchr(k + p, 0x00, rest);
        val_ok = last || z != NULL;
        vn = last ? rest : z ? (size_t)(z - (k + p)) : 0;
    } else {
        vn = width;
        val_ok = rest >= width && (last ? rest == width : rest > width && k[p + width] == 0x00);
    }
    uint8_t tmp[16] = {0};
    if (val_ok && value)
        val_ok = value(k + p, vn, r->priv_flags, t, tmp);
    int nil_ok = is_null && rest >= 1 && k[p] == 0x00 &&
                 (last ? rest == 1 : rest > 1 && k[p + 1] == 0x00);
    if (val_ok && nil_ok)
        return ORDO_ERR_AMBIGUOUS_KEY; /* not sticky: the caller may know more */
    if (!val_ok && !nil_ok)
        return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
    if (out_size)
        memcpy(out, nil_ok ? (uint8_t[16]){0} : tmp, out_size);
    if (is_null)
        *is_null = nil_ok;
    if (at)
        *at = p;
    if (n)
        *n = nil_ok ? 0 : vn;
    r->priv_pos = p + (nil_ok ? 1 : vn);
    r->priv_done++;
    return ORDO_OK;
}

static uint64_t load_be(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = (v << 8) | p[i];
    return v;
}

/* Native width of an integer part; 8 for the 64-bit ones; 0 for others. */
static size_t int_width(ordo_type t)
{
    switch (t) {
    case ORDO_TYPE_INT8:
    case ORDO_TYPE_UINT8: return 1;
    case ORDO_TYPE_INT16:
    case ORDO_TYPE_UINT16: return 2;
    case ORDO_TYPE_INT32:
    case ORDO_TYPE_UINT32: return 4;
    case ORDO_TYPE_INT64:
    case ORDO_TYPE_INT:
    case ORDO_TYPE_TIME:
    case ORDO_TYPE_DURATION:
    case ORDO_TYPE_UINT64: return 8;
    default: return 0;
    }
}

static int int_value(const uint8_t *p, size_t n, unsigned flags, ordo_type t, void *out)
{
    (void)flags;
    unsigned bits = (unsigned)(8 * n);
    uint64_t sign = UINT64_C(1) << (bits - 1), w = load_be(p, n) ^ sign;
    /* sign-extend the native word; then a canonical narrow part must fit its type */
    int64_t v = (w & sign) && bits < 64 ? (int64_t)(w | ~((sign << 1) - 1)) : (int64_t)w;
    unsigned native = (unsigned)(8 * int_width(t));
    if (native < 64 && (v < -(INT64_C(1) << (native - 1)) || v >= (INT64_C(1) << (native - 1))))
        return 0;
    memcpy(out, &v, sizeof v);
    return 1;
}

static int uint_value(const uint8_t *p, size_t n, unsigned flags, ordo_type t, void *out)
{
    (void)flags;
    uint64_t v = load_be(p, n);
    unsigned native = (unsigned)(8 * int_width(t));
    if (native < 64 && v >> native)
        return 0;
    memcpy(out, &v, sizeof v);
    return 1;
}

static ordo_status read_integer(ordo_lexkey_reader *r, ordo_type t, int is_signed, void *v,
                                bool *is_null)
{
    int is_u = t >= ORDO_TYPE_UINT8 && t <= ORDO_TYPE_UINT64;
    size_t w = int_width(t);
    if (!r || !v)
        return ORDO_ERR_NULL_ARG;
    if (r->priv_err != ORDO_OK)
        return r->priv_err;
    if (!w || is_u == is_signed)
        return ordo__stick(&r->priv_err, ORDO_ERR_BAD_TYPE);
    if (!(r->priv_flags & ORDO_LEXKEY_LEGACY))
        w = 8;
    return next_part(r, w, is_signed ? int_value : uint_value, t, v, 8, is_null, NULL, NULL);
}

ordo_status ordo_lexkey_read_int(ordo_lexkey_reader *r, ordo_type t, int64_t *v, bool *is_null)
{
    return read_integer(r, t, 1, v, is_null);
}

ordo_status ordo_lexkey_read_uint(ordo_lexkey_reader *r, ordo_type t, uint64_t *v, bool *is_null)
{
    return read_integer(r, t, 0, v, is_null);
}

/* The inverse of the float rule (SPEC.md §3.7) for one word: the NaN word
 * is NaN, 0 is -0.0 (the XOR branch), a set top bit the XOR branch, else
 * the NOT branch; a NaN, or a NOT-branch result that is not below zero
 * (7fff...ff, which would be -0.0), was never written. */
static int f64_value(const uint8_t *p, size_t n, unsigned flags, ordo_type t, void *out)
{
    (void)n, (void)flags, (void)t;
    uint64_t w = load_be(p, 8), bits = (w & ORDO_SIGN64) || w == 0 ? w ^ ORDO_SIGN64 : ~w;
    double d;
    if (w == ORDO_LEXKEY_NAN64) {
        d = NAN;
    } else {
        memcpy(&d, &bits, sizeof d);
        if (isnan(d) || (!(w & ORDO_SIGN64) && w && !(d < 0))) /* the NOT branch is x < 0 only */
            return 0;
    }
    memcpy(out, &d, sizeof d);
    return 1;
}

static int f32_value(const uint8_t *p, size_t n, unsigned flags, ordo_type t, void *out)
{
    float f;
    if (n == 8) { /* canonical: a float64 that must be a float32 */
        double d;
        if (!f64_value(p, n, flags, t, &d))
            return 0;
        f = (float)d;
        if (!isnan(d) && (double)f != d)
            return 0;
    } else {
        uint32_t w = (uint32_t)load_be(p, 4);
        uint32_t bits = (w & ORDO_SIGN32) || w == 0 ? w ^ ORDO_SIGN32 : ~w;
        if (w == ORDO_LEXKEY_NAN32) {
            f = NAN;
        } else {
            memcpy(&f, &bits, sizeof f);
            if (isnan(f) || (!(w & ORDO_SIGN32) && w && !(f < 0))) /* NOT branch: x < 0 only */
                return 0;
        }
    }
    memcpy(out, &f, sizeof f);
    return 1;
}

ordo_status ordo_lexkey_read_float64(ordo_lexkey_reader *r, double *v, bool *is_null)
{
    if (!v)
        return ORDO_ERR_NULL_ARG;
    return next_part(r, 8, f64_value, ORDO_TYPE_FLOAT64, v, sizeof *v, is_null, NULL, NULL);
}

ordo_status ordo_lexkey_read_float32(ordo_lexkey_reader *r, float *v, bool *is_null)
{
    if (!v || !r)
        return ORDO_ERR_NULL_ARG;
    size_t w = (r->priv_flags & ORDO_LEXKEY_LEGACY) ? 4 : 8;
    return next_part(r, w, f32_value, ORDO_TYPE_FLOAT32, v, sizeof *v, is_null, NULL, NULL);
}

static int bool_value(const uint8_t *p, size_t n, unsigned flags, ordo_type t, void *out)
{
    (void)n, (void)flags, (void)t;
    if (p[0] > 1)
        return 0;
    *(bool *)out = p[0] == 1;
    return 1;
}

ordo_status ordo_lexkey_read_bool(ordo_lexkey_reader *r, bool *v, bool *is_null)
{
    if (!v)
        return ORDO_ERR_NULL_ARG;
    return next_part(r, 1, bool_value, ORDO_TYPE_BOOL, v, sizeof *v, is_null, NULL, NULL);
}

static int copy_value(const uint8_t *p, size_t n, unsigned flags, ordo_type t, void *out)
{
    (void)flags, (void)t;
    memcpy(out, p, n);
    return 1;
}

ordo_status ordo_lexkey_read_uuid(ordo_lexkey_reader *r, uint8_t uuid[16], bool *is_null)
{
    if (!uuid)
        return ORDO_ERR_NULL_ARG;
    return next_part(r, 16, copy_value, ORDO_TYPE_UUID, uuid, 16, is_null, NULL, NULL);
}

ordo_status ordo_lexkey_read_bytes(ordo_lexkey_reader *r, const uint8_t **p, size_t *n,
                                   bool *is_null)
{
    size_t at = 0, len = 0;
    if (!p || !n)
        return ORDO_ERR_NULL_ARG;
    ordo_status s = next_part(r, VAR_WIDTH, NULL, ORDO_TYPE_BYTES, NULL, 0, is_null, &at, &len);
    if (s == ORDO_OK) {
        *p = len ? r->priv_key + at : NULL;
        *n = len;
    }
    return s;
}

static int byte_value(const uint8_t *p, size_t n, unsigned flags, ordo_type t, void *out)
{
    (void)n, (void)flags, (void)out;
    return p[0] == (t == ORDO_TYPE_END ? 0xff : 0x00);
}

ordo_status ordo_lexkey_read_nil(ordo_lexkey_reader *r)
{
    return next_part(r, 1, byte_value, ORDO_TYPE_NIL, NULL, 0, NULL, NULL, NULL);
}

ordo_status ordo_lexkey_read_end(ordo_lexkey_reader *r)
{
    return next_part(r, 1, byte_value, ORDO_TYPE_END, NULL, 0, NULL, NULL, NULL);
}

size_t ordo_lexkey_reader_remaining(const ordo_lexkey_reader *r)
{
    return r ? r->priv_len - r->priv_pos : 0;
}

ordo_status ordo_lexkey_reader_status(const ordo_lexkey_reader *r)
{
    return r ? r->priv_err : ORDO_ERR_NULL_ARG;
}
