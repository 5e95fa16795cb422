/* numeric from scaled integers against the text path: each value (an
 * int128 and a scale from the input) through ordo_key_numeric_scaled and
 * through ordo_key_numeric of its text must give the same key or the same
 * error; and a batch of the values as decimal128 (and their low halves as
 * int64) through every implementation must give the row API's keys, alone
 * or followed by a bigint column (the low halves again: the runs path's
 * run after the numeric). */
#include "fuzz_util.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* [-]digitsE<-scale>: the value's text. */
static size_t text_of(int64_t hi, uint64_t lo, int32_t scale, char *out)
{
    i128 v = (i128)((u128)(uint64_t)hi << 64 | lo);
    u128 m = v < 0 ? -(u128)v : (u128)v;
    char d[48];
    size_t nd = 0, at = 0;
    do {
        d[nd++] = (char)('0' + (int)(m % 10));
        m /= 10;
    } while (m);
    if (v < 0)
        out[at++] = '-';
    while (nd)
        out[at++] = d[--nd];
    return at + (size_t)sprintf(out + at, "e%lld", -(long long)scale);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bytes in = {data, size};
    uint8_t h = take8(&in);
    int32_t scale = (int32_t)(uint32_t)take64(&in);
    if (!(h & 0x80)) /* mostly Arrow's range of scales */
        scale = (int32_t)(scale % 80) - 20;
    size_t nrows = take8(&in) % 70, off = h % 3, rows = nrows + off;
    int order = (h >> 2) & 3, two = (h >> 4) & 1;
    uint8_t *dec = calloc(rows + 1, 16), *i64 = calloc(rows + 1, 8), *valid = NULL;
    for (size_t i = 0; i < rows; i++) {
        uint64_t lo = take64(&in), hi = take64(&in);
        if (i % 3 == 1) { /* small ones too (numeric(14, s)), sign-extended */
            int64_t v = (int64_t)(lo % 100000000000000u);
            if (hi & 1)
                v = -v;
            lo = (uint64_t)v, hi = v < 0 ? UINT64_MAX : 0;
        }
        memcpy(dec + 16 * i, &lo, 8);
        memcpy(dec + 16 * i + 8, &hi, 8);
        memcpy(i64 + 8 * i, &lo, 8);
    }
    if (h & 0x40) {
        valid = malloc(rows / 8 + 1);
        for (size_t i = 0; i < rows / 8 + 1; i++)
            valid[i] = take8(&in);
    }
    uint8_t a[128], b[128], *ref = malloc(128 * (rows + 1));
    size_t *ends = calloc(rows + 1, sizeof *ends);
    for (int layout = ORDO_NUMERIC_DECIMAL128; layout <= ORDO_NUMERIC_INT64; layout++) {
        /* the rows one by one: scaled against text */
        ordo_status want_batch = ORDO_OK;
        size_t at = 0;
        for (size_t r = 0; r < nrows; r++) {
            size_t j = off + r;
            uint64_t lo;
            int64_t hi;
            if (layout == ORDO_NUMERIC_DECIMAL128) {
                memcpy(&lo, dec + 16 * j, 8);
                memcpy(&hi, dec + 16 * j + 8, 8);
            } else {
                memcpy(&hi, i64 + 8 * j, 8);
                lo = (uint64_t)hi;
                hi = hi < 0 ? -1 : 0;
            }
            char text[96];
            size_t tn = text_of(hi, lo, scale, text), la = 0, lb = 0;
            ordo_key ka, kb;
            ordo_key_init(&ka, a, sizeof a, 0);
            ordo_key_init(&kb, b, sizeof b, 0);
            int null = valid && !((valid[j / 8] >> (j % 8)) & 1);
            ordo_status sa = ordo_key_numeric(&ka, (ordo_order)order, text, tn);
            ordo_status sb = null ? ordo_key_null(&kb, (ordo_order)order)
                                  : ordo_key_numeric_scaled(&kb, (ordo_order)order, hi, lo, scale);
            if (!null) {
                CHECK(sa == sb);
                if (sa == ORDO_OK) {
                    ordo_key_finish(&ka, &la), ordo_key_finish(&kb, &lb);
                    CHECK(la == lb && memcmp(a, b, la) == 0);
                }
            }
            if (sb != ORDO_OK && want_batch == ORDO_OK)
                want_batch = sb;
            if (sb == ORDO_OK) { /* the row's key: the field, then the bigint's */
                ordo_key kc;
                size_t lc = 0;
                int64_t w;
                memcpy(&w, i64 + 8 * j, 8);
                ordo_key_init(&kc, ref + at, 128, 0);
                if (null)
                    ordo_key_null(&kc, (ordo_order)order);
                else
                    ordo_key_numeric_scaled(&kc, (ordo_order)order, hi, lo, scale);
                if (two)
                    ordo_key_int64(&kc, (ordo_order)(order ^ 1), w);
                CHECK(ordo_key_finish(&kc, &lc) == ORDO_OK);
                at += lc;
            }
            ends[r + 1] = at;
        }
        /* the batch: every implementation, the rows' keys or their error */
        ordo_column col[2] = {
            {.type = ORDO_TYPE_NUMERIC,
             .values = layout == ORDO_NUMERIC_DECIMAL128 ? (void *)dec : (void *)i64,
             .validity = valid, .offset = off, .order = (uint8_t)order,
             .numeric_layout = (uint8_t)layout, .numeric_scale = scale},
            {.type = ORDO_TYPE_INT64, .values = i64, .offset = off, .order = (uint8_t)(order ^ 1)},
        };
        size_t total = 0, ncols = two ? 2 : 1;
        ordo_status s = ordo_batch_size(ORDO_FORMAT_ORDERED, col, ncols, nrows, &total, NULL, NULL);
        CHECK(s == want_batch);
        const char *impl;
        for (size_t m = 0; s == ORDO_OK && (impl = ordo_impl_at(m, NULL)); m++) {
            uint8_t *out = guarded(total);
            size_t *offs = malloc(sizeof(size_t) * (nrows + 1));
            ordo_status e = ordo_batch_encode_impl(impl, ORDO_FORMAT_ORDERED, col, ncols, nrows,
                                                   out, total, offs, NULL);
            if (e != ORDO_ERR_UNSUPPORTED_IMPL) {
                CHECK(e == ORDO_OK && total == at);
                check_guard(out, total, total);
                CHECK(memcmp(out, ref, total) == 0);
                for (size_t r = 0; r <= nrows; r++)
                    CHECK(offs[r] == ends[r]);
            }
            free(out), free(offs);
        }
    }
    free(dec), free(i64), free(valid), free(ref), free(ends);
    return 0;
}
