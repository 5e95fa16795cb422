/* Databases: checked before they are opened, undone after crashes, their
 * tables' metadata and scans. */
#include "dbdir.h"
#include "load_internal.h"
#include "tables.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

struct ordo_db {
    ordo__store *store;
    char *path;
    ordo__dbdir_tmp tmp;
    int made; /* the open made the folder (dev, ino): ordo_db_discard removes it */
    dev_t dev;
    ino_t ino;
};

ordo__store *ordo__db_store(ordo_db *db) { return db->store; }

ordo_status ordo__load_fail(ordo_error *err, ordo_status s, uint64_t line, const char *fmt, ...)
{
    if (!err)
        return s;
    err->status = s;
    err->file = NULL; /* ordo.h: NULL when there is none; callers need not clear it */
    err->line = line;
    err->column = 0;
    err->option = NULL; /* an error reused from a refusal names no option now */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return s;
}

ordo_status ordo__load_refuse(ordo_error *err, const char *option, const char *why)
{
    ordo__load_fail(err, ORDO_ERR_INVALID_ARG, 0, "%s: %s", option, why);
    if (err)
        err->option = option;
    return ORDO_ERR_INVALID_ARG;
}

/* Too low a file-size limit, or too little free space where the database
 * is (its parent's when it does not exist yet). */
static ordo_status check_room(const char *path, int exists, ordo_error *err)
{
    struct rlimit rl;
    if (!getrlimit(RLIMIT_FSIZE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < ORDO__LOAD_MIN_ROOM)
        return ordo__load_fail(err, ORDO_ERR_NO_ROOM, 0,
                               "the file-size limit (ulimit -f) is %llu bytes: a load needs at "
                               "least 1 MiB to write the database's files",
                               (unsigned long long)rl.rlim_cur);
    char parent[4200];
    snprintf(parent, sizeof parent, "%s", path);
    if (!exists) {
        char *slash = strrchr(parent, '/');
        if (!slash)
            snprintf(parent, sizeof parent, ".");
        else
            slash[slash == parent] = 0;
    }
    struct statvfs vf;
    uint64_t free_bytes = 0;
    if (!statvfs(parent, &vf) && (free_bytes = (uint64_t)vf.f_bavail * vf.f_frsize) < ORDO__LOAD_MIN_ROOM)
        return ordo__load_fail(err, ORDO_ERR_NO_ROOM, 0,
                               "only %llu KiB free where the database is ('%s'): a load needs at "
                               "least 1 MiB to open it, and room for the sorted data",
                               (unsigned long long)(free_bytes / 1024), parent);
    return ORDO_OK;
}

/* Undoes the ordo_put_load loads that never ended: their tag's keys and
 * their marker, in one synced write. */
static ordo_status undo_put_loads(ordo__store *s, ordo_error *err)
{
    char msg[512];
    static const char pre[] = ORDO__TABLE_LOADING_PREFIX, end[] = "\xff" "ordo/loading0";
    ordo__store_iter *it = ordo__store_iter_open(s, pre, sizeof pre - 1, end, sizeof end - 1, 0);
    ordo__store_batch *b = it ? ordo__store_batch_open(s, SIZE_MAX) : NULL;
    if (!b) {
        ordo__store_iter_close(it);
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    }
    int found = 0;
    for (; ordo__store_iter_valid(it); ordo__store_iter_next(it)) {
        size_t kn;
        const uint8_t *k = ordo__store_iter_key(it, &kn);
        int tag;
        if (ordo__table_loading_tag(k, kn, &tag))
            ordo__table_undo(b, tag), found = 1;
    }
    ordo_status st = ORDO_OK;
    if (ordo__store_iter_error(it))
        st = ordo__load_fail(err, ORDO_ERR_IO, 0, "reading the database: %s",
                             ordo__store_iter_error(it));
    else if (found && !ordo__store_batch_commit(b, msg, sizeof msg))
        st = ordo__load_fail(err, ORDO_ERR_IO, 0, "removing what a killed load wrote: %s", msg);
    ordo__store_iter_close(it);
    ordo__store_batch_close(b);
    return st;
}

ordo_status ordo_db_open(const char *path, unsigned flags, ordo_db **out, ordo_error *err)
{
    if (!path || !out)
        return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "no database path");
    *out = NULL;
    int writing = !(flags & ORDO_DB_READ_ONLY), exists = 0;
    char msg[4400];
    if (!ordo__dbdir_check(path, writing, &exists, msg, sizeof msg))
        return ordo__load_fail(err, ORDO_ERR_UNSAFE_PATH, 0, "%s", msg);
    if (!writing && !exists) /* (a failed first load leaves none) */
        return ordo__load_fail(err, ORDO_ERR_IO, 0,
                               "cannot open the database '%.4000s': no such folder", path);
    if (writing) {
        ordo_status st = check_room(path, exists, err);
        if (st != ORDO_OK)
            return st;
    }
    ordo_db *db = calloc(1, sizeof *db);
    if (!db || !(db->path = strdup(path))) {
        free(db);
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    }
    db->tmp.fd = -1;
    /* RocksDB creates the database, not its folder */
    if (writing && !exists && !ordo__dbdir_make(path, &db->made, &db->dev, &db->ino, msg, sizeof msg)) {
        ordo_db_close(db);
        return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    }
    if (!(db->store = ordo__store_open(path, !writing, msg, sizeof msg))) {
        ordo_db_discard(db);
        return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    }
    if (writing) { /* the lock is ours: no running load owns what is left */
        if (!ordo__dbdir_remove_leftovers(path, msg, sizeof msg)) {
            ordo_db_discard(db);
            return ordo__load_fail(err, ORDO_ERR_UNSAFE_PATH, 0, "%s", msg);
        }
        ordo_status st = undo_put_loads(db->store, err);
        if (st != ORDO_OK) {
            ordo_db_discard(db);
            return st;
        }
    }
    *out = db;
    return ORDO_OK;
}

