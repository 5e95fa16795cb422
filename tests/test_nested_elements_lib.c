/* Arrays whose elements are enums, records or ranges (SPEC.md §14.18): the
 * row API's nested begin/end calls, the vectors (computed from the SPEC's
 * rules by a separate model, not by this code), PostgreSQL's order in all
 * four orders, the same bytes as elements assembled by ordo_key_encoded
 * and as batches filled from text, round trips through the reader, and the
 * nesting errors. */
#include "ordo_test.h"

#include "ordo_ingest.h"

static const ordo_order orders[4] = {ORDO_ASC_NULLS_FIRST, ORDO_ASC_NULLS_LAST,
                                     ORDO_DESC_NULLS_FIRST, ORDO_DESC_NULLS_LAST};
#define AL ORDO_ASC_NULLS_LAST
#define LI ORDO_RANGE_LOWER_INC
#define UI ORDO_RANGE_UPPER_INC
#define LN ORDO_RANGE_LOWER_INF
#define UN ORDO_RANGE_UPPER_INF
#define EM ORDO_RANGE_EMPTY
#define NUL INT32_MIN /* a NULL element, field or enum */
#define MAXE 3

typedef struct key {
    uint8_t b[1024];
    size_t n;
} key;

/* record(a integer, b text): present 0 is a NULL record */
typedef struct rec {
    int present;
    int32_t a;
    const char *b;
} rec;

/* int4range: present 0 is a NULL range */
typedef struct rng {
    int present;
    unsigned fl;
    int32_t lo, hi;
} rng;

static void put_rec(ordo_key *k, const rec *r)
{
    if (!r->present) {
        ordo_key_null(k, AL);
        return;
    }
    ordo_key_record_begin(k, AL);
    r->a == NUL ? ordo_key_null(k, AL) : ordo_key_int32(k, AL, r->a);
    r->b ? ordo_key_text(k, AL, r->b, strlen(r->b)) : ordo_key_null(k, AL);
    ordo_key_record_end(k);
}

static void put_rng(ordo_key *k, const rng *r)
{
    if (!r->present) {
        ordo_key_null(k, AL);
        return;
    }
    ordo_key_range_begin(k, AL, ORDO_TYPE_INT32, r->fl);
    if (!(r->fl & (LN | EM)))
        ordo_key_int32(k, AL, r->lo);
    if (!(r->fl & (UN | EM)))
        ordo_key_int32(k, AL, r->hi);
    ordo_key_range_end(k);
}

/* An array of n elements of kind 'e' (enum ranks), 'r' (records) or 'g'
 * (ranges); n < 0: a NULL array. */
static ordo_status arr(key *k, ordo_order o, char kind, const void *v, int n)
{
    ordo_key kb;
    ordo_key_init(&kb, k->b, sizeof k->b, 0);
    if (n < 0) {
        ordo_key_null(&kb, o);
        return ordo_key_finish(&kb, &k->n);
    }
    ordo_key_array_begin(&kb, o);
    for (int i = 0; i < n; i++) {
        if (kind == 'e') {
            int32_t e = ((const int32_t *)v)[i];
            e == NUL ? ordo_key_null(&kb, AL) : ordo_key_enum(&kb, AL, (uint32_t)e);
        } else if (kind == 'r') {
            put_rec(&kb, (const rec *)v + i);
        } else {
            put_rng(&kb, (const rng *)v + i);
        }
    }
    ordo_key_array_end(&kb);
    return ordo_key_finish(&kb, &k->n);
}

/* The same array with each element built as its own key and appended by
 * ordo_key_encoded (how batches and the text parser assemble it). */
static ordo_status arr_encoded(key *k, ordo_order o, char kind, const void *v, int n)
{
    ordo_key kb;
    ordo_key_init(&kb, k->b, sizeof k->b, 0);
    ordo_key_array_begin(&kb, o);
    for (int i = 0; i < n; i++) {
        uint8_t eb[512];
        size_t en;
        ordo_key ek;
        ordo_key_init(&ek, eb, sizeof eb, 0);
        if (kind == 'e') {
            int32_t e = ((const int32_t *)v)[i];
            e == NUL ? ordo_key_null(&ek, AL) : ordo_key_enum(&ek, AL, (uint32_t)e);
        } else if (kind == 'r') {
            put_rec(&ek, (const rec *)v + i);
        } else {
            put_rng(&ek, (const rng *)v + i);
        }
        assert_status(ordo_key_finish(&ek, &en), ORDO_OK);
        ordo_key_encoded(&kb, eb, en);
    }
    ordo_key_array_end(&kb);
    return ordo_key_finish(&kb, &k->n);
}

