/* Ranges and arrays in PostgreSQL's text forms (ingest/nested.c): any text
 * is a key or an error, never a crash; an accepted value prints back to
 * text that reads to the same key (in an order chosen by the first byte). */
#include "fuzz_util.h"

#include "ordo_ingest.h"

static const char *const types[] = {"int4range", "numrange", "daterange", "tstzrange",
                                    "integer[]", "text[]",   "numeric[]", "bytea[]",
                                    /* a first byte of 80 or more: arrays of enums, records, ranges */
                                    "enum('a','b c','NULL','')[]", "record(a integer, b text)[]",
                                    "int4range[]", "record(r numrange[], e enum('x'))[]"};

/* The key of one value of the schema's only column, or 0 when refused. */
static size_t key_of(const ordo_schema *s, const char *text, size_t n, uint8_t *key, size_t cap)
{
    ordo_rows *b;
    ordo_error err;
    size_t rows = 0, total = 0, offs[2];
    if (ordo_rows_open(s, 1, &b) != ORDO_OK)
        return 0;
    int ok = ordo_rows_put_text(b, 0, text, n, 1, &err) == ORDO_OK;
    if (ok) {
        ordo_rows_end_row(b);
        const ordo_column *cols = ordo_rows_columns(b, &rows);
        ok = ordo_batch_size(ORDO_FORMAT_ORDERED, cols, 1, rows, &total, NULL, NULL) == ORDO_OK &&
             total <= cap &&
             ordo_batch_encode(ORDO_FORMAT_ORDERED, cols, 1, rows, key, cap, offs, NULL) == ORDO_OK;
    }
    ordo_rows_close(b);
    return ok ? total : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    char schema[128];
    snprintf(schema, sizeof schema, "v %s %s", types[data[0] & 0x80 ? 8 + data[0] % 4 : data[0] % 8],
             (data[0] >> 3) & 1 ? "DESC" : (data[0] >> 4) & 1 ? "NULLS FIRST" : "");
    ordo_schema s;
    ordo_error err;
    CHECK(ordo_schema_parse(schema, ORDO_FORMAT_ORDERED, &s, &err) == ORDO_OK);
    const char *text = (const char *)data + 1;
    size_t n = size - 1;
    static uint8_t k1[65536], k2[65536];
    size_t n1 = key_of(&s, text, n, k1, sizeof k1);
    if (n1) {
        ordo_key_reader r;
        ordo_key_reader_init(&r, k1, n1);
        ordo_buf out = {0};
        bool isnull = true;
        CHECK(ordo_text_print(&r, &s.cols[0], ORDO_TEXT_BARE, &out, &isnull) == ORDO_OK);
        CHECK(!isnull && ordo_key_reader_remaining(&r) == 0);
        size_t n2 = key_of(&s, out.data, out.len, k2, sizeof k2);
        CHECK(n2 == n1 && memcmp(k1, k2, n1) == 0);
        ordo_buf_free(&out);
    }
    ordo_schema_free(&s);
    return 0;
}
