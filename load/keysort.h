/* Sorting encoded keys: a key-prefix radix sort. Each item carries the next
 * eight key bytes as a big-endian integer, so that most of the work is an
 * LSD radix sort over those integers; runs that tie on them are sorted again
 * on the next eight bytes. Stable: equal keys keep their input order. */
#ifndef ORDO_KEYSORT_H
#define ORDO_KEYSORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct ordo__keysort_item {
    uint64_t prefix;    /* scratch: key bytes at the current depth */
    const uint8_t *rec; /* a record: see ordo__rec_key / ordo__rec_key_len */
} ordo__keysort_item;

/* The record layout the sort reads keys from: a 16-byte header
 * (u32 key length, u32 value length, u64 input line), the key, the value. */
#define ORDO__REC_HEADER 16
/* Records are packed back to back: no alignment is assumed. */
static inline uint32_t ordo__rec_u32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static inline uint32_t ordo__rec_key_len(const uint8_t *rec) { return ordo__rec_u32(rec); }
static inline uint32_t ordo__rec_value_len(const uint8_t *rec) { return ordo__rec_u32(rec + 4); }
static inline uint64_t ordo__rec_seq(const uint8_t *rec)
{
    uint64_t v;
    memcpy(&v, rec + 8, 8);
    return v;
}
static inline const uint8_t *ordo__rec_key(const uint8_t *rec) { return rec + ORDO__REC_HEADER; }
static inline const uint8_t *ordo__rec_value(const uint8_t *rec)
{
    return rec + ORDO__REC_HEADER + ordo__rec_key_len(rec);
}
static inline size_t ordo__rec_size(const uint8_t *rec)
{
    return ORDO__REC_HEADER + (size_t)ordo__rec_key_len(rec) + ordo__rec_value_len(rec);
}

/* Asks for a record read soon, out of order: its first two cache lines
 * (the header, the key, the value's start in the common case). */
static inline void ordo__rec_prefetch(const uint8_t *rec)
{
    __builtin_prefetch(rec);
    __builtin_prefetch(rec + 64);
}

/* Writes a record at r (room: ORDO__REC_HEADER + the key, its tag byte when
 * tag >= 0, and the value): the stored key is the tag, then key. */
static inline void ordo__rec_put(uint8_t *r, int tag, const void *key, size_t kn, const void *val,
                                 size_t vn, uint64_t seq)
{
    size_t t = tag >= 0;
    uint32_t k32 = (uint32_t)(t + kn), v32 = (uint32_t)vn;
    memcpy(r, &k32, 4);
    memcpy(r + 4, &v32, 4);
    memcpy(r + 8, &seq, 8);
    if (t)
        r[ORDO__REC_HEADER] = (uint8_t)tag;
    if (kn)
        memcpy(r + ORDO__REC_HEADER + t, key, kn);
    if (vn)
        memcpy(r + ORDO__REC_HEADER + t + kn, val, vn);
}


/* Sorts items[0..n) by key; tmp has room for n items. 0: out of memory. */
int ordo__keysort(ordo__keysort_item *items, ordo__keysort_item *tmp, size_t n);

#endif
