/* The ordered format's decoder: fields back in schema order, rejecting
 * anything the builder could not have written. */
#include "ordo_internal.h"

void ordo_key_reader_init(ordo_key_reader *r, const void *key, size_t len)
{
    if (!r)
        return;
    r->priv_key = key;
    r->priv_len = key ? len : 0;
    r->priv_pos = 0;
    r->priv_err = (!key && len) ? ORDO_ERR_NULL_ARG : ORDO_OK;
    r->priv_flip = 0;
    r->priv_depth = 0;
    r->priv_packed = 0;
    r->priv_nest = 0;
    r->priv_outer_key = NULL;
    r->priv_outer_len = r->priv_outer_pos = 0;
    r->priv_nest_end = 0;
    r->priv_nest_rdepth = 0;
    r->priv_nest_level = 0;
}

void ordo_key_reader_init_packed(ordo_key_reader *r, const void *key, size_t len)
{
    ordo_key_reader_init(r, key, len);
    if (r)
        r->priv_packed = 1;
}

/* Steps back over the field of an n-byte payload just read (a value the
 * builder never writes): its presence byte too, unless packed. */
static void unread(ordo_key_reader *r, size_t n)
{
    r->priv_pos -= n + !r->priv_packed;
}

size_t ordo_key_reader_remaining(const ordo_key_reader *r)
{
    return r ? r->priv_len - r->priv_pos : 0;
}

ordo_status ordo_key_reader_status(const ordo_key_reader *r)
{
    return r ? r->priv_err : ORDO_ERR_NULL_ARG;
}

/* ff when the field at this depth was written descending (orders mirror
 * inside descending records), else 00. */
static uint8_t desc_mask(const ordo_key_reader *r, ordo_order o)
{
    return ordo__read_order(r, o) >= ORDO_DESC_NULLS_FIRST ? 0xff : 0x00;
}

/* Reads the presence byte and, for a present field, n payload bytes with
 * DESC undone into out. *is_null tells which. */
static ordo_status read_field_bytes(ordo_key_reader *r, ordo_order o, uint8_t *out, size_t n,
                                    bool *is_null)
{
    if (!r || !is_null)
        return ORDO_ERR_NULL_ARG;
    if (r->priv_err != ORDO_OK)
        return r->priv_err;
    o = ordo__read_order(r, o);
    if ((unsigned)o > ORDO_DESC_NULLS_LAST || (ordo__reading_nest(r) && o != ORDO_ASC_NULLS_LAST))
        return ordo__stick(&r->priv_err, ORDO_ERR_INVALID_ORDER);
    if (r->priv_nest == 1 && r->priv_pos == r->priv_len) /* a range's upper value: its bytes only */
        r->priv_len = r->priv_nest_end;
    if (r->priv_packed) { /* no presence byte; n == 0: a variable field or a record */
        if (n == 0)
            return ordo__stick(&r->priv_err, ORDO_ERR_BAD_TYPE);
        if (r->priv_len - r->priv_pos < n)
            return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
        uint8_t m = o >= ORDO_DESC_NULLS_FIRST ? 0xff : 0x00;
        for (size_t i = 0; i < n; i++)
            out[i] = r->priv_key[r->priv_pos + i] ^ m;
        *is_null = false;
        r->priv_pos += n;
        return ORDO_OK;
    }
    if (r->priv_pos >= r->priv_len)
        return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
    int nf = o == ORDO_ASC_NULLS_FIRST || o == ORDO_DESC_NULLS_FIRST;
    uint8_t pb = r->priv_key[r->priv_pos];
    if (pb == (nf ? 0x00 : 0x01)) {
        if (r->priv_nest == 1) /* a range's values are never NULL */
            return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
        r->priv_pos++;
        *is_null = true;
        memset(out, 0, n);
        return ORDO_OK;
    }
    if (pb != (nf ? 0x01 : 0x00))
        return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
    if (r->priv_len - r->priv_pos - 1 < n)
        return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
    uint8_t mask = o >= ORDO_DESC_NULLS_FIRST ? 0xff : 0x00;
    for (size_t i = 0; i < n; i++)
        out[i] = r->priv_key[r->priv_pos + 1 + i] ^ mask;
    *is_null = false;
    r->priv_pos += 1 + n;
    return ORDO_OK;
}