void ordo_db_close(ordo_db *db)
{
    if (!db)
        return;
    ordo__dbdir_tmp_remove(&db->tmp);
    ordo__store_close(db->store);
    free(db->path);
    free(db);
}

int ordo_db_discard(ordo_db *db)
{
    if (!db)
        return 0;
    int made = db->made;
    dev_t dev = db->dev;
    ino_t ino = db->ino;
    char *path = db->path;
    db->path = NULL;
    ordo_db_close(db); /* the store closed (its lock released) before the folder goes */
    if (made && path)
        ordo__dbdir_remove_made(path, dev, ino);
    free(path);
    return made;
}

ordo_status ordo_db_temp_dir(ordo_db *db, const char **path, ordo_error *err)
{
    char msg[4400];
    if (db->tmp.fd < 0 && !ordo__dbdir_tmp_create(db->path, &db->tmp, msg, sizeof msg))
        return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    *path = db->tmp.path;
    return ORDO_OK;
}

/* ------------------------------------------------------------ tables */

/* 1 when the stored text of a table's metadata can be what a load wrote:
 * no 00 byte (C text would end early), rows in decimal digits within 64
 * bits (*rows); else 0 and why. */
/* 1 and *v when t is a decimal count of 64 bits. */
static int parse_count(const char *t, uint64_t *v)
{
    uint64_t r = 0;
    const char *c = t;
    for (; *c >= '0' && *c <= '9'; c++) {
        if (r > (UINT64_MAX - (uint64_t)(*c - '0')) / 10)
            return 0;
        r = r * 10 + (uint64_t)(*c - '0');
    }
    *v = r;
    return !*c && t[0];
}

static int meta_ok(const ordo__table_text *t, uint64_t *rows, uint64_t *bytes, char *why,
                   size_t n)
{
    if (t->nul_in) {
        snprintf(why, n, "the table's stored %s holds a 00 byte", t->nul_in);
        return 0;
    }
    if (!parse_count(t->rows, rows)) {
        snprintf(why, n, "the table's stored row count '%.40s' is not a count of 64 bits", t->rows);
        return 0;
    }
    if (t->bytes && !parse_count(t->bytes, bytes)) {
        snprintf(why, n, "the table's stored byte count '%.40s' is not a count of 64 bits",
                 t->bytes);
        return 0;
    }
    return 1;
}

