/* Byte strings read in place from a caller's buffers (ordo_bins: an Arrow
 * binary array's, ordo.Keys'): their offsets checked, rows of them into
 * the writers, each key's range among split keys, split keys of a sample.
 * The buffers may be memory another thread changes, so an offset is
 * checked again each time it is read. */
#include "load_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define fail ordo__load_fail

static int64_t offset_at(const ordo_bins *b, size_t i)
{
    /* memcpy: buffers that crossed a process need not be aligned */
    if (b->offset_bits == 64) {
        int64_t x;
        memcpy(&x, (const char *)b->offsets + 8 * i, 8);
        return x;
    }
    int32_t x;
    memcpy(&x, (const char *)b->offsets + 4 * i, 4);
    return x;
}

/* Whether any of n rows from first is NULL. */
static int any_null(const uint8_t *validity, size_t first, size_t n)
{
    for (size_t i = first; validity && i < first + n; i++)
        if (!(validity[i >> 3] >> (i & 7) & 1))
            return 1;
    return 0;
}

ordo_status ordo_bins_from_arrow(const struct ArrowSchema *schema,
                                 const struct ArrowArray *array, ordo_bins *out, ordo_error *err)
{
    ordo_column col;
    size_t n = 0;
    ordo_status s = ordo_arrow_column(schema, array, &col, &n);
    if (s == ORDO_OK && col.type != ORDO_TYPE_BYTES && col.type != ORDO_TYPE_STRING)
        s = ORDO_ERR_BAD_TYPE;
    if (s != ORDO_OK)
        return fail(err, s, 0, "expected an Arrow binary or large_binary array, got format '%.40s' "
                    "(%s)", schema && schema->format ? schema->format : "?",
                    ordo_status_message(s));
    if (any_null(col.validity, col.offset, n))
        return fail(err, ORDO_ERR_INVALID_VALUE, 0, "a NULL where a key or value is expected");
    static const uint8_t none[1];
    static const int64_t zero[1];
    out->n = n;
    out->len = SIZE_MAX; /* not part of the C Data Interface */
    out->data = col.values ? col.values : none;
    out->offset_bits = col.offsets ? col.offset_bits : 64; /* an empty array may have none */
    out->offsets = zero;
    if (col.offsets) /* from the array's own offset on */
        out->offsets = (const char *)col.offsets + col.offset * (size_t)(col.offset_bits / 8);
    return ORDO_OK;
}

ordo_status ordo_seqs_from_arrow(const struct ArrowSchema *schema,
                                 const struct ArrowArray *array, size_t n, const int64_t **seqs,
                                 ordo_error *err)
{
    ordo_column col;
    size_t rows = 0;
    if (ordo_arrow_column(schema, array, &col, &rows) != ORDO_OK || col.type != ORDO_TYPE_INT64 ||
        any_null(col.validity, col.offset, rows) || rows != n) {
        char why[120];
        snprintf(why, sizeof why, "expected an Arrow int64 array of %zu values without NULLs", n);
        return ordo__load_refuse(err, "seqs", why);
    }
    static const int64_t none[1];
    *seqs = col.values ? (const int64_t *)col.values + col.offset : none;
    return ORDO_OK;
}

ordo_status ordo_bins_span(const ordo_bins *b, size_t i, size_t *lo, size_t *hi)
{
    int64_t x = offset_at(b, i), y = offset_at(b, i + 1);
    if (x < 0 || y < x || (uint64_t)y > b->len)
        return ORDO_ERR_INVALID_VALUE;
    *lo = (size_t)x, *hi = (size_t)y;
    return ORDO_OK;
}

