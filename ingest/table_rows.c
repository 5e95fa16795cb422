/* ordo_table_reader: the rows of a table `ordo load` stored (SPEC.md
 * §15) back as text, and the bound keys of its leading key columns; what
 * `ordo scan` and ordo.scan both read with. */
#include "buf.h"
#include "columns.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ordo_table_reader {
    int tag;
    ordo_format fmt;
    ordo_schema table, key;
    int *is_key;
    int value_all; /* LexKey: keys do not decode, values hold every column */
    int *lead_null; /* the last prefix's NULL pattern (see row_matches) */
    size_t nlead;
    ordo_buf km;    /* the decoded key columns, one after the other */
    size_t *kat;    /* where each starts in km, and the end */
};

static ordo_status fail(ordo_error *err, ordo_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static ordo_status fail(ordo_error *err, ordo_status s, const char *fmt, ...)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = s;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return s;
}

ordo_status ordo_table_reader_open(const char *format, const char *schema, const char *key,
                                   int tag, ordo_table_reader **out, ordo_error *err)
{
    if (!format || !schema || !out)
        return fail(err, ORDO_ERR_NULL_ARG, "%s", ordo_status_message(ORDO_ERR_NULL_ARG));
    *out = NULL;
    if (tag < -1 || tag > 254)
        return fail(err, ORDO_ERR_INVALID_ARG, "tag %d: expected 0 to 254, or untagged", tag);
    ordo_table_reader *r = calloc(1, sizeof *r);
    if (!r)
        return fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    r->tag = tag;
    r->fmt = ordo_format_from_name(format);
    r->value_all = !ordo_format_decodes(r->fmt);
    ordo_error e;
    ordo_status s;
    if (!r->fmt) {
        s = fail(err, ORDO_ERR_MALFORMED_KEY,
                 "the table's stored format '%s' is unknown (ordered, packed, lexkey, "
                 "lexkey-legacy)", format);
    } else if ((s = ordo_schema_parse(schema, ORDO_FORMAT_ORDERED, &r->table, &e)) != ORDO_OK) {
        fail(err, s, "the table's stored schema is unreadable: %s", e.message);
    } else if ((s = ordo_schema_key(&r->table, key, r->fmt, &r->key, &e)) != ORDO_OK) {
        fail(err, s, "the table's stored key is unreadable: %s", e.message);
    } else {
        r->is_key = calloc(r->table.ncols + 1, sizeof *r->is_key);
        r->lead_null = calloc(r->key.ncols + 1, sizeof *r->lead_null);
        r->kat = calloc(r->key.ncols + 1, sizeof *r->kat);
        if (!r->is_key || !r->lead_null || !r->kat)
            s = fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (s != ORDO_OK) {
        ordo_table_reader_close(r);
        return s;
    }
    for (size_t i = 0; i < r->key.ncols; i++)
        r->is_key[r->key.cols[i].source] = 1;
    *out = r;
    return ORDO_OK;
}

void ordo_table_reader_close(ordo_table_reader *r)
{
    if (!r)
        return;
    ordo_schema_free(&r->table);
    ordo_schema_free(&r->key);
    free(r->is_key);
    free(r->lead_null);
    free(r->kat);
    ordo_buf_free(&r->km);
    free(r);
}

const ordo_schema *ordo_table_reader_table(const ordo_table_reader *r)
{
    return r ? &r->table : NULL;
}

const ordo_schema *ordo_table_reader_key(const ordo_table_reader *r)
{
    return r ? &r->key : NULL;
}

ordo_format ordo_table_reader_format(const ordo_table_reader *r) { return r ? r->fmt : 0; }

/* Whether row 0 of c is NULL. */
static int null_at0(const ordo_column *c)
{
    return c->validity && !(c->validity[c->offset >> 3] >> (c->offset & 7) & 1);
}

/* After the tag byte out holds: the key bytes of the leading columns
 * (cols: row 0 of each), then for a LexKey prefix the separator and the
 * NULLs the rows must match. A failure empties out. */
static ordo_status from_cols(ordo_table_reader *r, const ordo_column *cols, size_t n, int prefix,
                             ordo_buf *out, ordo_error *err)
{
    size_t total = 0, offs[2];
    ordo_status s = n ? ordo_batch_size(r->fmt, cols, n, 1, &total, NULL, NULL) : ORDO_OK;
    if (s == ORDO_OK && !ordo__buf_reserve(out, total + 2))
        s = ORDO_ERR_OUT_OF_MEMORY;
    if (s == ORDO_OK && n)
        s = ordo_batch_encode(r->fmt, cols, n, 1, (uint8_t *)out->data + out->len, total, offs,
                              NULL);
    if (s != ORDO_OK) {
        out->len = 0;
        out->data[0] = 0;
        return fail(err, s, "%s", ordo_status_message(s));
    }
    out->len += total;
    if (prefix && r->value_all) {
        /* the separator the next part follows: a prefix of longer keys */
        if (n && n < r->key.ncols)
            out->data[out->len++] = 0;
        for (size_t c = 0; c < n; c++)
            r->lead_null[c] = null_at0(&cols[c]);
        r->nlead = n;
    }
    out->data[out->len] = 0;
    return ORDO_OK;
}

/* out emptied, then the tag byte; checks n. */
static ordo_status bound_start(ordo_table_reader *r, size_t n, ordo_buf *out, ordo_error *err)
{
    if (n > r->key.ncols)
        return fail(err, ORDO_ERR_INVALID_ARG, "%zu values, the key has %zu columns", n,
                    r->key.ncols);
    out->len = 0;
    if (!ordo__buf_reserve(out, 2))
        return fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    if (r->tag >= 0)
        out->data[out->len++] = (char)r->tag;
    return ORDO_OK;
}

ordo_status ordo_table_reader_bound(ordo_table_reader *r, const char *const *texts,
                                    const size_t *lens, const int *nulls, size_t n, int prefix,
                                    ordo_buf *out, ordo_error *err)
{
    if (!r || !out || (n && (!texts || !lens)))
        return fail(err, ORDO_ERR_NULL_ARG, "%s", ordo_status_message(ORDO_ERR_NULL_ARG));
    ordo_status s = bound_start(r, n, out, err);
    if (s != ORDO_OK || !n)
        return s == ORDO_OK ? from_cols(r, NULL, 0, prefix, out, err) : s;
    /* the texts parsed into a row of the leading columns, then as columns */
    ordo_schema lead = {r->key.cols, n};
    ordo_rows *b = NULL;
    if (ordo_rows_open(&lead, 1, &b) != ORDO_OK)
        s = fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t c = 0; c < n && s == ORDO_OK; c++) {
        const char *t = nulls && nulls[c] ? "" : texts[c];
        size_t tn = nulls && nulls[c] ? 0 : lens[c];
        ordo_error e;
        /* quoted unless NULL: "" is the empty string, as in a CSV field */
        s = ordo_rows_put_text(b, c, t, tn, !(nulls && nulls[c]), &e);
        if (s == ORDO_ERR_OUT_OF_MEMORY)
            fail(err, s, "out of memory");
        else if (s != ORDO_OK)
            fail(err, s, "column '%s' (%s): %s: '%.*s'", lead.cols[c].name, lead.cols[c].sql_name,
                 e.message, (int)tn, t);
    }
    if (s == ORDO_OK) {
        ordo_rows_end_row(b);
        s = from_cols(r, ordo__rows_columns_keyed(b), n, prefix, out, err);
    } else {
        out->len = 0;
        out->data[0] = 0;
    }
    ordo_rows_close(b);
    return s;
}

