/* The table library's Arrow and plain (NumPy-layout) import, threaded
 * batch encoding and table-rows encoder, in-process: every type mapping
 * (read in place or converted), slices, dictionaries, views, hostile
 * structs refused with a specific error, plain buffers of every kind and
 * datetime64 unit, the float -> numeric text, and the encoder's names,
 * faults, keys and values against one batch call and the ingest library. */
#include "ordo_test.h"

#include <float.h>
#include <math.h>
#include <ordo_table.h>

/* Threads the encoding tests use: one under qemu-user (cross builds), whose
 * pthread_create never returns on the test machines. */
#ifdef ORDO_TEST_NO_THREADS
#define MAX_THREADS 1
#else
#define MAX_THREADS 3
#endif

/* ------------------------------------------------------ Arrow helpers */

static void release_schema(struct ArrowSchema *s) { s->release = NULL; }
static void release_array(struct ArrowArray *a) { a->release = NULL; }

/* One Arrow array of format fmt over up to four buffers (borrowed). */
typedef struct acol {
    struct ArrowSchema s;
    struct ArrowArray a;
    const void *bufs[4];
} acol;

static void mk(acol *c, const char *fmt, int64_t length, int64_t offset, int64_t nulls,
               int nbufs, const void *b0, const void *b1, const void *b2, const void *b3)
{
    memset(c, 0, sizeof *c);
    c->s.format = fmt;
    c->s.name = "a";
    c->s.release = release_schema;
    c->bufs[0] = b0, c->bufs[1] = b1, c->bufs[2] = b2, c->bufs[3] = b3;
    c->a.length = length;
    c->a.offset = offset;
    c->a.null_count = nulls;
    c->a.n_buffers = nbufs;
    c->a.buffers = c->bufs;
    c->a.release = release_array;
}

/* A schema column of type `sql` in the ordered format (or lexkey). */
typedef struct tcol {
    ordo_schema s;
} tcol;

static const ordo_schema_column *col_of(tcol *t, const char *sql, ordo_format f)
{
    char text[128];
    snprintf(text, sizeof text, "a %s", sql);
    ordo_error e;
    assert_int_equal(ordo_schema_parse(text, f, &t->s, &e), ORDO_OK);
    return &t->s.cols[0];
}

/* The import options of import() and plain() (the defaults unless a test sets them). */
static ordo_table_import_options io;

/* Imports c as sql; the status, with the column in *col (scratch kept in *sx). */
static ordo_status import(acol *c, const char *sql, ordo_format f, ordo_table_scratch *sx,
                          tcol *t, ordo_column *col, ordo_error *e)
{
    const ordo_schema_column *sc = col_of(t, sql, f);
    return ordo_table_arrow_column(&c->s, &c->a, (size_t)c->a.offset, (size_t)c->a.length, sc,
                                   "a", &io, sx, col, e);
}

static int valid(const ordo_column *c, size_t r)
{
    return !c->validity || (c->validity[(c->offset + r) >> 3] >> ((c->offset + r) & 7) & 1);
}

static const char *text_at(const ordo_column *c, size_t r, size_t *n)
{
    int64_t a, b;
    if (c->offset_bits == 64)
        a = ((const int64_t *)c->offsets)[c->offset + r], b = ((const int64_t *)c->offsets)[c->offset + r + 1];
    else
        a = ((const int32_t *)c->offsets)[c->offset + r], b = ((const int32_t *)c->offsets)[c->offset + r + 1];
    *n = (size_t)(b - a);
    return (const char *)c->values + a;
}

static void assert_text(const ordo_column *c, size_t r, const char *want)
{
    size_t n;
    char dec[ORDO_DECIMAL_TEXT_MAX];
    const char *s = dec;
    if (c->type == ORDO_TYPE_NUMERIC && c->numeric_layout != ORDO_NUMERIC_TEXT) {
        size_t w = ordo_numeric_layout_width(c->numeric_layout);
        n = ordo_decimal_text((const uint8_t *)c->values + w * (c->offset + r), w,
                              c->numeric_scale, dec, sizeof dec); /* read in place */
    } else {
        s = text_at(c, r, &n);
    }
    if (n != strlen(want) || memcmp(s, want, n))
        fail_msg("row %zu: '%.*s', expected '%s'", r, (int)n, s, want);
}

/* The ordered key of one value through the CSV path (the reference). */
static size_t csv_key(const char *sql, const char *text, uint8_t *out, size_t cap)
{
    tcol t;
    const ordo_schema_column *sc = col_of(&t, sql, ORDO_FORMAT_ORDERED);
    ordo_rows *rows;
    assert_int_equal(ordo_rows_open(&t.s, 1, &rows), ORDO_OK);
    ordo_error e;
    if (text)
        assert_int_equal(ordo_rows_put_text(rows, 0, text, strlen(text), 1, &e), ORDO_OK);
    else
        assert_int_equal(ordo_rows_put_null(rows, 0), ORDO_OK);
    ordo_rows_end_row(rows);
    size_t nrows;
    const ordo_column *c = ordo_rows_columns(rows, &nrows);
    size_t offs[2];
    assert_int_equal(ordo_batch_encode(ORDO_FORMAT_ORDERED, c, 1, 1, out, cap, offs, NULL), ORDO_OK);
    ordo_rows_close(rows);
    ordo_schema_free(&t.s);
    (void)sc;
    return offs[1];
}

/* Row r of an imported column as its key equals the CSV path's for text. */
static void assert_key(const ordo_column *c, size_t r, const char *sql, const char *text)
{
    uint8_t want[256], got[256];
    size_t wn = csv_key(sql, text, want, sizeof want), offs[2];
    ordo_column one = *c;
    one.offset += r;
    assert_int_equal(ordo_batch_encode(ORDO_FORMAT_ORDERED, &one, 1, 1, got, sizeof got, offs, NULL),
                     ORDO_OK);
    if (offs[1] != wn || memcmp(got, want, wn))
        fail_msg("row %zu: its key is not that of '%s' as %s", r, text ? text : "NULL", sql);
}

/* ------------------------------------------------------------ types */

/* ordo_table_arrow_type's text, kept until the next call; its status. */
static ordo_status arrow_type(const struct ArrowSchema *s, const char **t, ordo_error *e)
{
    static char text[512];
    ordo_buf b = {0};
    ordo_status st = ordo_table_arrow_type(s, "a", &b, e);
    snprintf(text, sizeof text, "%s", b.data ? b.data : "");
    ordo_buf_free(&b);
    *t = text;
    return st;
}

