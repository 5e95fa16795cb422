/* Every kernel table this build has (and this CPU runs) against the
 * scalar rule, on arbitrary bytes, lengths, strides (up to past a 64-byte
 * vector's reach: avx512 places lanes in groups that fit one) and alignments; and the
 * CSV structure finder against its byte loop, from either quote state; the
 * ordered text field kernel against its reference, exact and padded; the
 * numeric digits kernel against its rule. */
#include "fuzz_util.h"
#include "csv_index.h"
#include "dispatch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    ordo__op op = (ordo__op)(data[0] % ORDO_OP_COUNT);
    size_t w = ordo__op_shape[op].width, es = ordo__op_shape[op].src_size;
    size_t stride = w + data[1] % 72, shift = data[2] % 16;
    const uint8_t *src = data + 3;
    size_t n = (size - 3) / es;
    size_t cap = n * stride + shift + 16;
    uint8_t *want = calloc(cap, 1), *got = malloc(cap);
    for (size_t i = 0; i < n; i++)
        ordo__op_one(op, src, i, want + shift + i * stride);
    size_t csv_n = size - 3;
    uint32_t *iw = malloc(ORDO_CSV_INDEX_ROOM(csv_n) * sizeof *iw),
             *ig = malloc(ORDO_CSV_INDEX_ROOM(csv_n) * sizeof *ig);
    int q_want = data[2] & 1;
    size_t k_want = ordo__csv_index_scalar(src, csv_n, &q_want, iw);
    const char *name;
    for (size_t m = 0; (name = ordo_impl_at(m, NULL)); m++) {
        const ordo__kernels *k = NULL;
        if (ordo__impl_lookup(name, &k) != ORDO_OK || !k)
            continue; /* not here, or the reference itself */
        memset(got, 0, cap);
        k->fixed[op](src, n, got + shift, stride);
        CHECK(memcmp(got, want, cap) == 0);
        if (k->fixed_pre[op] && stride > w) { /* the ordered field, where written */
            uint8_t pre = data[2] >> 7, mask = (data[1] & 0x80) ? 0xff : 0x00;
            uint8_t *pw = calloc(cap, 1), *pg = calloc(cap, 1);
            for (size_t i = 0; i < n; i++)
                ordo__op_one_pre(op, src, i, pw + shift + i * stride, pre, mask);
            k->fixed_pre[op](src, n, pg + shift, stride, pre, mask);
            CHECK(memcmp(pg, pw, cap) == 0);
            free(pw);
            free(pg);
        }
        /* bools: every bit of the input after a bit offset */
        size_t bit0 = data[1] % 8, nbits = (size - 3) * 8 > bit0 ? (size - 3) * 8 - bit0 : 0;
        uint8_t *bg = calloc(nbits + 1, 1), *bw = calloc(nbits + 1, 1);
        k->bits(src, bit0, nbits, bg, 1);
        ordo__bits_generic(src, bit0, nbits, bw, 1);
        CHECK(memcmp(bg, bw, nbits + 1) == 0);
        free(bg);
        free(bw);
        /* the ordered text field of the input's bytes, exact and padded */
        for (int padded = 0; padded < 2; padded++) {
            size_t tn = size - 3, room = tn + 2 * tn + 2 + ORDO_TEXT_PAD;
            uint8_t *tin = malloc(tn + ORDO_TEXT_PAD), *tg = calloc(room, 1),
                    *tw = calloc(room, 1), mask = (data[1] & 0x40) ? 0xff : 0x00;
            memcpy(tin, src, tn);
            memset(tin + tn, 0, ORDO_TEXT_PAD); /* 00 past the end: not text */
            size_t lw = ordo__text_generic(tw, tin, tn, mask, 0);
            size_t lg = k->text(tg, tin, tn, mask, padded);
            CHECK(lg == lw && memcmp(tg, tw, lw) == 0);
            free(tin), free(tg), free(tw);
        }
        /* numeric digits: words of two chunks below 10^4 from the input */
        size_t nw = (size - 3) / 8;
        uint64_t *dg = malloc((nw + 1) * sizeof *dg), *dw = malloc((nw + 1) * sizeof *dw);
        for (size_t i = 0; i < nw; i++) {
            uint32_t lo, hi;
            memcpy(&lo, src + 8 * i, 4);
            memcpy(&hi, src + 8 * i + 4, 4);
            dw[i] = dg[i] = (uint64_t)(hi % 10000) << 32 | (lo % 10000);
        }
        ordo__digits_generic(dw, nw);
        k->digits(dg, nw);
        CHECK(memcmp(dg, dw, nw * sizeof *dg) == 0);
        free(dg), free(dw);
        int q = data[2] & 1;
        size_t kg = ordo__csv_index_with(k, src, csv_n, ig, &q);
        CHECK(kg == k_want && q == q_want && memcmp(ig, iw, kg * sizeof *ig) == 0);
    }
    free(iw);
    free(ig);
    free(want);
    free(got);
    return 0;
}
