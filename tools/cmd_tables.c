/* ordo tables: the tables of a database `ordo load` wrote, one line each. */
#include "cli.h"

#include <ordo_table.h>

static const char *usage = "usage: ordo tables --db DIR [--header]";

/* A field of the line: a tab, a line end or a backslash written as
 * COPY's text format writes it (\t, \n, \r, \\), so that a line is a table. */
static void put_field(const char *s)
{
    for (; *s; s++) {
        const char *esc = *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : *s == '\r' ? "\\r"
                          : *s == '\\' ? "\\\\" : NULL;
        if (esc)
            fputs(esc, stdout);
        else
            putchar(*s);
    }
}

int cmd_tables(int argc, char **argv)
{
    const char *dir = NULL;
    int header = 0;
    const opt opts[] = {
        {"--db", OPT_STRING, &dir, NULL},
        {"--header", OPT_FLAG, &header, NULL},
    };
    const opt_spec spec = {"tables", usage, "unknown argument", OPT_POS_NONE, 0, opts,
                           sizeof opts / sizeof opts[0]};
    cli_options(&spec, argc, argv, NULL);
    if (!dir)
        cli_fail("tables: needs --db DIR\n%s", usage);
    ordo_error e;
    ordo_db *db = NULL;
    if (ordo_db_open(dir, ORDO_DB_READ_ONLY, &db, &e) != ORDO_OK)
        cli_fail("tables: %s", e.message);
    ordo_table_info *t = NULL;
    size_t n = 0;
    ordo_status s = ordo_table_list(db, &t, &n, &e);
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        cli_out_of_memory();
    if (s != ORDO_OK)
        cli_fail("tables: %s", e.message);
    /* tab-separated: schemas and keys hold commas and spaces */
    if (header)
        fputs("tag\tformat\trows\tbytes\tschema\tkey\n", stdout);
    for (size_t i = 0; i < n; i++) {
        if (t[i].tag == ORDO_UNTAGGED)
            fputs("none", stdout);
        else
            printf("%d", t[i].tag);
        printf("\t%s\t%llu\t%llu\t", t[i].meta.format, (unsigned long long)t[i].meta.rows,
               (unsigned long long)t[i].bytes);
        put_field(t[i].meta.schema);
        putchar('\t');
        put_field(t[i].meta.key);
        putchar('\n');
    }
    ordo_table_list_free(t, n);
    ordo_db_close(db);
    return 0;
}
