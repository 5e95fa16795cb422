/* ordo_table_scan and ordo_table_scan_csv in-process: the Arrow C stream's
 * contract (schema, batches, types, NULLs, limits, reverse, bounds, batch
 * rows and bytes, release at any point, the end, errors through
 * get_last_error) over tables loaded here with the encoder and
 * ordo_put_load; and the CSV form. */
#include <ordo_table.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

static char g_dir[64];
static ordo_db *g_db;

#define N 100
#define SCHEMA                                                                                     \
    "id integer, b boolean, s text, d date, t time, ts timestamp, tz timestamptz, "                \
    "r double precision, x bytea, n numeric"

/* Loads csv as a table under tag (key spec key). */
static void load(int tag, const char *schema, const char *key, const char *csv,
                 const char *collations)
{
    ordo_error e = {0};
    ordo_schema s;
    ordo_encoder *enc;
    ordo_put_load *p;
    const ordo_encoder_batch *b;
    assert_int_equal(ordo_schema_parse(schema, ORDO_FORMAT_ORDERED, &s, &e), ORDO_OK);
    ordo_encoder_options eo = {.values = 1};
    assert_int_equal(ordo_encoder_open(&s, key, ORDO_FORMAT_ORDERED, &eo, &enc, &e), ORDO_OK);
    assert_int_equal(ordo_encoder_input_mem(enc, csv, strlen(csv), &e), ORDO_OK);
    assert_int_equal(ordo_put_load_open(g_db, tag, ORDO_DUP_ERROR, &p, &e), ORDO_OK);
    ordo_status rc;
    while ((rc = ordo_encoder_next(enc, &b, &e)) == ORDO_OK && b)
        for (size_t i = 0; i < b->rows; i++)
            assert_int_equal(ordo_put_load_add(p, b->keys + b->key_offsets[i],
                                               b->key_offsets[i + 1] - b->key_offsets[i],
                                               b->values + b->value_offsets[i],
                                               b->value_offsets[i + 1] - b->value_offsets[i], &e),
                             ORDO_OK);
    if (rc != ORDO_OK)
        fail_msg("line %llu: %s", (unsigned long long)e.line, e.message);
    ordo_table_meta m = {"ordered", key, schema, 0, NULL, collations};
    ordo_load_stats st;
    assert_int_equal(ordo_put_load_finish(p, &m, &st, &e), ORDO_OK);
    ordo_put_load_close(p);
    ordo_encoder_close(enc);
    ordo_schema_free(&s);
}

