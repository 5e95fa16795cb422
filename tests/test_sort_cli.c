/* ordo sort end to end: random CSVs of several types (NULLs, quoting,
 * doubled quotes, quoted line breaks, CRLF, a last row without a line end)
 * come back byte for byte in the order of their keys, checked against an
 * independent oracle: the keys `ordo encode --output hex` gives the same
 * rows, sorted stably by memcmp (hex text compares as its bytes do). All
 * four ASC/DESC x NULLS orders, the LexKey formats, the duplicate policies,
 * inputs many times --memory (merged in several passes), several inputs,
 * --keys-only, --runs, -o (never an input, replaced at the end), gzip and
 * zstd inputs (damaged ones refused), bad rows
 * at FILE:LINE:COLUMN, and kills: SIGTERM leaves nothing, SIGKILL only the
 * .ordo-sort-* folder next to the output. */
#include "ordo_test.h"

#include <sys/stat.h>

#include "load_run.h"

static const char *SCHEMA = "a bigint, b text, c double precision, d date, e boolean";

typedef struct table {
    char **rows; /* each row's CSV text, line end included (the last maybe none) */
    size_t n;
    char *csv; /* header (if any) and rows */
    size_t csv_len;
} table;

static void field_text(char *dst, size_t cap, uint64_t r, int col)
{
    static const char *const texts[] = {"\"\"", "plain", "\"a, comma\"", "\"say \"\"hi\"\"\"",
                                        "\"two\nlines\"", "x", "\"x\"", "caf\xc3\xa9", "A",
                                        "\"\r\n\""};
    static const char *const doubles[] = {"0", "-0", "1.5", "-1.5", "1e300", "-2.5e-300",
                                          "Infinity", "-Infinity", "NaN", "42"};
    if (r % 9 == 0) { /* NULL */
        dst[0] = 0;
        return;
    }
    r /= 9;
    switch (col) {
    case 0:
        snprintf(dst, cap, "%lld", (long long)(r % 61) - 30);
        break;
    case 1:
        snprintf(dst, cap, "%s", texts[r % 10]);
        break;
    case 2:
        snprintf(dst, cap, "%s", doubles[r % 10]);
        break;
    case 3:
        snprintf(dst, cap, "%04d-%02d-%02d", 1990 + (int)(r % 40), 1 + (int)(r / 40 % 12),
                 1 + (int)(r / 480 % 28));
        break;
    default:
        snprintf(dst, cap, "%s", r % 2 ? "t" : "f");
    }
}

static table make_table(size_t n, uint64_t seed, int header, int last_open)
{
    table t = {0};
    t.rows = calloc(n ? n : 1, sizeof *t.rows);
    assert_non_null(t.rows);
    t.n = n;
    size_t cap = 64 + n * 96;
    t.csv = malloc(cap);
    assert_non_null(t.csv);
    t.csv_len = 0;
    if (header)
        t.csv_len = (size_t)sprintf(t.csv, "a,b,c,d,e\n");
    for (size_t i = 0; i < n; i++) {
        char row[400] = "", f[64];
        size_t len = 0;
        for (int c = 0; c < 5; c++) {
            field_text(f, sizeof f, t_rand(&seed), c);
            len += (size_t)snprintf(row + len, sizeof row - len, "%s%s", c ? "," : "", f);
        }
        int crlf = t_rand(&seed) % 4 == 0;
        if (!(last_open && i + 1 == n))
            len += (size_t)snprintf(row + len, sizeof row - len, crlf ? "\r\n" : "\n");
        t.rows[i] = strdup(row);
        memcpy(t.csv + t.csv_len, row, len);
        t.csv_len += len;
    }
    t.csv[t.csv_len] = 0;
    return t;
}

static void table_free(table *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->rows[i]);
    free(t->rows), free(t->csv);
}

static void write_bytes(const char *path, const char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    fclose(f);
}