static void check_hex(char kind, const void *v, int n, ordo_order o, const char *hex)
{
    key k, e;
    assert_status(arr(&k, o, kind, v, n), ORDO_OK);
    assert_key_hex(k.b, k.n, hex);
    if (o == AL) {
        assert_status(arr_encoded(&e, o, kind, v, n), ORDO_OK);
        assert_int_equal(e.n, k.n);
        assert_memory_equal(e.b, k.b, k.n);
    }
}

static void vectors(void **state)
{
    (void)state;
    const int32_t moods[] = {2, NUL, 0}; /* enum('sad','ok','happy') {happy,NULL,sad} */
    check_hex('e', moods, 3, AL,
              "0000ff00ffff00ffff00ffff00ffff020100ffff00ffff00ffff00ffff00ffff00ff00ff00ff8000ff00ff03"
              "00ff8000ff00ff0100ff8000ff00ff0300ff8000ff00ff010000");
    check_hex('e', moods, 3, ORDO_DESC_NULLS_FIRST,
              "01ff00ff0000ff0000ff0000ff0000fdfeff0000ff0000ff0000ff0000ff0000ff00ff00ff007fff00ff00fc"
              "ff007fff00ff00feff007fff00ff00fcff007fff00ff00feffff");
    const rec r1[] = {{1, 1, "a"}, {1, 2, NULL}}; /* {"(1,a)","(2,)"} */
    check_hex('r', r1, 2, AL,
              "0000ff00ffff00ffff8000ffff00ffff0100ffff6100ffff00ffff00ffff00ffff8000ffff00ffff020100ff"
              "00ff00ff8000ff00ff0200ff8000ff00ff0100ff8000ff00ff0200ff8000ff00ff010000");
    check_hex('r', r1, 2, ORDO_DESC_NULLS_FIRST,
              "01ff00ff0000ff00007fff0000ff0000feff00009eff0000ff0000ff0000ff00007fff0000ff0000fdfeff00"
              "ff00ff007fff00ff00fdff007fff00ff00feff007fff00ff00fdff007fff00ff00feffff");
    const rec r2[] = {{0, 0, NULL}, {1, NUL, NULL}}; /* {NULL,"(,)"} */
    check_hex('r', r2, 2, AL,
              "0000ff0100ffff010100ff00ff00ff8000ff00ff0200ff8000ff00ff0100ff8000ff00ff0200ff8000ff00ff"
              "010000");
    const rng g1[] = {{1, LI, 1, 5}, {1, EM, 0, 0}}; /* {"[1,5)",empty} */
    check_hex('g', g1, 2, AL,
              "0000ff00ffff00ffffff0100ffffff00ffffffff0100ffffffff00ffffffffff8000ffffffffff00ffffffff"
              "ff0100ffffffff00ffffffff00ffffffff00ffffffff00ffffff00ffffff00ffffff00ffffffff00ffffffff"
              "00ffffffff00ffffffffff8000ffffffffff00ffffffffff0500ffffffff00ffffffff00ffffffff00ffffff"
              "ff00ffffff00ffffff00ffff00ffff00ffff00ffffff00ffffff00ffff00ffff00ff00ff00ff8000ff00ff02"
              "00ff8000ff00ff0100ff8000ff00ff0200ff8000ff00ff010000");
    const rng g2[] = {{0, 0, 0, 0}, {1, LN | UN, 0, 0}}; /* {NULL,"(,)"} */
    check_hex('g', g2, 2, AL,
              "0000ff0100ffff00ffffff0100ffffff00ffffffff00ffffffff00ffffff00ffffff00ffffff00ffffffff01"
              "00ffffff00ffffff00ffff00ffff00ff00ff00ff8000ff00ff0200ff8000ff00ff0100ff8000ff00ff0200ff"
              "8000ff00ff010000");
    check_hex('g', g2, 2, ORDO_DESC_NULLS_FIRST,
              "01ff00feff0000ff000000feff000000ff00000000ff00000000ff000000ff000000ff000000ff00000000fe"
              "ff000000ff000000ff0000ff0000ff00ff00ff007fff00ff00fdff007fff00ff00feff007fff00ff00fdff00"
              "7fff00ff00feffff");
}

