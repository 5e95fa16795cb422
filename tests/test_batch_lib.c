/* The batch encoder: every implementation this CPU runs (and the emulated
 * NEON kernels when built) against the scalar path and against the row
 * API, over every length up to three vector widths plus one, misaligned
 * inputs and outputs, random NULLs and edge values; and its error paths. */
#include "ordo_test.h"

#include "batch.h"
#include "dispatch.h"
#include "impls.h"
#include "row_reference.h"

#include <float.h>
#include <math.h>

/* ------------------------------------------------------------ kernels */

static void fill_edges(ordo__op op, uint8_t *src, size_t n, uint64_t *seed)
{
    size_t sz = ordo__op_shape[op].src_size;
    for (size_t i = 0; i < n * sz; i++)
        src[i] = (uint8_t)t_rand(seed);
    if (op == ORDO_OP_F64_LEX || op == ORDO_OP_F64_ORD) {
        static const double e[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, DBL_MAX, -DBL_MAX,
                                   DBL_MIN, -DBL_MIN, 4.9e-324, -4.9e-324, 1.0, -1.0};
        for (size_t i = 0; i < n; i += 2)
            memcpy(src + 8 * i, &e[(i / 2) % 14], 8);
    } else if (op == ORDO_OP_F32_W_LEX || op == ORDO_OP_F32_LEX || op == ORDO_OP_F32_ORD) {
        static const float e[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, FLT_MAX, -FLT_MAX,
                                  FLT_MIN, -FLT_MIN, 1e-45f, -1e-45f, 1.0f, -1.0f};
        for (size_t i = 0; i < n; i += 2)
            memcpy(src + 4 * i, &e[(i / 2) % 14], 4);
    } else {
        /* min and max of every width: all-zero and all-ones, lone top bits */
        for (size_t i = 0; i < n; i += 3)
            memset(src + sz * i, (i / 3) % 2 ? 0xff : 0x00, sz);
        for (size_t i = 1; i < n; i += 5) {
            memset(src + sz * i, (i / 5) % 2 ? 0xff : 0x00, sz);
            src[sz * i + sz - 1] ^= 0x80;
        }
    }
}

static void kernels_vs_scalar(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    enum { MAXN = 3 * 32 + 1, SLACK = 64 };
    static uint8_t src[16 * MAXN + 32], got[(16 + 65) * MAXN + SLACK],
        want[(16 + 65) * MAXN + SLACK];
    int ran = 0, pre_checked = 0;
    for (size_t m = 0; m < n_impls; m++) {
        if (!impls[m].k)
            continue;
        ran++;
        for (int op = 0; op < ORDO_OP_COUNT; op++) {
            size_t w = ordo__op_shape[op].width;
            for (size_t n = 0; n <= MAXN; n++) {
                size_t sa = n % 16, da = (n * 7) % 16; /* misalignments 0..15 */
                /* contiguous, near, and far: up to past a 64-byte vector's
                 * reach (avx512 places lanes in groups that fit one) */
                size_t stride = n % 3 == 0 ? w : n % 3 == 1 ? w + 1 + n % 7 : w + 1 + n * 5 % 64;
                fill_edges((ordo__op)op, src + sa, n, &seed);
                memset(got, 0xa5, sizeof got);
                memset(want, 0xa5, sizeof want);
                impls[m].k->fixed[op](src + sa, n, got + da, stride);
                for (size_t i = 0; i < n; i++)
                    ordo__op_one((ordo__op)op, src + sa, i, want + da + i * stride);
                if (memcmp(got, want, sizeof got) != 0)
                    fail_msg("%s op %d n %zu stride %zu differs from the scalar rule",
                             impls[m].name, op, n, stride);
                /* the ordered field (presence byte, payload XOR mask) where
                 * the table writes it: strides past the payload */
                if (!impls[m].k->fixed_pre[op])
                    continue;
                size_t fs = stride + 1;
                uint8_t pre = (uint8_t)(n & 1), mask = n % 4 < 2 ? 0x00 : 0xff;
                memset(got, 0xa5, sizeof got);
                memset(want, 0xa5, sizeof want);
                impls[m].k->fixed_pre[op](src + sa, n, got + da, fs, pre, mask);
                for (size_t i = 0; i < n; i++)
                    ordo__op_one_pre((ordo__op)op, src + sa, i, want + da + i * fs, pre, mask);
                if (memcmp(got, want, sizeof got) != 0)
                    fail_msg("%s op %d n %zu stride %zu: the ordered field differs", impls[m].name,
                             op, n, fs);
                pre_checked++;
            }
        }
        /* bools from a bitmap at every bit offset */
        for (size_t n = 0; n <= MAXN; n++) {
            size_t bit0 = n % 8, stride = 1 + n % 3;
            for (size_t i = 0; i < sizeof src; i++)
                src[i] = (uint8_t)t_rand(&seed);
            memset(got, 0xa5, sizeof got);
            memset(want, 0xa5, sizeof want);
            impls[m].k->bits(src, bit0, n, got, stride);
            ordo__bits_generic(src, bit0, n, want, stride);
            assert_memory_equal(got, want, sizeof got);
        }
    }
    printf("# %d kernel tables checked, %d ordered-field runs\n", ran, pre_checked);
}

/* The ordered text field kernel against the reference (ordo__text_generic)
 * at every length up to three 64-byte vectors plus one, every misalignment,
 * both masks, padded and exact: text of letters, full of 00 and of ff
 * bytes, and a lone 00 at every position of the last vector. Exact writes
 * touch nothing past the field; padded ones nothing past ORDO_TEXT_PAD. */
static void text_kernel_vs_reference(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    enum { MAXN = 3 * 64 + 1, CAP = 2 * MAXN + 2 + ORDO_TEXT_PAD + 32 };
    static uint8_t src[MAXN + ORDO_TEXT_PAD + 16], got[CAP], want[CAP];
    int ran = 0;
    for (size_t m = 0; m < n_impls; m++) {
        if (!impls[m].k)
            continue;
        ran++;
        for (size_t n = 0; n <= MAXN; n++)
            for (int kind = 0; kind < 5; kind++)
                for (int mi = 0; mi < 2; mi++)
                    for (int padded = 0; padded < 2; padded++) {
                        size_t sa = (n + (size_t)kind) % 16, da = (n * 7 + (size_t)mi) % 16;
                        uint8_t *p = src + sa, mask = mi ? 0xff : 0x00;
                        for (size_t i = 0; i < sizeof src; i++) /* past n too: not read as text */
                            src[i] = (uint8_t)t_rand(&seed) | 1;
                        for (size_t i = 0; i < n; i++)
                            p[i] = kind == 0   ? (uint8_t)('a' + i % 26)
                                   : kind == 1 ? 0x00
                                   : kind == 2 ? 0xff
                                   : kind == 3 ? (uint8_t)"\0\xff\x01a"[t_rand(&seed) % 4]
                                               : (uint8_t)('a' + i % 26);
                        if (kind == 4 && n) /* one 00, somewhere in the last vector */
                            p[n - 1 - t_rand(&seed) % (n < 64 ? n : 64)] = 0;
                        memset(got, 0xa5, sizeof got);
                        memset(want, 0xa5, sizeof want);
                        size_t wl = ordo__text_generic(want + da, p, n, mask, 0);
                        size_t gl = impls[m].k->text(got + da, p, n, mask, padded);
                        if (gl != wl || memcmp(got + da, want + da, wl) != 0)
                            fail_msg("%s text n %zu kind %d mask %02x padded %d: the field "
                                     "differs from the reference",
                                     impls[m].name, n, kind, mask, padded);
                        size_t reach = da + n + (padded ? ORDO_TEXT_PAD : 0);
                        for (size_t i = 0; i < da; i++)
                            assert_int_equal(got[i], 0xa5);
                        for (size_t i = da + wl > reach ? da + wl : reach; i < CAP; i++)
                            assert_int_equal(got[i], 0xa5);
                    }
    }
    printf("# %d text kernels checked\n", ran);
}

/* The tile text kernel against the reference loop (ordo__text_tile_generic):
 * 64 rows of lengths around every vector width, text of letters, 00 and ff
 * bytes, NULLs or none, 32- and 64-bit offsets, both masks, readable and
 * writable bounds from none to all rows padded. Fields are compared where
 * the reference wrote them; nothing past the output's end is written. */
