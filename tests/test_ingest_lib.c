/* The ingest library in process (ordo_ingest.h): schemas parsed and
 * inspected, the CSV reader from memory, a path and a descriptor, every
 * text form both ways (tests/pg_values.h: parse -> key -> print -> parse
 * gives the same key), and the CSV -> key batch encoder against the row by
 * row path, with 0, 1 and several threads, errors at exact positions,
 * rejects and values. The seed is printed (ORDO_TEST_SEED=... reruns it). */
#include "ordo_test.h"
#include "pg_values.h"

#include "ordo_ingest.h"

#include <fcntl.h>
#include <unistd.h>

static uint64_t seed;

/* Worker threads the encoder tests try: none under qemu-user (cross
 * builds), whose pthread_create never returns on the test machines. */
#ifdef ORDO_TEST_NO_THREADS
static const size_t thread_counts[] = {0};
#else
static const size_t thread_counts[] = {0, 1, 3};
#endif
#define NTHREADS (sizeof thread_counts / sizeof thread_counts[0])

/* ------------------------------------------------------------ schemas */

static void schema_inspect(void **state)
{
    (void)state;
    ordo_schema s;
    ordo_error e;
    assert_status(ordo_schema_parse("id bigint DESC, \"full name\" varchar, mood enum('sad', 'ok'), "
                                    "r record(a integer, b text), f float(20), g float(25)",
                                    ORDO_FORMAT_ORDERED, &s, &e),
                  ORDO_OK);
    assert_int_equal(s.ncols, 6);
    assert_string_equal(s.cols[0].name, "id");
    assert_int_equal(s.cols[0].sql, ORDO_SQL_BIGINT);
    assert_string_equal(s.cols[0].sql_name, "bigint");
    assert_int_equal(s.cols[0].type, ORDO_TYPE_INT64);
    assert_int_equal(s.cols[0].order, ORDO_DESC_NULLS_FIRST);
    assert_true(s.cols[0].order_given);
    assert_string_equal(s.cols[1].name, "full name");
    assert_string_equal(s.cols[1].sql_name, "text");
    assert_int_equal(s.cols[1].order, ORDO_ASC_NULLS_LAST);
    assert_int_equal(s.cols[2].sql, ORDO_SQL_ENUM);
    assert_int_equal(s.cols[2].nlabels, 2);
    assert_string_equal(s.cols[2].labels[1], "ok");
    assert_int_equal(s.cols[3].sql, ORDO_SQL_RECORD);
    assert_int_equal(s.cols[3].fields->ncols, 2);
    assert_string_equal(s.cols[3].fields->cols[1].name, "b");
    assert_string_equal(s.cols[4].sql_name, "real");
    assert_string_equal(s.cols[5].sql_name, "double precision");
    assert_string_equal(ordo_order_name(ORDO_DESC_NULLS_LAST), "DESC NULLS LAST");

    /* a key spec: its columns, orders and table columns */
    ordo_schema k;
    assert_status(ordo_schema_key(&s, "mood DESC NULLS LAST, id", ORDO_FORMAT_ORDERED, &k, &e),
                  ORDO_OK);
    assert_int_equal(k.ncols, 2);
    assert_int_equal(k.cols[0].source, 2);
    assert_int_equal(k.cols[0].order, ORDO_DESC_NULLS_LAST);
    assert_int_equal(k.cols[1].source, 0);
    assert_int_equal(k.cols[1].order, ORDO_ASC_NULLS_LAST); /* the key's order, not the table's */
    ordo_schema_free(&k);
    /* no spec: every column with the table's orders */
    assert_status(ordo_schema_key(&s, NULL, ORDO_FORMAT_ORDERED, &k, &e), ORDO_OK);
    assert_int_equal(k.ncols, 6);
    for (size_t c = 0; c < 6; c++) {
        assert_int_equal(k.cols[c].source, c);
        assert_int_equal(k.cols[c].order, s.cols[c].order);
        assert_int_equal(k.cols[c].type, s.cols[c].type);
    }
    ordo_schema_free(&k);
    assert_status(ordo_schema_key(&s, "nope", ORDO_FORMAT_ORDERED, &k, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "'nope' is not a column of the schema");
    ordo_schema_free(&s);

    /* messages name the column */
    assert_status(ordo_schema_parse("a int, b foo", ORDO_FORMAT_ORDERED, &s, &e),
                  ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "column 'b': unknown type 'foo'");
    assert_status(ordo_schema_parse("a numeric", ORDO_FORMAT_LEXKEY, &s, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "column 'a': the lexkey format cannot hold type numeric");
    assert_status(ordo_schema_parse("a int", (ordo_format)9, &s, &e), ORDO_ERR_INVALID_ARG);
    ordo_schema_free(NULL);

    assert_int_equal(ordo_format_from_name("lexkey-legacy"), ORDO_FORMAT_LEXKEY_LEGACY);
    assert_int_equal(ordo_format_from_name("x"), 0);
    assert_string_equal(ordo_format_name(ORDO_FORMAT_ORDERED), "ordered");
    assert_null(ordo_format_name((ordo_format)0));
    ordo_format f = (ordo_format)0;
    assert_status(ordo_format_parse("packed", &f, &e), ORDO_OK);
    assert_int_equal(f, ORDO_FORMAT_PACKED);
    assert_status(ordo_format_parse("Ordered", &f, &e), ORDO_ERR_INVALID_ARG);
    assert_int_equal(f, 0);
    assert_string_equal(e.option, "format");
    assert_string_equal(e.message,
                        "format: unknown format 'Ordered' (ordered, packed, lexkey, lexkey-legacy)");
    assert_status(ordo_format_parse(NULL, &f, NULL), ORDO_ERR_INVALID_ARG);
    assert_true(ordo_format_decodes(ORDO_FORMAT_ORDERED) && ordo_format_decodes(ORDO_FORMAT_PACKED));
    assert_false(ordo_format_decodes(ORDO_FORMAT_LEXKEY) ||
                 ordo_format_decodes(ORDO_FORMAT_LEXKEY_LEGACY) ||
                 ordo_format_decodes((ordo_format)0));
    /* the status the encoder adds, pinned */
    assert_int_equal(ORDO_ERR_ROW_TOO_LONG, 90);
    assert_string_equal(ordo_status_name(ORDO_ERR_ROW_TOO_LONG), "ORDO_ERR_ROW_TOO_LONG");
    assert_int_equal(ORDO_ERR_BAD_HEADER, 91);
    assert_string_equal(ordo_status_name(ORDO_ERR_BAD_HEADER), "ORDO_ERR_BAD_HEADER");
}

/* --------------------------------------------------------- CSV reader */

static const char csv_text[] = "\xef\xbb\xbf"
                               "1,\"a,b\",\r\n"
                               "2,\"\",\"x\"\"y\nz\"\n"
                               "3,plain,last";

/* The rows of csv_text, from any source. */
static void check_rows(ordo_csv_reader *r)
{
    const ordo_csv_field *f;
    size_t n;
    ordo_error e;
    assert_status(ordo_csv_next(r, &f, &n, &e), ORDO_OK);
    assert_int_equal(n, 3);
    assert_int_equal(f[0].n, 1);
    assert_memory_equal(f[1].p, "a,b", 3);
    assert_true(f[1].quoted);
    assert_int_equal(f[2].n, 0); /* unquoted empty: NULL */
    assert_false(f[2].quoted);
    assert_status(ordo_csv_next(r, &f, &n, &e), ORDO_OK);
    assert_int_equal(n, 3);
    assert_int_equal(f[1].n, 0); /* "": the empty string */
    assert_true(f[1].quoted);
    assert_int_equal(f[2].n, 5);
    assert_memory_equal(f[2].p, "x\"y\nz", 5);
    assert_int_equal(f[2].line, 2);
    assert_int_equal(f[2].column, 6);
    assert_status(ordo_csv_next(r, &f, &n, &e), ORDO_OK);
    assert_int_equal(n, 3);
    assert_int_equal(f[0].line, 4); /* the quoted line end counts */
    assert_memory_equal(f[2].p, "last", 4);
    assert_status(ordo_csv_next(r, &f, &n, &e), ORDO_OK);
    assert_int_equal(n, 0);
    ordo_csv_close(r);
}

static void csv_sources(void **state)
{
    (void)state;
    ordo_csv_reader *r;
    ordo_error e;
    assert_status(ordo_csv_open_mem(csv_text, sizeof csv_text - 1, "mem", &r, &e), ORDO_OK);
    check_rows(r);

    char path[] = "/tmp/ordo-ingest-csv-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, csv_text, sizeof csv_text - 1), (ssize_t)(sizeof csv_text - 1));
    assert_status(ordo_csv_open_path(path, &r, &e), ORDO_OK);
    check_rows(r);
    assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
    assert_status(ordo_csv_open_fd(fd, "fd", &r, &e), ORDO_OK);
    check_rows(r);
    assert_int_equal(fcntl(fd, F_GETFD), 0); /* still the caller's */
    close(fd);
    unlink(path);
    assert_status(ordo_csv_open_path(path, &r, &e), ORDO_ERR_IO);
    assert_string_equal(e.file, path);

    /* errors: where and why */
    static const char bad[] = "1,ok\n2,x\"y\n";
    assert_status(ordo_csv_open_mem(bad, sizeof bad - 1, "bad.csv", &r, &e), ORDO_OK);
    const ordo_csv_field *f;
    size_t n;
    assert_status(ordo_csv_next(r, &f, &n, &e), ORDO_OK);
    assert_status(ordo_csv_next(r, &f, &n, &e), ORDO_ERR_BAD_INPUT);
    assert_string_equal(e.file, "bad.csv");
    assert_int_equal(e.line, 2);
    assert_int_equal(e.column, 4);
    assert_string_equal(e.message, "quote inside an unquoted field");
    ordo_csv_close(r);
    static const char open_quote[] = "1,\"never closed\n2\n";
    assert_status(ordo_csv_open_mem(open_quote, sizeof open_quote - 1, NULL, &r, &e), ORDO_OK);
    assert_status(ordo_csv_next(r, &f, &n, &e), ORDO_ERR_BAD_INPUT);
    assert_int_equal(e.line, 1);
    assert_int_equal(e.column, 3);
    assert_string_equal(e.message, "unterminated quoted field");
    ordo_csv_close(r);
    assert_status(ordo_csv_open_mem(NULL, 0, NULL, &r, &e), ORDO_OK); /* empty: no rows */
    assert_status(ordo_csv_next(r, &f, &n, &e), ORDO_OK);
    assert_int_equal(n, 0);
    ordo_csv_close(r);

    ordo_buf b = {0};
    assert_status(ordo_csv_field_text("", 0, &b), ORDO_OK);
    assert_status(ordo_csv_field_text("a\"b", 3, &b), ORDO_OK);
    assert_status(ordo_csv_field_text("plain", 5, &b), ORDO_OK);
    assert_int_equal(b.len, 13);
    assert_memory_equal(b.data, "\"\"\"a\"\"b\"plain", 13);
    ordo_buf_free(&b);
    /* appends grow the buffer past its first sizes, NUL-terminated */
    for (int i = 0; i < 1000; i++)
        assert_status(ordo_buf_append(&b, "abc", (size_t)i % 4), ORDO_OK);
    assert_int_equal(b.len, 1500);
    assert_memory_equal(b.data, "aab", 3);
    assert_int_equal(b.data[b.len], 0);
    assert_status(ordo_buf_append(&b, NULL, 0), ORDO_OK);
    assert_int_equal(b.len, 1500);
    ordo_buf_free(&b);
}

/* ------------------------------------------------------- text forms */

/* One CSV field (as pg_values writes it) unquoted: text and quoted flag. */
static char *unquote(const char *field, size_t *n, int *quoted)
{
    ordo_csv_reader *r;
    const ordo_csv_field *f;
    size_t nf;
    assert_status(ordo_csv_open_mem(field, strlen(field), NULL, &r, NULL), ORDO_OK);
    assert_status(ordo_csv_next(r, &f, &nf, NULL), ORDO_OK);
    char *copy = NULL;
    if (nf == 0) { /* the empty line: NULL */
        *n = 0, *quoted = 0;
        copy = malloc(1);
    } else {
        assert_int_equal(nf, 1);
        *n = f[0].n, *quoted = f[0].quoted;
        copy = malloc(f[0].n + 1);
        memcpy(copy, f[0].p, f[0].n);
    }
    ordo_csv_close(r);
    return copy;
}

/* The ordered key of one value of column 0 of s (the text unquoted). */
static size_t key_of(const ordo_schema *s, const char *p, size_t n, int quoted, uint8_t **key)
{
    ordo_rows *rows;
    ordo_error e;
    assert_status(ordo_rows_open(s, 1, &rows), ORDO_OK);
    ordo_status st = ordo_rows_put_text(rows, 0, p, n, quoted, &e);
    if (st != ORDO_OK)
        fail_msg("'%.*s' (%s): %s", (int)n, p, s->cols[0].sql_name, e.message);
    ordo_rows_end_row(rows);
    size_t nr = 0, total = 0, offs[2];
    const ordo_column *cols = ordo_rows_columns(rows, &nr);
    assert_int_equal(nr, 1);
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, cols, 1, 1, &total, NULL, NULL), ORDO_OK);
    *key = malloc(total ? total : 1);
    assert_status(ordo_batch_encode(ORDO_FORMAT_ORDERED, cols, 1, 1, *key, total, offs, NULL),
                  ORDO_OK);
    ordo_rows_close(rows);
    return total;
}

