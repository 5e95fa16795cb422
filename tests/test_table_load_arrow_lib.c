/* ordo_table_load from an Arrow C stream built here, and ordo_table_loader:
 * the table equals the same rows loaded from CSV (the reference), the
 * schema made from the stream's types, slices and several batches, the
 * encoding threads, a bad value named by its row of the whole input with
 * the database left as it was, pushes after a failure refused, an empty
 * input with a schema; input columns pushed with ordo_table_loader_add
 * (plain columns and converted ones) make the same table, and their faults
 * are told apart. */
#include "ordo_test.h"
#include "table_rows.h"

#include <ordo_table.h>

static char g_dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ordo-table-arrow-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* ----------------------------------------- a stream of record batches */

enum { ROWS = 1000, PER_BATCH = 300 };
static int64_t g_ids[ROWS];
static int32_t g_off[ROWS + 1];
static char g_text[ROWS * 8];
static uint8_t g_validity[ROWS / 8 + 1];

static void nop_schema(struct ArrowSchema *s) { s->release = NULL; }
static void nop_array(struct ArrowArray *a) { a->release = NULL; }

typedef struct batch {
    struct ArrowArray top, kids[2];
    struct ArrowArray *kidp[2];
    const void *bufs[2][3];
    const void *top_bufs[1];
} batch;

typedef struct source {
    struct ArrowSchema top, kids[2];
    struct ArrowSchema *kidp[2];
    batch b;
    size_t next; /* first row of the next batch */
    int64_t bad_row; /* >= 0: that row's name is "x" in an integer column */
} source;

static void make_schema(source *src, struct ArrowSchema *out)
{
    static const char *formats[2] = {"l", "u"}, *names[2] = {"id", "name"};
    for (int i = 0; i < 2; i++) {
        memset(&src->kids[i], 0, sizeof src->kids[i]);
        src->kids[i].format = formats[i];
        src->kids[i].name = names[i];
        src->kids[i].flags = 2; /* nullable */
        src->kids[i].release = nop_schema;
        src->kidp[i] = &src->kids[i];
    }
    memset(out, 0, sizeof *out);
    out->format = "+s";
    out->n_children = 2;
    out->children = src->kidp;
    out->release = nop_schema;
}

/* Rows from..from+n as a batch: the children slices of the whole columns
 * (their offset), and past the first batch the struct's own offset 1 with
 * the children starting a row earlier. */
static void make_batch(source *src, size_t from, size_t n, struct ArrowArray *out)
{
    batch *b = &src->b;
    memset(b, 0, sizeof *b);
    int64_t shift = from > 0; /* the struct's offset */
    b->bufs[0][0] = NULL, b->bufs[0][1] = g_ids;
    b->bufs[1][0] = g_validity, b->bufs[1][1] = g_off, b->bufs[1][2] = g_text;
    for (int i = 0; i < 2; i++) {
        b->kids[i].offset = (int64_t)from - shift;
        b->kids[i].length = (int64_t)n + shift;
        b->kids[i].null_count = i ? -1 : 0;
        b->kids[i].n_buffers = i ? 3 : 2;
        b->kids[i].buffers = b->bufs[i];
        b->kids[i].release = nop_array;
        b->kidp[i] = &b->kids[i];
    }
    memset(out, 0, sizeof *out);
    out->offset = shift;
    out->length = (int64_t)n;
    out->n_buffers = 1;
    out->buffers = b->top_bufs;
    out->n_children = 2;
    out->children = b->kidp;
    out->release = nop_array;
}

static int get_schema(struct ArrowArrayStream *st, struct ArrowSchema *out)
{
    make_schema(st->private_data, out);
    return 0;
}

static int get_next(struct ArrowArrayStream *st, struct ArrowArray *out)
{
    source *src = st->private_data;
    if (src->next >= ROWS) {
        memset(out, 0, sizeof *out); /* the end */
        return 0;
    }
    size_t n = ROWS - src->next < PER_BATCH ? ROWS - src->next : PER_BATCH;
    make_batch(src, src->next, n, out);
    src->next += n;
    return 0;
}

static const char *last_error(struct ArrowArrayStream *st)
{
    (void)st;
    return "no error";
}

