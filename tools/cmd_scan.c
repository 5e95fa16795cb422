/* ordo scan: the rows of a table `ordo load` wrote, as CSV in key order
 * (or reversed), within a prefix or a range of leading key columns. */
#include "cli.h"

#include <ordo_load.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct bytes {
    uint8_t *p;
    size_t n;
} bytes;

/* The key bytes of leading key columns given as one CSV row, as the README
 * says of text fields: an unquoted empty field is NULL, so "" is the one
 * value NULL; text NULL (the option not given) is the empty tuple. A line
 * end outside quotes would start a second row: refused, never dropped.
 * `prefix`: see ordo_table_reader_bound. */
static bytes encode_leading(ordo_table_reader *T, const char *what, const char *text, int prefix)
{
    ordo_csv_reader *rd = NULL;
    ordo_error e;
    const ordo_csv_field *fields = NULL;
    static char empty[1];
    static const ordo_csv_field null_field = {empty, 0, 0, 1, 1};
    size_t k = 0;
    int quoted = 0;
    for (const char *c = text ? text : ""; *c; c++) {
        quoted ^= *c == '"';
        if (!quoted && (*c == '\n' || *c == '\r'))
            cli_fail("scan: %s: a line end outside quotes: the key values are one CSV row "
                     "(quote a value that holds one)",
                     what);
    }
    if (text && !*text) {
        fields = &null_field, k = 1;
    } else if (text) {
        if (ordo_csv_open_mem(text, strlen(text), what, &rd, &e) != ORDO_OK)
            cli_out_of_memory();
        if (ordo_csv_next(rd, &fields, &k, &e) != ORDO_OK)
            cli_fail("scan: %s: %s", what, e.message);
        if (k == 0)
            cli_fail("scan: %s: %s", what, "expected values of key columns");
    }
    const char **texts = cli_alloc((k + 1) * sizeof *texts);
    size_t *lens = cli_alloc((k + 1) * sizeof *lens);
    int *nulls = cli_alloc((k + 1) * sizeof *nulls);
    for (size_t c = 0; c < k; c++) {
        texts[c] = fields[c].p, lens[c] = fields[c].n;
        nulls[c] = fields[c].n == 0 && !fields[c].quoted;
    }
    ordo_buf out = {0};
    ordo_status st = ordo_table_reader_bound(T, texts, lens, nulls, k, prefix, &out, &e);
    if (st == ORDO_ERR_OUT_OF_MEMORY)
        cli_out_of_memory();
    if (st != ORDO_OK)
        cli_fail("scan: %s: %s", what, e.message);
    free(texts), free(lens), free(nulls);
    ordo_csv_close(rd);
    return (bytes){(uint8_t *)out.data, out.len};
}

static int bytes_less(bytes a, bytes b) { return ordo_compare(a.p, a.n, b.p, b.n) < 0; }

/* CSV quoting (ordo_csv_field_text) straight to stdout. */
static void csv_out(const char *p, size_t n, ordo_buf *tmp)
{
    tmp->len = 0;
    if (ordo_csv_field_text(p, n, tmp) != ORDO_OK)
        cli_out_of_memory();
    fwrite(tmp->data, 1, tmp->len, stdout);
}

/* Prints one row's columns in the order of out[]. 0 when the row is not
 * in a LexKey prefix after all. */
static int print_row(ordo_table_reader *T, const uint8_t *k, size_t kn, const uint8_t *v,
                     size_t vn, const size_t *out, size_t nout, ordo_table_field *f,
                     ordo_buf *tmp)
{
    ordo_error e;
    int matches = 0;
    ordo_status st = ordo_table_reader_row(T, k, kn, v, vn, f, &matches, &e);
    if (st == ORDO_ERR_OUT_OF_MEMORY)
        cli_out_of_memory();
    if (st != ORDO_OK)
        cli_fail("scan: %s", e.message);
    if (!matches)
        return 0;
    for (size_t i = 0; i < nout; i++) {
        if (i)
            putchar(',');
        if (!f[out[i]].is_null)
            csv_out(f[out[i]].text, f[out[i]].len, tmp);
    }
    putchar('\n');
    return 1;
}

static const char *usage =
    "usage: ordo scan --db DIR [--tag N] [--prefix CSV] [--from CSV] [--to CSV] [--reverse]\n"
    "                 [--limit N] [--columns LIST] [--header] [--accept-collation-version]";

typedef struct scan_args {
    const char *db, *prefix, *from, *to, *columns;
    int tag, reverse, header, accept_collation_version;
    unsigned long long limit;
} scan_args;

/* --tag (0 to 254, into an int) and --limit (a count), digits only:
 * strtoull also takes spaces and a sign before them. */
static unsigned long long parse_number(const char *a, const char *v)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (*end || end == v || errno || strspn(v, "0123456789") != strlen(v) ||
        (a[2] == 't' && n > 254))
        cli_fail("scan: %s: expected %s, got '%s'", a, a[2] == 't' ? "0 to 254" : "a count", v);
    return n;
}

static void parse_tag(void *dst, const char *a, const char *v)
{
    *(int *)dst = (int)parse_number(a, v);
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
        {"--reverse", OPT_FLAG, &a->reverse, NULL},
        {"--header", OPT_FLAG, &a->header, NULL},
        {"--accept-collation-version", OPT_FLAG, &a->accept_collation_version, NULL},
    };
    const opt_spec spec = {"scan", usage, "unknown argument", OPT_POS_NONE, 0, opts,
                           sizeof opts / sizeof opts[0]};
    cli_options(&spec, argc, argv, NULL);
    if (!a->db)
        cli_fail("scan: needs --db DIR\n%s", usage);
}