static void check_sorted(key *ks, size_t n, const char *what, int oi)
{
    for (size_t i = 0; i + 1 < n; i++)
        if (ordo_compare(ks[i].b, ks[i].n, ks[i + 1].b, ks[i + 1].n) >= 0)
            fail_msg("%s, order %d: entry %zu does not sort before entry %zu", what, oi, i, i + 1);
}

#define NV 16
/* values[i] in PostgreSQL's ASC order (a NULL array not among them) */
static void check_order(char kind, const void *values, size_t stride, const int *len, size_t n,
                        const char *what)
{
    for (int oi = 0; oi < 4; oi++) {
        ordo_order o = orders[oi];
        key ks[NV + 1];
        size_t m = 0;
        int desc = o >= ORDO_DESC_NULLS_FIRST, nf = o == ORDO_ASC_NULLS_FIRST || o == ORDO_DESC_NULLS_FIRST;
        if (nf)
            assert_status(arr(&ks[m++], o, kind, NULL, -1), ORDO_OK);
        for (size_t i = 0; i < n; i++) {
            size_t at = desc ? n - 1 - i : i;
            assert_status(arr(&ks[m++], o, kind, (const char *)values + at * stride, len[at]), ORDO_OK);
        }
        if (!nf)
            assert_status(arr(&ks[m++], o, kind, NULL, -1), ORDO_OK);
        check_sorted(ks, m, what, oi);
    }
}

static const int32_t enums[][MAXE] = {{0}, {0}, {0, 2}, {1}, {2}, {2, NUL}, {NUL}, {NUL, 0}};
static const int enums_len[] = {0, 1, 2, 1, 1, 2, 1, 2};
static const rec recs[][MAXE] = {
    {{0}},
    {{1, -1, ""}},
    {{1, 1, ""}},
    {{1, 1, "a"}},
    {{1, 1, "a"}, {1, 1, "a"}},
    {{1, 1, "a"}, {0}},
    {{1, 1, "b"}},
    {{1, 1, NULL}},
    {{1, 2, "a"}},
    {{1, NUL, "a"}},
    {{1, NUL, NULL}}, /* a record of NULLs: below a NULL record */
    {{0}},
    {{0}, {1, 1, "a"}},
};
static const int recs_len[] = {0, 1, 1, 1, 2, 2, 1, 1, 1, 1, 1, 1, 2};
static const rng rngs[][MAXE] = {
    {{0}},
    {{1, EM, 0, 0}},
    {{1, EM, 0, 0}, {1, EM, 0, 0}},
    {{1, LN, 0, 5}},
    {{1, LN | UN, 0, 0}},
    {{1, LI, 1, 5}},
    {{1, LI, 1, 5}, {0}},
    {{1, LI | UN, 1, 0}},
    {{1, LI, 2, 3}},
    {{0}},
    {{0}, {1, EM, 0, 0}},
};
static const int rngs_len[] = {0, 1, 2, 1, 1, 1, 2, 1, 1, 1, 2};

static void order(void **state)
{
    (void)state;
    check_order('e', enums, sizeof enums[0], enums_len, sizeof enums_len / sizeof enums_len[0], "enum[]");
    check_order('r', recs, sizeof recs[0], recs_len, sizeof recs_len / sizeof recs_len[0], "record[]");
    check_order('g', rngs, sizeof rngs[0], rngs_len, sizeof rngs_len / sizeof rngs_len[0], "int4range[]");
}

/* Reads one array of kind back and writes it again into w (the reader's
 * values drive the builder), so equal bytes prove the values came back. */
