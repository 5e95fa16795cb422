/* text[] COLLATE "x" (SPEC.md §17.8): SPEC's vectors, read from SPEC.md,
 * are the row API's array of collated elements, the array assembled here
 * from §14.18's rules and the elements' own fields, and what the ingest
 * library makes of the array's text under the schema; the collation is
 * the element's and is listed among the schema's collations. */
#include "ordo_ingest.h"
#include "ordo_test.h"

/* esc (§14.17): each 00 of x as 00 ff. */
static size_t esc(const uint8_t *x, size_t n, uint8_t *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        out[o++] = x[i];
        if (!x[i])
            out[o++] = 0xff;
    }
    return o;
}

static size_t i32(int32_t v, uint8_t *out)
{
    uint32_t u = (uint32_t)v ^ 0x80000000u;
    out[0] = 0, out[1] = (uint8_t)(u >> 24), out[2] = (uint8_t)(u >> 16);
    out[3] = (uint8_t)(u >> 8), out[4] = (uint8_t)u;
    return 5;
}

/* The array field from the element fields E (§14.18). */
static size_t assemble(const uint8_t *e, size_t en, int count, int o, uint8_t *out)
{
    uint8_t a[1024], *p = a;
    *p++ = 0; /* nest(E) */
    p += esc(e, en, p);
    *p++ = 0, *p++ = 0;
    p += i32(count, p);
    p += i32(count ? 1 : 0, p);
    if (count) {
        p += i32(count, p);
        p += i32(1, p);
    }
    size_t n = 0;
    out[n++] = (o == 0 || o == 2) ? 0x01 : 0x00;
    size_t body = esc(a, (size_t)(p - a), out + n);
    out[n + body] = 0, out[n + body + 1] = 0;
    body += 2;
    for (size_t i = 0; o >= 2 && i < body; i++)
        out[n + i] ^= 0xff;
    return n + body;
}

static const char *const order_names[4] = {"ASC NULLS FIRST", "ASC NULLS LAST", "DESC NULLS FIRST",
                                           "DESC NULLS LAST"};

