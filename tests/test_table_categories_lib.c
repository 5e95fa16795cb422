/* Categories in the table library's encoder (table/categories.c): a
 * dictionary column keyed by its codes with ORDO_TABLE_CATEGORIES_ORDER
 * (the keys of its indices as a plain column, the schema the indices'
 * type), every batch's dictionary held to the first one's or to the
 * options' batch (compared by value, not by address), the option parsed
 * and checked, the label rule untouched. */
#include "ordo_test.h"

#include <ordo_table.h>

static void release_schema(struct ArrowSchema *s) { s->release = NULL; }
static void release_array(struct ArrowArray *a) { a->release = NULL; }

/* One Arrow array over up to three borrowed buffers. */
typedef struct acol {
    struct ArrowSchema s;
    struct ArrowArray a;
    const void *bufs[3];
} acol;

static void mk(acol *c, const char *fmt, const char *name, int64_t length, int nbufs,
               const void *b0, const void *b1, const void *b2)
{
    memset(c, 0, sizeof *c);
    c->s.format = fmt, c->s.name = name, c->s.release = release_schema;
    c->bufs[0] = b0, c->bufs[1] = b1, c->bufs[2] = b2;
    c->a.length = length, c->a.n_buffers = nbufs, c->a.buffers = c->bufs;
    c->a.null_count = b0 ? -1 : 0;
    c->a.release = release_array;
}

/* A dictionary column of int8 codes over string labels (offsets, bytes). */
typedef struct dcol {
    acol codes, labels;
} dcol;

static void mk_dict(dcol *d, const int8_t *codes, int64_t n, const uint8_t *validity,
                    const int32_t *off, const char *bytes, int64_t entries)
{
    mk(&d->labels, "u", NULL, entries, 3, NULL, off, bytes);
    mk(&d->codes, "c", "c", n, 2, validity, codes, NULL);
    d->codes.s.dictionary = &d->labels.s;
    d->codes.a.dictionary = &d->labels.a;
}

static ordo_table_input input_of(acol *c, int64_t n)
{
    ordo_table_input in;
    memset(&in, 0, sizeof in);
    in.kind = ORDO_TABLE_INPUT_ARROW;
    in.name = c->s.name;
    in.schema = &c->s, in.array = &c->a;
    in.length = (size_t)n;
    return in;
}

static ordo_table_encode_options order_options(int values)
{
    ordo_table_encode_options o;
    memset(&o, 0, sizeof o);
    o.key = "c";
    o.values = values;
    o.import.categories = ORDO_TABLE_CATEGORIES_ORDER;
    return o;
}