ordo_status ordo__read_open(ordo_key_reader *r, ordo_order o, bool *is_null, const uint8_t **k,
                            size_t *avail, uint8_t *mask)
{
    uint8_t none;
    size_t start = r->priv_pos;
    ordo_status s = read_field_bytes(r, o, &none, 0, is_null);
    if (s != ORDO_OK || *is_null)
        return s;
    r->priv_pos = start; /* readers move past the field only on success */
    *k = r->priv_key + start;
    *avail = r->priv_len - start;
    *mask = desc_mask(r, o);
    return *avail < 2 ? (r->priv_err = ORDO_ERR_MALFORMED_KEY) : ORDO_OK;
}

ordo_status ordo__read_text_open(ordo_key_reader *r, ordo_order o, const char *dst, size_t cap,
                                 size_t *len, bool *is_null, const uint8_t **k, size_t *avail,
                                 uint8_t *mask)
{
    if (!r || !len || !is_null || (!dst && cap))
        return ORDO_ERR_NULL_ARG;
    ordo_status st = ordo__read_open(r, o, is_null, k, avail, mask);
    if (st == ORDO_OK && *is_null)
        *len = 0;
    return st;
}

ordo_status ordo_key_read_bool(ordo_key_reader *r, ordo_order o, bool *v, bool *is_null)
{
    uint8_t b;
    ordo_status s = read_field_bytes(r, o, &b, 1, is_null);
    if (s != ORDO_OK)
        return s;
    if (b > 1) {
        unread(r, 1);
        return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
    }
    if (v)
        *v = b == 1;
    return ORDO_OK;
}

