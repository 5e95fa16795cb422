/* ordo scan: the rows of a table `ordo load` wrote, as CSV in key order
 * (or reversed), within a prefix or a range of leading key columns. */
#include "cli.h"

#include <ordo_load.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct scanner {
    int tag;
    ordo_format fmt;
    ordo_schema table, key; /* key.cols[i].source: its table column */
    int *is_key, value_all;
    /* LexKey --prefix: whether each of its nlead values is NULL (see
     * print_row) */
    int *lead_null;
    size_t nlead;
} scanner;

typedef struct bytes {
    uint8_t *p;
    size_t n;
} bytes;

/* The key bytes of leading key columns given as one CSV row: "" gives the
 * empty tuple. `prefix`: for LexKey, end with the separator the next part
 * would follow, so the bytes are a prefix of every longer key. */
/* LexKey keys do not decode (the value holds every column) and separate
 * their parts; ordered and packed keys decode. */
static int lexkey(ordo_format f)
{
    return f == ORDO_FORMAT_LEXKEY || f == ORDO_FORMAT_LEXKEY_LEGACY;
}

static bytes encode_leading(scanner *S, const char *what, const char *text, int prefix)
{
    bytes out = {cli_alloc(1), 0};
    if (S->tag >= 0)
        out.p[out.n++] = (uint8_t)S->tag;
    if (!*text)
        return out;
    ordo_csv_reader *rd = NULL;
    ordo_error e;
    const ordo_csv_field *fields = NULL;
    size_t k = 0;
    if (ordo_csv_open_mem(text, strlen(text), what, &rd, &e) != ORDO_OK)
        cli_out_of_memory();
    if (ordo_csv_next(rd, &fields, &k, &e) != ORDO_OK)
        cli_fail("scan: %s: %s", what, e.message);
    if (k == 0)
        cli_fail("scan: %s: %s", what, "expected values of key columns");
    if (k > S->key.ncols)
        cli_fail("scan: %s: %zu values, the key has %zu columns", what, k, S->key.ncols);
    if (prefix && lexkey(S->fmt)) {
        S->lead_null = cli_alloc(k * sizeof *S->lead_null);
        S->nlead = k;
        for (size_t c = 0; c < k; c++)
            S->lead_null[c] = fields[c].n == 0 && !fields[c].quoted;
    }
    ordo_schema lead = {S->key.cols, k};
    ordo_rows *b = NULL;
    if (ordo_rows_open(&lead, 1, &b) != ORDO_OK)
        cli_out_of_memory();
    for (size_t c = 0; c < k; c++) {
        const ordo_csv_field *fl = &fields[c];
        ordo_status st = ordo_rows_put_text(b, c, fl->p, fl->n, fl->quoted, &e);
        if (st == ORDO_ERR_OUT_OF_MEMORY)
            cli_out_of_memory();
        if (st != ORDO_OK)
            cli_fail("scan: %s: column '%s' (%s): %s: '%.*s'", what, lead.cols[c].name,
                     lead.cols[c].sql_name, e.message, (int)fl->n, fl->p);
    }
    ordo_rows_end_row(b);
    const ordo_column *cols = ordo_rows_columns(b, NULL);
    size_t total = 0, offs[2];
    ordo_status s = ordo_batch_size(S->fmt, cols, k, 1, &total, NULL, NULL);
    out.p = realloc(out.p, out.n + total + 1);
    if (!out.p)
        cli_fail("scan: out of memory");
    if (s == ORDO_OK)
        s = ordo_batch_encode(S->fmt, cols, k, 1, out.p + out.n, total, offs, NULL);
    if (s != ORDO_OK)
        cli_fail("scan: %s: %s", what, ordo_status_message(s));
    out.n += total;
    if (prefix && lexkey(S->fmt) && k < S->key.ncols)
        out.p[out.n++] = 0;
    ordo_rows_close(b);
    ordo_csv_close(rd);
    return out;
}

static int bytes_less(bytes a, bytes b) { return ordo_compare(a.p, a.n, b.p, b.n) < 0; }

typedef struct field_text {
    const uint8_t *p;
    size_t n;
    int is_null;
    int decoded; /* from the key: already CSV */
} field_text;

/* CSV quoting (ordo_csv_field_text) straight to stdout. */
static void csv_out(const uint8_t *p, size_t n, ordo_buf *tmp)
{
    tmp->len = 0;
    if (ordo_csv_field_text(p, n, tmp) != ORDO_OK)
        cli_out_of_memory();
    fwrite(tmp->data, 1, tmp->len, stdout);
}

