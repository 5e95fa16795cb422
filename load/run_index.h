/* The sparse index at the end of a run file: every ORDO__RUN_BLOCK bytes of
 * records, the offset and the first key (a prefix of at most
 * ORDO__RUN_INDEX_KEY bytes) of the record that starts there, so that a
 * range merge seeks near its lower bound instead of reading every record
 * before it, and the CRC32C of the block's records (from its entry's offset
 * to the next entry's, the last to the records' end), so that a damaged
 * block is refused before any of its records is used. Layout (integers
 * little-endian), after the records:
 *
 *   entry*   u64 offset, u32 stored key length (bit 31: the key was cut to
 *            its prefix), u32 CRC32C of the block, the key bytes
 *   footer   "ordoRIX\n", u32 version (2), u32 entries, u64 offset of the
 *            first entry (= the end of the records), u64 FNV-1a 64 of the
 *            entries and the footer's first 24 bytes
 *
 * The records before it are exactly those of a run without an index. */
#ifndef ORDO_RUN_INDEX_H
#define ORDO_RUN_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ORDO__RUN_BLOCK ((uint64_t)64 << 10)
#define ORDO__RUN_INDEX_KEY 256
#define ORDO__RUN_FOOTER 32

typedef struct ordo__run_index {
    uint8_t *buf; /* the entries as stored */
    size_t len, cap;
    size_t count;
    size_t *at;   /* where entry i starts in buf (read indexes only) */
    size_t last;  /* writing: where the last entry starts in buf */
    uint32_t crc; /* writing: the CRC32C of its block's records so far */
} ordo__run_index;

/* Appends the entry of the record at offset with this key (a new block);
 * 0: out of memory. */
int ordo__run_index_add(ordo__run_index *ix, uint64_t offset, const uint8_t *key, size_t key_len);
/* The records' bytes, as they are written after the entry last added. */
void ordo__run_index_data(ordo__run_index *ix, const void *p, size_t n);
/* Writes the entries and the footer (the records end at data_end); 0 on a
 * write error. */
int ordo__run_index_write(ordo__run_index *ix, FILE *f, uint64_t data_end);
/* Entry i's offset, and its block's CRC32C (read indexes). */
uint64_t ordo__run_index_offset(const ordo__run_index *ix, size_t i);
uint32_t ordo__run_index_crc(const ordo__run_index *ix, size_t i);

/* Reads the index of the file fd of size bytes: 1 and *data_end, or 0 with
 * *malformed 1 (no footer, a damaged one or a damaged index) or 0 (a read
 * error, out of memory), err saying which. */
int ordo__run_index_read(ordo__run_index *ix, int fd, uint64_t size, uint64_t *data_end,
                         int *malformed, char *err, size_t errlen);
/* An offset of a block start before which every record's key is below lo:
 * reading from there and skipping keys below lo misses none at or after lo
 * (equal keys that span blocks included). 0 when there is none. */
uint64_t ordo__run_index_seek(const ordo__run_index *ix, const uint8_t *lo, size_t lo_len);
/* An offset of a block start from which every record's key is hi or above:
 * a read of [lo, hi) may stop there. data_end when there is none. */
uint64_t ordo__run_index_limit(const ordo__run_index *ix, const uint8_t *hi, size_t hi_len,
                               uint64_t data_end);
void ordo__run_index_free(ordo__run_index *ix);

#endif