/* parse -> key -> print -> parse gives the same key, for every type in
 * all four orders; the printed CSV field is the text PostgreSQL prints
 * for the types whose text has one spelling. */
static void text_roundtrip(void **state)
{
    (void)state;
    static const char *const orders[] = {"ASC NULLS FIRST", "ASC NULLS LAST", "DESC NULLS FIRST",
                                         "DESC NULLS LAST"};
    static const char *const canonical[] = {"boolean", "text", "varchar", "uuid", "date",
                                            "macaddr", "pg_lsn", "bit(7)", NULL};
    pgv_rng rng;
    pgv_seed(&rng, seed);
    char field[PGV_FIELD_MAX], schema[1024];
    for (size_t t = 0; pgv_types[t]; t++) {
        int exact = 0;
        for (size_t k = 0; canonical[k]; k++)
            exact |= !strcmp(canonical[k], pgv_types[t]);
        for (size_t o = 0; o < 4; o++) {
            snprintf(schema, sizeof schema, "v %s %s", pgv_types[t], orders[o]);
            ordo_schema s;
            ordo_error e;
            assert_status(ordo_schema_parse(schema, ORDO_FORMAT_ORDERED, &s, &e), ORDO_OK);
            for (int i = 0; i < 60; i++) {
                pgv_value(&rng, pgv_types[t], field, sizeof field);
                size_t n;
                int quoted;
                char *text = unquote(field, &n, &quoted);
                uint8_t *k1, *k2;
                size_t n1 = key_of(&s, text, n, quoted, &k1);
                ordo_key_reader r;
                ordo_key_reader_init(&r, k1, n1);
                ordo_buf out = {0};
                bool is_null = false;
                assert_status(ordo_text_print(&r, &s.cols[0], ORDO_TEXT_CSV, &out, &is_null),
                              ORDO_OK);
                assert_int_equal(ordo_key_reader_remaining(&r), 0);
                assert_int_equal(is_null, n == 0 && !quoted);
                if (exact)
                    assert_string_equal(out.data ? out.data : "", field);
                size_t n2_text;
                int q2;
                char *again = unquote(out.data ? out.data : "", &n2_text, &q2);
                size_t n2 = key_of(&s, again, n2_text, q2, &k2);
                if (n1 != n2 || memcmp(k1, k2, n1))
                    fail_msg("%s %s: '%s' printed as '%s' reads back to another key",
                             pgv_types[t], orders[o], field, out.data ? out.data : "");
                free(k1), free(k2), free(text), free(again);
                ordo_buf_free(&out);
            }
            ordo_schema_free(&s);
        }
    }
}