ordo_status ordo_table_reader_bound_columns(ordo_table_reader *r, const ordo_column *cols,
                                            size_t n, int prefix, ordo_buf *out, ordo_error *err)
{
    if (!r || !out || (n && !cols))
        return fail(err, ORDO_ERR_NULL_ARG, "%s", ordo_status_message(ORDO_ERR_NULL_ARG));
    ordo_status s = bound_start(r, n, out, err);
    for (size_t c = 0; c < n && s == ORDO_OK; c++)
        if (cols[c].type != r->key.cols[c].type)
            s = fail(err, ORDO_ERR_INVALID_ARG, "column '%s' (%s): a value of another type",
                     r->key.cols[c].name, r->key.cols[c].sql_name);
    if (s != ORDO_OK) {
        out->len = 0;
        return s;
    }
    return from_cols(r, cols, n, prefix, out, err);
}

/* LexKey writes NULL as byte 00 and "" as nothing before the 00 that ends
 * a part, so a prefix's bytes also match rows holding NULL where it holds
 * "" (and the reverse): the value, which holds every column, tells. */
static int row_matches(const ordo_table_reader *r, const ordo_table_field *f)
{
    for (size_t i = 0; i < r->nlead; i++)
        if (f[r->key.cols[i].source].is_null != r->lead_null[i])
            return 0;
    return 1;
}

