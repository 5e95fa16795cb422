/* The LexKey reader on arbitrary keys and part types: it never reads past
 * the key, and whatever it splits is what the builder writes: building the
 * parts read (nil for a nil part) in the same width gives the same bytes.
 * Input: one byte (bit 0: legacy width; the rest: 1 + n % 6 parts), one
 * byte per part (the type; bit 7: ask whether it is nil), then the key. */
#include "fuzz_util.h"

static const ordo_type types[] = {
    ORDO_TYPE_STRING,  ORDO_TYPE_BYTES,   ORDO_TYPE_UUID,   ORDO_TYPE_BOOL,    ORDO_TYPE_INT8,
    ORDO_TYPE_INT16,   ORDO_TYPE_INT32,   ORDO_TYPE_INT64,  ORDO_TYPE_INT,     ORDO_TYPE_UINT8,
    ORDO_TYPE_UINT16,  ORDO_TYPE_UINT32,  ORDO_TYPE_UINT64, ORDO_TYPE_FLOAT32, ORDO_TYPE_FLOAT64,
    ORDO_TYPE_TIME,    ORDO_TYPE_DURATION, ORDO_TYPE_NIL,   ORDO_TYPE_END,
};
#define NT (sizeof types / sizeof types[0])

/* Reads one part of type t into the builder b: the read's status. */
static ordo_status read_part(ordo_lexkey_reader *r, ordo_lexkey *b, ordo_type t, bool *ask)
{
    bool isnull = false, bv = false;
    int64_t iv = 0;
    uint64_t uv = 0;
    float fv = 0;
    double dv = 0;
    uint8_t u[16];
    const uint8_t *p = NULL;
    size_t n = 0;
    ordo_status s;
    bool *nul = ask ? &isnull : NULL;
    switch (t) {
    case ORDO_TYPE_STRING:
    case ORDO_TYPE_BYTES: s = ordo_lexkey_read_bytes(r, &p, &n, nul); break;
    case ORDO_TYPE_UUID: s = ordo_lexkey_read_uuid(r, u, nul); break;
    case ORDO_TYPE_BOOL: s = ordo_lexkey_read_bool(r, &bv, nul); break;
    case ORDO_TYPE_UINT8:
    case ORDO_TYPE_UINT16:
    case ORDO_TYPE_UINT32:
    case ORDO_TYPE_UINT64: s = ordo_lexkey_read_uint(r, t, &uv, nul); break;
    case ORDO_TYPE_FLOAT32: s = ordo_lexkey_read_float32(r, &fv, nul); break;
    case ORDO_TYPE_FLOAT64: s = ordo_lexkey_read_float64(r, &dv, nul); break;
    case ORDO_TYPE_NIL: s = ordo_lexkey_read_nil(r); break;
    case ORDO_TYPE_END: s = ordo_lexkey_read_end(r); break;
    default: s = ordo_lexkey_read_int(r, t, &iv, nul); break;
    }
    if (s != ORDO_OK)
        return s;
    if (isnull) {
        ordo_lexkey_nil(b);
        return s;
    }
    switch (t) {
    case ORDO_TYPE_STRING:
    case ORDO_TYPE_BYTES: ordo_lexkey_bytes(b, p, n); break;
    case ORDO_TYPE_UUID: ordo_lexkey_uuid(b, u); break;
    case ORDO_TYPE_BOOL: ordo_lexkey_bool(b, bv); break;
    case ORDO_TYPE_INT8: ordo_lexkey_int8(b, (int8_t)iv); break;
    case ORDO_TYPE_INT16: ordo_lexkey_int16(b, (int16_t)iv); break;
    case ORDO_TYPE_INT32: ordo_lexkey_int32(b, (int32_t)iv); break;
    case ORDO_TYPE_INT64: ordo_lexkey_int64(b, iv); break;
    case ORDO_TYPE_INT: ordo_lexkey_int(b, iv); break;
    case ORDO_TYPE_TIME: ordo_lexkey_time(b, iv); break;
    case ORDO_TYPE_DURATION: ordo_lexkey_duration(b, iv); break;
    case ORDO_TYPE_UINT8: ordo_lexkey_uint8(b, (uint8_t)uv); break;
    case ORDO_TYPE_UINT16: ordo_lexkey_uint16(b, (uint16_t)uv); break;
    case ORDO_TYPE_UINT32: ordo_lexkey_uint32(b, (uint32_t)uv); break;
    case ORDO_TYPE_UINT64: ordo_lexkey_uint64(b, uv); break;
    case ORDO_TYPE_FLOAT32: ordo_lexkey_float32(b, fv); break;
    case ORDO_TYPE_FLOAT64: ordo_lexkey_float64(b, dv); break;
    case ORDO_TYPE_NIL: ordo_lexkey_nil(b); break;
    case ORDO_TYPE_END: ordo_lexkey_end(b); break;
    default: break;
    }
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned flags = (data[0] & 1) ? ORDO_LEXKEY_LEGACY : 0;
    size_t np = 1 + (size_t)(data[0] >> 1) % 6;
    if (size < 1 + np)
        return 0;
    const uint8_t *spec = data + 1;
    size_t klen = size - 1 - np;
    /* a copy of exactly klen bytes, so that ASan sees any over-read */
    uint8_t *k = malloc(klen ? klen : 1);
    memcpy(k, data + 1 + np, klen);
    ordo_lexkey_reader r;
    ordo_lexkey_reader_init(&r, k, klen, flags, np);
    size_t cap = klen + 64;
    uint8_t *again = malloc(cap);
    ordo_lexkey b;
    ordo_lexkey_init(&b, again, cap, flags);
    ordo_status s = ORDO_OK;
    for (size_t i = 0; i < np && s == ORDO_OK; i++) {
        ordo_type t = types[(spec[i] & 0x7f) % NT];
        bool ask = (spec[i] & 0x80) != 0;
        size_t before = ordo_lexkey_reader_remaining(&r);
        s = read_part(&r, &b, t, ask ? &ask : NULL);
        if (s == ORDO_ERR_AMBIGUOUS_KEY) { /* not sticky, nothing consumed: read the value */
            CHECK(ordo_lexkey_reader_remaining(&r) == before);
            CHECK(ordo_lexkey_reader_status(&r) == ORDO_OK);
            s = read_part(&r, &b, t, NULL);
        }
        CHECK(ordo_lexkey_reader_remaining(&r) <= klen);
    }
    if (s == ORDO_OK) {
        /* every part read: the whole key, and it is what the builder writes */
        size_t len = 0;
        CHECK(ordo_lexkey_reader_remaining(&r) == 0);
        CHECK(ordo_lexkey_finish(&b, &len) == ORDO_OK);
        CHECK(len == klen && (klen == 0 || memcmp(again, k, klen) == 0));
    } else {
        CHECK(s == ORDO_ERR_MALFORMED_KEY || s == ORDO_ERR_BAD_TYPE);
        CHECK(ordo_lexkey_reader_status(&r) == s);
    }
    free(again);
    free(k);
    return 0;
}