/* A few exact forms, and the other styles. */
static void text_forms(void **state)
{
    (void)state;
    static const struct {
        const char *type, *in, *sql;
    } cases[] = {
        {"numeric", "1e-20", "0.00000000000000000001"},
        {"numeric", "-InF", "-Infinity"},
        {"double precision", "0.1", "0.1"},
        {"real", "3.14", "3.14"},
        {"interval", "1 day 02:00:00", "1 days 02:00:00"},
        {"timestamptz", "2020-01-01 10:00:00+02", "2020-01-01 08:00:00+00"},
        /* no seconds, as PostgreSQL reads them */
        {"timestamp", "2020-01-01 10:00", "2020-01-01 10:00:00"},
        {"timestamptz", "2020-01-01 10:00+02", "2020-01-01 08:00:00+00"},
        {"time", "10:00", "10:00:00"},
        {"timetz", "10:00+02", "10:00:00+02"},
        {"interval", "1 day 10:00", "1 days 10:00:00"},
        {"date", "0044-03-15 BC", "0044-03-15 BC"},
        {"inet", "10.0.0.1/32", "10.0.0.1"},
        {"cidr", "10.0.0.0/8", "10.0.0.0/8"},
        {"text", "it's", "'it''s'"},
        {"record(a int, b text)", "(1,\"a b\")", "'(1,\"a b\")'"},
        {"record(a int, b text)", "(1,it's)", "'(1,it''s)'"},
        {"enum('x', 'y')", "y", "'y'"},
        {"enum('x', 'y''s')", "y's", "'y''s'"},
        {"text[]", "{it's,b}", "'{it''s,b}'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char schema[128];
        snprintf(schema, sizeof schema, "v %s", cases[i].type);
        ordo_schema s;
        assert_status(ordo_schema_parse(schema, ORDO_FORMAT_ORDERED, &s, NULL), ORDO_OK);
        uint8_t *k;
        size_t n = key_of(&s, cases[i].in, strlen(cases[i].in), 1, &k);
        ordo_key_reader r;
        ordo_key_reader_init(&r, k, n);
        ordo_buf out = {0};
        assert_status(ordo_text_print(&r, &s.cols[0], ORDO_TEXT_SQL, &out, NULL), ORDO_OK);
        assert_string_equal(out.data, cases[i].sql);
        ordo_buf_free(&out);
        free(k);
        ordo_schema_free(&s);
    }
    /* NULL in each style */
    ordo_schema s;
    assert_status(ordo_schema_parse("v text", ORDO_FORMAT_ORDERED, &s, NULL), ORDO_OK);
    uint8_t *k;
    size_t n = key_of(&s, "", 0, 0, &k);
    static const char *const want[] = {"NULL", "", ""};
    for (int style = 0; style < 3; style++) {
        ordo_key_reader r;
        ordo_key_reader_init(&r, k, n);
        ordo_buf out = {0};
        bool is_null = false;
        assert_status(ordo_text_print(&r, &s.cols[0], (ordo_text_style)style, &out, &is_null),
                      ORDO_OK);
        assert_true(is_null);
        assert_int_equal(out.len, strlen(want[style]));
        ordo_buf_free(&out);
    }
    free(k);
    /* a key of another type is refused, and nothing is appended */
    uint8_t junk[] = {0x05};
    ordo_key_reader r;
    ordo_key_reader_init(&r, junk, sizeof junk);
    ordo_buf out = {0};
    assert_int_not_equal(ordo_text_print(&r, &s.cols[0], ORDO_TEXT_CSV, &out, NULL), ORDO_OK);
    assert_int_equal(out.len, 0);
    ordo_buf_free(&out);
    ordo_schema_free(&s);

    /* single values */
    int64_t i64;
    const char *why = NULL;
    assert_status(ordo_text_int("-12", 3, INT8_MIN, INT8_MAX, &i64, &why), ORDO_OK);
    assert_int_equal(i64, -12);
    assert_status(ordo_text_int("300", 3, INT8_MIN, INT8_MAX, &i64, &why), ORDO_ERR_OUT_OF_RANGE);
    assert_string_equal(why, "out of range");
    assert_status(ordo_text_int("1x", 2, INT8_MIN, INT8_MAX, &i64, &why), ORDO_ERR_INVALID_VALUE);
    uint64_t u;
    assert_status(ordo_text_uint("18446744073709551615", 20, UINT64_MAX, &u, NULL), ORDO_OK);
    assert_true(u == UINT64_MAX);
    double d;
    float f;
    assert_status(ordo_text_float64("1e400", 5, &d, &why), ORDO_ERR_OUT_OF_RANGE);
    assert_status(ordo_text_float32("-Infinity", 9, &f, &why), ORDO_OK);
    assert_true(f < 0 && f * 0 != 0);
}

/* ordo_rows with raw values, NULLs and its capacity. */
static void rows_values(void **state)
{
    (void)state;
    ordo_schema s;
    assert_status(ordo_schema_parse("a integer, b text, c boolean", ORDO_FORMAT_ORDERED, &s, NULL),
                  ORDO_OK);
    assert_int_equal(ordo_value_size(&s.cols[0]), 4);
    assert_int_equal(ordo_value_size(&s.cols[1]), 0);
    ordo_rows *rows;
    assert_status(ordo_rows_open(&s, 2, &rows), ORDO_OK);
    int32_t v = 7;
    uint8_t yes = 1;
    assert_status(ordo_rows_put_value(rows, 0, &v, 4), ORDO_OK);
    assert_status(ordo_rows_put_value(rows, 1, "hi", 2), ORDO_OK);
    assert_status(ordo_rows_put_value(rows, 2, &yes, 1), ORDO_OK);
    ordo_rows_end_row(rows);
    assert_status(ordo_rows_put_value(rows, 0, &v, 8), ORDO_ERR_INVALID_ARG);
    assert_status(ordo_rows_put_value(rows, 3, &v, 4), ORDO_ERR_INVALID_ARG);
    assert_status(ordo_rows_put_null(rows, 0), ORDO_OK);
    assert_status(ordo_rows_put_text(rows, 1, "x", 1, 0, NULL), ORDO_OK);
    ordo_error e;
    assert_status(ordo_rows_put_text(rows, 2, "maybe", 5, 0, &e), ORDO_ERR_INVALID_VALUE);
    assert_string_equal(e.message, "expected a boolean (t or f)");
    ordo_rows_drop_row(rows); /* nothing of it stays */
    assert_status(ordo_rows_put_text(rows, 0, "", 0, 0, NULL), ORDO_OK);
    assert_status(ordo_rows_put_text(rows, 1, "", 0, 1, NULL), ORDO_OK);
    assert_status(ordo_rows_put_text(rows, 2, "f", 1, 0, NULL), ORDO_OK);
    ordo_rows_end_row(rows);
    assert_status(ordo_rows_put_value(rows, 0, &v, 4), ORDO_ERR_DST_TOO_SMALL);
    size_t n = 0;
    const ordo_column *cols = ordo_rows_columns(rows, &n);
    assert_int_equal(n, 2);
    uint8_t keys[64];
    size_t offs[3], total = 0;
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, cols, 3, 2, &total, NULL, NULL), ORDO_OK);
    assert_status(ordo_batch_encode(ORDO_FORMAT_ORDERED, cols, 3, 2, keys, sizeof keys, offs, NULL),
                  ORDO_OK);
    /* 7, 'hi', true | NULL, '', false: the row API's keys */
    uint8_t want[64];
    size_t wn = 0;
    ordo_key k;
    ordo_key_init(&k, want, sizeof want, 0);
    ordo_key_int32(&k, ORDO_ASC_NULLS_LAST, 7);
    ordo_key_text(&k, ORDO_ASC_NULLS_LAST, "hi", 2);
    ordo_key_bool(&k, ORDO_ASC_NULLS_LAST, true);
    assert_status(ordo_key_finish(&k, &wn), ORDO_OK);
    assert_int_equal(offs[1], wn);
    assert_memory_equal(keys, want, wn);
    ordo_key_init(&k, want, sizeof want, 0);
    ordo_key_null(&k, ORDO_ASC_NULLS_LAST);
    ordo_key_text(&k, ORDO_ASC_NULLS_LAST, "", 0);
    ordo_key_bool(&k, ORDO_ASC_NULLS_LAST, false);
    assert_status(ordo_key_finish(&k, &wn), ORDO_OK);
    assert_int_equal(offs[2] - offs[1], wn);
    assert_memory_equal(keys + offs[1], want, wn);
    ordo_rows_clear(rows);
    ordo_rows_columns(rows, &n);
    assert_int_equal(n, 0);
    ordo_rows_close(rows);
    ordo_schema_free(&s);
}

