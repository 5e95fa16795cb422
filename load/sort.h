/* The key sort's parts (docs/sort.md): ordo_key_argsort (load/sort.c)
 * makes a plan, the first pass (load/sort_buckets.c) writes the row ids
 * into the caller's ids bucketed by the keys' first differing bits, and
 * each bucket is then sorted in a scratch of its own size, in cache: as
 * numbers when the keys have one length and differ in at most 8 bytes or
 * at most 64 bits (load/sort_fixed.c), else by the MSD radix sort over key windows
 * (load/sort.c). So the sort touches the keys, the ids and a few buckets'
 * worth of memory per thread, never a buffer the size of the input (whose
 * first touch, on a VM, costs as much as the sort). */
#ifndef ORDO_LOAD_SORT_H
#define ORDO_LOAD_SORT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* The most threads a sort starts. */
#define ORDO__SORT_MAX_THREADS 256

typedef struct ordo__sort_plan {
    const uint8_t *keys; /* key i: keys + offsets[i]; keys + i * len when fixed (keys
                          * + offsets[0] + i * stride for a general plan's, the same) */
    const size_t *offsets;
    size_t stride;      /* general: keys of one length, back to back (0: not) */
    const uint8_t *end; /* past the last key's last byte */
    size_t n, threads;
    uint64_t *ids;
    int fixed;
    /* fixed: keys of len bytes differing in [from, from + bits / 8); or,
     * gathered (ngather > 0), in more bytes but bits bits in all: the
     * number is those bits, each byte gpos[q]'s through gbits[q] (the bits
     * that differ, in their order), made once a key into num by the first
     * pass's count */
    size_t len, from;
    unsigned bits, ngather;
    uint8_t gpos[64], gwidth[64], gbits[64][256];
    uint64_t *num;
    /* the first pass's buckets: fixed, the number's top `top` bits; else
     * the `top` (1 or 2) bytes at depth (the bytes all keys share), each
     * 1 + the byte, 0 past the key's end, a *digit*, and the buckets
     * stretches of digits of about GROUP_ROWS keys (group: digit -> bucket) */
    size_t depth;
    unsigned top;
    size_t ndigits, nbuckets;
    uint32_t *group;
    uint64_t *win;        /* general: each placed id's window (ordo__sort_window at depth) */
    size_t *pos;          /* threads x nbuckets: each slice's next place per bucket */
    const size_t *starts; /* nbuckets + 1: where each bucket starts */
    size_t big;           /* buckets larger: sorted after the others, by every thread */
    atomic_size_t next;   /* the next bucket to sort */
    atomic_int oom;
} ordo__sort_plan;

/* q[0..8) big-endian (compilers make it one load and a byte swap). */
static inline uint64_t ordo__sort_be64(const uint8_t *q)
{
    uint64_t v = 0;
    for (int b = 0; b < 8; b++)
        v = v << 8 | q[b];
    return v;
}

/* Key i of a gathered plan as its number. */
static inline uint64_t ordo__sort_gather(const ordo__sort_plan *p, size_t i)
{
    const uint8_t *k = p->keys + i * p->len;
    uint64_t v = 0;
    for (unsigned q = 0; q < p->ngather; q++)
        v = v << p->gwidth[q] | p->gbits[q][k[p->gpos[q]]];
    return v;
}

/* Key i of a fixed plan as the number of its differing bytes. */
static inline uint64_t ordo__sort_number(const ordo__sort_plan *p, size_t i)
{
    if (p->num)
        return p->num[i];
    const uint8_t *q = p->keys + i * p->len + p->from;
    if (p->end - q >= 8) /* a whole word at once, the bytes past the number dropped */
        return ordo__sort_be64(q) >> (64 - p->bits);
    uint64_t v = 0;
    for (unsigned b = 0; b < p->bits / 8; b++)
        v = v << 8 | q[b];
    return v;
}

/* key[from .. from + 8) big-endian, zeros past len (never read). */
static inline uint64_t ordo__sort_window(const uint8_t *key, size_t len, size_t from)
{
    size_t m = len > from ? len - from : 0;
    if (m >= 8)
        return ordo__sort_be64(key + from);
    uint64_t w = 0;
    for (size_t i = 0; i < 8; i++)
        w = w << 8 | (i < m ? key[from + i] : 0);
    return w;
}

/* A thread's scratch, grown as buckets need. */
typedef struct ordo__sort_scratch {
    void *mem;
    size_t cap;
} ordo__sort_scratch;

/* mem of at least bytes; NULL when out of memory (what it held is gone). */
void *ordo__sort_scratch_get(ordo__sort_scratch *s, size_t bytes);

/* Sorts p's keys into p->ids (p filled up to ndigits, nbuckets the same
 * when fixed): the first pass, then every bucket through sort_bucket, on up to
 * p->threads threads; 0 when out of memory. */
int ordo__sort_buckets(ordo__sort_plan *p);

/* Sorts the ids of one bucket, ids[0 .. m) (m >= 2, keys agreeing on the
 * bucket's bits), in place; 0 when out of memory. A general plan's ids
 * come with their key's length in their high 32 bits (so that the key
 * need not be looked up to place it) and their windows at the same places
 * of p->win; they go back plain. */
int ordo__sort_bucket_fixed(const ordo__sort_plan *p, ordo__sort_scratch *s, uint64_t *ids,
                            size_t m);
int ordo__sort_bucket_general(const ordo__sort_plan *p, ordo__sort_scratch *s, uint64_t *ids,
                              size_t m, size_t threads);

/* A fixed plan for n keys of len bytes back to back at keys (NULL when len
 * is 0): 1 when their differing bytes span at most 8, or their differing
 * bits are 64 or fewer (gathered; 256 keys or more) (*p filled; all equal: bits 0), 0 when
 * not (len 64 or less: p->from the bytes all keys share). */
int ordo__sort_plan_fixed(ordo__sort_plan *p, const uint8_t *keys, size_t len, size_t n);

#endif
