/* ordo_table_reader (ordo_ingest.h): rows stored as `ordo load` stores them
 * (keys and values from ordo_encoder) read back as their texts in every
 * format; bounds against the stored keys, LexKey's NULL/"" prefixes; and
 * malformed keys and values, each in a buffer of its exact size (so that
 * the sanitizers see any read past it), giving a status. */
#include "ordo_test.h"

#include "ordo_ingest.h"
#include "pg_values.h"

#define MAX_ROWS 16

/* Stored rows: key i (tag byte first) and value i, each malloc'd to size. */
typedef struct stored {
    size_t n;
    uint8_t *key[MAX_ROWS], *value[MAX_ROWS];
    size_t kn[MAX_ROWS], vn[MAX_ROWS];
} stored;

static int lexkey(const char *format) { return !strncmp(format, "lexkey", 6); }

static uint8_t *dup_bytes(const uint8_t *head, size_t hn, const uint8_t *p, size_t n)
{
    uint8_t *d = malloc(hn + n + 1);
    assert_non_null(d);
    if (hn)
        memcpy(d, head, hn);
    if (n)
        memcpy(d + hn, p, n);
    return d;
}

/* The rows of csv as `ordo load --format format --tag tag` stores them. */
static void store(const char *format, const char *schema, const char *key, int tag,
                  const char *csv, stored *s)
{
    ordo_schema table;
    ordo_error e;
    assert_status(ordo_schema_parse(schema, ORDO_FORMAT_ORDERED, &table, &e), ORDO_OK);
    ordo_encoder_options o = {0};
    o.values = 1;
    o.values_all = lexkey(format);
    ordo_encoder *enc = NULL;
    assert_status(ordo_encoder_open(&table, key, ordo_format_from_name(format), &o, &enc, &e),
                  ORDO_OK);
    assert_status(ordo_encoder_input_mem(enc, csv, strlen(csv), &e), ORDO_OK);
    const ordo_encoder_batch *b;
    uint8_t t = (uint8_t)tag;
    memset(s, 0, sizeof *s);
    ordo_status st;
    while ((st = ordo_encoder_next(enc, &b, &e)) == ORDO_OK && b)
        for (size_t r = 0; r < b->rows; r++) {
            assert_true(s->n < MAX_ROWS);
            size_t k0 = b->key_offsets[r], v0 = b->value_offsets[r];
            s->kn[s->n] = b->key_offsets[r + 1] - k0 + (tag >= 0);
            s->vn[s->n] = b->value_offsets[r + 1] - v0;
            s->key[s->n] = dup_bytes(&t, tag >= 0, b->keys + k0, s->kn[s->n] - (tag >= 0));
            s->value[s->n] = dup_bytes(NULL, 0, b->values + v0, s->vn[s->n]);
            s->n++;
        }
    if (st != ORDO_OK)
        fail_msg("%s: %s", format, e.message);
    ordo_encoder_close(enc);
    ordo_schema_free(&table);
}

static void stored_free(stored *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->key[i]), free(s->value[i]);
}

static ordo_table_reader *open_reader(const char *format, const char *schema, const char *key,
                                      int tag)
{
    ordo_table_reader *r = NULL;
    ordo_error e;
    assert_status(ordo_table_reader_open(format, schema, key, tag, &r, &e), ORDO_OK);
    return r;
}

/* Row i's columns joined with '|', NULL as "<null>". */
static void row_text(ordo_table_reader *r, const stored *s, size_t i, char *out, size_t cap)
{
    ordo_table_field f[8];
    ordo_error e;
    int matches = -1;
    assert_true(ordo_table_reader_table(r)->ncols <= 8);
    assert_status(ordo_table_reader_row(r, s->key[i], s->kn[i], s->value[i], s->vn[i], f,
                                        &matches, &e),
                  ORDO_OK);
    assert_int_equal(matches, 1);
    size_t at = 0;
    out[0] = 0;
    for (size_t c = 0; c < ordo_table_reader_table(r)->ncols; c++)
        at += (size_t)snprintf(out + at, cap - at, "%s%.*s", c ? "|" : "",
                               f[c].is_null ? 6 : (int)f[c].len,
                               f[c].is_null ? "<null>" : f[c].text);
}

/* ------------------------------------------------------------- rows */

/* Every format: the texts are the loaded ones, key columns decoded (or,
 * LexKey, from the value) and in table order whatever the key's order. */
