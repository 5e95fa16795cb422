/* ordo_table_list, ordo_table_get, ordo_table_decode_keys (and _bins) and
 * ordo_table_scan_pairs in-process:
 * the tables and their metadata as loaded (rows, bytes against the load's
 * summary, collations), one row by its key or none, keys back to typed
 * Arrow columns in batches, and refusals with their messages; a guarded
 * stream (ordo_table_guard) closed under its reader. */
#include <ordo_table.h>

#include <errno.h>
#include <pthread.h>
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
static ordo_table_summary g_sum[2];

#define SCHEMA "id integer, s text, d date"
#define KEY "d DESC NULLS LAST, id"
#define ROWS "3,c,2000-01-03\n1,a,\n2,\"\",1999-12-31\n4,,2000-01-03\n"
#define COLL_SCHEMA "w text COLLATE \"sv_SE.utf8\", n integer"

static void load(int tag, const char *schema, const char *key, const char *csv,
                 ordo_table_summary *sum)
{
    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_CSV, .fd = -1, .data = csv,
                             .size = strlen(csv)};
    ordo_table_load_options o = {.schema = schema, .key = key, .tag = tag};
    ordo_error e = {0};
    if (ordo_table_load(g_db, &src, &o, sum, &e) != ORDO_OK)
        fail_msg("load: %s", e.message);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ordo-test-tableread-XXXXXX");
    if (!mkdtemp(g_dir))
        return -1;
    ordo_error e;
    if (ordo_db_open(g_dir, 0, &g_db, &e) != ORDO_OK)
        return -1;
    load(7, SCHEMA, KEY, ROWS, &g_sum[0]);
    load(2, COLL_SCHEMA, "w, n", "bar,1\nb\xc3\xa4r,2\nBaz,3\n", &g_sum[1]);
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

static int32_t i32(const struct ArrowArray *a, int64_t r)
{
    int32_t v;
    memcpy(&v, (const char *)a->buffers[1] + 4 * (a->offset + r), 4);
    return v;
}

static int valid(const struct ArrowArray *a, int64_t r)
{
    return !a->buffers[0] || ((const uint8_t *)a->buffers[0])[(a->offset + r) >> 3] >>
                                     ((a->offset + r) & 7) & 1;
}

/* The keys of csv rows (schema, key) as ordo_encoder makes them. */
static size_t encode(const char *schema, const char *key, const char *csv, uint8_t **data,
                     int64_t **off)
{
    ordo_error e = {0};
    ordo_schema s;
    ordo_encoder *enc;
    const ordo_encoder_batch *b;
    assert_int_equal(ordo_schema_parse(schema, ORDO_FORMAT_ORDERED, &s, &e), ORDO_OK);
    ordo_encoder_options eo = {0};
    assert_int_equal(ordo_encoder_open(&s, key, ORDO_FORMAT_ORDERED, &eo, &enc, &e), ORDO_OK);
    assert_int_equal(ordo_encoder_input_mem(enc, csv, strlen(csv), &e), ORDO_OK);
    size_t n = 0, len = 0;
    *data = malloc(4096), *off = malloc(64 * sizeof **off);
    (*off)[0] = 0;
    while (ordo_encoder_next(enc, &b, &e) == ORDO_OK && b)
        for (size_t i = 0; i < b->rows; i++) {
            size_t k = b->key_offsets[i + 1] - b->key_offsets[i];
            assert_true(len + k <= 4096 && n < 63);
            memcpy(*data + len, b->keys + b->key_offsets[i], k);
            len += k;
            (*off)[++n] = (int64_t)len;
        }
    ordo_encoder_close(enc);
    ordo_schema_free(&s);
    return n;
}

