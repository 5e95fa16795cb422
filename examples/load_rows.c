/* A leaderboard into the RocksDB at argv[1] as table 1 (score DESC, id; the
 * name as the value, SPEC.md §15.2) by ordo's load phases; ordo scan reads it. */
#include <ordo.h>
#include <ordo_load.h>
#include <stdio.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        if ((call) != ORDO_OK) {                                                                   \
            fprintf(stderr, "%s\n", e.message);                                                    \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    ordo_error e = {0};
    ordo_db *db;
    ordo_run_writer *rw; /* one process here; a cluster runs each phase on its workers */
    ordo_runs *runs;
    ordo_sst_writer *sst;
    const char *tmp;
    ordo_load_stats st;
    if (argc != 2)
        return 2;
    CHECK(ordo_db_open(argv[1], 0, &db, &e));
    CHECK(ordo_db_temp_dir(db, &tmp, &e));
    CHECK(ordo_run_writer_open(&(ordo_run_options){tmp, NULL, 64 << 20}, &rw, &e));
    for (int64_t id = 1; id <= 100000; id++) { /* 1. rows in any order */
        uint8_t key[32];
        size_t kn;
        char val[32]; /* one column: its length + 1, then its text */
        ordo_key k;
        ordo_key_init(&k, key, sizeof key, 0);
        ordo_key_int32(&k, ORDO_DESC_NULLS_FIRST, (int32_t)(id * 7919 % 1000));
        ordo_key_int64(&k, ORDO_ASC_NULLS_LAST, id);
        if (ordo_key_finish(&k, &kn) != ORDO_OK)
            return 1;
        int vn = snprintf(val + 1, sizeof val - 1, "player_%lld", (long long)id);
        val[0] = (char)(vn + 1);
        CHECK(ordo_run_writer_add(rw, key, kn, val, (size_t)vn + 1, (uint64_t)id, &e));
    }
    CHECK(ordo_run_writer_runs(rw, &runs, &e)); /* 2. merged in key order */
    CHECK(ordo_sst_writer_open(&(ordo_sst_options){tmp, NULL, 0, 1, ORDO_DUP_ERROR, 1}, &sst, &e));
    CHECK(ordo_runs_merge(runs, NULL, sst, &e));
    CHECK(ordo_sst_writer_finish(sst, &e)); /* 3. into SST files */
    ordo_sst_writer_stats(sst, &st);
    ordo_table_meta meta = {"ordered", "score DESC, id", "id bigint, score integer, name text",
                            st.rows, NULL, NULL};
    size_t n = ordo_sst_writer_files(sst);
    CHECK(ordo_sst_ingest(db, 1, ordo_sst_writer_file(sst, 0), n, &meta, &e)); /* 4. all at once */
    printf("%llu rows in %zu SST files\n", (unsigned long long)st.rows, n);
    ordo_sst_writer_close(sst), ordo_runs_close(runs), ordo_run_writer_close(rw);
    ordo_db_close(db);
    return 0;
}
