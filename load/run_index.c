#define _DEFAULT_SOURCE /* pread */
#include "run_index.h"

#include "crc32c.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char MAGIC[8] = {'o', 'r', 'd', 'o', 'R', 'I', 'X', '\n'};
#define VERSION 2 /* 1: without the blocks' CRC32C */
#define TRUNCATED 0x80000000u
#define ENTRY_HEAD 16

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get_u64(const uint8_t *p) { return get_u32(p) | (uint64_t)get_u32(p + 4) << 32; }

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}
#define FNV_START 0xcbf29ce484222325u

/* Stores the CRC of the block of the last entry. */
static void end_block(ordo__run_index *ix)
{
    if (ix->count)
        put_u32(ix->buf + ix->last + 12, ix->crc);
    ix->crc = 0;
}

int ordo__run_index_add(ordo__run_index *ix, uint64_t offset, const uint8_t *key, size_t key_len)
{
    size_t kn = key_len > ORDO__RUN_INDEX_KEY ? ORDO__RUN_INDEX_KEY : key_len;
    if (ix->cap - ix->len < ENTRY_HEAD + kn) {
        size_t cap = ix->cap ? ix->cap * 2 : 4096;
        uint8_t *p = realloc(ix->buf, cap);
        if (!p)
            return 0;
        ix->buf = p, ix->cap = cap;
    }
    end_block(ix);
    uint8_t *e = ix->buf + ix->len;
    put_u64(e, offset);
    put_u32(e + 8, (uint32_t)kn | (kn < key_len ? TRUNCATED : 0));
    put_u32(e + 12, 0);
    if (kn)
        memcpy(e + ENTRY_HEAD, key, kn);
    ix->last = ix->len;
    ix->len += ENTRY_HEAD + kn;
    ix->count++;
    return 1;
}

void ordo__run_index_data(ordo__run_index *ix, const void *p, size_t n)
{
    ix->crc = ordo__crc32c(ix->crc, p, n);
}

uint64_t ordo__run_index_offset(const ordo__run_index *ix, size_t i)
{
    return get_u64(ix->buf + ix->at[i]);
}

uint32_t ordo__run_index_crc(const ordo__run_index *ix, size_t i)
{
    return get_u32(ix->buf + ix->at[i] + 12);
}

static void footer(uint8_t f[ORDO__RUN_FOOTER], const uint8_t *entries, size_t len, size_t count,
                   uint64_t data_end)
{
    memcpy(f, MAGIC, 8);
    put_u32(f + 8, VERSION);
    put_u32(f + 12, (uint32_t)count);
    put_u64(f + 16, data_end);
    put_u64(f + 24, fnv(fnv(FNV_START, entries, len), f, 24));
}

int ordo__run_index_write(ordo__run_index *ix, FILE *f, uint64_t data_end)
{
    end_block(ix);
    uint8_t ft[ORDO__RUN_FOOTER];
    footer(ft, ix->buf, ix->len, ix->count, data_end);
    return (!ix->len || fwrite(ix->buf, 1, ix->len, f) == ix->len) &&
           fwrite(ft, 1, sizeof ft, f) == sizeof ft;
}

static int bad(int *malformed, char *err, size_t errlen, const char *why)
{
    *malformed = 1;
    snprintf(err, errlen, "%s", why);
    return 0;
}

static int read_at(int fd, uint8_t *p, size_t n, uint64_t at, char *err, size_t errlen)
{
    while (n) {
        ssize_t got = pread(fd, p, n, (off_t)at);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            snprintf(err, errlen, "cannot read: %s", got < 0 ? strerror(errno) : "file shrank");
            return 0;
        }
        p += got, n -= (size_t)got, at += (uint64_t)got;
    }
    return 1;
}