static void check_vector(const char *coll, int o, const char *value, const uint8_t *want,
                         size_t wn)
{
    ordo_collator *c;
    assert_status(ordo_collator_open(coll, &c), ORDO_OK);
    /* the elements of "{x,y}": NULL unquoted, "" the empty string */
    char elems[8][32];
    int null[8], count = 0;
    const char *p = value + 1;
    while (*p && *p != '}') {
        size_t n = strcspn(p, ",}");
        assert_true(count < 8 && n < sizeof elems[0]);
        if (n == 2 && !strncmp(p, "\"\"", 2))
            n = 0;
        memcpy(elems[count], p, n);
        elems[count][n] = 0;
        null[count] = !strcmp(elems[count], "NULL");
        count++;
        p += strcspn(p, ",}");
        if (*p == ',')
            p++;
    }
    /* the row API */
    uint8_t got[1024], e[1024], built[2048];
    size_t gn, en = 0;
    ordo_key k;
    ordo_key_init(&k, got, sizeof got, 0);
    assert_status(ordo_key_array_begin(&k, (ordo_order)o), ORDO_OK);
    for (int i = 0; i < count; i++) {
        if (null[i])
            ordo_key_null(&k, ORDO_ASC_NULLS_LAST);
        else
            ordo_key_text_collated(&k, ORDO_ASC_NULLS_LAST, c, elems[i], strlen(elems[i]));
    }
    assert_status(ordo_key_array_end(&k), ORDO_OK);
    assert_status(ordo_key_finish(&k, &gn), ORDO_OK);
    if (gn != wn || memcmp(got, want, wn)) {
        char hex[2100];
        t_hex(got, gn, hex);
        fail_msg("SPEC §17.8 %s %s %s: ordo gives %s", coll, order_names[o], value, hex);
    }
    /* assembled: each element's own one-field key, then §14.18 */
    for (int i = 0; i < count; i++) {
        size_t n;
        ordo_key_init(&k, e + en, sizeof e - en, 0);
        if (null[i])
            ordo_key_null(&k, ORDO_ASC_NULLS_LAST);
        else
            ordo_key_text_collated(&k, ORDO_ASC_NULLS_LAST, c, elems[i], strlen(elems[i]));
        assert_status(ordo_key_finish(&k, &n), ORDO_OK);
        en += n;
    }
    size_t bn = assemble(e, en, count, o, built);
    assert_int_equal(bn, wn);
    assert_memory_equal(built, want, wn);
    /* the ingest library, from the array's text under the schema */
    char spec[128];
    snprintf(spec, sizeof spec, "v text[] COLLATE \"%s\" %s", coll, order_names[o]);
    ordo_schema s;
    ordo_error err;
    assert_status(ordo_schema_parse(spec, ORDO_FORMAT_ORDERED, &s, &err), ORDO_OK);
    char *colls = NULL;
    assert_status(ordo_schema_collations(&s, &colls), ORDO_OK);
    char line[128];
    snprintf(line, sizeof line, "%s\t%s\n", coll, ordo_collator_version(c));
    assert_string_equal(colls, line);
    free(colls);
    ordo_rows *rows;
    assert_status(ordo_rows_open(&s, 4, &rows), ORDO_OK);
    assert_status(ordo_rows_put_text(rows, 0, value, strlen(value), 1, &err), ORDO_OK);
    ordo_rows_end_row(rows);
    const ordo_column *cols = ordo_rows_columns(rows, NULL);
    size_t total, offs[2];
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, cols, 1, 1, &total, NULL, NULL), ORDO_OK);
    assert_int_equal(total, wn);
    assert_status(ordo_batch_encode(ORDO_FORMAT_ORDERED, cols, 1, 1, got, sizeof got, offs, NULL),
                  ORDO_OK);
    assert_memory_equal(got, want, wn);
    ordo_rows_close(rows);
    ordo_schema_free(&s);
    ordo_collator_close(c);
}

static void spec_vectors(void **state)
{
    (void)state;
    FILE *f = fopen(ORDO_SPEC_PATH, "r");
    assert_non_null(f);
    char line[1024];
    int in = 0, rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "**17.8 ", 7))
            in = 1;
        else if (in && !strncmp(line, "**17.9 ", 7))
            break;
        if (!in || strncmp(line, "| `", 3))
            continue;
        /* | `coll` | ORDER | `{...}` (U+0301 spelled out) | `hex` | */
        char *cells[5] = {line, line, line, line, line};
        int nc = 0;
        for (char *p = line; (p = strchr(p, '|')) && nc < 5; p++)
            cells[nc++] = p + 1;
        assert_int_equal(nc, 5);
        char coll[64], value[64] = "";
        sscanf(cells[0], " `%63[^`]`", coll);
        int o = -1;
        for (int i = 0; i < 4; i++)
            if (!strncmp(cells[1] + 1, order_names[i], strlen(order_names[i])))
                o = i;
        assert_true(o >= 0);
        /* the value: the backquoted pieces, " U+0301" for the combining acute */
        size_t vn = 0;
        for (const char *p = cells[2]; p < cells[3]; p++) {
            if (*p == '`') {
                const char *q = strchr(p + 1, '`');
                memcpy(value + vn, p + 1, (size_t)(q - p - 1));
                vn += (size_t)(q - p - 1);
                p = q;
            } else if (!strncmp(p, "U+0301", 6)) {
                memcpy(value + vn, "\xcc\x81", 2);
                vn += 2, p += 5;
            }
        }
        value[vn] = 0;
        uint8_t want[1024];
        const char *h = strchr(cells[3], '`') + 1;
        size_t wn = t_unhex_n(h, (size_t)(strchr(h, '`') - h), want, sizeof want);
        if (strchr(coll, '-') && !ordo_collator_have_icu())
            continue; /* ICU rows: test_collate_lib checks ORDO_ERR_NO_ICU */
        check_vector(coll, o, value, want, wn);
        rows++;
    }
    fclose(f);
    assert_true(rows >= (ordo_collator_have_icu() ? 5 : 1));
}