static void copy_array(ordo_key_reader *r, ordo_key *w, ordo_order o, char kind)
{
    uint8_t scratch[1024], inner[1024];
    size_t count = 0;
    bool isnull;
    assert_status(ordo_key_read_array_begin(r, o, scratch, sizeof scratch, NULL, &count, &isnull),
                  ORDO_OK);
    if (isnull) {
        ordo_key_null(w, o);
        return;
    }
    ordo_key_array_begin(w, o);
    for (size_t i = 0; i < count; i++) {
        if (kind == 'e') {
            uint64_t rank;
            assert_status(ordo_key_read_uint(r, AL, ORDO_TYPE_ENUM, &rank, &isnull), ORDO_OK);
            isnull ? ordo_key_null(w, AL) : ordo_key_enum(w, AL, (uint32_t)rank);
        } else if (kind == 'r') {
            assert_status(ordo_key_read_record_begin(r, AL, &isnull), ORDO_OK);
            if (isnull) {
                ordo_key_null(w, AL);
                continue;
            }
            ordo_key_record_begin(w, AL);
            int64_t a;
            char b[64];
            size_t bn;
            assert_status(ordo_key_read_int(r, AL, ORDO_TYPE_INT32, &a, &isnull), ORDO_OK);
            isnull ? ordo_key_null(w, AL) : ordo_key_int32(w, AL, (int32_t)a);
            assert_status(ordo_key_read_bytes(r, AL, b, sizeof b, &bn, &isnull), ORDO_OK);
            isnull ? ordo_key_null(w, AL) : ordo_key_text(w, AL, b, bn);
            assert_status(ordo_key_read_record_end(r), ORDO_OK);
            ordo_key_record_end(w);
        } else {
            unsigned fl;
            assert_status(ordo_key_read_range_begin(r, AL, ORDO_TYPE_INT32, inner, sizeof inner, NULL,
                                                    &fl, &isnull),
                          ORDO_OK);
            if (isnull) {
                ordo_key_null(w, AL);
                continue;
            }
            ordo_key_range_begin(w, AL, ORDO_TYPE_INT32, fl);
            int nb = (fl & EM) ? 0 : !(fl & LN) + !(fl & UN);
            for (int b = 0; b < nb; b++) {
                int64_t x;
                assert_status(ordo_key_read_int(r, AL, ORDO_TYPE_INT32, &x, &isnull), ORDO_OK);
                ordo_key_int32(w, AL, (int32_t)x);
            }
            assert_status(ordo_key_read_range_end(r), ORDO_OK);
            ordo_key_range_end(w);
        }
    }
    assert_status(ordo_key_read_array_end(r), ORDO_OK);
    ordo_key_array_end(w);
}

static void round_trip_one(char kind, const void *v, int n)
{
    for (int oi = 0; oi < 4; oi++) {
        ordo_order o = orders[oi];
        key k, w;
        assert_status(arr(&k, o, kind, v, n), ORDO_OK);
        ordo_key_reader r;
        ordo_key_reader_init(&r, k.b, k.n);
        ordo_key wk;
        ordo_key_init(&wk, w.b, sizeof w.b, 0);
        copy_array(&r, &wk, o, kind);
        assert_int_equal(ordo_key_reader_remaining(&r), 0);
        assert_status(ordo_key_finish(&wk, &w.n), ORDO_OK);
        assert_int_equal(w.n, k.n);
        assert_memory_equal(w.b, k.b, k.n);
    }
}

static void round_trips(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof enums_len / sizeof enums_len[0]; i++)
        round_trip_one('e', enums[i], enums_len[i]);
    for (size_t i = 0; i < sizeof recs_len / sizeof recs_len[0]; i++)
        round_trip_one('r', recs[i], recs_len[i]);
    for (size_t i = 0; i < sizeof rngs_len / sizeof rngs_len[0]; i++)
        round_trip_one('g', rngs[i], rngs_len[i]);
}

/* An array of records inside a descending record, between two fields:
 * record(x int, a record(a int, b text)[], y int) DESC, as the tool
 * writes it, read back whole. */
