#include "runs.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

static int io_error(const char *what, const char *path, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s '%s': %s", what, path, strerror(errno ? errno : EIO));
    return 0;
}

int run_out_open(run_out *o, const char *path, size_t buffer, char **iobuf, char *err,
                 size_t errlen)
{
    o->path = path;
    /* a new file of ordo's own temporary folder: never one that exists */
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
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

int run_out_sink(void *ctx, const uint8_t *rec, char *err, size_t errlen)
{
    run_out *o = ctx;
    size_t n = rec_size(rec);
    errno = 0;
    return fwrite(rec, 1, n, o->f) == n || io_error("cannot write", o->path, err, errlen);
}

int run_out_close(run_out *o, char *err, size_t errlen)
{
    errno = 0;
    int bad = ferror(o->f);
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    return !bad || io_error("cannot write", o->path, err, errlen);
}

int run_write(const char *path, const keysort_item *items, size_t n, size_t buffer, char *err,
              size_t errlen)
{
    run_out o;
    char *iobuf = NULL;
    if (!run_out_open(&o, path, buffer, &iobuf, err, errlen))
        return 0;
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++)
        ok = run_out_sink(&o, items[i].rec, err, errlen);
    char later[256]; /* the first error is the one to report */
    if (!run_out_close(&o, ok ? err : later, ok ? errlen : sizeof later))
        ok = 0;
    free(iobuf);
    return ok;
}

/* 1: a record, 0: end of the run, -1: error. */
static int reader_next(run_reader *r, const char *path, char *err, size_t errlen)
{
    uint8_t head[REC_HEADER];
    size_t got = fread(head, 1, REC_HEADER, r->f);
    if (got == 0 && feof(r->f))
        return 0;
    size_t need = REC_HEADER + (size_t)rec_key_len(head) + rec_value_len(head);
    if (need > r->cap) {
        uint8_t *p = realloc(r->rec, need);
        if (!p) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        r->rec = p, r->cap = need;
    }
    memcpy(r->rec, head, got);
    errno = 0;
    if (got != REC_HEADER || fread(r->rec + REC_HEADER, 1, need - REC_HEADER, r->f) != need - REC_HEADER) {
        if (!ferror(r->f))
            errno = EIO; /* truncated */
        return -!io_error("cannot read", path, err, errlen);
    }
    return 1;
}

static int before(const run_reader *a, const run_reader *b)
{
    int c = keysort_compare(rec_key(a->rec), rec_key_len(a->rec), rec_key(b->rec),
                            rec_key_len(b->rec));
    return c < 0 || (c == 0 && a->index < b->index);
}

static void sift_down(run_reader **h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && before(h[l], h[m]))
            m = l;
        if (l + 1 < n && before(h[l + 1], h[m]))
            m = l + 1;
        if (m == i)
            return;
        run_reader *x = h[i];
        h[i] = h[m], h[m] = x;
        i = m;
    }
}

int runs_merge(char *const *paths, size_t k, size_t buffer, rec_sink sink, void *ctx, char *err,
               size_t errlen)
{
    run_reader *rs = calloc(k, sizeof *rs);
    run_reader **heap = calloc(k, sizeof *heap);
    size_t n = 0;
    int ok = rs && heap;
    if (!ok)
        snprintf(err, errlen, "out of memory");
    for (size_t i = 0; i < k && ok; i++) {
        rs[i].index = i;
        rs[i].f = fopen(paths[i], "rb");
        if (!rs[i].f) {
            ok = io_error("cannot open", paths[i], err, errlen);
            break;
        }
        rs[i].iobuf = malloc(buffer);
        if (rs[i].iobuf)
            setvbuf(rs[i].f, rs[i].iobuf, _IOFBF, buffer);
        int got = reader_next(&rs[i], paths[i], err, errlen);
        if (got < 0)
            ok = 0;
        else if (got)
            heap[n++] = &rs[i];
    }
    for (size_t i = n / 2; ok && i-- > 0;)
        sift_down(heap, n, i);
    while (ok && n) {
        run_reader *top = heap[0];
        if (!sink(ctx, top->rec, err, errlen)) {
            ok = 0;
            break;
        }
        int got = reader_next(top, paths[top->index], err, errlen);
        if (got < 0)
            ok = 0;
        else if (!got)
            heap[0] = heap[--n];
        sift_down(heap, n, 0);
    }
    for (size_t i = 0; rs && i < k; i++) {
        if (rs[i].f)
            fclose(rs[i].f);
        free(rs[i].iobuf);
        free(rs[i].rec);
    }
    free(rs), free(heap);
    return ok;
}
