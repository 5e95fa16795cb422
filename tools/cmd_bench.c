/* ordo bench: encode N generated rows with each implementation, and copy
 * the same number of output bytes with memcpy, in one run. */
#include "bench_identity.h"
#include "bench_values.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng = UINT64_C(0x2545f4914f6cdd1d);

static uint64_t next(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * UINT64_C(2685821657736338717);
}

/* 1 with probability p (never a draw when p is 0: the values stay those
 * of a run without NULLs). */
static int chance(double p) { return p > 0 && (double)(next() >> 11) * 0x1p-53 < p; }

/* Random values of every type; text is 8 to 16 letters (about 12); the
 * types a random word does not fill validly as text (bench_values.h). A
 * value is NULL with probability nulls where the format has NULLs. */
static void generate(ordo_rows *b, const ordo_schema *s, size_t rows, ordo_format fmt, double nulls)
{
    uint8_t text[16];
    ordo_buf tb = {0};
    if (fmt == ORDO_FORMAT_PACKED)
        nulls = 0; /* packed keys are NOT NULL */
    for (size_t r = 0; r < rows; r++) {
        for (size_t c = 0; c < s->ncols; c++) {
            const ordo_schema_column *sc = &s->cols[c];
            ordo_status st;
            if (chance(nulls)) {
                if ((st = ordo_rows_put_null(b, c)) != ORDO_OK)
                    cli_fail("bench: column '%s': %s", sc->name, ordo_status_message(st));
                continue;
            }
            if (bench_value_is_text(sc)) {
                ordo_error err;
                tb.len = 0;
                if (bench_value_text(sc, next, nulls, &tb) != ORDO_OK)
                    cli_out_of_memory();
                if ((st = ordo_rows_put_text(b, c, tb.data, tb.len, 1, &err)) != ORDO_OK)
                    cli_fail("bench: column '%s': generated '%s': %s", sc->name, tb.data, err.message);
                continue;
            }
            uint64_t x = next(), v[2] = {x, 0};
            const void *p = v;
            size_t n = ordo_value_size(sc);
            switch (sc->type) {
            case ORDO_TYPE_STRING:
            case ORDO_TYPE_BYTES:
                n = 8 + x % 9;
                for (size_t i = 0; i < n; i++)
                    text[i] = (uint8_t)('a' + (next() % 26));
                p = text;
                break;
            case ORDO_TYPE_BOOL:
                text[0] = (uint8_t)(x & 1), p = text, n = 1;
                break;
            case ORDO_TYPE_FLOAT64: {
                double d = ((double)(int64_t)x) / 1e6;
                memcpy(v, &d, 8);
                break;
            }
            case ORDO_TYPE_FLOAT32: {
                float f = (float)((double)(int32_t)x / 1e3);
                memcpy(v, &f, 4);
                break;
            }
            case ORDO_TYPE_UUID:
                v[1] = next();
                break;
            case ORDO_TYPE_TIME:
                if (sc->time_unit == ORDO_UNIT_DAY32) {
                    int32_t d = (int32_t)(x % 40000);
                    memcpy(v, &d, 4);
                } else {
                    int64_t ns = (int64_t)(x % (UINT64_C(1) << 62));
                    memcpy(v, &ns, 8);
                }
                break;
            default:
                break;
            }
            st = ordo_rows_put_value(b, c, p, n);
            if (st != ORDO_OK)
                cli_fail("bench: column '%s': %s", sc->name, ordo_status_message(st));
        }
        ordo_rows_end_row(b);
    }
    ordo_buf_free(&tb);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct job {
    const char *impl; /* NULL: memcpy */
    ordo_format fmt;
    const ordo_column *cols;
    size_t ncols, rows, batch;
    uint8_t *dst, *src_copy;
    size_t total;
    size_t *offsets;  /* NULL: a fixed stride, the keys need no offsets */
    size_t *chunk_at; /* output position of each batch */
} job;

static ordo_status run_once(const job *j)
{
    if (!j->impl) {
        memcpy(j->dst, j->src_copy, j->total);
        return ORDO_OK;
    }
    for (size_t r0 = 0, k = 0; r0 < j->rows; r0 += j->batch, k++) {
        size_t n = j->rows - r0 < j->batch ? j->rows - r0 : j->batch;
        ordo_column cols[64];
        for (size_t c = 0; c < j->ncols; c++) {
            cols[c] = j->cols[c];
            cols[c].offset += r0;
        }
        ordo_status s = ordo_batch_encode_impl(j->impl, j->fmt, cols, j->ncols, n,
                                               j->dst + j->chunk_at[k], j->total - j->chunk_at[k],
                                               j->offsets ? j->offsets + r0 + k : NULL, NULL);
        if (s != ORDO_OK)
            return s;
    }
    return ORDO_OK;
}

/* Best seconds per run over several measurements of at least 50 ms each. */
static double measure(const job *j, ordo_status *status)
{
    size_t iters = 1;
    double best = 1e30;
    *status = run_once(j); /* warm-up, and pages touched */
    if (*status != ORDO_OK)
        return 0;
    for (;;) {
        double t0 = now();
        for (size_t i = 0; i < iters; i++)
            run_once(j);
        double t = now() - t0;
        if (t >= 0.05 || iters >= (SIZE_MAX >> 2))
            break;
        iters *= t > 0.005 ? (size_t)(0.06 / t) + 1 : 16;
    }
    for (int rep = 0; rep < 7; rep++) {
        double t0 = now();
        for (size_t i = 0; i < iters; i++)
            run_once(j);
        double t = (now() - t0) / (double)iters;
        if (t < best)
            best = t;
    }
    return best;
}

/* Before timing: the implementation's keys, byte for byte, against the
 * scalar reference's; a mismatch fails the benchmark, naming its first row
 * and column. stride: the keys' length when the job has no offsets. */
static ordo_status check_identity(const job *j, const ordo_schema *s, size_t stride)
{
    ordo_status st = run_once(j);
    if (st != ORDO_OK || !strcmp(j->impl, "scalar"))
        return st;
    bench_layout l = {j->fmt, j->cols, j->ncols, j->rows, j->batch, j->offsets ? 0 : stride,
                      j->chunk_at};
    bench_mismatch m;
    int same;
    st = bench_check_identity(ordo_batch_encode_impl, j->impl, &l, j->dst, j->offsets, &same, &m);
    if (st != ORDO_OK)
        cli_fail("bench: the scalar reference: %s", ordo_status_message(st));
    if (!same)
        cli_fail("bench: --impl %s: the keys differ from the scalar reference's at row %zu, %s%s%s",
                 j->impl, m.row, m.column < s->ncols ? "column '" : "",
                 m.column < s->ncols ? s->cols[m.column].name : "a column only in the batch",
                 m.column < s->ncols ? "'" : "");
    return ORDO_OK;
}

/* --rows and --batch: into the size_t at dst. */
static void parse_count(void *dst, const char *what, const char *v)
{
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    if (!*v || *end || x == 0 || v[0] == '-')
        cli_fail("bench: %s: expected a positive integer, got '%s'", what, v);
    *(size_t *)dst = (size_t)x;
}

/* --nulls: a fraction 0..1 into the double at dst. */
static void parse_fraction(void *dst, const char *what, const char *v)
{
    char *end;
    double x = strtod(v, &end);
    if (!*v || *end || !(x >= 0 && x <= 1))
        cli_fail("bench: %s: expected a fraction from 0 to 1, got '%s'", what, v);
    *(double *)dst = x;
}

int cmd_bench(int argc, char **argv)
{
    const char *format = "lexkey", *schema_text = NULL, *impls = NULL;
    size_t rows = 0, batch = 0;
    double nulls = 0;
    int json = 0, sweep = 0;
    const opt opts[] = {
        {"--format", OPT_STRING, &format, NULL},
        {"--schema", OPT_STRING, &schema_text, NULL},
        {"--rows", OPT_CALL, &rows, parse_count},
        {"--batch", OPT_CALL, &batch, parse_count},
        {"--impl", OPT_STRING, &impls, NULL},
        {"--json", OPT_FLAG, &json, NULL},
        {"--sweep", OPT_FLAG, &sweep, NULL},
        {"--nulls", OPT_CALL, &nulls, parse_fraction},
    };
    const opt_spec spec = {"bench", NULL, "unknown argument", OPT_POS_NONE, OPT_EQUALS, opts,
                           sizeof opts / sizeof opts[0]};
    cli_options(&spec, argc, argv, NULL);
    if (!schema_text || !rows)
        cli_fail("bench: needs --schema SCHEMA and --rows N");
    if (sweep)
        return cli_bench_sweep(argc, argv, rows, batch);
    ordo_format fmt = cli_format("bench", format);
    ordo_schema s;
    ordo_error err;
    if (ordo_schema_parse(schema_text, fmt, &s, &err) != ORDO_OK)
        cli_fail("bench: --schema: %s", err.message);
    if (s.ncols > 64)
        cli_fail("bench: --schema: at most 64 columns");
    if (!batch || batch > rows)
        batch = rows;

    ordo_rows *b = NULL;
    if (ordo_rows_open(&s, rows, &b) != ORDO_OK)
        cli_out_of_memory();
    generate(b, &s, rows, fmt, nulls);
    const ordo_column *cols = ordo_rows_columns(b, NULL);
    size_t nchunks = (rows + batch - 1) / batch;
    size_t *chunk_at = cli_alloc((nchunks + 1) * sizeof(size_t)), total = 0, stride = 0;
    int fixed = 1; /* every batch of one stride: encoded without offsets, as the API allows */
    for (size_t k = 0; k < nchunks; k++) {
        ordo_column cc[64];
        size_t n = rows - k * batch < batch ? rows - k * batch : batch, t = 0;
        for (size_t c = 0; c < s.ncols; c++)
            cc[c] = cols[c], cc[c].offset = k * batch;
        ordo_status st = ordo_batch_size(fmt, cc, s.ncols, n, &t, &stride, NULL);
        if (st != ORDO_OK)
            cli_fail("bench: %s", ordo_status_message(st));
        chunk_at[k] = total;
        total += t;
        fixed &= stride != 0;
    }
    uint8_t *dst = cli_alloc(total), *src = cli_alloc(total);
    size_t *offsets = cli_alloc((rows + nchunks) * sizeof(size_t));
    memset(dst, 0, total);
    memset(src, 1, total);

    /* the implementations: as given, or every one the library lists */
    size_t list_len = impls ? strlen(impls) + 1 : 1;
    for (size_t i = 0; !impls && ordo_impl_at(i, NULL); i++)
        list_len += strlen(ordo_impl_at(i, NULL)) + 1;
    char *list = cli_alloc(list_len);
    int explicit_list = impls != NULL;
    snprintf(list, list_len, "%s", impls ? impls : "");
    for (size_t i = 0, at = 0; !impls && ordo_impl_at(i, NULL); i++)
        at += (size_t)snprintf(list + at, list_len - at, "%s%s", i ? "," : "", ordo_impl_at(i, NULL));
    struct result {
        const char *name;
        double secs;
    } *res = cli_alloc((list_len + 1) * sizeof *res); /* more than the names, memcpy's too */
    size_t nres = 0;
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        job j = {tok, fmt, cols, s.ncols, rows, batch, dst, src, total, fixed ? NULL : offsets,
                 chunk_at};
        ordo_status st = check_identity(&j, &s, stride);
        double secs = st == ORDO_OK ? measure(&j, &st) : 0;
        if (st == ORDO_ERR_UNSUPPORTED_IMPL && !explicit_list)
            continue;
        if (st != ORDO_OK)
            cli_fail("bench: --impl %s: %s", tok, ordo_status_message(st));
        res[nres++] = (struct result){tok, secs};
    }
    job mj = {NULL, fmt, cols, s.ncols, rows, batch, dst, src, total, offsets, chunk_at};
    ordo_status st;
    res[nres++] = (struct result){"memcpy", measure(&mj, &st)};

    double scalar = 0, mem = res[nres - 1].secs;
    for (size_t i = 0; i < nres; i++)
        if (!strcmp(res[i].name, "scalar"))
            scalar = res[i].secs;
    if (json) {
        printf("{\"schema\": \"");
        for (const char *p = schema_text; *p; p++)
            printf(*p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
        printf("\", \"format\": \"%s\", \"rows\": %zu, \"batch\": %zu, \"key_bytes\": %zu, "
               "\"results\": [",
               format, rows, batch, total);
        for (size_t i = 0; i < nres; i++)
            printf("%s{\"impl\": \"%s\", \"rows_per_s\": %.0f, \"bytes_per_s\": %.0f, "
                   "\"values_per_s\": %.0f}",
                   i ? ", " : "", res[i].name, (double)rows / res[i].secs,
                   (double)total / res[i].secs, (double)rows * (double)s.ncols / res[i].secs);
        printf("]}\n");
    } else {
        printf("schema: %s\nformat: %s  rows: %zu  batch: %zu  key bytes: %zu (%s)\n",
               schema_text, format, rows, batch, total,
               fixed ? "fixed stride" : "variable length");
        printf("%-8s %14s %16s %12s %10s %10s\n", "impl", "rows/s", "values/s", "GB/s",
               "x scalar", "x memcpy");
        for (size_t i = 0; i < nres; i++)
            printf("%-8s %14.0f %16.0f %12.3f %10.2f %10.2f\n", res[i].name,
                   (double)rows / res[i].secs, (double)rows * (double)s.ncols / res[i].secs,
                   (double)total / res[i].secs / 1e9, scalar ? scalar / res[i].secs : 0.0,
                   mem / res[i].secs);
    }
    free(dst), free(src), free(offsets), free(chunk_at), free(res), free(list);
    ordo_rows_close(b);
    ordo_schema_free(&s);
    return 0;
}