/* The oracle's keys: `ordo encode --output hex`, one line per row. */
static char **oracle_keys(const char *format, const char *key, const char *path, int header,
                          size_t n)
{
    run r;
    if (header)
        ordo(&r, NULL, "encode", "--format", format, "--schema", SCHEMA, "--key", key, "--header",
             "--output", "hex", path, NULL);
    else
        ordo(&r, NULL, "encode", "--format", format, "--schema", SCHEMA, "--key", key, "--output",
             "hex", path, NULL);
    if (r.status != 0)
        fail_msg("ordo encode --key '%s': status %d: %s", key, r.status, r.err);
    char **keys = calloc(n ? n : 1, sizeof *keys);
    assert_non_null(keys);
    char *p = r.out;
    for (size_t i = 0; i < n; i++) {
        char *nl = strchr(p, '\n');
        assert_non_null(nl);
        *nl = 0;
        keys[i] = strdup(p);
        p = nl + 1;
    }
    assert_int_equal(*p, 0);
    run_free(&r);
    return keys;
}

static char **g_keys;
static int by_key(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int c = strcmp(g_keys[a], g_keys[b]);
    return c ? c : (a > b) - (a < b);
}

/* The rows' order: stable by key. */
static size_t *oracle_order(char **keys, size_t n)
{
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    assert_non_null(order);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    g_keys = keys;
    qsort(order, n, sizeof *order, by_key);
    return order;
}

/* A row as ordo sort writes it: a missing line end added. */
static void append_row(char **out, size_t *len, size_t *cap, const char *row)
{
    size_t n = strlen(row), need = *len + n + 2;
    if (need > *cap) {
        *cap = need * 2;
        *out = realloc(*out, *cap);
        assert_non_null(*out);
    }
    memcpy(*out + *len, row, n);
    *len += n;
    if (!n || row[n - 1] != '\n')
        (*out)[(*len)++] = '\n';
    (*out)[*len] = 0;
}

typedef enum dup_policy { KEEP, FIRST, LAST } dup_policy;

static char *expected(const table *t, char **keys, const size_t *order, int header, dup_policy d)
{
    size_t len = 0, cap = 64;
    char *out = malloc(cap);
    assert_non_null(out);
    out[0] = 0;
    if (header)
        append_row(&out, &len, &cap, "a,b,c,d,e\n");
    for (size_t i = 0; i < t->n; i++) {
        size_t r = order[i];
        int same_prev = i > 0 && !strcmp(keys[order[i - 1]], keys[r]);
        int same_next = i + 1 < t->n && !strcmp(keys[order[i + 1]], keys[r]);
        if (d == KEEP || (d == FIRST && !same_prev) || (d == LAST && !same_next))
            append_row(&out, &len, &cap, t->rows[r]);
    }
    return out;
}

static void free_keys(char **keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(keys[i]);
    free(keys);
}

/* ordo sort of t (in a file) by key against the oracle. */
static void check_sort(const table *t, const char *format, const char *key, int header,
                       const char *memory, const char *dup_name, dup_policy d)
{
    char in[300], outp[300];
    path_in(in, sizeof in, "in.csv");
    path_in(outp, sizeof outp, "sorted.csv");
    write_bytes(in, t->csv, t->csv_len);
    char **keys = oracle_keys(format, key, in, header, t->n);
    size_t *order = oracle_order(keys, t->n);
    char *want = expected(t, keys, order, header, d);
    /* encoder threads: 1 (the default) for small inputs, 3 for larger ones */
    const char *args[32] = {"sort", "--schema", SCHEMA, "--key", key, "--format", format,
                            "--memory", memory, "--on-duplicate", dup_name, "-o", outp,
                            "--threads", t->n > 3000 ? "3" : "1"};
    size_t n = 15;
    if (header)
        args[n++] = "--header";
    args[n++] = in;
    args[n] = NULL;
    run r;
    finish_ordo(start_ordo(args, NULL, 0), &r);
    if (r.status != 0)
        fail_msg("ordo sort --key '%s': status %d: %s", key, r.status, r.err);
    assert_int_equal(r.out_len, 0);
    run_free(&r);
    char *got = slurp(outp, NULL);
    assert_text_equal(got, want);
    free(got), free(want), free(order);
    free_keys(keys, t->n);
    unlink(outp);
    assert_int_equal(t_sh("ls -a %s | grep -q '^.ordo-sort-'", g_dir), 1); /* none left */
}