static void text_tile_vs_reference(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    enum { N = 64, MAXLEN = 2 * 64 + 3, OUT = N * (2 * MAXLEN + 8) + 16 };
    static uint8_t data[N * MAXLEN + ORDO_TEXT_PAD], got[OUT + ORDO_TEXT_PAD + 16],
        want[OUT + ORDO_TEXT_PAD + 16], valid[N / 8];
    static int64_t o64[N + 1];
    static int32_t o32[N + 1];
    size_t cur[N], ag[N], aw[N];
    int ran = 0;
    for (size_t m = 0; m < n_impls; m++) {
        if (!impls[m].k)
            continue;
        ran++;
        for (int round = 0; round < 64; round++) {
            int kind = round % 4, wide = round / 4 % 2, nulls = round / 8 % 2;
            uint8_t mask = round / 16 % 2 ? 0xff : 0x00;
            size_t at = 0, pos = 3;
            for (size_t i = 0; i < N; i++) {
                size_t len = (i * 7 + (size_t)round) % MAXLEN;
                for (size_t b = 0; b < len; b++)
                    data[at + b] = kind == 0   ? (uint8_t)('a' + b % 26)
                                   : kind == 1 ? 0x00
                                   : kind == 2 ? 0xff
                                               : (uint8_t)"\0\xff\x01" "a"[t_rand(&seed) % 4];
                o64[i] = (int64_t)at, o32[i] = (int32_t)at;
                at += len;
                cur[i] = pos;
                pos += 2 * len + 3 + 1 + i % 3; /* room for every escape, and gaps */
            }
            o64[N] = (int64_t)at, o32[N] = (int32_t)at;
            for (size_t i = 0; i < N / 8; i++)
                valid[i] = nulls ? (uint8_t)t_rand(&seed) : 0xff;
            /* bounds: reads padded from every row (the data array has room
             * past the text) or half of them; writes up to the last field's
             * end exactly, or with room */
            int64_t lim = round / 32 ? (int64_t)at + ORDO_TEXT_PAD : (int64_t)(at / 2);
            ordo__text_tile t = {data, wide ? (const uint8_t *)o64 : (const uint8_t *)o32,
                                nulls ? valid : NULL, 0, N, 1, pos, wide, lim, NULL, cur,
                                NULL, 1, 0, mask, kind == 0};
            memset(got, 0xa5, sizeof got);
            memset(want, 0xa5, sizeof want);
            t.dst = want, t.after = aw;
            ordo__text_tile_generic(&t); /* (it never pads) */
            size_t total = round % 3 == 0 ? aw[N - 1] : pos + ORDO_TEXT_PAD + 8;
            t.total = total;
            t.dst = got, t.after = ag;
            impls[m].k->text_tile(&t);
            for (size_t i = 0; i < N; i++) {
                size_t from = cur[i] + 1; /* lead 1: the presence byte on */
                if (ag[i] != aw[i] || memcmp(got + from, want + from, aw[i] - from) != 0)
                    fail_msg("%s text tile round %d row %zu: the field differs from the "
                             "reference", impls[m].name, round, i);
            }
            for (size_t i = total; i < sizeof got; i++)
                assert_int_equal(got[i], 0xa5);
        }
    }
    printf("# %d tile text kernels checked\n", ran);
}

/* ------------------------------------------------------------ columns */

typedef struct colbuf {
    ordo_column col;
    uint8_t *values, *offsets, *validity; /* owned, values shifted by `shift` */
} colbuf;

static const ordo_type all_types[] = {
    ORDO_TYPE_STRING, ORDO_TYPE_BYTES,  ORDO_TYPE_UUID,    ORDO_TYPE_BOOL,    ORDO_TYPE_INT8,
    ORDO_TYPE_INT16,  ORDO_TYPE_INT32,  ORDO_TYPE_INT64,   ORDO_TYPE_INT,     ORDO_TYPE_UINT8,
    ORDO_TYPE_UINT16, ORDO_TYPE_UINT32, ORDO_TYPE_UINT64,  ORDO_TYPE_FLOAT32, ORDO_TYPE_FLOAT64,
    ORDO_TYPE_TIME,   ORDO_TYPE_DURATION, ORDO_TYPE_NIL,   ORDO_TYPE_END,
};
#define N_TYPES (sizeof all_types / sizeof all_types[0])

static size_t elem_size(const ordo_column *c)
{
    switch (c->type) {
    case ORDO_TYPE_INT8: case ORDO_TYPE_UINT8: return 1;
    case ORDO_TYPE_INT16: case ORDO_TYPE_UINT16: return 2;
    case ORDO_TYPE_INT32: case ORDO_TYPE_UINT32: case ORDO_TYPE_FLOAT32: return 4;
    case ORDO_TYPE_UUID: return 16;
    case ORDO_TYPE_TIME:
    case ORDO_TYPE_DURATION: return c->time_unit == ORDO_UNIT_DAY32 ? 4 : 8;
    default: return 8;
    }
}

/* A column of n rows after `off` leading rows, its values buffer shifted
 * by `shift` bytes, with NULLs at rate null_pct. */
static void make_column(colbuf *cb, ordo_type t, size_t n, size_t off, size_t shift,
                        int null_pct, uint64_t *seed)
{
    memset(cb, 0, sizeof *cb);
    ordo_column *c = &cb->col;
    c->type = t;
    c->offset = off;
    size_t rows = n + off;
    if (t == ORDO_TYPE_TIME || t == ORDO_TYPE_DURATION)
        c->time_unit = (uint8_t)(t_rand(seed) % 5);
    if (null_pct) {
        cb->validity = malloc(rows / 8 + 1);
        for (size_t i = 0; i < rows / 8 + 1; i++)
            cb->validity[i] = 0;
        for (size_t i = 0; i < rows; i++)
            if ((int)(t_rand(seed) % 100) >= null_pct)
                cb->validity[i / 8] |= (uint8_t)(1u << (i % 8));
        c->validity = cb->validity;
    }
    if (t == ORDO_TYPE_NIL || t == ORDO_TYPE_END)
        return;
    if (t == ORDO_TYPE_STRING || t == ORDO_TYPE_BYTES) {
        int wide = t_rand(seed) & 1;
        c->offset_bits = wide ? 64 : 32;
        cb->offsets = malloc((rows + 1) * 8 + 8);
        size_t total = 0;
        int64_t *lens = malloc(sizeof(int64_t) * rows);
        for (size_t i = 0; i < rows; i++) {
            lens[i] = (int64_t)(t_rand(seed) % 4 == 0 ? 0 : t_rand(seed) % 40);
            total += (size_t)lens[i];
        }
        int64_t at = 7; /* offsets need not start at 0 */
        total += 7;
        cb->values = malloc(total + shift + 1);
        for (size_t i = 0; i < total + shift + 1; i++) {
            uint64_t r = t_rand(seed) % 4; /* full of 00 and ff */
            cb->values[i] = r == 0 ? 0x00 : r == 1 ? 0xff : (uint8_t)t_rand(seed);
        }
        for (size_t i = 0; i <= rows; i++) {
            if (wide) {
                memcpy(cb->offsets + 8 * i, &at, 8);
            } else {
                int32_t a32 = (int32_t)at;
                memcpy(cb->offsets + 4 * i, &a32, 4);
            }
            if (i < rows)
                at += lens[i];
        }
        free(lens);
        c->offsets = cb->offsets;
        c->values = cb->values + shift;
        return;
    }
    size_t es = elem_size(c), bytes = t == ORDO_TYPE_BOOL ? rows / 8 + 1 : rows * es;
    cb->values = malloc(bytes + shift + 1);
    uint8_t *v = cb->values + shift;
    for (size_t i = 0; i < bytes; i++)
        v[i] = (uint8_t)t_rand(seed);
    if ((t == ORDO_TYPE_TIME || t == ORDO_TYPE_DURATION) && c->time_unit != ORDO_UNIT_NS) {
        /* in range for the unit: at most ±2^31 seconds */
        for (size_t i = 0; i < rows; i++) {
            int64_t x = (int64_t)(t_rand(seed) % 4000000000u) - 2000000000;
            if (c->time_unit == ORDO_UNIT_DAY32) {
                int32_t d = (int32_t)(x % 100000);
                memcpy(v + 4 * i, &d, 4);
            } else {
                memcpy(v + 8 * i, &x, 8);
            }
        }
    }
    if (t == ORDO_TYPE_FLOAT64 || t == ORDO_TYPE_FLOAT32)
        fill_edges(t == ORDO_TYPE_FLOAT64 ? ORDO_OP_F64_LEX : ORDO_OP_F32_LEX, v, rows, seed);
    c->values = v;
}

