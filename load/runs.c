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

int ordo__run_out_open(ordo__run_out *o, const char *path, size_t buffer, char **iobuf, char *err,
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

int ordo__run_out_put(ordo__run_out *o, const uint8_t *rec, char *err, size_t errlen)
{
    size_t n = ordo__rec_size(rec);
    errno = 0;
    return fwrite(rec, 1, n, o->f) == n || io_error("cannot write", o->path, err, errlen);
}

int ordo__run_out_close(ordo__run_out *o, char *err, size_t errlen)
{
    errno = 0;
    int bad = ferror(o->f);
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    return !bad || io_error("cannot write", o->path, err, errlen);
}

int ordo__run_write(const char *path, const ordo__keysort_item *items, size_t n, size_t buffer, char *err,
              size_t errlen)
{
    ordo__run_out o;
    char *iobuf = NULL;
    if (!ordo__run_out_open(&o, path, buffer, &iobuf, err, errlen))
        return 0;
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++)
        ok = ordo__run_out_put(&o, items[i].rec, err, errlen);
    char later[256]; /* the first error is the one to report */
    if (!ordo__run_out_close(&o, ok ? err : later, ok ? errlen : sizeof later))
        ok = 0;
    free(iobuf);
    return ok;
}

int ordo__run_reader_open(ordo__run_reader *r, const char *path, size_t buffer, char *err,
                          size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    errno = 0;
    r->f = fopen(path, "rb");
    if (!r->f)
        return io_error("cannot open", path, err, errlen);
    r->iobuf = malloc(buffer);
    if (r->iobuf)
        setvbuf(r->f, r->iobuf, _IOFBF, buffer);
    return 1;
}

int ordo__run_reader_next(ordo__run_reader *r, char *err, size_t errlen)
{
    uint8_t head[ORDO__REC_HEADER];
    size_t got = fread(head, 1, ORDO__REC_HEADER, r->f);
    if (got == 0 && feof(r->f))
        return 0;
    size_t need = ORDO__REC_HEADER + (size_t)ordo__rec_key_len(head) + ordo__rec_value_len(head);
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
    if (got != ORDO__REC_HEADER ||
        fread(r->rec + ORDO__REC_HEADER, 1, need - ORDO__REC_HEADER, r->f) != need - ORDO__REC_HEADER) {
        if (!ferror(r->f))
            errno = EIO; /* truncated */
        return -!io_error("cannot read", r->path, err, errlen);
    }
    return 1;
}

void ordo__run_reader_close(ordo__run_reader *r)
{
    if (r->f)
        fclose(r->f);
    free(r->iobuf);
    free(r->rec);
    memset(r, 0, sizeof *r);
}