static void test_orders(void **state)
{
    (void)state;
    static const char *const keys[] = {
        "a",                                      /* ASC NULLS LAST */
        "a DESC",                                 /* DESC NULLS FIRST */
        "c ASC NULLS FIRST, b DESC NULLS LAST",   /* the other two */
        "e DESC NULLS LAST, d ASC NULLS FIRST, b", "b DESC, a, c DESC NULLS LAST",
        "d, e, a DESC NULLS LAST, b ASC NULLS FIRST, c",
    };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        /* the larger ones over several 1 MiB chunks of the encoder */
        table t = make_table(k < 3 ? 3000 : 40000, 1000 + k, (int)(k % 2), (int)(k % 3 == 0));
        check_sort(&t, "ordered", keys[k], (int)(k % 2), "256M", "keep", KEEP);
        table_free(&t);
    }
}

static void test_lexkey(void **state)
{
    (void)state;
    table t = make_table(2000, 7, 1, 0);
    check_sort(&t, "lexkey", "b, a", 1, "256M", "keep", KEEP);
    check_sort(&t, "lexkey-legacy", "d, c", 1, "256M", "keep", KEEP);
    table_free(&t);
}

/* packed (fixed-width NOT NULL key columns, text beside them): against ordo
 * encode's keys, as the other formats; a NULL in a key column is refused
 * naming its line. */
static void test_packed(void **state)
{
    (void)state;
    table t = make_table(3000, 11, 1, 0);
    uint64_t seed = 5;
    t.csv_len = (size_t)sprintf(t.csv, "a,b,c,d,e\n");
    for (size_t i = 0; i < t.n; i++) { /* a and d never NULL; a with duplicates */
        char row[96];
        long long a = (long long)(t_rand(&seed) % 400) - 200;
        unsigned day = (unsigned)(t_rand(&seed) % 28) + 1;
        snprintf(row, sizeof row, "%lld,r%zu,%zu.5,2024-02-%02u,%s\n", a, i, i % 7, day,
                 i % 3 ? "t" : "");
        free(t.rows[i]);
        t.rows[i] = strdup(row);
        t.csv_len += (size_t)sprintf(t.csv + t.csv_len, "%s", row);
    }
    check_sort(&t, "packed", "a DESC, d", 1, "256M", "keep", KEEP);
    check_sort(&t, "packed", "d, a", 1, "1M", "first", FIRST);
    table_free(&t);
    char in[300];
    path_in(in, sizeof in, "null.csv");
    write_bytes(in, "1,x,,,\n,y,,,\n", 12);
    run r;
    ordo(&r, in, "sort", "--schema", SCHEMA, "--key", "a", "--format", "packed", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "<stdin>:2:1: column 'a' (bigint): NULL in a packed key"));
    run_free(&r);
}

/* A collated column: the collation's order (Swedish: z < å < ä < ö), not
 * the bytes' (ä < å). */
static void test_collation(void **state)
{
    (void)state;
    char in[300];
    path_in(in, sizeof in, "coll.csv");
    write_file(in, "\xc3\xb6,1\n\xc3\xa4,2\nz,3\n\xc3\xa5,4\na,5\n\xc3\xa4,6\n");
    run r;
    ordo(&r, NULL, "sort", "--schema", "w text COLLATE \"sv_SE.utf8\", n int", "--key", "w", in,
         NULL);
    if (r.status != 0)
        fail_msg("status %d: %s", r.status, r.err);
    assert_text_equal(r.out, "a,5\nz,3\n\xc3\xa5,4\n\xc3\xa4,2\n\xc3\xa4,6\n\xc3\xb6,1\n");
    run_free(&r);
    ordo(&r, NULL, "sort", "--schema", "w text COLLATE \"sv_SE.utf8\", n int", "--key", "w DESC",
         in, NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, "\xc3\xb6,1\n\xc3\xa4,2\n\xc3\xa4,6\n\xc3\xa5,4\nz,3\na,5\n");
    run_free(&r);
    ordo(&r, NULL, "sort", "--schema", "w text, n int", "--key", "w", in, NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, "a,5\nz,3\n\xc3\xa4,2\n\xc3\xa4,6\n\xc3\xa5,4\n\xc3\xb6,1\n");
    run_free(&r);
    unlink(in);
}