static void free_column(colbuf *cb)
{
    free(cb->values);
    free(cb->offsets);
    free(cb->validity);
}

/* Encodes with every implementation and compares each key with the row
 * API's. dst_shift misaligns the output. */
static void check_batch(colbuf *cbs, size_t ncols, size_t n, ordo_format fmt, size_t dst_shift)
{
    ordo_column cols[80];
    for (size_t c = 0; c < ncols; c++)
        cols[c] = cbs[c].col;
    size_t total = 0, stride = 0;
    assert_status(ordo_batch_size(fmt, cols, ncols, n, &total, &stride, NULL), ORDO_OK);
    uint8_t *buf = malloc(total + dst_shift + 1), *dst = buf + dst_shift;
    size_t *offs = malloc(sizeof(size_t) * (n + 1));
    static uint8_t row[16384];
    unsigned flags = fmt == ORDO_FORMAT_LEXKEY_LEGACY ? ORDO_LEXKEY_LEGACY : 0;
    for (size_t m = 0; m < n_impls; m++) {
        memset(buf, 0xa5, total + dst_shift + 1);
        int use_offsets = !stride || (n % 2);
        ordo_batch_error where = {0, 0};
        assert_status(ordo__batch_encode_kernels(impls[m].k, fmt, cols, ncols, n, dst, total,
                                                use_offsets ? offs : NULL, &where),
                      ORDO_OK);
        assert_int_equal(buf[total + dst_shift], 0xa5);
        for (size_t i = 0; i < dst_shift; i++)
            assert_int_equal(buf[i], 0xa5);
        size_t at = 0;
        for (size_t r = 0; r < n; r++) {
            size_t len = 0;
            assert_status(ref_row_key(cols, ncols, r, flags, row, sizeof row, &len), ORDO_OK);
            size_t start = use_offsets ? offs[r] : r * stride;
            size_t end = use_offsets ? offs[r + 1] : (r + 1) * stride;
            assert_int_equal(start, at);
            if (end - start != len || memcmp(dst + start, row, len) != 0) {
                char g[1024], w[1024];
                t_hex(dst + start, end - start > 500 ? 500 : end - start, g);
                t_hex(row, len > 500 ? 500 : len, w);
                fail_msg("%s: row %zu of %zu differs from the row API\n  got  %s\n  want %s",
                         impls[m].name, r, n, g, w);
            }
            at = end;
        }
        assert_int_equal(at, total);
    }
    free(buf);
    free(offs);
}

static void single_columns(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    for (size_t t = 0; t < N_TYPES; t++) {
        for (size_t n = 0; n <= 3 * 32 + 1; n++) {
            colbuf cb;
            int nulls = (n % 3 == 0) ? 0 : (int)(n % 3) * 30;
            make_column(&cb, all_types[t], n, n % 5, n % 16, nulls, &seed);
            check_batch(&cb, 1, n, (n & 1) ? ORDO_FORMAT_LEXKEY_LEGACY : ORDO_FORMAT_LEXKEY,
                        (n * 3) % 16);
            free_column(&cb);
        }
    }
}

static void mixed_schemas(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    for (int round = 0; round < 150; round++) {
        size_t ncols = 1 + t_rand(&seed) % 6;
        size_t n = t_rand(&seed) % 4 == 0 ? t_rand(&seed) % 1200 : t_rand(&seed) % 80;
        colbuf cbs[8];
        for (size_t c = 0; c < ncols; c++) {
            ordo_type t = all_types[t_rand(&seed) % N_TYPES];
            int nulls = t_rand(&seed) % 3 == 0 ? (int)(t_rand(&seed) % 101) : 0;
            make_column(&cbs[c], t, n, t_rand(&seed) % 9, t_rand(&seed) % 16, nulls, &seed);
        }
        for (int fmt = ORDO_FORMAT_LEXKEY; fmt <= ORDO_FORMAT_LEXKEY_LEGACY; fmt++)
            check_batch(cbs, ncols, n, (ordo_format)fmt, t_rand(&seed) % 16);
        for (size_t c = 0; c < ncols; c++)
            free_column(&cbs[c]);
    }
}

/* Text and bytes columns among fixed-width columns before, between and
 * after them: the copy paths. One text (with or without NULLs, 32- or
 * 64-bit offsets) has its own loops; several texts of one offset width and
 * with short runs between them another; tiles where a fixed-width column
 * (or one of several texts) has a NULL, and other shapes (mixed widths,
 * runs over 16 bytes or over 256 in all), take the cursor loop. NULLs are
 * dense, sparse (tiles of both kinds in one batch) or absent from a
 * bitmap. The copy tiles use 16-byte moves except near the end of the
 * output or of a text; long batches cover both kinds. */
static void text_columns(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    for (int round = 0; round < 200; round++) {
        size_t ntexts = 1 + t_rand(&seed) % 3, nlead = t_rand(&seed) % 3, ncols = 0;
        size_t n = round % 3 == 0 ? t_rand(&seed) % 2000 : t_rand(&seed) % 150;
        int nulls = round % 3 == 1, wide = -1;
        colbuf cbs[40];
        ordo_type kinds[40];
        if (round % 25 == 24) /* over 256 bytes of settled columns */
            nlead = 30;
        for (size_t c = 0; c < nlead; c++)
            kinds[ncols++] = ORDO_TYPE_INT64;
        for (size_t x = 0; x < ntexts; x++) {
            kinds[ncols++] = t_rand(&seed) % 2 ? ORDO_TYPE_STRING : ORDO_TYPE_BYTES;
            for (size_t k = t_rand(&seed) % 3; k > 0; k--)
                kinds[ncols++] = ORDO_TYPE_END; /* any settled type, drawn below */
        }
        for (size_t c = 0; c < ncols; c++) {
            ordo_type t = kinds[c];
            int text = t == ORDO_TYPE_STRING || t == ORDO_TYPE_BYTES;
            if (t == ORDO_TYPE_END || (t == ORDO_TYPE_INT64 && nlead < 30))
                t = all_types[2 + t_rand(&seed) % (N_TYPES - 2)];
            /* NULLs: dense (every tile has some), sparse (some tiles have
             * none), or a bitmap without any */
            int pct = 0;
            if (text ? nulls : round % 4 == 2)
                pct = t_rand(&seed) % 2 ? (int)(t_rand(&seed) % 60) : (int)(t_rand(&seed) % 3);
            /* mostly one offset width for all texts, the several-texts path */
            for (;;) {
                make_column(&cbs[c], t, n, t_rand(&seed) % 9, t_rand(&seed) % 16, pct, &seed);
                if (!text || wide < 0 || (cbs[c].col.offset_bits == 64) == wide ||
                    round % 5 == 0)
                    break;
                free_column(&cbs[c]);
            }
            if (text && wide < 0)
                wide = cbs[c].col.offset_bits == 64;
            if (pct == 0 && (text ? nulls : round % 4 == 2) && t_rand(&seed) % 2) {
                size_t bytes = (n + 9) / 8 + 2; /* covers the column's offset too */
                cbs[c].validity = malloc(bytes);
                memset(cbs[c].validity, 0xff, bytes);
                cbs[c].col.validity = cbs[c].validity;
            }
        }
        check_batch(cbs, ncols, n, round % 4 == 1 ? ORDO_FORMAT_LEXKEY_LEGACY : ORDO_FORMAT_LEXKEY,
                    t_rand(&seed) % 16);
        for (size_t c = 0; c < ncols; c++)
            free_column(&cbs[c]);
    }
}