/* ----------------------------------------------------------- encoder */

#define ENC_SCHEMA                                                                                 \
    "id bigint, name text, score double precision DESC, day date, tag enum('a', 'b,c', 'd'), "      \
    "blob bytea, n numeric NULLS FIRST"
#define ENC_COLS 7

/* A CSV of `rows` random rows of ENC_SCHEMA (about 90 bytes each). */
static char *make_csv(size_t rows, size_t *len, int header, int flat)
{
    static const char *const types[] = {"bigint", "text", "double precision", "date",
                                        "enum('a', 'b,c', 'd')", "bytea", "numeric"};
    pgv_rng rng;
    pgv_seed(&rng, seed ^ rows);
    size_t cap = rows * 256 + 64, n = 0;
    char *p = malloc(cap), field[PGV_FIELD_MAX];
    if (header)
        n += (size_t)snprintf(p, cap, "id,name,score,day,tag,blob,n\n");
    for (size_t r = 0; r < rows; r++) {
        for (size_t c = 0; c < ENC_COLS; c++) {
            size_t fl = pgv_value(&rng, types[c], field, sizeof field);
            if (fl > 120) /* keep rows short: many chunks from a few MiB */
                fl = 0;
            if (n + fl + 4 > cap) {
                cap *= 2;
                p = realloc(p, cap);
            }
            if (c)
                p[n++] = ',';
            for (size_t k = 0; flat && k < fl; k++) /* one line per row */
                if (field[k] == '\n' || field[k] == '\r')
                    field[k] = ' ';
            memcpy(p + n, field, fl), n += fl;
        }
        p[n++] = r % 7 == 3 ? '\r' : '\n';
        if (p[n - 1] == '\r')
            p[n++] = '\n';
    }
    *len = n;
    return p;
}

/* Keys of every row, one row at a time (ordo_rows of one row). */
typedef struct keyset {
    size_t rows;
    uint8_t *keys;
    size_t *offs;
    uint64_t *lines;
} keyset;