static void inside_records(void **state)
{
    (void)state;
    for (int oi = 0; oi < 4; oi++) {
        ordo_order o = orders[oi];
        key k, w;
        ordo_key kb;
        ordo_key_init(&kb, k.b, sizeof k.b, 0);
        ordo_key_int8(&kb, o, 7);
        ordo_key_record_begin(&kb, o);
        ordo_key_int32(&kb, AL, 1);
        ordo_key_array_begin(&kb, AL);
        put_rec(&kb, &recs[5][0]);
        put_rec(&kb, &recs[5][1]);
        ordo_key_array_end(&kb);
        ordo_key_int32(&kb, AL, 2);
        ordo_key_record_end(&kb);
        ordo_key_int8(&kb, o, 8);
        assert_status(ordo_key_finish(&kb, &k.n), ORDO_OK);

        ordo_key_reader r;
        ordo_key_reader_init(&r, k.b, k.n);
        ordo_key_init(&kb, w.b, sizeof w.b, 0);
        int64_t x;
        bool isnull;
        assert_status(ordo_key_read_int(&r, o, ORDO_TYPE_INT8, &x, &isnull), ORDO_OK);
        assert_int_equal(x, 7);
        ordo_key_int8(&kb, o, (int8_t)x);
        assert_status(ordo_key_read_record_begin(&r, o, &isnull), ORDO_OK);
        ordo_key_record_begin(&kb, o);
        assert_status(ordo_key_read_int(&r, AL, ORDO_TYPE_INT32, &x, &isnull), ORDO_OK);
        assert_int_equal(x, 1);
        ordo_key_int32(&kb, AL, (int32_t)x);
        copy_array(&r, &kb, AL, 'r');
        assert_status(ordo_key_read_int(&r, AL, ORDO_TYPE_INT32, &x, &isnull), ORDO_OK);
        assert_int_equal(x, 2);
        ordo_key_int32(&kb, AL, (int32_t)x);
        assert_status(ordo_key_read_record_end(&r), ORDO_OK);
        ordo_key_record_end(&kb);
        assert_status(ordo_key_read_int(&r, o, ORDO_TYPE_INT8, &x, &isnull), ORDO_OK);
        assert_int_equal(x, 8);
        ordo_key_int8(&kb, o, (int8_t)x);
        assert_int_equal(ordo_key_reader_remaining(&r), 0);
        assert_status(ordo_key_finish(&kb, &w.n), ORDO_OK);
        assert_int_equal(w.n, k.n);
        assert_memory_equal(w.b, k.b, k.n);
    }
}

/* A batch whose columns are such arrays (ORDO_TYPE_ENCODED, filled from
 * PostgreSQL's text by the ingest library) gives the row API's keys. */