/* Row i of table 1: NULLs in every column but id at their own rhythm. */
static void row_csv(char *out, size_t cap, int i)
{
    char x[32] = "", name[32] = "\"\"";
    if (i % 5)
        snprintf(name, sizeof name, "name%d", i);
    if (i % 4)
        snprintf(x, sizeof x, "\\x%02x%02x", i, 255 - i);
    snprintf(out, cap, "%d,%s,%s,%s,12:00:%02d,%s,2000-01-01 00:00:%02d+00,%g,%s,%d.5\n", i,
             i % 3 == 0 ? "" : i % 2 ? "t" : "f", name,
             i == N - 1 ? "infinity" : i % 7 == 0 ? "" : "2000-01-02", i % 60,
             i == N - 1 ? "-infinity" : "1970-01-01 00:00:01", i % 60, i * 0.5, x, i);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ordo-test-tablescan-XXXXXX");
    if (!mkdtemp(g_dir))
        return -1;
    ordo_error e;
    if (ordo_db_open(g_dir, 0, &g_db, &e) != ORDO_OK)
        return -1;
    char *csv = calloc(N, 200), *p = csv;
    for (int i = N - 1; i >= 0; i--) /* any order: the store sorts */
        row_csv(p, 200, i), p += strlen(p);
    load(1, SCHEMA, "id", csv, NULL);
    free(csv);
    load(2, "k text, v integer", "k", "a,1\n\"x, y\",\n\"\",3\n", NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ordo_db_close(g_db);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    return system(cmd);
}

static ordo_table_scan_options opts(int tag)
{
    ordo_table_scan_options o = {0};
    o.tag = tag;
    return o;
}

static void open_stream(const ordo_table_scan_options *o, struct ArrowArrayStream *s)
{
    ordo_error e = {0};
    ordo_status st = ordo_table_scan(g_db, o, s, &e);
    if (st != ORDO_OK)
        fail_msg("%s", e.message);
    assert_non_null(s->release);
}

static int32_t i32(const struct ArrowArray *a, int64_t r)
{
    int32_t v;
    memcpy(&v, (const char *)a->buffers[1] + 4 * (a->offset + r), 4);
    return v;
}

static int64_t i64(const struct ArrowArray *a, int64_t r)
{
    int64_t v;
    memcpy(&v, (const char *)a->buffers[1] + 8 * (a->offset + r), 8);
    return v;
}

static int bit(const void *bits, int64_t i)
{
    return bits ? ((const uint8_t *)bits)[i >> 3] >> (i & 7) & 1 : 1;
}

static int64_t count_nulls(const struct ArrowArray *a)
{
    int64_t n = 0;
    for (int64_t r = 0; r < a->length; r++)
        n += !bit(a->buffers[0], r);
    return n;
}

/* The ids of every batch, in order, into ids (cap N); the batches' lengths
 * into lens; returns the row count. */
static size_t read_ids(struct ArrowArrayStream *s, int *ids, size_t *lens, size_t *nbatches)
{
    size_t rows = 0, nb = 0;
    struct ArrowArray a;
    for (;;) {
        assert_int_equal(s->get_next(s, &a), 0);
        if (!a.release)
            break;
        assert_int_equal(a.n_children, 1);
        for (int64_t r = 0; r < a.length; r++)
            ids[rows++] = i32(a.children[0], r);
        if (lens)
            lens[nb] = (size_t)a.length;
        nb++;
        a.release(&a);
    }
    if (nbatches)
        *nbatches = nb;
    return rows;
}

static void test_schema_types_and_values(void **state)
{
    (void)state;
    struct ArrowArrayStream s;
    ordo_table_scan_options o = opts(1);
    o.batch_rows = 30;
    open_stream(&o, &s);
    struct ArrowSchema sc;
    assert_int_equal(s.get_schema(&s, &sc), 0);
    assert_string_equal(sc.format, "+s");
    assert_int_equal(sc.n_children, 10);
    static const char *names[] = {"id", "b", "s", "d", "t", "ts", "tz", "r", "x", "n"};
    static const char *formats[] = {"i", "b", "u", "tdD", "ttu", "tsu:", "tsu:UTC", "g", "z", "u"};
    for (int c = 0; c < 10; c++) {
        assert_string_equal(sc.children[c]->name, names[c]);
        assert_string_equal(sc.children[c]->format, formats[c]);
        assert_true(sc.children[c]->flags & 2); /* nullable */
    }
    assert_int_equal(ordo_arrow_check_schema(&sc, NULL), ORDO_OK);
    int row = 0;
    struct ArrowArray a;
    size_t batches = 0;
    for (;;) {
        assert_int_equal(s.get_next(&s, &a), 0);
        if (!a.release)
            break;
        ordo_error e;
        if (ordo_arrow_check(&sc, &a, &e) != ORDO_OK)
            fail_msg("%s", e.message);
        assert_int_equal(a.length, batches < 3 ? 30 : 10);
        batches++;
        struct ArrowArray **c = a.children;
        for (int64_t r = 0; r < a.length; r++, row++) {
            assert_int_equal(i32(c[0], r), row);
            assert_int_equal(bit(c[1]->buffers[0], r), row % 3 != 0);
            if (row % 3)
                assert_int_equal(bit(c[1]->buffers[1], r), row % 2);
            const int32_t *so = c[2]->buffers[1];
            char want[32];
            snprintf(want, sizeof want, "name%d", row);
            if (row % 5 == 0)
                assert_int_equal(so[r + 1] - so[r], 0); /* "" is the empty text, not NULL */
            else
                assert_memory_equal((const char *)c[2]->buffers[2] + so[r], want, strlen(want));
            assert_int_equal(bit(c[2]->buffers[0], r), 1);
            assert_int_equal(bit(c[3]->buffers[0], r), row % 7 != 0 || row == N - 1);
            if (row == N - 1)
                assert_int_equal(i32(c[3], r), INT32_MAX); /* infinity: the extreme */
            else if (row % 7)
                assert_int_equal(i32(c[3], r), 10958); /* 2000-01-02 in days from 1970 */
            assert_int_equal(i64(c[4], r), (int64_t)(43200 + row % 60) * 1000000);
            assert_int_equal(i64(c[5], r), row == N - 1 ? INT64_MIN : 1000000);
            assert_int_equal(i64(c[6], r), (INT64_C(946684800) + row % 60) * 1000000);
            double d;
            memcpy(&d, (const char *)c[7]->buffers[1] + 8 * r, 8);
            assert_true(d == row * 0.5);
            const int32_t *xo = c[8]->buffers[1];
            assert_int_equal(bit(c[8]->buffers[0], r), row % 4 != 0);
            if (row % 4) {
                assert_int_equal(xo[r + 1] - xo[r], 2);
                const uint8_t *x = (const uint8_t *)c[8]->buffers[2] + xo[r];
                assert_int_equal(x[0], row), assert_int_equal(x[1], 255 - row);
            }
            const int32_t *no = c[9]->buffers[1];
            snprintf(want, sizeof want, "%d.5", row);
            assert_int_equal(no[r + 1] - no[r], (int32_t)strlen(want));
            assert_memory_equal((const char *)c[9]->buffers[2] + no[r], want, strlen(want));
        }
        for (int k = 0; k < 10; k++)
            assert_int_equal(c[k]->null_count, count_nulls(c[k]));
        a.release(&a);
        assert_null(a.release);
    }
    assert_int_equal(row, N);
    assert_int_equal(batches, 4);
    /* the end again, and again; the schema still */
    for (int k = 0; k < 2; k++) {
        memset(&a, 0xab, sizeof a);
        assert_int_equal(s.get_next(&s, &a), 0);
        assert_null(a.release);
    }
    assert_null(s.get_last_error(&s));
    sc.release(&sc);
    assert_int_equal(s.get_schema(&s, &sc), 0);
    sc.release(&sc);
    s.release(&s);
    assert_null(s.release);
}

static void test_limits_reverse_columns(void **state)
{
    (void)state;
    int ids[N];
    struct ArrowArrayStream s;
    static const char *id[] = {"id"};
    ordo_table_scan_options o = opts(1);
    o.columns = id, o.ncolumns = 1;
    o.has_limit = 1, o.limit = 7;
    open_stream(&o, &s);
    assert_int_equal(read_ids(&s, ids, NULL, NULL), 7);
    assert_int_equal(ids[6], 6);
    s.release(&s);
    o.limit = 0; /* no rows at all: the end at once */
    open_stream(&o, &s);
    size_t nb = 9;
    assert_int_equal(read_ids(&s, ids, NULL, &nb), 0);
    assert_int_equal(nb, 0);
    s.release(&s);
    o.has_limit = 0, o.reverse = 1;
    open_stream(&o, &s);
    assert_int_equal(read_ids(&s, ids, NULL, NULL), N);
    for (int i = 0; i < N; i++)
        assert_int_equal(ids[i], N - 1 - i);
    s.release(&s);
    /* columns in their own order */
    static const char *two[] = {"s", "id"};
    o = opts(1), o.columns = two, o.ncolumns = 2;
    open_stream(&o, &s);
    struct ArrowSchema sc;
    assert_int_equal(s.get_schema(&s, &sc), 0);
    assert_int_equal(sc.n_children, 2);
    assert_string_equal(sc.children[0]->name, "s");
    assert_string_equal(sc.children[1]->format, "i");
    sc.release(&sc);
    s.release(&s);
}

static void test_bounds(void **state)
{
    (void)state;
    int ids[N];
    struct ArrowArrayStream s;
    static const char *id[] = {"id"};
    ordo_table_scan_options o = opts(1);
    o.columns = id, o.ncolumns = 1;
    o.from = (ordo_table_bound){.kind = ORDO_TABLE_BOUND_CSV, .raw = "10"};
    /* (a row of raw_len bytes: "20", not "205") */
    o.to = (ordo_table_bound){.kind = ORDO_TABLE_BOUND_CSV, .raw = "205", .raw_len = 2};
    open_stream(&o, &s);
    assert_int_equal(read_ids(&s, ids, NULL, NULL), 10);
    assert_int_equal(ids[0], 10), assert_int_equal(ids[9], 19);
    s.release(&s);
    o.reverse = 1;
    open_stream(&o, &s);
    assert_int_equal(read_ids(&s, ids, NULL, NULL), 10);
    assert_int_equal(ids[0], 19);
    s.release(&s);
    /* texts; and raw bytes, the key made by the reader without its tag */
    const char *t42[] = {"42"};
    size_t l42[] = {2};
    o = opts(1), o.columns = id, o.ncolumns = 1;
    o.prefix =
        (ordo_table_bound){.kind = ORDO_TABLE_BOUND_TEXTS, .texts = t42, .lens = l42, .n = 1};
    open_stream(&o, &s);
    assert_int_equal(read_ids(&s, ids, NULL, NULL), 1);
    assert_int_equal(ids[0], 42);
    s.release(&s);
    ordo_table_reader *T;
    ordo_error e;
    ordo_buf k = {0};
    assert_int_equal(ordo_table_reader_open("ordered", SCHEMA, "id", 1, &T, &e), ORDO_OK);
    const char *t95[] = {"95"};
    assert_int_equal(ordo_table_reader_bound(T, t95, l42, NULL, 1, 0, &k, &e), ORDO_OK);
    o = opts(1), o.columns = id, o.ncolumns = 1;
    o.from = (ordo_table_bound){.kind = ORDO_TABLE_BOUND_RAW, .raw = k.data + 1,
                                .raw_len = k.len - 1};
    open_stream(&o, &s);
    assert_int_equal(read_ids(&s, ids, NULL, NULL), 5);
    assert_int_equal(ids[0], 95);
    s.release(&s);
    ordo_buf_free(&k);
    ordo_table_reader_close(T);
    /* values as input columns of one row: a NumPy-layout int64 for the
     * integer column, named as the key column in errors */
    int64_t v42 = 42, big = INT64_C(1) << 40;
    ordo_table_input in = {.kind = ORDO_TABLE_INPUT_PLAIN, .name = "0", .length = 1,
                           .plain = {'i', 8, ORDO_TABLE_UNIT_NS, 1, &v42, 1}};
    o = opts(1), o.columns = id, o.ncolumns = 1;
    o.prefix = (ordo_table_bound){.kind = ORDO_TABLE_BOUND_INPUTS, .inputs = &in, .n = 1};
    open_stream(&o, &s);
    assert_int_equal(read_ids(&s, ids, NULL, NULL), 1);
    assert_int_equal(ids[0], 42);
    s.release(&s);
    ordo_table_input two[2] = {in, in};
    o.prefix.inputs = two, o.prefix.n = 2;
    assert_int_equal(ordo_table_scan(g_db, &o, &s, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "prefix: 2 values, the key has 1 columns");
    in.plain.data = &big; /* past an integer: the column's own error, named */
    o.prefix.inputs = &in, o.prefix.n = 1;
    assert_int_not_equal(ordo_table_scan(g_db, &o, &s, &e), ORDO_OK);
    assert_non_null(strstr(e.message, "prefix: column 'id'"));
    /* an empty range: no batch */
    o = opts(1), o.columns = id, o.ncolumns = 1;
    o.from = (ordo_table_bound){.kind = ORDO_TABLE_BOUND_CSV, .raw = "50"};
    o.to = (ordo_table_bound){.kind = ORDO_TABLE_BOUND_CSV, .raw = "40"};
    open_stream(&o, &s);
    assert_int_equal(read_ids(&s, ids, NULL, NULL), 0);
    s.release(&s);
}

static void test_batch_bytes(void **state)
{
    (void)state;
    struct ArrowArrayStream s;
    static const char *cols[] = {"s"};
    ordo_table_scan_options o = opts(1);
    o.columns = cols, o.ncolumns = 1;
    o.batch_bytes = 50;
    open_stream(&o, &s);
    struct ArrowArray a;
    size_t rows = 0, batches = 0, want = 0;
    for (;;) {
        assert_int_equal(s.get_next(&s, &a), 0);
        if (!a.release)
            break;
        const int32_t *off = a.children[0]->buffers[1];
        assert_true(off[a.length] <= 50);
        /* cut before the next row would pass the bytes, not earlier */
        char next[32];
        size_t nx = rows + (size_t)a.length;
        snprintf(next, sizeof next, "name%zu", nx);
        if (nx % 5 == 0)
            next[0] = 0;
        if (rows + (size_t)a.length < N)
            assert_true(off[a.length] + (int32_t)strlen(next) > 50);
        rows += (size_t)a.length, batches++;
        a.release(&a);
    }
    for (int i = 0; i < N; i++) {
        char t[32];
        want += i % 5 ? (size_t)snprintf(t, sizeof t, "name%d", i) : 0;
    }
    assert_int_equal(rows, N);
    assert_true(batches >= want / 50);
    s.release(&s);
    /* a row over the bytes is a batch of its own */
    o.batch_bytes = 1;
    open_stream(&o, &s);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(s.get_next(&s, &a), 0);
        assert_int_equal(a.length, 1);
        a.release(&a);
    }
    s.release(&s);
    o.batch_bytes = (size_t)INT32_MAX + 1;
    ordo_error e;
    assert_int_equal(ordo_table_scan(g_db, &o, &s, &e), ORDO_ERR_INVALID_ARG);
    assert_null(s.release);
}

static void test_release_at_any_point(void **state)
{
    (void)state;
    struct ArrowArrayStream s;
    ordo_table_scan_options o = opts(1);
    o.batch_rows = 10;
    open_stream(&o, &s); /* before anything */
    s.release(&s);
    open_stream(&o, &s); /* after the schema only */
    struct ArrowSchema sc;
    assert_int_equal(s.get_schema(&s, &sc), 0);
    s.release(&s);
    /* mid-stream, a batch and a child moved out still held: they outlive it */
    open_stream(&o, &s);
    struct ArrowArray a, b, child;
    assert_int_equal(s.get_next(&s, &a), 0);
    assert_int_equal(s.get_next(&s, &b), 0);
    child = *b.children[2];
    b.children[2]->release = NULL; /* moved */
    s.release(&s);
    assert_int_equal(i32(a.children[0], 9), 9);
    assert_int_equal(i32(b.children[0], 0), 10);
    assert_int_equal(ordo_arrow_check(sc.children[2], &child, NULL), ORDO_OK);
    b.release(&b);
    a.release(&a);
    child.release(&child);
    sc.release(&sc);
}

typedef struct sink {
    ordo_buf b;
    int calls, fail_at;
} sink;

static ordo_status to_sink(void *ctx, const void *p, size_t n, ordo_error *err)
{
    sink *k = ctx;
    if (++k->calls == k->fail_at) {
        err->status = ORDO_ERR_IO;
        snprintf(err->message, sizeof err->message, "the sink is full");
        return ORDO_ERR_IO;
    }
    return ordo_buf_append(&k->b, p, n);
}

/* Rows i = 0 .. n-1 of a table with key "id": keys made by the reader,
 * values as given (bytes that may not be the table's). */
static void put_rows(int tag, const char *schema, size_t n, const char *const *values,
                     const size_t *lens)
{
    ordo_put_load *p;
    ordo_table_reader *T;
    ordo_error e;
    ordo_buf k = {0};
    assert_int_equal(ordo_table_reader_open("ordered", schema, "id", tag, &T, &e), ORDO_OK);
    assert_int_equal(ordo_put_load_open(g_db, tag, ORDO_DUP_ERROR, &p, &e), ORDO_OK);
    for (size_t i = 0; i < n; i++) {
        char id[24];
        snprintf(id, sizeof id, "%zu", i);
        const char *t[] = {id};
        size_t l[] = {strlen(id)};
        assert_int_equal(ordo_table_reader_bound(T, t, l, NULL, 1, 0, &k, &e), ORDO_OK);
        /* the key without its tag byte, which the load puts first */
        assert_int_equal(ordo_put_load_add(p, k.data + 1, k.len - 1, values[i], lens[i], &e),
                         ORDO_OK);
    }
    ordo_table_meta m = {"ordered", "id", schema, 0, NULL, NULL};
    ordo_load_stats st;
    assert_int_equal(ordo_put_load_finish(p, &m, &st, &e), ORDO_OK);
    ordo_put_load_close(p);
    ordo_table_reader_close(T);
    ordo_buf_free(&k);
}

static void test_errors(void **state)
{
    (void)state;
    struct ArrowArrayStream s;
    ordo_error e;
    ordo_table_scan_options o = opts(9);
    assert_int_equal(ordo_table_scan(g_db, &o, &s, &e), ORDO_ERR_NO_TABLE);
    assert_null(s.release);
    static const char *bad[] = {"id", "nope"};
    o = opts(1), o.columns = bad, o.ncolumns = 2;
    assert_int_equal(ordo_table_scan(g_db, &o, &s, &e), ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "columns: 'nope' is not a column of the table (id integer"));
    o.ncolumns = 0;
    assert_int_equal(ordo_table_scan(g_db, &o, &s, &e), ORDO_ERR_INVALID_ARG);
    o = opts(1);
    o.from = (ordo_table_bound){.kind = ORDO_TABLE_BOUND_CSV, .raw = "abc"};
    assert_int_equal(ordo_table_scan(g_db, &o, &s, &e), ORDO_ERR_INVALID_VALUE);
    assert_non_null(strstr(e.message, "from: column 'id'"));
    o.from.name = "--from";
    o.from.raw = "1\n2";
    assert_int_equal(ordo_table_scan(g_db, &o, &s, &e), ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "--from: a line end outside quotes"));
    o.from.raw = "1,2";
    assert_int_equal(ordo_table_scan(g_db, &o, &s, &e), ORDO_ERR_INVALID_ARG);
    o = opts(300);
    assert_int_equal(ordo_table_scan(g_db, &o, &s, &e), ORDO_ERR_INVALID_ARG);
    assert_int_equal(ordo_table_scan(NULL, &o, &s, &e), ORDO_ERR_NULL_ARG);
    /* collation versions that are not the running ones */
    char *running = NULL;
    ordo_schema cs;
    const char *cschema = "name text COLLATE \"C.utf8\", n integer";
    assert_int_equal(ordo_schema_parse(cschema, ORDO_FORMAT_ORDERED, &cs, &e), ORDO_OK);
    assert_int_equal(ordo_schema_collations(&cs, &running), ORDO_OK);
    ordo_schema_free(&cs);
    assert_true(*running); /* glibc's C.utf8 has a version */
    {
        load(5, cschema, "name", "b,1\na,2\n", "C.utf8\tnot-this-version\n");
        o = opts(5);
        assert_int_equal(ordo_table_scan(g_db, &o, &s, &e), ORDO_ERR_COLLATION_VERSION);
        assert_non_null(strstr(e.message, "not-this-version"));
        o.accept_collation_version = 1;
        open_stream(&o, &s);
        s.release(&s);
    }
    free(running);
    /* stored rows that are not the table's: errno, get_last_error, sticky */
    static const char *v6[] = {"\x03" "12"};
    put_rows(6, "id bigint, d date", 1, v6, (size_t[]){3});
    o = opts(6);
    open_stream(&o, &s);
    assert_int_equal(ordo_table_scan_error(&s, &e), ORDO_OK);
    struct ArrowArray a;
    for (int i = 0; i < 2; i++) {
        assert_int_equal(s.get_next(&s, &a), EINVAL);
        assert_null(a.release);
        assert_non_null(s.get_last_error(&s));
        if (!strstr(s.get_last_error(&s), "column 'd'"))
            fail_msg("%s", s.get_last_error(&s));
    }
    assert_int_equal(ordo_table_scan_error(&s, &e), ORDO_ERR_INVALID_VALUE);
    assert_non_null(strstr(e.message, "does not parse"));
    struct ArrowSchema sc;
    assert_int_equal(s.get_schema(&s, &sc), EINVAL); /* the failure is the stream's */
    s.release(&s);
    /* CSV: the rows before the bad one are written, then its error */
    static const char *v7[] = {"\x02" "a", "\x05" "ab"};
    put_rows(7, "id bigint, v text", 2, v7, (size_t[]){2, 3});
    sink k = {{0}, 0, 0};
    o = opts(7);
    assert_int_equal(ordo_table_scan_csv(g_db, &o, 0, to_sink, &k, &e), ORDO_ERR_MALFORMED_KEY);
    assert_string_equal(k.b.data, "0,a\n");
    assert_non_null(strstr(e.message, "a value does not match"));
    ordo_buf_free(&k.b);
    o = opts(7);
    open_stream(&o, &s);
    assert_int_equal(s.get_next(&s, &a), EINVAL);
    assert_non_null(strstr(s.get_last_error(&s), "a value does not match"));
    assert_int_equal(ordo_table_scan_error(&s, &e), ORDO_ERR_MALFORMED_KEY);
    s.release(&s);
    struct ArrowArrayStream foreign = {0};
    assert_int_equal(ordo_table_scan_error(&foreign, &e), ORDO_ERR_INVALID_ARG);
}

