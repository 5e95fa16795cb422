/* A scan's rows one at a time: the table of a tag read back
 * (ordo_table_reader), its collation versions checked, the output columns
 * chosen, the bounds made key bytes and the store's iterator over them. */
#include "scan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ordo_status ordo__scan_fail(ordo_error *err, ordo_status s, const char *fmt, ...)
{
    if (err) {
        ordo_error e = {0};
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e.message, sizeof e.message, fmt, ap);
        va_end(ap);
        e.status = s;
        *err = e;
    }
    return s;
}

static ordo_status fail_with(ordo_error *err, ordo_status s, const ordo_error *e)
{
    if (err)
        *err = *e, err->status = s;
    return s;
}

/* The output columns: o->columns by name, else all of them. */
static ordo_status select_columns(ordo__scanner *S, const ordo_table_scan_options *o,
                                  const char *schema, ordo_error *err)
{
    const char *what = o->columns_name ? o->columns_name : "columns";
    size_t n = o->columns ? o->ncolumns : S->table->ncols;
    if (o->columns && n == 0) /* a batch of no columns would not keep its row count */
        return ordo__scan_fail(err, ORDO_ERR_INVALID_ARG,
                               "%s: name one column at least, or none for all", what);
    if (!(S->out = malloc((n + 1) * sizeof *S->out)))
        return ordo__scan_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    S->nout = n;
    for (size_t i = 0; i < n; i++) {
        size_t c = i;
        if (o->columns) {
            const char *name = o->columns[i];
            if (!name)
                return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "%s: name %zu is NULL", what, i);
            for (c = 0; c < S->table->ncols && strcmp(S->table->cols[c].name, name); c++)
                ;
            if (c == S->table->ncols)
                return ordo__scan_fail(err, ORDO_ERR_INVALID_ARG,
                                       "%s: '%s' is not a column of the table (%s)", what, name,
                                       schema);
        }
        S->out[i] = c;
    }
    return ORDO_OK;
}

/* [lo, hi): the table's keys within the prefix, from and to. */
static ordo_status key_bounds(ordo__scanner *S, const ordo_table_scan_options *o, ordo_buf *lo,
                              ordo_buf *hi, ordo_error *err)
{
    ordo_buf f = {0};
    ordo_status s = ordo__scan_bound(S->T, o->tag, &o->prefix, "prefix", 1, lo, err);
    if (s != ORDO_OK)
        return s;
    /* room for the upper bound: one byte more than lo */
    if (ordo_buf_append(hi, lo->data, lo->len) != ORDO_OK || ordo_buf_append(hi, "", 1) != ORDO_OK)
        return ordo__scan_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    size_t hn = 0;
    if (ordo_prefix_upper_bound(lo->data, lo->len, hi->data, lo->len + 1, &hn) != ORDO_OK) {
        hi->data[0] = (char)0xff; /* untagged: below the system keys */
        hn = 1;
    }
    hi->len = hn;
    if (o->from.kind != ORDO_TABLE_BOUND_NONE) {
        if ((s = ordo__scan_bound(S->T, o->tag, &o->from, "from", 0, &f, err)) != ORDO_OK)
            goto done;
        if (ordo_compare(lo->data, lo->len, f.data, f.len) < 0) {
            ordo_buf t = *lo;
            *lo = f, f = t;
        }
    }
    if (o->to.kind != ORDO_TABLE_BOUND_NONE) {
        if ((s = ordo__scan_bound(S->T, o->tag, &o->to, "to", 0, &f, err)) != ORDO_OK)
            goto done;
        if (ordo_compare(f.data, f.len, hi->data, hi->len) < 0) {
            ordo_buf t = *hi;
            *hi = f, f = t;
        }
    }
done:
    ordo_buf_free(&f);
    return s;
}

ordo_status ordo__scanner_open(ordo__scanner *S, ordo_db *db, const ordo_table_scan_options *o,
                               ordo_error *err)
{
    memset(S, 0, sizeof *S);
    if (!db || !o)
        return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "scan: no database or no options");
    ordo_table_meta m;
    ordo_error e = {0};
    ordo_buf lo = {0}, hi = {0};
    /* the collation check: the order of the scan and its bounds would not
     * hold under another version */
    ordo_status s = ordo_table_open_reader(db, o->tag, o->accept_collation_version, &S->T, &m, err);
    if (s != ORDO_OK)
        return s;
    S->table = ordo_table_reader_table(S->T);
    if ((s = select_columns(S, o, m.schema, err)) != ORDO_OK ||
        (s = key_bounds(S, o, &lo, &hi, err)) != ORDO_OK)
        goto fail;
    if (!(S->f = calloc(S->table->ncols + 1, sizeof *S->f))) {
        s = ordo__scan_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
        goto fail;
    }
    S->limit = o->has_limit ? o->limit : UINT64_MAX;
    if (ordo_compare(lo.data, lo.len, hi.data, hi.len) < 0 &&
        (s = ordo_scan_open(db, lo.data, lo.len, hi.data, hi.len, o->reverse, &S->it, &e)) !=
            ORDO_OK) {
        fail_with(err, s, &e);
        goto fail;
    }
    ordo_buf_free(&lo), ordo_buf_free(&hi);
    ordo_table_meta_free(&m);
    return ORDO_OK;