static void test_arrow_types(void **state)
{
    (void)state;
    static const char *const map[][2] = {
        {"c", "tinyint"},       {"s", "smallint"},        {"i", "integer"},
        {"l", "bigint"},        {"C", "utinyint"},        {"S", "usmallint"},
        {"I", "uinteger"},      {"L", "ubigint"},         {"f", "real"},
        {"g", "double precision"}, {"b", "boolean"},      {"u", "text"},
        {"U", "text"},          {"vu", "text"},           {"n", "text"},
        {"z", "bytea"},         {"Z", "bytea"},           {"vz", "bytea"},
        {"tdD", "date"},        {"tdm", "date"},          {"tss:", "timestamp"},
        {"tsn:", "timestamp"},  {"tsu:UTC", "timestamptz"}, {"tsm:Europe/Paris", "timestamptz"},
        {"tts", "time"},        {"ttn", "time"},          {"d:38,10", "numeric"},
        {"d:5,-2,32", "numeric"}, {"d:76,3,256", "numeric"}, {"e", "real"},
        {"w:16", "uuid"},       {"w:3", "bytea"},         {"tDs", "interval"},
        {"tDn", "interval"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        acol c;
        mk(&c, map[i][0], 0, 0, 0, 0, NULL, NULL, NULL, NULL);
        const char *t = NULL;
        ordo_error e;
        assert_int_equal(arrow_type(&c.s, &t, &e), ORDO_OK);
        assert_string_equal(t, map[i][1]);
    }
    /* a dictionary is its values' type */
    acol d, v;
    mk(&d, "c", 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    mk(&v, "u", 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    d.s.dictionary = &v.s;
    const char *t;
    ordo_error e;
    assert_int_equal(arrow_type(&d.s, &t, &e), ORDO_OK);
    assert_string_equal(t, "text");
    /* no ordo type; not an Arrow format */
    acol x;
    mk(&x, "tin", 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    assert_int_equal(arrow_type(&x.s, &t, &e), ORDO_ERR_BAD_TYPE);
    assert_string_equal(e.message,
                        "column 'a': the Arrow type month_day_nano_interval has no ordo type");
    mk(&x, "q", 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    assert_int_equal(arrow_type(&x.s, &t, &e), ORDO_ERR_BAD_TYPE);
    assert_non_null(strstr(e.message, "not an Arrow format"));
    mk(&x, "d:0,2", 0, 0, 0, 0, NULL, NULL, NULL, NULL); /* precision 0 */
    assert_int_equal(arrow_type(&x.s, &t, &e), ORDO_ERR_BAD_TYPE);
}

static void test_decimal_format(void **state)
{
    (void)state;
    int32_t p, s;
    int bits;
    assert_int_equal(ordo_arrow_decimal("d:38,10", &p, &s, &bits), ORDO_OK);
    assert_int_equal(p, 38), assert_int_equal(s, 10), assert_int_equal(bits, 128);
    assert_int_equal(ordo_arrow_decimal("d:9,-2147483648,32", &p, &s, &bits), ORDO_OK);
    assert_int_equal(s, INT32_MIN), assert_int_equal(bits, 32);
    static const char *const bad[] = {"d:", "d:1", "d:1,", "d:1,2,", "d:1,2,16", "d:0,1",
                                      "d:1,2147483648", "d:1,2,128x", "d:12345678901,1", "u"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(ordo_arrow_decimal(bad[i], NULL, NULL, NULL), ORDO_ERR_BAD_TYPE);
}

/* ----------------------------------------------------------- numbers */

static void test_integers(void **state)
{
    (void)state;
    int64_t v[] = {7, 1, 300, -5, 127};
    uint8_t validity = 0x1d; /* row 1 NULL */
    acol c;
    mk(&c, "l", 4, 1, 1, 2, &validity, v, NULL, NULL); /* a slice: rows 1..4 */
    ordo_table_scratch *sx;
    assert_int_equal(ordo_table_scratch_open(&sx), ORDO_OK);
    tcol t;
    ordo_column col;
    ordo_error e;
    /* in place: the buffers themselves, at the slice's offset */
    assert_int_equal(import(&c, "bigint", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_ptr_equal(col.values, v);
    assert_int_equal(col.offset, 1);
    ordo_schema_free(&t.s);
    /* narrowed: converted from row 0, the validity with it */
    assert_int_equal(import(&c, "smallint", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_int_equal(col.offset, 0);
    assert_int_equal(((const int16_t *)col.values)[1], 300);
    assert_int_equal(((const int16_t *)col.values)[2], -5);
    assert_true(valid(&col, 1) && valid(&col, 2) && valid(&col, 3));
    assert_false(valid(&col, 0)); /* element 1 is NULL */
    assert_key(&col, 2, "smallint", "-5");
    ordo_schema_free(&t.s);
    /* out of range: the row (0-based in the text, 1-based in line) */
    assert_int_equal(import(&c, "tinyint", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'a', row 1: out of range for tinyint");
    assert_int_equal(e.line, 2);
    ordo_schema_free(&t.s);
    assert_int_equal(import(&c, "ubigint", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'a', row 2: out of range for ubigint");
    ordo_schema_free(&t.s);
    /* integers into numeric: their decimal text */
    assert_int_equal(import(&c, "numeric", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_text(&col, 1, "300");
    assert_text(&col, 2, "-5");
    ordo_schema_free(&t.s);
    /* bools are no numbers */
    uint8_t bits = 0x05;
    acol b;
    mk(&b, "b", 3, 0, 0, 2, NULL, &bits, NULL, NULL);
    assert_int_equal(import(&b, "integer", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'a', row 0: not a number (a boolean) for integer");
    ordo_schema_free(&t.s);
    assert_int_equal(import(&b, "numeric", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_BAD_TYPE);
    assert_string_equal(e.message, "column 'a': cannot read Arrow bool as numeric");
    ordo_schema_free(&t.s);
    ordo_table_scratch_close(sx);
}

/* The fewest significant digits that read back as d, the reference: every
 * precision from 1 up. */
static int shortest(double d)
{
    char out[64];
    for (int p = 1; p < 17; p++) {
        snprintf(out, sizeof out, "%.*g", p, d);
        if (strtod(out, NULL) == d)
            return p;
    }
    return 17;
}

/* Row r's text reads back as d with `digits` significant digits (leading
 * and trailing zeros are none: a shortest form never ends in a zero digit
 * that matters). */
static void assert_shortest(const ordo_column *c, size_t r, double d, int digits)
{
    size_t n;
    const char *s = text_at(c, r, &n);
    char buf[64], sig[64];
    snprintf(buf, sizeof buf, "%.*s", (int)n, s);
    assert_true(strtod(buf, NULL) == d);
    size_t k = 0;
    for (const char *p = buf; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9' && (k || *p != '0'))
            sig[k++] = *p;
    while (k > 1 && sig[k - 1] == '0')
        k--;
    if (d == 0)
        k = 1;
    if ((int)k != digits)
        fail_msg("row %zu: '%s' has %zu significant digits, the shortest %d", r, buf, k, digits);
}

static void test_floats(void **state)
{
    (void)state;
    double v[] = {0.1, 1.0 / 3, 5e-324, 1e-50, 100, -0.0, 2.5e-310, 123456789.125, NAN, INFINITY};
    size_t n = sizeof v / sizeof v[0];
    acol c;
    mk(&c, "g", (int64_t)n, 0, 0, 2, NULL, v, NULL, NULL);
    ordo_table_scratch *sx;
    assert_int_equal(ordo_table_scratch_open(&sx), ORDO_OK);
    tcol t;
    ordo_column col;
    ordo_error e;
    /* numeric: the shortest round-trip text (17 digits at most) */
    assert_int_equal(import(&c, "numeric", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    for (size_t i = 0; i < n - 2; i++)
        assert_shortest(&col, i, v[i], shortest(v[i]));
    assert_text(&col, 2, "5e-324");
    assert_text(&col, n - 2, "NaN");
    assert_text(&col, n - 1, "Infinity");
    ordo_schema_free(&t.s);
    /* real: 1e-50 rounds to 0, refused as PostgreSQL's float8 -> float4 refuses it */
    assert_int_equal(import(&c, "real", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'a', row 2: out of range for real");
    ordo_schema_free(&t.s);
    /* an int past float's range; a float into an integer */
    double big[] = {1e39};
    mk(&c, "g", 1, 0, 0, 2, NULL, big, NULL, NULL);
    assert_int_equal(import(&c, "real", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_OUT_OF_RANGE);
    ordo_schema_free(&t.s);
    assert_int_equal(import(&c, "bigint", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'a', row 0: not an integer (a float) for bigint");
    ordo_schema_free(&t.s);
    ordo_table_scratch_close(sx);
}

/* --------------------------------------------------------- decimals */

static void test_decimals(void **state)
{
    (void)state;
    ordo_table_scratch *sx;
    assert_int_equal(ordo_table_scratch_open(&sx), ORDO_OK);
    tcol t;
    ordo_column col;
    ordo_error e;
    /* decimal128 (the default width): -12345 and 7 at scale 2 */
    int64_t d128[] = {-12345, -1, 7, 0};
    acol c;
    mk(&c, "d:10,2", 2, 0, 0, 2, NULL, d128, NULL, NULL);
    assert_int_equal(import(&c, "numeric", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_int_equal(col.numeric_layout, ORDO_NUMERIC_DECIMAL128); /* read in place */
    assert_ptr_equal(col.values, d128);
    assert_int_equal(col.numeric_scale, 2);
    assert_text(&col, 0, "-123.45");
    assert_text(&col, 1, "0.07");
    assert_key(&col, 0, "numeric", "-123.45");
    ordo_schema_free(&t.s);
    /* decimal32 with a negative scale: an exponent */
    int32_t d32[] = {5, -31};
    mk(&c, "d:3,-2,32", 2, 0, 0, 2, NULL, d32, NULL, NULL);
    assert_int_equal(import(&c, "numeric", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_text(&col, 0, "5e2");
    assert_text(&col, 1, "-31e2");
    assert_key(&col, 1, "numeric", "-3100");
    ordo_schema_free(&t.s);
    /* decimal64 sliced, decimal256 of 2^255 - 1 */
    int64_t d64[] = {1, 250, 3};
    mk(&c, "d:18,3,64", 2, 1, 0, 2, NULL, d64, NULL, NULL);
    assert_int_equal(import(&c, "numeric", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_int_equal(col.numeric_layout, ORDO_NUMERIC_INT64);
    assert_key(&col, 0, "numeric", "0.250");
    assert_text(&col, 0, "0.250");
    assert_text(&col, 1, "0.003");
    ordo_schema_free(&t.s);
    uint64_t d256[4] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, INT64_MAX};
    mk(&c, "d:76,0,256", 1, 0, 0, 2, NULL, d256, NULL, NULL);
    assert_int_equal(import(&c, "numeric", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_text(&col, 0,
                "57896044618658097711785492504343953926634992332820282019728792003956564819967");
    ordo_schema_free(&t.s);
    /* a decimal is only a numeric */
    assert_int_equal(import(&c, "bigint", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_BAD_TYPE);
    assert_string_equal(e.message, "column 'a': cannot read Arrow decimal256(76, 0) as bigint");
    ordo_schema_free(&t.s);
    ordo_table_scratch_close(sx);
}

/* ----------------------------------- halfs, fixed-size binary, durations */

static void test_more_types(void **state)
{
    (void)state;
    ordo_table_scratch *sx;
    assert_int_equal(ordo_table_scratch_open(&sx), ORDO_OK);
    tcol t;
    ordo_column col;
    ordo_error e;
    acol c;
    /* float16: 1.5, -2, the smallest subnormal, inf; into real, double, numeric */
    uint16_t h[] = {0x3e00, 0xc000, 0x0001, 0x7c00};
    mk(&c, "e", 4, 0, 0, 2, NULL, h, NULL, NULL);
    assert_int_equal(import(&c, "real", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    const float *f = col.values;
    assert_true(f[0] == 1.5f && f[1] == -2.0f && f[2] == 0x1p-24f && isinf(f[3]));
    ordo_schema_free(&t.s);
    assert_int_equal(import(&c, "double precision", ORDO_FORMAT_LEXKEY, sx, &t, &col, &e), ORDO_OK);
    assert_true(((const double *)col.values)[2] == 0x1p-24);
    ordo_schema_free(&t.s);
    assert_int_equal(import(&c, "numeric", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_text(&col, 0, "1.5");
    ordo_schema_free(&t.s);
    /* fixed_size_binary(16): a uuid in place (an offset too); bytea copied */
    uint8_t u[48];
    for (int i = 0; i < 48; i++)
        u[i] = (uint8_t)i;
    uint8_t bits = 0x5; /* row 1 NULL */
    mk(&c, "w:16", 3, 0, 1, 2, &bits, u, NULL, NULL);
    assert_int_equal(import(&c, "uuid", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_ptr_equal(col.values, u);
    assert_key(&col, 2, "uuid", "20212223-2425-2627-2829-2a2b2c2d2e2f");
    ordo_schema_free(&t.s);
    assert_int_equal(import(&c, "bytea", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 0, "bytea", "\\x000102030405060708090a0b0c0d0e0f");
    assert_false(valid(&col, 1));
    ordo_schema_free(&t.s);
    mk(&c, "w:3", 3, 0, 0, 2, NULL, u, NULL, NULL);
    assert_int_equal(import(&c, "uuid", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_BAD_TYPE);
    assert_string_equal(e.message, "column 'a': cannot read Arrow fixed_size_binary[3] as uuid");
    ordo_schema_free(&t.s);
    /* durations: intervals of microseconds; ns not whole refused or floored */
    int64_t ds[] = {90061, -1}, dn[] = {1000, -1};
    mk(&c, "tDs", 2, 0, 0, 2, NULL, ds, NULL, NULL);
    assert_int_equal(import(&c, "interval", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_int_equal(((const ordo_interval *)col.values)[0].micros, INT64_C(90061000000));
    assert_key(&col, 0, "interval", "25:01:01");
    assert_key(&col, 1, "interval", "-00:00:01");
    ordo_schema_free(&t.s);
    int64_t big[] = {INT64_MAX};
    mk(&c, "tDs", 1, 0, 0, 2, NULL, big, NULL, NULL);
    assert_int_equal(import(&c, "interval", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'a', row 0: interval out of range");
    ordo_schema_free(&t.s);
    mk(&c, "tDn", 2, 0, 0, 2, NULL, dn, NULL, NULL);
    assert_int_equal(import(&c, "interval", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_INVALID_VALUE);
    assert_string_equal(e.message, "column 'a', row 1: -1 ns is not a whole number of "
                                   "microseconds (PostgreSQL's unit); timestamps=\"truncate\" "
                                   "floors it");
    ordo_schema_free(&t.s);
    io.timestamps = ORDO_TABLE_TIMESTAMPS_TRUNCATE;
    assert_int_equal(import(&c, "interval", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_int_equal(((const ordo_interval *)col.values)[1].micros, -1);
    ordo_schema_free(&t.s);
    io.timestamps = ORDO_TABLE_TIMESTAMPS_REFUSE;
    assert_int_equal(import(&c, "bigint", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_BAD_TYPE);
    assert_string_equal(e.message, "column 'a': cannot read Arrow duration[ns] as bigint");
    ordo_schema_free(&t.s);
    /* a list as an array through its text; offsets that decrease: the row */
    int32_t kids[] = {7, 8, 9}, loff[] = {0, 2, 3}, bad[] = {0, 2, 1};
    acol kid, lst;
    mk(&kid, "i", 3, 0, 0, 2, NULL, kids, NULL, NULL);
    mk(&lst, "+l", 2, 0, 0, 2, NULL, loff, NULL, NULL);
    struct ArrowSchema *ks = &kid.s;
    struct ArrowArray *ka = &kid.a;
    lst.s.n_children = lst.a.n_children = 1;
    lst.s.children = &ks, lst.a.children = &ka;
    assert_int_equal(import(&lst, "integer[]", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 0, "integer[]", "{7,8}");
    assert_key(&col, 1, "integer[]", "{9}");
    ordo_schema_free(&t.s);
    const char *lt = NULL;
    assert_int_equal(arrow_type(&lst.s, &lt, &e), ORDO_OK);
    assert_string_equal(lt, "integer[]");
    lst.bufs[1] = bad;
    assert_int_equal(import(&lst, "integer[]", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_INVALID_VALUE);
    assert_string_equal(e.message, "column 'a', row 1: a malformed Arrow array (offsets that "
                                   "decrease)");
    ordo_schema_free(&t.s);
    assert_int_equal(import(&lst, "bigint", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_BAD_TYPE);
    assert_string_equal(e.message, "column 'a': cannot read Arrow list<a: int32> as bigint");
    ordo_schema_free(&t.s);
    ordo_table_scratch_close(sx);
}

/* A struct's type is the record of its fields, named as a schema names
 * them, typed by the same mapping, recursively; one the nested reader
 * cannot read has none (its reason said), *type kept as it was. */
static void test_arrow_record_types(void **state)
{
    (void)state;
    acol a, b, c, t, d, li, in, st, ls;
    mk(&a, "l", 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    mk(&b, "u", 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    mk(&t, "tsu:UTC", 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    mk(&d, "d:5,2", 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    mk(&in, "+s", 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    mk(&li, "+l", 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    mk(&st, "+s", 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    mk(&c, "tDn", 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    b.s.name = "b c", t.s.name = "t", d.s.name = "item", in.s.name = "s", li.s.name = "l",
    c.s.name = "_d9";
    struct ArrowSchema *inner[] = {&t.s}, *dk[] = {&d.s}, *fields[] = {&a.s, &b.s, &in.s, &li.s, &c.s};
    in.s.n_children = 1, in.s.children = inner;
    li.s.n_children = 1, li.s.children = dk;
    st.s.n_children = 5, st.s.children = fields;
    const char *type;
    ordo_error e;
    assert_int_equal(arrow_type(&st.s, &type, &e), ORDO_OK);
    assert_string_equal(type, "record(a bigint, \"b c\" text, s record(t timestamptz), "
                              "l numeric[], _d9 interval)");
    /* the text parses: the record's five fields */
    char schema[600];
    snprintf(schema, sizeof schema, "r %s", type);
    ordo_schema sch;
    assert_int_equal(ordo_schema_parse(schema, ORDO_FORMAT_ORDERED, &sch, &e), ORDO_OK);
    assert_int_equal(sch.cols[0].sql, ORDO_SQL_RECORD);
    assert_int_equal(sch.cols[0].fields->ncols, 5);
    ordo_schema_free(&sch);
    /* a list of structs: the record's array */
    struct ArrowSchema *sk[] = {&in.s};
    mk(&ls, "+L", 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    ls.s.n_children = 1, ls.s.children = sk;
    assert_int_equal(arrow_type(&ls.s, &type, &e), ORDO_OK);
    assert_string_equal(type, "record(t timestamptz)[]");
    /* none: each refusal names the whole type and, for a record, why */
    ordo_buf kept = {0};
    assert_int_equal(ordo_buf_append(&kept, "x, ", 3), ORDO_OK);
    static const struct { const char *name; const char *why; } bad[] = {
        {"", " (a field without a name)"},
        {"a", " (two fields of one name)"},
        {"q\"", " (a field's name holds a double quote)"}};
    for (size_t i = 0; i < 3; i++) {
        c.s.name = bad[i].name;
        assert_int_equal(ordo_table_arrow_type(&st.s, "r", &kept, &e), ORDO_ERR_BAD_TYPE);
        assert_string_equal(kept.data, "x, "); /* as it was */
        assert_non_null(strstr(e.message, "column 'r': the Arrow type struct<a: int64, b c: "
                                          "string, s: struct<t: timestamp[us, tz=UTC]>"));
        assert_string_equal(e.message + strlen(e.message) - strlen(bad[i].why), bad[i].why);
    }
    c.s.name = "_d9";
    st.s.n_children = 0;
    assert_int_equal(arrow_type(&st.s, &type, &e), ORDO_ERR_BAD_TYPE);
    assert_string_equal(e.message, "column 'a': the Arrow type struct<> has no ordo type "
                                   "(a struct without fields)");
    /* fields the reader cannot read (views; fixed-size binary it reads:
     * python/tests/test_types.py): no type */
    const char *unread[] = {"vu", "vz"};
    for (size_t i = 0; i < 2; i++) {
        c.s.format = unread[i];
        st.s.n_children = 5;
        assert_int_equal(ordo_table_arrow_type(&st.s, "r", &kept, &e), ORDO_ERR_BAD_TYPE);
        assert_string_equal(kept.data, "x, ");
        d.s.format = unread[i]; /* a list of them neither */
        assert_int_equal(arrow_type(&li.s, &type, &e), ORDO_ERR_BAD_TYPE);
        assert_string_equal(type, "");
        d.s.format = "d:5,2";
    }
    c.s.format = "tDn";
    acol v;
    mk(&v, "u", 0, 0, 0, 0, NULL, NULL, NULL, NULL);
    a.s.dictionary = &v.s;
    assert_int_equal(arrow_type(&st.s, &type, &e), ORDO_ERR_BAD_TYPE);
    a.s.dictionary = NULL;
    ordo_buf_free(&kept);
}

/* A list of one child (borrowed) with int32 offsets. */
typedef struct alist {
    acol kid, lst;
    struct ArrowSchema *ks;
    struct ArrowArray *ka;
} alist;

static void mk_list(alist *l, const char *fmt, const void *vals, int64_t nvals,
                    const int32_t *off, int64_t rows)
{
    mk(&l->kid, fmt, nvals, 0, 0, 2, NULL, vals, NULL, NULL);
    mk(&l->lst, "+l", rows, 0, 0, 2, NULL, off, NULL, NULL);
    l->ks = &l->kid.s, l->ka = &l->kid.a;
    l->lst.s.n_children = l->lst.a.n_children = 1;
    l->lst.s.children = &l->ks, l->lst.a.children = &l->ka;
}

/* Lists and structs of dates, timestamps, times, durations and decimals:
 * each element converted as its own column's value would be (the time
 * units' rule naming the list's row, both int64 ends) and printed as
 * PostgreSQL does. */
static void test_nested_times(void **state)
{
    (void)state;
    ordo_table_scratch *sx;
    assert_int_equal(ordo_table_scratch_open(&sx), ORDO_OK);
    tcol t;
    ordo_column col;
    ordo_error e;
    alist l;
    const int64_t ns[] = {1000, 2001, INT64_MIN, INT64_MAX};
    const int32_t off[] = {0, 1, 2, 4};
    mk_list(&l, "tsn:", ns, 4, off, 3);
    const char *type = NULL;
    assert_int_equal(arrow_type(&l.lst.s, &type, &e), ORDO_OK);
    assert_string_equal(type, "timestamp[]");
    assert_int_equal(import(&l.lst, "timestamp[]", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_INVALID_VALUE);
    assert_string_equal(e.message, "column 'a', row 1: 1970-01-01 00:00:00.000002001 is not a "
                                   "whole number of microseconds (PostgreSQL's unit); "
                                   "timestamps=\"truncate\" floors it");
    assert_int_equal(e.line, 2);
    ordo_schema_free(&t.s);
    io.timestamps = ORDO_TABLE_TIMESTAMPS_TRUNCATE;
    assert_int_equal(import(&l.lst, "timestamp[]", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_OK);
    assert_key(&col, 0, "timestamp[]", "{\"1970-01-01 00:00:00.000001\"}");
    assert_key(&col, 1, "timestamp[]", "{\"1970-01-01 00:00:00.000002\"}");
    assert_key(&col, 2, "timestamp[]",
               "{\"1677-09-21 00:12:43.145224\",\"2262-04-11 23:47:16.854775\"}");
    ordo_schema_free(&t.s);
    mk_list(&l, "tDn", ns, 4, off, 3); /* durations: the same ends floored */
    assert_int_equal(import(&l.lst, "interval[]", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_OK);
    assert_key(&col, 2, "interval[]", "{-2562047:47:16.854776,2562047:47:16.854775}");
    ordo_schema_free(&t.s);
    io.timestamps = ORDO_TABLE_TIMESTAMPS_REFUSE;
    /* past the type at either int64 end: out of range, naming the row */
    const int64_t ends[][2] = {{0, INT64_MIN}, {0, INT64_MAX}};
    const int32_t eoff[] = {0, 1, 2};
    static const char *const fmts[][3] = {{"tss:", "timestamp[]", "timestamp"},
                                          {"tsm:UTC", "timestamptz[]", "timestamp"},
                                          {"tDs", "interval[]", "interval"},
                                          {"tDm", "interval[]", "interval"}};
    for (size_t k = 0; k < 4; k++)
        for (int end = 0; end < 2; end++) {
            mk_list(&l, fmts[k][0], ends[end], 2, eoff, 2);
            assert_int_equal(import(&l.lst, fmts[k][1], ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                             ORDO_ERR_OUT_OF_RANGE);
            char want[96];
            snprintf(want, sizeof want, "column 'a', row 1: %s out of range", fmts[k][2]);
            assert_string_equal(e.message, want);
            ordo_schema_free(&t.s);
        }
    const int32_t days[] = {0, -1, INT32_MIN, INT32_MAX};
    const int32_t doff[] = {0, 2, 3, 4};
    mk_list(&l, "tdD", days, 4, doff, 3);
    assert_int_equal(import(&l.lst, "date[]", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'a', row 1: date out of range");
    ordo_schema_free(&t.s);
    l.lst.a.length = 1;
    assert_int_equal(import(&l.lst, "date[]", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 0, "date[]", "{1970-01-01,1969-12-31}");
    ordo_schema_free(&t.s);
    const int64_t ms[] = {-1, INT64_MIN}; /* date64: milliseconds floored to the day */
    mk_list(&l, "tdm", ms, 1, off, 1);
    assert_int_equal(import(&l.lst, "date[]", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 0, "date[]", "{1969-12-31}");
    ordo_schema_free(&t.s);
    const int32_t tods[] = {3723, 86401}; /* time32[s]: 01:02:03, past 24:00:00 */
    mk_list(&l, "tts", tods, 2, off, 2);
    assert_int_equal(import(&l.lst, "time[]", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'a', row 1: time out of range");
    ordo_schema_free(&t.s);
    /* decimals of every width, their digits as ordo_decimal_text writes them */
    const int32_t d32[] = {-150, 7};
    mk_list(&l, "d:5,2,32", d32, 2, (const int32_t[]){0, 2}, 1);
    assert_int_equal(arrow_type(&l.lst.s, &type, &e), ORDO_OK);
    assert_string_equal(type, "numeric[]");
    assert_int_equal(import(&l.lst, "numeric[]", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 0, "numeric[]", "{-1.50,0.07}");
    ordo_schema_free(&t.s);
    const int64_t d128[] = {1, 0, -1, -1}; /* 1 and -1 at scale -3 */
    mk(&l.kid, "d:5,-3", 2, 0, 0, 2, NULL, d128, NULL, NULL);
    l.lst.a.length = 1;
    assert_int_equal(import(&l.lst, "numeric[]", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 0, "numeric[]", "{1000,-1000}");
    ordo_schema_free(&t.s);
    /* a struct of a timestamptz and a decimal as a record */
    const int64_t us[] = {1, 5};
    acol f0, f1, st;
    mk(&f0, "tsu:UTC", 1, 0, 0, 2, NULL, us, NULL, NULL);
    mk(&f1, "d:10,1,64", 1, 0, 0, 2, NULL, us + 1, NULL, NULL);
    mk(&st, "+s", 1, 0, 0, 1, NULL, NULL, NULL, NULL);
    struct ArrowSchema *fs[] = {&f0.s, &f1.s};
    struct ArrowArray *fa[] = {&f0.a, &f1.a};
    st.s.n_children = st.a.n_children = 2;
    st.s.children = fs, st.a.children = fa;
    assert_int_equal(import(&st, "record(t timestamptz, d numeric)", ORDO_FORMAT_ORDERED, sx, &t,
                            &col, &e), ORDO_OK);
    assert_key(&col, 0, "record(t timestamptz, d numeric)",
               "(\"1970-01-01 00:00:00.000001+00\",0.5)");
    ordo_schema_free(&t.s);
    ordo_table_scratch_close(sx);
}

/* ------------------------------------------------------ time, dates */

static void test_instants(void **state)
{
    (void)state;
    ordo_table_scratch *sx;
    assert_int_equal(ordo_table_scratch_open(&sx), ORDO_OK);
    tcol t;
    ordo_column col;
    ordo_error e;
    /* 2000-01-01 00:00:01.5 in ns, any zone: the UTC instant; 499 ns past
     * 2000 and 1 ns before it are no whole microseconds: refused, naming
     * the row and the value, unless truncated (floored) */
    int64_t ns[] = {INT64_C(946684801500000000), INT64_C(946684800000000499),
                    INT64_C(946684799999999999)};
    acol c;
    mk(&c, "tsn:Asia/Tokyo", 3, 0, 0, 2, NULL, ns, NULL, NULL);
    assert_int_equal(import(&c, "timestamptz", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_INVALID_VALUE);
    assert_string_equal(e.message, "column 'a', row 1: 2000-01-01 00:00:00.000000499+00 is not "
                                   "a whole number of microseconds (PostgreSQL's unit); "
                                   "timestamps=\"truncate\" floors it");
    assert_int_equal(e.line, 2);
    ordo_schema_free(&t.s);
    io.timestamps = ORDO_TABLE_TIMESTAMPS_TRUNCATE;
    assert_int_equal(import(&c, "timestamptz", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_int_equal(((const int64_t *)col.values)[0], 1500000);
    assert_int_equal(((const int64_t *)col.values)[1], 0);  /* floored */
    assert_int_equal(((const int64_t *)col.values)[2], -1); /* toward the past */
    assert_key(&col, 0, "timestamptz", "2000-01-01 00:00:01.5+00");
    assert_key(&col, 2, "timestamptz", "1999-12-31 23:59:59.999999+00");
    ordo_schema_free(&t.s);
    io.timestamps = ORDO_TABLE_TIMESTAMPS_REFUSE;
    mk(&c, "tsn:", 3, 0, 0, 2, NULL, ns, NULL, NULL); /* naive: no zone in the message */
    c.a.offset = 2, c.a.length = 1;
    assert_int_equal(import(&c, "timestamp", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_INVALID_VALUE);
    assert_non_null(strstr(e.message, "row 0: 1999-12-31 23:59:59.999999999 is not"));
    ordo_schema_free(&t.s);
    mk(&c, "tsn:Asia/Tokyo", 3, 0, 0, 2, NULL, ns, NULL, NULL);
    /* LexKey reads the unit in place */
    assert_int_equal(import(&c, "timestamptz", ORDO_FORMAT_LEXKEY, sx, &t, &col, &e), ORDO_OK);
    assert_ptr_equal(col.values, ns);
    assert_int_equal(col.time_unit, ORDO_UNIT_NS);
    ordo_schema_free(&t.s);
    /* seconds past PostgreSQL's range */
    int64_t far[] = {INT64_C(1) << 60};
    mk(&c, "tss:", 1, 0, 0, 2, NULL, far, NULL, NULL);
    assert_int_equal(import(&c, "timestamp", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'a', row 0: timestamp out of range");
    ordo_schema_free(&t.s);
    assert_int_equal(import(&c, "date", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_BAD_TYPE);
    assert_string_equal(e.message, "column 'a': cannot read Arrow timestamp[s] as date");
    ordo_schema_free(&t.s);
    /* date32 and date64 (a day before 1970 floors) */
    int32_t d32[] = {10957, -1};
    int64_t d64[] = {-1};
    mk(&c, "tdD", 2, 0, 0, 2, NULL, d32, NULL, NULL);
    assert_int_equal(import(&c, "date", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_int_equal(((const int32_t *)col.values)[0], 0);
    assert_key(&col, 1, "date", "1969-12-31");
    ordo_schema_free(&t.s);
    mk(&c, "tdm", 1, 0, 0, 2, NULL, d64, NULL, NULL);
    assert_int_equal(import(&c, "date", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 0, "date", "1969-12-31");
    ordo_schema_free(&t.s);
    /* times of every width; -1 ns refused */
    int32_t ms[] = {1500};
    int64_t tn[] = {-1};
    mk(&c, "ttm", 1, 0, 0, 2, NULL, ms, NULL, NULL);
    assert_int_equal(import(&c, "time", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 0, "time", "00:00:01.5");
    ordo_schema_free(&t.s);
    mk(&c, "ttn", 1, 0, 0, 2, NULL, tn, NULL, NULL);
    assert_int_equal(import(&c, "time", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'a', row 0: time out of range");
    ordo_schema_free(&t.s);
    /* time64[ns]: whole microseconds, or truncated */
    int64_t tn2[] = {INT64_C(3600000001000), INT64_C(3600000001999)};
    mk(&c, "ttn", 2, 0, 0, 2, NULL, tn2, NULL, NULL);
    assert_int_equal(import(&c, "time", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_INVALID_VALUE);
    assert_non_null(strstr(e.message, "row 1: 01:00:00.000001999 is not a whole number"));
    ordo_schema_free(&t.s);
    io.timestamps = ORDO_TABLE_TIMESTAMPS_TRUNCATE;
    assert_int_equal(import(&c, "time", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 1, "time", "01:00:00.000001");
    ordo_schema_free(&t.s);
    io.timestamps = ORDO_TABLE_TIMESTAMPS_REFUSE;
    ordo_table_scratch_close(sx);
}

/* ------------------------------------------------- text, views, dicts */

static void test_strings(void **state)
{
    (void)state;
    ordo_table_scratch *sx;
    assert_int_equal(ordo_table_scratch_open(&sx), ORDO_OK);
    tcol t;
    ordo_column col;
    ordo_error e;
    int32_t off[] = {0, 2, 5, 9};
    const char *data = "ab12310.5";
    acol c;
    mk(&c, "u", 3, 0, 0, 3, NULL, off, data, NULL);
    assert_int_equal(import(&c, "text", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_ptr_equal(col.values, data); /* in place */
    ordo_schema_free(&t.s);
    /* any other type through its text, as the CSV path reads it */
    mk(&c, "u", 2, 1, 0, 3, NULL, off, data, NULL);
    assert_int_equal(import(&c, "numeric", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 0, "numeric", "123");
    assert_key(&col, 1, "numeric", "10.5");
    ordo_schema_free(&t.s);
    mk(&c, "u", 3, 0, 0, 3, NULL, off, data, NULL);
    assert_int_equal(import(&c, "integer", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_INVALID_VALUE);
    assert_int_equal(e.line, 1);
    assert_non_null(strstr(e.message, "column 'a', row 0: "));
    assert_non_null(strstr(e.message, "(as integer)"));
    ordo_schema_free(&t.s);
    /* decreasing offsets: refused at the row */
    int32_t bad[] = {2, 3, 1}; /* row 0 "1", row 1 from 3 back to 1 */
    mk(&c, "u", 2, 0, 0, 3, NULL, bad, data, NULL);
    assert_int_equal(import(&c, "integer", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_INVALID_VALUE);
    assert_string_equal(e.message, "column 'a', row 1: a malformed Arrow array (offsets that decrease)");
    ordo_schema_free(&t.s);
    /* large strings */
    int64_t off64[] = {0, 2, 5};
    mk(&c, "U", 2, 0, 0, 3, NULL, off64, data, NULL);
    assert_int_equal(import(&c, "text", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_int_equal(col.offset_bits, 64);
    assert_text(&col, 1, "123");
    ordo_schema_free(&t.s);
    ordo_table_scratch_close(sx);
}

/* A view: length, then 12 inline bytes or a prefix, buffer index, offset. */
static void view(uint8_t v[16], const char *s, int32_t buf, int32_t at)
{
    int32_t len = (int32_t)strlen(s);
    memset(v, 0, 16);
    memcpy(v, &len, 4);
    if (len <= 12) {
        memcpy(v + 4, s, (size_t)len);
    } else {
        memcpy(v + 4, s, 4);
        memcpy(v + 8, &buf, 4);
        memcpy(v + 12, &at, 4);
    }
}

static void test_views(void **state)
{
    (void)state;
    ordo_table_scratch *sx;
    assert_int_equal(ordo_table_scratch_open(&sx), ORDO_OK);
    tcol t;
    ordo_column col;
    ordo_error e;
    const char *long_text = "xxa string past twelve bytes";
    uint8_t views[3][16];
    view(views[0], "short", 0, 0);
    view(views[1], long_text + 2, 0, 2);
    view(views[2], "", 0, 0);
    int64_t sizes[] = {(int64_t)strlen(long_text)};
    uint8_t validity = 0x03; /* row 2 NULL */
    acol c;
    mk(&c, "vu", 3, 0, 1, 4, &validity, views, long_text, sizes);
    assert_int_equal(import(&c, "text", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_text(&col, 0, "short");
    assert_text(&col, 1, long_text + 2);
    assert_false(valid(&col, 2));
    ordo_schema_free(&t.s);
    /* a view past its buffer: the array's fault, no row of the column's */
    view(views[1], long_text + 2, 0, 10);
    assert_int_equal(import(&c, "text", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "column 'a', row 1: a malformed Arrow view");
    assert_int_equal(e.line, 0);
    ordo_schema_free(&t.s);
    view(views[1], long_text + 2, 3, 0); /* no buffer 3 */
    assert_int_equal(import(&c, "text", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_INVALID_ARG);
    ordo_schema_free(&t.s);
    int32_t neg = -1;
    memcpy(views[0], &neg, 4);
    assert_int_equal(import(&c, "text", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_INVALID_VALUE);
    assert_string_equal(e.message, "column 'a', row 0: a malformed Arrow view (a negative length)");
    ordo_schema_free(&t.s);
    ordo_table_scratch_close(sx);
}

static void test_dictionaries(void **state)
{
    (void)state;
    ordo_table_scratch *sx;
    assert_int_equal(ordo_table_scratch_open(&sx), ORDO_OK);
    tcol t;
    ordo_column col;
    ordo_error e;
    int32_t off[] = {0, 1, 3};
    acol d, v;
    mk(&v, "u", 2, 0, 0, 3, NULL, off, "xyz", NULL);
    int8_t idx[] = {0, 1, 0, 0, 1};
    uint8_t validity = 0x1b; /* element 2 (row 1) NULL */
    mk(&d, "c", 4, 1, 1, 2, &validity, idx, NULL, NULL);
    d.s.dictionary = &v.s, d.a.dictionary = &v.a;
    assert_int_equal(import(&d, "text", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_text(&col, 0, "yz");
    assert_false(valid(&col, 1));
    assert_true(valid(&col, 0) && valid(&col, 2) && valid(&col, 3));
    assert_text(&col, 2, "x");
    assert_text(&col, 3, "yz");
    ordo_schema_free(&t.s);
    /* integers behind a dictionary */
    int16_t nums[] = {-4, 9};
    acol nv;
    mk(&nv, "s", 2, 0, 0, 2, NULL, nums, NULL, NULL);
    d.s.dictionary = &nv.s, d.a.dictionary = &nv.a;
    assert_int_equal(import(&d, "bigint", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_int_equal(((const int64_t *)col.values)[0], 9);
    assert_int_equal(((const int64_t *)col.values)[3], 9);
    assert_key(&col, 2, "bigint", "-4");
    ordo_schema_free(&t.s);
    /* decimals behind a dictionary: gathered in place as scaled numerics */
    int64_t dec[] = {1350, 0, -5, -1}; /* decimal128(5,2): 13.50, -0.05 */
    acol dv;
    mk(&dv, "d:5,2", 2, 0, 0, 2, NULL, dec, NULL, NULL);
    d.s.dictionary = &dv.s, d.a.dictionary = &dv.a;
    assert_int_equal(import(&d, "numeric", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_int_equal(col.numeric_layout, ORDO_NUMERIC_DECIMAL128);
    assert_text(&col, 0, "-0.05");
    assert_text(&col, 2, "13.50");
    assert_false(valid(&col, 1));
    assert_key(&col, 3, "numeric", "-0.05");
    ordo_schema_free(&t.s);
    /* text behind a dictionary, parsed as any type (an entry NULL too) */
    int32_t ioff[] = {0, 8, 11, 11, 15};
    uint8_t ivalid = 0x0b; /* entry 2 NULL */
    acol iv;
    mk(&iv, "u", 4, 0, 1, 3, &ivalid, ioff, "10.0.0.1::1nope", NULL);
    int8_t iidx[] = {0, 1, 0, 2, 1};
    mk(&d, "c", 4, 1, 1, 2, &validity, iidx, NULL, NULL); /* rows: ::1, NULL, NULL entry, ::1 */
    d.s.dictionary = &iv.s, d.a.dictionary = &iv.a;
    assert_int_equal(import(&d, "inet", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 0, "inet", "::1");
    assert_key(&col, 1, "inet", NULL);
    assert_key(&col, 2, "inet", NULL);
    assert_key(&col, 3, "inet", "::1");
    ordo_schema_free(&t.s);
    iidx[2] = 3; /* row 1 is NULL: its index is not read */
    assert_int_equal(import(&d, "inet", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    ordo_schema_free(&t.s);
    iidx[3] = 3; /* row 2 reads "nope" */
    assert_int_not_equal(import(&d, "inet", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_non_null(strstr(e.message, "row 2"));
    ordo_schema_free(&t.s);
    iidx[3] = 4; /* past the dictionary */
    assert_int_equal(import(&d, "inet", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "column 'a', row 2: a dictionary index past the dictionary's 4 entries");
    ordo_schema_free(&t.s);
    mk(&d, "c", 4, 1, 1, 2, &validity, idx, NULL, NULL);
    d.s.dictionary = &nv.s, d.a.dictionary = &nv.a;
    /* an index past the dictionary */
    idx[3] = 2;
    assert_int_equal(import(&d, "bigint", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "column 'a', row 2: a dictionary index past the dictionary's 2 entries");
    ordo_schema_free(&t.s);
    /* a schema with a dictionary, an array without */
    d.a.dictionary = NULL;
    assert_int_equal(import(&d, "bigint", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_INVALID_VALUE);
    ordo_schema_free(&t.s);
    ordo_table_scratch_close(sx);
}

/* ------------------------------------------------------------ hostile */

static void test_hostile(void **state)
{
    (void)state;
    ordo_table_scratch *sx;
    assert_int_equal(ordo_table_scratch_open(&sx), ORDO_OK);
    tcol t;
    const ordo_schema_column *sc = col_of(&t, "bigint", ORDO_FORMAT_ORDERED);
    ordo_column col;
    ordo_error e;
    int64_t v[] = {1, 2, 3};
    acol c;
    /* rows past the array */
    mk(&c, "l", 3, 0, 0, 2, NULL, v, NULL, NULL);
    assert_int_equal(ordo_table_arrow_column(&c.s, &c.a, 1, 3, sc, "a", NULL, sx, &col, &e), ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "not within the Arrow array"));
    assert_int_equal(ordo_table_arrow_column(&c.s, &c.a, SIZE_MAX, 2, sc, "a", NULL, sx, &col, &e), ORDO_ERR_INVALID_ARG);
    /* lying fields: each refused by the checks, by name */
    mk(&c, "l", -1, 0, 0, 2, NULL, v, NULL, NULL);
    assert_int_equal(ordo_table_arrow_column(&c.s, &c.a, 0, 0, sc, "a", NULL, sx, &col, &e), ORDO_ERR_INVALID_VALUE);
    assert_non_null(strstr(e.message, "negative length"));
    mk(&c, "l", INT64_MAX, 1, 0, 2, NULL, v, NULL, NULL);
    assert_int_not_equal(ordo_table_arrow_column(&c.s, &c.a, 1, 1, sc, "a", NULL, sx, &col, &e), ORDO_OK);
    mk(&c, "l", 3, 0, 0, 1, NULL, v, NULL, NULL); /* one buffer for a primitive */
    assert_int_not_equal(ordo_table_arrow_column(&c.s, &c.a, 0, 3, sc, "a", NULL, sx, &col, &e), ORDO_OK);
    assert_non_null(strstr(e.message, "n_buffers"));
    mk(&c, "l", 3, 0, 0, 2, NULL, NULL, NULL, NULL); /* no values buffer */
    assert_int_equal(ordo_table_arrow_column(&c.s, &c.a, 0, 3, sc, "a", NULL, sx, &col, &e), ORDO_ERR_NULL_ARG);
    mk(&c, "l", 3, 0, 2, 2, NULL, v, NULL, NULL); /* NULLs without a bitmap */
    assert_int_equal(ordo_table_arrow_column(&c.s, &c.a, 0, 3, sc, "a", NULL, sx, &col, &e), ORDO_ERR_NULL_ARG);
    mk(&c, "l", 3, 0, 4, 2, NULL, v, NULL, NULL); /* more NULLs than rows */
    assert_int_equal(ordo_table_arrow_column(&c.s, &c.a, 0, 3, sc, "a", NULL, sx, &col, &e), ORDO_ERR_INVALID_VALUE);
    mk(&c, "d:1,2,48", 3, 0, 0, 2, NULL, v, NULL, NULL); /* no such decimal width */
    assert_int_equal(ordo_table_arrow_column(&c.s, &c.a, 0, 3, sc, "a", NULL, sx, &col, &e), ORDO_ERR_BAD_TYPE);
    assert_string_equal(e.message, "Arrow schema: format 'd:1,2,48' is not an Arrow format");
    mk(&c, "l", 3, 0, 0, 2, NULL, v, NULL, NULL);
    c.a.release = NULL; /* released */
    assert_int_equal(ordo_table_arrow_column(&c.s, &c.a, 0, 3, sc, "a", NULL, sx, &col, &e), ORDO_ERR_INVALID_VALUE);
    assert_non_null(strstr(e.message, "released"));
    /* a struct and a list map to no column */
    acol kid, st;
    mk(&kid, "l", 3, 0, 0, 2, NULL, v, NULL, NULL);
    mk(&st, "+s", 3, 0, 0, 1, NULL, NULL, NULL, NULL);
    struct ArrowSchema *ks = &kid.s;
    struct ArrowArray *ka = &kid.a;
    st.s.n_children = st.a.n_children = 1;
    st.s.children = &ks, st.a.children = &ka;
    assert_int_equal(ordo_table_arrow_column(&st.s, &st.a, 0, 3, sc, "a", NULL, sx, &col, &e), ORDO_ERR_BAD_TYPE);
    assert_string_equal(e.message, "column 'a': cannot read Arrow struct<a: int64> as bigint");
    ordo_schema_free(&t.s);
    ordo_table_scratch_close(sx);
}

/* ----------------------------------------------------- type names */

/* A schema node (borrowed children) for the names below. */
static struct ArrowSchema node(const char *fmt, const char *name, int64_t n,
                               struct ArrowSchema **kids)
{
    struct ArrowSchema s;
    memset(&s, 0, sizeof s);
    s.format = fmt, s.name = name, s.n_children = n, s.children = kids;
    return s;
}

static void assert_name(const struct ArrowSchema *s, const char *want)
{
    char buf[256];
    size_t n = ordo_table_arrow_type_name(s, buf, sizeof buf);
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
}

/* Names as pyarrow prints them (python/tests/test_types.py checks them
 * against str(pa.DataType) for every type pyarrow makes); here what the
 * Python glue does not let through (dictionaries) and the edges. */
static void test_arrow_type_names(void **state)
{
    (void)state;
    struct ArrowSchema i32 = node("i", "item", 0, NULL), str = node("u", "", 0, NULL);
    struct ArrowSchema dict = node("i", "c", 0, NULL);
    dict.dictionary = &str;
    assert_name(&dict, "dictionary<values=string, indices=int32, ordered=0>");
    dict.flags = 1; /* ARROW_FLAG_DICTIONARY_ORDERED */
    assert_name(&dict, "dictionary<values=string, indices=int32, ordered=1>");
    /* an extension by its metadata's name */
    static const char meta[] = "\x01\x00\x00\x00"
                               "\x14\x00\x00\x00" "ARROW:extension:name"
                               "\x0a\x00\x00\x00" "arrow.uuid";
    struct ArrowSchema uuid = node("w:16", "u", 0, NULL);
    assert_name(&uuid, "fixed_size_binary[16]");
    uuid.metadata = meta;
    assert_name(&uuid, "extension<arrow.uuid>");
    /* nested: a map's entries, keys sorted; a union's type codes */
    struct ArrowSchema key = node("u", "key", 0, NULL), val = node("l", "value", 0, NULL);
    struct ArrowSchema *kv[] = {&key, &val};
    struct ArrowSchema entries = node("+s", "entries", 2, kv);
    struct ArrowSchema *ent[] = {&entries};
    struct ArrowSchema map = node("+m", "m", 1, ent);
    map.flags = 4; /* ARROW_FLAG_MAP_KEYS_SORTED */
    assert_name(&map, "map<string, int64, keys_sorted>");
    struct ArrowSchema *u2[] = {&i32, &str};
    struct ArrowSchema uni = node("+ud:5,7", "x", 2, u2);
    assert_name(&uni, "dense_union<item: int32=5, : string=7>");
    struct ArrowSchema *one[] = {&i32};
    struct ArrowSchema fsl = node("+w:3", "x", 1, one);
    assert_name(&fsl, "fixed_size_list<item: int32>[3]");
    struct ArrowSchema tz = node("tsu:UTC", "x", 0, NULL), dur = node("tDn", "x", 0, NULL);
    assert_name(&tz, "timestamp[us, tz=UTC]");
    assert_name(&dur, "duration[ns]");
    struct ArrowSchema d = node("d:12,2", "x", 0, NULL), d256 = node("d:40,3,256", "x", 0, NULL);
    assert_name(&d, "decimal128(12, 2)");
    assert_name(&d256, "decimal256(40, 3)");
    /* no Arrow type: the format itself; NULL */
    struct ArrowSchema q = node("q", "x", 0, NULL);
    assert_name(&q, "'q'");
    assert_name(NULL, "?");
    /* a name past the buffer is cut, saying so; the length is the whole name's */
    struct ArrowSchema lists[40];
    struct ArrowSchema *kid[40];
    lists[0] = node("L", "item", 0, NULL);
    for (int i = 1; i < 40; i++) {
        kid[i] = &lists[i - 1];
        lists[i] = node("+l", "item", 1, &kid[i]);
    }
    char small[32];
    size_t n = ordo_table_arrow_type_name(&lists[39], small, sizeof small);
    assert_true(n > sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_string_equal(small + sizeof small - 4, "...");
    assert_int_equal(ordo_table_arrow_type_name(&lists[39], NULL, 0), n);
}

/* ------------------------------------------------------------- plain */

static ordo_status plain(const ordo_table_plain *p, const char *sql, ordo_format f,
                         ordo_table_scratch *sx, tcol *t, ordo_column *col, ordo_error *e)
{
    return ordo_table_plain_column(p, col_of(t, sql, f), "a", &io, sx, col, e);
}

/* The micros of row r of an interval column (NULL: fails). */
static int64_t micros_at(const ordo_column *c, size_t r)
{
    assert_true(valid(c, r));
    return ((const ordo_interval *)c->values)[c->offset + r].micros;
}

/* timedelta64: intervals of microseconds, NaT NULL, nanoseconds refused or
 * floored (time_units.c's rule), both int64 ends of every scaling. */
static void test_plain_timedeltas(ordo_table_scratch *sx)
{
    tcol t;
    ordo_column col;
    ordo_error e;
    const char *type;
    ordo_table_plain pd = {'m', 8, ORDO_TABLE_UNIT_S, 10, NULL, 0};
    assert_int_equal(ordo_table_plain_type(&pd, "a", &type, &e), ORDO_OK);
    assert_string_equal(type, "interval");
    for (int u = ORDO_TABLE_UNIT_Y; u <= ORDO_TABLE_UNIT_M; u++) { /* no fixed length */
        ordo_table_plain py = {'m', 8, (ordo_table_unit)u, 1, NULL, 0};
        assert_int_equal(ordo_table_plain_type(&py, "a", &type, &e), ORDO_ERR_BAD_TYPE);
        assert_non_null(strstr(e.message, u == ORDO_TABLE_UNIT_Y ? "timedelta64[Y]"
                                                                 : "timedelta64[M]"));
        assert_non_null(strstr(e.message, "a year or a month has no fixed length"));
    }
    int64_t tens[] = {3, INT64_MIN, -1}; /* timedelta64[10s]: 30 s, NaT, -10 s */
    pd.data = tens, pd.length = 3;
    assert_int_equal(plain(&pd, "interval", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_true(micros_at(&col, 0) == INT64_C(30000000));
    assert_false(valid(&col, 1));
    assert_true(micros_at(&col, 2) == INT64_C(-10000000));
    assert_true(((const ordo_interval *)col.values)[0].days == 0 &&
                ((const ordo_interval *)col.values)[0].months == 0);
    assert_key(&col, 0, "interval", "00:00:30");
    assert_key(&col, 1, "interval", NULL);
    ordo_schema_free(&t.s);
    assert_int_equal(plain(&pd, "timestamp", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_BAD_TYPE);
    assert_string_equal(e.message, "column 'a': cannot read NumPy timedelta64 as timestamp");
    ordo_schema_free(&t.s);
    int64_t days[] = {2, -1}; /* timedelta64[D]: days as microseconds, not as days */
    ordo_table_plain pday = {'m', 8, ORDO_TABLE_UNIT_D, 1, days, 2};
    assert_int_equal(plain(&pday, "interval", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_true(micros_at(&col, 0) == INT64_C(172800000000));
    assert_key(&col, 1, "interval", "-24:00:00");
    ordo_schema_free(&t.s);
    /* nanoseconds: the row and its value named, or floored */
    int64_t ns[] = {1000, 1001, -1, INT64_MAX, INT64_MIN + 1};
    ordo_table_plain pn = {'m', 8, ORDO_TABLE_UNIT_NS, 1, ns, 5};
    assert_int_equal(plain(&pn, "interval", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_INVALID_VALUE);
    assert_string_equal(e.message, "column 'a', row 1: 1001 ns is not a whole number of "
                                   "microseconds (PostgreSQL's unit); timestamps=\"truncate\" "
                                   "floors it");
    assert_int_equal(e.line, 2);
    ordo_schema_free(&t.s);
    io.timestamps = ORDO_TABLE_TIMESTAMPS_TRUNCATE;
    assert_int_equal(plain(&pn, "interval", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_true(micros_at(&col, 0) == 1 && micros_at(&col, 1) == 1 && micros_at(&col, 2) == -1);
    assert_true(micros_at(&col, 3) == INT64_MAX / 1000);
    assert_true(micros_at(&col, 4) == (INT64_MIN + 1) / 1000 - 1); /* floored */
    ordo_schema_free(&t.s);
    io.timestamps = ORDO_TABLE_TIMESTAMPS_REFUSE;
    /* microseconds: both int64 ends as they are (NaT is INT64_MIN itself) */
    int64_t us[] = {INT64_MAX, INT64_MIN + 1};
    ordo_table_plain pu = {'m', 8, ORDO_TABLE_UNIT_US, 1, us, 2};
    assert_int_equal(plain(&pu, "interval", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_true(micros_at(&col, 0) == INT64_MAX && micros_at(&col, 1) == INT64_MIN + 1);
    ordo_schema_free(&t.s);
    /* past int64 once scaled, at either end, for every unit above the microsecond */
    for (int u = ORDO_TABLE_UNIT_W; u <= ORDO_TABLE_UNIT_MS; u++)
        for (int end = 0; end < 2; end++) {
            int64_t v[] = {1, end ? INT64_MAX : INT64_MIN + 1};
            ordo_table_plain pv = {'m', 8, (ordo_table_unit)u, 1, v, 2};
            assert_int_equal(plain(&pv, "interval", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                             ORDO_ERR_OUT_OF_RANGE);
            assert_string_equal(e.message, "column 'a', row 1: interval out of range");
            ordo_schema_free(&t.s);
        }
    int64_t big[] = {INT64_MAX / 2}; /* 2 ticks a value: past int64 before the unit */
    ordo_table_plain pt = {'m', 8, ORDO_TABLE_UNIT_US, 2, big, 1};
    assert_int_equal(plain(&pt, "interval", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    ordo_schema_free(&t.s);
    pt.ticks = 3;
    assert_int_equal(plain(&pt, "interval", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_OUT_OF_RANGE);
    ordo_schema_free(&t.s);
}

static void test_plain(void **state)
{
    (void)state;
    ordo_table_scratch *sx;
    assert_int_equal(ordo_table_scratch_open(&sx), ORDO_OK);
    tcol t;
    ordo_column col;
    ordo_error e;
    const char *type;
    static const struct { char k; int w; const char *sql; } kinds[] = {
        {'i', 1, "tinyint"}, {'i', 8, "bigint"}, {'u', 2, "usmallint"}, {'u', 4, "uinteger"},
        {'f', 4, "real"}, {'f', 8, "double precision"}, {'b', 1, "boolean"},
        {'M', 8, "timestamp"}, {'T', 8, "timestamptz"}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        ordo_table_plain p = {kinds[i].k, kinds[i].w, ORDO_TABLE_UNIT_NS, 1, NULL, 0};
        assert_int_equal(ordo_table_plain_type(&p, "a", &type, &e), ORDO_OK);
        assert_string_equal(type, kinds[i].sql);
    }
    /* NumPy's unit names, each its unit; others refused by name */
    static const char *const units[] = {"Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns"};
    for (int u = 0; u < 10; u++) {
        ordo_table_unit got = ORDO_TABLE_UNIT_Y;
        assert_int_equal(ordo_table_unit_parse(units[u], "a", &got, &e), ORDO_OK);
        assert_int_equal(got, u);
    }
    ordo_table_unit unit;
    assert_int_equal(ordo_table_unit_parse("ps", "a", &unit, &e), ORDO_ERR_BAD_TYPE);
    assert_non_null(strstr(e.message, "column 'a': no ordo type for NumPy's time unit 'ps'"));
    assert_int_equal(ordo_table_unit_parse("", NULL, &unit, &e), ORDO_ERR_BAD_TYPE);
    assert_int_equal(ordo_table_unit_parse("s", NULL, NULL, &e), ORDO_ERR_NULL_ARG);
    /* NumPy float16: reals, as Arrow's halfs */
    uint16_t halfs[] = {0x3e00, 0xfc00};
    ordo_table_plain f2 = {'f', 2, ORDO_TABLE_UNIT_NS, 1, halfs, 2};
    assert_int_equal(ordo_table_plain_type(&f2, "a", &type, &e), ORDO_OK);
    assert_string_equal(type, "real");
    assert_int_equal(plain(&f2, "real", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_true(((const float *)col.values)[0] == 1.5f);
    assert_true(isinf(((const float *)col.values)[1]) && ((const float *)col.values)[1] < 0);
    ordo_schema_free(&t.s);
    ordo_table_plain f1 = {'f', 1, ORDO_TABLE_UNIT_NS, 1, NULL, 0};
    assert_int_equal(ordo_table_plain_type(&f1, "a", &type, &e), ORDO_ERR_BAD_TYPE);
    assert_string_equal(e.message, "column 'a': no ordo type for NumPy kind 'f1'");
    /* int16 in place, widened, checked */
    int16_t i16[] = {-300, 5};
    ordo_table_plain p = {'i', 2, ORDO_TABLE_UNIT_NS, 1, i16, 2};
    assert_int_equal(plain(&p, "smallint", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_ptr_equal(col.values, i16);
    ordo_schema_free(&t.s);
    assert_int_equal(plain(&p, "bigint", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 0, "bigint", "-300");
    ordo_schema_free(&t.s);
    assert_int_equal(plain(&p, "utinyint", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'a', row 0: out of range for utinyint");
    ordo_schema_free(&t.s);
    /* numbers into numeric: their text (floats the shortest round trip) */
    double f8[] = {0.1, -2.5e-310};
    ordo_table_plain pf = {'f', 8, ORDO_TABLE_UNIT_NS, 1, f8, 2};
    assert_int_equal(plain(&pf, "numeric", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_text(&col, 0, "0.1");
    assert_text(&col, 1, "-2.5e-310");
    ordo_schema_free(&t.s);
    assert_int_equal(plain(&p, "numeric", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_text(&col, 0, "-300");
    ordo_schema_free(&t.s);
    /* bools one byte each, any non-zero byte true */
    uint8_t bools[] = {0, 2, 1};
    ordo_table_plain pb = {'b', 1, ORDO_TABLE_UNIT_NS, 1, bools, 3};
    assert_int_equal(plain(&pb, "boolean", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_int_equal(((const uint8_t *)col.values)[0] & 7, 6);
    ordo_schema_free(&t.s);
    assert_int_equal(plain(&pb, "numeric", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_BAD_TYPE);
    assert_string_equal(e.message, "column 'a': cannot read a NumPy number as numeric");
    ordo_schema_free(&t.s);
    /* datetime64[10s] with NaT, naive; as timestamptz the UTC instants */
    int64_t ticks[] = {94668480, INT64_MIN, 94668481};
    ordo_table_plain pm = {'M', 8, ORDO_TABLE_UNIT_S, 10, ticks, 3};
    assert_int_equal(plain(&pm, "timestamp", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_false(valid(&col, 1));
    assert_key(&col, 0, "timestamp", "2000-01-01 00:00:00");
    assert_key(&col, 2, "timestamp", "2000-01-01 00:00:10");
    ordo_schema_free(&t.s);
    pm.kind = 'T';
    assert_int_equal(plain(&pm, "timestamptz", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 2, "timestamptz", "2000-01-01 00:00:10+00");
    ordo_schema_free(&t.s);
    /* months and years by the calendar; weeks; nanoseconds rounding */
    int64_t months[] = {361, -1};
    ordo_table_plain pmo = {'M', 8, ORDO_TABLE_UNIT_M, 1, months, 2};
    assert_int_equal(plain(&pmo, "timestamp", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 0, "timestamp", "2000-02-01 00:00:00");
    assert_key(&col, 1, "timestamp", "1969-12-01 00:00:00");
    ordo_schema_free(&t.s);
    int64_t years[] = {30};
    ordo_table_plain py = {'M', 8, ORDO_TABLE_UNIT_Y, 1, years, 1};
    assert_int_equal(plain(&py, "timestamp", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 0, "timestamp", "2000-01-01 00:00:00");
    ordo_schema_free(&t.s);
    /* nanoseconds: refused, or floored */
    int64_t nsv[] = {INT64_C(946684800000000500), -1};
    ordo_table_plain pn = {'M', 8, ORDO_TABLE_UNIT_NS, 1, nsv, 2};
    assert_int_equal(plain(&pn, "timestamp", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_INVALID_VALUE);
    assert_non_null(strstr(e.message, "row 0: 2000-01-01 00:00:00.000000500 is not a whole"));
    ordo_schema_free(&t.s);
    io.timestamps = ORDO_TABLE_TIMESTAMPS_TRUNCATE;
    assert_int_equal(plain(&pn, "timestamp", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_OK);
    assert_key(&col, 0, "timestamp", "2000-01-01 00:00:00");
    assert_key(&col, 1, "timestamp", "1969-12-31 23:59:59.999999");
    ordo_schema_free(&t.s);
    io.timestamps = ORDO_TABLE_TIMESTAMPS_REFUSE;
    int64_t tens[] = {3}; /* datetime64[10ns]: 30 ns */
    ordo_table_plain p10 = {'T', 8, ORDO_TABLE_UNIT_NS, 10, tens, 1};
    assert_int_equal(plain(&p10, "timestamptz", ORDO_FORMAT_ORDERED, sx, &t, &col, &e),
                     ORDO_ERR_INVALID_VALUE);
    assert_non_null(strstr(e.message, "row 0: 1970-01-01 00:00:00.000000030+00 is not"));
    ordo_schema_free(&t.s);
    pn.length = 1;
    /* LexKey: nanoseconds in place */
    assert_int_equal(plain(&pn, "timestamp", ORDO_FORMAT_LEXKEY, sx, &t, &col, &e), ORDO_OK);
    assert_ptr_equal(col.values, nsv);
    ordo_schema_free(&t.s);
    /* past int64 once scaled */
    int64_t huge[] = {INT64_MAX / 2};
    ordo_table_plain ph = {'M', 8, ORDO_TABLE_UNIT_W, 1, huge, 1};
    assert_int_equal(plain(&ph, "timestamp", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'a', row 0: timestamp out of range");
    ordo_schema_free(&t.s);
    assert_int_equal(plain(&ph, "date", ORDO_FORMAT_ORDERED, sx, &t, &col, &e), ORDO_ERR_BAD_TYPE);
    ordo_schema_free(&t.s);
    test_plain_timedeltas(sx);
    ordo_table_scratch_close(sx);
}

/* ---------------------------------------------------- threaded encode */

static void test_encode_batches(void **state)
{
    (void)state;
    enum { N = 200 };
    int64_t ints[N];
    int32_t off[N + 1];
    char text[N * 4];
    off[0] = 0;
    for (int i = 0; i < N; i++) {
        ints[i] = (int64_t)(i * 7919 % 1000) - 500;
        off[i + 1] = off[i] + snprintf(text + off[i], 5, "%d", i % 37);
    }
    ordo_column cols[2] = {{.type = ORDO_TYPE_INT64, .values = ints},
                           {.type = ORDO_TYPE_STRING, .values = text, .offsets = off, .offset_bits = 32}};
    ordo_column cols2[2];
    memcpy(cols2, cols, sizeof cols);
    cols2[0].offset = cols2[1].offset = 50;
    ordo_table_batch b[2] = {{cols, 2, N}, {cols2, 2, N - 50}};
    /* the reference: one call per batch */
    static uint8_t want[2 * N * 16];
    size_t woffs[2 * N + 2], wlen = 0;
    for (int p = 0; p < 2; p++) {
        size_t offs[N + 1];
        assert_int_equal(ordo_batch_encode(ORDO_FORMAT_LEXKEY, b[p].cols, 2, b[p].nrows, want + wlen,
                                           sizeof want - wlen, offs, NULL), ORDO_OK);
        for (size_t r = 0; r < b[p].nrows; r++)
            woffs[(p ? N : 0) + r] = wlen + offs[r];
        wlen += offs[b[p].nrows];
    }
    for (size_t threads = 1; threads <= MAX_THREADS; threads++) {
        ordo_table_keys k = {0};
        size_t bad = 9;
        ordo_batch_error where;
        assert_int_equal(ordo_table_encode_batches(ORDO_FORMAT_LEXKEY, b, 2, threads, 7, &k, &bad,
                                                   &where), ORDO_OK);
        assert_int_equal(k.n, 2 * N - 50);
        assert_int_equal(k.len, wlen);
        assert_memory_equal(k.data, want, wlen);
        for (size_t r = 0; r < k.n; r++)
            assert_int_equal((size_t)k.off[r], woffs[r]);
        ordo_table_keys_free(&k);
    }
    /* an error: the first bad value, as one call per batch gives it */
    ordo_column nan_cols[1] = {{.type = ORDO_TYPE_NUMERIC, .values = "1x2", .offsets = (int32_t[]){0, 1, 2, 3},
                                .offset_bits = 32}};
    ordo_table_batch eb[2] = {{cols, 2, N}, {nan_cols, 1, 3}};
    ordo_table_keys k = {0};
    size_t bad = 9;
    ordo_batch_error where;
    ordo_status s = ordo_table_encode_batches(ORDO_FORMAT_ORDERED, eb, 2, MAX_THREADS, 5, &k, &bad, &where);
    assert_int_not_equal(s, ORDO_OK);
    assert_int_equal(bad, 1);
    assert_int_equal(where.row, 1);
    assert_int_equal(k.n, 0); /* unchanged */
    ordo_table_keys_free(&k);
}

/* ------------------------------------------------------------ encoder */

static int released;
static void count_release(struct ArrowArray *a) { released++, a->release = NULL; }

static void test_encoder(void **state)
{
    (void)state;
    int64_t ids[] = {3, 1, 2};
    int32_t off[] = {0, 1, 3, 3};
    uint8_t validity = 0x03; /* name of row 2 NULL */
    double price[] = {1.5, 0.1, 2};
    acol a, b, c;
    mk(&a, "l", 3, 0, 0, 2, NULL, ids, NULL, NULL);
    mk(&b, "u", 3, 0, 1, 3, &validity, off, "xyz", NULL);
    mk(&c, "g", 3, 0, 0, 2, NULL, price, NULL, NULL);
    ordo_table_input in[3] = {
        {.kind = ORDO_TABLE_INPUT_ARROW, .name = "id", .schema = &a.s, .array = &a.a, .length = 3},
        {.kind = ORDO_TABLE_INPUT_ARROW, .name = "name", .schema = &b.s, .array = &b.a, .length = 3},
        {.kind = ORDO_TABLE_INPUT_ARROW, .name = "price", .schema = &c.s, .array = &c.a, .length = 3}};
    /* the schema from the types, the key every column */
    ordo_table_encode_options o = {.values = 1, .threads = MAX_THREADS};
    ordo_table_encoder *E;
    ordo_error e;
    assert_int_equal(ordo_table_encoder_open(&o, in, 3, &E, &e), ORDO_OK);
    assert_string_equal(ordo_table_encoder_schema(E), "id bigint, name text, price double precision");
    assert_string_equal(ordo_table_encoder_key(E), "id, name, price");
    /* held batches: moved in (left released), released once by close */
    for (int i = 0; i < 20; i++) {
        acol h;
        mk(&h, "l", 3, 0, 0, 2, NULL, ids, NULL, NULL);
        h.a.release = count_release;
        assert_int_equal(ordo_table_encoder_hold(E, &h.a, &e), ORDO_OK);
        assert_null(h.a.release);
    }
    assert_int_equal(released, 0);
    assert_int_equal(ordo_table_encoder_hold(E, NULL, &e), ORDO_ERR_NULL_ARG);
    ordo_table_encoder_close(E);
    assert_int_equal(released, 20);
    /* a numeric value column keeps its own text */
    o.schema = "id bigint, name text, price numeric";
    o.key = "id";
    assert_int_equal(ordo_table_encoder_open(&o, in, 3, &E, &e), ORDO_OK);
    ordo_table_input shuffled[3] = {in[2], in[0], in[1]}; /* any order */
    assert_int_equal(ordo_table_encoder_add(E, shuffled, 3, 3, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_finish(E, &e), ORDO_OK);
    ordo_table_keys *K = ordo_table_encoder_keys(E), *V = ordo_table_encoder_values(E);
    assert_int_equal(K->n, 3);
    assert_int_equal(V->n, 3);
    uint8_t want[64];
    size_t wn = csv_key("bigint", "1", want, sizeof want);
    assert_int_equal((size_t)(K->off[2] - K->off[1]), wn);
    assert_memory_equal(K->data + K->off[1], want, wn);
    /* row 2's value: name "yz", price "0.1" (SPEC.md §15.2) */
    uint8_t vwant[32];
    size_t vn = ordo_row_value_put(vwant, "yz", 2, 0);
    vn += ordo_row_value_put(vwant + vn, "0.1", 3, 0);
    assert_int_equal((size_t)(V->off[2] - V->off[1]), vn);
    assert_memory_equal(V->data + V->off[1], vwant, vn);
    /* row 3: name NULL */
    vn = ordo_row_value_put(vwant, NULL, 0, 1);
    vn += ordo_row_value_put(vwant + vn, "2", 1, 0);
    assert_memory_equal(V->data + V->off[2], vwant, vn);
    ordo_table_encoder_close(E);
    /* names: missing, extra, twice */
    o.schema = "id bigint, name text, price numeric, qty int";
    assert_int_equal(ordo_table_encoder_open(&o, in, 3, &E, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "the data has no column 'qty' (of the schema)");
    assert_int_equal(ordo_table_encoder_fault(E), ORDO_TABLE_FAULT_SHAPE);
    ordo_table_encoder_close(E);
    o.schema = "id bigint, name text";
    assert_int_equal(ordo_table_encoder_open(&o, in, 3, &E, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "the data's column 'price' is not in the schema");
    ordo_table_encoder_close(E);
    ordo_table_input twice[3] = {in[0], in[1], in[1]};
    assert_int_equal(ordo_table_encoder_open(&o, twice, 3, &E, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "the data has two columns named 'name'");
    ordo_table_encoder_close(E);
    /* options: "schema: ", "key: " */
    o.schema = "id bogus";
    assert_int_not_equal(ordo_table_encoder_open(&o, in, 3, &E, &e), ORDO_OK);
    assert_int_equal(strncmp(e.message, "schema: ", 8), 0);
    assert_int_equal(ordo_table_encoder_fault(E), ORDO_TABLE_FAULT_OPTION);
    ordo_table_encoder_close(E);
    o.schema = "id bigint, name text, price numeric";
    o.key = "nope";
    assert_int_not_equal(ordo_table_encoder_open(&o, in, 3, &E, &e), ORDO_OK);
    assert_int_equal(strncmp(e.message, "key: ", 5), 0);
    ordo_table_encoder_close(E);
    /* a type no column of the schema can read: the fault names it */
    o.key = "id";
    o.schema = "id date, name text, price numeric";
    assert_int_equal(ordo_table_encoder_open(&o, in, 3, &E, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_add(E, in, 3, 3, &e), ORDO_ERR_BAD_TYPE);
    assert_int_equal(ordo_table_encoder_fault(E), ORDO_TABLE_FAULT_TYPE);
    ordo_table_encoder_close(E);
    /* a value's error: its row and its table column, 1-based */
    o.schema = "id bigint, name integer, price numeric";
    assert_int_equal(ordo_table_encoder_open(&o, in, 3, &E, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_add(E, in, 3, 3, &e), ORDO_ERR_INVALID_VALUE);
    assert_int_equal(ordo_table_encoder_fault(E), ORDO_TABLE_FAULT_VALUE);
    assert_int_equal(e.line, 1);
    assert_int_equal(e.column, 2);
    assert_int_equal(ordo_table_encoder_keys(E)->n, 0); /* the batch's keys taken back */
    assert_int_equal(ordo_table_encoder_keys(E)->len, 0);
    ordo_table_encoder_close(E);
}

/* Keys only, no schema: a column of no ordo type outside the key is left
 * out (its data never read); keyed, or with values, its type is refused. */
static void test_encoder_skips_untyped(void **state)
{
    (void)state;
    int64_t ids[] = {3, 1, 2};
    int32_t months[] = {1, 2, 3};
    acol a, m;
    mk(&a, "l", 3, 0, 0, 2, NULL, ids, NULL, NULL);
    mk(&m, "tiM", 3, 0, 0, 2, NULL, months, NULL, NULL); /* interval[months]: no ordo type */
    ordo_table_input in[2] = {
        {.kind = ORDO_TABLE_INPUT_ARROW, .name = "m", .schema = &m.s, .array = &m.a, .length = 3},
        {.kind = ORDO_TABLE_INPUT_ARROW, .name = "id", .schema = &a.s, .array = &a.a, .length = 3}};
    ordo_table_encode_options o = {.key = "id DESC"};
    ordo_table_encoder *E;
    ordo_error e;
    assert_int_equal(ordo_table_encoder_open(&o, in, 2, &E, &e), ORDO_OK);
    assert_string_equal(ordo_table_encoder_schema(E), "id bigint");
    assert_int_equal(ordo_table_encoder_add(E, in, 2, 3, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_finish(E, &e), ORDO_OK);
    ordo_table_keys *K = ordo_table_encoder_keys(E);
    assert_int_equal(K->n, 3);
    uint8_t want[64];
    size_t wn = csv_key("bigint DESC", "3", want, sizeof want);
    assert_int_equal((size_t)(K->off[1] - K->off[0]), wn);
    assert_memory_equal(K->data, want, wn);
    ordo_table_encoder_close(E);
    /* the key names it: its type's error, not the key's */
    const char *keyed[] = {"m", "id, m DESC", "\"m\""};
    for (size_t i = 0; i < 3; i++) {
        o.key = keyed[i];
        assert_int_equal(ordo_table_encoder_open(&o, in, 2, &E, &e), ORDO_ERR_BAD_TYPE);
        assert_non_null(strstr(e.message, "column 'm'"));
        assert_int_equal(ordo_table_encoder_fault(E), ORDO_TABLE_FAULT_TYPE);
        ordo_table_encoder_close(E);
    }
    /* a key naming no column at all is still the key's error */
    o.key = "nope";
    assert_int_equal(ordo_table_encoder_open(&o, in, 2, &E, &e), ORDO_ERR_INVALID_ARG);
    assert_int_equal(strncmp(e.message, "key: ", 5), 0);
    ordo_table_encoder_close(E);
    /* values hold every column; no key: every column is keyed */
    o.key = "id", o.values = 1;
    assert_int_equal(ordo_table_encoder_open(&o, in, 2, &E, &e), ORDO_ERR_BAD_TYPE);
    ordo_table_encoder_close(E);
    o.key = NULL, o.values = 0;
    assert_int_equal(ordo_table_encoder_open(&o, in, 2, &E, &e), ORDO_ERR_BAD_TYPE);
    ordo_table_encoder_close(E);
    /* only untyped columns */
    o.key = "m";
    assert_int_equal(ordo_table_encoder_open(&o, in, 1, &E, &e), ORDO_ERR_BAD_TYPE);
    assert_non_null(strstr(e.message, "column 'm'"));
    ordo_table_encoder_close(E);
}

/* The encoder reads its inputs under its import options: nanoseconds
 * refused by default (the row and the column in err), floored when told;
 * an option past the enum refused by name. */
static void test_encoder_timestamps(void **state)
{
    (void)state;
    int64_t ns[] = {1000, 1999};
    acol a;
    mk(&a, "tsn:", 2, 0, 0, 2, NULL, ns, NULL, NULL);
    ordo_table_input in[] = {
        {.kind = ORDO_TABLE_INPUT_ARROW, .name = "t", .schema = &a.s, .array = &a.a, .length = 2}};
    ordo_table_encode_options o = {0};
    ordo_table_encoder *E;
    ordo_error e;
    assert_int_equal(ordo_table_encoder_open(&o, in, 1, &E, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_add(E, in, 1, 2, &e), ORDO_ERR_INVALID_VALUE);
    assert_int_equal(ordo_table_encoder_fault(E), ORDO_TABLE_FAULT_VALUE);
    assert_int_equal(e.line, 2);
    assert_int_equal(e.column, 1);
    assert_non_null(strstr(e.message, "1970-01-01 00:00:00.000001999"));
    ordo_table_encoder_close(E);
    o.import.timestamps = ORDO_TABLE_TIMESTAMPS_TRUNCATE;
    assert_int_equal(ordo_table_encoder_open(&o, in, 1, &E, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_add(E, in, 1, 2, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_finish(E, &e), ORDO_OK);
    ordo_table_keys *K = ordo_table_encoder_keys(E);
    assert_int_equal(K->n, 2);
    assert_int_equal(K->off[1] - K->off[0], K->off[2] - K->off[1]);
    assert_memory_equal(K->data, K->data + K->off[1], (size_t)(K->off[1] - K->off[0])); /* 1 us */
    ordo_table_encoder_close(E);
    o.import.timestamps = (ordo_table_timestamps)7;
    assert_int_equal(ordo_table_encoder_open(&o, in, 1, &E, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.option, "timestamps");
    ordo_table_encoder_close(E);
    ordo_table_load_options lo = {.import = {.timestamps = (ordo_table_timestamps)7}}; /* and a load's */
    assert_int_equal(ordo_table_load_check(&lo, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.option, "timestamps");
}

/* Values over several ranges of rows and two batches: the same bytes on one
 * thread and on several, each row's value where its offsets say. */
static void test_encoder_values_threads(void **state)
{
    (void)state;
    enum { N = 10000 }; /* three ranges of the value printer */
    static int64_t ids[N];
    static double score[N];
    static int32_t off[N + 1];
    static char text[N * 8];
    static uint8_t validity[N / 8 + 1];
    off[0] = 0;
    for (int i = 0; i < N; i++) {
        ids[i] = (int64_t)((i * 7919) % N) - N / 2;
        score[i] = i * 0.25 - 100;
        off[i + 1] = off[i] + snprintf(text + off[i], 8, "t%d", i % 997);
        if (i % 10 != 3)
            validity[i / 8] |= (uint8_t)(1u << (i % 8));
    }
    acol a, b, c;
    mk(&a, "l", N, 0, 0, 2, NULL, ids, NULL, NULL);
    mk(&b, "u", N, 0, N / 10, 3, validity, off, text, NULL);
    mk(&c, "g", N, 0, 0, 2, NULL, score, NULL, NULL);
    ordo_table_input in[3] = {
        {.kind = ORDO_TABLE_INPUT_ARROW, .name = "id", .schema = &a.s, .array = &a.a, .length = N},
        {.kind = ORDO_TABLE_INPUT_ARROW, .name = "name", .schema = &b.s, .array = &b.a, .length = N},
        {.kind = ORDO_TABLE_INPUT_ARROW, .name = "score", .schema = &c.s, .array = &c.a, .length = N}};
    ordo_table_keys got[2][2];
    for (int run = 0; run < 2; run++) {
        ordo_table_encode_options o = {.values = 1, .threads = run ? MAX_THREADS : 1,
                                       .schema = "id bigint, name text, score double precision",
                                       .key = "id"};
        ordo_table_encoder *E;
        ordo_error e;
        assert_int_equal(ordo_table_encoder_open(&o, in, 3, &E, &e), ORDO_OK);
        assert_int_equal(ordo_table_encoder_add(E, in, 3, N, &e), ORDO_OK);
        assert_int_equal(ordo_table_encoder_add(E, in, 3, N, &e), ORDO_OK); /* a second batch */
        assert_int_equal(ordo_table_encoder_finish(E, &e), ORDO_OK);
        ordo_table_keys *K = ordo_table_encoder_keys(E), *V = ordo_table_encoder_values(E);
        assert_int_equal(V->n, 2 * N);
        for (int k = 0; k < 2; k++) { /* kept past close */
            ordo_table_keys *src = k ? V : K;
            got[run][k] = *src;
            memset(src, 0, sizeof *src);
        }
        ordo_table_encoder_close(E);
        /* rows 4095, 4096 (a range's last and the next's first), 9999, and
         * the second batch's 3: name NULL, its own text otherwise */
        const int rows[] = {4095, 4096, N - 1, N + 3};
        for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
            int r = rows[k], i = r % N;
            char name[8], num[32];
            snprintf(name, sizeof name, "t%d", i % 997);
            snprintf(num, sizeof num, "%g", score[i]);
            uint8_t want[64];
            size_t wn = ordo_row_value_put(want, name, strlen(name), i % 10 == 3);
            wn += ordo_row_value_put(want + wn, num, strlen(num), 0);
            const ordo_table_keys *v = &got[run][1];
            assert_int_equal((size_t)(v->off[r + 1] - v->off[r]), wn);
            assert_memory_equal(v->data + v->off[r], want, wn);
        }
    }
    for (int k = 0; k < 2; k++) {
        assert_int_equal(got[0][k].n, got[1][k].n);
        assert_int_equal(got[0][k].len, got[1][k].len);
        assert_memory_equal(got[0][k].data, got[1][k].data, got[0][k].len);
        assert_memory_equal(got[0][k].off, got[1][k].off, (got[0][k].n + 1) * sizeof *got[0][k].off);
        ordo_table_keys_free(&got[0][k]);
        ordo_table_keys_free(&got[1][k]);
    }
}

/* A value column's text printed straight from its buffers is checked as
 * a key column's is: offsets that decrease or are negative refused, naming
 * the column and the row. */
static void test_encoder_values_bad_offsets(void **state)
{
    (void)state;
    int64_t ids[] = {1, 2, 3};
    int32_t offs[][4] = {{0, 2, 1, 3}, {0, 1, -2, 3}};
    for (int k = 0; k < 2; k++) {
        acol a, b;
        mk(&a, "l", 3, 0, 0, 2, NULL, ids, NULL, NULL);
        mk(&b, "u", 3, 0, 0, 3, NULL, offs[k], "abc", NULL);
        ordo_table_input in[2] = {
            {.kind = ORDO_TABLE_INPUT_ARROW, .name = "id", .schema = &a.s, .array = &a.a, .length = 3},
            {.kind = ORDO_TABLE_INPUT_ARROW, .name = "s", .schema = &b.s, .array = &b.a, .length = 3}};
        ordo_table_encode_options o = {.values = 1, .threads = 1, .schema = "id bigint, s text",
                                       .key = "id"};
        ordo_table_encoder *E;
        ordo_error e;
        assert_int_equal(ordo_table_encoder_open(&o, in, 2, &E, &e), ORDO_OK);
        assert_int_equal(ordo_table_encoder_add(E, in, 2, 3, &e), ORDO_ERR_INVALID_VALUE);
        assert_non_null(strstr(e.message, "column 's', row 1"));
        ordo_table_encoder_close(E);
    }
}

/* ordo_table_civil_put: a civil date and time in each format's epoch and
 * unit, a zone's offset subtracted, a value past the type refused. */
static void test_civil_put(void **state)
{
    (void)state;
    for (int lex = 0; lex < 2; lex++) {
        ordo_schema sch;
        ordo_error e;
        assert_int_equal(ordo_schema_parse("d date, t timestamp, z timestamptz, i int",
                                           lex ? ORDO_FORMAT_LEXKEY : ORDO_FORMAT_ORDERED, &sch,
                                           &e),
                         ORDO_OK);
        ordo_column col;
        memset(&col, 0, sizeof col);
        int32_t days[2];
        int64_t us[2];
        ordo_table_civil v = {2000, 1, 2, 0, 0, 0, 0, 0, 0};
        assert_int_equal(ordo_table_civil_put(&v, &sch.cols[0], &col, days, 1), ORDO_OK);
        assert_int_equal(days[1], lex ? 10958 : 1);
        if (lex)
            assert_int_equal(col.time_unit, ORDO_UNIT_DAY32);
        ordo_table_civil t = {1970, 1, 1, 1, 0, 1, 5, 3600 * INT64_C(1000000), 0};
        for (int c = 1; c <= 2; c++) {
            assert_int_equal(ordo_table_civil_put(&t, &sch.cols[c], &col, us, 0), ORDO_OK);
            assert_int_equal(us[0], INT64_C(1000005) - (lex ? 0 : INT64_C(946684800000000)));
        }
        ordo_table_civil far = {4000000, 1, 1, 0, 0, 0, 0, 0, 0};
        assert_int_equal(ordo_table_civil_put(&far, &sch.cols[0], &col, days, 0), ORDO_OK);
        far.year = 6000000; /* past every date type */
        assert_int_equal(ordo_table_civil_put(&far, &sch.cols[0], &col, days, 0),
                         ORDO_ERR_OUT_OF_RANGE);
        assert_int_equal(ordo_table_civil_put(&far, &sch.cols[1], &col, us, 0),
                         ORDO_ERR_OUT_OF_RANGE);
        assert_int_equal(ordo_table_civil_put(&v, &sch.cols[3], &col, us, 0), ORDO_ERR_BAD_TYPE);
        ordo_schema_free(&sch);
    }
}

/* Rows for ordo_table_number_column and _civil_column: values[i], NULL
 * where is_null[i]; row `stop` ends with the caller's own status. */
typedef struct by_row {
    const int64_t *values;
    const int *is_null;
    size_t stop;
} by_row;

static ordo_status number_row(void *ctx, size_t i, ordo_table_number *v, int *is_null)
{
    const by_row *r = ctx;
    if (i == r->stop)
        return ORDO_ERR_INTERRUPTED;
    *is_null = r->is_null[i], v->kind = 'i', v->i = r->values[i];
    return ORDO_OK;
}

static ordo_status civil_row(void *ctx, size_t i, ordo_table_civil *v, int *is_null)
{
    const by_row *r = ctx;
    *is_null = r->is_null[i], v->year = r->values[i];
    return ORDO_OK;
}

/* 2000-01-01 00:00:00.000001 and values[i] nanoseconds (a pandas Timestamp's). */
static ordo_status nano_row(void *ctx, size_t i, ordo_table_civil *v, int *is_null)
{
    const by_row *r = ctx;
    *is_null = 0, v->year = 2000, v->micro = 1, v->nano = (int)r->values[i];
    return ORDO_OK;
}

/* Columns row by row: numbers put as ordo_table_number_put puts them,
 * NULLs in the bitmap, a refusal naming its row, the caller's status
 * passed on; dates as ordo_table_civil_put. */
static void test_row_columns(void **state)
{
    (void)state;
    tcol t;
    const ordo_schema_column *sc = col_of(&t, "smallint", ORDO_FORMAT_ORDERED);
    ordo_table_scratch *sx;
    assert_int_equal(ordo_table_scratch_open(&sx), ORDO_OK);
    int64_t v[] = {7, 0, -3, 40000};
    int nul[] = {0, 1, 0, 0};
    by_row r = {v, nul, SIZE_MAX};
    ordo_column col;
    ordo_error e;
    memset(&col, 0, sizeof col);
    assert_int_equal(ordo_table_number_column(sc, 3, number_row, &r, "n", sx, &col, &e), ORDO_OK);
    const int16_t *got = col.values;
    assert_true(got[0] == 7 && got[2] == -3);
    assert_non_null(col.validity);
    assert_true(col.validity[0] == 0xfd); /* row 1 NULL */
    assert_int_equal(ordo_table_number_column(sc, 4, number_row, &r, "n", sx, &col, &e),
                     ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'n', row 3: out of range for smallint");
    r.stop = 2;
    assert_int_equal(ordo_table_number_column(sc, 4, number_row, &r, "n", sx, &col, &e),
                     ORDO_ERR_INTERRUPTED);
    ordo_schema_free(&t.s);
    sc = col_of(&t, "date", ORDO_FORMAT_ORDERED);
    int64_t years[] = {2000, 6000000, 2001}; /* past 5874897, PostgreSQL's last year */
    by_row d = {years, nul, SIZE_MAX};
    assert_int_equal(ordo_table_civil_column(sc, 2, civil_row, &d, "d", NULL, sx, &col, &e), ORDO_OK);
    assert_int_equal(((const int32_t *)col.values)[0], 0); /* 2000-01-01: PostgreSQL's day 0 */
    d.is_null = (const int[]){0, 0, 0};
    assert_int_equal(ordo_table_civil_column(sc, 3, civil_row, &d, "d", NULL, sx, &col, &e),
                     ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'd', row 1: out of range for date");
    ordo_schema_free(&t.s);
    /* nanoseconds past the microsecond: refused, or dropped (floored); a date has none */
    int64_t nanos[] = {0, 999, 1000};
    by_row nr = {nanos, nul, SIZE_MAX};
    ordo_table_import_options trunc = {.timestamps = ORDO_TABLE_TIMESTAMPS_TRUNCATE};
    for (int lex = 0; lex < 2; lex++) {
        sc = col_of(&t, "timestamptz", lex ? ORDO_FORMAT_LEXKEY : ORDO_FORMAT_ORDERED);
        assert_int_equal(ordo_table_civil_column(sc, 2, nano_row, &nr, "t", NULL, sx, &col, &e),
                         ORDO_ERR_INVALID_VALUE);
        assert_string_equal(e.message, "column 't', row 1: 2000-01-01 00:00:00.000001999+00 is "
                                       "not a whole number of microseconds (PostgreSQL's unit); "
                                       "timestamps=\"truncate\" floors it");
        assert_int_equal(ordo_table_civil_column(sc, 2, nano_row, &nr, "t", &trunc, sx, &col, &e),
                         ORDO_OK);
        assert_int_equal(((const int64_t *)col.values)[1], lex ? INT64_C(946684800000001) : 1);
        assert_int_equal(ordo_table_civil_column(sc, 3, nano_row, &nr, "t", &trunc, sx, &col, &e),
                         ORDO_ERR_OUT_OF_RANGE); /* 1000 ns is no nanosecond field */
        ordo_schema_free(&t.s);
    }
    sc = col_of(&t, "date", ORDO_FORMAT_ORDERED);
    assert_int_equal(ordo_table_civil_column(sc, 2, nano_row, &nr, "t", NULL, sx, &col, &e),
                     ORDO_OK);
    ordo_schema_free(&t.s);
    /* the option's text */
    ordo_table_timestamps ts = ORDO_TABLE_TIMESTAMPS_TRUNCATE;
    assert_int_equal(ordo_table_timestamps_parse(NULL, &ts, &e), ORDO_OK);
    assert_int_equal(ts, ORDO_TABLE_TIMESTAMPS_REFUSE);
    assert_int_equal(ordo_table_timestamps_parse("truncate", &ts, &e), ORDO_OK);
    assert_int_equal(ts, ORDO_TABLE_TIMESTAMPS_TRUNCATE);
    assert_int_equal(ordo_table_timestamps_parse("refuse", &ts, &e), ORDO_OK);
    assert_int_equal(ts, ORDO_TABLE_TIMESTAMPS_REFUSE);
    assert_int_equal(ordo_table_timestamps_parse("round", &ts, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "timestamps: expected 'refuse' or 'truncate', got 'round'");
    assert_string_equal(e.option, "timestamps");
    sc = col_of(&t, "text", ORDO_FORMAT_ORDERED);
    assert_int_equal(ordo_table_number_column(sc, 1, number_row, &r, "x", sx, &col, &e),
                     ORDO_ERR_BAD_TYPE);
    ordo_schema_free(&t.s);
    ordo_table_scratch_close(sx);
}

/* A stream of `left` copies of one struct batch (borrowed). */
typedef struct one_stream {
    struct ArrowSchema *schema;
    struct ArrowArray *batch;
    int left;
} one_stream;

static int os_schema(struct ArrowArrayStream *st, struct ArrowSchema *out)
{
    *out = *((one_stream *)st->private_data)->schema;
    return 0;
}

static int os_next(struct ArrowArrayStream *st, struct ArrowArray *out)
{
    one_stream *o = st->private_data;
    if (o->left-- > 0)
        *out = *o->batch;
    else
        memset(out, 0, sizeof *out);
    return 0;
}

static const char *os_error(struct ArrowArrayStream *st)
{
    (void)st;
    return NULL;
}

static void os_release(struct ArrowArrayStream *st) { st->release = NULL; }

static int schemas_released;
static void counted_release(struct ArrowSchema *s) { s->release = NULL, schemas_released++; }

/* ordo_table_encoder_stream and _batch: the keys of every batch, as the
 * encoder makes them from the same inputs added by hand; what they refuse,
 * with its fault. */
static void test_encoder_arrow(void **state)
{
    (void)state;
    int64_t ids[] = {3, 1, 2};
    acol id;
    mk(&id, "l", 3, 0, 0, 2, NULL, ids, NULL, NULL);
    id.s.name = "id";
    struct ArrowSchema *kids[] = {&id.s};
    struct ArrowArray *arrs[] = {&id.a};
    const void *none[1] = {NULL};
    struct ArrowSchema sch = {.format = "+s", .name = "", .n_children = 1, .children = kids,
                              .release = release_schema};
    struct ArrowArray arr = {.length = 3, .n_buffers = 1, .buffers = none, .n_children = 1,
                             .children = arrs, .release = release_array};
    ordo_table_encode_options o = {.key = "id", .threads = MAX_THREADS};
    ordo_table_input in[1] = {
        {.kind = ORDO_TABLE_INPUT_ARROW, .name = "id", .schema = &id.s, .array = &id.a, .length = 3}};
    ordo_table_encoder *R, *E;
    ordo_table_fault f;
    ordo_error e;
    assert_int_equal(ordo_table_encoder_open(&o, in, 1, &R, &e), ORDO_OK);
    for (int i = 0; i < 2; i++)
        assert_int_equal(ordo_table_encoder_add(R, in, 1, 3, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_finish(R, &e), ORDO_OK);
    const ordo_table_keys *want = ordo_table_encoder_keys(R);
    for (int values = 0; values < 2; values++) {
        o.values = values;
        one_stream os = {&sch, &arr, 2};
        struct ArrowArrayStream st = {os_schema, os_next, os_error, os_release, &os};
        assert_int_equal(ordo_table_encoder_stream(&o, &st, &sch, &E, &f, &e), ORDO_OK);
        assert_string_equal(ordo_table_encoder_schema(E), "id bigint");
        assert_int_equal(ordo_table_encoder_finish(E, &e), ORDO_OK);
        const ordo_table_keys *got = ordo_table_encoder_keys(E);
        assert_int_equal(got->n, 6);
        assert_int_equal(got->len, want->len);
        assert_memory_equal(got->data, want->data, want->len);
        ordo_table_encoder_close(E);
    }
    /* the same through ordo_table_encoder_source: a stream (the encoder
     * keeps its schema to its close), the inputs, a batch; CSV refused */
    struct ArrowSchema counted = sch;
    counted.release = counted_release;
    one_stream os = {&counted, &arr, 2};
    struct ArrowArrayStream st = {os_schema, os_next, os_error, os_release, &os};
    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_ARROW_STREAM, .fd = -1, .stream = &st};
    schemas_released = 0;
    for (int kind = 0; kind < 3; kind++) {
        if (kind == 1)
            src = (ordo_table_source){.kind = ORDO_TABLE_SOURCE_INPUTS, .fd = -1, .inputs = in,
                                      .n = 1, .rows = 3};
        if (kind == 2)
            src = (ordo_table_source){.kind = ORDO_TABLE_SOURCE_ARROW_BATCH, .fd = -1,
                                      .schema = &sch, .array = &arr};
        o.values = kind == 1;
        assert_int_equal(ordo_table_encoder_source(&o, &src, &E, &f, &e), ORDO_OK);
        assert_int_equal(ordo_table_encoder_finish(E, &e), ORDO_OK);
        const ordo_table_keys *got = ordo_table_encoder_keys(E);
        assert_int_equal(got->n, kind ? 3 : 6);
        assert_memory_equal(got->data, want->data, (size_t)got->off[got->n]);
        assert_int_equal(schemas_released, kind ? 1 : 0); /* kept while open */
        ordo_table_encoder_close(E);
        assert_int_equal(schemas_released, 1); /* the stream's, at the first close only */
    }
    assert_non_null(st.release); /* the caller's to release */
    src = (ordo_table_source){.kind = ORDO_TABLE_SOURCE_CSV, .fd = -1, .data = "1\n", .size = 2};
    assert_int_equal(ordo_table_encoder_source(&o, &src, &E, &f, &e), ORDO_ERR_INVALID_ARG);
    assert_null(E);
    src = (ordo_table_source){.kind = ORDO_TABLE_SOURCE_ARROW_STREAM, .fd = -1};
    assert_int_equal(ordo_table_encoder_source(&o, &src, &E, &f, &e), ORDO_ERR_NULL_ARG);
    assert_string_equal(e.message, "source: no Arrow stream, batch or inputs");
    assert_null(E);
    o.values = 0;
    assert_int_equal(ordo_table_encoder_batch(&o, &sch, &arr, &E, &f, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_finish(E, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_keys(E)->n, 3);
    assert_memory_equal(ordo_table_encoder_keys(E)->data, want->data,
                        (size_t)want->off[3]);
    ordo_table_encoder_close(E);
    ordo_table_encoder_close(R);
    /* a batch with NULL rows (its validity buffer says so): the shape */
    uint8_t v = 0x05;
    const void *nulls[1] = {&v};
    struct ArrowArray holes = arr;
    holes.null_count = 1, holes.buffers = nulls;
    assert_int_equal(ordo_table_encoder_batch(&o, &sch, &holes, &E, &f, &e), ORDO_ERR_BAD_INPUT);
    assert_int_equal(f, ORDO_TABLE_FAULT_SHAPE);
    ordo_table_encoder_close(E);
    /* an unknown key column: the encoder's own fault */
    o.key = "nope";
    assert_int_not_equal(ordo_table_encoder_batch(&o, &sch, &arr, &E, &f, &e), ORDO_OK);
    assert_int_equal(f, ORDO_TABLE_FAULT_OPTION);
    ordo_table_encoder_close(E);
    /* no struct: the type */
    o.key = NULL;
    assert_int_equal(ordo_table_encoder_batch(&o, &id.s, &id.a, &E, &f, &e), ORDO_ERR_BAD_TYPE);
    assert_int_equal(f, ORDO_TABLE_FAULT_TYPE);
    assert_null(E);
    assert_int_equal(ordo_table_encoder_batch(NULL, &sch, &arr, &E, &f, &e), ORDO_ERR_NULL_ARG);
}

/* ordo_table_number_int_text: integers of any size as a bignum prints
 * them, into the 64-bit kinds or 'X' rounded once each way (a reference:
 * the value built exactly from powers of two); other text refused; and
 * ordo_table_column_fail's wording. */
static void test_number_int_text(void **state)
{
    (void)state;
    ordo_table_number v;
    assert_int_equal(ordo_table_number_int_text("-9223372036854775808", &v), ORDO_OK);
    assert_int_equal(v.kind, 'i');
    assert_true(v.i == INT64_MIN);
    assert_int_equal(ordo_table_number_int_text("0x7fffffffffffffff", &v), ORDO_OK);
    assert_true(v.kind == 'i' && v.i == INT64_MAX);
    assert_int_equal(ordo_table_number_int_text("18446744073709551615", &v), ORDO_OK);
    assert_true(v.kind == 'u' && v.u == UINT64_MAX);
    /* 2^64 + 1: the double and the float are 2^64 */
    assert_int_equal(ordo_table_number_int_text("18446744073709551617", &v), ORDO_OK);
    assert_true(v.kind == 'X' && v.d == ldexp(1, 64) && v.f == ldexpf(1, 64));
    /* 0x1000001 << 64, + 1: 25 significant bits, halfway between two floats
     * but for the last bit, so the float rounds up (through the double, it
     * would round to even: down); the double is exact but for that bit */
    assert_int_equal(ordo_table_number_int_text("0x10000010000000000000001", &v), ORDO_OK);
    assert_true(v.kind == 'X' && v.f == ldexpf(0x1000002, 64) && v.d == ldexp(0x1000001, 64));
    assert_int_equal(ordo_table_number_int_text("-0x1000000000000000000000000", &v), ORDO_OK);
    assert_true(v.kind == 'X' && v.d == -ldexp(1, 96) && v.f == -ldexpf(1, 96));
    char big[400] = "1"; /* 10^399: past every double */
    memset(big + 1, '0', 399 - 1);
    big[399] = 0;
    assert_int_equal(ordo_table_number_int_text(big, &v), ORDO_OK);
    assert_true(v.kind == 'X' && isinf(v.d) && isinf(v.f));
    static const char *const bad[] = {"", "-", "0x", "12a", "1.5", " 1", "+1", "0b1", "1e3"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(ordo_table_number_int_text(bad[i], &v), ORDO_ERR_INVALID_ARG);
    ordo_error e;
    assert_int_equal(ordo_table_column_fail(&e, ORDO_ERR_INVALID_VALUE, "n", 3, "bad %d", 7),
                     ORDO_ERR_INVALID_VALUE);
    assert_string_equal(e.message, "column 'n', row 3: bad 7");
    assert_true(e.line == 4 && e.status == ORDO_ERR_INVALID_VALUE);
}

/* ordo_table_kinds_type: one kind its type, the mixes that have one, the
 * others none. */
static void test_kinds_type(void **state)
{
    (void)state;
    assert_string_equal(ordo_table_kinds_type(0), "text");
    assert_string_equal(ordo_table_kinds_type(ORDO_TABLE_KIND_INT), "bigint");
    assert_string_equal(ordo_table_kinds_type(ORDO_TABLE_KIND_INT | ORDO_TABLE_KIND_FLOAT),
                        "double precision");
    assert_string_equal(ordo_table_kinds_type(ORDO_TABLE_KIND_DECIMAL | ORDO_TABLE_KIND_INT),
                        "numeric");
    assert_string_equal(ordo_table_kinds_type(ORDO_TABLE_KIND_TIMESTAMPTZ), "timestamptz");
    assert_null(ordo_table_kinds_type(ORDO_TABLE_KIND_INT | ORDO_TABLE_KIND_TEXT));
    assert_null(ordo_table_kinds_type(ORDO_TABLE_KIND_BOOL | ORDO_TABLE_KIND_INT));
    assert_null(ordo_table_kinds_type(ORDO_TABLE_KIND_OTHER));
    /* every type given parses as a schema */
    for (unsigned k = 0; k <= ORDO_TABLE_KIND_OTHER; k++) {
        const char *t = ordo_table_kinds_type(k);
        char text[64];
        ordo_schema sch;
        ordo_error e;
        if (!t)
            continue;
        snprintf(text, sizeof text, "c %s", t);
        assert_int_equal(ordo_schema_parse(text, ORDO_FORMAT_ORDERED, &sch, &e), ORDO_OK);
        ordo_schema_free(&sch);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encoder_timestamps),
        cmocka_unit_test(test_more_types),
        cmocka_unit_test(test_nested_times),
        cmocka_unit_test(test_arrow_record_types),
        cmocka_unit_test(test_arrow_type_names),
        cmocka_unit_test(test_civil_put),     cmocka_unit_test(test_kinds_type),
        cmocka_unit_test(test_number_int_text), cmocka_unit_test(test_encoder_arrow),
        cmocka_unit_test(test_row_columns),
        cmocka_unit_test(test_arrow_types),   cmocka_unit_test(test_decimal_format),
        cmocka_unit_test(test_integers),      cmocka_unit_test(test_floats),
        cmocka_unit_test(test_decimals),      cmocka_unit_test(test_instants),
        cmocka_unit_test(test_strings),       cmocka_unit_test(test_views),
        cmocka_unit_test(test_dictionaries),  cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_plain),         cmocka_unit_test(test_encode_batches),
        cmocka_unit_test(test_encoder),
        cmocka_unit_test(test_encoder_skips_untyped),
        cmocka_unit_test(test_encoder_values_threads),
        cmocka_unit_test(test_encoder_values_bad_offsets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
