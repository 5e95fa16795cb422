/* The ordered-format decoder on arbitrary keys and schemas: it never reads
 * past the key, and whatever it accepts is canonical: building the decoded
 * values again with the same orders gives the same bytes. A first byte of
 * c0 or more reads and builds packed keys instead (SPEC.md §16): no NULLs,
 * variable-width reads refused. Ranges (of int32, discrete, and numeric)
 * and arrays (of int32 and text) are read whole, then built again; arrays
 * of enums, records and int4ranges element by element. */
#include "fuzz_util.h"

/* pseudo-types of this harness for the nested fields */
#define T_RANGE_I32 ((ordo_type)200)
#define T_RANGE_NUM ((ordo_type)201)
#define T_ARRAY_I32 ((ordo_type)202)
#define T_ARRAY_TEXT ((ordo_type)203)
#define T_ARRAY_ENUM ((ordo_type)204)
#define T_ARRAY_REC ((ordo_type)205)   /* record(integer, text)[] */
#define T_ARRAY_RANGE ((ordo_type)206) /* int4range[] */
#define MAXV 8

/* An array of enums, records or ranges read element by element (nested
 * begin/end calls) while a second builder writes it again; appended to b
 * whole when the read worked (1), else 0. */
static int element_array(ordo_key_reader *r, ordo_key *b, ordo_type t, ordo_order o, int packed)
{
    static uint8_t scratch[4096], inner[4096], tb[16384];
    const ordo_order al = ORDO_ASC_NULLS_LAST;
    size_t n = 0, wn = 0;
    bool isnull = false;
    ordo_status s = ordo_key_read_array_begin(r, o, scratch, sizeof scratch, NULL, &n, &isnull);
    if (s != ORDO_OK) {
        CHECK(!packed || s == ORDO_ERR_MALFORMED_KEY || s == ORDO_ERR_BAD_TYPE);
        return 0;
    }
    if (isnull) {
        ordo_key_null(b, o);
        return 1;
    }
    ordo_key w;
    ordo_key_init(&w, tb, sizeof tb, 0);
    CHECK(ordo_key_array_begin(&w, o) == ORDO_OK);
    for (size_t i = 0; i < n; i++) {
        int64_t iv;
        uint64_t uv;
        char text[64];
        size_t tl;
        unsigned fl;
        if (t == T_ARRAY_ENUM) {
            if (ordo_key_read_uint(r, al, ORDO_TYPE_ENUM, &uv, &isnull) != ORDO_OK)
                return 0;
            isnull ? ordo_key_null(&w, al) : ordo_key_enum(&w, al, (uint32_t)uv);
        } else if (t == T_ARRAY_REC) {
            if (ordo_key_read_record_begin(r, al, &isnull) != ORDO_OK)
                return 0;
            if (isnull) {
                ordo_key_null(&w, al);
                continue;
            }
            ordo_key_record_begin(&w, al);
            if (ordo_key_read_int(r, al, ORDO_TYPE_INT32, &iv, &isnull) != ORDO_OK)
                return 0;
            isnull ? ordo_key_null(&w, al) : ordo_key_int32(&w, al, (int32_t)iv);
            if (ordo_key_read_bytes(r, al, text, sizeof text, &tl, &isnull) != ORDO_OK)
                return 0;
            isnull ? ordo_key_null(&w, al) : ordo_key_text(&w, al, text, tl);
            if (ordo_key_read_record_end(r) != ORDO_OK)
                return 0;
            ordo_key_record_end(&w);
        } else {
            if (ordo_key_read_range_begin(r, al, ORDO_TYPE_INT32, inner, sizeof inner, NULL, &fl,
                                          &isnull) != ORDO_OK)
                return 0;
            if (isnull) {
                ordo_key_null(&w, al);
                continue;
            }
            ordo_key_range_begin(&w, al, ORDO_TYPE_INT32, fl);
            int nb = (fl & ORDO_RANGE_EMPTY) ? 0 : !(fl & ORDO_RANGE_LOWER_INF) + !(fl & ORDO_RANGE_UPPER_INF);
            for (int k = 0; k < nb; k++) {
                if (ordo_key_read_int(r, al, ORDO_TYPE_INT32, &iv, &isnull) != ORDO_OK)
                    return 0;
                ordo_key_int32(&w, al, (int32_t)iv);
            }
            if (ordo_key_read_range_end(r) != ORDO_OK)
                return 0;
            CHECK(ordo_key_range_end(&w) == ORDO_OK);
        }
    }
    if (ordo_key_read_array_end(r) != ORDO_OK)
        return 0;
    CHECK(ordo_key_array_end(&w) == ORDO_OK);
    CHECK(ordo_key_finish(&w, &wn) == ORDO_OK);
    ordo_key_encoded(b, tb, wn);
    return 1;
}