static void test_list(void **state)
{
    (void)state;
    ordo_table_info *t = NULL;
    size_t n = 0;
    ordo_error e = {0};
    assert_int_equal(ordo_table_list(g_db, &t, &n, &e), ORDO_OK);
    assert_int_equal(n, 2);
    assert_int_equal(t[0].tag, 2);
    assert_int_equal(t[1].tag, 7);
    assert_int_equal(t[1].meta.rows, 4);
    assert_int_equal(t[1].bytes, g_sum[0].bytes);
    assert_int_equal(t[0].bytes, g_sum[1].bytes);
    assert_int_equal(t[0].meta.rows, 3);
    assert_string_equal(t[1].meta.schema, SCHEMA);
    assert_string_equal(t[1].meta.key, KEY);
    assert_string_equal(t[1].meta.format, "ordered");
    assert_true(!t[1].meta.collations || !*t[1].meta.collations);
    assert_non_null(t[0].meta.collations);
    assert_memory_equal(t[0].meta.collations, "sv_SE.utf8\t", 11);
    ordo_table_list_free(t, n);
    assert_int_equal(ordo_table_list(NULL, &t, &n, &e), ORDO_ERR_NULL_ARG);
    /* an empty database: no tables, no array */
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/ordo-test-tableread-XXXXXX");
    assert_non_null(mkdtemp(dir));
    ordo_db *db;
    assert_int_equal(ordo_db_open(dir, 0, &db, &e), ORDO_OK);
    t = (ordo_table_info *)&n, n = 9;
    assert_int_equal(ordo_table_list(db, &t, &n, &e), ORDO_OK);
    assert_null(t);
    assert_int_equal(n, 0);
    ordo_db_close(db);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A table records its bytes (ordo_table_recorded_bytes: the summary's);
 * one that records none (a writebatch load with a duplicate) has them
 * counted from its rows: the same as the same rows loaded through SST. */
static void test_recorded_bytes(void **state)
{
    (void)state;
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/ordo-test-tableread-XXXXXX");
    assert_non_null(mkdtemp(dir));
    ordo_db *db;
    ordo_error e = {0};
    assert_int_equal(ordo_db_open(dir, 0, &db, &e), ORDO_OK);
    static const char csv[] = "1,a,2000-01-01\n2,bb,\n1,ccc,2000-01-02\n";
    ordo_table_summary sum[2];
    for (int i = 0; i < 2; i++) {
        ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_CSV, .fd = -1, .data = csv,
                                 .size = strlen(csv)};
        ordo_table_load_options o = {.schema = SCHEMA, .key = "id", .tag = 1 + i,
                                     .on_duplicate = ORDO_DUP_LAST,
                                     .via = i ? ORDO_TABLE_VIA_WRITEBATCH : ORDO_TABLE_VIA_SST};
        if (ordo_table_load(db, &src, &o, &sum[i], &e) != ORDO_OK)
            fail_msg("load: %s", e.message);
    }
    ordo_table_info *t = NULL;
    size_t n = 0;
    assert_int_equal(ordo_table_list(db, &t, &n, &e), ORDO_OK);
    assert_int_equal(n, 2);
    uint64_t b = 0;
    assert_int_equal(ordo_table_recorded_bytes(&t[0].meta, &b), 1);
    assert_int_equal(b, sum[0].bytes);
    assert_int_equal(t[0].bytes, sum[0].bytes);
    assert_int_equal(ordo_table_recorded_bytes(&t[1].meta, &b), 0);
    assert_int_equal(t[1].bytes, t[0].bytes); /* the same two rows, counted */
    assert_true(sum[1].bytes > t[1].bytes);   /* the writebatch counted the replaced row */
    ordo_table_list_free(t, n);
    ordo_db_close(db);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* The key (without its tag byte) of the leading key values. */
static void key_of(int tag, const char *const *texts, const int *nulls, size_t n, ordo_buf *out)
{
    ordo_table_meta m;
    ordo_error e = {0};
    ordo_table_reader *r;
    assert_int_equal(ordo_table_read(g_db, tag, &m, &e), ORDO_OK);
    assert_int_equal(ordo_table_reader_open(m.format, m.schema, m.key, tag, &r, &e), ORDO_OK);
    size_t lens[4];
    for (size_t i = 0; i < n; i++)
        lens[i] = texts[i] ? strlen(texts[i]) : 0;
    assert_int_equal(ordo_table_reader_bound(r, texts, lens, nulls, n, 0, out, &e), ORDO_OK);
    memmove(out->data, out->data + 1, --out->len); /* the tag byte off */
    ordo_table_reader_close(r);
    ordo_table_meta_free(&m);
}

static void test_get(void **state)
{
    (void)state;
    ordo_buf k = {0};
    ordo_error e = {0};
    ordo_table_scan_options o = {.tag = 7};
    struct ArrowSchema s;
    struct ArrowArray a;
    int found = 0;
    const char *v1[] = {NULL, "1"}; /* d NULL, id 1 */
    int n1[] = {1, 0};
    key_of(7, v1, n1, 2, &k);
    assert_int_equal(ordo_table_get(g_db, &o, k.data, k.len, &s, &a, &found, &e), ORDO_OK);
    assert_int_equal(found, 1);
    assert_int_equal(a.length, 1);
    assert_int_equal(a.n_children, 3);
    assert_int_equal(s.n_children, 3);
    assert_string_equal(s.children[1]->name, "s");
    assert_int_equal(i32(a.children[0], 0), 1);
    assert_false(valid(a.children[2], 0)); /* d NULL */
    assert_int_equal(a.children[1]->length, 1);
    a.release(&a), s.release(&s);
    /* columns chosen; the empty text is a value */
    const char *cols[] = {"s"};
    o.columns = cols, o.ncolumns = 1;
    const char *v2[] = {"1999-12-31", "2"};
    key_of(7, v2, NULL, 2, &k);
    assert_int_equal(ordo_table_get(g_db, &o, k.data, k.len, &s, &a, &found, &e), ORDO_OK);
    assert_int_equal(found, 1);
    assert_int_equal(a.n_children, 1);
    assert_true(valid(a.children[0], 0));
    a.release(&a), s.release(&s);
    o.columns = NULL, o.ncolumns = 0;
    /* not found: a key no row has, and a prefix of a row's key */
    const char *v3[] = {"1999-12-31", "3"};
    key_of(7, v3, NULL, 2, &k);
    assert_int_equal(ordo_table_get(g_db, &o, k.data, k.len, &s, &a, &found, &e), ORDO_OK);
    assert_int_equal(found, 0);
    assert_null(a.release);
    assert_null(s.release);
    key_of(7, v2, NULL, 1, &k);
    assert_int_equal(ordo_table_get(g_db, &o, k.data, k.len, &s, &a, &found, &e), ORDO_OK);
    assert_int_equal(found, 0);
    /* refusals */
    o.tag = 9;
    assert_int_equal(ordo_table_get(g_db, &o, k.data, k.len, &s, &a, &found, &e),
                     ORDO_ERR_NO_TABLE);
    o.tag = 7;
    o.from.kind = ORDO_TABLE_BOUND_RAW;
    assert_int_equal(ordo_table_get(g_db, &o, k.data, k.len, &s, &a, &found, &e),
                     ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "must be unset"));
    o.from.kind = ORDO_TABLE_BOUND_NONE;
    assert_int_equal(ordo_table_get(g_db, &o, NULL, 3, &s, &a, &found, &e), ORDO_ERR_NULL_ARG);
    ordo_buf_free(&k);
}

static void test_decode_keys(void **state)
{
    (void)state;
    uint8_t *data;
    int64_t *off;
    size_t n = encode(SCHEMA, KEY, ROWS, &data, &off);
    assert_int_equal(n, 4);
    ordo_table_decode_options o = {.schema = SCHEMA, .key = KEY, .batch_rows = 3};
    struct ArrowArrayStream st;
    ordo_error e = {0};
    assert_int_equal(ordo_table_decode_keys(&o, data, off, n, &st, &e), ORDO_OK);
    struct ArrowSchema s;
    assert_int_equal(st.get_schema(&st, &s), 0);
    assert_int_equal(s.n_children, 2); /* the key columns, in key order */
    assert_string_equal(s.children[0]->name, "d");
    assert_string_equal(s.children[0]->format, "tdD");
    assert_string_equal(s.children[1]->name, "id");
    assert_string_equal(s.children[1]->format, "i");
    s.release(&s);
    /* in the keys' order (input order), in batches of 3 */
    const int32_t ids[] = {3, 1, 2, 4}, days[] = {10959, 0, 10956, 10959};
    size_t row = 0, batches = 0;
    for (;;) {
        struct ArrowArray a;
        assert_int_equal(st.get_next(&st, &a), 0);
        if (!a.release)
            break;
        batches++;
        assert_true(a.length <= 3);
        for (int64_t r = 0; r < a.length; r++, row++) {
            assert_int_equal(i32(a.children[1], r), ids[row]);
            assert_int_equal(valid(a.children[0], r), ids[row] != 1);
            if (ids[row] != 1)
                assert_int_equal(i32(a.children[0], r), days[row]);
        }
        a.release(&a);
    }
    assert_int_equal(row, 4);
    assert_int_equal(batches, 2);
    st.release(&st);

    /* a truncated key fails the stream at it, with its index */
    off[2]--;
    assert_int_equal(ordo_table_decode_keys(&o, data, off, n, &st, &e), ORDO_OK);
    struct ArrowArray a;
    assert_int_equal(st.get_next(&st, &a), EINVAL);
    assert_null(a.release);
    assert_int_equal(ordo_table_scan_error(&st, &e), ORDO_ERR_MALFORMED_KEY);
    assert_non_null(strstr(e.message, "key 1 of 4"));
    assert_int_equal(e.line, 2);
    assert_non_null(st.get_last_error(&st));
    assert_int_equal(st.get_next(&st, &a), EINVAL); /* sticky */
    st.release(&st);
    off[2]++;
    /* released before any read */
    assert_int_equal(ordo_table_decode_keys(&o, data, off, n, &st, &e), ORDO_OK);
    st.release(&st);
    /* no keys: a schema, then the end */
    assert_int_equal(ordo_table_decode_keys(&o, NULL, NULL, 0, &st, &e), ORDO_OK);
    assert_int_equal(st.get_next(&st, &a), 0);
    assert_null(a.release);
    st.release(&st);

    /* refusals, before any key is read */
    int64_t bad[] = {0, 5, 3};
    assert_int_equal(ordo_table_decode_keys(&o, data, bad, 2, &st, &e), ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "offsets decrease"));
    assert_null(st.release);
    ordo_table_decode_options lex = {.schema = SCHEMA, .key = KEY, .format = "lexkey"};
    assert_int_equal(ordo_table_decode_keys(&lex, data, off, n, &st, &e), ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "lexkey keys do not decode"));
    ordo_table_decode_options bs = {.schema = "id nosuchtype", .key = "id"};
    assert_int_equal(ordo_table_decode_keys(&bs, data, off, n, &st, &e), ORDO_ERR_INVALID_ARG);
    assert_memory_equal(e.message, "schema: ", 8);
    ordo_table_decode_options bk = {.schema = SCHEMA, .key = "nope"};
    assert_int_equal(ordo_table_decode_keys(&bk, data, off, n, &st, &e), ORDO_ERR_INVALID_ARG);
    assert_memory_equal(e.message, "key: ", 5);
    assert_int_equal(ordo_table_decode_keys(NULL, data, off, n, &st, &e), ORDO_ERR_NULL_ARG);
    free(data), free(off);

    /* collated text: the text comes back */
    n = encode(COLL_SCHEMA, "w DESC, n", "b\xc3\xa4r,2\n,1\n", &data, &off);
    ordo_table_decode_options c = {.schema = COLL_SCHEMA, .key = "w DESC, n"};
    assert_int_equal(ordo_table_decode_keys(&c, data, off, n, &st, &e), ORDO_OK);
    assert_int_equal(st.get_next(&st, &a), 0);
    assert_int_equal(a.length, 2);
    const struct ArrowArray *w = a.children[0];
    const int32_t *wo = (const int32_t *)w->buffers[1];
    assert_int_equal(wo[1] - wo[0], 4);
    assert_memory_equal((const char *)w->buffers[2] + wo[0], "b\xc3\xa4r", 4);
    assert_false(valid(w, 1));
    a.release(&a);
    st.release(&st);
    free(data), free(off);
}