static keyset reference_keys(const char *csv, size_t len, const ordo_schema *table,
                             const ordo_schema *key, ordo_format fmt, int header)
{
    keyset k = {0};
    size_t cap = 1 << 16, kcap = 1 << 20, used = 0;
    k.offs = malloc((cap + 1) * sizeof *k.offs);
    k.lines = malloc(cap * sizeof *k.lines);
    k.keys = malloc(kcap);
    k.offs[0] = 0;
    ordo_csv_reader *rd;
    assert_status(ordo_csv_open_mem(csv, len, NULL, &rd, NULL), ORDO_OK);
    ordo_rows *rows;
    assert_status(ordo_rows_open(key, 1, &rows), ORDO_OK);
    const ordo_csv_field *f;
    size_t nf;
    while (ordo_csv_next(rd, &f, &nf, NULL) == ORDO_OK && nf) {
        if (header) {
            header = 0;
            continue;
        }
        assert_int_equal(nf, table->ncols);
        for (size_t c = 0; c < key->ncols; c++) {
            const ordo_csv_field *fl = &f[key->cols[c].source];
            assert_status(ordo_rows_put_text(rows, c, fl->p, fl->n, fl->quoted, NULL), ORDO_OK);
        }
        ordo_rows_end_row(rows);
        const ordo_column *cols = ordo_rows_columns(rows, NULL);
        size_t total = 0, offs[2];
        assert_status(ordo_batch_size(fmt, cols, key->ncols, 1, &total, NULL, NULL), ORDO_OK);
        if (used + total > kcap)
            k.keys = realloc(k.keys, kcap = 2 * (used + total));
        if (k.rows == cap) {
            cap *= 2;
            k.offs = realloc(k.offs, (cap + 1) * sizeof *k.offs);
            k.lines = realloc(k.lines, cap * sizeof *k.lines);
        }
        assert_status(ordo_batch_encode(fmt, cols, key->ncols, 1, k.keys + used, total, offs, NULL),
                      ORDO_OK);
        used += total;
        k.lines[k.rows] = f[0].line;
        k.offs[++k.rows] = used;
        ordo_rows_clear(rows);
    }
    ordo_rows_close(rows);
    ordo_csv_close(rd);
    return k;
}

static void keyset_free(keyset *k) { free(k->keys), free(k->offs), free(k->lines); }

typedef enum { FROM_MEM, FROM_PATH, FROM_FD } source;

/* Runs the encoder and checks every batch against the reference, in
 * order; returns the final status (err filled). */
/* A format hook: each row's line (8 bytes) then its key, appended. */
static int line_and_key(void *ctx, const ordo_encoder_batch *b, ordo_buf *out)
{
    (void)ctx;
    for (size_t r = 0; r < b->rows; r++) {
        size_t n = b->key_offsets[r + 1] - b->key_offsets[r];
        if (out->len + 8 + n > out->cap) {
            size_t cap = 2 * (out->len + 8 + n);
            char *p = realloc(out->data, cap);
            if (!p)
                return 0;
            out->data = p, out->cap = cap;
        }
        memcpy(out->data + out->len, &b->lines[r], 8);
        memcpy(out->data + out->len + 8, b->keys + b->key_offsets[r], n);
        out->len += 8 + n;
    }
    return 1;
}

static ordo_status run_encoder(const char *csv, size_t len, const ordo_schema *table,
                               const char *spec, ordo_format fmt, const ordo_encoder_options *o,
                               source from, const keyset *want, size_t *rows_seen, ordo_error *err)
{
    ordo_encoder *enc;
    assert_status(ordo_encoder_open(table, spec, fmt, o, &enc, err), ORDO_OK);
    char path[] = "/tmp/ordo-ingest-enc-XXXXXX";
    int fd = -1;
    if (from != FROM_MEM) {
        fd = mkstemp(path);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, csv, len), (ssize_t)len);
        assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
    }
    if (from == FROM_MEM)
        assert_status(ordo_encoder_input_mem(enc, csv, len, err), ORDO_OK);
    else if (from == FROM_PATH)
        assert_status(ordo_encoder_input_path(enc, path, err), ORDO_OK);
    else
        assert_status(ordo_encoder_input_fd(enc, fd, err), ORDO_OK);
    assert_status(ordo_encoder_input_mem(enc, csv, len, NULL), ORDO_ERR_BAD_STATE);
    const ordo_encoder_batch *b;
    ordo_status st;
    size_t at = 0;
    while ((st = ordo_encoder_next(enc, &b, err)) == ORDO_OK && b) {
        size_t out_at = 0; /* the format hook's output: the batch's rows, in order */
        for (size_t r = 0; r < b->rows; r++, at++) {
            assert_true(at < want->rows);
            size_t n = b->key_offsets[r + 1] - b->key_offsets[r];
            assert_int_equal(n, want->offs[at + 1] - want->offs[at]);
            assert_memory_equal(b->keys + b->key_offsets[r], want->keys + want->offs[at], n);
            assert_int_equal(b->lines[r], want->lines[at]);
            if (o->format) {
                assert_true(out_at + 8 + n <= b->output_len);
                assert_memory_equal(b->output + out_at, &b->lines[r], 8);
                assert_memory_equal(b->output + out_at + 8, want->keys + want->offs[at], n);
                out_at += 8 + n;
            }
        }
        if (o->format)
            assert_int_equal(out_at, b->output_len);
        else
            assert_null(b->output);
    }
    if (st == ORDO_OK)
        assert_null(b);
    *rows_seen = at;
    ordo_error again;
    if (st != ORDO_OK) { /* the error stays */
        assert_status(ordo_encoder_next(enc, &b, &again), st);
        assert_int_equal(again.line, err->line);
    }
    assert_true(ordo_encoder_bytes_read(enc) > 0 || len == 0);
    ordo_encoder_close(enc);
    if (fd >= 0) {
        close(fd);
        unlink(path);
    }
    return st;
}

/* Several MiB: many chunks, in input order whatever the thread count and
 * the source; the same keys as row by row. */