fail:
    ordo_buf_free(&lo), ordo_buf_free(&hi);
    ordo_table_meta_free(&m);
    ordo__scanner_close(S);
    return s;
}

ordo_status ordo__scanner_open_keys(ordo__scanner *S, const char *schema, const char *key,
                                    const char *format, const uint8_t *data,
                                    const int64_t *offsets, size_t n, ordo_error *err)
{
    memset(S, 0, sizeof *S);
    if (!schema || (n && (!offsets || !data)))
        return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "decode_keys: no schema, or no keys");
    const char *fname = format ? format : "ordered";
    ordo_format fmt;
    ordo_status fs = ordo_format_parse(fname, &fmt, err);
    if (fs != ORDO_OK)
        return fs;
    if (!ordo_format_decodes(fmt))
        return ordo__scan_fail(err, ORDO_ERR_INVALID_ARG,
                               "format: %s keys do not decode (their parts are not "
                               "self-delimiting; a LexKey table's values hold its columns): "
                               "ordered and packed keys do", fname);
    /* the encoder's parses, for its messages ("schema: ...", "key: ...") */
    ordo_schema t = {0}, k = {0};
    ordo_error e = {0};
    ordo_status s = ordo_schema_parse(schema, ORDO_FORMAT_ORDERED, &t, &e);
    const char *what = "schema";
    if (s == ORDO_OK)
        what = "key", s = ordo_schema_key(&t, key, fmt, &k, &e);
    ordo_schema_free(&k);
    ordo_schema_free(&t);
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        return ordo__scan_fail(err, s, "out of memory");
    if (s != ORDO_OK)
        return ordo__scan_fail(err, ORDO_ERR_INVALID_ARG, "%s: %.1000s", what, e.message);
    if (n && offsets[0] < 0)
        return ordo__scan_fail(err, ORDO_ERR_INVALID_ARG, "keys: offset 0 is negative");
    for (size_t i = 0; i < n; i++)
        if (offsets[i + 1] < offsets[i])
            return ordo__scan_fail(err, ORDO_ERR_INVALID_ARG,
                                   "keys: offset %zu is below offset %zu (offsets decrease)",
                                   i + 1, i);
    if ((s = ordo_table_reader_open(fname, schema, key, ORDO_UNTAGGED, &S->T, &e)) != ORDO_OK)
        return fail_with(err, s, &e);
    S->table = ordo_table_reader_table(S->T);
    const ordo_schema *ks = ordo_table_reader_key(S->T);
    S->f = calloc(S->table->ncols + 1, sizeof *S->f);
    S->out = calloc(ks->ncols + 1, sizeof *S->out);
    if (!S->f || !S->out) {
        ordo__scanner_close(S);
        return ordo__scan_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (size_t i = 0; i < ks->ncols; i++)
        S->out[i] = ks->cols[i].source;
    S->nout = ks->ncols;
    S->kd = data, S->ko = offsets, S->nkeys = n;
    S->keys_mode = 1;
    S->limit = UINT64_MAX;
    return ORDO_OK;
}

/* The next of the keys (keys mode). */
static ordo_status next_key(ordo__scanner *S, int *found, ordo_error *err)
{
    if (S->ki == S->nkeys)
        return ORDO_OK;
    size_t i = S->ki;
    ordo_error e = {0};
    ordo_status s = ordo_table_reader_key_row(S->T, S->kd + S->ko[i],
                                              (size_t)(S->ko[i + 1] - S->ko[i]), S->f, &e);
    if (s != ORDO_OK) {
        ordo__scan_fail(err, s, "key %zu of %zu: %.900s", i, S->nkeys, e.message);
        if (err)
            err->line = i + 1;
        return s;
    }
    S->ki++, S->rows++;
    *found = 1;
    return ORDO_OK;
}

ordo_status ordo__scanner_next(ordo__scanner *S, int *found, ordo_error *err)
{
    *found = 0;
    if (S->keys_mode)
        return next_key(S, found, err);
    while (S->it && S->rows < S->limit) {
        size_t kn, vn;
        const uint8_t *k, *v;
        int more = 0, matches = 0;
        ordo_error e = {0};
        ordo_status s = ordo_scan_next(S->it, &k, &kn, &v, &vn, &more, &e);
        if (s == ORDO_OK && more)
            s = ordo_table_reader_row(S->T, k, kn, v, vn, S->f, &matches, &e);
        if (s != ORDO_OK)
            return fail_with(err, s, &e);
        if (!more)
            break;
        if (matches) {
            S->rows++;
            *found = 1;
            return ORDO_OK;
        }
    }
    /* the end: the iterator (a RocksDB snapshot) goes now, not at close */
    ordo_scan_close(S->it);
    S->it = NULL;
    return ORDO_OK;
}

void ordo__scanner_close(ordo__scanner *S)
{
    ordo_scan_close(S->it);
    ordo_table_reader_close(S->T);
    free(S->out);
    free(S->f);
    free(S->own_ko);
    memset(S, 0, sizeof *S);
}