/* ordo_table_decode_bins: keys read in place with int32 offsets that do
 * not start at 0 decode as their int64 copy does; the offsets are the
 * stream's (the caller's may go), offsets out of order are refused naming
 * the keys. */
static void test_decode_bins(void **state)
{
    (void)state;
    uint8_t *data;
    int64_t *off;
    size_t n = encode(SCHEMA, KEY, ROWS, &data, &off);
    uint8_t *shifted = malloc(off[n] + 3);
    int32_t *o32 = malloc((n + 1) * sizeof *o32);
    memcpy(shifted + 3, data, (size_t)off[n]);
    for (size_t i = 0; i <= n; i++)
        o32[i] = (int32_t)off[i] + 3;
    ordo_bins b = {shifted, (size_t)off[n] + 3, o32, 32, n};
    ordo_table_decode_options o = {.schema = SCHEMA, .key = KEY};
    struct ArrowArrayStream st;
    ordo_error e = {0};
    assert_int_equal(ordo_table_decode_bins(&o, &b, &st, &e), ORDO_OK);
    memset(o32, 0xff, (n + 1) * sizeof *o32); /* copied: not read again */
    struct ArrowArray a;
    assert_int_equal(st.get_next(&st, &a), 0);
    assert_int_equal(a.length, 4);
    const int32_t ids[] = {3, 1, 2, 4};
    for (int64_t r = 0; r < a.length; r++)
        assert_int_equal(i32(a.children[1], r), ids[r]);
    a.release(&a);
    st.release(&st);
    /* key 1 ending before it starts */
    for (size_t i = 0; i <= n; i++)
        o32[i] = (int32_t)off[i] + 3;
    o32[2] = o32[1] - 1;
    assert_int_equal(ordo_table_decode_bins(&o, &b, &st, &e), ORDO_ERR_INVALID_ARG);
    assert_memory_equal(e.message, "keys: ", 6);
    assert_non_null(strstr(e.message, "string 1 are out of order"));
    assert_null(st.release);
    assert_int_equal(ordo_table_decode_bins(&o, NULL, &st, &e), ORDO_ERR_NULL_ARG);
    free(shifted), free(o32), free(data), free(off);
}