static void release_stream(struct ArrowArrayStream *st) { st->release = NULL; }

static void open_stream(struct ArrowArrayStream *st, source *src)
{
    memset(src, 0, sizeof *src);
    st->get_schema = get_schema;
    st->get_next = get_next;
    st->get_last_error = last_error;
    st->release = release_stream;
    st->private_data = src;
}

/* The rows: ids scrambled, names "n<i>" with every 7th NULL; the CSV of
 * the same rows. */
static char *make_rows(void)
{
    size_t at = 0, cap = ROWS * 32, csv_at = 0;
    char *csv = malloc(cap);
    assert_non_null(csv);
    memset(g_validity, 0, sizeof g_validity);
    g_off[0] = 0;
    for (size_t i = 0; i < ROWS; i++) {
        g_ids[i] = (int64_t)((i * 7919) % ROWS) - 400;
        int null = i % 7 == 3;
        if (!null)
            g_validity[i >> 3] |= (uint8_t)(1u << (i & 7));
        int len = null ? 0 : snprintf(g_text + at, 8, "n%zu", i);
        at += (size_t)len;
        g_off[i + 1] = (int32_t)at;
        csv_at += (size_t)snprintf(csv + csv_at, cap - csv_at, "%lld,%.*s\n", (long long)g_ids[i],
                                   len, g_text + at - len);
    }
    return csv;
}

static void test_stream_equals_csv(void **state)
{
    (void)state;
    char *csv = make_rows();
    char dbp[300];
    snprintf(dbp, sizeof dbp, "%s/db", g_dir);
    ordo_db *db;
    ordo_error e = {0};
    assert_int_equal(ordo_db_open(dbp, 0, &db, &e), ORDO_OK);
    /* the reference: the same rows as CSV */
    ordo_table_load_options o;
    memset(&o, 0, sizeof o);
    o.schema = "id bigint, name text", o.key = "id DESC", o.tag = 1;
    ordo_table_summary sum;
    ordo_table_source csv_src = {.kind = ORDO_TABLE_SOURCE_CSV, .fd = -1, .data = csv,
                                 .size = strlen(csv)};
    assert_int_equal(ordo_table_load(db, &csv_src, &o, &sum, &e), ORDO_OK);
    /* the stream, its schema made from its types, on two threads */
    struct ArrowArrayStream st;
    source src;
    open_stream(&st, &src);
    o.schema = NULL, o.tag = 2, o.threads = 2;
    ordo_table_source arrow = {.kind = ORDO_TABLE_SOURCE_ARROW_STREAM, .stream = &st};
    assert_int_equal(ordo_table_load(db, &arrow, &o, &sum, &e), ORDO_OK);
    assert_null(st.release); /* released by the load */
    assert_int_equal(sum.rows_in, ROWS);
    assert_int_equal(sum.rows, ROWS);
    static char a[ROWS * 64], b[ROWS * 64];
    assert_int_equal(t_table_hex(db, 1, 1, a, sizeof a), ROWS);
    assert_int_equal(t_table_hex(db, 2, 1, b, sizeof b), ROWS);
    assert_string_equal(a, b);
    ordo_table_meta m;
    assert_int_equal(ordo_table_read(db, 2, &m, &e), ORDO_OK);
    assert_string_equal(m.schema, "id bigint, name text");
    assert_string_equal(m.key, "id DESC");
    assert_int_equal(m.rows, ROWS);
    ordo_table_meta_free(&m);
    /* pushed batch by batch: the same table */
    ordo_table_loader *L;
    o.tag = 3, o.threads = 1;
    assert_int_equal(ordo_table_loader_open(db, &o, &L, &e), ORDO_OK);
    open_stream(&st, &src);
    struct ArrowSchema sch;
    get_schema(&st, &sch);
    for (int first = 1;;) {
        struct ArrowArray arr;
        get_next(&st, &arr);
        if (!arr.release)
            break;
        assert_int_equal(ordo_table_loader_push(L, &sch, &arr, &e), ORDO_OK);
        if (first) { /* the first batch alone as a source: borrowed, its rows a table */
            ordo_table_load_options one = o;
            one.tag = 4;
            ordo_table_source batch = {.kind = ORDO_TABLE_SOURCE_ARROW_BATCH, .schema = &sch,
                                       .array = &arr};
            assert_int_equal(ordo_table_load(db, &batch, &one, &sum, &e), ORDO_OK);
            assert_non_null(arr.release);
            assert_int_equal(sum.rows, (uint64_t)arr.length);
            batch.array = NULL;
            assert_int_equal(ordo_table_load(db, &batch, &one, &sum, &e), ORDO_ERR_NULL_ARG);
            first = 0;
        }
        arr.release(&arr);
    }
    assert_int_equal(ordo_table_loader_finish(L, &sum, &e), ORDO_OK);
    ordo_table_loader_close(L);
    assert_int_equal(t_table_hex(db, 3, 1, b, sizeof b), ROWS);
    assert_string_equal(a, b);
    assert_int_equal(ordo_table_read(db, 4, &m, &e), ORDO_OK);
    assert_true(m.rows > 0 && m.rows < ROWS);
    ordo_table_meta_free(&m);
    ordo_db_close(db);
    free(csv);
}