/* Few distinct keys: every policy against the oracle's groups. */
static void test_duplicates(void **state)
{
    (void)state;
    table t = make_table(4000, 99, 1, 1);
    check_sort(&t, "ordered", "e, a DESC", 1, "256M", "keep", KEEP);
    check_sort(&t, "ordered", "e, a DESC", 1, "256M", "first", FIRST);
    check_sort(&t, "ordered", "e, a DESC", 1, "1M", "last", LAST);
    /* error: status 2 naming both rows' lines, no output file */
    char in[300], outp[300];
    path_in(in, sizeof in, "in.csv");
    path_in(outp, sizeof outp, "dup.csv");
    write_file(in, "a,b,c,d,e\n1,x,,,\n2,y,,,\n1,z,,,\n");
    run r;
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "--header", "--on-duplicate",
         "error", "-o", outp, in, NULL);
    assert_int_equal(r.status, 2);
    char want[1400];
    snprintf(want, sizeof want, "%s:4: duplicate key: the same key as %s:2", in, in);
    if (!strstr(r.err, want))
        fail_msg("err '%s', wanted '%s'", r.err, want);
    run_free(&r);
    struct stat st;
    assert_int_equal(stat(outp, &st), -1);
    /* keep is the default */
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "--header", in, NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, "a,b,c,d,e\n1,x,,,\n1,z,,,\n2,y,,,\n");
    run_free(&r);
    table_free(&t);
}

/* --threads 3: the rows in memory merged as key ranges at once, each after
 * the first through a file of its own: to a pipe as to -o; keys only; the
 * first duplicate in key order named, also when it lies in a later range. */
static void test_ranges_at_once(void **state)
{
    (void)state;
    enum { N = 3000 };
    char in[300], outp[300];
    path_in(in, sizeof in, "ranges.csv");
    path_in(outp, sizeof outp, "ranges.out");
    size_t cap = N * 32 + 64, len = 0;
    char *csv = malloc(cap), *want = malloc(cap);
    assert_non_null(csv), assert_non_null(want);
    for (int i = 0; i < N; i++) /* a: a permutation of 0 .. N - 1 */
        len += (size_t)snprintf(csv + len, cap - len, "%d,r%d,,,\n", (i * 7919) % N, i);
    write_bytes(in, csv, len);
    size_t wl = 0;
    for (int a = 0; a < N; a++) /* the row holding a: i = a * 7919^-1 mod N */
        for (int i = 0; i < N; i++)
            if ((i * 7919) % N == a) {
                wl += (size_t)snprintf(want + wl, cap - wl, "%d,r%d,,,\n", a, i);
                break;
            }
    run r;
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "--threads", "3", in, NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, want); /* to a pipe: the ranges' files copied through a buffer */
    run_free(&r);
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "--threads", "3", "-o", outp, in,
         NULL);
    assert_int_equal(r.status, 0);
    char *got = slurp(outp, NULL);
    assert_text_equal(got, want);
    free(got);
    run_free(&r);
    run one;
    ordo(&one, NULL, "sort", "--schema", SCHEMA, "--key", "a DESC", "--keys-only", in, NULL);
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a DESC", "--keys-only", "--threads",
         "3", in, NULL);
    assert_int_equal(r.status, 0), assert_int_equal(one.status, 0);
    assert_text_equal(r.out, one.out);
    run_free(&r), run_free(&one);
    /* a duplicate of the largest key (the last range), then also of the smallest */
    len += (size_t)snprintf(csv + len, cap - len, "%d,late,,,\n", N - 1);
    write_bytes(in, csv, len);
    for (int round = 0; round < 2; round++) {
        ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "--on-duplicate", "error",
             "--threads", "3", "-o", outp, in, NULL);
        assert_int_equal(r.status, 2);
        int first_of = round ? 0 : N - 1; /* the line of the key's first row */
        int line = 0;
        for (int i = 0; i < N; i++)
            if ((i * 7919) % N == first_of)
                line = i + 1;
        char w[1400];
        snprintf(w, sizeof w, "%s:%d: duplicate key: the same key as %s:%d", in,
                 round ? N + 2 : N + 1, in, line);
        if (!strstr(r.err, w))
            fail_msg("err '%s', wanted '%s'", r.err, w);
        run_free(&r);
        len += (size_t)snprintf(csv + len, cap - len, "0,early,,,\n");
        write_bytes(in, csv, len);
    }
    assert_int_equal(t_sh("ls -a %s | grep -q '^.ordo-sort-'", g_dir), 1); /* none left */
    /* standard output closed: a range's file is never taken for it */
    assert_int_equal(t_sh("%s sort --schema '%s' --key a --threads 3 %s >&- 2>/dev/null",
                          ORDO_TOOL_PATH, SCHEMA, in),
                     1);
    /* the reader goes away (SIGPIPE): the ranges' files go too */
    for (int i = 0; i < 40; i++) /* past a pipe's buffer */
        write_bytes(outp, csv, len), t_sh("cat %s >> %s.big", outp, in);
    assert_int_equal(t_sh("{ TMPDIR=%s %s sort --schema '%s' --key a --threads 3 %s.big; "
                          "echo $? > %s.status; } | head -c 1 >/dev/null; "
                          "test \"$(cat %s.status)\" = 141",
                          g_dir, ORDO_TOOL_PATH, SCHEMA, in, in, in),
                     0);
    assert_int_equal(t_sh("ls -a %s | grep -q '^.ordo-sort-'", g_dir), 1);
    t_sh("rm -f %s.big %s.status", in, in);
    free(csv), free(want);
    unlink(in), unlink(outp);
}