/* ordo_table_scan_pairs: a tag's range holds its rows in key order, their
 * bytes the load's; the whole store holds the other table and the system
 * keys too. */
static void test_scan_pairs(void **state)
{
    (void)state;
    ordo_table_keys k = {0}, v = {0};
    ordo_error e = {0};
    assert_int_equal(ordo_table_scan_pairs(g_db, "\x07", 1, "\x08", 1, &k, &v, &e), ORDO_OK);
    assert_int_equal(k.n, 4);
    assert_int_equal(v.n, 4);
    assert_int_equal(k.len + v.len, g_sum[0].bytes);
    for (size_t i = 0; i < k.n; i++) {
        assert_int_equal(k.data[k.off[i]], 7);
        if (i)
            assert_true(memcmp(k.data + k.off[i - 1], k.data + k.off[i], 2) <= 0);
    }
    ordo_table_keys_free(&k), ordo_table_keys_free(&v);
    assert_int_equal(ordo_table_scan_pairs(g_db, NULL, 0, NULL, 0, &k, &v, &e), ORDO_OK);
    assert_true(k.n > 4 + 3);
    assert_int_equal(k.n, v.n);
    ordo_table_keys_free(&k), ordo_table_keys_free(&v);
    /* an empty range: no pairs, offsets still there */
    assert_int_equal(ordo_table_scan_pairs(g_db, "\x09", 1, "\x09", 1, &k, &v, &e), ORDO_OK);
    assert_int_equal(k.n, 0);
    assert_non_null(k.off);
    ordo_table_keys_free(&k), ordo_table_keys_free(&v);
    assert_int_equal(ordo_table_scan_pairs(NULL, NULL, 0, NULL, 0, &k, &v, &e), ORDO_ERR_NULL_ARG);
}

