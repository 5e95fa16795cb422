/* A program built against an installed ordo with pkg-config, once on the
 * shared libraries and once on the static ones (tests/test_pkgconfig_install.sh):
 * the version it was compiled with is the library's, a schema parses
 * (ordo-ingest), and with WITH_TABLE (ordo-table: ordo-load and RocksDB
 * under it) CSV rows load into a new table at argv[1] and scan back. */
#include <ordo_ingest.h>
#ifdef WITH_TABLE
#    include <ordo_table.h>
#endif

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (strcmp(ordo_version(), ORDO_VERSION_STRING))
        return fprintf(stderr, "built with %s, running %s\n", ORDO_VERSION_STRING, ordo_version()), 1;
    ordo_schema s;
    ordo_error e = {0};
    if (ordo_schema_parse("id bigint, name text", ORDO_FORMAT_ORDERED, &s, &e) != ORDO_OK)
        return fprintf(stderr, "schema: %s\n", e.message), 1;
    printf("%zu columns\n", s.ncols);
    ordo_schema_free(&s);
#ifdef WITH_TABLE
    if (argc != 2)
        return fprintf(stderr, "usage: pc_consumer DB\n"), 2;
    static const char csv[] = "2,b\n1,\"a, z\"\n";
    ordo_table_load_options o = {.schema = "id bigint, name text", .key = "id", .tag = 3,
                                 .db_path = argv[1]};
    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_CSV, .fd = -1, .data = csv,
                             .size = sizeof csv - 1};
    ordo_table_summary sum;
    if (ordo_table_load(NULL, &src, &o, &sum, &e) != ORDO_OK)
        return fprintf(stderr, "load: %s\n", e.message), 1;
    printf("%llu rows\n", (unsigned long long)sum.rows);
    fflush(stdout);
    ordo_db *db = NULL;
    ordo_table_scan_options so = {.tag = 3};
    if (ordo_db_open(argv[1], ORDO_DB_READ_ONLY, &db, &e) != ORDO_OK ||
        ordo_table_scan_csv_fd(db, &so, 1, 1, &e) != ORDO_OK)
        return fprintf(stderr, "scan: %s\n", e.message), 1;
    ordo_db_close(db);
#else
    (void)argc, (void)argv;
#endif
    return 0;
}