/* Several text columns and NULLs in fixed-width columns: the cursor path. */
static void wide_schemas(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    for (int round = 0; round < 4; round++) {
        enum { NC = 70 };
        static colbuf cbs[NC];
        size_t n = 1 + t_rand(&seed) % 150;
        for (size_t c = 0; c < NC; c++) {
            ordo_type t = c % 7 == 3 ? ORDO_TYPE_STRING : all_types[t_rand(&seed) % N_TYPES];
            make_column(&cbs[c], t, n, t_rand(&seed) % 4, t_rand(&seed) % 8,
                        round % 2 ? 20 : 0, &seed);
        }
        check_batch(cbs, NC, n, ORDO_FORMAT_LEXKEY, round);
        for (size_t c = 0; c < NC; c++)
            free_column(&cbs[c]);
    }
}

/* A fixed-width batch without NULLs reports its stride and needs no offsets. */
static void fixed_stride(void **state)
{
    (void)state;
    int64_t a[5] = {1, -2, 3, INT64_MIN, INT64_MAX};
    double b[5] = {1.5, -0.0, NAN, INFINITY, -1e300};
    int32_t c[5] = {7, -7, 0, INT32_MIN, INT32_MAX};
    uint8_t allvalid = 0x1f;
    ordo_column cols[3] = {{.type = ORDO_TYPE_INT64, .values = a},
                           {.type = ORDO_TYPE_FLOAT64, .values = b, .validity = &allvalid},
                           {.type = ORDO_TYPE_INT32, .values = c}};
    size_t total = 0, stride = 0;
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, cols, 3, 5, &total, &stride, NULL), ORDO_OK);
    assert_int_equal(stride, 26);
    assert_int_equal(total, 130);
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY_LEGACY, cols, 3, 5, &total, &stride, NULL),
                  ORDO_OK);
    assert_int_equal(stride, 22);
    uint8_t nulls = 0x1d; /* row 1 is NULL */
    cols[1].validity = &nulls;
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, cols, 3, 5, &total, &stride, NULL), ORDO_OK);
    assert_int_equal(stride, 0);
    assert_int_equal(total, 130 - 7);
    uint8_t out[200];
    for (size_t m = 0; m < n_impls; m++)
        assert_status(ordo__batch_encode_kernels(impls[m].k, ORDO_FORMAT_LEXKEY, cols, 3, 5, out,
                                                sizeof out, NULL, NULL),
                      ORDO_ERR_NULL_ARG);
}

/* ------------------------------------------------------------- errors */

static void capacity_and_errors(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    colbuf cbs[3];
    make_column(&cbs[0], ORDO_TYPE_STRING, 40, 2, 1, 20, &seed);
    make_column(&cbs[1], ORDO_TYPE_INT32, 40, 0, 0, 10, &seed);
    make_column(&cbs[2], ORDO_TYPE_FLOAT64, 40, 1, 3, 0, &seed);
    ordo_column cols[3] = {cbs[0].col, cbs[1].col, cbs[2].col};
    size_t total = 0;
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, cols, 3, 40, &total, NULL, NULL), ORDO_OK);
    uint8_t *full = malloc(total), *buf = malloc(total + 64);
    size_t offs[41], offs2[41];
    assert_status(ordo_batch_encode(ORDO_FORMAT_LEXKEY, cols, 3, 40, full, total, offs, NULL),
                  ORDO_OK);
    for (size_t m = 0; m < n_impls; m++) {
        for (size_t cap = 0; cap <= total; cap++) {
            memset(buf, 0xa5, total + 64);
            memset(offs2, 0xa5, sizeof offs2);
            ordo_status s = ordo__batch_encode_kernels(impls[m].k, ORDO_FORMAT_LEXKEY, cols, 3,
                                                      40, buf, cap, offs2, NULL);
            if (cap < total) {
                assert_status(s, ORDO_ERR_DST_TOO_SMALL);
                for (size_t i = 0; i < total + 64; i++)
                    assert_int_equal(buf[i], 0xa5);
                for (size_t i = 0; i < sizeof offs2; i++)
                    assert_int_equal(((uint8_t *)offs2)[i], 0xa5);
            } else {
                assert_status(s, ORDO_OK);
                assert_memory_equal(buf, full, total);
                assert_memory_equal(offs2, offs, sizeof offs);
                assert_int_equal(buf[total], 0xa5);
            }
        }
    }
    ordo_batch_error where = {99, 99};
    /* Decreasing offsets: an error naming the row and column. */
    int32_t bad_offs[4] = {0, 3, 2, 5};
    ordo_column sc = {.type = ORDO_TYPE_STRING, .values = "abcde", .offsets = bad_offs,
                      .offset_bits = 32};
    ordo_column two[2] = {cols[1], sc};
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, two, 2, 3, &total, NULL, &where),
                  ORDO_ERR_INVALID_VALUE);
    assert_int_equal(where.row, 1);
    assert_int_equal(where.column, 1);
    assert_status(ordo_batch_encode(ORDO_FORMAT_LEXKEY, two, 2, 3, buf, total + 64, offs2, &where),
                  ORDO_ERR_INVALID_VALUE);
    /* 64-bit: a negative offset after the first, then a decrease only in
     * the top bit's reach */
    int64_t bad64[4] = {0, 3, -2, 5}, big64[3] = {1, INT64_MAX, 2};
    sc.offsets = bad64, sc.offset_bits = 64;
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, &sc, 1, 3, &total, NULL, &where),
                  ORDO_ERR_INVALID_VALUE);
    assert_int_equal(where.row, 1);
    sc.offsets = big64;
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, &sc, 1, 2, &total, NULL, &where),
                  ORDO_ERR_INVALID_VALUE);
    assert_int_equal(where.row, 1);
    /* the ordered format's plan as well: its pass over clean text reads
     * the offsets before any row */
    const void *bad_any[3] = {bad_offs, bad64, big64};
    for (int x = 0; x < 3; x++) {
        sc.offsets = bad_any[x], sc.offset_bits = x ? 64 : 32;
        where.row = 99;
        assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, &sc, 1, x == 2 ? 2 : 3, &total, NULL,
                                      &where),
                      ORDO_ERR_INVALID_VALUE);
        assert_int_equal(where.row, 1);
    }
    /* No rows: a text column needs no offsets (the check allows NULL), so
     * neither the plan nor any encoder may read them. */
    ordo_column empty[2] = {{.type = ORDO_TYPE_STRING, .offset_bits = 32},
                            {.type = ORDO_TYPE_INT64}};
    for (int f = ORDO_FORMAT_LEXKEY; f <= ORDO_FORMAT_ORDERED; f++) {
        total = 99;
        assert_status(ordo_batch_size((ordo_format)f, empty, 2, 0, &total, NULL, NULL), ORDO_OK);
        assert_int_equal(total, 0);
        for (size_t m = 0; m < n_impls; m++) {
            offs2[0] = 99;
            assert_status(ordo__batch_encode_kernels(impls[m].k, (ordo_format)f, empty, 2, 0, buf,
                                                     0, offs2, NULL),
                          ORDO_OK);
            assert_int_equal(offs2[0], 0);
        }
    }
    sc.offset_bits = 32;
    int32_t neg_offs[2] = {-1, 2};
    sc.offsets = neg_offs;
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, &sc, 1, 1, &total, NULL, &where),
                  ORDO_ERR_INVALID_VALUE);
    sc.offsets = bad_offs;
    sc.offset_bits = 16;
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, &sc, 1, 1, &total, NULL, &where),
                  ORDO_ERR_INVALID_ARG);
    sc.offsets = NULL;
    sc.offset_bits = 32;
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, &sc, 1, 1, &total, NULL, &where),
                  ORDO_ERR_NULL_ARG);
    /* Time out of range after the unit conversion: row 2. */
    int64_t secs[3] = {0, -5, INT64_C(9300000000)};
    ordo_column tc = {.type = ORDO_TYPE_TIME, .values = secs, .time_unit = ORDO_UNIT_S};
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, &tc, 1, 3, &total, NULL, &where),
                  ORDO_ERR_OUT_OF_RANGE);
    assert_int_equal(where.row, 2);
    uint8_t valid2 = 0x3; /* ... unless that row is NULL */
    tc.validity = &valid2;
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, &tc, 1, 3, &total, NULL, &where), ORDO_OK);
    tc.time_unit = 9;
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, &tc, 1, 3, &total, NULL, &where),
                  ORDO_ERR_INVALID_ARG);
    /* Bad type, format, shapes. */
    ordo_column bt = {.type = (ordo_type)99, .values = secs};
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, &bt, 1, 3, &total, NULL, &where),
                  ORDO_ERR_BAD_TYPE);
    assert_status(ordo_batch_size((ordo_format)7, cols, 3, 40, &total, NULL, &where),
                  ORDO_ERR_INVALID_ARG);
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, cols, 0, 40, &total, NULL, &where),
                  ORDO_ERR_NO_PARTS);
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, NULL, 2, 40, &total, NULL, &where),
                  ORDO_ERR_NULL_ARG);
    ordo_column nv = {.type = ORDO_TYPE_INT64};
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, &nv, 1, 3, &total, NULL, &where),
                  ORDO_ERR_NULL_ARG);
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, &nv, 1, 0, &total, NULL, &where), ORDO_OK);
    assert_int_equal(total, 0);
    assert_status(ordo_batch_encode_impl("avx1024", ORDO_FORMAT_LEXKEY, cols, 3, 40, full, total,
                                         offs, NULL),
                  ORDO_ERR_UNKNOWN_IMPL);
    /* The ordered format: each column's order; errors name row and column. */
    int32_t dates[3] = {0, ORDO_DATE_INFINITY, ORDO_DATE_END};
    int64_t ints[3] = {1, -1, 5};
    ordo_column oc[2] = {{.type = ORDO_TYPE_INT64, .values = ints, .order = ORDO_DESC_NULLS_FIRST},
                         {.type = ORDO_TYPE_DATE, .values = dates, .order = ORDO_ASC_NULLS_LAST}};
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, oc, 2, 3, &total, NULL, &where),
                  ORDO_ERR_OUT_OF_RANGE);
    assert_int_equal(where.row, 2);
    assert_int_equal(where.column, 1);
    size_t ostride = 0;
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, oc, 2, 2, &total, &ostride, &where), ORDO_OK);
    assert_int_equal(total, 28);
    assert_int_equal(ostride, 14);
    uint8_t okeys[28], want[14];
    assert_status(ordo_batch_encode(ORDO_FORMAT_ORDERED, oc, 2, 2, okeys, sizeof okeys, NULL, NULL),
                  ORDO_OK);
    ordo_key kb;
    ordo_key_init(&kb, want, sizeof want, 0);
    ordo_key_int64(&kb, ORDO_DESC_NULLS_FIRST, -1);
    ordo_key_date(&kb, ORDO_ASC_NULLS_LAST, ORDO_DATE_INFINITY);
    assert_memory_equal(okeys + 14, want, 14);
    /* every capacity of an ordered batch with a string: nothing written short of the total */
    int32_t so[3] = {0, 2, 2};
    uint8_t sv = 0x05; /* row 1 NULL */
    ordo_column os[2] = {{.type = ORDO_TYPE_STRING, .values = "a\0", .offsets = so, .offset_bits = 32,
                          .validity = &sv, .order = ORDO_DESC_NULLS_LAST},
                         {.type = ORDO_TYPE_INT64, .values = ints, .order = ORDO_ASC_NULLS_FIRST}};
    size_t ototal = 0, ooffs[3], ooffs2[3];
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, os, 2, 2, &ototal, NULL, NULL), ORDO_OK);
    uint8_t ofull[64], obuf[80];
    assert_status(ordo_batch_encode(ORDO_FORMAT_ORDERED, os, 2, 2, ofull, sizeof ofull, ooffs, NULL),
                  ORDO_OK);
    for (size_t cap = 0; cap <= ototal; cap++) {
        memset(obuf, 0xa5, sizeof obuf);
        memset(ooffs2, 0xa5, sizeof ooffs2);
        ordo_status st = ordo_batch_encode(ORDO_FORMAT_ORDERED, os, 2, 2, obuf, cap, ooffs2, NULL);
        assert_status(st, cap < ototal ? ORDO_ERR_DST_TOO_SMALL : ORDO_OK);
        for (size_t i = st == ORDO_OK ? ototal : 0; i < sizeof obuf; i++)
            assert_int_equal(obuf[i], 0xa5);
        if (st == ORDO_OK) {
            assert_memory_equal(obuf, ofull, ototal);
            assert_memory_equal(ooffs2, ooffs, sizeof ooffs);
        }
    }
    /* pre-encoded fields: copied, but they must start with the column's
     * presence byte and cannot be empty */
    int32_t eo[4] = {0, 3, 3, 4};
    ordo_column enc = {.type = ORDO_TYPE_ENCODED, .values = "\x00\x01\x02\x01", .offsets = eo,
                       .offset_bits = 32, .order = ORDO_ASC_NULLS_LAST};
    uint8_t ekeys[8];
    size_t eoffs[4];
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, &enc, 1, 3, &total, NULL, &where),
                  ORDO_ERR_INVALID_VALUE);
    assert_int_equal(where.row, 1); /* empty */
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, &enc, 1, 1, &total, NULL, NULL), ORDO_OK);
    assert_status(ordo_batch_encode(ORDO_FORMAT_ORDERED, &enc, 1, 1, ekeys, sizeof ekeys, eoffs, NULL),
                  ORDO_OK);
    assert_memory_equal(ekeys, "\x00\x01\x02", 3);
    enc.offset = 2; /* row 0 is now "01": not ASC NULLS LAST's presence byte */
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, &enc, 1, 1, &total, NULL, &where),
                  ORDO_ERR_INVALID_VALUE);
    assert_int_equal(where.row, 0);
    enc.order = ORDO_ASC_NULLS_FIRST; /* whose presence byte it is */
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, &enc, 1, 1, &total, NULL, NULL), ORDO_OK);
    oc[0].order = 4;
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, oc, 2, 2, &total, NULL, &where),
                  ORDO_ERR_INVALID_ORDER);
    assert_int_equal(where.column, 0);
    oc[0].order = 0;
    oc[0].type = ORDO_TYPE_TIME; /* LexKey's nanosecond instant: not an ordered type */
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, oc, 2, 2, &total, NULL, &where),
                  ORDO_ERR_BAD_TYPE);