/* A thread reading the guarded stream until it fails or ends. */
static void *drain_stream(void *p)
{
    struct ArrowArrayStream *w = p;
    struct ArrowArray a;
    while (w->get_next(w, &a) == 0 && a.release)
        a.release(&a);
    return NULL;
}

/* ordo_table_guard over a decode stream: exported once, read through,
 * closed under a reader (whose calls then fail "closed"), its failure's
 * status kept; either of owner and consumer may let go first. */
static void test_guard(void **state)
{
    (void)state;
    uint8_t *data;
    int64_t *off;
    size_t n = encode(SCHEMA, KEY, ROWS, &data, &off);
    ordo_table_decode_options o = {.schema = SCHEMA, .key = KEY, .batch_rows = 1};
    struct ArrowArrayStream st, w, w2;
    struct ArrowArray a;
    ordo_table_guard *g;
    ordo_error e = {0};
    assert_int_equal(ordo_table_decode_keys(&o, data, off, n, &st, &e), ORDO_OK);
    assert_int_equal(ordo_table_guard_open(&st, &g, &e), ORDO_OK);
    assert_null(st.release); /* moved */
    assert_int_equal(ordo_table_guard_export(g, &w, &e), ORDO_OK);
    assert_int_equal(ordo_table_guard_export(g, &w2, &e), ORDO_ERR_BAD_STATE);
    assert_non_null(strstr(e.message, "exported already"));
    size_t rows = 0;
    while (w.get_next(&w, &a) == 0 && a.release)
        rows += (size_t)a.length, a.release(&a);
    assert_int_equal(rows, n);
    assert_null(w.get_last_error(&w));
    assert_int_equal(ordo_table_guard_error(g, &e), ORDO_OK);
    ordo_table_guard_free(g); /* the owner first: the consumer's stream fails */
    assert_int_equal(w.get_next(&w, &a), EINVAL);
    assert_null(a.release);
    assert_string_equal(w.get_last_error(&w), "the scan is closed");
    w.release(&w);
    assert_null(w.release);

    /* a failure of the inner stream keeps its status; the consumer first */
    off[2]--;
    assert_int_equal(ordo_table_decode_keys(&o, data, off, n, &st, &e), ORDO_OK);
    assert_int_equal(ordo_table_guard_open(&st, &g, &e), ORDO_OK);
    assert_int_equal(ordo_table_guard_export(g, &w, &e), ORDO_OK);
    while (w.get_next(&w, &a) == 0 && a.release)
        a.release(&a);
    assert_non_null(strstr(w.get_last_error(&w), "key 1 of 4"));
    assert_int_equal(ordo_table_guard_error(g, &e), ORDO_ERR_MALFORMED_KEY);
    assert_int_equal(e.line, 2);
    w.release(&w);
    assert_int_equal(ordo_table_guard_error(g, NULL), ORDO_ERR_MALFORMED_KEY);
    ordo_table_guard_close(g);
    assert_int_equal(ordo_table_guard_export(g, &w, &e), ORDO_ERR_BAD_STATE); /* closed */
    ordo_table_guard_free(g);
    off[2]++;

    /* closed while another thread reads: it stops at a batch boundary */
    assert_int_equal(ordo_table_decode_keys(&o, data, off, n, &st, &e), ORDO_OK);
    assert_int_equal(ordo_table_guard_open(&st, &g, &e), ORDO_OK);
    assert_int_equal(ordo_table_guard_export(g, &w, &e), ORDO_OK);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, drain_stream, &w), 0);
    ordo_table_guard_close(g);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(w.get_next(&w, &a), EINVAL);
    w.release(&w);
    ordo_table_guard_free(g);

    /* refusals; a stream given is released even then */
    assert_int_equal(ordo_table_guard_open(NULL, &g, &e), ORDO_ERR_NULL_ARG);
    assert_int_equal(ordo_table_decode_keys(&o, data, off, n, &st, &e), ORDO_OK);
    assert_int_equal(ordo_table_guard_open(&st, NULL, &e), ORDO_ERR_NULL_ARG);
    assert_null(st.release);
    assert_int_equal(ordo_table_guard_export(NULL, &w, &e), ORDO_ERR_NULL_ARG);
    ordo_table_guard_free(NULL);
    free(data), free(off);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_recorded_bytes),
        cmocka_unit_test(test_get),
        cmocka_unit_test(test_decode_keys),
        cmocka_unit_test(test_decode_bins),
        cmocka_unit_test(test_scan_pairs),
        cmocka_unit_test(test_guard),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