/* The key columns of an ordered or packed key as text into r->km. */
static ordo_status decode_key(ordo_table_reader *r, const uint8_t *k, size_t kn,
                              ordo_table_field *f, ordo_error *err)
{
    size_t skip = r->tag >= 0;
    if (kn < skip)
        return fail(err, ORDO_ERR_MALFORMED_KEY, "a key does not match the table's key: %s",
                    ordo_status_message(ORDO_ERR_MALFORMED_KEY));
    ordo_key_reader kr;
    if (r->fmt == ORDO_FORMAT_PACKED)
        ordo_key_reader_init_packed(&kr, k + skip, kn - skip);
    else
        ordo_key_reader_init(&kr, k + skip, kn - skip);
    r->km.len = 0;
    for (size_t i = 0; i < r->key.ncols; i++) {
        bool is_null = 0;
        r->kat[i] = r->km.len;
        ordo_status s = ordo_text_print(&kr, &r->key.cols[i], ORDO_TEXT_BARE, &r->km, &is_null);
        if (s == ORDO_ERR_OUT_OF_MEMORY)
            return fail(err, s, "out of memory");
        if (s != ORDO_OK)
            return fail(err, s, "a key does not match the table's key (column '%s'): %s",
                        r->key.cols[i].name, ordo_status_message(s));
        f[r->key.cols[i].source].is_null = is_null;
    }
    if (ordo_key_reader_remaining(&kr)) /* another format's key, or a longer key */
        return fail(err, ORDO_ERR_MALFORMED_KEY,
                    "a key does not match the table's key (%zu byte%s after its last column, "
                    "'%s')",
                    ordo_key_reader_remaining(&kr), ordo_key_reader_remaining(&kr) == 1 ? "" : "s",
                    r->key.ncols ? r->key.cols[r->key.ncols - 1].name : "");
    r->kat[r->key.ncols] = r->km.len;
    /* pointers only now: km moves as it grows */
    for (size_t i = 0; i < r->key.ncols; i++) {
        ordo_table_field *t = &f[r->key.cols[i].source];
        t->text = r->km.data + r->kat[i];
        t->len = r->kat[i + 1] - r->kat[i];
    }
    return ORDO_OK;
}

ordo_status ordo_table_reader_row(ordo_table_reader *r, const void *key, size_t key_len,
                                  const void *value, size_t value_len, ordo_table_field *fields,
                                  int *matches, ordo_error *err)
{
    if (!r || !fields || !matches || (!key && key_len) || (!value && value_len))
        return fail(err, ORDO_ERR_NULL_ARG, "%s", ordo_status_message(ORDO_ERR_NULL_ARG));
    *matches = 0;
    const uint8_t *v = value ? value : (const uint8_t *)"", *end = v + value_len;
    for (size_t c = 0; c < r->table.ncols; c++) {
        if (r->is_key[c] && !r->value_all)
            continue;
        const uint8_t *t = NULL;
        if (ordo_row_value_next(&v, end, &t, &fields[c].len, &fields[c].is_null) != ORDO_OK)
            return fail(err, ORDO_ERR_MALFORMED_KEY,
                        "a value does not match the table's schema (column '%s')",
                        r->table.cols[c].name);
        fields[c].text = (const char *)t;
    }
    if (v != end) /* a column the schema does not name would be dropped */
        return fail(err, ORDO_ERR_MALFORMED_KEY,
                    "a value does not match the table's schema (%zu byte%s after its last "
                    "column, '%s')",
                    (size_t)(end - v), end - v == 1 ? "" : "s",
                    r->table.ncols ? r->table.cols[r->table.ncols - 1].name : "");
    if (!r->value_all) {
        ordo_status s = decode_key(r, key ? key : "", key_len, fields, err);
        if (s != ORDO_OK)
            return s;
    }
    *matches = row_matches(r, fields);
    return ORDO_OK;
}

ordo_status ordo_table_reader_key_row(ordo_table_reader *r, const void *key, size_t key_len,
                                      ordo_table_field *fields, ordo_error *err)
{
    if (!r || !fields || (!key && key_len))
        return fail(err, ORDO_ERR_NULL_ARG, "%s", ordo_status_message(ORDO_ERR_NULL_ARG));
    if (r->value_all)
        return fail(err, ORDO_ERR_INVALID_ARG,
                    "%s keys do not decode (their parts are not self-delimiting); ordered and "
                    "packed keys do",
                    ordo_format_name(r->fmt));
    for (size_t c = 0; c < r->table.ncols; c++)
        fields[c] = (ordo_table_field){"", 0, 1};
    return decode_key(r, key ? key : "", key_len, fields, err);
}