static void encoder_keys(void **state)
{
    (void)state;
    size_t len;
    char *csv = make_csv(40000, &len, 1, 0);
    assert_true(len > 2 * ((size_t)1 << 20));
    static const struct {
        ordo_format fmt;
        const char *schema, *spec;
    } cases[] = {
        {ORDO_FORMAT_ORDERED, ENC_SCHEMA, NULL},
        {ORDO_FORMAT_ORDERED, ENC_SCHEMA, "tag DESC, n, id"},
        {ORDO_FORMAT_LEXKEY, "id bigint, name text, score double precision, day text, tag text, "
                             "blob bytea, n text", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ordo_schema table, key;
        ordo_error e;
        assert_status(ordo_schema_parse(cases[i].schema, cases[i].fmt, &table, &e), ORDO_OK);
        assert_status(ordo_schema_key(&table, cases[i].spec, cases[i].fmt, &key, &e), ORDO_OK);
        keyset want = reference_keys(csv, len, &table, &key, cases[i].fmt, 1);
        assert_int_equal(want.rows, 40000);
        for (size_t t = 0; t < NTHREADS; t++) {
            ordo_encoder_options o = {0};
            o.threads = thread_counts[t];
            o.header = 1;
            o.name = "big.csv";
            o.format = (i + t) % 2 ? line_and_key : NULL;
            size_t seen = 0;
            source from = (source)((i + t) % 3);
            assert_status(run_encoder(csv, len, &table, cases[i].spec, cases[i].fmt, &o, from,
                                      &want, &seen, &e),
                          ORDO_OK);
            assert_int_equal(seen, want.rows);
        }
        keyset_free(&want);
        ordo_schema_free(&key);
        ordo_schema_free(&table);
    }
    free(csv);
}

/* Replaces line `line` (1-based) of csv with text. */
static char *with_line(const char *csv, size_t len, size_t line, const char *text, size_t *out)
{
    const char *p = csv;
    for (size_t l = 1; l < line; l++)
        p = (const char *)memchr(p, '\n', len - (size_t)(p - csv)) + 1;
    const char *end = memchr(p, '\n', len - (size_t)(p - csv));
    size_t before = (size_t)(p - csv), tl = strlen(text), after = len - (size_t)(end - csv);
    char *r = malloc(before + tl + after);
    memcpy(r, csv, before);
    memcpy(r + before, text, tl);
    memcpy(r + before + tl, end, after);
    *out = before + tl + after;
    return r;
}

/* ordo_csv_split: parts of whole rows (quoted line ends inside fields),
 * each encoded on its own with its first_line, give every row's key and
 * line as the whole input does; the header only in the first part. */
static void csv_split_parts(void **state)
{
    (void)state;
    size_t len;
    char *csv = make_csv(20000, &len, 1, 0);
    ordo_schema table, key;
    ordo_error e;
    assert_status(ordo_schema_parse(ENC_SCHEMA, ORDO_FORMAT_ORDERED, &table, &e), ORDO_OK);
    assert_status(ordo_schema_key(&table, "tag DESC, n, id", ORDO_FORMAT_ORDERED, &key, &e),
                  ORDO_OK);
    keyset want = reference_keys(csv, len, &table, &key, ORDO_FORMAT_ORDERED, 1);
    char path[] = "/tmp/ordo-split-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, csv, len), (ssize_t)len);
    static const struct {
        uint64_t target;
        size_t cap;
    } cases[] = {{1, 100000}, {4096, 100000}, {100003, 100000}, {(uint64_t)1 << 20, 100000},
                 {4096, 3}, {(uint64_t)1 << 40, 8}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        ordo_csv_part *parts = malloc(cases[c].cap * sizeof *parts);
        size_t n = 0;
        assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
        assert_status(ordo_csv_split(fd, path, cases[c].target, parts, cases[c].cap, &n, &e),
                      ORDO_OK);
        assert_true(n >= 1 && n <= cases[c].cap);
        if (cases[c].cap == 3)
            assert_int_equal(n, 3); /* the last part takes the rest */
        uint64_t at = 0;
        size_t row = 0;
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(parts[i].offset, at);
            assert_true(parts[i].length > 0);
            at += parts[i].length;
            if (i + 1 < n)
                assert_true(parts[i].length >= cases[c].target);
            ordo_encoder_options o = {0};
            o.header = 1, o.values = 1, o.first_line = parts[i].first_line;
            ordo_encoder *enc;
            assert_status(ordo_encoder_open(&table, "tag DESC, n, id", ORDO_FORMAT_ORDERED, &o,
                                            &enc, &e),
                          ORDO_OK);
            assert_status(ordo_encoder_input_mem(enc, csv + parts[i].offset, parts[i].length, &e),
                          ORDO_OK);
            const ordo_encoder_batch *b;
            ordo_status st;
            while ((st = ordo_encoder_next(enc, &b, &e)) == ORDO_OK && b)
                for (size_t r = 0; r < b->rows; r++, row++) {
                    assert_true(row < want.rows);
                    size_t kn = b->key_offsets[r + 1] - b->key_offsets[r];
                    assert_int_equal(kn, want.offs[row + 1] - want.offs[row]);
                    assert_memory_equal(b->keys + b->key_offsets[r], want.keys + want.offs[row], kn);
                    assert_int_equal(b->lines[r], want.lines[row]);
                }
            assert_status(st, ORDO_OK);
            ordo_encoder_close(enc);
        }
        assert_int_equal(at, len);
        assert_int_equal(row, want.rows);
        free(parts);
    }
    /* a bad row in a later part: named by the whole input's line */
    size_t bad_len;
    char *bad = with_line(csv, len, (size_t)want.lines[15000], "1,x,not-a-number,,a,,1", &bad_len);
    ordo_csv_part parts[64];
    size_t n = 0;
    assert_int_equal(ftruncate(fd, 0), 0);
    assert_int_equal(pwrite(fd, bad, bad_len, 0), (ssize_t)bad_len);
    assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
    assert_status(ordo_csv_split(fd, path, 65536, parts, 64, &n, &e), ORDO_OK);
    /* the whole input's error, as one encoder meets it */
    ordo_error whole;
    {
        ordo_encoder_options o = {0};
        o.header = 1;
        ordo_encoder *enc;
        assert_status(ordo_encoder_open(&table, NULL, ORDO_FORMAT_ORDERED, &o, &enc, &e), ORDO_OK);
        assert_status(ordo_encoder_input_mem(enc, bad, bad_len, &e), ORDO_OK);
        const ordo_encoder_batch *b;
        while (ordo_encoder_next(enc, &b, &whole) == ORDO_OK && b)
            ;
        ordo_encoder_close(enc);
        assert_status(whole.status, ORDO_ERR_BAD_INPUT);
    }
    size_t failed = 0;
    for (size_t i = 0; i < n; i++) {
        ordo_encoder_options o = {0};
        o.header = 1, o.first_line = parts[i].first_line;
        ordo_encoder *enc;
        assert_status(ordo_encoder_open(&table, NULL, ORDO_FORMAT_ORDERED, &o, &enc, &e), ORDO_OK);
        assert_status(ordo_encoder_input_mem(enc, bad + parts[i].offset, parts[i].length, &e),
                      ORDO_OK);
        const ordo_encoder_batch *b;
        ordo_status st;
        while ((st = ordo_encoder_next(enc, &b, &e)) == ORDO_OK && b)
            ;
        /* parts after a broken quote may fail too (their cut is then not
         * a row start): the first failing part's error is the input's */
        if (st != ORDO_OK && !failed++) {
            assert_status(st, whole.status);
            assert_int_equal(e.line, whole.line);
            assert_int_equal(e.column, whole.column);
            assert_string_equal(e.message, whole.message);
        }
        ordo_encoder_close(enc);
    }
    assert_true(failed >= 1);
    free(bad);
    /* bad arguments; an empty input has no parts */
    assert_status(ordo_csv_split(fd, path, 0, parts, 64, &n, &e), ORDO_ERR_INVALID_ARG);
    assert_int_equal(ftruncate(fd, 0), 0);
    assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
    assert_status(ordo_csv_split(fd, path, 10, parts, 64, &n, &e), ORDO_OK);
    assert_int_equal(n, 0);
    assert_status(ordo_csv_split(-1, path, 10, parts, 64, &n, &e), ORDO_ERR_IO);
    assert_string_equal(e.file, path);
    close(fd);
    unlink(path);
    keyset_free(&want);
    ordo_schema_free(&key);
    ordo_schema_free(&table);
    free(csv);
}