static void rows_every_format(void **state)
{
    (void)state;
    static const struct {
        const char *format, *schema, *key, *csv;
        const char *want[3];
    } cases[] = {
        {"ordered", "a integer, s text, d date, r record(x integer, y text)", "s DESC, a",
         "1,\"b,c\",2020-01-02,\"(1,q)\"\n,,,\n2,\"\",infinity,\"(,)\"\n",
         {"2||infinity|(,)", "1|b,c|2020-01-02|(1,q)", "<null>|<null>|<null>|<null>"}},
        {"packed", "kind ubigint, name text, id ubigint", "kind, id DESC",
         "1,x,2\n1,\"\",3\n0,,18446744073709551615\n",
         {"0|<null>|18446744073709551615", "1||3", "1|x|2"}},
        {"lexkey", "s text, n bigint, v text", "s, n",
         "b,1,x\n,2,\n\"\",3,\"\"\n", {"|3|", "b|1|x", "<null>|2|<null>"}},
        {"lexkey-legacy", "n bigint, s text", "n", "5,five\n-1,\n", {"-1|<null>", "5|five"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int tag = -1; tag <= 3; tag += 4) {
            stored s;
            store(cases[i].format, cases[i].schema, cases[i].key, tag, cases[i].csv, &s);
            ordo_table_reader *r = open_reader(cases[i].format, cases[i].schema, cases[i].key,
                                               tag);
            assert_int_equal(ordo_table_reader_key(r)->ncols, 1 + (strchr(cases[i].key, ',') != 0));
            /* the encoder gives rows in input order: sort the texts instead */
            const char *got[3] = {0};
            char text[3][256];
            for (size_t k = 0; k < s.n; k++) {
                row_text(r, &s, k, text[k], sizeof text[k]);
                got[k] = text[k];
            }
            for (size_t w = 0; w < s.n; w++) {
                int found = 0;
                for (size_t k = 0; k < s.n; k++)
                    found |= got[k] && !strcmp(got[k], cases[i].want[w]);
                if (!found)
                    fail_msg("%s: no row '%s' (first: '%s')", cases[i].format, cases[i].want[w],
                             got[0]);
            }
            ordo_table_reader_close(r);
            stored_free(&s);
        }
}

/* The key columns' texts, CSV-quoted (ordo_csv_field_text), are what
 * ordo_text_print's ORDO_TEXT_CSV prints: `ordo scan` quotes every column
 * so, and printed keys in that style before the reader. */
static void key_texts_quote_as_csv(void **state)
{
    (void)state;
    pgv_rng rng;
    pgv_seed(&rng, 0x7ab1e);
    static char field[PGV_FIELD_MAX], csv[PGV_FIELD_MAX + 8], schema[512];
    for (size_t t = 0; pgv_types[t]; t++) {
        snprintf(schema, sizeof schema, "k %s DESC, v text", pgv_types[t]);
        ordo_table_reader *r = open_reader("ordered", schema, "k", -1);
        ordo_buf quoted = {0}, printed = {0};
        for (int i = 0; i < 40; i++) {
            pgv_value(&rng, pgv_types[t], field, sizeof field);
            snprintf(csv, sizeof csv, "%s,x\n", field);
            stored s;
            store("ordered", schema, "k", -1, csv, &s);
            ordo_table_field f[2];
            ordo_error e;
            int matches;
            assert_status(ordo_table_reader_row(r, s.key[0], s.kn[0], s.value[0], s.vn[0], f,
                                                &matches, &e),
                          ORDO_OK);
            quoted.len = printed.len = 0;
            if (!f[0].is_null)
                assert_status(ordo_csv_field_text(f[0].text, f[0].len, &quoted), ORDO_OK);
            ordo_key_reader kr;
            ordo_key_reader_init(&kr, s.key[0], s.kn[0]);
            assert_status(ordo_text_print(&kr, &ordo_table_reader_key(r)->cols[0], ORDO_TEXT_CSV,
                                          &printed, NULL),
                          ORDO_OK);
            if (quoted.len != printed.len ||
                (quoted.len && memcmp(quoted.data, printed.data, quoted.len)))
                fail_msg("%s: '%.*s' quoted, '%.*s' printed", pgv_types[t], (int)quoted.len,
                         quoted.data ? quoted.data : "", (int)printed.len, printed.data);
            stored_free(&s);
        }
        ordo_buf_free(&quoted), ordo_buf_free(&printed);
        ordo_table_reader_close(r);
    }
}

/* ----------------------------------------------------------- bounds */

static size_t bound(ordo_table_reader *r, const char *const *texts, const int *nulls, size_t n,
                    int prefix, ordo_buf *out)
{
    size_t lens[4];
    for (size_t i = 0; i < n; i++)
        lens[i] = strlen(texts[i]);
    ordo_error e;
    assert_status(ordo_table_reader_bound(r, texts, lens, nulls, n, prefix, out, &e), ORDO_OK);
    return out->len;
}

static int starts_with(const stored *s, size_t i, const ordo_buf *b)
{
    return s->kn[i] >= b->len && !memcmp(s->key[i], b->data, b->len);
}

/* A bound of all key columns is the stored key; a prefix of the first is
 * the stored keys' start; no values is the tag byte alone. */
static void bounds_are_keys(void **state)
{
    (void)state;
    static const char *const formats[] = {"ordered", "packed", "lexkey", "lexkey-legacy"};
    for (size_t f = 0; f < 4; f++) {
        stored s;
        store(formats[f], "k bigint, j integer, v text", "k, j", 9, "7,-2,x\n", &s);
        ordo_table_reader *r = open_reader(formats[f], "k bigint, j integer, v text", "k, j", 9);
        ordo_buf b = {0};
        const char *both[] = {"7", "-2"}, *first[] = {"7"}, *other[] = {"8"};
        assert_int_equal(bound(r, both, NULL, 2, 0, &b), s.kn[0]);
        assert_memory_equal(b.data, s.key[0], s.kn[0]);
        bound(r, first, NULL, 1, 1, &b);
        assert_true(b.len < s.kn[0] && starts_with(&s, 0, &b));
        bound(r, other, NULL, 1, 1, &b);
        assert_false(starts_with(&s, 0, &b));
        assert_int_equal(bound(r, NULL, NULL, 0, 1, &b), 1);
        assert_int_equal((uint8_t)b.data[0], 9);
        ordo_buf_free(&b);
        ordo_table_reader_close(r);
        stored_free(&s);
    }
}

static void bound_errors(void **state)
{
    (void)state;
    ordo_table_reader *r = open_reader("ordered", "score integer, id text", "score, id", -1);
    ordo_buf b = {0};
    ordo_error e;
    const char *texts[] = {"abc", "x", "y"};
    size_t lens[] = {3, 1, 1};
    assert_status(ordo_table_reader_bound(r, texts, lens, NULL, 1, 1, &b, &e),
                  ORDO_ERR_INVALID_VALUE);
    assert_non_null(strstr(e.message, "column 'score' (integer): "));
    assert_non_null(strstr(e.message, ": 'abc'"));
    assert_status(ordo_table_reader_bound(r, texts, lens, NULL, 3, 0, &b, &e),
                  ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "3 values, the key has 2 columns");
    assert_status(ordo_table_reader_bound(r, NULL, lens, NULL, 1, 0, &b, &e), ORDO_ERR_NULL_ARG);
    ordo_table_reader_close(r);
    /* packed keys hold no NULL */
    r = open_reader("packed", "id ubigint", NULL, 1);
    int null = 1;
    assert_status(ordo_table_reader_bound(r, texts, lens, &null, 1, 0, &b, &e),
                  ORDO_ERR_NULL_VALUE);
    ordo_table_reader_close(r);
    ordo_buf_free(&b);
}

/* LexKey writes NULL as 00 and "" as nothing before a part's 00: the
 * prefix "" also starts the keys of NULL rows (and the reverse), and the
 * row check tells them apart. */
static void lexkey_null_empty_prefix(void **state)
{
    (void)state;
    static const char *const formats[] = {"lexkey", "lexkey-legacy"};
    for (size_t f = 0; f < 2; f++) {
        stored s;
        store(formats[f], "s text, n bigint", "s, n", -1, "\"\",1\n,2\nq,3\n", &s);
        ordo_table_reader *r = open_reader(formats[f], "s text, n bigint", "s, n", -1);
        ordo_buf b = {0};
        ordo_table_field fl[2];
        ordo_error e;
        const char *empty[] = {""};
        for (int null = 0; null < 2; null++) {
            bound(r, empty, &null, 1, 1, &b);
            assert_int_equal((uint8_t)b.data[b.len - 1], 0); /* the separator */
            size_t in = 0;
            for (size_t i = 0; i < s.n; i++) {
                int matches = -1;
                assert_status(ordo_table_reader_row(r, s.key[i], s.kn[i], s.value[i], s.vn[i],
                                                    fl, &matches, &e),
                              ORDO_OK);
                if (!starts_with(&s, i, &b))
                    continue;
                if (matches) {
                    in++;
                    assert_int_equal(fl[0].is_null, null);
                    assert_int_equal(fl[1].len, 1);
                    assert_int_equal(fl[1].text[0], null ? '2' : '1');
                }
            }
            assert_int_equal(in, 1);
        }
        /* a prefix of no values (or a bound that is no prefix) checks none */
        bound(r, NULL, NULL, 0, 1, &b);
        for (size_t i = 0; i < s.n; i++) {
            int matches = -1;
            assert_status(ordo_table_reader_row(r, s.key[i], s.kn[i], s.value[i], s.vn[i], fl,
                                                &matches, &e),
                          ORDO_OK);
            assert_int_equal(matches, 1);
        }
        ordo_buf_free(&b);
        ordo_table_reader_close(r);
        stored_free(&s);
    }
}

/* -------------------------------------------------------- malformed */

static void open_errors(void **state)
{
    (void)state;
    ordo_table_reader *r = NULL;
    ordo_error e;
    assert_status(ordo_table_reader_open("columnar", "a integer", NULL, -1, &r, &e),
                  ORDO_ERR_MALFORMED_KEY);
    assert_null(r);
    assert_string_equal(e.message, "the table's stored format 'columnar' is unknown (ordered, "
                                   "packed, lexkey, lexkey-legacy)");
    assert_status(ordo_table_reader_open("ordered", "a nonsense", NULL, -1, &r, &e),
                  ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "the table's stored schema is unreadable: "));
    assert_status(ordo_table_reader_open("ordered", "a integer", "b", -1, &r, &e),
                  ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "the table's stored key is unreadable: "));
    assert_status(ordo_table_reader_open("ordered", "a integer", NULL, 255, &r, &e),
                  ORDO_ERR_INVALID_ARG);
    assert_status(ordo_table_reader_open(NULL, "a integer", NULL, 1, &r, &e), ORDO_ERR_NULL_ARG);
}