int ordo__run_index_read(ordo__run_index *ix, int fd, uint64_t size, uint64_t *data_end,
                         int *malformed, char *err, size_t errlen)
{
    memset(ix, 0, sizeof *ix);
    *malformed = 0;
    uint8_t ft[ORDO__RUN_FOOTER];
    if (size < ORDO__RUN_FOOTER)
        return bad(malformed, err, errlen, "no run index (truncated, or not a run file)");
    if (!read_at(fd, ft, sizeof ft, size - ORDO__RUN_FOOTER, err, errlen))
        return 0;
    if (memcmp(ft, MAGIC, 8))
        return bad(malformed, err, errlen, "no run index (truncated, or not a run file)");
    if (get_u32(ft + 8) != VERSION)
        return bad(malformed, err, errlen, "a run index of an unknown version");
    uint64_t end = get_u64(ft + 16), count = get_u32(ft + 12);
    if (end > size - ORDO__RUN_FOOTER)
        return bad(malformed, err, errlen, "a damaged run index (its offset)");
    uint64_t len = size - ORDO__RUN_FOOTER - end;
    /* an entry per started block at most: bounds what a damaged footer
     * makes us allocate */
    uint64_t blocks = end ? (end - 1) / ORDO__RUN_BLOCK + 1 : 0;
    if (count > blocks || len > blocks * (ENTRY_HEAD + ORDO__RUN_INDEX_KEY) || len > SIZE_MAX)
        return bad(malformed, err, errlen, "a damaged run index (its size)");
    ix->buf = malloc(len ? (size_t)len : 1);
    ix->at = malloc(count ? (size_t)count * sizeof *ix->at : 1);
    if (!ix->buf || !ix->at) {
        ordo__run_index_free(ix);
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    if (!read_at(fd, ix->buf, (size_t)len, end, err, errlen)) {
        ordo__run_index_free(ix);
        return 0;
    }
    ix->len = ix->cap = (size_t)len;
    if (fnv(fnv(FNV_START, ix->buf, ix->len), ft, 24) != get_u64(ft + 24)) {
        ordo__run_index_free(ix);
        return bad(malformed, err, errlen, "a damaged run index (its checksum)");
    }
    /* the entries must parse exactly, their offsets rise from 0 inside the
     * records (a record per block start at most) */
    size_t at = 0;
    uint64_t prev = 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t kn = ix->len - at >= ENTRY_HEAD ? get_u32(ix->buf + at + 8) & ~TRUNCATED : 0;
        uint64_t off = ix->len - at >= ENTRY_HEAD ? get_u64(ix->buf + at) : 0;
        if (ix->len - at < ENTRY_HEAD || kn > ORDO__RUN_INDEX_KEY ||
            ix->len - at - ENTRY_HEAD < kn || off >= end || (i ? off <= prev : off != 0)) {
            ordo__run_index_free(ix);
            return bad(malformed, err, errlen, "a damaged run index (its entries)");
        }
        ix->at[i] = at;
        prev = off;
        at += ENTRY_HEAD + kn;
    }
    if (at != ix->len || (!count && end)) {
        ordo__run_index_free(ix);
        return bad(malformed, err, errlen, "a damaged run index (its entries)");
    }
    ix->count = (size_t)count;
    *data_end = end;
    return 1;
}

/* Entry i's first key is surely below lo: its stored prefix is, and is not
 * a cut key lo starts with (then the whole key may be above lo). */
static int surely_below(const ordo__run_index *ix, size_t i, const uint8_t *lo, size_t lo_len)
{
    const uint8_t *e = ix->buf + ix->at[i];
    uint32_t word = get_u32(e + 8), kn = word & ~TRUNCATED;
    size_t n = kn < lo_len ? kn : lo_len;
    int c = n ? memcmp(e + ENTRY_HEAD, lo, n) : 0;
    if (c)
        return c < 0;
    return kn < lo_len && !(word & TRUNCATED);
}

uint64_t ordo__run_index_seek(const ordo__run_index *ix, const uint8_t *lo, size_t lo_len)
{
    /* the last block whose first key is below lo, strictly: a block
     * starting with lo itself may follow records equal to lo */
    size_t a = 0, b = ix->count;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (surely_below(ix, m, lo, lo_len))
            a = m + 1;
        else
            b = m;
    }
    return a ? get_u64(ix->buf + ix->at[a - 1]) : 0;
}

uint64_t ordo__run_index_limit(const ordo__run_index *ix, const uint8_t *hi, size_t hi_len,
                               uint64_t data_end)
{
    /* the first block whose first key is hi or above: a stored prefix that
     * is, is a key that is (cut or not) */
    size_t a = 0, b = ix->count;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        const uint8_t *e = ix->buf + ix->at[m];
        uint32_t kn = get_u32(e + 8) & ~TRUNCATED;
        size_t n = kn < hi_len ? kn : hi_len;
        int c = n ? memcmp(e + ENTRY_HEAD, hi, n) : 0;
        if (c < 0 || (c == 0 && kn < hi_len))
            a = m + 1;
        else
            b = m;
    }
    return a < ix->count ? get_u64(ix->buf + ix->at[a]) : data_end;
}

void ordo__run_index_free(ordo__run_index *ix)
{
    free(ix->buf);
    free(ix->at);
    memset(ix, 0, sizeof *ix);
}
