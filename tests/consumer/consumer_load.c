/* Loads three rows into the database at argv[1] (tag 2) through an
 * installed ordo_load; the install test scans them back with the tool. */
#include <ordo.h>
#include <ordo_load.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    ordo_error e = {0};
    ordo_db *db = NULL;
    ordo_sst_writer *w = NULL;
    const char *tmp;
    const char *vals[3] = {"\002a", "\002b", "\002c"}; /* one text column each */
    if (argc != 2 || ordo_db_open(argv[1], 0, &db, &e) || ordo_db_temp_dir(db, &tmp, &e) ||
        ordo_sst_writer_open(&(ordo_sst_options){tmp, NULL, 0, 2, ORDO_DUP_ERROR, 0}, &w, &e))
        return fprintf(stderr, "%s\n", e.message), 1;
    for (uint8_t i = 0; i < 3; i++) {
        uint8_t key[8];
        size_t kn = 0;
        ordo_key k;
        ordo_key_init(&k, key, sizeof key, 0);
        ordo_key_int16(&k, ORDO_ASC_NULLS_LAST, (int16_t)(10 * i - 10));
        if (ordo_key_finish(&k, &kn) || ordo_sst_writer_add(w, key, kn, vals[i], 2, i, &e))
            return fprintf(stderr, "%s\n", e.message), 1;
    }
    ordo_table_meta meta = {"ordered", "k", "k smallint, v text", 3, NULL};
    if (ordo_sst_writer_finish(w, &e) ||
        ordo_ingest(db, 2, ordo_sst_writer_file(w, 0), ordo_sst_writer_files(w), &meta, &e))
        return fprintf(stderr, "%s\n", e.message), 1;
    printf("3 rows\n");
    ordo_sst_writer_close(w);
    ordo_db_close(db);
    return 0;
}