/* Inputs many times --memory: many runs, merged in several passes (over
 * 64 runs). The key is unique-ish and small: the expected order is
 * computed here, without the oracle. */
static void test_many_runs(void **state)
{
    (void)state;
    char in[300], outp[300];
    path_in(in, sizeof in, "big.csv");
    path_in(outp, sizeof outp, "big-sorted.csv");
    const size_t n = 75000; /* about 1000 rows a run of 1 MiB: over 64 runs */
    char pad[1001];
    memset(pad, 'p', 1000);
    pad[1000] = 0;
    int *ids = malloc(n * sizeof *ids);
    assert_non_null(ids);
    uint64_t seed = 5;
    FILE *f = fopen(in, "wb");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++) {
        ids[i] = (int)(t_rand(&seed) % 5000);
        fprintf(f, "%d,%zu%s,,,\n", ids[i], i, pad);
    }
    fclose(f);
    run r;
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a DESC", "--memory", "1M", "-o", outp,
         in, NULL);
    if (r.status != 0)
        fail_msg("status %d: %s", r.status, r.err);
    run_free(&r);
    /* expected: ids descending, equal ids in input order (the b column's number) */
    f = fopen(outp, "rb");
    assert_non_null(f);
    char *line = malloc(2000);
    assert_non_null(line);
    long prev_id = 1L << 40, prev_i = -1;
    size_t rows = 0;
    while (fgets(line, 2000, f)) {
        long id = 0, i = 0;
        assert_int_equal(sscanf(line, "%ld,%ld", &id, &i), 2);
        assert_true(id < prev_id || (id == prev_id && i > prev_i));
        assert_int_equal(ids[i], id);
        assert_int_equal(strlen(line), (size_t)snprintf(NULL, 0, "%ld,%ld", id, i) + 1000 + 4);
        prev_id = id, prev_i = i;
        rows++;
    }
    fclose(f);
    assert_int_equal(rows, n);
    free(line), free(ids);
    unlink(in), unlink(outp);
    assert_int_equal(t_sh("ls -a %s | grep -q '^.ordo-sort-'", g_dir), 1);
}

