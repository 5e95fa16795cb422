#include "runs.h"

#include "crc32c.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int io_error(const char *what, const char *path, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s '%s': %s", what, path, strerror(errno ? errno : EIO));
    return 0;
}

int ordo__run_out_open(ordo__run_out *o, const char *path, size_t buffer, char **iobuf,
                       int indexed, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->indexed = indexed;
    /* a new file of ordo's own temporary folder: never one that exists */
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    struct stat st;
    if (fd >= 0 && !fstat(fd, &st))
        o->id.dev = st.st_dev, o->id.ino = st.st_ino;
    o->f = fd < 0 ? NULL : fdopen(fd, "wb");
    if (!o->f) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        errno = e;
        return io_error("cannot create", path, err, errlen);
    }
    *iobuf = malloc(buffer);
    if (*iobuf)
        setvbuf(o->f, *iobuf, _IOFBF, buffer);
    return 1;
}

int ordo__run_out_put(ordo__run_out *o, const uint8_t *rec, char *err, size_t errlen)
{
    size_t n = ordo__rec_size(rec);
    if (o->indexed && o->pos >= o->mark) {
        if (!ordo__run_index_add(&o->ix, o->pos, ordo__rec_key(rec), ordo__rec_key_len(rec))) {
            o->oom = 1;
            snprintf(err, errlen, "out of memory indexing '%s'", o->path);
            return 0;
        }
        o->mark = o->pos + ORDO__RUN_BLOCK;
    }
    o->pos += n;
    if (o->indexed)
        ordo__run_index_data(&o->ix, rec, n);
    errno = 0;
    return fwrite(rec, 1, n, o->f) == n || io_error("cannot write", o->path, err, errlen);
}

int ordo__run_out_close(ordo__run_out *o, char *err, size_t errlen)
{
    errno = 0;
    int bad = o->indexed && !o->oom && !ferror(o->f) && !ordo__run_index_write(&o->ix, o->f, o->pos);
    bad |= ferror(o->f);
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    ordo__run_index_free(&o->ix);
    return !bad || io_error("cannot write", o->path, err, errlen);
}

int ordo__run_write(const char *path, const ordo__keysort_item *items, size_t n, size_t buffer,
                    ordo__out_file *id, char *err, size_t errlen)
{
    ordo__run_out o;
    char *iobuf = NULL;
    if (!ordo__run_out_open(&o, path, buffer, &iobuf, 1, err, errlen))
        return 0;
    if (id)
        *id = o.id;
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        if (i + 16 < n) /* the records in key order lie all over the arena */
            ordo__rec_prefetch(items[i + 16].rec);
        ok = ordo__run_out_put(&o, items[i].rec, err, errlen);
    }
    int oom = o.oom;
    char later[256]; /* the first error is the one to report */
    if (!ordo__run_out_close(&o, ok ? err : later, ok ? errlen : sizeof later))
        ok = 0;
    free(iobuf);
    if (!ok) /* half-written: ours to remove */
        ordo__out_remove(AT_FDCWD, path, &o.id);
    return ok ? 1 : oom ? -1 : 0;
}

/* 0, for `return malformed(...) - 1` (-1, the reader's error). */
static int malformed(ordo__run_reader *r, const char *why, char *err, size_t errlen)
{
    r->malformed = 1;
    snprintf(err, errlen, "run file '%s': %s", r->path, why);
    return 0;
}

int ordo__run_reader_open(ordo__run_reader *r, const char *path, size_t buffer, int indexed,
                          char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->buffer = buffer;
    errno = 0;
    r->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (r->fd < 0)
        return io_error("cannot open", path, err, errlen);
    r->opened = 1;
    struct stat st;
    if (fstat(r->fd, &st))
        return io_error("cannot read", path, err, errlen);
    if (!S_ISREG(st.st_mode))
        return malformed(r, "not a regular file", err, errlen);
    r->end = (uint64_t)st.st_size;
    r->indexed = indexed;
    if (indexed) {
        char why[200];
        if (!ordo__run_index_read(&r->ix, r->fd, r->end, &r->end, &r->malformed, why,
                                  sizeof why)) {
            snprintf(err, errlen, "run file '%s': %s", path, why);
            return 0;
        }
    }
    return 1;
}

/* Allocates the buffer: no larger than what is left to read; for checked
 * blocks, room for two at least, so that blocks are checked from the
 * buffer they are then read from. */
static int start(ordo__run_reader *r, char *err, size_t errlen)
{
    uint64_t span = r->end - r->pos;
    size_t want = r->buffer;
    if (r->nblk && want < 2 * ORDO__RUN_BLOCK)
        want = 2 * ORDO__RUN_BLOCK;
    size_t size = span < want ? (size_t)span : want;
    if (size < 4096)
        size = 4096;
    r->started = 1;
    r->file_at = r->pos;
    r->checked = r->pos;
    if (!(r->buf = malloc(size))) {
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    r->buf_cap = size;
    return 1;
}

int ordo__run_reader_range(ordo__run_reader *r, const uint8_t *lo, size_t lo_len,
                           const uint8_t *hi, size_t hi_len, char *err, size_t errlen)
{
    uint64_t at = lo ? ordo__run_index_seek(&r->ix, lo, lo_len) : 0;
    uint64_t end = hi ? ordo__run_index_limit(&r->ix, hi, hi_len, r->end) : r->end;
    r->pos = at;
    r->end = end > at ? end : at;
    /* the blocks in [at, end): their ends and checksums (the index itself
     * is not needed again: the merge's memory is for buffers) */
    size_t first = 0, n = 0;
    while (first < r->ix.count && ordo__run_index_offset(&r->ix, first) < r->pos)
        first++;
    while (first + n < r->ix.count && ordo__run_index_offset(&r->ix, first + n) < r->end)
        n++;
    if (n && !(r->blk = malloc(n * sizeof *r->blk))) {
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        size_t k = first + i;
        r->blk[i].end = k + 1 < r->ix.count ? ordo__run_index_offset(&r->ix, k + 1) : r->end;
        r->blk[i].crc = ordo__run_index_crc(&r->ix, k);
    }
    r->nblk = n;
    ordo__run_index_free(&r->ix);
    return start(r, err, errlen);
}

/* n bytes at the file offset file_at into dst: 1, or 0 (err). */
static int read_full(ordo__run_reader *r, uint8_t *dst, size_t n, char *err, size_t errlen)
{
    while (n) {
        errno = 0;
        ssize_t got = pread(r->fd, dst, n, (off_t)r->file_at);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            if (!got)
                errno = EIO; /* the file shrank */
            return io_error("cannot read", r->path, err, errlen);
        }
        dst += got, n -= (size_t)got, r->file_at += (uint64_t)got;
    }
    return 1;
}

