/* The unsorted baseline load: write batches, all or nothing through a
 * marker key (SPEC.md §15.4). */
#include "load_internal.h"
#include "tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PUT_BATCH_ROWS 1000

struct ordo_put_load {
    ordo_db *db;
    ordo__store_batch *b;
    int tag;
    ordo_dup_policy dup;
    int begun;  /* the marker is written: an unfinished load must be undone */
    uint64_t puts, bytes;
    uint8_t *key; /* the stored key: tag and key */
    size_t key_cap;
};

ordo_status ordo_put_load_open(ordo_db *db, int tag, ordo_dup_policy dup, ordo_put_load **out,
                               ordo_error *err)
{
    if (!db || !out)
        return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "no database");
    if (dup == ORDO_DUP_FIRST || (unsigned)dup > ORDO_DUP_LAST || tag < ORDO_UNTAGGED || tag > 254)
        return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, 0,
                               "write batches keep the last row of a key (or fail on a "
                               "duplicate): the first needs the sorted load");
    ordo_status st = ordo_table_check_free(db, tag, err);
    if (st != ORDO_OK)
        return st;
    ordo_put_load *p = calloc(1, sizeof *p);
    if (!p || !(p->b = ordo__store_batch_open(ordo__db_store(db), PUT_BATCH_ROWS))) {
        free(p);
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    }
    p->db = db, p->tag = tag, p->dup = dup;
    char mk[64], msg[512];
    size_t mn = ordo__table_loading_key(tag, mk);
    static const char what[] = "a --via writebatch load";
    if (!ordo__store_batch_put(p->b, mk, mn, what, sizeof what - 1, msg, sizeof msg) ||
        !ordo__store_batch_commit(p->b, msg, sizeof msg)) {
        ordo_put_load_close(p);
        return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    }
    p->begun = 1;
    *out = p;
    return ORDO_OK;
}

ordo_status ordo_put_load_add(ordo_put_load *p, const void *key, size_t kn, const void *val,
                              size_t vn, ordo_error *err)
{
    size_t tag = p->tag != ORDO_UNTAGGED;
    if (!p->begun)
        return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, 0, "the load is finished");
    if (ordo_key_reserved(p->tag, key, kn))
        return ordo__load_fail(err, ORDO_ERR_RESERVED_KEY, 0,
                               "the key starts with byte ff, kept for system keys");
    if (tag + kn > p->key_cap) {
        uint8_t *k = malloc(2 * (tag + kn));
        if (!k)
            return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
        free(p->key);
        p->key = k, p->key_cap = 2 * (tag + kn);
    }
    if (tag)
        p->key[0] = (uint8_t)p->tag;
    if (kn)
        memcpy(p->key + tag, key, kn);
    char msg[512];
    if (!ordo__store_batch_put(p->b, p->key, tag + kn, val, vn, msg, sizeof msg))
        return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    p->puts++;
    p->bytes += tag + kn + vn;
    return ORDO_OK;
}

ordo_status ordo_put_load_finish(ordo_put_load *p, const ordo_table_meta *meta,
                                 ordo_load_stats *stats, ordo_error *err)
{
    char msg[512];
    uint8_t lo[1], hi[1];
    size_t ln, hn;
    uint64_t keys = 0;
    if (!p->begun)
        return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, 0, "the load is finished");
    ordo_table_range(p->tag, lo, &ln, hi, &hn);
    /* a key written twice holds the last row: counting the keys finds how
     * many rows were duplicates */
    if (!ordo__store_batch_finish(p->b, msg, sizeof msg) ||
        !ordo__store_count(ordo__db_store(p->db), lo, ln, hi, hn, &keys, msg, sizeof msg))
        return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    uint64_t dups = p->puts - keys;
    if (dups && p->dup == ORDO_DUP_ERROR)
        return ordo__load_fail(err, ORDO_ERR_DUPLICATE_KEY, 0,
                               "%llu rows have the key of another row",
                               (unsigned long long)dups);
    char rows[32];
    const char *vals[ORDO__TABLE_FIELDS];
    ordo__table_values(meta, keys, rows, vals);
    if (!dups) { /* else p->bytes counts rows a later one replaced */
        char k[64], t[32];
        size_t kn = ordo__table_key(p->tag, ORDO__TABLE_BYTES, k);
        int tn = snprintf(t, sizeof t, "%llu", (unsigned long long)p->bytes);
        if (!ordo__store_batch_put(p->b, k, kn, t, (size_t)tn, msg, sizeof msg))
            return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    }
    if (ordo__table_has_collations(meta)) {
        char k[64];
        size_t kn = ordo__table_key(p->tag, ORDO__TABLE_COLLATIONS, k);
        if (!ordo__store_batch_put(p->b, k, kn, meta->collations, strlen(meta->collations), msg,
                                   sizeof msg))
            return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    }
    for (int i = 0; i < ORDO__TABLE_FIELDS; i++) {
        char k[64];
        size_t kn = ordo__table_key(p->tag, ordo__table_fields[i], k);
        if (!ordo__store_batch_put(p->b, k, kn, vals[i], strlen(vals[i]), msg, sizeof msg))
            return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    }
    char mk[64];
    ordo__store_batch_delete(p->b, mk, ordo__table_loading_key(p->tag, mk));
    if (!ordo__store_batch_commit(p->b, msg, sizeof msg)) /* the table appears at once */
        return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    p->begun = 0;
    if (stats)
        *stats = (ordo_load_stats){p->puts, keys, dups, p->bytes};
    return ORDO_OK;
}

ordo_status ordo_put_load_undo(ordo_put_load *p, ordo_error *err)
{
    if (!p || !p->begun)
        return ORDO_OK;
    uint8_t lo[1], hi[1];
    size_t ln, hn;
    char msg[512];
    ordo_table_range(p->tag, lo, &ln, hi, &hn);
    ordo__store_batch_discard(p->b);
    ordo__table_undo(p->b, p->tag);
    if (!ordo__store_batch_commit(p->b, msg, sizeof msg))
        return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    p->begun = 0;
    ordo__store_compact(ordo__db_store(p->db), lo, ln, hi, hn);
    return ORDO_OK;
}

void ordo_put_load_close(ordo_put_load *p)
{
    if (!p)
        return;
    ordo_put_load_undo(p, NULL);
    ordo__store_batch_close(p->b);
    free(p->key);
    free(p);
}