/* Several inputs (stdin among them): one header, rows stable across them. */
static void test_inputs(void **state)
{
    (void)state;
    char in1[300], in2[300];
    path_in(in1, sizeof in1, "one.csv");
    path_in(in2, sizeof in2, "two.csv");
    write_file(in1, "a,b,c,d,e\n2,one-a,,,\n1,one-b,,,\n");
    write_file(in2, "a,b,c,d,e\n1,two-a,,,\n2,two-b,,,");
    run r;
    ordo(&r, in2, "sort", "--schema", SCHEMA, "--key", "a", "--header", in1, "-", NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, "a,b,c,d,e\n1,one-b,,,\n1,two-a,,,\n2,one-a,,,\n2,two-b,,,\n");
    run_free(&r);
    /* a byte-order mark: the output starts with it too (byte for byte) */
    char bom[300];
    path_in(bom, sizeof bom, "bom.csv");
    write_file(bom, "\xef\xbb\xbf" "a,b,c,d,e\n1,x,,,\n2,y,,,\n");
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "--header", bom, NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, "\xef\xbb\xbf" "a,b,c,d,e\n1,x,,,\n2,y,,,\n");
    run_free(&r);
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a DESC", bom, NULL);
    assert_int_equal(r.status, 2); /* the header is a bad row without --header */
    run_free(&r);
    write_file(bom, "\xef\xbb\xbf" "2,y,,,\n1,x,,,\n");
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", bom, NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, "\xef\xbb\xbf" "1,x,,,\n2,y,,,\n");
    run_free(&r);
    unlink(bom);
    char empty[300];
    path_in(empty, sizeof empty, "empty.csv");
    write_file(empty, "");
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "--header", empty, in1, NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, "a,b,c,d,e\n1,one-b,,,\n2,one-a,,,\n");
    run_free(&r);
    unlink(empty);
        /* --keys-only: the keys as encode --output hex writes them */
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a DESC", "--header", "--keys-only", in1,
         in2, NULL);
    assert_int_equal(r.status, 0);
    run e;
    ordo(&e, NULL, "encode", "--format", "ordered", "--schema", SCHEMA, "--key", "a DESC",
         "--header", "--output", "hex", in1, NULL);
    assert_int_equal(e.status, 0);
    /* one.csv holds 2 then 1: the keys of 2, 2, 1, 1 */
    char want[600];
    int l1 = (int)(strchr(e.out, '\n') - e.out + 1);
    snprintf(want, sizeof want, "%.*s%.*s%s%s", l1, e.out, l1, e.out, e.out + l1, e.out + l1);
    assert_text_equal(r.out, want);
    run_free(&r), run_free(&e);
}

/* -o: never an input (also through a symbolic link), an existing output
 * replaced at the end, a failed sort leaves the old one as it was. */
static void test_output(void **state)
{
    (void)state;
    char in[300], outp[300], link[300];
    path_in(in, sizeof in, "in.csv");
    path_in(outp, sizeof outp, "out.csv");
    path_in(link, sizeof link, "in-link.csv");
    write_file(in, "2,b,,,\n1,a,,,\n");
    unlink(link);
    assert_int_equal(symlink(in, link), 0);
    run r;
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "-o", in, in, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "is also an input"));
    run_free(&r);
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "-o", link, in, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "is also an input"));
    run_free(&r);
    ordo(&r, in, "sort", "--schema", SCHEMA, "--key", "a", "-o", in, "-", NULL);
    assert_int_equal(r.status, 2);
    run_free(&r);
    char *same = slurp(in, NULL);
    assert_string_equal(same, "2,b,,,\n1,a,,,\n");
    free(same);
    write_file(outp, "old\n");
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "-o", outp, in, NULL);
    assert_int_equal(r.status, 0);
    run_free(&r);
    char *got = slurp(outp, NULL);
    assert_string_equal(got, "1,a,,,\n2,b,,,\n");
    free(got);
    /* a bad row: FILE:LINE:COLUMN as load prints it; the old output stays */
    write_file(outp, "old\n");
    write_file(in, "2,b,,,\n1,a,,,\n3,c,nope,,\n");
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "-o", outp, in, NULL);
    assert_int_equal(r.status, 2);
    char want[1400];
    snprintf(want, sizeof want, "%s:3:5: column 'c' (double precision)", in);
    if (strncmp(r.err, want, strlen(want)))
        fail_msg("err '%s', wanted '%s...'", r.err, want);
    run_free(&r);
    got = slurp(outp, NULL);
    assert_string_equal(got, "old\n");
    free(got);
    assert_int_equal(t_sh("ls -a %s | grep -q '^.ordo-sort-'", g_dir), 1);
    unlink(link), unlink(outp), unlink(in);
}

