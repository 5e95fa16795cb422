/* scan_arrow DB TAG [BATCH_ROWS]: a table of the RocksDB at DB as an Arrow
 * C stream (ordo_table_scan), as any Arrow consumer would read it: the
 * schema's columns and formats, then each record batch's rows, and the
 * first column's values where it is a 32- or 64-bit integer. */
#include <ordo_table.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    ordo_error e = {0};
    ordo_db *db;
    struct ArrowArrayStream s;
    struct ArrowSchema sc;
    struct ArrowArray a;
    if (argc < 3)
        return fprintf(stderr, "usage: scan_arrow DB TAG [BATCH_ROWS]\n"), 2;
    ordo_table_scan_options o = {.tag = atoi(argv[2])};
    o.batch_rows = argc > 3 ? (size_t)atol(argv[3]) : 0;
    if (ordo_db_open(argv[1], ORDO_DB_READ_ONLY, &db, &e) != ORDO_OK ||
        ordo_table_scan(db, &o, &s, &e) != ORDO_OK)
        return fprintf(stderr, "scan_arrow: %s\n", e.message), 1;
    if (s.get_schema(&s, &sc) != 0)
        return fprintf(stderr, "scan_arrow: %s\n", s.get_last_error(&s)), 1;
    for (int64_t c = 0; c < sc.n_children; c++)
        printf("%s%s %s", c ? ", " : "", sc.children[c]->name, sc.children[c]->format);
    printf("\n");
    const char *f = sc.n_children ? sc.children[0]->format : "";
    unsigned long long rows = 0, batches = 0;
    int rc;
    while ((rc = s.get_next(&s, &a)) == 0 && a.release) { /* release NULL: the end */
        printf("batch %llu: %lld rows", batches++, (long long)a.length);
        for (int64_t r = 0; r < a.length && r < 3 && (!strcmp(f, "i") || !strcmp(f, "l")); r++) {
            const struct ArrowArray *c = a.children[0];
            const uint8_t *valid = c->buffers[0];
            int64_t i = c->offset + r;
            if (valid && !(valid[i / 8] >> (i % 8) & 1))
                printf(" NULL");
            else if (f[0] == 'i')
                printf(" %d", ((const int32_t *)c->buffers[1])[i]);
            else
                printf(" %lld", (long long)((const int64_t *)c->buffers[1])[i]);
        }
        printf("\n");
        rows += (unsigned long long)a.length;
        a.release(&a);
    }
    if (rc != 0)
        fprintf(stderr, "scan_arrow: %s\n", s.get_last_error(&s));
    printf("%llu rows in %llu batches\n", rows, batches);
    sc.release(&sc), s.release(&s), ordo_db_close(db);
    return rc != 0;
}
