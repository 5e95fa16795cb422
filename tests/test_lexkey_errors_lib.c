/* Error paths: every capacity from 0 to the exact size with guard bytes,
 * sticky errors, atomic parts, and the helpers' bad inputs. */
#include "ordo_test.h"

#include <math.h>

#define GUARD 0xa5
#define SLACK 32

typedef struct op {
    ordo_type t;
    int64_t i;
    double f;
    const char *s;
    size_t n;
    int seal; /* 1 first, 2 last, after the parts */
} op;

static const uint8_t uuid16[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

static ordo_status apply(ordo_lexkey *b, const op *o)
{
    switch (o->t) {
    case ORDO_TYPE_STRING: return ordo_lexkey_string(b, o->s, o->n);
    case ORDO_TYPE_BYTES: return ordo_lexkey_bytes(b, o->s, o->n);
    case ORDO_TYPE_UUID: return ordo_lexkey_uuid(b, uuid16);
    case ORDO_TYPE_BOOL: return ordo_lexkey_bool(b, o->i != 0);
    case ORDO_TYPE_INT8: return ordo_lexkey_int8(b, (int8_t)o->i);
    case ORDO_TYPE_INT16: return ordo_lexkey_int16(b, (int16_t)o->i);
    case ORDO_TYPE_INT32: return ordo_lexkey_int32(b, (int32_t)o->i);
    case ORDO_TYPE_INT64: return ordo_lexkey_int64(b, o->i);
    case ORDO_TYPE_INT: return ordo_lexkey_int(b, o->i);
    case ORDO_TYPE_UINT8: return ordo_lexkey_uint8(b, (uint8_t)o->i);
    case ORDO_TYPE_UINT16: return ordo_lexkey_uint16(b, (uint16_t)o->i);
    case ORDO_TYPE_UINT32: return ordo_lexkey_uint32(b, (uint32_t)o->i);
    case ORDO_TYPE_UINT64: return ordo_lexkey_uint64(b, (uint64_t)o->i);
    case ORDO_TYPE_FLOAT32: return ordo_lexkey_float32(b, (float)o->f);
    case ORDO_TYPE_FLOAT64: return ordo_lexkey_float64(b, o->f);
    case ORDO_TYPE_TIME: return ordo_lexkey_time(b, o->i);
    case ORDO_TYPE_DURATION: return ordo_lexkey_duration(b, o->i);
    case ORDO_TYPE_NIL: return ordo_lexkey_nil(b);
    case ORDO_TYPE_END: return ordo_lexkey_end(b);
    default: return ORDO_ERR_BAD_TYPE;
    }
}

/* Runs ops into a buffer of capacity cap followed by guard bytes. Returns
 * the finish status; *len the valid length; checks the guards and that a
 * failed part left the bytes after the valid length untouched. */
static ordo_status run(const op *ops, size_t nops, int seal, unsigned flags, size_t cap,
                       uint8_t *buf, size_t *len)
{
    memset(buf, GUARD, cap + SLACK);
    ordo_lexkey b;
    ordo_lexkey_init(&b, buf, cap, flags);
    for (size_t i = 0; i < nops; i++)
        apply(&b, &ops[i]);
    if (seal == 1)
        ordo_lexkey_first(&b);
    if (seal == 2)
        ordo_lexkey_last(&b);
    ordo_status s = ordo_lexkey_finish(&b, len);
    for (size_t i = *len; i < cap + SLACK; i++)
        if (buf[i] != GUARD)
            fail_msg("byte %zu written past the valid length %zu (cap %zu)", i, *len, cap);
    return s;
}

static void sweep(const op *ops, size_t nops, int seal, unsigned flags)
{
    uint8_t full[512], buf[512 + SLACK];
    size_t exact = 0, var = 0;
    assert_status(run(ops, nops, seal, flags, sizeof full - SLACK, full, &exact), ORDO_OK);
    for (size_t i = 0; i < nops; i++)
        var += ops[i].n;
    assert_true(exact <= ORDO_LEXKEY_BOUND(nops, var));
    /* The exact size from the size helpers. */
    size_t sum = nops - 1 + (seal != 0);
    for (size_t i = 0; i < nops; i++) {
        size_t s = 0;
        assert_status(ordo_lexkey_part_size(ops[i].t, ops[i].n, flags, &s), ORDO_OK);
        sum += s;
    }
    assert_int_equal(sum, exact);
    for (size_t cap = 0; cap <= exact; cap++) {
        size_t len = 0;
        ordo_status s = run(ops, nops, seal, flags, cap, buf, &len);
        if (cap < exact) {
            assert_status(s, ORDO_ERR_DST_TOO_SMALL);
            assert_true(len <= cap);
            /* What was written is a whole-part prefix of the full key. */
            assert_memory_equal(buf, full, len);
        } else {
            assert_status(s, ORDO_OK);
            assert_int_equal(len, exact);
            assert_memory_equal(buf, full, exact);
        }
    }
}

static void capacity_sweeps(void **state)
{
    (void)state;
    static const char zeros[5] = {0, 0, 0, 0, 0};
    const op singles[] = {
        {ORDO_TYPE_STRING, 0, 0, "hello", 5, 0}, {ORDO_TYPE_BYTES, 0, 0, zeros, 5, 0},
        {ORDO_TYPE_UUID, 0, 0, NULL, 0, 0},      {ORDO_TYPE_BOOL, 1, 0, NULL, 0, 0},
        {ORDO_TYPE_INT8, -5, 0, NULL, 0, 0},     {ORDO_TYPE_INT16, -5, 0, NULL, 0, 0},
        {ORDO_TYPE_INT32, -5, 0, NULL, 0, 0},    {ORDO_TYPE_INT64, -5, 0, NULL, 0, 0},
        {ORDO_TYPE_INT, 7, 0, NULL, 0, 0},       {ORDO_TYPE_UINT8, 5, 0, NULL, 0, 0},
        {ORDO_TYPE_UINT16, 5, 0, NULL, 0, 0},    {ORDO_TYPE_UINT32, 5, 0, NULL, 0, 0},
        {ORDO_TYPE_UINT64, 5, 0, NULL, 0, 0},    {ORDO_TYPE_FLOAT32, 0, -1.5, NULL, 0, 0},
        {ORDO_TYPE_FLOAT64, 0, NAN, NULL, 0, 0}, {ORDO_TYPE_TIME, 1, 0, NULL, 0, 0},
        {ORDO_TYPE_DURATION, 1, 0, NULL, 0, 0},  {ORDO_TYPE_NIL, 0, 0, NULL, 0, 0},
        {ORDO_TYPE_END, 0, 0, NULL, 0, 0},
    };
    size_t n = sizeof singles / sizeof singles[0];
    for (unsigned flags = 0; flags <= ORDO_LEXKEY_LEGACY; flags++) {
        for (size_t i = 0; i < n; i++) {
            sweep(&singles[i], 1, 0, flags);
            sweep(&singles[i], 1, 1, flags);
            sweep(&singles[i], 1, 2, flags);
        }
        /* Every part after every other: a long composite. */
        sweep(singles, n, 0, flags);
        sweep(singles, n, 2, flags);
    }
}

/* A failed part writes nothing and the error sticks: a later part that
 * would fit is not written either. */
static void sticky_error(void **state)
{
    (void)state;
    uint8_t buf[16];
    memset(buf, GUARD, sizeof buf);
    ordo_lexkey b;
    size_t len = 99;
    ordo_lexkey_init(&b, buf, 12, 0);
    assert_status(ordo_lexkey_int64(&b, 1), ORDO_OK);
    assert_status(ordo_lexkey_int64(&b, 2), ORDO_ERR_DST_TOO_SMALL);
    assert_status(ordo_lexkey_bool(&b, true), ORDO_ERR_DST_TOO_SMALL);
    assert_status(ordo_lexkey_last(&b), ORDO_ERR_DST_TOO_SMALL);
    assert_status(ordo_lexkey_finish(&b, &len), ORDO_ERR_DST_TOO_SMALL);
    assert_int_equal(len, 8);
    assert_int_equal(ordo_lexkey_length(&b), 8);
    for (size_t i = 8; i < sizeof buf; i++)
        assert_int_equal(buf[i], GUARD);
}

static void builder_misuse(void **state)
{
    (void)state;
    uint8_t buf[32];
    ordo_lexkey b;
    size_t len;
    ordo_lexkey_init(&b, buf, sizeof buf, 0);
    assert_status(ordo_lexkey_finish(&b, &len), ORDO_ERR_NO_PARTS);
    assert_status(ordo_lexkey_first(&b), ORDO_ERR_NO_PARTS);
    ordo_lexkey_init(&b, buf, sizeof buf, 0);
    assert_status(ordo_lexkey_last(&b), ORDO_ERR_NO_PARTS);

    ordo_lexkey_init(&b, buf, sizeof buf, 0);
    assert_status(ordo_lexkey_int8(&b, 1), ORDO_OK);
    assert_status(ordo_lexkey_last(&b), ORDO_OK);
    assert_status(ordo_lexkey_int8(&b, 1), ORDO_ERR_BAD_STATE);
    assert_status(ordo_lexkey_finish(&b, &len), ORDO_ERR_BAD_STATE);
    assert_int_equal(len, 9);

    ordo_lexkey_init(&b, buf, sizeof buf, 0x10);
    assert_status(ordo_lexkey_int8(&b, 1), ORDO_ERR_INVALID_ARG);
    ordo_lexkey_init(&b, NULL, 5, 0);
    assert_status(ordo_lexkey_nil(&b), ORDO_ERR_NULL_ARG);
    ordo_lexkey_init(&b, buf, sizeof buf, 0);
    assert_status(ordo_lexkey_string(&b, NULL, 3), ORDO_ERR_NULL_ARG);
    ordo_lexkey_init(&b, buf, sizeof buf, 0);
    assert_status(ordo_lexkey_uuid(&b, NULL), ORDO_ERR_NULL_ARG);
    assert_status(ordo_lexkey_finish(NULL, &len), ORDO_ERR_NULL_ARG);
    assert_status(ordo_lexkey_int64(NULL, 1), ORDO_ERR_NULL_ARG);
    /* A NULL buffer of capacity 0 holds the empty key. */
    ordo_lexkey_init(&b, NULL, 0, 0);
    assert_status(ordo_lexkey_string(&b, "", 0), ORDO_OK);
    assert_status(ordo_lexkey_finish(&b, &len), ORDO_OK);
    assert_int_equal(len, 0);
}

/* Helpers that write into caller memory: every capacity, guard bytes. */
typedef ordo_status (*three_fn)(const void *, size_t, const void *, size_t, void *, size_t,
                                size_t *);

static void helper_sweep(three_fn fn, const char *p, const char *r, const char *want_hex)
{
    uint8_t want[64], buf[64 + SLACK];
    size_t wn = t_unhex(want_hex, want, sizeof want), len = 0;
    for (size_t cap = 0; cap <= wn; cap++) {
        memset(buf, GUARD, sizeof buf);
        len = 12345;
        ordo_status s = fn(p, strlen(p), r, strlen(r), buf, cap, &len);
        for (size_t i = (cap < wn ? 0 : wn); i < sizeof buf; i++)
            assert_int_equal(buf[i], GUARD);
        if (cap < wn) {
            assert_status(s, ORDO_ERR_DST_TOO_SMALL);
            assert_int_equal(len, 12345);
        } else {
            assert_status(s, ORDO_OK);
            assert_key_hex(buf, len, want_hex);
        }
    }
}

static void helper_capacities(void **state)
{
    (void)state;
    helper_sweep(ordo_pk_encode, "partition", "row", "706172746974696f6e00726f77");
    helper_sweep(ordo_range_lower, "part", "start", "70617274007374617274");
    helper_sweep(ordo_range_upper, "part", "end", "7061727400656e64ff");
    helper_sweep(ordo_range_upper, "part", "", "70617274ff");
}

static void primary_key_errors(void **state)
{
    (void)state;
    uint8_t out[16];
    size_t len = 0, plen = 7, roff = 7;
    assert_status(ordo_pk_encode("", 0, "r", 1, out, sizeof out, &len), ORDO_ERR_EMPTY_HALF);
    assert_status(ordo_pk_encode("p", 1, "", 0, out, sizeof out, &len), ORDO_ERR_EMPTY_HALF);
    assert_status(ordo_pk_split("", 0, &plen, &roff), ORDO_ERR_NO_SEPARATOR);
    assert_status(ordo_pk_split("abc", 3, &plen, &roff), ORDO_ERR_NO_SEPARATOR);
    assert_status(ordo_pk_split("\0", 1, &plen, &roff), ORDO_ERR_EMPTY_HALF);
    assert_status(ordo_pk_split("\0a", 2, &plen, &roff), ORDO_ERR_EMPTY_HALF);
    assert_status(ordo_pk_split("a\0", 2, &plen, &roff), ORDO_ERR_EMPTY_HALF);
    assert_int_equal(plen, 7); /* untouched on error */
    assert_int_equal(roff, 7);
    assert_status(ordo_pk_split(NULL, 3, &plen, &roff), ORDO_ERR_NULL_ARG);
    assert_status(ordo_pk_encode(NULL, 2, "r", 1, out, sizeof out, &len), ORDO_ERR_NULL_ARG);
    assert_status(ordo_pk_encode("p", 1, "r", 1, NULL, 3, &len), ORDO_ERR_NULL_ARG);
}

/* Issue #18 item 6: the builder's short-copy fast path (payloads up to
 * 16 bytes) and its hand-over to the checked path, at every string length
 * 0..24 after 0-2 earlier parts, into every capacity around the need: the
 * key is the parts joined by 00 or DST_TOO_SMALL with nothing written past
 * the capacity, and the error sticks. */
static void short_parts(void **state)
{
    (void)state;
    static const char text[] = "abcdefghijklmnopqrstuvwxyz0123";
    for (size_t before = 0; before < 3; before++) {
        for (size_t n = 0; n <= 24; n++) {
            size_t need = before * 3 + n; /* "pq" 00 ... "pq" 00 text */
            for (size_t cap = need > 3 ? need - 3 : 0; cap <= need + 2; cap++) {
                uint8_t buf[64], want[64];
                memset(buf, 0xee, sizeof buf);
                size_t w = 0;
                ordo_lexkey b;
                ordo_lexkey_init(&b, buf, cap, 0);
                for (size_t k = 0; k < before; k++) {
                    ordo_lexkey_string(&b, "pq", 2);
                    if (w + (k > 0) + 2 <= cap) {
                        if (k)
                            want[w++] = 0;
                        want[w++] = 'p';
                        want[w++] = 'q';
                    }
                }
                ordo_status got = ordo_lexkey_string(&b, text, n);
                int fits = need <= cap;
                if (fits) {
                    if (before)
                        want[w++] = 0;
                    memcpy(want + w, text, n);
                    w += n;
                }
                assert_status(got, fits ? ORDO_OK : ORDO_ERR_DST_TOO_SMALL);
                size_t len = 0;
                assert_status(ordo_lexkey_finish(&b, &len), fits ? ORDO_OK : ORDO_ERR_DST_TOO_SMALL);
                if (fits) {
                    assert_int_equal(len, need);
                    assert_memory_equal(buf, want, need);
                }
                for (size_t i = cap; i < sizeof buf; i++)
                    assert_int_equal(buf[i], 0xee); /* nothing past the capacity */
                /* sticky: a later part that would fit reports the first error */
                assert_status(ordo_lexkey_bool(&b, true), fits ? (cap > len + 1 ? ORDO_OK : ORDO_ERR_DST_TOO_SMALL)
                                                                : ORDO_ERR_DST_TOO_SMALL);
            }
        }
    }
    /* the checks' order through the fast path's hand-over: sealed before a
     * NULL payload, a NULL payload before the capacity */
    uint8_t buf[8];
    ordo_lexkey b;
    ordo_lexkey_init(&b, buf, sizeof buf, 0);
    assert_status(ordo_lexkey_string(&b, "a", 1), ORDO_OK);
    assert_status(ordo_lexkey_last(&b), ORDO_OK);
    assert_status(ordo_lexkey_string(&b, NULL, 100), ORDO_ERR_BAD_STATE);
    ordo_lexkey_init(&b, buf, 2, 0);
    assert_status(ordo_lexkey_string(&b, NULL, 100), ORDO_ERR_NULL_ARG);
    ordo_lexkey_init(&b, buf, 2, 0);
    assert_status(ordo_lexkey_string(&b, NULL, 0), ORDO_OK); /* an empty part may have no pointer */
    assert_status(ordo_lexkey_string(&b, "x", 1), ORDO_OK);
    assert_status(ordo_lexkey_string(&b, "", 0), ORDO_ERR_DST_TOO_SMALL); /* its separator */
    assert_status(ordo_lexkey_string(NULL, "x", 1), ORDO_ERR_NULL_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(capacity_sweeps),   cmocka_unit_test(sticky_error),
        cmocka_unit_test(builder_misuse),    cmocka_unit_test(helper_capacities),
        cmocka_unit_test(primary_key_errors), cmocka_unit_test(short_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
