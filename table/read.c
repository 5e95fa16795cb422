/* Reading tables back beside the scans: a database's tables with their
 * metadata, one row by its key, and keys decoded to their columns' values
 * (the scan's Arrow batches over keys instead of stored rows). */
#include "scan.h"

#include <stdlib.h>
#include <string.h>

/* The stored bytes of tag's rows: every key and value of its range. */
static ordo_status table_bytes(ordo_db *db, int tag, uint64_t *bytes, ordo_error *err)
{
    uint8_t lo[1], hi[1];
    size_t ln, hn;
    ordo_table_range(tag, lo, &ln, hi, &hn);
    ordo_scan *it = NULL;
    ordo_status s = ordo_scan_open(db, lo, ln, hi, hn, 0, &it, err);
    *bytes = 0;
    for (int more = 1; s == ORDO_OK && more;) {
        const uint8_t *k, *v;
        size_t kn = 0, vn = 0;
        s = ordo_scan_next(it, &k, &kn, &v, &vn, &more, err);
        if (s == ORDO_OK && more)
            *bytes += kn + vn;
    }
    ordo_scan_close(it);
    return s;
}

/* One more key or value at the end of k. */
static ordo_status keys_add(ordo_table_keys *k, const uint8_t *p, size_t n)
{
    ordo_status s = ordo_table_keys_reserve(k, n, 1);
    if (s == ORDO_OK) {
        if (n)
            memcpy(k->data + k->len, p, n);
        k->len += n;
        k->off[++k->n] = (int64_t)k->len;
    }
    return s;
}

ordo_status ordo_table_scan_pairs(ordo_db *db, const void *lo, size_t lo_len, const void *hi,
                                  size_t hi_len, ordo_table_keys *keys, ordo_table_keys *values,
                                  ordo_error *err)
{
    if (!db || !keys || !values)
        return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "pairs: no database or no output");
    ordo_scan *it = NULL;
    ordo_status s = ordo_table_keys_reserve(keys, 0, 0);
    if (s == ORDO_OK && (s = ordo_table_keys_reserve(values, 0, 0)) == ORDO_OK)
        s = ordo_scan_open(db, lo, lo_len, hi, hi_len, 0, &it, err);
    for (int more = 1; s == ORDO_OK && more;) {
        const uint8_t *k, *v;
        size_t kn = 0, vn = 0;
        s = ordo_scan_next(it, &k, &kn, &v, &vn, &more, err);
        if (s == ORDO_OK && more && (s = keys_add(keys, k, kn)) == ORDO_OK)
            s = keys_add(values, v, vn);
    }
    ordo_scan_close(it);
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        return ordo__scan_fail(err, s, "out of memory");
    if (s == ORDO_ERR_SIZE_OVERFLOW)
        return ordo__scan_fail(err, s, "pairs: more than the keys' offsets can hold");
    return s;
}

void ordo_table_list_free(ordo_table_info *tables, size_t n)
{
    for (size_t i = 0; tables && i < n; i++)
        ordo_table_meta_free(&tables[i].meta);
    free(tables);
}

ordo_status ordo_table_list(ordo_db *db, ordo_table_info **tables, size_t *n, ordo_error *err)
{
    if (!db || !tables || !n)
        return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "tables: no database or no output");
    *tables = NULL, *n = 0;
    ordo_table_info *t = calloc(256, sizeof *t); /* untagged, 0..254 */
    if (!t)
        return ordo__scan_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    size_t k = 0;
    ordo_status s = ORDO_OK;
    for (int tag = ORDO_UNTAGGED; tag <= 254 && s == ORDO_OK; tag++) {
        ordo_error e = {0};
        s = ordo_table_read(db, tag, &t[k].meta, &e);
        if (s == ORDO_ERR_NO_TABLE) {
            s = ORDO_OK;
            continue;
        }
        if (s != ORDO_OK) {
            ordo__scan_fail(err, s, "tag %d: %.900s", tag, e.message);
            break;
        }
        t[k].tag = tag;
        /* a table of an older ordo records none: counted */
        if (!ordo_table_recorded_bytes(&t[k].meta, &t[k].bytes) &&
            (s = table_bytes(db, tag, &t[k].bytes, &e)) != ORDO_OK)
            ordo__scan_fail(err, s, "tag %d: %.900s", tag, e.message);
        k++;
    }
    if (s != ORDO_OK || k == 0) {
        ordo_table_list_free(t, k);
        return s;
    }
    *tables = t, *n = k;
    return ORDO_OK;
}

