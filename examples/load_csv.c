/* load_csv DB CSV TAG SCHEMA KEY: PostgreSQL COPY CSV into a table of the
 * RocksDB at DB, as `ordo load` does: keys and values from ordo_ingest's
 * encoder, sorted and ingested by ordo_load's phases; `ordo scan` reads it. */
#include <ordo_ingest.h>
#include <ordo_load.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                                \
    if ((call) != ORDO_OK)                                                                         \
        return fprintf(stderr, "%s:%llu: %s\n", argv[2], (unsigned long long)e.line, e.message), 1

int main(int argc, char **argv)
{
    ordo_error e = {0};
    ordo_schema s;
    ordo_encoder *enc;
    ordo_db *db;
    ordo_run_writer *rw;
    ordo_runs *runs;
    ordo_sst_writer *sst;
    const ordo_encoder_batch *b;
    const char *tmp;
    ordo_load_stats st;
    if (argc != 6)
        return fprintf(stderr, "usage: load_csv DB CSV TAG SCHEMA KEY\n"), 2;
    int tag = atoi(argv[3]);
    CHECK(ordo_schema_parse(argv[4], ORDO_FORMAT_ORDERED, &s, &e));
    ordo_encoder_options eo = {.threads = 2, .values = 1, .name = argv[2]};
    CHECK(ordo_encoder_open(&s, argv[5], ORDO_FORMAT_ORDERED, &eo, &enc, &e));
    CHECK(ordo_encoder_input_path(enc, argv[2], &e));
    CHECK(ordo_db_open(argv[1], 0, &db, &e));
    CHECK(ordo_db_temp_dir(db, &tmp, &e));
    CHECK(ordo_run_writer_open(&(ordo_run_options){tmp, NULL, 256 << 20}, &rw, &e));
    ordo_status rc;
    while ((rc = ordo_encoder_next(enc, &b, &e)) == ORDO_OK && b) /* 1. rows in input order */
        for (size_t i = 0; i < b->rows; i++)
            CHECK(ordo_run_writer_add(rw, b->keys + b->key_offsets[i],
                                      b->key_offsets[i + 1] - b->key_offsets[i],
                                      b->values + b->value_offsets[i],
                                      b->value_offsets[i + 1] - b->value_offsets[i], b->lines[i], &e));
    CHECK(rc);
    CHECK(ordo_run_writer_runs(rw, &runs, &e)); /* 2. merged in key order */
    CHECK(ordo_sst_writer_open(&(ordo_sst_options){tmp, NULL, 0, tag, ORDO_DUP_ERROR, 1}, &sst, &e));
    CHECK(ordo_runs_merge(runs, NULL, sst, &e));
    CHECK(ordo_sst_writer_finish(sst, &e)); /* 3. SST files */
    ordo_sst_writer_stats(sst, &st);
    ordo_table_meta meta = {"ordered", argv[5], argv[4], st.rows, NULL, NULL};
    CHECK(ordo_ingest(db, tag, ordo_sst_writer_file(sst, 0), ordo_sst_writer_files(sst), &meta,
                      &e)); /* 4. all at once */
    printf("%llu rows\n", (unsigned long long)st.rows);
    ordo_sst_writer_close(sst), ordo_runs_close(runs), ordo_run_writer_close(rw);
    ordo_encoder_close(enc), ordo_schema_free(&s), ordo_db_close(db);
    return 0;
}
