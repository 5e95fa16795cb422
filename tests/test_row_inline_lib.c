/* The row builders' inline fast paths (include/ordo_inline.h) against the
 * library's out-of-line functions: the same statuses, builder state and
 * bytes after every call, at every capacity from 0 to past the key's size
 * (where the fast path hands over to the checked one), with guard bytes
 * after the capacity. The out-of-line function is called by its name in
 * parentheses, which the inline macros do not rename. */
#include "ordo_test.h"

#define GUARD 0xa5
#define SLACK 24
#define MAXCAP 80

/* ---------------------------------------------------------------- LexKey */

typedef enum lop_kind {
    L_STRING, L_BYTES, L_BOOL, L_INT, L_INT64, L_TIME, L_DURATION, L_UINT64, L_INT32, L_UINT32,
    L_FIRST, L_LAST, L_INT16 /* out of line in both: changes the state around the fast paths */
} lop_kind;

typedef struct lop {
    lop_kind k;
    int64_t i;
    const char *s;
    size_t n;
} lop;

static ordo_status l_inline(ordo_lexkey *b, const lop *o)
{
    switch (o->k) {
    case L_STRING: return ordo_lexkey_string(b, o->s, o->n);
    case L_BYTES: return ordo_lexkey_bytes(b, o->s, o->n);
    case L_BOOL: return ordo_lexkey_bool(b, o->i != 0);
    case L_INT: return ordo_lexkey_int(b, o->i);
    case L_INT64: return ordo_lexkey_int64(b, o->i);
    case L_TIME: return ordo_lexkey_time(b, o->i);
    case L_DURATION: return ordo_lexkey_duration(b, o->i);
    case L_UINT64: return ordo_lexkey_uint64(b, (uint64_t)o->i);
    case L_INT32: return ordo_lexkey_int32(b, (int32_t)o->i);
    case L_UINT32: return ordo_lexkey_uint32(b, (uint32_t)o->i);
    case L_FIRST: return ordo_lexkey_first(b);
    case L_LAST: return ordo_lexkey_last(b);
    case L_INT16: return ordo_lexkey_int16(b, (int16_t)o->i);
    }
    return ORDO_ERR_INVALID_ARG;
}

static ordo_status l_call(ordo_lexkey *b, const lop *o)
{
    switch (o->k) {
    case L_STRING: return (ordo_lexkey_string)(b, o->s, o->n);
    case L_BYTES: return (ordo_lexkey_bytes)(b, o->s, o->n);
    case L_BOOL: return (ordo_lexkey_bool)(b, o->i != 0);
    case L_INT: return (ordo_lexkey_int)(b, o->i);
    case L_INT64: return (ordo_lexkey_int64)(b, o->i);
    case L_TIME: return (ordo_lexkey_time)(b, o->i);
    case L_DURATION: return (ordo_lexkey_duration)(b, o->i);
    case L_UINT64: return (ordo_lexkey_uint64)(b, (uint64_t)o->i);
    case L_INT32: return (ordo_lexkey_int32)(b, (int32_t)o->i);
    case L_UINT32: return (ordo_lexkey_uint32)(b, (uint32_t)o->i);
    case L_FIRST: return (ordo_lexkey_first)(b);
    case L_LAST: return (ordo_lexkey_last)(b);
    case L_INT16: return (ordo_lexkey_int16)(b, (int16_t)o->i);
    }
    return ORDO_ERR_INVALID_ARG;
}

static const char s16[] = "0123456789abcdef", s17[] = "0123456789abcdefg";
static const char s40[] = "a string part longer than sixteen bytes.";