#if !defined(__aarch64__)
    assert_status(ordo_batch_encode_impl("neon", ORDO_FORMAT_LEXKEY, cols, 3, 40, full, total,
                                         offs, NULL),
                  ORDO_ERR_UNSUPPORTED_IMPL);
#endif
    free(full);
    free(buf);
    for (int c = 0; c < 3; c++)
        free_column(&cbs[c]);
}

/* ------------------------------------------------------------ ordered */

typedef struct ocol {
    ordo_column c;
    uint8_t *values, *validity;
    int64_t *offsets;
} ocol;

/* A column of n rows (after `off` rows of slice offset) with valid values
 * of type t, edge values, and random NULLs when nulls is set. */
/* Text without a 00 byte anywhere: whole tiles take the copy path. */
static int clean_text;

static void make_ordered(ocol *o, ordo_type t, size_t n, size_t off, int nulls, int order,
                         uint64_t *seed)
{
    static const double f64e[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, DBL_MAX, -DBL_MAX,
                                  4.9e-324, -4.9e-324, 1.0, -1.0};
    static const char *nums[] = {"0", "1.5", "-2.25", "NaN", "1e10", "-0.001", "123456789012"};
    size_t rows = n + off, esz = 16;
    memset(o, 0, sizeof *o);
    o->values = calloc(rows * 100 + 16, 1);
    o->validity = malloc(rows / 8 + 1);
    o->offsets = calloc(rows + 1, sizeof *o->offsets);
    assert_non_null(o->values);
    for (size_t i = 0; i < rows / 8 + 1; i++)
        o->validity[i] = nulls ? (uint8_t)t_rand(seed) : 0xff;
    size_t text = 0;
    for (size_t i = 0; i < rows; i++) {
        uint64_t r = t_rand(seed);
        uint8_t *v = o->values + i * esz;
        switch (t) {
        case ORDO_TYPE_DATE: {
            int32_t d = i % 9 == 0 ? ORDO_DATE_INFINITY : (int32_t)(r % 2000000) - 1000000;
            memcpy(o->values + 4 * i, &d, 4);
            break;
        }
        case ORDO_TYPE_TIME_OF_DAY: {
            int64_t us = (int64_t)(r % (uint64_t)(ORDO_TIME_MAX + 1));
            memcpy(o->values + 8 * i, &us, 8);
            break;
        }
        case ORDO_TYPE_TIMESTAMP:
        case ORDO_TYPE_TIMESTAMPTZ: {
            int64_t us = i % 7 == 0 ? ORDO_TIMESTAMP_NEG_INFINITY : (int64_t)(r >> 8) - (INT64_C(1) << 55);
            memcpy(o->values + 8 * i, &us, 8);
            break;
        }
        case ORDO_TYPE_FLOAT64: {
            double d = i % 2 ? f64e[(i / 2) % 12] : (double)(int64_t)r / 1e6;
            memcpy(o->values + 8 * i, &d, 8);
            break;
        }
        case ORDO_TYPE_FLOAT32: {
            float f = i % 2 ? (float)f64e[(i / 2) % 12] : (float)(int64_t)r / 1e3f;
            memcpy(o->values + 4 * i, &f, 4);
            break;
        }
        case ORDO_TYPE_INTERVAL: {
            ordo_interval iv = {(int32_t)(r % 1000) - 500, (int32_t)(r >> 20) % 100,
                                (int64_t)(r >> 30) - (INT64_C(1) << 33)};
            memcpy(o->values + sizeof iv * i, &iv, sizeof iv);
            break;
        }
        case ORDO_TYPE_NUMERIC:
        case ORDO_TYPE_BIT:
        case ORDO_TYPE_STRING:
        case ORDO_TYPE_BYTES: {
            const char *src = nums[r % 7];
            /* text up to three AVX2 vectors long: the escape kernels' vector loop */
            size_t len = t == ORDO_TYPE_NUMERIC ? strlen(src) : (size_t)(r >> 8) % 100;
            for (size_t k = 0; k < len; k++)
                o->values[text + k] = t == ORDO_TYPE_NUMERIC ? (uint8_t)src[k]
                                      : t == ORDO_TYPE_BIT  ? (uint8_t)('0' + ((r >> (k % 50)) & 1))
                                       : clean_text || (r & 0x300) == 0 ? (uint8_t)('a' + k % 26) /* no 00 */
                                       : (uint8_t)"\0\xff ab\0c\x01"[(r >> (k % 50)) % 8];
            text += len;
            o->offsets[i + 1] = (int64_t)text;
            break;
        }
        default: /* ints, uints, bool bits, uuid, lsn, enum, macaddr8 */
            for (size_t k = 0; k < esz; k++)
                v[k] = (uint8_t)(t_rand(seed) >> 32);
            if (i % 5 == 0) /* extremes */
                memset(v, i % 10 ? 0xff : 0x00, esz);
            break;
        }
    }
    o->c = (ordo_column){.type = t, .values = o->values, .validity = o->validity, .offset = off,
                         .offset_bits = 64, .order = (uint8_t)order};
    if (t == ORDO_TYPE_NUMERIC || t == ORDO_TYPE_STRING || t == ORDO_TYPE_BYTES ||
        t == ORDO_TYPE_BIT)
        o->c.offsets = o->offsets;
}