static uint64_t be(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

static size_t int_width(ordo_type t)
{
    switch (t) {
    case ORDO_TYPE_INT8: return 1;
    case ORDO_TYPE_INT16: return 2;
    case ORDO_TYPE_INT32:
    case ORDO_TYPE_DATE: return 4;
    case ORDO_TYPE_INT64:
    case ORDO_TYPE_TIME_OF_DAY:
    case ORDO_TYPE_TIMESTAMP:
    case ORDO_TYPE_TIMESTAMPTZ: return 8;
    default: return 0;
    }
}

ordo_status ordo_key_read_int(ordo_key_reader *r, ordo_order o, ordo_type t, int64_t *v,
                              bool *is_null)
{
    uint8_t b[8];
    size_t w = int_width(t);
    if (!w)
        return r ? ordo__stick(&r->priv_err, ORDO_ERR_BAD_TYPE) : ORDO_ERR_NULL_ARG;
    ordo_status s = read_field_bytes(r, o, b, w, is_null);
    if (s != ORDO_OK)
        return s;
    uint64_t u = be(b, w), sign = UINT64_C(1) << (8 * w - 1);
    /* u = v XOR sign in w bytes: v = (u - sign) as a w-byte signed value */
    int64_t x = (int64_t)(u - sign);
    if (*is_null)
        x = 0;
    int bad = 0;
    if (!*is_null) {
        if (t == ORDO_TYPE_DATE)
            bad = !ordo__date_ok(x);
        else if (t == ORDO_TYPE_TIME_OF_DAY)
            bad = !ordo__time_ok(x);
        else if (t == ORDO_TYPE_TIMESTAMP || t == ORDO_TYPE_TIMESTAMPTZ)
            bad = !ordo__timestamp_ok(x);
    }
    if (bad) {
        unread(r, w);
        return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
    }
    if (v)
        *v = x;
    return ORDO_OK;
}

ordo_status ordo_key_read_uint(ordo_key_reader *r, ordo_order o, ordo_type t, uint64_t *v,
                               bool *is_null)
{
    size_t w = t == ORDO_TYPE_UINT8 ? 1 : t == ORDO_TYPE_UINT16 ? 2
             : (t == ORDO_TYPE_UINT32 || t == ORDO_TYPE_ENUM) ? 4
             : (t == ORDO_TYPE_UINT64 || t == ORDO_TYPE_PG_LSN) ? 8 : 0;
    uint8_t b[8];
    if (!w)
        return r ? ordo__stick(&r->priv_err, ORDO_ERR_BAD_TYPE) : ORDO_ERR_NULL_ARG;
    ordo_status s = read_field_bytes(r, o, b, w, is_null);
    if (s == ORDO_OK && v)
        *v = be(b, w);
    return s;
}

ordo_status ordo_key_read_int128(ordo_key_reader *r, ordo_order o, int64_t *hi, uint64_t *lo,
                                 bool *is_null)
{
    uint8_t b[16];
    ordo_status s = read_field_bytes(r, o, b, 16, is_null);
    if (s != ORDO_OK)
        return s;
    if (hi)
        *hi = *is_null ? 0 : (int64_t)(be(b, 8) ^ ORDO_SIGN64);
    if (lo)
        *lo = be(b + 8, 8);
    return ORDO_OK;
}

ordo_status ordo_key_read_float64(ordo_key_reader *r, ordo_order o, double *v, bool *is_null)
{
    uint8_t b[8];
    ordo_status s = read_field_bytes(r, o, b, 8, is_null);
    if (s != ORDO_OK)
        return s;
    uint64_t w = be(b, 8), bits;
    double d = 0;
    if (!*is_null) {
        /* canonical words only: the one NaN (all ones), no -0 pattern */
        if (w == UINT64_C(0x7fffffffffffffff)) {
            unread(r, 8);
            return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
        }
        bits = (w & ORDO_SIGN64) ? w ^ ORDO_SIGN64 : ~w;
        memcpy(&d, &bits, 8);
        if (d != d && w != ~UINT64_C(0)) {
            unread(r, 8);
            return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
        }
    }
    if (v)
        *v = d;
    return ORDO_OK;
}

ordo_status ordo_key_read_float32(ordo_key_reader *r, ordo_order o, float *v, bool *is_null)
{
    uint8_t b[4];
    ordo_status s = read_field_bytes(r, o, b, 4, is_null);
    if (s != ORDO_OK)
        return s;
    uint32_t w = (uint32_t)be(b, 4), bits;
    float f = 0;
    if (!*is_null) {
        if (w == UINT32_C(0x7fffffff)) {
            unread(r, 4);
            return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
        }
        bits = (w & ORDO_SIGN32) ? w ^ ORDO_SIGN32 : ~w;
        memcpy(&f, &bits, 4);
        if (f != f && w != ~UINT32_C(0)) {
            unread(r, 4);
            return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
        }
    }
    if (v)
        *v = f;
    return ORDO_OK;
}

ordo_status ordo_key_read_timetz(ordo_key_reader *r, ordo_order o, int64_t *local_us,
                                 int32_t *east, bool *is_null)
{
    uint8_t b[12];
    ordo_status s = read_field_bytes(r, o, b, 12, is_null);
    if (s != ORDO_OK)
        return s;
    int64_t e = 0, local = 0;
    if (!*is_null) {
        /* int64 throughout: a hostile key may hold any words */
        int64_t utc = (int64_t)(be(b, 8) ^ ORDO_SIGN64);
        e = -(int64_t)(int32_t)((uint32_t)be(b + 8, 4) ^ ORDO_SIGN32);
        if (!ordo__tz_offset_ok(e) || __builtin_add_overflow(utc, e * 1000000, &local) ||
            !ordo__time_ok(local)) {
            unread(r, 12);
            return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
        }
    }
    if (local_us)
        *local_us = local;
    if (east)
        *east = (int32_t)e;
    return ORDO_OK;
}

ordo_status ordo_key_read_fixed(ordo_key_reader *r, ordo_order o, ordo_type t, uint8_t *out,
                                bool *is_null)
{
    size_t w = t == ORDO_TYPE_UUID ? 16 : t == ORDO_TYPE_MACADDR ? 6 : t == ORDO_TYPE_MACADDR8 ? 8 : 0;
    uint8_t b[16];
    if (!w)
        return r ? ordo__stick(&r->priv_err, ORDO_ERR_BAD_TYPE) : ORDO_ERR_NULL_ARG;
    ordo_status s = read_field_bytes(r, o, b, w, is_null);
    if (s == ORDO_OK && out)
        memcpy(out, b, w);
    return s;
}

ordo_status ordo_key_read_bytes(ordo_key_reader *r, ordo_order o, void *dst, size_t cap,
                                size_t *len, bool *is_null)
{
    uint8_t none;
    if (!len || (!dst && cap))
        return ORDO_ERR_NULL_ARG;
    size_t start = r ? r->priv_pos : 0;
    ordo_status s = read_field_bytes(r, o, &none, 0, is_null);
    if (s != ORDO_OK)
        return s;
    if (*is_null) {
        *len = 0;
        return ORDO_OK;
    }
    /* First pass: find the terminator, check escapes, count the bytes. */
    const uint8_t *k = r->priv_key;
    uint8_t mask = desc_mask(r, o);
    size_t i = r->priv_pos, n = 0;
    for (;;) {
        if (i >= r->priv_len) {
            r->priv_pos = start;
            return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
        }
        uint8_t c = k[i] ^ mask;
        if (c != 0) {
            n++, i++;
            continue;
        }
        if (i + 1 >= r->priv_len) {
            r->priv_pos = start;
            return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
        }
        uint8_t next = k[i + 1] ^ mask;
        if (next == 0x00)
            break; /* terminator */
        if (next != 0xff) {
            r->priv_pos = start;
            return ordo__stick(&r->priv_err, ORDO_ERR_MALFORMED_KEY);
        }
        n++, i += 2;
    }
    if (n > cap) { /* not sticky: the caller may grow dst and read again */
        r->priv_pos = start;
        *len = n;
        return ORDO_ERR_DST_TOO_SMALL;
    }
    uint8_t *d = dst;
    size_t j = r->priv_pos;
    for (size_t w = 0; w < n; w++) {
        uint8_t c = k[j] ^ mask;
        d[w] = c;
        j += c == 0 ? 2 : 1;
    }
    r->priv_pos = i + 2;
    *len = n;
    return ORDO_OK;
}

ordo_status ordo_key_read_record_begin(ordo_key_reader *r, ordo_order o, bool *is_null)
{
    uint8_t none;
    if (r && r->priv_err == ORDO_OK &&
        (r->priv_depth >= ORDO_RECORD_MAX_DEPTH ||
         (ordo__reading_nest(r) && r->priv_nest != ORDO__NEST_ARRAY)))
        return ordo__stick(&r->priv_err, ORDO_ERR_BAD_STATE);
    ordo_status s = read_field_bytes(r, o, &none, 0, is_null);
    if (s != ORDO_OK || *is_null)
        return s;
    ordo_order eff = ordo__read_order(r, o);
    ordo__record_push(&r->priv_flip, &r->priv_depth, eff >= ORDO_DESC_NULLS_FIRST);
    return ORDO_OK;
}

ordo_status ordo_key_read_record_end(ordo_key_reader *r)
{
    if (!r)
        return ORDO_ERR_NULL_ARG;
    if (r->priv_err != ORDO_OK)
        return r->priv_err;
    if (!r->priv_depth || (r->priv_nest && r->priv_nest_rdepth >= r->priv_depth))
        return ordo__stick(&r->priv_err, ORDO_ERR_BAD_STATE);
    r->priv_depth--;
    return ORDO_OK;
}