#define L_END {L_STRING, -1, NULL, 0} /* i == -1 with k == L_STRING: end of a sequence */
static const lop lseqs[][12] = {
    /* the benchmark's keys */
    {{L_STRING, 0, "foo", 3}, {L_INT, 456, NULL, 0}, {L_BOOL, 1, NULL, 0}, L_END},
    {{L_STRING, 0, "tenant", 6}, {L_STRING, 0, "user", 4}, {L_INT, -456, NULL, 0}, L_END},
    /* every inline part, the widths around 16 bytes, extremes */
    {{L_INT64, INT64_MIN, NULL, 0}, {L_UINT64, -1, NULL, 0}, {L_INT32, -5, NULL, 0},
     {L_UINT32, 0xfffffffe, NULL, 0}, {L_TIME, 1, NULL, 0}, {L_DURATION, INT64_MAX, NULL, 0},
     {L_BOOL, 0, NULL, 0}, {L_STRING, 0, s16, 16}, {L_BYTES, 0, s17, 17}, L_END},
    /* empty parts (n 0, with and without a pointer), a long one, then a seal */
    {{L_STRING, 0, "", 0}, {L_BYTES, 0, NULL, 0}, {L_STRING, 0, s40, 40}, {L_BOOL, 1, NULL, 0},
     {L_LAST, 0, NULL, 0}, {L_INT, 7, NULL, 0}, L_END},
    /* a NULL payload: a sticky error the later inline calls return */
    {{L_INT, 1, NULL, 0}, {L_STRING, 0, NULL, 3}, {L_INT, 2, NULL, 0}, {L_BOOL, 1, NULL, 0}, L_END},
    /* an out-of-line part between inline ones; a seal first */
    {{L_INT16, -3, NULL, 0}, {L_INT32, 9, NULL, 0}, {L_FIRST, 0, NULL, 0}, {L_STRING, 0, "x", 1},
     L_END},
    {{L_FIRST, 0, NULL, 0}, {L_BOOL, 1, NULL, 0}, L_END},
};

static int l_end(const lop *o) { return o->k == L_STRING && o->i == -1; }

static void l_same(const ordo_lexkey *a, const ordo_lexkey *c, const uint8_t *abuf,
                   const uint8_t *cbuf, const char *where)
{
    if (a->priv_cap != c->priv_cap || a->priv_len != c->priv_len || a->priv_parts != c->priv_parts ||
        a->priv_flags != c->priv_flags || a->priv_sealed != c->priv_sealed || a->priv_err != c->priv_err ||
        (a->priv_buf ? a->priv_buf - abuf : -1) != (c->priv_buf ? c->priv_buf - cbuf : -1))
        fail_msg("%s: builder state differs (len %zu/%zu, parts %zu/%zu, err %d/%d)", where, a->priv_len,
                 c->priv_len, a->priv_parts, c->priv_parts, (int)a->priv_err, (int)c->priv_err);
    size_t la = 1, lc = 2;
    ordo_status fa = ordo_lexkey_finish(a, &la), fc = (ordo_lexkey_finish)(c, &lc);
    if (fa != fc || la != lc || ordo_lexkey_length(a) != (ordo_lexkey_length)(c))
        fail_msg("%s: finish differs (%d/%d, %zu/%zu)", where, (int)fa, (int)fc, la, lc);
}

static void lexkey_run(const lop *seq, unsigned flags, int null_buf, size_t cap)
{
    uint8_t abuf[MAXCAP + SLACK], cbuf[MAXCAP + SLACK];
    memset(abuf, GUARD, sizeof abuf);
    memset(cbuf, GUARD, sizeof cbuf);
    ordo_lexkey a, c;
    ordo_lexkey_init(&a, null_buf ? NULL : abuf, cap, flags);
    (ordo_lexkey_init)(&c, null_buf ? NULL : cbuf, cap, flags);
    char where[96];
    snprintf(where, sizeof where, "flags %u, %s, cap %zu, init", flags, null_buf ? "NULL" : "buf", cap);
    l_same(&a, &c, abuf, cbuf, where);
    for (size_t i = 0; !l_end(&seq[i]); i++) {
        ordo_status sa = l_inline(&a, &seq[i]), sc = l_call(&c, &seq[i]);
        snprintf(where, sizeof where, "flags %u, %s, cap %zu, part %zu", flags, null_buf ? "NULL" : "buf",
                 cap, i);
        if (sa != sc)
            fail_msg("%s: status %d inline, %d out of line", where, (int)sa, (int)sc);
        l_same(&a, &c, abuf, cbuf, where);
        if (memcmp(abuf, cbuf, sizeof abuf) != 0)
            fail_msg("%s: bytes differ", where);
        for (size_t j = cap; j < sizeof abuf; j++)
            if (abuf[j] != GUARD)
                fail_msg("%s: byte %zu written past the capacity", where, j);
    }
}

static void lexkey_every_capacity(void **state)
{
    (void)state;
    const unsigned flags[] = {0, ORDO_LEXKEY_LEGACY, 2u};
    for (size_t s = 0; s < sizeof lseqs / sizeof lseqs[0]; s++)
        for (size_t f = 0; f < 3; f++) {
            for (size_t cap = 0; cap <= MAXCAP; cap++)
                lexkey_run(lseqs[s], flags[f], 0, cap);
            lexkey_run(lseqs[s], flags[f], 1, 0);
            lexkey_run(lseqs[s], flags[f], 1, 5); /* NULL buffer with a capacity */
        }
}