/* Every strict prefix of a stored key or value, in a buffer of its size,
 * is a status (the row needs all of it); so is a key of no bytes, tagged. */
static void truncated_rows(void **state)
{
    (void)state;
    static const char *const formats[] = {"ordered", "packed", "lexkey"};
    static const char *const keys[] = {"k, t", "k", "k, t"}; /* packed: fixed widths */
    for (size_t f = 0; f < 3; f++) {
        stored s;
        store(formats[f], "k bigint, t text, v text, w bytea", keys[f], 4,
              "12345,key text,\"value, text\",\\x00ff\n", &s);
        ordo_table_reader *r = open_reader(formats[f], "k bigint, t text, v text, w bytea",
                                           keys[f], 4);
        ordo_table_field fl[4];
        ordo_error e;
        int matches;
        char whole[256];
        row_text(r, &s, 0, whole, sizeof whole);
        assert_string_equal(whole, "12345|key text|value, text|\\x00ff");
        for (size_t n = 0; n < s.vn[0]; n++) {
            uint8_t *v = dup_bytes(NULL, 0, s.value[0], n);
            assert_status(ordo_table_reader_row(r, s.key[0], s.kn[0], n ? v : NULL, n, fl,
                                                &matches, &e),
                          ORDO_ERR_MALFORMED_KEY);
            assert_non_null(strstr(e.message, "a value does not match the table's schema"));
            free(v);
        }
        for (size_t n = 0; n < s.kn[0] && strcmp(formats[f], "lexkey"); n++) {
            uint8_t *k = dup_bytes(NULL, 0, s.key[0], n);
            ordo_status st = ordo_table_reader_row(r, n ? k : NULL, n, s.value[0], s.vn[0], fl,
                                                   &matches, &e);
            if (st == ORDO_OK)
                fail_msg("%s: a key of %zu of its %zu bytes read", formats[f], n, s.kn[0]);
            assert_non_null(strstr(e.message, "a key does not match the table's key"));
            free(k);
        }
        ordo_table_reader_close(r);
        stored_free(&s);
    }
}

