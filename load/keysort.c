#include "keysort.h"

#include <stdlib.h>
#include <string.h>

static int item_compare(const ordo__keysort_item *a, const ordo__keysort_item *b, size_t depth)
{
    size_t an = ordo__rec_key_len(a->rec), bn = ordo__rec_key_len(b->rec);
    /* Both keys agree on their first `depth` bytes, zero padded. A key may
     * end before `depth` (its run tied with longer keys on zero bytes): it is
     * then a prefix of the other key, and the shorter key sorts first. */
    size_t ar = an > depth ? an - depth : 0, br = bn > depth ? bn - depth : 0;
    size_t m = ar < br ? ar : br;
    int c = m ? memcmp(ordo__rec_key(a->rec) + depth, ordo__rec_key(b->rec) + depth, m) : 0;
    return c ? c : (an > bn) - (an < bn);
}

/* Stable, for short runs. */
static void insertion_sort(ordo__keysort_item *a, size_t n, size_t depth)
{
    for (size_t i = 1; i < n; i++) {
        ordo__keysort_item x = a[i];
        size_t j = i;
        while (j > 0 && item_compare(&a[j - 1], &x, depth) > 0) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

/* Key bytes [depth, depth + 8) as a big-endian integer, zeros past the end. */
static uint64_t load_prefix(const uint8_t *rec, size_t depth)
{
    size_t len = ordo__rec_key_len(rec);
    const uint8_t *k = ordo__rec_key(rec) + depth;
    uint8_t b[8] = {0};
    if (len >= depth + 8)
        memcpy(b, k, 8);
    else if (len > depth)
        memcpy(b, k, len - depth);
    uint64_t v;
    memcpy(&v, b, 8);
    return __builtin_bswap64(v);
}

#define SMALL_RUN 24
/* Items above this many (16 bytes each: 1 MB) are split by their highest
 * varying byte first. */
#define MSD_MIN 65536

/* src[0..n) into dst in the order of their prefix's byte d (stably), the
 * bytes' counts given. */
static void scatter_by_byte(const ordo__keysort_item *src, ordo__keysort_item *dst, size_t n,
                            const size_t counts[256], int d)
{
    size_t pos[256], sum = 0;
    for (int b = 0; b < 256; b++) {
        pos[b] = sum;
        sum += counts[b];
    }
    for (size_t i = 0; i < n; i++)
        dst[pos[(src[i].prefix >> (8 * d)) & 255]++] = src[i];
}

/* Stable LSD radix sort of a[0..n) by .prefix, skipping the bytes on which
 * every item agrees; t is scratch of n items. */
static void radix_by_prefix(ordo__keysort_item *a, ordo__keysort_item *t, size_t n)
{
    size_t counts[8][256];
    memset(counts, 0, sizeof counts);
    uint64_t all_or = 0, all_and = ~UINT64_C(0);
    for (size_t i = 0; i < n; i++) {
        uint64_t p = a[i].prefix;
        all_or |= p, all_and &= p;
        for (int d = 0; d < 8; d++)
            counts[d][(p >> (8 * d)) & 255]++;
    }
    ordo__keysort_item *src = a, *dst = t;
    uint64_t varying = all_or ^ all_and;
    if (n > MSD_MIN && varying & (varying - 1) & ~(uint64_t)0xff) {
        /* beyond the caches with more than one varying byte: one pass on
         * the highest, then each bucket (its byte now the same) sorted in
         * cache rather than every pass over all n */
        int d = 7;
        while (!((varying >> (8 * d)) & 255))
            d--;
        scatter_by_byte(a, t, n, counts[d], d);
        for (size_t b = 0, at = 0; b < 256; at += counts[d][b], b++) {
            if (counts[d][b] > 1)
                radix_by_prefix(t + at, a + at, counts[d][b]);
            memcpy(a + at, t + at, counts[d][b] * sizeof *a);
        }
        return;
    }
    for (int d = 0; d < 8; d++) {
        if (!((varying >> (8 * d)) & 255))
            continue;
        scatter_by_byte(src, dst, n, counts[d], d);
        ordo__keysort_item *x = src;
        src = dst, dst = x;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
}

typedef struct task {
    size_t at, n, depth;
} task;

/* Returns 0 when out of memory for the work list (the items are then only
 * partly sorted). Runs are sorted from an explicit stack, not by recursion,
 * so that keys with long shared prefixes cannot exhaust the call stack. */
int ordo__keysort(ordo__keysort_item *items, ordo__keysort_item *tmp, size_t n)
{
    size_t cap = 64, top = 0;
    task *stack = malloc(cap * sizeof *stack);
    if (!stack)
        return 0;
    stack[top++] = (task){0, n, 0};
    while (top) {
        task k = stack[--top];
        ordo__keysort_item *a = items + k.at, *t = tmp + k.at;
        if (k.n <= SMALL_RUN) {
            insertion_sort(a, k.n, k.depth);
            continue;
        }
        for (size_t i = 0; i < k.n; i++)
            a[i].prefix = load_prefix(a[i].rec, k.depth);
        radix_by_prefix(a, t, k.n);
        /* runs equal on these eight bytes: on to the next eight, unless every
         * key of the run ends here, when they differ at most in length and
         * the shorter sorts first */
        for (size_t i = 0; i < k.n;) {
            size_t j = i + 1;
            int longer = ordo__rec_key_len(a[i].rec) > k.depth + 8;
            while (j < k.n && a[j].prefix == a[i].prefix) {
                longer |= ordo__rec_key_len(a[j].rec) > k.depth + 8;
                j++;
            }
            if (j - i > 1 && longer) {
                if (top == cap) {
                    task *grown = realloc(stack, 2 * cap * sizeof *stack);
                    if (!grown) {
                        free(stack);
                        return 0;
                    }
                    stack = grown, cap *= 2;
                }
                stack[top++] = (task){k.at + i, j - i, k.depth + 8};
            } else if (j - i > SMALL_RUN) {
                for (size_t m = i; m < j; m++)
                    a[m].prefix = ordo__rec_key_len(a[m].rec);
                radix_by_prefix(a + i, t + i, j - i);
            } else if (j - i > 1) {
                insertion_sort(a + i, j - i, k.depth);
            }
            i = j;
        }
    }
    free(stack);
    return 1;
}