static void test_bad_value_leaves_db(void **state)
{
    (void)state;
    free(make_rows());
    char dbp[300];
    snprintf(dbp, sizeof dbp, "%s/db-bad", g_dir);
    ordo_db *db;
    ordo_error e = {0};
    assert_int_equal(ordo_db_open(dbp, 0, &db, &e), ORDO_OK);
    ordo_table_load_options o;
    memset(&o, 0, sizeof o);
    o.schema = "id smallint, name text", o.key = "id", o.tag = 4;
    g_ids[700] = 70000; /* no smallint: row 701 of the input, in its third batch */
    struct ArrowArrayStream st;
    source src;
    open_stream(&st, &src);
    ordo_table_summary sum;
    ordo_table_source arrow = {.kind = ORDO_TABLE_SOURCE_ARROW_STREAM, .stream = &st,
                               .name = "rows.arrow"};
    assert_int_equal(ordo_table_load(db, &arrow, &o, &sum, &e), ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(e.message, "column 'id', row 100: out of range for smallint");
    assert_int_equal(e.line, 701);
    assert_int_equal(e.column, 1);
    assert_string_equal(e.file, "rows.arrow");
    assert_int_equal(sum.unchanged, 1);
    assert_null(st.release);
    assert_int_equal(ordo_table_check_free(db, 4, &e), ORDO_OK); /* no table */
    /* a loader refuses pushes after a failure */
    ordo_table_loader *L;
    assert_int_equal(ordo_table_loader_open(db, &o, &L, &e), ORDO_OK);
    open_stream(&st, &src);
    struct ArrowSchema sch;
    struct ArrowArray arr;
    get_schema(&st, &sch);
    for (int i = 0; i < 3; i++) {
        get_next(&st, &arr);
        ordo_status s = ordo_table_loader_push(L, &sch, &arr, &e);
        assert_int_equal(s, i < 2 ? ORDO_OK : ORDO_ERR_OUT_OF_RANGE);
    }
    get_next(&st, &arr);
    assert_int_equal(ordo_table_loader_push(L, &sch, &arr, &e), ORDO_ERR_BAD_STATE);
    ordo_table_loader_close(L); /* undone */
    assert_int_equal(ordo_table_check_free(db, 4, &e), ORDO_OK);
    /* the stream's columns must be the schema's */
    o.schema = "id bigint, name text, extra int";
    open_stream(&st, &src);
    assert_int_equal(ordo_table_load(db, &arrow, &o, &sum, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "the data has no column 'extra' (of the schema)");
    /* no batch: an empty table of the schema given; none made without one */
    o.schema = "id bigint, name text";
    assert_int_equal(ordo_table_loader_open(db, &o, &L, &e), ORDO_OK);
    assert_int_equal(ordo_table_loader_finish(L, &sum, &e), ORDO_OK);
    ordo_table_loader_close(L);
    ordo_table_meta m;
    assert_int_equal(ordo_table_read(db, 4, &m, &e), ORDO_OK);
    assert_int_equal(m.rows, 0);
    assert_string_equal(m.key, "id");
    ordo_table_meta_free(&m);
    o.schema = NULL, o.tag = 5;
    assert_int_equal(ordo_table_loader_open(db, &o, &L, &e), ORDO_OK);
    assert_int_equal(ordo_table_loader_finish(L, &sum, &e), ORDO_ERR_INVALID_ARG);
    ordo_table_loader_close(L);
    assert_int_equal(ordo_table_check_free(db, 5, &e), ORDO_OK);
    ordo_db_close(db);
}

/* ordo_table_input.convert for the names: row i's text through the
 * library's text forms. */
static ordo_status name_text(void *ctx, size_t i, const char **s, size_t *n, int *raw)
{
    (void)raw;
    size_t r = ((const size_t *)ctx)[0] + i;
    int null = !(g_validity[r >> 3] >> (r & 7) & 1);
    *s = null ? NULL : g_text + g_off[r];
    *n = null ? 0 : (size_t)(g_off[r + 1] - g_off[r]);
    return ORDO_OK;
}

static ordo_status names_convert(void *ctx, const ordo_schema_column *sc,
                                 const ordo_table_import_options *io, ordo_table_scratch *sx,
                                 ordo_column *col, ordo_error *err)
{
    (void)io; /* no times */
    return ordo_table_text_column(sc, ((const size_t *)ctx)[1], name_text, ctx, "name", sx, col,
                                  err);
}

static void test_inputs_pushed(void **state)
{
    (void)state;
    char *csv = make_rows();
    char dbp[300];
    snprintf(dbp, sizeof dbp, "%s/db-inputs", g_dir);
    ordo_db *db;
    ordo_error e = {0};
    assert_int_equal(ordo_db_open(dbp, 0, &db, &e), ORDO_OK);
    ordo_table_load_options o;
    memset(&o, 0, sizeof o);
    o.schema = "id bigint, name text", o.key = "id DESC", o.tag = 1;
    ordo_table_summary sum;
    ordo_table_source csv_src = {.kind = ORDO_TABLE_SOURCE_CSV, .fd = -1, .data = csv,
                                 .size = strlen(csv)};
    assert_int_equal(ordo_table_load(db, &csv_src, &o, &sum, &e), ORDO_OK);
    /* the same rows as plain int64 ids and names converted by the caller,
     * three batches of PER_BATCH rows and the rest; the schema from the
     * inputs' types */
    o.schema = NULL, o.tag = 2;
    ordo_table_loader *L;
    assert_int_equal(ordo_table_loader_open(db, &o, &L, &e), ORDO_OK);
    for (size_t from = 0; from < ROWS; from += PER_BATCH) {
        size_t n = ROWS - from < PER_BATCH ? ROWS - from : PER_BATCH, part[2] = {from, n};
        ordo_table_input in[2] = {
            {.kind = ORDO_TABLE_INPUT_CONVERT, .name = "name", .convert = names_convert,
             .ctx = part, .type = "text", .length = n},
            {.kind = ORDO_TABLE_INPUT_PLAIN, .name = "id", .length = n,
             .plain = {'i', 8, ORDO_TABLE_UNIT_NS, 1, g_ids + from, n}},
        };
        assert_int_equal(ordo_table_loader_add(L, in, 2, n, &e), ORDO_OK);
    }
    assert_int_equal(ordo_table_loader_finish(L, &sum, &e), ORDO_OK);
    ordo_table_loader_close(L);
    assert_int_equal(sum.rows_in, ROWS);
    static char a[ROWS * 64], b[ROWS * 64];
    assert_int_equal(t_table_hex(db, 1, 1, a, sizeof a), ROWS);
    assert_int_equal(t_table_hex(db, 2, 1, b, sizeof b), ROWS);
    assert_string_equal(a, b);
    ordo_table_meta m;
    assert_int_equal(ordo_table_read(db, 2, &m, &e), ORDO_OK);
    assert_string_equal(m.schema, "name text, id bigint"); /* the inputs' order */
    ordo_table_meta_free(&m);
    /* no rows: the first inputs still make the table */
    o.tag = 3;
    assert_int_equal(ordo_table_loader_open(db, &o, &L, &e), ORDO_OK);
    ordo_table_input id = {.kind = ORDO_TABLE_INPUT_PLAIN, .name = "id",
                           .plain = {'i', 8, ORDO_TABLE_UNIT_NS, 1, g_ids, 0}};
    assert_int_equal(ordo_table_loader_add(L, &id, 1, 0, &e), ORDO_OK);
    assert_int_equal(ordo_table_loader_finish(L, &sum, &e), ORDO_OK);
    ordo_table_loader_close(L);
    assert_int_equal(ordo_table_read(db, 3, &m, &e), ORDO_OK);
    assert_int_equal(m.rows, 0);
    assert_string_equal(m.schema, "id bigint");
    ordo_table_meta_free(&m);
    /* every row's inputs at once as a source: the CSV's table; a key the
     * inputs lack: the fault in the summary, nothing stored */
    size_t whole[2] = {0, ROWS};
    ordo_table_input all[2] = {
        {.kind = ORDO_TABLE_INPUT_CONVERT, .name = "name", .convert = names_convert,
         .ctx = whole, .type = "text", .length = ROWS},
        {.kind = ORDO_TABLE_INPUT_PLAIN, .name = "id", .length = ROWS,
         .plain = {'i', 8, ORDO_TABLE_UNIT_NS, 1, g_ids, ROWS}},
    };
    ordo_table_source inputs = {.kind = ORDO_TABLE_SOURCE_INPUTS, .inputs = all, .n = 2,
                                .rows = ROWS};
    o.tag = 5;
    assert_int_equal(ordo_table_load(db, &inputs, &o, &sum, &e), ORDO_OK);
    assert_int_equal(t_table_hex(db, 5, 1, b, sizeof b), ROWS);
    assert_string_equal(a, b);
    o.tag = 6, o.key = "nope";
    assert_int_equal(ordo_table_load(db, &inputs, &o, &sum, &e), ORDO_ERR_INVALID_ARG);
    assert_int_equal(sum.fault, ORDO_TABLE_FAULT_OPTION);
    assert_int_equal(ordo_table_check_free(db, 6, &e), ORDO_OK);
    o.key = "id DESC";
    /* the faults: a column the key lacks (an option), an input's type, a
     * value (its row of all batches, no file) */
    o.tag = 4, o.key = "nope";
    assert_int_equal(ordo_table_loader_open(db, &o, &L, &e), ORDO_OK);
    assert_int_equal(ordo_table_loader_add(L, &id, 1, 0, &e), ORDO_ERR_INVALID_ARG);
    assert_int_equal(ordo_table_loader_fault(L), ORDO_TABLE_FAULT_OPTION);
    assert_string_equal(e.option, "key");
    ordo_table_loader_close(L);
    o.key = "id";
    assert_int_equal(ordo_table_loader_open(db, &o, &L, &e), ORDO_OK);
    ordo_table_input odd = id;
    odd.plain.kind = 'q';
    assert_int_not_equal(ordo_table_loader_add(L, &odd, 1, 0, &e), ORDO_OK);
    assert_int_equal(ordo_table_loader_fault(L), ORDO_TABLE_FAULT_TYPE);
    assert_null(e.option);
    ordo_table_loader_close(L);
    o.schema = "id smallint";
    assert_int_equal(ordo_table_loader_open(db, &o, &L, &e), ORDO_OK);
    id.plain.length = 10;
    assert_int_equal(ordo_table_loader_add(L, &id, 1, 10, &e), ORDO_OK);
    g_ids[13] = 70000;
    id.plain.data = g_ids + 10;
    assert_int_equal(ordo_table_loader_add(L, &id, 1, 10, &e), ORDO_ERR_OUT_OF_RANGE);
    assert_int_equal(ordo_table_loader_fault(L), ORDO_TABLE_FAULT_VALUE);
    assert_int_equal(e.line, 14);
    assert_int_equal(e.column, 1);
    assert_null(e.file);
    assert_int_equal(ordo_table_loader_add(L, &id, 1, 10, &e), ORDO_ERR_BAD_STATE);
    ordo_table_loader_close(L); /* undone */
    assert_int_equal(ordo_table_check_free(db, 4, &e), ORDO_OK);
    ordo_db_close(db);
    free(csv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_equals_csv),
        cmocka_unit_test(test_bad_value_leaves_db),
        cmocka_unit_test(test_inputs_pushed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
