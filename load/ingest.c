/* Phase 4: SST files and a table's metadata into a database in one atomic
 * ingestion. The metadata goes in an SST file of its own (its system keys
 * start with ff, above every tag's rows), ingested with the rows. */
#include "load_internal.h"
#include "tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The files sorted by their smallest key. */
static int by_smallest(const void *a, const void *b)
{
    const ordo_sst_file *x = *(const ordo_sst_file *const *)a, *y = *(const ordo_sst_file *const *)b;
    return ordo_compare(x->smallest, x->smallest_len, y->smallest, y->smallest_len);
}

/* Every key of every file in the tag's range, no two files overlapping. */
static ordo_status check_files(int tag, const ordo_sst_file **sorted, size_t n, ordo_error *err)
{
    uint8_t lo[1], hi[1];
    size_t ln, hn;
    ordo_table_range(tag, lo, &ln, hi, &hn);
    for (size_t i = 0; i < n; i++) {
        const ordo_sst_file *f = sorted[i];
        if (!f->path || (!f->smallest && f->smallest_len) || (!f->largest && f->largest_len))
            return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "an SST file without its path or keys");
        if (ordo_compare(f->smallest, f->smallest_len, lo, ln) < 0 ||
            ordo_compare(f->largest, f->largest_len, hi, hn) >= 0 ||
            ordo_compare(f->smallest, f->smallest_len, f->largest, f->largest_len) > 0)
            return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, 0,
                                   "'%s' holds keys outside the table's tag", f->path);
        if (i && ordo_compare(sorted[i - 1]->largest, sorted[i - 1]->largest_len, f->smallest,
                              f->smallest_len) >= 0)
            return ordo__load_fail(err, ORDO_ERR_OVERLAP, 0, "'%s' and '%s' overlap",
                                   sorted[i - 1]->path, f->path);
    }
    return ORDO_OK;
}

/* The table's system keys, in key order, as an SST file at path. */
static ordo_status write_meta(const char *path, int tag, const ordo_table_meta *m,
                              const ordo_sst_file *files, size_t n, ordo_error *err)
{
    char rows[32], msg[512];
    const char *vals[ORDO__TABLE_FIELDS];
    ordo__table_values(m, m->rows, rows, vals);
    ordo__sst_file *f = ordo__sst_file_open(path, msg, sizeof msg);
    int ok = f != NULL;
    uint64_t bytes = 0;
    int known = 1;
    for (size_t i = 0; i < n; i++) {
        known &= files[i].bytes > 0 || files[i].rows == 0;
        bytes += files[i].bytes;
    }
    if (ok && known) { /* first: "bytes" sorts before "collations" */
        char k[64], t[32];
        size_t kn = ordo__table_key(tag, ORDO__TABLE_BYTES, k);
        int tn = snprintf(t, sizeof t, "%llu", (unsigned long long)bytes);
        ok = ordo__sst_file_put(f, k, kn, t, (size_t)tn, msg, sizeof msg);
    }
    if (ok && ordo__table_has_collations(m)) { /* before "format" */
        char k[64];
        size_t kn = ordo__table_key(tag, ORDO__TABLE_COLLATIONS, k);
        ok = ordo__sst_file_put(f, k, kn, m->collations, strlen(m->collations), msg, sizeof msg);
    }
    for (int i = 0; ok && i < ORDO__TABLE_FIELDS; i++) {
        char k[64];
        size_t kn = ordo__table_key(tag, ordo__table_fields[i], k);
        ok = ordo__sst_file_put(f, k, kn, vals[i], strlen(vals[i]), msg, sizeof msg);
    }
    ok = ok && ordo__sst_file_finish(f, msg, sizeof msg);
    ordo__sst_file_close(f);
    if (!ok) {
        unlink(path);
        return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    }
    return ORDO_OK;
}

ordo_status ordo_sst_ingest(ordo_db *db, int tag, const ordo_sst_file *files, size_t n,
                            const ordo_table_meta *meta, ordo_error *err)
{
    if (!db || !meta || !meta->format || !meta->key || !meta->schema || (n && !files))
        return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "no database, files or metadata");
    ordo_status st = ordo_tag_check(tag, err);
    if (st == ORDO_OK)
        st = ordo_table_check_free(db, tag, err);
    if (st != ORDO_OK)
        return st;
    const ordo_sst_file **sorted = malloc((n + 1) * sizeof *sorted);
    const char **paths = malloc((n + 1) * sizeof *paths);
    const char *dir = NULL;
    char *meta_path = NULL;
    if (!sorted || !paths) {
        st = ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        sorted[i] = &files[i];
    qsort(sorted, n, sizeof *sorted, by_smallest);
    if ((st = check_files(tag, sorted, n, err)) != ORDO_OK ||
        (st = ordo_db_temp_dir(db, &dir, err)) != ORDO_OK)
        goto done;
    size_t plen = strlen(dir) + 32;
    if (!(meta_path = malloc(plen))) {
        st = ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
        goto done;
    }
    for (unsigned k = 0;; k++) { /* a name no earlier ingestion of this process used */
        snprintf(meta_path, plen, "%s/table-%u.sst", dir, k);
        if (access(meta_path, F_OK))
            break;
    }
    if ((st = write_meta(meta_path, tag, meta, files, n, err)) != ORDO_OK)
        goto done;
    for (size_t i = 0; i < n; i++)
        paths[i] = sorted[i]->path;
    paths[n] = meta_path;
    char msg[1024];
    if (!ordo__store_ingest(ordo__db_store(db), paths, n + 1, msg, sizeof msg)) {
        unlink(meta_path);
        st = ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    }
done:
    free(sorted), free(paths), free(meta_path);
    return st;
}

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
ordo_status ordo_ingest(ordo_db *db, int tag, const ordo_sst_file *files, size_t n,
                        const ordo_table_meta *meta, ordo_error *err)
{
    return ordo_sst_ingest(db, tag, files, n, meta, err);
}