/* --runs DIR: the sorted runs stay there, the output is written too. */
static void test_runs_dir(void **state)
{
    (void)state;
    char in[300], dir[300];
    path_in(in, sizeof in, "in.csv");
    path_in(dir, sizeof dir, "runs");
    assert_int_equal(mkdir(dir, 0700), 0);
    table t = make_table(20000, 3, 0, 0);
    write_bytes(in, t.csv, t.csv_len);
    run r;
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "b, a", "--memory", "1M", "--runs", dir,
         in, NULL);
    assert_int_equal(r.status, 0);
    char **keys = oracle_keys("ordered", "b, a", in, 0, t.n);
    size_t *order = oracle_order(keys, t.n);
    char *want = expected(&t, keys, order, 0, KEEP);
    assert_text_equal(r.out, want);
    run_free(&r);
    assert_int_equal(t_sh("test -s %s/run-000000 && test -s %s/run-000001", dir, dir), 0);
    free(want), free(order);
    free_keys(keys, t.n);
    table_free(&t);
    assert_int_equal(t_sh("rm -rf %s", dir), 0);
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "--runs", dir, in, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--runs: "));
    run_free(&r);
    unlink(in);
}

/* gzip and zstd inputs (told by their bytes, several members or frames,
 * from a file or standard input) sort as the plain file does; damaged or
 * truncated ones are refused naming the file, with no output. */
static void test_compressed(void **state)
{
    (void)state;
    char in[300], gz[300], zst[300], outp[300];
    path_in(in, sizeof in, "plain.csv");
    path_in(gz, sizeof gz, "data.gz");
    path_in(zst, sizeof zst, "data.bin");
    path_in(outp, sizeof outp, "z-out.csv");
    table t = make_table(40000, 77, 1, 0);
    write_bytes(in, t.csv, t.csv_len);
    /* two members / frames: the first 1000 bytes, then the rest */
    assert_int_equal(t_sh("cd %s && head -c 1000 plain.csv | gzip > data.gz && tail -c +1001 "
                          "plain.csv | gzip >> data.gz",
                          g_dir),
                     0);
    assert_int_equal(t_sh("cd %s && head -c 1000 plain.csv | zstd -q > data.bin && tail -c +1001 "
                          "plain.csv | zstd -q >> data.bin",
                          g_dir),
                     0);
    run plain, r;
    ordo(&plain, NULL, "sort", "--schema", SCHEMA, "--key", "b DESC, a", "--header", in, NULL);
    assert_int_equal(plain.status, 0);
    assert_true(plain.out_len > t.csv_len / 2);
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "b DESC, a", "--header", gz, NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, plain.out);
    run_free(&r);
    ordo(&r, zst, "sort", "--schema", SCHEMA, "--key", "b DESC, a", "--header", "--threads", "2",
         "-", NULL);
    assert_int_equal(r.status, 0);
    assert_text_equal(r.out, plain.out);
    run_free(&r);
    /* through a pipe (not seekable: read ahead to tell the kind, handed on), and plain too */
    char want_path[300];
    path_in(want_path, sizeof want_path, "want.csv");
    write_bytes(want_path, plain.out, plain.out_len);
    static const char *const piped[] = {"data.gz", "data.bin", "plain.csv"};
    for (int i = 0; i < 3; i++)
        if (t_sh("cd %s && cat %s | '%s' sort --schema '%s' --key 'b DESC, a' --header > "
                 "piped.csv && cmp -s piped.csv want.csv",
                 g_dir, piped[i], ORDO_TOOL_PATH, SCHEMA) != 0)
            fail_msg("cat %s | ordo sort: not the plain file's output", piped[i]);
    unlink(want_path);
    run_free(&plain);
    /* truncated: refused, the output not made */
    assert_int_equal(t_sh("cd %s && head -c 5000 data.gz > cut.gz && head -c 5000 data.bin > "
                          "cut.zst",
                          g_dir),
                     0);
    static const char *const cut[][2] = {{"cut.gz", "truncated gzip data"},
                                         {"cut.zst", "truncated zstd data"}};
    for (int i = 0; i < 2; i++) {
        char path[300], want[400];
        path_in(path, sizeof path, cut[i][0]);
        ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "--header", "-o", outp, path,
             NULL);
        snprintf(want, sizeof want, "%s: %s", path, cut[i][1]);
        assert_int_equal(r.status, 2);
        if (!strstr(r.err, want))
            fail_msg("err '%s', wanted '%s'", r.err, want);
        run_free(&r);
        struct stat st;
        assert_int_equal(stat(outp, &st), -1);
        unlink(path);
    }
    assert_int_equal(t_sh("ls -a %s | grep -q '^.ordo-sort-'", g_dir), 1);
    unlink(in), unlink(gz), unlink(zst);
    table_free(&t);
}