static void test_csv(void **state)
{
    (void)state;
    ordo_error e;
    sink k = {{0}, 0, 0};
    ordo_table_scan_options o = opts(2);
    assert_int_equal(ordo_table_scan_csv(g_db, &o, 1, to_sink, &k, &e), ORDO_OK);
    assert_string_equal(k.b.data, "k,v\n\"\",3\na,1\n\"x, y\",\n");
    k.b.len = 0;
    o.reverse = 1, o.has_limit = 1, o.limit = 2;
    static const char *v[] = {"v"};
    o.columns = v, o.ncolumns = 1;
    assert_int_equal(ordo_table_scan_csv(g_db, &o, 0, to_sink, &k, &e), ORDO_OK);
    assert_string_equal(k.b.data, "\n1\n");
    /* the writer's status stops the scan */
    k.b.len = 0, k.calls = 0, k.fail_at = 1;
    o = opts(2);
    assert_int_equal(ordo_table_scan_csv(g_db, &o, 0, to_sink, &k, &e), ORDO_ERR_IO);
    assert_string_equal(e.message, "the sink is full");
    /* from a bound */
    k.b.len = 0, k.calls = 0, k.fail_at = 0;
    o = opts(1);
    o.from = (ordo_table_bound){.kind = ORDO_TABLE_BOUND_CSV, .raw = "98"};
    static const char *ids[] = {"id"};
    o.columns = ids, o.ncolumns = 1;
    assert_int_equal(ordo_table_scan_csv(g_db, &o, 0, to_sink, &k, &e), ORDO_OK);
    assert_string_equal(k.b.data, "98\n99\n");
    ordo_buf_free(&k.b);
    /* to a descriptor, the same bytes */
    FILE *f = tmpfile();
    o = opts(2);
    assert_int_equal(ordo_table_scan_csv_fd(g_db, &o, 1, fileno(f), &e), ORDO_OK);
    char got[64] = {0};
    rewind(f);
    assert_int_equal(fread(got, 1, sizeof got - 1, f), 21);
    assert_string_equal(got, "k,v\n\"\",3\na,1\n\"x, y\",\n");
    fclose(f);
    assert_int_equal(ordo_table_scan_csv_fd(g_db, &o, 1, -1, &e), ORDO_ERR_IO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema_types_and_values),
        cmocka_unit_test(test_limits_reverse_columns),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_batch_bytes),
        cmocka_unit_test(test_release_at_any_point),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_csv),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