/* Reads one range or array field and writes it again into b: 1 when both
 * worked, 0 when the reader refused it (packed keys: BAD_TYPE). */
static int nested(ordo_key_reader *r, ordo_key *b, ordo_type t, ordo_order o, int packed)
{
    static uint8_t scratch[4096];
    char vals[MAXV][64];
    size_t lens[MAXV];
    int64_t ints[MAXV];
    bool nulls[MAXV], isnull = false;
    size_t n = 0;
    unsigned fl = 0;
    int range = t == T_RANGE_I32 || t == T_RANGE_NUM;
    int num = t == T_RANGE_NUM || t == T_ARRAY_TEXT;
    ordo_type sub = t == T_RANGE_I32 ? ORDO_TYPE_INT32 : ORDO_TYPE_NUMERIC;
    ordo_status s = range ? ordo_key_read_range_begin(r, o, sub, scratch, sizeof scratch, NULL, &fl, &isnull)
                          : ordo_key_read_array_begin(r, o, scratch, sizeof scratch, NULL, &n, &isnull);
    if (s != ORDO_OK) {
        CHECK(!packed || s == ORDO_ERR_MALFORMED_KEY || s == ORDO_ERR_BAD_TYPE);
        return 0;
    }
    if (isnull) {
        ordo_key_null(b, o);
        return 1;
    }
    if (range)
        n = (fl & ORDO_RANGE_EMPTY) ? 0 : (size_t)!(fl & ORDO_RANGE_LOWER_INF) + !(fl & ORDO_RANGE_UPPER_INF);
    if (n > MAXV)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (t == T_RANGE_NUM)
            s = ordo_key_read_numeric(r, ORDO_ASC_NULLS_LAST, vals[i], sizeof vals[i], &lens[i], &nulls[i]);
        else if (num)
            s = ordo_key_read_bytes(r, ORDO_ASC_NULLS_LAST, vals[i], sizeof vals[i], &lens[i], &nulls[i]);
        else
            s = ordo_key_read_int(r, ORDO_ASC_NULLS_LAST, ORDO_TYPE_INT32, &ints[i], &nulls[i]);
        if (s != ORDO_OK)
            return 0;
        CHECK(!(range && nulls[i]));
    }
    if ((range ? ordo_key_read_range_end(r) : ordo_key_read_array_end(r)) != ORDO_OK)
        return 0;
    if (range)
        CHECK(ordo_key_range_begin(b, o, sub, fl) == ORDO_OK);
    else
        CHECK(ordo_key_array_begin(b, o) == ORDO_OK);
    for (size_t i = 0; i < n; i++) {
        if (nulls[i])
            ordo_key_null(b, ORDO_ASC_NULLS_LAST);
        else if (t == T_RANGE_NUM)
            CHECK(ordo_key_numeric(b, ORDO_ASC_NULLS_LAST, vals[i], lens[i]) == ORDO_OK);
        else if (num)
            ordo_key_bytes(b, ORDO_ASC_NULLS_LAST, vals[i], lens[i]);
        else
            ordo_key_int32(b, ORDO_ASC_NULLS_LAST, (int32_t)ints[i]);
    }
    CHECK((range ? ordo_key_range_end(b) : ordo_key_array_end(b)) == ORDO_OK);
    return 1;
}