ordo_status ordo_table_get(ordo_db *db, const ordo_table_scan_options *o, const void *key,
                           size_t key_len, struct ArrowSchema *schema, struct ArrowArray *row,
                           int *found, ordo_error *err)
{
    if (!schema || !row || !found || !o || (!key && key_len))
        return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "get: no options, key or output");
    memset(schema, 0, sizeof *schema);
    memset(row, 0, sizeof *row);
    *found = 0;
    if (o->prefix.kind || o->from.kind || o->to.kind)
        return ordo__scan_fail(err, ORDO_ERR_INVALID_ARG,
                               "get: the key is the bound (prefix, from and to must be unset)");
    /* [key, key 00): the key alone, whatever the format (a packed or LexKey
     * key may be a prefix of another) */
    uint8_t *hi = malloc(key_len + 1);
    if (!hi)
        return ordo__scan_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    if (key_len)
        memcpy(hi, key, key_len);
    hi[key_len] = 0;
    ordo_table_scan_options g = *o;
    g.from = (ordo_table_bound){.kind = ORDO_TABLE_BOUND_RAW, .raw = hi, .raw_len = key_len,
                                .name = "key"};
    g.to = (ordo_table_bound){.kind = ORDO_TABLE_BOUND_RAW, .raw = hi, .raw_len = key_len + 1,
                              .name = "key"};
    g.has_limit = 1, g.limit = 1;
    g.batch_rows = 1, g.batch_bytes = 0;
    struct ArrowArrayStream st;
    ordo_status s = ordo_table_scan(db, &g, &st, err);
    free(hi);
    if (s != ORDO_OK)
        return s;
    if (st.get_next(&st, row) != 0 || (row->release && st.get_schema(&st, schema) != 0)) {
        s = ordo_table_scan_error(&st, err);
        if (row->release)
            row->release(row);
    } else if (row->release) {
        *found = 1;
    }
    st.release(&st);
    return s;
}

ordo_status ordo_table_decode_keys(const ordo_table_decode_options *o, const uint8_t *data,
                                   const int64_t *offsets, size_t n,
                                   struct ArrowArrayStream *out, ordo_error *err)
{
    if (!o || !out)
        return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "decode_keys: no options or no stream");
    memset(out, 0, sizeof *out);
    ordo__scanner S;
    ordo_status s =
        ordo__scanner_open_keys(&S, o->schema, o->key, o->format, data, offsets, n, err);
    return s == ORDO_OK ? ordo__scan_stream(&S, o->batch_rows, o->batch_bytes, out, err) : s;
}

ordo_status ordo_table_decode_bins(const ordo_table_decode_options *o, const ordo_bins *keys,
                                   struct ArrowArrayStream *out, ordo_error *err)
{
    if (!o || !keys || !out)
        return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "decode_keys: no options, keys or stream");
    memset(out, 0, sizeof *out);
    int64_t *off = keys->n < SIZE_MAX / 8 ? malloc((keys->n + 1) * sizeof *off) : NULL;
    size_t base = 0;
    ordo_error e = {0};
    ordo_status s = off ? ordo_bins_offsets(keys, off, &base, &e) : ORDO_ERR_OUT_OF_MEMORY;
    ordo__scanner S;
    if (s == ORDO_OK && (s = ordo__scanner_open_keys(&S, o->schema, o->key, o->format,
                                                     keys->data + base, off, keys->n, err)) ==
                            ORDO_OK) {
        S.own_ko = off; /* the scanner's now, freed with it */
        return ordo__scan_stream(&S, o->batch_rows, o->batch_bytes, out, err);
    }
    free(off);
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        return ordo__scan_fail(err, s, "out of memory");
    return e.status ? ordo__scan_fail(err, s, "keys: %.1000s", e.message) : s;
}