static void free_ordered(ocol *o) { free(o->values), free(o->validity), free(o->offsets); }

/* The ordered kernel path of every implementation against the scalar
 * reference (the row builder, field by field): same bytes, same offsets. */
static void check_ordered(ocol *cols, size_t ncols, size_t n)
{
    ordo_column cs[24];
    for (size_t c = 0; c < ncols; c++)
        cs[c] = cols[c].c;
    size_t total = 0, stride = 0;
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, cs, ncols, n, &total, &stride, NULL),
                  ORDO_OK);
    uint8_t *want = malloc(total + 1), *got = malloc(total + 8);
    size_t *wo = calloc(n + 1, sizeof *wo), *go = calloc(n + 1, sizeof *go);
    assert_status(ordo__batch_encode_kernels(NULL, ORDO_FORMAT_ORDERED, cs, ncols, n, want, total,
                                            wo, NULL),
                  ORDO_OK);
    assert_int_equal(wo[n], total); /* the size pass counted what the reference wrote */
    for (size_t m = 0; m < n_impls; m++) {
        memset(got, 0xa5, total + 8);
        /* misaligned output */
        assert_status(ordo__batch_encode_kernels(impls[m].k, ORDO_FORMAT_ORDERED, cs, ncols, n,
                                                got + 3, total, go, NULL),
                      ORDO_OK);
        if (memcmp(got + 3, want, total) || memcmp(go, wo, (n + 1) * sizeof *go))
            fail_msg("%s: ordered batch of %zu rows, %zu columns (first type %d, order %d) "
                     "differs from the scalar reference",
                     impls[m].name, n, ncols, (int)cs[0].type, (int)cs[0].order);
        for (size_t i = total + 3; i < total + 8; i++)
            assert_int_equal(got[i], 0xa5);
    }
    free(want), free(got), free(wo), free(go);
}

static const ordo_type ordered_types[] = {
    ORDO_TYPE_BOOL,    ORDO_TYPE_INT8,     ORDO_TYPE_INT16,       ORDO_TYPE_INT32,
    ORDO_TYPE_INT64,   ORDO_TYPE_UINT8,    ORDO_TYPE_UINT16,      ORDO_TYPE_UINT32,
    ORDO_TYPE_UINT64,  ORDO_TYPE_FLOAT32,  ORDO_TYPE_FLOAT64,     ORDO_TYPE_UUID,
    ORDO_TYPE_DATE,    ORDO_TYPE_TIME_OF_DAY, ORDO_TYPE_TIMESTAMP, ORDO_TYPE_TIMESTAMPTZ,
    ORDO_TYPE_PG_LSN,  ORDO_TYPE_ENUM,     ORDO_TYPE_MACADDR8,    ORDO_TYPE_INTERVAL,
    ORDO_TYPE_NUMERIC, ORDO_TYPE_STRING,   ORDO_TYPE_BYTES,       ORDO_TYPE_BIT,
    ORDO_TYPE_NIL,
};
#define N_ORDERED (sizeof ordered_types / sizeof ordered_types[0])

static void ordered_kernels(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    static const size_t lens[] = {0, 1, 2, 31, 63, 64, 65, 129, 300};
    for (size_t ti = 0; ti < N_ORDERED; ti++)
        for (int order = 0; order < 4; order++)
            for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
                ocol c;
                make_ordered(&c, ordered_types[ti], lens[li], li % 3, li % 2, order, &seed);
                check_ordered(&c, 1, lens[li]);
                free_ordered(&c);
            }
    /* text with no 00 byte at all, alone and among other columns */
    clean_text = 1;
    for (int order = 0; order < 4; order++)
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            ocol c[3];
            make_ordered(&c[0], ORDO_TYPE_STRING, lens[li], li % 3, li % 2, order, &seed);
            make_ordered(&c[1], ORDO_TYPE_INT64, lens[li], 0, 1, order, &seed);
            make_ordered(&c[2], ORDO_TYPE_BYTES, lens[li], li % 2, li % 3 == 0, 3 - order, &seed);
            check_ordered(c, 1, lens[li]);
            check_ordered(c, 3, lens[li]);
            for (int k = 0; k < 3; k++)
                free_ordered(&c[k]);
        }
    clean_text = 0;
    /* fixed strides (tiles written like LexKey's): columns entirely NULL
     * and nil among the others, every order, keys shorter and longer than
     * the presence pattern (64 bytes), one tile and several */
    static const ordo_type fixed_types[] = {ORDO_TYPE_INT64, ORDO_TYPE_FLOAT64, ORDO_TYPE_INT32,
                                            ORDO_TYPE_BOOL,  ORDO_TYPE_UUID,    ORDO_TYPE_NIL,
                                            ORDO_TYPE_FLOAT32, ORDO_TYPE_INT16};
    for (int round = 0; round < 8; round++) {
        ocol cs[12];
        ordo_column cc[12];
        size_t ncols = round < 4 ? 3 : 12, n = round % 2 ? 300 : 40, total, stride = 0;
        for (size_t c = 0; c < ncols; c++) {
            make_ordered(&cs[c], fixed_types[(c + (size_t)round) % 8], n, c % 3, 0,
                         (int)((c + (size_t)round) % 4), &seed);
            if (c % 4 == 1 && round % 4 >= 2) /* all NULL */
                memset(cs[c].validity, 0, (n + c % 3) / 8 + 1);
            cc[c] = cs[c].c;
        }
        assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, cc, ncols, n, &total, &stride, NULL),
                      ORDO_OK);
        assert_true(stride > 0);
        check_ordered(cs, ncols, n);
        for (size_t c = 0; c < ncols; c++)
            free_ordered(&cs[c]);
    }
    /* rows of many columns: fixed strides, and cursors after strings */
    for (int round = 0; round < 40; round++) {
        ocol cs[12];
        size_t ncols = 1 + t_rand(&seed) % 12, n = t_rand(&seed) % 200;
        int nulls = round % 3 == 0;
        for (size_t c = 0; c < ncols; c++)
            make_ordered(&cs[c], ordered_types[t_rand(&seed) % (N_ORDERED - 1)], n,
                         t_rand(&seed) % 5, nulls, (int)(t_rand(&seed) % 4), &seed);
        check_ordered(cs, ncols, n);
        for (size_t c = 0; c < ncols; c++)
            free_ordered(&cs[c]);
    }
}