/* The tables the database has, for a message: "it has tables with tags
 * 3, 7", "it has an untagged table", "it has no tables" (their format keys,
 * ff ordo/table/TTT/format, tell them). */
static void table_tags(ordo__store *s, char *out, size_t cap)
{
    static const char lo[] = "\xff" "ordo/table/", hi[] = "\xff" "ordo/table0";
    ordo__store_iter *it = ordo__store_iter_open(s, lo, sizeof lo - 1, hi, sizeof hi - 1, 0);
    int tags[256], n = 0, untagged = 0;
    for (; it && ordo__store_iter_valid(it); ordo__store_iter_next(it)) {
        size_t kn, p = sizeof lo - 1;
        const uint8_t *k = ordo__store_iter_key(it, &kn);
        if (kn == p + 11 && !memcmp(k + p, "none/format", 11)) {
            untagged = 1;
        } else if (kn == p + 10 && !memcmp(k + p + 3, "/format", 7) && k[p] >= '0' &&
                   k[p] <= '2' && k[p + 1] >= '0' && k[p + 1] <= '9' && k[p + 2] >= '0' &&
                   k[p + 2] <= '9' && n < 256) {
            int t = (k[p] - '0') * 100 + (k[p + 1] - '0') * 10 + (k[p + 2] - '0');
            if (t <= 254)
                tags[n++] = t;
        }
    }
    ordo__store_iter_close(it);
    size_t len = 0;
    if (untagged)
        len = (size_t)snprintf(out, cap, "it has an untagged table%s", n ? " and tables with tags " : "");
    else if (n)
        len = (size_t)snprintf(out, cap, "it has %s ", n > 1 ? "tables with tags" : "a table with tag");
    else
        snprintf(out, cap, "it has no tables");
    for (int i = 0; i < n && len < cap; i++) /* in key order: ascending */
        len += (size_t)snprintf(out + len, cap - len, "%s%d", i ? ", " : "", tags[i]);
}

ordo_status ordo_table_read(ordo_db *db, int tag, ordo_table_meta *m, ordo_error *err)
{
    memset(m, 0, sizeof *m);
    char msg[512];
    ordo__table_text *t = calloc(1, sizeof *t);
    if (!t)
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    int got = ordo__table_read(db->store, tag, t, msg, sizeof msg);
    if (got <= 0) {
        free(t);
        if (got < 0)
            return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
        char tags[1200];
        table_tags(db->store, tags, sizeof tags);
        if (tag == ORDO_UNTAGGED)
            return ordo__load_fail(err, ORDO_ERR_NO_TABLE, 0,
                                   "the database has no untagged table; %s (use --tag N)", tags);
        return ordo__load_fail(err, ORDO_ERR_NO_TABLE, 0,
                               "the database has no table under tag %d; %s", tag, tags);
    }
    /* the stored text, checked once here: what the readers make of the
     * format, key and schema is theirs (ordo_table_reader_open) */
    uint64_t rows, bytes = 0;
    if (!meta_ok(t, &rows, &bytes, msg, sizeof msg)) {
        ordo__table_meta_free(t);
        free(t);
        return ordo__load_fail(err, ORDO_ERR_BAD_INPUT, 0,
                               "%s: the database's table metadata is damaged", msg);
    }
    m->format = t->format, m->key = t->key, m->schema = t->schema, m->collations = t->collations;
    m->rows = rows;
    t->nbytes = bytes;
    m->priv = t;
    return ORDO_OK;
}

int ordo_table_recorded_bytes(const ordo_table_meta *m, uint64_t *bytes)
{
    const ordo__table_text *t = m ? m->priv : NULL;
    if (!t || !t->bytes)
        return 0;
    *bytes = t->nbytes;
    return 1;
}

void ordo_table_meta_free(ordo_table_meta *m)
{
    if (m->priv) {
        ordo__table_meta_free(m->priv);
        free(m->priv);
    }
    memset(m, 0, sizeof *m);
}