/* The next n bytes, all before r->end, into dst: 1, or 0 (err). */
static int take(ordo__run_reader *r, uint8_t *dst, size_t n, char *err, size_t errlen)
{
    while (n) {
        if (r->buf_at == r->buf_len) {
            if (n >= r->buf_cap) /* a large record: straight in */
                return read_full(r, dst, n, err, errlen);
            uint64_t left = r->end - r->file_at;
            size_t want = left < r->buf_cap ? (size_t)left : r->buf_cap;
            if (!read_full(r, r->buf, want, err, errlen))
                return 0;
            r->buf_at = 0, r->buf_len = want;
        }
        size_t k = r->buf_len - r->buf_at < n ? r->buf_len - r->buf_at : n;
        memcpy(dst, r->buf + r->buf_at, k);
        dst += k, n -= k, r->buf_at += k;
    }
    return 1;
}

/* At r->checked, the start of block r->blk_next: checks the blocks that
 * fit in the buffer whole and leaves them there to be read; a block larger
 * than the buffer is checked through it, then read again. 1, or 0 (err). */
static int check_blocks(ordo__run_reader *r, char *err, size_t errlen)
{
    uint64_t from = r->checked;
    size_t k = r->blk_next;
    while (k < r->nblk && r->blk[k].end - from <= r->buf_cap)
        k++;
    int fits = k > r->blk_next;
    uint64_t to = fits ? r->blk[k - 1].end : r->blk[r->blk_next].end;
    r->buf_at = r->buf_len = 0; /* what it held of these blocks is read again */
    r->file_at = from;
    uint32_t crc = 0;
    uint64_t block_start = from;
    while (r->file_at < to) {
        uint64_t base = r->file_at, left = to - base; /* buf[0] is at base */
        size_t n = left < r->buf_cap ? (size_t)left : r->buf_cap;
        if (!read_full(r, r->buf, n, err, errlen))
            return 0;
        uint64_t at = base;
        while (r->blk_next < r->nblk && r->blk[r->blk_next].end <= r->file_at) {
            uint64_t e = r->blk[r->blk_next].end;
            crc = ordo__crc32c(crc, r->buf + (at - base), (size_t)(e - at));
            if (crc != r->blk[r->blk_next].crc) {
                char why[96];
                snprintf(why, sizeof why, "a damaged block at offset %llu (its checksum)",
                         (unsigned long long)block_start);
                return malformed(r, why, err, errlen);
            }
            crc = 0, at = block_start = e;
            r->blk_next++;
        }
        crc = ordo__crc32c(crc, r->buf + (at - base), (size_t)(r->file_at - at));
    }
    if (fits)
        r->buf_len = (size_t)(to - from); /* whole blocks: read from the buffer */
    else
        r->file_at = from;
    r->checked = to;
    return 1;
}

int ordo__run_reader_next(ordo__run_reader *r, char *err, size_t errlen)
{
    if (!r->started && !(r->indexed ? ordo__run_reader_range(r, NULL, 0, NULL, 0, err, errlen)
                                    : start(r, err, errlen)))
        return -1;
    if (r->pos == r->end)
        return 0;
    /* checked blocks: a record is read only from blocks whose checksums
     * matched, and never runs across a block's end */
    if (r->nblk && r->pos == r->checked && !check_blocks(r, err, errlen))
        return -1;
    uint64_t limit = r->nblk ? r->checked : r->end;
    uint8_t head[ORDO__REC_HEADER];
    if (limit - r->pos < ORDO__REC_HEADER)
        return malformed(r, "a record cut short", err, errlen) - 1;
    if (!take(r, head, ORDO__REC_HEADER, err, errlen))
        return -1;
    /* lengths are checked against the file before anything is allocated */
    uint64_t need = ORDO__REC_HEADER + (uint64_t)ordo__rec_key_len(head) + ordo__rec_value_len(head);
    if (need > limit - r->pos)
        return malformed(r, "a record longer than the rest of the file", err, errlen) - 1;
    if (need > r->cap) {
        uint8_t *p = realloc(r->rec, (size_t)need);
        if (!p) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        r->rec = p, r->cap = (size_t)need;
    }
    memcpy(r->rec, head, ORDO__REC_HEADER);
    if (!take(r, r->rec + ORDO__REC_HEADER, (size_t)need - ORDO__REC_HEADER, err, errlen))
        return -1;
    r->pos += need;
    return 1;
}

void ordo__run_reader_close(ordo__run_reader *r)
{
    if (r->opened)
        close(r->fd);
    free(r->buf);
    free(r->rec);
    free(r->blk);
    ordo__run_index_free(&r->ix);
    memset(r, 0, sizeof *r);
}