static void batches(void **state)
{
    (void)state;
    ordo_schema s;
    ordo_error err;
    assert_status(ordo_schema_parse("e enum('sad', 'ok', 'happy')[] DESC, r record(a integer, b text)[], "
                                    "g int4range[] NULLS FIRST",
                                    ORDO_FORMAT_ORDERED, &s, &err),
                  ORDO_OK);
    assert_int_equal(s.cols[0].type, ORDO_TYPE_ENCODED);
    assert_int_equal(s.cols[0].sql, ORDO_SQL_ARRAY);
    assert_string_equal(s.cols[0].sql_name, "enum('sad', 'ok', 'happy')[]");
    assert_int_equal(s.cols[0].fields->cols[0].type, ORDO_TYPE_ENUM);
    assert_int_equal(s.cols[0].fields->cols[0].nlabels, 3);
    assert_int_equal(s.cols[1].fields->cols[0].sql, ORDO_SQL_RECORD);
    assert_int_equal(s.cols[2].fields->cols[0].sql, ORDO_SQL_RANGE);
    static const char *const rows[][3] = {
        {"{happy,NULL,sad}", "{\"(1,a)\",\"(2,)\"}", "{\"[1,5)\",empty}"},
        {"{}", NULL, "{NULL,\"(,)\"}"},
        {NULL, "{NULL,\"(,)\"}", "{}"},
    };
    const int32_t moods[] = {2, NUL, 0};
    const rec r1[] = {{1, 1, "a"}, {1, 2, NULL}}, r2[] = {{0, 0, NULL}, {1, NUL, NULL}};
    const rng g1[] = {{1, LI, 1, 5}, {1, EM, 0, 0}}, g2[] = {{0, 0, 0, 0}, {1, LN | UN, 0, 0}};
    const void *vals[3][3] = {{moods, r1, g1}, {NULL, NULL, g2}, {NULL, r2, NULL}};
    const int lens[3][3] = {{3, 2, 2}, {0, -1, 2}, {-1, 2, 0}};
    const char kinds[3] = {'e', 'r', 'g'};
    const ordo_order ord[3] = {ORDO_DESC_NULLS_FIRST, AL, ORDO_ASC_NULLS_FIRST};
    ordo_rows *b;
    assert_status(ordo_rows_open(&s, 3, &b), ORDO_OK);
    static uint8_t want[3][3000];
    size_t wn[3] = {0, 0, 0};
    for (size_t i = 0; i < 3; i++) {
        for (size_t c = 0; c < 3; c++) {
            const char *t = rows[i][c];
            assert_status(t ? ordo_rows_put_text(b, c, t, strlen(t), 1, &err) : ordo_rows_put_null(b, c),
                          ORDO_OK);
            key f;
            assert_status(arr(&f, ord[c], kinds[c], vals[i][c], lens[i][c]), ORDO_OK);
            memcpy(want[i] + wn[i], f.b, f.n);
            wn[i] += f.n;
        }
        ordo_rows_end_row(b);
    }
    size_t nrows, total, offs[4];
    const ordo_column *cols = ordo_rows_columns(b, &nrows);
    assert_int_equal(nrows, 3);
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, cols, 3, nrows, &total, NULL, NULL), ORDO_OK);
    uint8_t *out = malloc(total);
    assert_non_null(out);
    assert_status(ordo_batch_encode(ORDO_FORMAT_ORDERED, cols, 3, nrows, out, total, offs, NULL),
                  ORDO_OK);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(offs[i + 1] - offs[i], wn[i]);
        assert_memory_equal(out + offs[i], want[i], wn[i]);
    }
    free(out);
    ordo_rows_close(b);
    ordo_schema_free(&s);
}

/* ORDO_NEST_MAX_DEPTH arrays inside each other, the innermost holding a
 * range: written and read back (the reader opens as many as the builder). */
static void deepest(void **state)
{
    (void)state;
    key w;
    static struct {
        uint8_t b[65536];
        size_t n;
    } k;
    static uint8_t scratch[ORDO_NEST_MAX_DEPTH][65536];
    ordo_key kb;
    ordo_key_init(&kb, k.b, sizeof k.b, 0);
    for (int d = 0; d < ORDO_NEST_MAX_DEPTH - 1; d++)
        assert_status(ordo_key_array_begin(&kb, d ? AL : ORDO_DESC_NULLS_LAST), ORDO_OK);
    const rng g = {1, LI, 1, 5};
    put_rng(&kb, &g);
    for (int d = 0; d < ORDO_NEST_MAX_DEPTH - 1; d++)
        assert_status(ordo_key_array_end(&kb), ORDO_OK);
    assert_status(ordo_key_finish(&kb, &k.n), ORDO_OK);
    ordo_key_reader r;
    ordo_key_reader_init(&r, k.b, k.n);
    size_t count;
    bool isnull;
    unsigned fl;
    int64_t x[2];
    for (int d = 0; d < ORDO_NEST_MAX_DEPTH - 1; d++) {
        assert_status(ordo_key_read_array_begin(&r, d ? AL : ORDO_DESC_NULLS_LAST, scratch[d],
                                                sizeof scratch[d], NULL, &count, &isnull),
                      ORDO_OK);
        assert_int_equal(count, 1);
    }
    assert_status(ordo_key_read_range_begin(&r, AL, ORDO_TYPE_INT32, scratch[ORDO_NEST_MAX_DEPTH - 1],
                                            sizeof scratch[0], NULL, &fl, &isnull),
                  ORDO_OK);
    assert_int_equal(fl, LI);
    assert_status(ordo_key_read_int(&r, AL, ORDO_TYPE_INT32, &x[0], &isnull), ORDO_OK);
    assert_status(ordo_key_read_int(&r, AL, ORDO_TYPE_INT32, &x[1], &isnull), ORDO_OK);
    assert_int_equal(x[0], 1);
    assert_int_equal(x[1], 5);
    assert_status(ordo_key_read_range_end(&r), ORDO_OK);
    for (int d = 0; d < ORDO_NEST_MAX_DEPTH - 1; d++)
        assert_status(ordo_key_read_array_end(&r), ORDO_OK);
    assert_int_equal(ordo_key_reader_remaining(&r), 0);
    /* one more level is refused by both */
    ordo_key_init(&kb, w.b, sizeof w.b, 0);
    for (int d = 0; d < ORDO_NEST_MAX_DEPTH; d++)
        ordo_key_array_begin(&kb, AL);
    assert_status(ordo_key_range_begin(&kb, AL, ORDO_TYPE_INT32, EM), ORDO_ERR_BAD_STATE);
}