/* The database at db, read only, and the reader of the table of the tag
 * (the folder is checked first: a link or FIFO is never read). */
static ordo_db *open_table(ordo_table_reader **T, const char *db, int tag, ordo_table_meta *m)
{
    ordo_error e;
    ordo_db *st = NULL;
    if (ordo_db_open(db, ORDO_DB_READ_ONLY, &st, &e) != ORDO_OK ||
        ordo_table_read(st, tag, m, &e) != ORDO_OK)
        cli_fail("scan: %s", e.message);
    ordo_status s = ordo_table_reader_open(m->format, m->schema, m->key, tag, T, &e);
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        cli_out_of_memory();
    if (s != ORDO_OK)
        cli_fail("scan: %s", e.message);
    return st;
}

/* The table columns to print, in order (--columns, else all of them):
 * a malloc'd array, its length in *nout. */
static size_t *select_columns(const ordo_schema *table, const char *columns, const char *schema,
                              size_t *nout)
{
    size_t *out = cli_alloc((table->ncols + (columns ? strlen(columns) : 0) + 1) * sizeof *out);
    *nout = 0;
    if (!columns) {
        for (size_t c = 0; c < table->ncols; c++)
            out[(*nout)++] = c;
        return out;
    }
    for (const char *p = columns;;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p), c = 0;
        while (n && *p == ' ')
            p++, n--;
        while (n && p[n - 1] == ' ')
            n--;
        while (c < table->ncols &&
               (strlen(table->cols[c].name) != n || memcmp(table->cols[c].name, p, n)))
            c++;
        if (c == table->ncols)
            cli_fail("scan: --columns: '%.*s' is not a column of the table (%s)", (int)n, p,
                     schema);
        out[(*nout)++] = c;
        if (!e)
            return out;
        p = e + 1;
    }
}

/* [*lower, *upper): the table's keys, within the prefix, from, to. */
static void key_bounds(ordo_table_reader *T, const scan_args *a, bytes *lower, bytes *upper)
{
    *lower = encode_leading(T, "--prefix", a->prefix, 1);
    *upper = (bytes){cli_alloc(lower->n + 1), 0};
    if (ordo_prefix_upper_bound(lower->p, lower->n, upper->p, lower->n + 1, &upper->n) !=
        ORDO_OK) {
        upper->p[0] = 0xff; /* untagged: below the system keys */
        upper->n = 1;
    }
    if (a->from) {
        bytes f = encode_leading(T, "--from", a->from, 0);
        if (bytes_less(*lower, f)) {
            free(lower->p);
            *lower = f;
        } else {
            free(f.p);
        }
    }
    if (a->to) {
        bytes t = encode_leading(T, "--to", a->to, 0);
        if (bytes_less(t, *upper)) {
            free(upper->p);
            *upper = t;
        } else {
            free(t.p);
        }
    }
}

static void print_header(const ordo_schema *table, const size_t *out, size_t nout)
{
    for (size_t i = 0; i < nout; i++)
        printf("%s%s", i ? "," : "", table->cols[out[i]].name);
    putchar('\n');
}

/* Prints the rows of [lower, upper), at most a->limit of them. */
static void print_rows(ordo_table_reader *T, ordo_db *st, const scan_args *a, bytes lower,
                       bytes upper, const size_t *out, size_t nout)
{
    if (!bytes_less(lower, upper))
        return;
    ordo_table_field *f = cli_alloc((ordo_table_reader_table(T)->ncols + 1) * sizeof *f);
    ordo_buf tmp = {0};
    unsigned long long rows = 0;
    ordo_error e;
    ordo_scan *it = NULL;
    if (ordo_scan_open(st, lower.p, lower.n, upper.p, upper.n, a->reverse, &it, &e) != ORDO_OK)
        cli_fail("scan: %s", e.message);
    while (rows < a->limit) {
        size_t kn, vn;
        const uint8_t *k, *v;
        int found;
        if (ordo_scan_next(it, &k, &kn, &v, &vn, &found, &e) != ORDO_OK)
            cli_fail("scan: %s", e.message);
        if (!found)
            break;
        rows += (unsigned long long)print_row(T, k, kn, v, vn, out, nout, f, &tmp);
    }
    ordo_scan_close(it);
    ordo_buf_free(&tmp);
    free(f);
}

int cmd_scan(int argc, char **argv)
{
    scan_args a;
    parse_args(argc, argv, &a);
    static char outbuf[1 << 20]; /* before any output */
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    ordo_table_reader *T = NULL;
    ordo_table_meta m;
    ordo_db *st = open_table(&T, a.db, a.tag, &m);
    const ordo_schema *table = ordo_table_reader_table(T);
    /* keys made under another collation version may sort differently: the
     * order of the scan and its bounds would not hold */
    ordo_error ce;
    if (!a.accept_collation_version &&
        ordo_schema_check_collations(table, m.collations, &ce) != ORDO_OK)
        cli_fail("scan: %s; --accept-collation-version reads it anyway, once you have checked "
                 "that the order did not change",
                 ce.message);
    size_t nout;
    size_t *out = select_columns(table, a.columns, m.schema, &nout);
    bytes lower, upper;
    key_bounds(T, &a, &lower, &upper);
    if (a.header)
        print_header(table, out, nout);
    print_rows(T, st, &a, lower, upper, out, nout);
    cli_flush_stdout();
    free(out), free(lower.p), free(upper.p);
    ordo_table_reader_close(T);
    ordo_table_meta_free(&m);
    ordo_db_close(st);
    return 0;
}