/* The keys of one batch of a single column (an encoder of its own). */
static void keys_of(acol *c, int64_t n, ordo_table_categories cats, ordo_table_keys *out,
                    char *schema, size_t cap)
{
    ordo_table_encode_options o = order_options(0);
    o.import.categories = cats;
    ordo_table_input in = input_of(c, n);
    ordo_table_encoder *E;
    ordo_error e;
    assert_int_equal(ordo_table_encoder_open(&o, &in, 1, &E, &e), ORDO_OK);
    snprintf(schema, cap, "%s", ordo_table_encoder_schema(E));
    assert_int_equal(ordo_table_encoder_add(E, &in, 1, (size_t)n, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_finish(E, &e), ORDO_OK);
    *out = *ordo_table_encoder_keys(E);
    memset(ordo_table_encoder_keys(E), 0, sizeof *out);
    ordo_table_encoder_close(E);
}

static int same_keys(const ordo_table_keys *a, const ordo_table_keys *b)
{
    return a->n == b->n && a->len == b->len && !memcmp(a->off, b->off, (a->n + 1) * 8) &&
           (!a->len || !memcmp(a->data, b->data, a->len));
}

static void test_codes_are_the_key(void **state)
{
    (void)state;
    /* labels in category order "small" < "medium" < "large": by label the
     * other way round; a NULL row stays NULL */
    int32_t off[] = {0, 5, 11, 16};
    int8_t codes[] = {2, 0, 1, 0, 2};
    uint8_t validity = 0x1b; /* row 2 NULL */
    dcol d;
    mk_dict(&d, codes, 5, &validity, off, "smallmediumlarge", 3);
    acol plain;
    mk(&plain, "c", "c", 5, 2, &validity, codes, NULL);
    ordo_table_keys by_code, want, by_label;
    char s1[64], s2[64], s3[64];
    keys_of(&d.codes, 5, ORDO_TABLE_CATEGORIES_ORDER, &by_code, s1, sizeof s1);
    keys_of(&plain, 5, ORDO_TABLE_CATEGORIES_LABEL, &want, s2, sizeof s2);
    keys_of(&d.codes, 5, ORDO_TABLE_CATEGORIES_LABEL, &by_label, s3, sizeof s3);
    assert_true(same_keys(&by_code, &want)); /* the codes' keys, byte for byte */
    assert_string_equal(s1, s2);             /* and the codes' type */
    assert_string_equal(s3, "c text");       /* by label: the labels' */
    assert_false(same_keys(&by_label, &want));
    /* by code row 1 ("small", 0) sorts first; by label row 0 ("large") */
    const uint8_t *k = by_code.data;
    int64_t *o = by_code.off;
    assert_true(memcmp(k + o[1], k + o[0], 2) < 0 && memcmp(k + o[1], k + o[4], 2) < 0);
    k = by_label.data, o = by_label.off;
    assert_true(memcmp(k + o[0], k + o[1], 2) < 0);
    ordo_table_keys_free(&by_code);
    ordo_table_keys_free(&want);
    ordo_table_keys_free(&by_label);
    /* a code past the dictionary is the array's fault, as by label */
    codes[3] = 3;
    ordo_table_encode_options opt = order_options(0);
    ordo_table_input in = input_of(&d.codes, 5);
    ordo_table_encoder *E;
    ordo_error e;
    assert_int_equal(ordo_table_encoder_open(&opt, &in, 1, &E, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_add(E, &in, 1, 5, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message,
                        "column 'c', row 3: a dictionary index past the dictionary's 3 entries");
    ordo_table_encoder_close(E);
}

static void test_every_batch_keeps_the_first_dictionary(void **state)
{
    (void)state;
    int32_t off[] = {0, 1, 2};
    int8_t codes[] = {1, 0, 1};
    char first[] = "xy", again[] = "xy", other[] = "yx";
    dcol a, b, c;
    mk_dict(&a, codes, 3, NULL, off, first, 2);
    mk_dict(&b, codes, 3, NULL, off, again, 2); /* the same entries elsewhere */
    mk_dict(&c, codes, 3, NULL, off, other, 2);
    for (int values = 0; values < 2; values++) {
        ordo_table_encode_options o = order_options(values);
        ordo_table_input in = input_of(&a.codes, 3);
        ordo_table_encoder *E;
        ordo_error e;
        assert_int_equal(ordo_table_encoder_open(&o, &in, 1, &E, &e), ORDO_OK);
        assert_int_equal(ordo_table_encoder_add(E, &in, 1, 3, &e), ORDO_OK);
        in = input_of(&b.codes, 3);
        assert_int_equal(ordo_table_encoder_add(E, &in, 1, 3, &e), ORDO_OK);
        in = input_of(&c.codes, 3);
        assert_int_equal(ordo_table_encoder_add(E, &in, 1, 3, &e), ORDO_ERR_INVALID_VALUE);
        assert_non_null(strstr(e.message, "column 'c': the batch changes its dictionary"));
        assert_int_equal(ordo_table_encoder_fault(E), ORDO_TABLE_FAULT_VALUE);
        assert_int_equal(e.column, 1);
        assert_int_equal(e.line, 0);
        /* a batch of no rows has no codes to hold (an empty row group's empty
         * dictionary is no change); the first dictionary stays */
        assert_int_equal(ordo_table_encoder_add(E, &in, 1, 0, &e), ORDO_OK);
        in = input_of(&b.codes, 3);
        assert_int_equal(ordo_table_encoder_add(E, &in, 1, 3, &e), ORDO_OK);
        assert_int_equal(ordo_table_encoder_finish(E, &e), ORDO_OK);
        assert_int_equal(ordo_table_encoder_keys(E)->n, 9); /* the refused batch added none */
        if (values) { /* the value of a key column: none in the ordered format */
            assert_int_equal(ordo_table_encoder_values(E)->n, 9);
        }
        ordo_table_encoder_close(E);
    }
    /* a NULL entry and an empty one differ */
    int32_t off2[] = {0, 0, 1};
    uint8_t entry_valid = 0x02; /* entry 0 NULL */
    dcol n1, n2;
    mk_dict(&n1, codes, 3, NULL, off2, "y", 2);
    mk_dict(&n2, codes, 3, NULL, off2, "y", 2);
    n1.labels.bufs[0] = &entry_valid, n1.labels.a.null_count = 1;
    ordo_table_encode_options o = order_options(0);
    ordo_table_input in = input_of(&n1.codes, 3);
    ordo_table_encoder *E;
    ordo_error e;
    assert_int_equal(ordo_table_encoder_open(&o, &in, 1, &E, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_add(E, &in, 1, 3, &e), ORDO_OK);
    in = input_of(&n2.codes, 3);
    assert_int_equal(ordo_table_encoder_add(E, &in, 1, 3, &e), ORDO_ERR_INVALID_VALUE);
    ordo_table_encoder_close(E);
}

/* Dictionaries of a fixed-width type compare as their bytes: a change below
 * the keys' unit is one, a value the keys cannot hold is none. */
static void test_fixed_width_entries_as_bytes(void **state)
{
    (void)state;
    int64_t ns1[] = {1001, 1002}, ns2[] = {1002, 1001}, far[] = {-(INT64_C(1) << 62), 0};
    int8_t codes[] = {0, 1};
    acol labels[3], c[3];
    const int64_t *vals[3] = {ns1, ns2, far};
    const char *formats[3] = {"tsn:", "tsn:", "tss:"};
    for (int i = 0; i < 3; i++) {
        mk(&labels[i], formats[i], NULL, 2, 2, NULL, vals[i], NULL);
        mk(&c[i], "c", "c", 2, 2, NULL, codes, NULL);
        c[i].s.dictionary = &labels[i].s, c[i].a.dictionary = &labels[i].a;
    }
    ordo_table_encode_options o = order_options(1);
    ordo_table_input in = input_of(&c[0], 2);
    ordo_table_encoder *E;
    ordo_error e;
    assert_int_equal(ordo_table_encoder_open(&o, &in, 1, &E, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_add(E, &in, 1, 2, &e), ORDO_OK);
    in = input_of(&c[1], 2); /* the same microseconds, other nanoseconds */
    assert_int_equal(ordo_table_encoder_add(E, &in, 1, 2, &e), ORDO_ERR_INVALID_VALUE);
    assert_non_null(strstr(e.message, "changes its dictionary"));
    ordo_table_encoder_close(E);
    /* the same bytes in another type mean other values: seconds are no nanoseconds */
    in = input_of(&c[0], 2);
    assert_int_equal(ordo_table_encoder_open(&o, &in, 1, &E, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_add(E, &in, 1, 2, &e), ORDO_OK);
    labels[1].s.format = "tss:", labels[1].bufs[1] = ns1;
    in = input_of(&c[1], 2);
    assert_int_equal(ordo_table_encoder_add(E, &in, 1, 2, &e), ORDO_ERR_INVALID_VALUE);
    ordo_table_encoder_close(E);
    in = input_of(&c[2], 2); /* -2^62 s: past PostgreSQL's range, but only its code is keyed */
    assert_int_equal(ordo_table_encoder_open(&o, &in, 1, &E, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_add(E, &in, 1, 2, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_add(E, &in, 1, 2, &e), ORDO_OK);
    ordo_table_encoder_close(E);
}

/* A record batch of one dictionary child named "c" (the options'). */
typedef struct rbatch {
    struct ArrowSchema s, *sc[1];
    struct ArrowArray a, *ac[1];
} rbatch;

static void mk_batch(rbatch *r, dcol *d)
{
    memset(r, 0, sizeof *r);
    r->s.format = "+s", r->s.release = release_schema;
    r->s.n_children = 1, r->s.children = r->sc, r->sc[0] = &d->codes.s;
    r->a.length = d->codes.a.length, r->a.n_buffers = 1;
    static const void *none[1];
    r->a.buffers = none;
    r->a.n_children = 1, r->a.children = r->ac, r->ac[0] = &d->codes.a;
    r->a.release = release_array;
}

static void test_the_options_dictionaries(void **state)
{
    (void)state;
    int32_t off[] = {0, 1, 2};
    int8_t codes[] = {1, 0};
    dcol want, got;
    mk_dict(&want, codes, 2, NULL, off, "xy", 2);
    mk_dict(&got, codes, 2, NULL, off, "yx", 2);
    rbatch r;
    mk_batch(&r, &want);
    ordo_table_encode_options o = order_options(1);
    o.import.dictionaries_schema = &r.s, o.import.dictionaries = &r.a;
    ordo_table_input in = input_of(&got.codes, 2);
    ordo_table_encoder *E;
    ordo_error e;
    /* the first batch is held to the options', not taken as the first */
    assert_int_equal(ordo_table_encoder_open(&o, &in, 1, &E, &e), ORDO_OK);
    assert_int_equal(ordo_table_encoder_add(E, &in, 1, 2, &e), ORDO_ERR_INVALID_VALUE);
    assert_non_null(strstr(e.message, "changes its dictionary"));
    in = input_of(&want.codes, 2);
    assert_int_equal(ordo_table_encoder_add(E, &in, 1, 2, &e), ORDO_OK);
    ordo_table_encoder_close(E);
    /* refused: without categories order, as no record batch, released */
    ordo_table_load_options lo;
    memset(&lo, 0, sizeof lo);
    lo.schema = "c smallint", lo.key = "c";
    lo.import = o.import;
    assert_int_equal(ordo_table_load_check(&lo, &e), ORDO_OK);
    lo.import.categories = ORDO_TABLE_CATEGORIES_LABEL;
    assert_int_equal(ordo_table_load_check(&lo, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.option, "dictionaries");
    o.import.categories = ORDO_TABLE_CATEGORIES_LABEL;
    assert_int_equal(ordo_table_encoder_open(&o, &in, 1, &E, &e), ORDO_ERR_INVALID_ARG);
    assert_int_equal(ordo_table_encoder_fault(E), ORDO_TABLE_FAULT_OPTION);
    ordo_table_encoder_close(E);
    o.import.categories = ORDO_TABLE_CATEGORIES_ORDER;
    o.import.dictionaries_schema = &want.codes.s, o.import.dictionaries = &want.codes.a;
    assert_int_equal(ordo_table_encoder_open(&o, &in, 1, &E, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "dictionaries: expected a record batch");
    ordo_table_encoder_close(E);
    o.import.dictionaries_schema = &r.s, o.import.dictionaries = &r.a;
    r.a.release = NULL;
    assert_int_equal(ordo_table_encoder_open(&o, &in, 1, &E, &e), ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(e.message, "dictionaries: expected a record batch: "));
    ordo_table_encoder_close(E);
    o.import.dictionaries = NULL; /* one without the other */
    assert_int_equal(ordo_table_encoder_open(&o, &in, 1, &E, &e), ORDO_ERR_INVALID_ARG);
    ordo_table_encoder_close(E);
    o.import.categories = (ordo_table_categories)7;
    o.import.dictionaries_schema = NULL;
    assert_int_equal(ordo_table_encoder_open(&o, &in, 1, &E, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.option, "categories");
    ordo_table_encoder_close(E);
}

static void test_parse(void **state)
{
    (void)state;
    ordo_table_categories c = (ordo_table_categories)9;
    ordo_error e;
    assert_int_equal(ordo_table_categories_parse(NULL, &c, &e), ORDO_OK);
    assert_int_equal(c, ORDO_TABLE_CATEGORIES_LABEL);
    assert_int_equal(ordo_table_categories_parse("order", &c, &e), ORDO_OK);
    assert_int_equal(c, ORDO_TABLE_CATEGORIES_ORDER);
    assert_int_equal(ordo_table_categories_parse("label", &c, &e), ORDO_OK);
    assert_int_equal(c, ORDO_TABLE_CATEGORIES_LABEL);
    assert_int_equal(ordo_table_categories_parse("codes", &c, &e), ORDO_ERR_INVALID_ARG);
    assert_string_equal(e.message, "categories: expected 'label' or 'order', got 'codes'");
    assert_string_equal(e.option, "categories");
    assert_int_equal(ordo_table_categories_parse("order", NULL, &e), ORDO_ERR_NULL_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_codes_are_the_key),
        cmocka_unit_test(test_every_batch_keeps_the_first_dictionary),
        cmocka_unit_test(test_fixed_width_entries_as_bytes),
        cmocka_unit_test(test_the_options_dictionaries),
        cmocka_unit_test(test_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
