/* LexKey keys printed by a schema (ordo_lexkey_text_print, what `ordo
 * decode --format lexkey` runs) on arbitrary keys: it never reads past the
 * key, and a row it prints whole loads again (the CSV encoder) to the same
 * key. Input: one byte (bit 0: legacy width; bit 1: no NULLs; the rest:
 * 1 + n % 6 columns), one byte per column (its SQL type), then the key. */
#include "fuzz_util.h"
#include "ordo_ingest.h"

static const char *const sql[] = {
    "text",     "bytea",    "uuid",     "boolean",          "tinyint",     "smallint",
    "integer",  "bigint",   "utinyint", "usmallint",        "uinteger",    "ubigint",
    "real",     "double precision",     "timestamptz",      "timestamp",   "date",
};
#define NS (sizeof sql / sizeof sql[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    ordo_format fmt = (data[0] & 1) ? ORDO_FORMAT_LEXKEY_LEGACY : ORDO_FORMAT_LEXKEY;
    unsigned flags = (data[0] & 2) ? ORDO_LEXKEY_TEXT_NO_NULLS : 0;
    size_t nc = 1 + (size_t)(data[0] >> 2) % 6;
    if (size < 1 + nc)
        return 0;
    char text[512];
    size_t at = 0;
    for (size_t c = 0; c < nc; c++)
        at += (size_t)snprintf(text + at, sizeof text - at, "%sc%zu %s", c ? ", " : "", c,
                               sql[data[1 + c] % NS]);
    ordo_schema s;
    CHECK(ordo_schema_parse(text, fmt, &s, NULL) == ORDO_OK);
    size_t klen = size - 1 - nc;
    uint8_t *k = malloc(klen ? klen : 1); /* exactly klen bytes, for ASan */
    memcpy(k, data + 1 + nc, klen);
    ordo_lexkey_reader r;
    ordo_lexkey_reader_init(&r, k, klen, fmt == ORDO_FORMAT_LEXKEY_LEGACY ? ORDO_LEXKEY_LEGACY : 0,
                            nc);
    ordo_buf field = {0};
    char *row = malloc(1);
    size_t rlen = 0;
    ordo_status st = ORDO_OK;
    for (size_t c = 0; c < nc && st == ORDO_OK; c++) {
        size_t before = ordo_lexkey_reader_remaining(&r);
        field.len = 0;
        st = ordo_lexkey_text_print(&r, &s, c, ORDO_TEXT_CSV, flags, &field, NULL);
        CHECK(ordo_lexkey_reader_remaining(&r) <= before);
        if (st == ORDO_OK) { /* the fields as printed, already CSV, then a line end */
            row = realloc(row, rlen + field.len + 2);
            if (c)
                row[rlen++] = ',';
            memcpy(row + rlen, field.data, field.len);
            rlen += field.len;
        }
    }
    row[rlen++] = '\n';
    if (st == ORDO_OK) {
        CHECK(ordo_lexkey_reader_remaining(&r) == 0);
        /* the row loads again to the same key */
        ordo_encoder *e = NULL;
        ordo_encoder_options o = {0};
        const ordo_encoder_batch *b = NULL;
        CHECK(ordo_encoder_open(&s, NULL, fmt, &o, &e, NULL) == ORDO_OK);
        CHECK(ordo_encoder_input_mem(e, row, rlen, NULL) == ORDO_OK);
        ordo_error err;
        ordo_status es = ordo_encoder_next(e, &b, &err);
        if (es != ORDO_OK)
            fprintf(stderr, "row '%.*s': %s\n", (int)rlen, row, err.message);
        CHECK(es == ORDO_OK && b && b->rows == 1);
        CHECK(b->key_offsets[1] - b->key_offsets[0] == klen);
        CHECK(klen == 0 || memcmp(b->keys + b->key_offsets[0], k, klen) == 0);
        ordo_encoder_close(e);
    } else {
        CHECK(st == ORDO_ERR_MALFORMED_KEY || st == ORDO_ERR_AMBIGUOUS_KEY);
        CHECK(!(flags && st == ORDO_ERR_AMBIGUOUS_KEY));
    }
    free(row);
    ordo_buf_free(&field);
    ordo_schema_free(&s);
    free(k);
    return 0;
}
