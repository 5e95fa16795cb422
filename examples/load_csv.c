/* load_csv DB CSV TAG SCHEMA KEY: PostgreSQL COPY CSV into a table of the
 * RocksDB at DB, as `ordo load` does, in one call of the table library
 * (ordo_table_load: parse, encode, sort, write SST files, ingest them with
 * the table's metadata atomically); `ordo scan` reads it. */
#include <ordo_table.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 6)
        return fprintf(stderr, "usage: load_csv DB CSV TAG SCHEMA KEY\n"), 2;
    ordo_table_load_options o = {.schema = argv[4], .key = argv[5], .tag = atoi(argv[3]),
                                 .db_path = argv[1]};
    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_CSV, .path = argv[2]};
    ordo_table_summary sum;
    ordo_error e = {0};
    if (ordo_table_load(NULL, &src, &o, &sum, &e) != ORDO_OK) {
        if (e.file)
            fprintf(stderr, "%s:%llu:%llu: ", e.file, (unsigned long long)e.line,
                    (unsigned long long)e.column);
        return fprintf(stderr, "%s\n", e.message), 1;
    }
    printf("%llu rows\n", (unsigned long long)sum.rows);
    return 0;
}