/* The first text column after columns of one size (written first, by the
 * padded text kernel where the bounds allow): lengths around every vector
 * width, text of letters, of 00 bytes, of ff bytes and mixed, NULLs (also
 * in the last rows, which bound the padded reads), every order, slices,
 * 32- and 64-bit offsets, a NULL-able column before it (the exact path),
 * and a second text column after it (exact writes). */
static void ordered_text_first(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    static const size_t rows[] = {1, 2, 7, 63, 64, 65, 130, 300};
    int runs = 0;
    for (size_t ri = 0; ri < sizeof rows / sizeof rows[0]; ri++)
        for (int kind = 0; kind < 4; kind++)
            for (int order = 0; order < 4; order++)
                for (int shape = 0; shape < 4; shape++) {
                    size_t n = rows[ri], off = (ri + (size_t)shape) % 3, all = n + off;
                    ocol c[4];
                    make_ordered(&c[0], ORDO_TYPE_INT64, n, off, shape == 2, order, &seed);
                    make_ordered(&c[1], ORDO_TYPE_STRING, n, off, shape % 2, 3 - order, &seed);
                    make_ordered(&c[2], ORDO_TYPE_FLOAT64, n, off, 0, order, &seed);
                    make_ordered(&c[3], ORDO_TYPE_BYTES, n, off, 1, order, &seed);
                    /* lengths 0 .. 3*64+1 by row, the chosen bytes */
                    int64_t at = 0;
                    for (size_t i = 0; i < all; i++) {
                        size_t len = (i * 7 + (size_t)kind) % (3 * 64 + 2);
                        if (i % 5 == 1)
                            len = 8 + t_rand(&seed) % 9; /* the common short text */
                        at += (int64_t)len;
                        c[1].offsets[i + 1] = at;
                    }
                    free(c[1].values);
                    c[1].values = malloc((size_t)at + 1);
                    for (int64_t b = 0; b < at; b++) /* an exact buffer: no slack past it */
                        c[1].values[b] = kind == 0   ? (uint8_t)('a' + b % 26)
                                         : kind == 1 ? 0x00
                                         : kind == 2 ? 0xff
                                                     : (uint8_t)"\0\xff\x01" "ab"[t_rand(&seed) % 5];
                    c[1].c.values = c[1].values;
                    if (shape == 3 && n > 2) /* the last rows NULL */
                        c[1].validity[(all - 1) / 8] &= (uint8_t)~(1u << ((all - 1) % 8));
                    int32_t *o32 = NULL;
                    if (shape % 2) { /* 32-bit offsets */
                        o32 = malloc((all + 1) * sizeof *o32);
                        for (size_t i = 0; i <= all; i++)
                            o32[i] = (int32_t)c[1].offsets[i];
                        c[1].c.offsets = o32, c[1].c.offset_bits = 32;
                    }
                    check_ordered(c, 3, n);
                    check_ordered(c, 4, n);
                    check_ordered(&c[1], 3, n); /* the text first, no columns before */
                    runs += 3;
                    free(o32);
                    for (int k = 0; k < 4; k++)
                        free_ordered(&c[k]);
                }
    printf("# %d batches\n", runs);
}

/* One text among fixed-width columns (bool, nil, ints, floats, uuid; every
 * order): tiles without NULLs and with clean text take the three-copy
 * path, the others (a NULL in one column, a 00 byte in the text) the
 * general one, in one batch; the last tiles near the end of the output
 * and of the text take exact copies. */
static void ordered_text_runs(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    static const ordo_type fixed[] = {ORDO_TYPE_INT64, ORDO_TYPE_BOOL,  ORDO_TYPE_NIL,
                                      ORDO_TYPE_FLOAT64, ORDO_TYPE_UUID, ORDO_TYPE_INT16,
                                      ORDO_TYPE_FLOAT32, ORDO_TYPE_UINT8};
    int runs = 0;
    for (int round = 0; round < 48; round++) {
        size_t n = round % 4 == 0 ? 1 + t_rand(&seed) % 70 : 130 + t_rand(&seed) % 200;
        size_t nb = t_rand(&seed) % 4, na = t_rand(&seed) % 4, ncols = nb + 1 + na;
        ocol c[9];
        clean_text = 1;
        for (size_t x = 0; x < ncols; x++) {
            ordo_type ty = x == nb ? ORDO_TYPE_STRING : fixed[t_rand(&seed) % 8];
            make_ordered(&c[x], ty, n, (size_t)round % 3, 0, (int)(t_rand(&seed) % 4), &seed);
        }
        clean_text = 0;
        /* a NULL in the second tile of one column, a 00 byte in the fourth
         * tile's text */
        if (round % 3 == 1 && n > 80) {
            ocol *v = &c[t_rand(&seed) % ncols];
            size_t r = 64 + t_rand(&seed) % 16 + (size_t)round % 3;
            v->validity[r / 8] &= (uint8_t)~(1u << (r % 8));
            v->c.validity = v->validity;
        }
        if (round % 2 == 0 && n > 200) {
            ocol *t = &c[nb];
            size_t r = 192 + (size_t)round % 3 + t_rand(&seed) % 8;
            if (t->offsets[r + 1] > t->offsets[r])
                t->values[t->offsets[r]] = 0;
        }
        if (round % 5 == 0) { /* an exact text buffer: no slack to read past */
            ocol *t = &c[nb];
            size_t bytes = (size_t)t->offsets[n + (size_t)round % 3];
            uint8_t *v = malloc(bytes + 1);
            memcpy(v, t->values, bytes);
            free(t->values);
            t->values = v, t->c.values = v;
        }
        check_ordered(c, ncols, n);
        runs++;
        for (size_t x = 0; x < ncols; x++)
            free_ordered(&c[x]);
    }
    printf("# %d batches\n", runs);
}

/* The same shape with NULLs in any column, the text's too (dense, about
 * one row in ten, or a bitmap without any; slices that start inside a
 * bitmap byte; 32- and 64-bit offsets; every order): the three-copy tiles
 * write their rows with a NULL field by field. Over 16 fields in a run (15
 * to 17 nils and bools before the text) such tiles take the general path,
 * as do batches of two to four texts (drawn among the later columns). */
