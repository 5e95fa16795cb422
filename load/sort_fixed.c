/* The key sort's buckets of keys of one length whose differing bytes span
 * at most 8 (any keys of fixed-width columns: a bigint's 9 bytes differ in
 * 8 at most, a date and an int's in 8; load/sort.h), or whose differing
 * bits are 64 at most: each key is read as the number those bytes make,
 * big-endian (or those bits, gathered in key order), so that a comparison is one
 * integer compare and no pointer is followed. A bucket's ids become
 * 16-byte entries (number, id) in a scratch, sorted there in cache (radix
 * passes between it and a second scratch, insertion sort for small
 * ranges), its ids written back in place. Stable: every pass scatters in
 * order, the insertion sort moves an entry only past greater ones, and a
 * bucket's ids come in input order. */
#include "load_internal.h"
#include "sort.h"

#include <stdlib.h>
#include <string.h>

typedef struct fent {
    uint64_t k, id;
} fent;

/* Ranges this small are insertion sorted. */
#define SMALL 24

/* Stable: an entry moves only past greater ones. */
static void insertion_sort(fent *e, size_t m)
{
    for (size_t i = 1; i < m; i++) {
        fent x = e[i];
        size_t j = i;
        for (; j > 0 && x.k < e[j - 1].k; j--)
            e[j] = e[j - 1];
        e[j] = x;
    }
}

/* Ids of the sorted e[0..m) to out. */
static void put_ids(const fent *e, size_t m, uint64_t *out)
{
    for (size_t i = 0; i < m; i++)
        out[i] = e[i].id;
}

/* Sorts e[0..m) whose numbers agree above their low bits, t a scratch of
 * m entries, and writes the ids in order to out. Each level scatters by
 * the next bits into the other buffer, about as many buckets as entries,
 * so most hold one or two; the small buckets are then finished by one
 * insertion sort over each stretch of them (an entry never moves past
 * another bucket's, which are all smaller), the large ones by the next
 * level: at most 64 / 4 levels. */
static void sort_range(fent *e, fent *t, size_t m, unsigned bits, uint64_t *out)
{
    if (m <= SMALL || !bits) {
        if (bits)
            insertion_sort(e, m);
        put_ids(e, m, out);
        return;
    }
    unsigned d = 4;
    while (d < 11 && ((size_t)1 << d) < m)
        d++;
    if (d > bits)
        d = bits;
    unsigned shift = bits - d;
    size_t nb = (size_t)1 << d, mask = nb - 1, count[2048];
    memset(count, 0, nb * sizeof *count);
    for (size_t i = 0; i < m; i++)
        count[(e[i].k >> shift) & mask]++;
    if (count[(e[0].k >> shift) & mask] == m) { /* these bits are the same in every entry */
        sort_range(e, t, m, shift, out);
        return;
    }
    size_t pos[2048], sum = 0;
    for (size_t b = 0; b < nb; b++)
        pos[b] = sum, sum += count[b];
    for (size_t i = 0; i < m; i++)
        t[pos[(e[i].k >> shift) & mask]++] = e[i];
    size_t run = 0, at = 0; /* t[run .. at): small buckets not yet finished */
    for (size_t b = 0; b < nb; at += count[b], b++)
        if (count[b] > SMALL) {
            insertion_sort(t + run, at - run);
            put_ids(t + run, at - run, out + run);
            sort_range(t + at, e + at, count[b], shift, out + at);
            run = at + count[b];
        }
    insertion_sort(t + run, m - run);
    put_ids(t + run, m - run, out + run);
}

int ordo__sort_bucket_fixed(const ordo__sort_plan *p, ordo__sort_scratch *sc, uint64_t *ids,
                            size_t m)
{
    fent *s = ordo__sort_scratch_get(sc, 2 * m * sizeof *s);
    if (!s)
        return 0;
    for (size_t i = 0; i < m; i++) {
        if (i + 16 < m) /* the keys are far apart: asked for ahead */
            __builtin_prefetch(p->num ? (const void *)(p->num + ids[i + 16])
                                      : p->keys + ids[i + 16] * p->len + p->from);
        s[i] = (fent){ordo__sort_number(p, ids[i]), ids[i]};
    }
    sort_range(s, s + m, m, p->bits - p->top, ids);
    return 1;
}

/* The bytes at which keys of length len (1 to 64) differ from the first
 * key: [*from, *from + *width); *width 0 when all are equal; d[j] the bits
 * of byte j that differ somewhere. Compared a word at a time, the words'
 * bytes in memory order. */
static void differing(const uint8_t *keys, size_t len, size_t n, size_t *from, size_t *width,
                      uint8_t d[64])
{
    uint64_t first[8] = {0}, diff[8] = {0};
    size_t words = len / 8, tail = len % 8;
    memcpy(first, keys, len);
    uint8_t tdiff[8] = {0};
    for (size_t i = 1; i < n; i++) {
        const uint8_t *k = keys + i * len;
        for (size_t w = 0; w < words; w++) {
            uint64_t x;
            memcpy(&x, k + 8 * w, 8);
            diff[w] |= x ^ first[w];
        }
        for (size_t b = 0; b < tail; b++)
            tdiff[b] |= (uint8_t)(k[8 * words + b] ^ keys[8 * words + b]);
    }
    memcpy(d, diff, 8 * words);
    memcpy(d + 8 * words, tdiff, tail);
    size_t lo = 0, hi = len;
    while (lo < len && !d[lo])
        lo++;
    while (hi > lo && !d[hi - 1])
        hi--;
    *from = lo, *width = hi - lo;
}

int ordo__sort_plan_fixed(ordo__sort_plan *p, const uint8_t *keys, size_t len, size_t n)
{
    if (len > 64)
        return 0;
    size_t from = 0, width = 0;
    uint8_t d[64] = {0};
    if (len && n > 1)
        differing(keys, len, n, &from, &width, d);
    p->from = from; /* (the bytes all keys share, for a general plan) */
    unsigned bits = 0;
    for (size_t j = from; j < from + width; j++)
        bits += (unsigned)__builtin_popcount(d[j]);
    /* (gathering builds a 256-entry table a byte: not for fewer keys) */
    if (width > 8 && (bits > 64 || n < 256))
        return 0;
    p->ngather = 0;
    if (width > 8) /* the differing bits of each byte that has some, packed */
        for (size_t j = from; j < from + width; j++) {
            if (!d[j])
                continue;
            unsigned q = p->ngather++;
            p->gpos[q] = (uint8_t)j, p->gwidth[q] = (uint8_t)__builtin_popcount(d[j]);
            for (unsigned v = 0; v < 256; v++) {
                unsigned out = 0;
                for (int b = 7; b >= 0; b--)
                    if (d[j] >> b & 1)
                        out = out << 1 | (v >> b & 1);
                p->gbits[q][v] = (uint8_t)out;
            }
        }
    p->fixed = 1, p->keys = keys, p->end = keys ? keys + n * len : NULL, p->len = len;
    p->bits = width > 8 ? bits : (unsigned)(8 * width), p->n = n;
    /* buckets of about a thousand rows: two of them fit a core's cache */
    unsigned top = 8;
    while (top < 16 && ((size_t)1024 << top) < n)
        top++;
    p->top = top < p->bits ? top : p->bits;
    p->ndigits = p->nbuckets = (size_t)1 << p->top;
    return 1;
}