/* Prints one row: key columns decoded (all of them into km, one after the
 * other), the others from the value, in the order of out[]. 0 when the row
 * is not in a LexKey prefix after all. */
static int print_row(scanner *S, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn,
                     const size_t *out, size_t nout, field_text *ft, ordo_buf *km, size_t *kat,
                     ordo_buf *tmp)
{
    const uint8_t *end = v + vn;
    for (size_t c = 0; c < S->table.ncols; c++) {
        if (S->is_key[c] && !S->value_all)
            continue;
        size_t n = 0;
        int is_null = 0;
        if (ordo_row_value_next(&v, end, &ft[c].p, &n, &is_null) != ORDO_OK)
            cli_fail("scan: a value does not match the table's schema (column '%s')",
                     S->table.cols[c].name);
        ft[c].n = n, ft[c].is_null = is_null, ft[c].decoded = 0;
    }
    /* LexKey writes NULL as byte 00 and "" as nothing before the 00 that
     * ends a part, so a prefix's bytes also match rows holding NULL where
     * it holds "" (and the reverse): the value, which holds every column of
     * a LexKey table, tells them apart. */
    for (size_t i = 0; i < S->nlead; i++)
        if (ft[S->key.cols[i].source].is_null != S->lead_null[i])
            return 0;
    if (!S->value_all) {
        size_t skip = S->tag >= 0;
        ordo_key_reader r;
        if (S->fmt == ORDO_FORMAT_PACKED)
            ordo_key_reader_init_packed(&r, k + skip, kn - skip);
        else
            ordo_key_reader_init(&r, k + skip, kn - skip);
        km->len = 0;
        for (size_t i = 0; i < S->key.ncols; i++) {
            kat[i] = km->len;
            ordo_status st = ordo_text_print(&r, &S->key.cols[i], ORDO_TEXT_CSV, km, NULL);
            if (st == ORDO_ERR_OUT_OF_MEMORY)
                cli_out_of_memory();
            if (st != ORDO_OK)
                cli_fail("scan: a key does not match the table's key (column '%s'): %s",
                         S->key.cols[i].name, ordo_status_message(st));
        }
        kat[S->key.ncols] = km->len;
        for (size_t i = 0; i < S->key.ncols; i++)
            ft[S->key.cols[i].source] =
                (field_text){(const uint8_t *)km->data + kat[i], kat[i + 1] - kat[i], 0, 1};
    }
    for (size_t i = 0; i < nout; i++) {
        const field_text *f = &ft[out[i]];
        if (i)
            putchar(',');
        if (f->decoded)
            fwrite(f->p, 1, f->n, stdout);
        else if (!f->is_null)
            csv_out(f->p, f->n, tmp);
    }
    putchar('\n');
    return 1;
}

static const char *usage =
    "usage: ordo scan --db DIR [--tag N] [--prefix CSV] [--from CSV] [--to CSV] [--reverse]\n"
    "                 [--limit N] [--columns LIST] [--header]";

typedef struct scan_args {
    const char *db, *prefix, *from, *to, *columns;
    int tag, reverse, header;
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
    };
    const opt_spec spec = {"scan", usage, "unknown argument", OPT_POS_NONE, 0, opts,
                           sizeof opts / sizeof opts[0]};
    cli_options(&spec, argc, argv, NULL);
    if (!a->db)
        cli_fail("scan: needs --db DIR\n%s", usage);
}

/* The database at db, read only, and the table of the tag: its format,
 * schema and key into S (the folder is checked first: a link or FIFO is
 * never read). */
static ordo_db *open_table(scanner *S, const char *db, int tag, ordo_table_meta *m)
{
    ordo_error e;
    ordo_db *st = NULL;
    if (ordo_db_open(db, ORDO_DB_READ_ONLY, &st, &e) != ORDO_OK ||
        ordo_table_read(st, tag, m, &e) != ORDO_OK)
        cli_fail("scan: %s", e.message);
    memset(S, 0, sizeof *S);
    S->tag = tag;
    S->fmt = ordo_format_from_name(m->format);
    if (!S->fmt)
        cli_fail("scan: the table's stored format '%s' is unknown (ordered, packed, "
                 "lexkey, lexkey-legacy)", m->format);
    if (ordo_schema_parse(m->schema, ORDO_FORMAT_ORDERED, &S->table, &e) != ORDO_OK)
        cli_fail("scan: the table's stored schema is unreadable: %s", e.message);
    if (ordo_schema_key(&S->table, m->key, S->fmt, &S->key, &e) != ORDO_OK)
        cli_fail("scan: the table's stored key is unreadable: %s", e.message);
    S->is_key = cli_alloc(S->table.ncols * sizeof *S->is_key);
    memset(S->is_key, 0, S->table.ncols * sizeof *S->is_key);
    for (size_t i = 0; i < S->key.ncols; i++)
        S->is_key[S->key.cols[i].source] = 1;
    S->value_all = lexkey(S->fmt);
    return st;
}