static void ordered_text_runs_nulls(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    static const ordo_type fixed[] = {ORDO_TYPE_INT64,   ORDO_TYPE_BOOL,    ORDO_TYPE_NIL,
                                      ORDO_TYPE_FLOAT64, ORDO_TYPE_UUID,    ORDO_TYPE_INT16,
                                      ORDO_TYPE_FLOAT32, ORDO_TYPE_UINT8,   ORDO_TYPE_TIMESTAMP};
    for (int round = 0; round < 96; round++) {
        size_t n = round % 4 == 0 ? 1 + t_rand(&seed) % 70 : 64 + t_rand(&seed) % 400;
        int many = round % 12 == 11;
        size_t nb = many ? 15 + t_rand(&seed) % 3 : t_rand(&seed) % 4,
               na = many ? 2 : t_rand(&seed) % 4, ncols = nb + 1 + na;
        ocol c[21];
        int32_t *o32 = NULL;
        clean_text = 1;
        /* up to three more texts among the columns after the first */
        size_t more = many ? 0 : (size_t)round % 4;
        for (size_t x = 0; x < ncols; x++) {
            int text = x == nb || (x > nb && more && t_rand(&seed) % 2 && more--);
            ordo_type ty = text   ? (t_rand(&seed) % 4 ? ORDO_TYPE_STRING : ORDO_TYPE_BYTES)
                           : many ? (t_rand(&seed) % 2 ? ORDO_TYPE_NIL : ORDO_TYPE_BOOL)
                                  : fixed[t_rand(&seed) % 9];
            size_t off = (size_t)round % 11;
            int kind = (int)(t_rand(&seed) % 4); /* none, dense, one in ten, an all-valid bitmap */
            make_ordered(&c[x], ty, n, off, kind == 1, (int)(t_rand(&seed) % 4), &seed);
            if (kind >= 2)
                for (size_t r = 0; r < n + off; r++)
                    if (kind == 2 && t_rand(&seed) % 10 == 0)
                        c[x].validity[r / 8] &= (uint8_t) ~(1u << (r % 8));
            if (kind == 0)
                c[x].c.validity = NULL;
        }
        clean_text = 0;
        if (round % 2) {
            ocol *t = &c[nb];
            size_t rows = n + (size_t)round % 11;
            o32 = malloc((rows + 1) * sizeof *o32);
            for (size_t r = 0; r <= rows; r++)
                o32[r] = (int32_t)t->offsets[r];
            t->c.offsets = o32, t->c.offset_bits = 32;
        }
        check_ordered(c, ncols, n);
        free(o32);
        for (size_t x = 0; x < ncols; x++)
            free_ordered(&c[x]);
    }
}

/* ------------------------------------------------------------- packed */

/* The packed kernel path of every implementation against the scalar
 * reference (the packed row builder), and the reference against the
 * ordered format: the same bytes once each field's presence byte is gone. */
static void check_packed(ocol *cols, size_t ncols, size_t n)
{
    ordo_column cs[16];
    for (size_t c = 0; c < ncols; c++)
        cs[c] = cols[c].c;
    size_t total = 0, stride = 0, ototal = 0;
    assert_status(ordo_batch_size(ORDO_FORMAT_PACKED, cs, ncols, n, &total, &stride, NULL),
                  ORDO_OK);
    assert_int_equal(total, stride * n);
    uint8_t *want = malloc(total + 1), *got = malloc(total + 8);
    assert_status(ordo__batch_encode_kernels(NULL, ORDO_FORMAT_PACKED, cs, ncols, n, want, total,
                                            NULL, NULL),
                  ORDO_OK);
    for (size_t m = 0; m < n_impls; m++) {
        memset(got, 0xa5, total + 8);
        size_t *go = calloc(n + 1, sizeof *go);
        /* misaligned output, and offsets filled at the stride */
        assert_status(ordo__batch_encode_kernels(impls[m].k, ORDO_FORMAT_PACKED, cs, ncols, n,
                                                got + 3, total, go, NULL),
                      ORDO_OK);
        if (memcmp(got + 3, want, total))
            fail_msg("%s: packed batch of %zu rows, %zu columns (first type %d, order %d) "
                     "differs from the scalar reference",
                     impls[m].name, n, ncols, (int)cs[0].type, (int)cs[0].order);
        for (size_t i = 0; i <= n; i++)
            assert_int_equal(go[i], i * stride);
        for (size_t i = total + 3; i < total + 8; i++)
            assert_int_equal(got[i], 0xa5);
        free(go);
    }
    assert_status(ordo_batch_size(ORDO_FORMAT_ORDERED, cs, ncols, n, &ototal, NULL, NULL),
                  ORDO_OK);
    assert_int_equal(ototal, total + n * ncols);
    uint8_t *ord = malloc(ototal + 1);
    assert_status(ordo__batch_encode_kernels(NULL, ORDO_FORMAT_ORDERED, cs, ncols, n, ord, ototal,
                                            NULL, NULL),
                  ORDO_OK);
    for (size_t r = 0, at = 0, pat = 0; r < n; r++)
        for (size_t c = 0; c < ncols; c++) {
            size_t fs = 0;
            assert_status(ordo_key_field_size(cs[c].type, NULL, 0, &fs), ORDO_OK);
            assert_memory_equal(ord + at + 1, want + pat, fs - 1);
            at += fs, pat += fs - 1;
        }
    free(want), free(got), free(ord);
}

static const ordo_type packed_types[] = {
    ORDO_TYPE_BOOL,    ORDO_TYPE_INT8,     ORDO_TYPE_INT16,       ORDO_TYPE_INT32,
    ORDO_TYPE_INT64,   ORDO_TYPE_UINT8,    ORDO_TYPE_UINT16,      ORDO_TYPE_UINT32,
    ORDO_TYPE_UINT64,  ORDO_TYPE_FLOAT32,  ORDO_TYPE_FLOAT64,     ORDO_TYPE_UUID,
    ORDO_TYPE_DATE,    ORDO_TYPE_TIME_OF_DAY, ORDO_TYPE_TIMESTAMP, ORDO_TYPE_TIMESTAMPTZ,
    ORDO_TYPE_PG_LSN,  ORDO_TYPE_ENUM,     ORDO_TYPE_MACADDR,     ORDO_TYPE_MACADDR8,
    ORDO_TYPE_INTERVAL, ORDO_TYPE_INT128,
};
#define N_PACKED (sizeof packed_types / sizeof packed_types[0])

static void packed_kernels(void **state)
{
    (void)state;
    uint64_t seed = t_seed();
    /* every length mod the vector widths, and past a tile (16 KiB of keys) */
    static const size_t lens[] = {0, 1, 2, 3, 7, 31, 63, 64, 65, 129, 300, 2049, 5000};
    for (size_t ti = 0; ti < N_PACKED; ti++)
        for (int order = 0; order < 4; order++)
            for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
                ocol c;
                make_ordered(&c, packed_types[ti], lens[li], li % 3, 0, order, &seed);
                check_packed(&c, 1, lens[li]);
                free_ordered(&c);
            }
    for (int round = 0; round < 60; round++) {
        ocol cs[12];
        size_t ncols = 1 + t_rand(&seed) % 12, n = t_rand(&seed) % (round % 4 ? 200 : 3000);
        for (size_t c = 0; c < ncols; c++)
            make_ordered(&cs[c], packed_types[t_rand(&seed) % N_PACKED], n, t_rand(&seed) % 5, 0,
                         (int)(t_rand(&seed) % 4), &seed);
        check_packed(cs, ncols, n);
        for (size_t c = 0; c < ncols; c++)
            free_ordered(&cs[c]);
    }
}

/* The registry: the reference first, the portable kernels everywhere, and
 * the active implementation among the ones this CPU runs, never the
 * reference unless named. */
static void registry(void **state)
{
    (void)state;
    ordo_status s = ORDO_ERR_NULL_ARG, active_status;
    const char *active = ordo_impl_name(&active_status), *name;
    assert_string_equal(ordo_impl_at(0, &s), "scalar");
    assert_status(s, ORDO_OK);
    assert_string_equal(ordo_impl_at(1, &s), "portable");
    assert_status(s, ORDO_OK);
    int found = 0;
    size_t i = 0;
    for (; (name = ordo_impl_at(i, &s)); i++) {
        const ordo__kernels *k = NULL;
        assert_status(ordo__impl_lookup(name, &k), s);
        found |= s == ORDO_OK && !strcmp(name, active);
    }
    assert_true(i >= 5);
    assert_null(ordo_impl_at(i + 1, NULL));
    if (active_status == ORDO_OK && !getenv("ORDO_IMPL")) {
        assert_true(found);
        assert_string_not_equal(active, "scalar");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_vs_scalar), cmocka_unit_test(text_kernel_vs_reference),
        cmocka_unit_test(text_tile_vs_reference),
        cmocka_unit_test(single_columns),
        cmocka_unit_test(mixed_schemas),     cmocka_unit_test(text_columns),     cmocka_unit_test(wide_schemas),
        cmocka_unit_test(fixed_stride),
        cmocka_unit_test(capacity_and_errors),
        cmocka_unit_test(ordered_kernels),
        cmocka_unit_test(ordered_text_first),
        cmocka_unit_test(ordered_text_runs),
        cmocka_unit_test(ordered_text_runs_nulls),
        cmocka_unit_test(packed_kernels),
        cmocka_unit_test(registry),
    };
    return cmocka_run_group_tests(tests, impls_setup, NULL);
}
