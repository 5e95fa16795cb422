/* Instructions per row of ordered batches, for callgrind: deterministic
 * counts where a shared machine makes timings meaningless. Builds one batch
 * of a schema and encodes it `iters` times through one implementation;
 * count only ordo_batch_encode_impl and divide by rows x iters.
 *
 *   cc -O2 -std=c11 -Iinclude bench/callgrind_rows.c b/libordo.a -o /tmp/cg_rows
 *   valgrind --tool=callgrind --toggle-collect=ordo_batch_encode_impl \
 *       /tmp/cg_rows SCHEMA IMPL ROWS ITERS [desc|lexkey]
 *
 * SCHEMA: mixed (a bigint, s text of 8-16 letters, d double precision),
 * numtext (a bigint, m numeric(12,2) as text, the path decimal128 took
 * before) or dec128 (the same values as decimal128, scale 2; built with
 * -DORDO_SCALED_NUMERIC, which older libraries lack), dec128n (the same,
 * one m in 16 NULL), num64 (the same values as int64, scale 2), textdec
 * (a bigint, s text as in mixed, m as in dec128: the general tile path); `desc`: every column
 * DESC NULLS FIRST; `lexkey`: the LexKey format instead (mixed only), for
 * comparison. Not part of the build. */
#include "ordo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next(uint64_t *s)
{
    uint64_t x = *s += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr,
                "usage: cg_rows mixed|numtext|dec128|dec128n|num64|textdec IMPL ROWS ITERS "
                "[desc|lexkey]\n");
        return 2;
    }
    const char *schema = argv[1], *impl = argv[2];
    size_t n = (size_t)strtoull(argv[3], NULL, 10), iters = (size_t)strtoull(argv[4], NULL, 10);
    uint64_t seed = 25;
    int64_t *ids = malloc(n * sizeof *ids), *offs = malloc((n + 1) * sizeof *offs);
    double *ds = malloc(n * sizeof *ds);
    char *text = malloc(n * 24 + 1);
    uint8_t *dec = malloc(n * 16), *valid = malloc(n / 8 + 1);
    int64_t *cents64 = malloc(n * sizeof *cents64);
    offs[0] = 0;
    for (size_t i = 0; i < n; i++) {
        ids[i] = (int64_t)next(&seed);
        ds[i] = (double)(int64_t)next(&seed) / 1e6;
        int64_t cents = (int64_t)(next(&seed) % UINT64_C(1000000000000)); /* 12 digits */
        if (next(&seed) & 1)
            cents = -cents;
        int64_t hi = cents < 0 ? -1 : 0;
        memcpy(dec + 16 * i, &cents, 8);
        memcpy(dec + 16 * i + 8, &hi, 8);
        cents64[i] = cents;
        size_t len;
        if (!strcmp(schema, "mixed") || !strcmp(schema, "textdec")) {
            len = 8 + next(&seed) % 9;
            for (size_t k = 0; k < len; k++)
                text[offs[i] + (int64_t)k] = (char)('a' + next(&seed) % 26);
        } else {
            uint64_t mag = (uint64_t)(cents < 0 ? -cents : cents);
            len = (size_t)sprintf(text + offs[i], "%s%llu.%02u", cents < 0 ? "-" : "",
                                  (unsigned long long)(mag / 100), (unsigned)(mag % 100));
        }
        offs[i + 1] = offs[i] + (int64_t)len;
    }
    ordo_column cols[3] = {{.type = ORDO_TYPE_INT64, .values = ids}};
    size_t ncols = 2;
    if (!strcmp(schema, "mixed")) {
        cols[1] = (ordo_column){.type = ORDO_TYPE_STRING, .values = text, .offsets = offs,
                                .offset_bits = 64};
        cols[2] = (ordo_column){.type = ORDO_TYPE_FLOAT64, .values = ds};
        ncols = 3;
    } else if (!strcmp(schema, "numtext")) {
        cols[1] = (ordo_column){.type = ORDO_TYPE_NUMERIC, .values = text, .offsets = offs,
                                .offset_bits = 64};
    } else {
#ifdef ORDO_SCALED_NUMERIC
        for (size_t i = 0; i < n / 8 + 1; i++) /* one bit in 16 clear */
            valid[i] = (uint8_t)~(1u << (next(&seed) % 16)); /* (a shift of 8 or more: none) */
        cols[1] = (ordo_column){.type = ORDO_TYPE_NUMERIC, .values = dec,
                                .numeric_layout = ORDO_NUMERIC_DECIMAL128, .numeric_scale = 2};
        if (!strcmp(schema, "dec128n"))
            cols[1].validity = valid;
        if (!strcmp(schema, "textdec")) {
            cols[2] = cols[1];
            cols[1] = (ordo_column){.type = ORDO_TYPE_STRING, .values = text, .offsets = offs,
                                    .offset_bits = 64};
            ncols = 3;
        }
        if (!strcmp(schema, "num64"))
            cols[1] = (ordo_column){.type = ORDO_TYPE_NUMERIC, .values = cents64,
                                    .numeric_layout = ORDO_NUMERIC_INT64, .numeric_scale = 2};
#else
        fprintf(stderr, "dec128 needs -DORDO_SCALED_NUMERIC\n");
        return 2;
#endif
    }
    for (size_t c = 0; argc == 6 && !strcmp(argv[5], "desc") && c < ncols; c++)
        cols[c].order = ORDO_DESC_NULLS_FIRST;
    ordo_format fmt = argc == 6 && !strcmp(argv[5], "lexkey") ? ORDO_FORMAT_LEXKEY
                                                               : ORDO_FORMAT_ORDERED;
    size_t total = 0;
    ordo_status s = ordo_batch_size(fmt, cols, ncols, n, &total, NULL, NULL);
    uint8_t *out = malloc(total + 1);
    size_t *ko = malloc((n + 1) * sizeof *ko);
    uint64_t sum = 0;
    for (size_t it = 0; s == ORDO_OK && it < iters; it++) {
        s = ordo_batch_encode_impl(impl, fmt, cols, ncols, n, out, total, ko,
                                   NULL);
        sum += out[ko[n / 2]];
    }
    if (s != ORDO_OK) {
        fprintf(stderr, "cg_rows: %s\n", ordo_status_message(s));
        return 1;
    }
    printf("%s %s: %zu rows x %zu, %zu bytes a batch (check %llu)\n", schema, impl, n, iters,
           total, (unsigned long long)sum);
    return 0;
}