/* The inline path must really run where it may: its bytes for the
 * benchmark's key, spelled out from SPEC's rules. */
static void lexkey_inline_bytes(void **state)
{
    (void)state;
    uint8_t buf[32];
    size_t len = 0;
    ordo_lexkey b;
    ordo_lexkey_init(&b, buf, sizeof buf, 0);
    assert_int_equal(ordo_lexkey_string(&b, "foo", 3), ORDO_OK);
    assert_int_equal(ordo_lexkey_int(&b, 456), ORDO_OK);
    assert_int_equal(ordo_lexkey_bool(&b, true), ORDO_OK);
    assert_int_equal(ordo_lexkey_finish(&b, &len), ORDO_OK);
    const uint8_t want[] = {'f', 'o', 'o', 0, 0x80, 0, 0, 0, 0, 0, 0x01, 0xc8, 0, 0x01};
    assert_int_equal(len, sizeof want);
    assert_memory_equal(buf, want, sizeof want);
}

/* ------------------------------------------------------------- ordered */

typedef enum kop_kind { K_INT64, K_UINT64, K_INT32, K_BOOL, K_NULL, K_REC_BEGIN, K_REC_END, K_INT16, K_TEXT } kop_kind;

typedef struct kop {
    kop_kind k;
    int o; /* the order; 9 is not one */
    int64_t i;
} kop;

static ordo_status k_inline(ordo_key *k, const kop *p)
{
    ordo_order o = (ordo_order)p->o;
    switch (p->k) {
    case K_INT64: return ordo_key_int64(k, o, p->i);
    case K_UINT64: return ordo_key_uint64(k, o, (uint64_t)p->i);
    case K_INT32: return ordo_key_int32(k, o, (int32_t)p->i);
    case K_BOOL: return ordo_key_bool(k, o, p->i != 0);
    case K_NULL: return ordo_key_null(k, o);
    case K_REC_BEGIN: return ordo_key_record_begin(k, o);
    case K_REC_END: return ordo_key_record_end(k);
    case K_INT16: return ordo_key_int16(k, o, (int16_t)p->i);
    case K_TEXT: return ordo_key_text(k, o, "a\0b", 3);
    }
    return ORDO_ERR_INVALID_ARG;
}

static ordo_status k_call(ordo_key *k, const kop *p)
{
    ordo_order o = (ordo_order)p->o;
    switch (p->k) {
    case K_INT64: return (ordo_key_int64)(k, o, p->i);
    case K_UINT64: return (ordo_key_uint64)(k, o, (uint64_t)p->i);
    case K_INT32: return (ordo_key_int32)(k, o, (int32_t)p->i);
    case K_BOOL: return (ordo_key_bool)(k, o, p->i != 0);
    case K_NULL: return (ordo_key_null)(k, o);
    case K_REC_BEGIN: return (ordo_key_record_begin)(k, o);
    case K_REC_END: return (ordo_key_record_end)(k);
    case K_INT16: return (ordo_key_int16)(k, o, (int16_t)p->i);
    case K_TEXT: return (ordo_key_text)(k, o, "a\0b", 3);
    }
    return ORDO_ERR_INVALID_ARG;
}

#define K_END {K_INT64, -1, 0}
static const kop kseqs[][10] = {
    /* every order, every inline field */
    {{K_INT64, 0, -7}, {K_UINT64, 1, -1}, {K_INT32, 2, INT32_MIN}, {K_BOOL, 3, 1}, {K_INT64, 3, INT64_MAX},
     {K_BOOL, 0, 0}, K_END},
    /* inside a descending record the orders mirror: the checked path */
    {{K_INT32, 1, 5}, {K_REC_BEGIN, 2, 0}, {K_INT64, 1, 3}, {K_BOOL, 0, 1}, {K_REC_END, 1, 0},
     {K_INT64, 2, 4}, {K_REC_END, 1, 0}, {K_BOOL, 1, 1}, K_END},
    /* a bad order sticks; NULLs and text (variable: the packed format refuses them) */
    {{K_NULL, 0, 0}, {K_TEXT, 3, 0}, {K_INT64, 9, 1}, {K_INT64, 1, 1}, K_END},
    {{K_INT16, 2, -2}, {K_UINT64, 9, 0}, K_END},
};

static int k_end(const kop *p) { return p->k == K_INT64 && p->o == -1; }