/* 1 when [lo, hi) holds a key; -1 out of memory. */
static int any_key(ordo__store *s, const void *lo, size_t ln, const void *hi, size_t hn)
{
    ordo__store_iter *it = ordo__store_iter_open(s, lo, ln, hi, hn, 0);
    if (!it)
        return -1;
    int used = ordo__store_iter_valid(it);
    ordo__store_iter_close(it);
    return used;
}

ordo_status ordo_table_check_free(ordo_db *db, int tag, ordo_error *err)
{
    char msg[512];
    ordo__table_text t;
    int got = ordo__table_read(db->store, tag, &t, msg, sizeof msg);
    if (got < 0)
        return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
    if (got) {
        ordo__table_meta_free(&t);
        if (tag == ORDO_UNTAGGED)
            return ordo__load_fail(err, ORDO_ERR_TABLE_EXISTS, 0,
                                   "the database already holds an untagged table; load into "
                                   "another database");
        return ordo__load_fail(err, ORDO_ERR_TABLE_EXISTS, 0,
                               "tag %d already holds a table; load into another tag or database",
                               tag);
    }
    if (tag != ORDO_UNTAGGED) {
        got = ordo__table_read(db->store, ORDO_UNTAGGED, &t, msg, sizeof msg);
        if (got < 0)
            return ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", msg);
        if (got) {
            ordo__table_meta_free(&t);
            return ordo__load_fail(err, ORDO_ERR_TABLE_EXISTS, 0,
                                   "the database holds an untagged table: it cannot share it "
                                   "with tag %d",
                                   tag);
        }
    }
    uint8_t lo[1], hi[1];
    size_t ln, hn;
    ordo_table_range(tag, lo, &ln, hi, &hn);
    int used = any_key(db->store, lo, ln, hi, hn);
    if (!used && tag == ORDO_UNTAGGED) { /* any other table's system keys */
        static const char sys[] = "\xff" "ordo/table/", sys_end[] = "\xff" "ordo/table0";
        used = any_key(db->store, sys, sizeof sys - 1, sys_end, sizeof sys_end - 1);
        if (used > 0)
            return ordo__load_fail(err, ORDO_ERR_TABLE_EXISTS, 0,
                                   "the database holds tagged tables: load with --tag N");
    }
    if (used < 0)
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    if (used && tag == ORDO_UNTAGGED)
        return ordo__load_fail(err, ORDO_ERR_TABLE_EXISTS, 0,
                               "the database is not empty: load with --tag N");
    if (used)
        return ordo__load_fail(err, ORDO_ERR_TABLE_EXISTS, 0,
                               "tag %d already holds keys; load into another tag or database", tag);
    return ORDO_OK;
}

/* ------------------------------------------------------------- scans */

struct ordo_scan {
    ordo__store_iter *it;
    int started;
};

ordo_status ordo_scan_open(ordo_db *db, const void *lo, size_t lo_len, const void *hi,
                           size_t hi_len, int reverse, ordo_scan **out, ordo_error *err)
{
    ordo_scan *s = calloc(1, sizeof *s);
    if (!s || !(s->it = ordo__store_iter_open(db->store, lo, lo_len, hi, hi_len, reverse))) {
        free(s);
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    }
    *out = s;
    return ORDO_OK;
}

ordo_status ordo_scan_next(ordo_scan *s, const uint8_t **key, size_t *key_len,
                           const uint8_t **value, size_t *value_len, int *found, ordo_error *err)
{
    if (s->started)
        ordo__store_iter_next(s->it);
    s->started = 1;
    *found = ordo__store_iter_valid(s->it);
    if (!*found) {
        const char *e = ordo__store_iter_error(s->it);
        return e ? ordo__load_fail(err, ORDO_ERR_IO, 0, "%s", e) : ORDO_OK;
    }
    *key = ordo__store_iter_key(s->it, key_len);
    *value = ordo__store_iter_value(s->it, value_len);
    return ORDO_OK;
}

void ordo_scan_close(ordo_scan *s)
{
    if (!s)
        return;
    ordo__store_iter_close(s->it);
    free(s);
}