ordo_status ordo_bins_offsets(const ordo_bins *b, int64_t *off, size_t *start, ordo_error *err)
{
    size_t base = 0;
    off[0] = 0;
    for (size_t i = 0; i < b->n; i++) {
        size_t lo, hi; /* each read once: the memory may change meanwhile */
        if (ordo_bins_span(b, i, &lo, &hi) != ORDO_OK)
            return fail(err, ORDO_ERR_INVALID_ARG, i + 1,
                        "the offsets of string %zu are out of order or past the bytes", i);
        if (i == 0)
            base = lo;
        else if (lo != base + (size_t)off[i])
            return fail(err, ORDO_ERR_INVALID_ARG, i + 1,
                        "string %zu does not start where string %zu ends", i, i - 1);
        off[i + 1] = (int64_t)(hi - base);
    }
    *start = base;
    return ORDO_OK;
}

ordo_status ordo_bins_check(const ordo_bins *b, ordo_error *err)
{
    if (!b || (!b->offsets && b->n) || (b->offset_bits != 32 && b->offset_bits != 64))
        return fail(err, ORDO_ERR_NULL_ARG, 0, "no offsets, or offsets of neither 32 nor 64 bits");
    int64_t prev = 0;
    for (size_t i = 0; b->offsets && i <= b->n; i++) {
        int64_t v = offset_at(b, i);
        if (v < 0 || (uint64_t)v > b->len || (i && v < prev))
            return fail(err, ORDO_ERR_INVALID_VALUE, 0,
                        "offset %zu (%lld) is outside the buffer or decreases", i, (long long)v);
        prev = v;
    }
    return ORDO_OK;
}

typedef ordo_status (*add_fn)(void *w, const void *k, size_t kn, const void *v, size_t vn,
                              uint64_t seq, ordo_error *err);

/* seqs[i], read byte-wise: an Arrow array's buffer need not be aligned */
static int64_t seq_at(const int64_t *seqs, size_t i)
{
    int64_t v;
    memcpy(&v, (const uint8_t *)seqs + 8 * i, 8);
    return v;
}

static ordo_status add_rows(add_fn add, void *w, const ordo_bins *keys, const ordo_bins *values,
                            const int64_t *seqs, uint64_t first, ordo_error *err)
{
    if (!w || !keys)
        return fail(err, ORDO_ERR_NULL_ARG, 0, "no writer or no keys");
    if (values && values->n != keys->n) {
        fail(err, ORDO_ERR_INVALID_ARG, 0, "values: %zu keys but %zu values", keys->n, values->n);
        return err ? (err->option = "values", ORDO_ERR_INVALID_ARG) : ORDO_ERR_INVALID_ARG;
    }
    for (size_t i = 0; seqs && i < keys->n; i++)
        if (seq_at(seqs, i) < 0) {
            fail(err, ORDO_ERR_INVALID_ARG, 0, "seqs: seq %zu is negative", i);
            return err ? (err->option = "seqs", ORDO_ERR_INVALID_ARG) : ORDO_ERR_INVALID_ARG;
        }
    ordo_status s = ORDO_OK;
    for (size_t i = 0; i < keys->n && s == ORDO_OK; i++) {
        size_t k0, k1, v0 = 0, v1 = 0;
        if (ordo_bins_span(keys, i, &k0, &k1) != ORDO_OK ||
            (values && ordo_bins_span(values, i, &v0, &v1) != ORDO_OK))
            return fail(err, ORDO_ERR_INVALID_VALUE, 0, "the offsets of row %zu changed while "
                        "the rows were read (out of order or past the buffer)", i);
        uint64_t seq = seqs ? (uint64_t)seq_at(seqs, i) : first + i;
        s = add(w, keys->data + k0, k1 - k0, values && values->data ? values->data + v0 : NULL,
                v1 - v0, seq, err);
    }
    return s;
}

static ordo_status run_add(void *w, const void *k, size_t kn, const void *v, size_t vn,
                           uint64_t seq, ordo_error *err)
{
    return ordo_run_writer_add(w, k, kn, v, vn, seq, err);
}

static ordo_status sst_add(void *w, const void *k, size_t kn, const void *v, size_t vn,
                           uint64_t seq, ordo_error *err)
{
    return ordo_sst_writer_add(w, k, kn, v, vn, seq, err);
}