static void k_same(const ordo_key *a, const ordo_key *c, const uint8_t *abuf, const uint8_t *cbuf,
                   const char *where)
{
    if (a->priv_cap != c->priv_cap || a->priv_len != c->priv_len || a->priv_err != c->priv_err ||
        a->priv_depth != c->priv_depth || a->priv_flip != c->priv_flip || a->priv_packed != c->priv_packed ||
        a->priv_nest != c->priv_nest ||
        (a->priv_buf ? a->priv_buf - abuf : -1) != (c->priv_buf ? c->priv_buf - cbuf : -1))
        fail_msg("%s: key state differs (len %zu/%zu, err %d/%d)", where, a->priv_len, c->priv_len,
                 (int)a->priv_err, (int)c->priv_err);
    size_t la = 1, lc = 2;
    ordo_status fa = ordo_key_finish(a, &la), fc = (ordo_key_finish)(c, &lc);
    if (fa != fc || la != lc)
        fail_msg("%s: finish differs (%d/%d, %zu/%zu)", where, (int)fa, (int)fc, la, lc);
}

static void key_run(const kop *seq, int packed, size_t prefix, int null_buf, size_t cap)
{
    uint8_t abuf[MAXCAP + SLACK], cbuf[MAXCAP + SLACK];
    memset(abuf, GUARD, sizeof abuf);
    memset(cbuf, GUARD, sizeof cbuf);
    ordo_key a, c;
    if (packed) { /* out of line in both: it sets the packed flag after init */
        ordo_key_init_packed(&a, null_buf ? NULL : abuf, cap, prefix);
        ordo_key_init_packed(&c, null_buf ? NULL : cbuf, cap, prefix);
    } else {
        ordo_key_init(&a, null_buf ? NULL : abuf, cap, prefix);
        (ordo_key_init)(&c, null_buf ? NULL : cbuf, cap, prefix);
    }
    char where[112];
    snprintf(where, sizeof where, "packed %d, prefix %zu, %s, cap %zu, init", packed, prefix,
             null_buf ? "NULL" : "buf", cap);
    k_same(&a, &c, abuf, cbuf, where);
    for (size_t i = 0; !k_end(&seq[i]); i++) {
        ordo_status sa = k_inline(&a, &seq[i]), sc = k_call(&c, &seq[i]);
        snprintf(where, sizeof where, "packed %d, prefix %zu, %s, cap %zu, field %zu", packed, prefix,
                 null_buf ? "NULL" : "buf", cap, i);
        if (sa != sc)
            fail_msg("%s: status %d inline, %d out of line", where, (int)sa, (int)sc);
        k_same(&a, &c, abuf, cbuf, where);
        if (memcmp(abuf, cbuf, sizeof abuf) != 0)
            fail_msg("%s: bytes differ", where);
        for (size_t j = cap; j < sizeof abuf; j++)
            if (abuf[j] != GUARD)
                fail_msg("%s: byte %zu written past the capacity", where, j);
    }
}

static void key_every_capacity(void **state)
{
    (void)state;
    for (size_t s = 0; s < sizeof kseqs / sizeof kseqs[0]; s++)
        for (int packed = 0; packed < 2; packed++)
            for (size_t prefix = 0; prefix <= 3; prefix += 3) {
                for (size_t cap = 0; cap <= MAXCAP; cap++)
                    key_run(kseqs[s], packed, prefix, 0, cap);
                key_run(kseqs[s], packed, prefix, 1, 0);
                key_run(kseqs[s], packed, prefix, 1, 4);
            }
}

/* The fast path's bytes for DESC NULLS FIRST: presence 01, then the
 * complemented big-endian word. */
static void key_inline_bytes(void **state)
{
    (void)state;
    uint8_t buf[16];
    size_t len = 0;
    ordo_key k;
    ordo_key_init(&k, buf, sizeof buf, 0);
    assert_int_equal(ordo_key_int64(&k, ORDO_DESC_NULLS_FIRST, 1), ORDO_OK);
    assert_int_equal(ordo_key_bool(&k, ORDO_ASC_NULLS_LAST, true), ORDO_OK);
    assert_int_equal(ordo_key_finish(&k, &len), ORDO_OK);
    const uint8_t want[] = {0x01, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x00, 0x01};
    assert_int_equal(len, sizeof want);
    assert_memory_equal(buf, want, sizeof want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lexkey_every_capacity),
        cmocka_unit_test(lexkey_inline_bytes),
        cmocka_unit_test(key_every_capacity),
        cmocka_unit_test(key_inline_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