/* The table columns to print, in order (--columns, else all of them):
 * a malloc'd array, its length in *nout. */
static size_t *select_columns(const scanner *S, const char *columns, const char *schema,
                              size_t *nout)
{
    size_t *out = cli_alloc((S->table.ncols + (columns ? strlen(columns) : 0) + 1) * sizeof *out);
    *nout = 0;
    if (!columns) {
        for (size_t c = 0; c < S->table.ncols; c++)
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
        while (c < S->table.ncols &&
               (strlen(S->table.cols[c].name) != n || memcmp(S->table.cols[c].name, p, n)))
            c++;
        if (c == S->table.ncols)
            cli_fail("scan: --columns: '%.*s' is not a column of the table (%s)", (int)n, p,
                     schema);
        out[(*nout)++] = c;
        if (!e)
            return out;
        p = e + 1;
    }
}

/* [*lower, *upper): the table's keys, within the prefix, from, to. */
static void key_bounds(scanner *S, const scan_args *a, bytes *lower, bytes *upper)
{
    *lower = encode_leading(S, "--prefix", a->prefix ? a->prefix : "", 1);
    *upper = (bytes){cli_alloc(lower->n + 1), 0};
    if (ordo_prefix_upper_bound(lower->p, lower->n, upper->p, lower->n + 1, &upper->n) !=
        ORDO_OK) {
        upper->p[0] = 0xff; /* untagged: below the system keys */
        upper->n = 1;
    }
    if (a->from) {
        bytes f = encode_leading(S, "--from", a->from, 0);
        if (bytes_less(*lower, f)) {
            free(lower->p);
            *lower = f;
        } else {
            free(f.p);
        }
    }
    if (a->to) {
        bytes t = encode_leading(S, "--to", a->to, 0);
        if (bytes_less(t, *upper)) {
            free(upper->p);
            *upper = t;
        } else {
            free(t.p);
        }
    }
}

static void print_header(const scanner *S, const size_t *out, size_t nout)
{
    for (size_t i = 0; i < nout; i++)
        printf("%s%s", i ? "," : "", S->table.cols[out[i]].name);
    putchar('\n');
}

/* Prints the rows of [lower, upper), at most a->limit of them. */
static void print_rows(scanner *S, ordo_db *st, const scan_args *a, bytes lower, bytes upper,
                       const size_t *out, size_t nout)
{
    if (!bytes_less(lower, upper))
        return;
    field_text *ft = cli_alloc(S->table.ncols * sizeof *ft);
    size_t *kat = cli_alloc((S->key.ncols + 1) * sizeof *kat);
    ordo_buf km = {0}, tmp = {0};
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
        rows += (unsigned long long)print_row(S, k, kn, v, vn, out, nout, ft, &km, kat, &tmp);
    }
    ordo_scan_close(it);
    ordo_buf_free(&km), ordo_buf_free(&tmp);
    free(kat), free(ft);
}

int cmd_scan(int argc, char **argv)
{
    scan_args a;
    parse_args(argc, argv, &a);
    static char outbuf[1 << 20]; /* before any output */
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    scanner S;
    ordo_table_meta m;
    ordo_db *st = open_table(&S, a.db, a.tag, &m);
    size_t nout;
    size_t *out = select_columns(&S, a.columns, m.schema, &nout);
    bytes lower, upper;
    key_bounds(&S, &a, &lower, &upper);
    if (a.header)
        print_header(&S, out, nout);
    print_rows(&S, st, &a, lower, upper, out, nout);
    cli_flush_stdout();
    free(out), free(lower.p), free(upper.p);
    free(S.is_key), free(S.lead_null);
    ordo_schema_free(&S.table), ordo_schema_free(&S.key);
    ordo_table_meta_free(&m);
    ordo_db_close(st);
    return 0;
}