ordo_status ordo_run_writer_add_bins(ordo_run_writer *w, const ordo_bins *keys,
                                     const ordo_bins *values, const int64_t *seqs,
                                     uint64_t first, ordo_error *err)
{
    return add_rows(run_add, w, keys, values, seqs, first, err);
}

ordo_status ordo_sst_writer_add_bins(ordo_sst_writer *w, const ordo_bins *keys,
                                     const ordo_bins *values, const int64_t *seqs,
                                     uint64_t first, ordo_error *err)
{
    return add_rows(sst_add, w, keys, values, seqs, first, err);
}

ordo_status ordo_key_ranges(const ordo_bins *keys, const ordo_bins *splits, int64_t *out,
                            ordo_error *err)
{
    if (!keys || !splits || (!out && keys->n))
        return fail(err, ORDO_ERR_NULL_ARG, 0, "a required pointer is NULL");
    size_t a0 = 0, a1 = 0, b0, b1;
    for (size_t i = 0; i < splits->n; i++) {
        if (ordo_bins_span(splits, i, &b0, &b1) != ORDO_OK)
            return fail(err, ORDO_ERR_INVALID_VALUE, 0, "split %zu's offsets are out of order "
                        "or past the buffer", i);
        if (i && ordo_compare(splits->data + a0, a1 - a0, splits->data + b0, b1 - b0) >= 0) {
            fail(err, ORDO_ERR_INVALID_ARG, 0, "split %zu is not above split %zu", i, i - 1);
            return err ? (err->option = "splits", ORDO_ERR_INVALID_ARG) : ORDO_ERR_INVALID_ARG;
        }
        a0 = b0, a1 = b1;
    }
    for (size_t i = 0; i < keys->n; i++) {
        size_t k0, k1;
        if (ordo_bins_span(keys, i, &k0, &k1) != ORDO_OK)
            return fail(err, ORDO_ERR_INVALID_VALUE, 0, "key %zu's offsets are out of order or "
                        "past the buffer", i);
        size_t lo = 0, hi = splits->n; /* the number of splits <= key */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            ordo_bins_span(splits, mid, &b0, &b1); /* checked above */
            if (ordo_compare(splits->data + b0, b1 - b0, keys->data + k0, k1 - k0) <= 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        out[i] = (int64_t)lo;
    }
    return ORDO_OK;
}

ordo_status ordo_split_bins(const ordo_bins *sample, size_t n_splits, uint8_t **dst,
                            size_t **split_offsets, size_t *got, ordo_error *err)
{
    if (!sample || !dst || !split_offsets || !got)
        return fail(err, ORDO_ERR_NULL_ARG, 0, "a required pointer is NULL");
    *dst = NULL, *split_offsets = NULL, *got = 0;
    if (n_splits > sample->n) /* at most one split per sample key */
        n_splits = sample->n;
    /* one copy of the offsets, each checked as it is read, contiguous */
    size_t *offs = malloc((sample->n + 1) * sizeof *offs);
    if (!offs)
        return fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    offs[0] = 0;
    for (size_t i = 0; i < sample->n; i++) {
        size_t lo, hi;
        if (ordo_bins_span(sample, i, &lo, &hi) != ORDO_OK || (i && lo != offs[i])) {
            free(offs);
            return fail(err, ORDO_ERR_INVALID_VALUE, 0, "key %zu's offsets are out of order "
                        "or past the buffer", i);
        }
        offs[i] = lo, offs[i + 1] = hi;
    }
    size_t cap = offs[sample->n] - offs[0] + 1;
    *dst = malloc(cap);
    *split_offsets = malloc((n_splits + 1) * sizeof **split_offsets);
    ordo_status s = *dst && *split_offsets
                        ? ordo_split_keys(sample->data, offs, sample->n, n_splits, *dst, cap,
                                          *split_offsets, got, err)
                        : fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    free(offs);
    if (s != ORDO_OK) {
        free(*dst), free(*split_offsets);
        *dst = NULL, *split_offsets = NULL, *got = 0;
    }
    return s;
}