static void errors(void **state)
{
    (void)state;
    key k;
    uint8_t scratch[1024];
    bool isnull;
    size_t count;
    unsigned fl;
    /* a range that fails inside an array leaves whole fields only */
    const rng bad[] = {{1, LI, 5, 1}};
    ordo_key kb;
    ordo_key_init(&kb, k.b, sizeof k.b, 0);
    ordo_key_int8(&kb, AL, 1);
    ordo_key_array_begin(&kb, AL);
    put_rng(&kb, &bad[0]);
    assert_status(ordo_key_array_end(&kb), ORDO_ERR_INVALID_VALUE);
    assert_status(ordo_key_finish(&kb, &k.n), ORDO_ERR_INVALID_VALUE);
    assert_true(k.n <= 2);
    /* the reader: a range element read with a record call, a record's end
     * with the array's, the array's end inside an open record */
    const rng g[] = {{1, LI, 1, 5}};
    assert_status(arr(&k, AL, 'g', g, 1), ORDO_OK);
    ordo_key_reader r;
    ordo_key_reader_init(&r, k.b, k.n);
    assert_status(ordo_key_read_array_begin(&r, AL, scratch, sizeof scratch, NULL, &count, &isnull),
                  ORDO_OK);
    assert_int_equal(count, 1);
    assert_status(ordo_key_read_array_begin(&r, AL, scratch + 512, 512, NULL, &count, &isnull),
                  ORDO_ERR_MALFORMED_KEY);
    const rec rc[] = {{1, 1, "a"}};
    assert_status(arr(&k, AL, 'r', rc, 1), ORDO_OK);
    ordo_key_reader_init(&r, k.b, k.n);
    ordo_key_read_array_begin(&r, AL, scratch, sizeof scratch, NULL, &count, &isnull);
    assert_status(ordo_key_read_record_begin(&r, AL, &isnull), ORDO_OK);
    assert_status(ordo_key_read_array_end(&r), ORDO_ERR_BAD_STATE);
    /* inside a range nothing nests */
    assert_status(arr(&k, AL, 'g', g, 1), ORDO_OK);
    ordo_key_reader_init(&r, k.b, k.n);
    ordo_key_read_array_begin(&r, AL, scratch, sizeof scratch, NULL, &count, &isnull);
    assert_status(ordo_key_read_range_begin(&r, AL, ORDO_TYPE_INT32, scratch + 512, 512, NULL, &fl,
                                            &isnull),
                  ORDO_OK);
    assert_status(ordo_key_read_record_begin(&r, AL, &isnull), ORDO_ERR_BAD_STATE);
    /* an element in another order than ASC NULLS LAST */
    ordo_key_reader_init(&r, k.b, k.n);
    ordo_key_read_array_begin(&r, AL, scratch, sizeof scratch, NULL, &count, &isnull);
    assert_status(ordo_key_read_range_begin(&r, ORDO_ASC_NULLS_FIRST, ORDO_TYPE_INT32, scratch + 512,
                                            512, NULL, &fl, &isnull),
                  ORDO_ERR_INVALID_ORDER);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vectors),        cmocka_unit_test(order), cmocka_unit_test(round_trips),
        cmocka_unit_test(inside_records), cmocka_unit_test(batches), cmocka_unit_test(deepest),
        cmocka_unit_test(errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
