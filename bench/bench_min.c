/* Minimum-time comparison for a busy machine: encodes the fixed schema
 * `a bigint, b double precision, c integer` (or `a bigint`) with each named
 * implementation and format, and copies the same bytes with memcpy, in
 * short interleaved samples, keeping each one's fastest. Short samples
 * taken round-robin are mostly the ones no other process interrupted, so
 * the minimums and their ratios hold still where `ordo bench`'s 50 ms
 * samples swing with the load.
 *
 *   bench_min ROWS SCHEMA(fixed|bigint) SAMPLES FORMAT:IMPL...
 *   e.g. bench_min 4096 fixed 300 lexkey:avx2 lexkey:avx512 ordered:avx512
 *
 * Prints each one's minimum ns per batch and rows/s, and its ratio to the
 * memcpy of its own output bytes. Built with -DORDO_BUILD_BENCH=ON. */
#include "ordo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

typedef struct entry {
    ordo_format fmt;
    const char *name, *impl;
    size_t total;
    uint8_t *dst, *src;
    double best, best_copy;
} entry;

static ordo_format format_of(const char *s, size_t n)
{
    static const struct {
        const char *name;
        ordo_format fmt;
    } f[] = {{"lexkey", ORDO_FORMAT_LEXKEY}, {"ordered", ORDO_FORMAT_ORDERED},
             {"packed", ORDO_FORMAT_PACKED}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (strlen(f[i].name) == n && !strncmp(s, f[i].name, n))
            return f[i].fmt;
    fprintf(stderr, "bench_min: unknown format '%.*s'\n", (int)n, s);
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: bench_min ROWS fixed|bigint SAMPLES FORMAT:IMPL...\n");
        return 2;
    }
    size_t rows = strtoul(argv[1], NULL, 10), samples = strtoul(argv[3], NULL, 10);
    size_t ncols = strcmp(argv[2], "bigint") ? 3 : 1, per = rows > 100000 ? 1 : 4;
    int64_t *a = malloc(8 * rows);
    double *b = malloc(8 * rows);
    int32_t *c = malloc(4 * rows);
    if (!rows || !a || !b || !c)
        return 2;
    uint64_t x = UINT64_C(0x9e3779b97f4a7c15);
    for (size_t i = 0; i < rows; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        a[i] = (int64_t)x;
        b[i] = (double)(int64_t)x / 1e6;
        c[i] = (int32_t)(x >> 17);
    }
    ordo_column cols[3] = {{.type = ORDO_TYPE_INT64, .values = a},
                           {.type = ORDO_TYPE_FLOAT64, .values = b},
                           {.type = ORDO_TYPE_INT32, .values = c}};
    size_t n = (size_t)argc - 4;
    entry *e = calloc(n, sizeof *e);
    for (size_t k = 0; k < n; k++) {
        const char *arg = argv[4 + k], *colon = strchr(arg, ':');
        if (!colon) {
            fprintf(stderr, "bench_min: expected FORMAT:IMPL, got '%s'\n", arg);
            return 2;
        }
        e[k] = (entry){format_of(arg, (size_t)(colon - arg)), arg, colon + 1, 0, NULL, NULL,
                       1e300, 1e300};
        size_t stride;
        ordo_status s = ordo_batch_size(e[k].fmt, cols, ncols, rows, &e[k].total, &stride, NULL);
        if (s != ORDO_OK || !stride) {
            fprintf(stderr, "bench_min: %s: %s\n", arg, s ? ordo_status_message(s) : "no stride");
            return 2;
        }
        e[k].dst = malloc(e[k].total);
        e[k].src = malloc(e[k].total);
        if (!e[k].dst || !e[k].src)
            return 2;
        memset(e[k].src, 1, e[k].total);
        memset(e[k].dst, 0, e[k].total);
    }
    for (size_t rep = 0; rep < samples; rep++) {
        for (size_t k = 0; k < n; k++) {
            double t0 = now_ns();
            for (size_t i = 0; i < per; i++) {
                ordo_status s = ordo_batch_encode_impl(e[k].impl, e[k].fmt, cols, ncols, rows,
                                                       e[k].dst, e[k].total, NULL, NULL);
                if (s != ORDO_OK) {
                    fprintf(stderr, "bench_min: %s: %s\n", e[k].name, ordo_status_message(s));
                    return 2;
                }
            }
            double t = (now_ns() - t0) / (double)per;
            e[k].best = t < e[k].best ? t : e[k].best;
            t0 = now_ns();
            for (size_t i = 0; i < per; i++)
                memcpy(e[k].dst, e[k].src, e[k].total);
            t = (now_ns() - t0) / (double)per;
            e[k].best_copy = t < e[k].best_copy ? t : e[k].best_copy;
        }
    }
    printf("rows: %zu  schema: %s  samples: %zu (min of each)\n", rows,
           ncols == 3 ? "a bigint, b double precision, c integer" : "a bigint", samples);
    printf("%-20s %12s %14s %12s %10s %10s\n", "format:impl", "ns/batch", "rows/s",
           "key bytes", "x memcpy", "x first");
    for (size_t k = 0; k < n; k++)
        printf("%-20s %12.0f %14.0f %12zu %10.2f %10.2f\n", e[k].name, e[k].best,
               (double)rows / e[k].best * 1e9, e[k].total, e[k].best_copy / e[k].best,
               e[0].best / e[k].best);
    for (size_t k = 0; k < n; k++)
        free(e[k].dst), free(e[k].src);
    free(e), free(a), free(b), free(c);
    return 0;
}