/* Random bytes as keys and values: a status or texts within the input,
 * never a read past it. */
static void random_rows(void **state)
{
    (void)state;
    uint64_t seed = 0x5eed5eedULL;
    static const char *const formats[] = {"ordered", "packed", "lexkey"};
    for (size_t f = 0; f < 3; f++) {
        ordo_table_reader *r = open_reader(formats[f], "a bigint, b text, c integer", "a, c", -1);
        ordo_table_field fl[3];
        ordo_error e;
        for (int i = 0; i < 3000; i++) {
            size_t kn = (size_t)(t_rand(&seed) % 24), vn = (size_t)(t_rand(&seed) % 24);
            uint8_t *k = malloc(kn + 1), *v = malloc(vn + 1);
            assert_true(k && v);
            for (size_t j = 0; j < kn; j++)
                k[j] = (uint8_t)(t_rand(&seed) % 4 ? t_rand(&seed) : 0);
            for (size_t j = 0; j < vn; j++)
                v[j] = (uint8_t)(t_rand(&seed) % 3 ? t_rand(&seed) % 8 : t_rand(&seed));
            int matches;
            if (ordo_table_reader_row(r, k, kn, v, vn, fl, &matches, &e) == ORDO_OK)
                for (size_t c = 0; c < 3; c++)
                    assert_true(fl[c].is_null || fl[c].len < 256);
            free(k), free(v);
        }
        ordo_table_reader_close(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_every_format),
        cmocka_unit_test(key_texts_quote_as_csv),
        cmocka_unit_test(bounds_are_keys),
        cmocka_unit_test(bound_errors),
        cmocka_unit_test(lexkey_null_empty_prefix),
        cmocka_unit_test(open_errors),
        cmocka_unit_test(truncated_rows),
        cmocka_unit_test(random_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