/* An array of another type is refused with the reason; an array's
 * collation needs the ordered format. */
static void refused(void **state)
{
    (void)state;
    ordo_schema s;
    ordo_error err;
    assert_status(ordo_schema_parse("v integer[] COLLATE \"sv_SE.utf8\"", ORDO_FORMAT_ORDERED, &s,
                                    &err),
                  ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "COLLATE applies to text, varchar and char, not integer[]"));
    assert_status(ordo_schema_parse("v text[] COLLATE \"xx_YY.utf8\"", ORDO_FORMAT_ORDERED, &s,
                                    &err),
                  ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "unknown collation"));
    /* char(n)[] too, and "C" is byte order (no collations to record) */
    assert_status(ordo_schema_parse("v char(3)[] COLLATE \"C\"", ORDO_FORMAT_ORDERED, &s, &err),
                  ORDO_OK);
    char *colls;
    assert_status(ordo_schema_collations(&s, &colls), ORDO_OK);
    assert_string_equal(colls, "");
    free(colls);
    ordo_schema_free(&s);
}

/* What PostgreSQL 15 (a UTF8 database) refuses, the schema refuses: two
 * COLLATE clauses on one column, a libc locale whose codeset is not UTF-8,
 * an ICU name without a language ("x-icu": the root is "und-x-icu"). */
static void refused_like_postgres(void **state)
{
    (void)state;
    ordo_schema s, k;
    ordo_error err;
    assert_status(ordo_schema_parse("v text COLLATE \"C\" COLLATE \"en_US.utf8\"",
                                    ORDO_FORMAT_ORDERED, &s, &err),
                  ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "column 'v': multiple COLLATE clauses not allowed"));
    assert_status(ordo_schema_parse("v text[] COLLATE \"en_US.utf8\" COLLATE \"C\" DESC",
                                    ORDO_FORMAT_ORDERED, &s, &err),
                  ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "multiple COLLATE clauses not allowed"));
    /* a key spec keeps its table column's collation: a second one is refused */
    assert_status(ordo_schema_parse("v text COLLATE \"en_US.utf8\", n integer",
                                    ORDO_FORMAT_ORDERED, &s, &err),
                  ORDO_OK);
    assert_status(ordo_schema_key(&s, "v COLLATE \"C\"", ORDO_FORMAT_ORDERED, &k, &err),
                  ORDO_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "multiple COLLATE clauses not allowed"));
    assert_status(ordo_schema_key(&s, "v DESC, n", ORDO_FORMAT_ORDERED, &k, &err), ORDO_OK);
    ordo_schema_free(&k);
    ordo_schema_free(&s);
    /* en_US is ISO-8859-1 (installed by locales-all, as newlocale shows) */
    const char *names[] = {"en_US", "de_DE@euro", "x-icu", "X-icu", "x-private-x-icu"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char spec[64];
        snprintf(spec, sizeof spec, "v text COLLATE \"%s\"", names[i]);
        if (i >= 2 && !ordo_collator_have_icu())
            continue; /* ICU names: ORDO_ERR_NO_ICU, test_collate_lib's to check */
        assert_status(ordo_schema_parse(spec, ORDO_FORMAT_ORDERED, &s, &err), ORDO_ERR_INVALID_ARG);
        if (!strstr(err.message, "unknown collation"))
            fail_msg("%s: %s", names[i], err.message);
    }
    if (ordo_collator_have_icu()) {
        assert_status(ordo_schema_parse("v text COLLATE \"und-x-icu\"", ORDO_FORMAT_ORDERED, &s,
                                        &err),
                      ORDO_OK);
        ordo_schema_free(&s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spec_vectors),
        cmocka_unit_test(refused),
        cmocka_unit_test(refused_like_postgres),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