/* The first bad row in the input is the one reported, at its position,
 * after exactly the rows before it, whichever worker meets it. */
static void encoder_errors(void **state)
{
    (void)state;
    size_t len, blen, b2len;
    char *csv = make_csv(30000, &len, 0, 1);
    char *bad = with_line(csv, len, 25001, "25001,x,1.5,2020-01-01,a,zz,1", &blen);
    /* a second bad row later, in another chunk: not the one reported */
    char *bad2 = with_line(bad, blen, 29000, "oops", &b2len);
    ordo_schema table;
    ordo_error e;
    assert_status(ordo_schema_parse(ENC_SCHEMA, ORDO_FORMAT_ORDERED, &table, &e), ORDO_OK);
    ordo_schema key;
    assert_status(ordo_schema_key(&table, NULL, ORDO_FORMAT_ORDERED, &key, &e), ORDO_OK);
    keyset want = reference_keys(csv, len, &table, &key, ORDO_FORMAT_ORDERED, 0); /* the rows before */
    for (size_t t = 0; t < NTHREADS; t++) {
        ordo_encoder_options o = {0};
        o.threads = thread_counts[t];
        o.name = "bad.csv";
        size_t seen = 0;
        assert_status(run_encoder(bad2, b2len, &table, NULL, ORDO_FORMAT_ORDERED, &o, FROM_MEM,
                                  &want, &seen, &e),
                      ORDO_ERR_BAD_INPUT);
        assert_int_equal(seen, 25000);
        assert_string_equal(e.file, "bad.csv");
        assert_int_equal(e.line, 25001);
        assert_int_equal(e.column, 26);
        assert_string_equal(e.message, "column 'blob' (bytea): expected bytea hex form \\x...: "
                                       "'zz'");
    }
    free(bad2);

    /* a field count, a header, a row too long, a quoted field left open */
    static const struct {
        const char *csv;
        int header;
        size_t max_row;
        ordo_status st;
        uint64_t line, column;
        const char *message;
    } cases[] = {
        {"1,a,1,2020-01-01,a,,1\n2,b\n", 0, 0, ORDO_ERR_BAD_INPUT, 2, 4,
         "expected 7 fields, found 2"},
        {"id,name,score,day,tag,blob,m\n", 1, 0, ORDO_ERR_BAD_HEADER, 1, 28,
         "header field 7 is 'm', the schema says 'n'"},
        {"id,name\n", 1, 0, ORDO_ERR_BAD_HEADER, 1, 1, "the header has 2 fields, the schema 7"},
        {"1,a,1,2020-01-01,a,,1\n2,\"a long text\nover lines\",1,2020-01-01,a,,1\n", 0, 30,
         ORDO_ERR_ROW_TOO_LONG, 2, 1, "a row longer than 30 bytes: a quoted field left open?"},
        {"1,a,1,2020-01-01,a,,1\n2,\"open\n", 0, 0, ORDO_ERR_BAD_INPUT, 2, 3,
         "unterminated quoted field"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (size_t t = 0; t < NTHREADS && t < 2; t++) {
            ordo_encoder_options o = {0};
            o.threads = thread_counts[t];
            o.header = cases[i].header;
            o.max_row_bytes = cases[i].max_row;
            ordo_encoder *enc;
            assert_status(ordo_encoder_open(&table, NULL, ORDO_FORMAT_ORDERED, &o, &enc, &e),
                          ORDO_OK);
            assert_status(ordo_encoder_input_mem(enc, cases[i].csv, strlen(cases[i].csv), &e),
                          ORDO_OK);
            const ordo_encoder_batch *b;
            ordo_status st;
            while ((st = ordo_encoder_next(enc, &b, &e)) == ORDO_OK && b)
                ;
            assert_status(st, cases[i].st);
            assert_string_equal(e.file, "<input>");
            assert_int_equal(e.line, cases[i].line);
            assert_int_equal(e.column, cases[i].column);
            assert_string_equal(e.message, cases[i].message);
            ordo_encoder_close(enc);
        }
    }
    keyset_free(&want);
    ordo_schema_free(&key);
    ordo_schema_free(&table);
    free(csv), free(bad);
}

/* skip_bad_rows: rejects with their rows as CSV; values of the other
 * columns in the value form. */
static void encoder_rejects_values(void **state)
{
    (void)state;
    static const char csv[] = "k,v,w\n"
                              "1,\"a,b\",t\n"
                              "x,\"q\"\"\",f\n"
                              "2,,\n"
                              "3,\"\",maybe\n"
                              "4,zz\n"
                              "5,last,f\n";
    ordo_schema table;
    ordo_error e;
    assert_status(ordo_schema_parse("k integer, v text, w boolean", ORDO_FORMAT_ORDERED, &table,
                                    &e),
                  ORDO_OK);
    for (int all = 0; all < 2; all++) {
        for (size_t t = 0; t < NTHREADS && t < 2; t++) {
            ordo_encoder_options o = {0};
            o.threads = thread_counts[t];
            o.header = 1;
            o.values = 1;
            o.values_all = all;
            o.skip_bad_rows = 1;
            ordo_encoder *enc;
            assert_status(ordo_encoder_open(&table, "k DESC", ORDO_FORMAT_ORDERED, &o, &enc, &e),
                          ORDO_OK);
            assert_int_equal(ordo_encoder_key(enc)->ncols, 1);
            assert_status(ordo_encoder_input_mem(enc, csv, sizeof csv - 1, &e), ORDO_OK);
            const ordo_encoder_batch *b;
            assert_status(ordo_encoder_next(enc, &b, &e), ORDO_OK);
            assert_non_null(b);
            assert_int_equal(b->rows, 3);
            static const uint64_t lines[] = {2, 4, 7};
            for (size_t r = 0; r < 3; r++) {
                assert_int_equal(b->lines[r], lines[r]);
                assert_int_equal(b->key_columns[r], 1);
            }
            uint8_t want[16];
            size_t wn = 0;
            ordo_key k;
            ordo_key_init(&k, want, sizeof want, 0);
            ordo_key_int32(&k, ORDO_DESC_NULLS_FIRST, 1);
            assert_status(ordo_key_finish(&k, &wn), ORDO_OK);
            assert_int_equal(b->key_offsets[1], wn);
            assert_memory_equal(b->keys, want, wn);
            /* row 2's value: v NULL, w NULL (and k first with values_all) */
            const uint8_t *p = b->values + b->value_offsets[1],
                          *end = b->values + b->value_offsets[2], *text;
            size_t n;
            int is_null;
            if (all) {
                assert_status(ordo_row_value_next(&p, end, &text, &n, &is_null), ORDO_OK);
                assert_false(is_null);
                assert_memory_equal(text, "2", 1);
            }
            for (int c = 0; c < 2; c++) {
                assert_status(ordo_row_value_next(&p, end, &text, &n, &is_null), ORDO_OK);
                assert_true(is_null);
            }
            assert_ptr_equal(p, end);
            p = b->values + b->value_offsets[0];
            end = b->values + b->value_offsets[1];
            if (all)
                assert_status(ordo_row_value_next(&p, end, &text, &n, &is_null), ORDO_OK);
            assert_status(ordo_row_value_next(&p, end, &text, &n, &is_null), ORDO_OK);
            assert_int_equal(n, 3);
            assert_memory_equal(text, "a,b", 3);
            assert_int_equal(b->nrejects, 3);
            assert_int_equal(b->rejects[0].line, 3);
            assert_int_equal(b->rejects[0].column, 1);
            assert_string_equal(b->rejects[0].message, "column 'k' (integer): expected an integer: 'x'");
            assert_int_equal(b->rejects[0].row_len, strlen("x,\"q\"\"\",f\n"));
            assert_memory_equal(b->rejects[0].row, "x,\"q\"\"\",f\n", b->rejects[0].row_len);
            assert_int_equal(b->rejects[1].line, 5);
            assert_string_equal(b->rejects[1].message,
                                "column 'w' (boolean): expected a boolean (t or f): 'maybe'");
            assert_memory_equal(b->rejects[1].row, "3,\"\",maybe\n", b->rejects[1].row_len);
            assert_string_equal(b->rejects[2].message, "expected 3 fields, found 2");
            assert_status(ordo_encoder_next(enc, &b, &e), ORDO_OK);
            assert_null(b);
            ordo_encoder_close(enc);
        }
    }
    uint8_t buf[ORDO_ROW_VALUE_MAX(200)], text200[200];
    memset(text200, 'x', sizeof text200);
    assert_int_equal(ordo_row_value_put(buf, NULL, 0, 1), 1);
    assert_int_equal(ordo_row_value_put(buf, text200, 200, 0), 202); /* a two-byte varint */
    const uint8_t *p = buf, *text;
    size_t n;
    int is_null;
    assert_status(ordo_row_value_next(&p, buf + 100, &text, &n, &is_null), ORDO_ERR_MALFORMED_KEY);
    ordo_encoder_close(NULL);
    ordo_schema_free(&table);
}

/* Short rows: several key batches per chunk, each row's line, key column
 * and value right across them (a key spec that reorders, values, some rows
 * over two lines). */
static void encoder_short_rows(void **state)
{
    (void)state;
    enum { ROWS = 50000 };
    size_t cap = (size_t)ROWS * 32, len = 0;
    char *csv = malloc(cap);
    uint64_t *lines = malloc(ROWS * sizeof *lines), line = 1;
    for (size_t i = 0; i < ROWS; i++) {
        lines[i] = line;
        int two = i % 5 == 2; /* c over two lines */
        len += (size_t)snprintf(csv + len, cap - len, two ? "%zu,k%zu,\"x\ny\"\n" : "%zu,k%zu,v\n",
                                i, i % 97);
        line += two ? 2 : 1;
    }
    ordo_schema table, key;
    ordo_error e;
    assert_status(ordo_schema_parse("a integer, b text, c text", ORDO_FORMAT_ORDERED, &table, &e),
                  ORDO_OK);
    assert_status(ordo_schema_key(&table, "b, a", ORDO_FORMAT_ORDERED, &key, &e), ORDO_OK);
    keyset want = reference_keys(csv, len, &table, &key, ORDO_FORMAT_ORDERED, 0);
    assert_int_equal(want.rows, ROWS);
    for (size_t t = 0; t < NTHREADS; t++) {
        ordo_encoder_options o = {0};
        o.threads = thread_counts[t];
        o.values = 1;
        o.format = t % 2 ? line_and_key : NULL;
        ordo_encoder *enc;
        assert_status(ordo_encoder_open(&table, "b, a", ORDO_FORMAT_ORDERED, &o, &enc, &e),
                      ORDO_OK);
        assert_status(ordo_encoder_input_mem(enc, csv, len, &e), ORDO_OK);
        const ordo_encoder_batch *b;
        size_t at = 0;
        while (ordo_encoder_next(enc, &b, &e) == ORDO_OK && b) {
            for (size_t r = 0; r < b->rows; r++, at++) {
                assert_true(at < ROWS);
                size_t n = b->key_offsets[r + 1] - b->key_offsets[r];
                assert_int_equal(n, want.offs[at + 1] - want.offs[at]);
                assert_memory_equal(b->keys + b->key_offsets[r], want.keys + want.offs[at], n);
                assert_int_equal(b->lines[r], lines[at]);
                char a[24];
                assert_int_equal(b->key_columns[r], (size_t)snprintf(a, sizeof a, "%zu", at) + 2);
                const uint8_t *p = b->values + b->value_offsets[r],
                              *end = b->values + b->value_offsets[r + 1], *text;
                int is_null;
                assert_status(ordo_row_value_next(&p, end, &text, &n, &is_null), ORDO_OK);
                assert_false(is_null);
                if (at % 5 == 2) {
                    assert_int_equal(n, 3);
                    assert_memory_equal(text, "x\ny", 3);
                } else {
                    assert_int_equal(n, 1);
                    assert_memory_equal(text, "v", 1);
                }
                assert_ptr_equal(p, end);
            }
        }
        assert_int_equal(at, ROWS);
        ordo_encoder_close(enc);
    }
    keyset_free(&want);
    ordo_schema_free(&key);
    ordo_schema_free(&table);
    free(csv), free(lines);
}

int main(void)
{
    seed = t_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(schema_inspect), cmocka_unit_test(csv_sources),
        cmocka_unit_test(text_roundtrip), cmocka_unit_test(text_forms),
        cmocka_unit_test(rows_values),    cmocka_unit_test(encoder_keys),
        cmocka_unit_test(csv_split_parts),
        cmocka_unit_test(encoder_errors), cmocka_unit_test(encoder_rejects_values),
        cmocka_unit_test(encoder_short_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