static const ordo_type types[] = {
    ORDO_TYPE_BOOL,    ORDO_TYPE_INT8,     ORDO_TYPE_INT16,     ORDO_TYPE_INT32,
    ORDO_TYPE_INT64,   ORDO_TYPE_UINT8,    ORDO_TYPE_UINT32,    ORDO_TYPE_UINT64,
    ORDO_TYPE_FLOAT32, ORDO_TYPE_FLOAT64,  ORDO_TYPE_BYTES,     ORDO_TYPE_UUID,
    ORDO_TYPE_DATE,    ORDO_TYPE_TIME_OF_DAY, ORDO_TYPE_TIMESTAMP, ORDO_TYPE_INT128,
    ORDO_TYPE_MACADDR, ORDO_TYPE_ENUM,     ORDO_TYPE_NUMERIC,   ORDO_TYPE_TIMETZ,
    ORDO_TYPE_INET,    ORDO_TYPE_CIDR,     ORDO_TYPE_BIT,       T_RANGE_I32,
    T_RANGE_NUM,       T_ARRAY_I32,        T_ARRAY_TEXT,        T_ARRAY_ENUM,
    T_ARRAY_REC,       T_ARRAY_RANGE,
};
#define NT (sizeof types / sizeof types[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t nf = 1 + data[0] % 6;
    if (size < 1 + nf)
        return 0;
    const uint8_t *spec = data + 1, *key = data + 1 + nf;
    size_t klen = size - 1 - nf;
    /* a copy of exactly klen bytes, so that ASan sees any over-read */
    uint8_t *k = malloc(klen ? klen : 1);
    memcpy(k, key, klen);
    int packed = data[0] >= 0xc0;
    ordo_key_reader r;
    uint8_t *again = malloc(klen + 64);
    ordo_key b;
    if (packed) {
        ordo_key_reader_init_packed(&r, k, klen);
        ordo_key_init_packed(&b, again, klen + 64, 0);
    } else {
        ordo_key_reader_init(&r, k, klen);
        ordo_key_init(&b, again, klen + 64, 0);
    }
    size_t stopped = SIZE_MAX;
    for (size_t f = 0; f < nf; f++) {
        ordo_type t = types[spec[f] % NT];
        ordo_order o = (ordo_order)(spec[f] >> 6);
        bool isnull = false, bv = false;
        int64_t iv = 0, hi = 0;
        uint64_t uv = 0, lo = 0;
        double dv = 0;
        float fv = 0;
        uint8_t raw[16], bytes[64];
        ordo_inet in;
        size_t blen = 0;
        ordo_status s;
        if (t >= T_RANGE_I32 && t <= T_ARRAY_RANGE) {
            size_t before = ordo_key_reader_remaining(&r);
            if (!(t >= T_ARRAY_ENUM ? element_array(&r, &b, t, o, packed) : nested(&r, &b, t, o, packed))) {
                /* the reader may stop inside the field: compare up to it */
                stopped = klen - before;
                break;
            }
            continue;
        }
        switch (t) {
        case ORDO_TYPE_BOOL: s = ordo_key_read_bool(&r, o, &bv, &isnull); break;
        case ORDO_TYPE_FLOAT32: s = ordo_key_read_float32(&r, o, &fv, &isnull); break;
        case ORDO_TYPE_FLOAT64: s = ordo_key_read_float64(&r, o, &dv, &isnull); break;
        case ORDO_TYPE_BYTES: s = ordo_key_read_bytes(&r, o, bytes, sizeof bytes, &blen, &isnull); break;
        case ORDO_TYPE_NUMERIC:
            s = ordo_key_read_numeric(&r, o, (char *)bytes, sizeof bytes, &blen, &isnull);
            break;
        case ORDO_TYPE_BIT:
            s = ordo_key_read_bit_string(&r, o, (char *)bytes, sizeof bytes, &blen, &isnull);
            break;
        case ORDO_TYPE_INET:
        case ORDO_TYPE_CIDR:
            s = ordo_key_read_inet(&r, o, t == ORDO_TYPE_CIDR, &in, &isnull);
            break;
        case ORDO_TYPE_TIMETZ: {
            int32_t east = 0;
            s = ordo_key_read_timetz(&r, o, &iv, &east, &isnull);
            hi = east;
            break;
        }
        case ORDO_TYPE_UUID:
        case ORDO_TYPE_MACADDR: s = ordo_key_read_fixed(&r, o, t, raw, &isnull); break;
        case ORDO_TYPE_INT128: s = ordo_key_read_int128(&r, o, &hi, &lo, &isnull); break;
        case ORDO_TYPE_UINT8:
        case ORDO_TYPE_UINT32:
        case ORDO_TYPE_UINT64:
        case ORDO_TYPE_ENUM: s = ordo_key_read_uint(&r, o, t, &uv, &isnull); break;
        default: s = ordo_key_read_int(&r, o, t, &iv, &isnull); break;
        }
        if (s != ORDO_OK) {
            CHECK(!packed || s == ORDO_ERR_MALFORMED_KEY || s == ORDO_ERR_BAD_TYPE);
            break;
        }
        CHECK(!(packed && isnull));
        if (isnull) {
            ordo_key_null(&b, o);
            continue;
        }
        switch (t) {
        case ORDO_TYPE_BOOL: ordo_key_bool(&b, o, bv); break;
        case ORDO_TYPE_INT8: ordo_key_int8(&b, o, (int8_t)iv); break;
        case ORDO_TYPE_INT16: ordo_key_int16(&b, o, (int16_t)iv); break;
        case ORDO_TYPE_INT32: ordo_key_int32(&b, o, (int32_t)iv); break;
        case ORDO_TYPE_INT64: ordo_key_int64(&b, o, iv); break;
        case ORDO_TYPE_UINT8: ordo_key_uint8(&b, o, (uint8_t)uv); break;
        case ORDO_TYPE_UINT32: ordo_key_uint32(&b, o, (uint32_t)uv); break;
        case ORDO_TYPE_UINT64: ordo_key_uint64(&b, o, uv); break;
        case ORDO_TYPE_ENUM: ordo_key_enum(&b, o, (uint32_t)uv); break;
        case ORDO_TYPE_FLOAT32: ordo_key_float32(&b, o, fv); break;
        case ORDO_TYPE_FLOAT64: ordo_key_float64(&b, o, dv); break;
        case ORDO_TYPE_BYTES: ordo_key_bytes(&b, o, bytes, blen); break;
        case ORDO_TYPE_NUMERIC: CHECK(ordo_key_numeric(&b, o, (const char *)bytes, blen) == ORDO_OK); break;
        case ORDO_TYPE_BIT: CHECK(ordo_key_bit_string(&b, o, (const char *)bytes, blen) == ORDO_OK); break;
        case ORDO_TYPE_TIMETZ: CHECK(ordo_key_timetz(&b, o, iv, (int32_t)hi) == ORDO_OK); break;
        case ORDO_TYPE_INET: CHECK(ordo_key_inet(&b, o, &in) == ORDO_OK); break;
        case ORDO_TYPE_CIDR: CHECK(ordo_key_cidr(&b, o, &in) == ORDO_OK); break;
        case ORDO_TYPE_UUID: ordo_key_uuid(&b, o, raw); break;
        case ORDO_TYPE_MACADDR: ordo_key_macaddr(&b, o, raw); break;
        case ORDO_TYPE_DATE: ordo_key_date(&b, o, (int32_t)iv); break;
        case ORDO_TYPE_TIME_OF_DAY: ordo_key_time(&b, o, iv); break;
        case ORDO_TYPE_TIMESTAMP: ordo_key_timestamp(&b, o, iv); break;
        default: ordo_key_int128(&b, o, hi, lo); break;
        }
    }
    size_t consumed = stopped != SIZE_MAX ? stopped : klen - ordo_key_reader_remaining(&r), blen = 0;
    CHECK(consumed <= klen);
    CHECK(ordo_key_finish(&b, &blen) == ORDO_OK);
    /* every accepted field is canonical */
    CHECK(blen == consumed && memcmp(again, k, consumed) == 0);
    free(k);
    free(again);
    return 0;
}