/* Killed while sorting: SIGTERM removes the temporary folder (and writes no
 * output), SIGKILL leaves only the .ordo-sort-* folder. */
static void kill_mid_sort(int sig)
{
    char in[300], outp[300];
    path_in(in, sizeof in, "kill.csv");
    path_in(outp, sizeof outp, "kill-out.csv");
    FILE *f = fopen(in, "wb");
    assert_non_null(f);
    uint64_t seed = 11;
    for (size_t i = 0; i < 400000; i++)
        fprintf(f, "%llu,row %zu with some text,1.5,2020-01-01,t\n",
                (unsigned long long)(t_rand(&seed) % 1000000), i);
    fclose(f);
    const char *args[] = {"sort", "--schema", SCHEMA, "--key", "a, b", "--memory", "1M",
                          "-o", outp, in, NULL};
    pid_t pid = start_ordo(args, NULL, 0);
    int spilled = 0;
    for (int i = 0; i < 4000 && !spilled; i++) {
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
        spilled = t_sh("ls %s/.ordo-sort-*/run-000001 >/dev/null 2>&1", g_dir) == 0;
    }
    kill(pid, spilled ? sig : SIGKILL);
    assert_true(spilled);
    run r;
    finish_ordo(pid, &r);
    struct stat st;
    assert_int_equal(stat(outp, &st), -1); /* no output */
    if (sig == SIGTERM) {
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "interrupted by signal 15"));
        assert_int_equal(t_sh("ls -a %s | grep -q '^.ordo-sort-'", g_dir), 1);
    } else {
        assert_int_equal(r.status, 128 + SIGKILL);
        assert_int_equal(t_sh("test $(ls -a %s | grep -c '^.ordo-sort-') = 1", g_dir), 0);
        assert_int_equal(t_sh("rm -rf %s/.ordo-sort-*", g_dir), 0);
    }
    run_free(&r);
    unlink(in);
}

static void test_sigterm(void **state)
{
    (void)state;
    kill_mid_sort(SIGTERM);
}

static void test_sigkill(void **state)
{
    (void)state;
    kill_mid_sort(SIGKILL);
}

static void test_usage(void **state)
{
    (void)state;
    run r;
    ordo(&r, NULL, "sort", "--schema", SCHEMA, NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "needs --schema and --key"));
    run_free(&r);
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "--on-duplicate", "never", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "expected keep, error, first or last"));
    run_free(&r);
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "--format", "nope", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "sort: --format: unknown format 'nope' (ordered, packed,"));
    run_free(&r);
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "zz", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "sort: --key: "));
    run_free(&r);
    ordo(&r, NULL, "sort", "--schema", SCHEMA, "--key", "a", "--memory", "100K", NULL);
    assert_int_equal(r.status, 2);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orders),      cmocka_unit_test(test_lexkey), cmocka_unit_test(test_packed),
        cmocka_unit_test(test_collation),
        cmocka_unit_test(test_duplicates),  cmocka_unit_test(test_ranges_at_once),
        cmocka_unit_test(test_many_runs),
        cmocka_unit_test(test_inputs),      cmocka_unit_test(test_output),
        cmocka_unit_test(test_runs_dir),    cmocka_unit_test(test_compressed),
        cmocka_unit_test(test_sigterm),
        cmocka_unit_test(test_sigkill),     cmocka_unit_test(test_usage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
