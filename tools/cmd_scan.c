/* ordo scan: the rows of a table `ordo load` wrote, as CSV (or NDJSON) in
 * key order (or reversed), within a prefix or a range of leading key
 * columns. */
#include "cli.h"

#include <ordo_table.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *usage =
    "usage: ordo scan --db DIR [--tag N] [--prefix CSV] [--from CSV] [--to CSV] [--reverse]\n"
    "                 [--limit N] [--columns LIST] [--header] [--output csv|ndjson]\n"
    "                 [--accept-collation-version]\n"
    "  --output csv     PostgreSQL's COPY CSV, NULL an empty field (the default)\n"
    "  --output ndjson  one JSON object a line: NULL null, booleans, integers and floats\n"
    "                   as JSON values (NaN, Infinity as strings), other types as strings\n"
    "                   of their PostgreSQL text (bytea \\x hex); --header is for csv only";

typedef struct scan_args {
    const char *db, *prefix, *from, *to, *columns, *output;
    int tag, reverse, header, accept_collation_version;
    unsigned long long limit;
} scan_args;

/* --limit: a count, digits only (strtoull also takes spaces and a sign
 * before them). */
static unsigned long long parse_number(const char *a, const char *v)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (*end || end == v || errno || strspn(v, "0123456789") != strlen(v))
        cli_fail("scan: %s: expected a count, got '%s'", a, v);
    return n;
}

static void parse_tag(void *dst, const char *a, const char *v)
{
    *(int *)dst = cli_tag("scan", a, v);
}

static void parse_limit(void *dst, const char *a, const char *v)
{
    *(unsigned long long *)dst = parse_number(a, v);
}

static void parse_args(int argc, char **argv, scan_args *a)
{
    memset(a, 0, sizeof *a);
    a->tag = ORDO_UNTAGGED;
    a->limit = ~0ull;
    const opt opts[] = {
        {"--db", OPT_STRING, &a->db, NULL},
        {"--tag", OPT_CALL, &a->tag, parse_tag},
        {"--prefix", OPT_STRING, &a->prefix, NULL},
        {"--from", OPT_STRING, &a->from, NULL},
        {"--to", OPT_STRING, &a->to, NULL},
        {"--limit", OPT_CALL, &a->limit, parse_limit},
        {"--columns", OPT_STRING, &a->columns, NULL},
        {"--output", OPT_STRING, &a->output, NULL},
        {"--reverse", OPT_FLAG, &a->reverse, NULL},
        {"--header", OPT_FLAG, &a->header, NULL},
        {"--accept-collation-version", OPT_FLAG, &a->accept_collation_version, NULL},
    };
    const opt_spec spec = {"scan", usage, "unknown argument", OPT_POS_NONE, 0, opts,
                           sizeof opts / sizeof opts[0]};
    cli_options(&spec, argc, argv, NULL);
    if (!a->db)
        cli_fail("scan: needs --db DIR\n%s", usage);
    if (!a->output)
        a->output = "csv";
    if (strcmp(a->output, "csv") && strcmp(a->output, "ndjson"))
        cli_fail("scan: --output: expected csv or ndjson, got '%s'", a->output);
    if (a->header && !strcmp(a->output, "ndjson"))
        cli_fail("scan: --header is for --output csv (NDJSON names the columns in every row)");
}

/* --columns: names split at commas, spaces around each dropped; a
 * malloc'd array (the names point into a copy, *buf), its length in *n. */
static const char **split_columns(const char *columns, char **buf, size_t *n)
{
    *buf = cli_alloc(strlen(columns) + 1);
    memcpy(*buf, columns, strlen(columns) + 1);
    const char **names = cli_alloc((strlen(columns) + 2) * sizeof *names);
    *n = 0;
    for (char *p = *buf;;) {
        char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        while (len && *p == ' ')
            p++, len--;
        while (len && p[len - 1] == ' ')
            len--;
        names[(*n)++] = p;
        if (!e) {
            p[len] = 0;
            return names;
        }
        p[len] = 0;
        p = e + 1;
    }
}

/* Rows go to stdout as the library makes them; a failed write ends the
 * command as cli_flush_stdout would. */
static ordo_status write_stdout(void *ctx, const void *p, size_t n, ordo_error *err)
{
    (void)ctx, (void)err;
    if (fwrite(p, 1, n, stdout) != n)
        cli_write_error();
    return ORDO_OK;
}

static ordo_table_bound csv_bound(const char *text, const char *name)
{
    ordo_table_bound b = {0};
    if (text)
        b.kind = ORDO_TABLE_BOUND_CSV, b.raw = text;
    b.name = name;
    return b;
}

int cmd_scan(int argc, char **argv)
{
    scan_args a;
    parse_args(argc, argv, &a);
    static char outbuf[1 << 20]; /* before any output */
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    ordo_error e;
    ordo_db *db = NULL;
    if (ordo_db_open(a.db, ORDO_DB_READ_ONLY, &db, &e) != ORDO_OK)
        cli_fail("scan: %s", e.message);
    ordo_table_scan_options o = {0};
    o.tag = a.tag;
    o.prefix = csv_bound(a.prefix, "--prefix");
    o.from = csv_bound(a.from, "--from");
    o.to = csv_bound(a.to, "--to");
    o.reverse = a.reverse;
    o.has_limit = a.limit != ~0ull;
    o.limit = a.limit;
    o.accept_collation_version = a.accept_collation_version;
    char *names_buf = NULL;
    if (a.columns)
        o.columns = split_columns(a.columns, &names_buf, &o.ncolumns);
    o.columns_name = "--columns";
    ordo_status s = strcmp(a.output, "ndjson")
                        ? ordo_table_scan_csv(db, &o, a.header, write_stdout, NULL, &e)
                        : ordo_table_scan_ndjson(db, &o, write_stdout, NULL, &e);
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        cli_out_of_memory();
    /* keys made under another collation version may sort differently: the
     * order of the scan and its bounds would not hold */
    if (s == ORDO_ERR_COLLATION_VERSION)
        cli_fail("scan: %s; --accept-collation-version reads it anyway, once you have checked "
                 "that the order did not change",
                 e.message);
    if (s != ORDO_OK)
        cli_fail("scan: %s", e.message);
    cli_flush_stdout();
    free((void *)o.columns), free(names_buf);
    ordo_db_close(db);
    return 0;
}
