/* Compressed CSV inputs of the ordo tool (decompress.h). A socket, not a pipe,
 * carries the data: send(MSG_NOSIGNAL) to a reader that stopped early
 * fails instead of raising SIGPIPE in the whole process. */
#include "decompress.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef ORDO_WITH_ZLIB
#include <zlib.h>
#endif
#ifdef ORDO_WITH_ZSTD
#include <zstd.h>
#endif

#define CHUNK ((size_t)1 << 20)

enum { PLAIN, GZIP, ZSTD, PARQUET };

struct decomp {
    int in, out; /* the input, the socket's write end */
    int kind;
    const char *name;
    uint8_t head[4]; /* bytes already read from a pipe, handed on first */
    size_t nhead;
    pthread_t tid;
    char err[512];
    int failed;
    int stopped; /* the reader closed its end: what follows is no error */
};

static int kind_of(const uint8_t *b, size_t n)
{
    if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
        return GZIP;
    if (n >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd)
        return ZSTD;
    if (n >= 4 && !memcmp(b, "PAR1", 4))
        return PARQUET;
    return PLAIN;
}

static int send_all(decomp *d, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = send(d->out, c, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            d->stopped = 1; /* the reader stopped: nothing more to do */
            return 0;
        }
        c += w, n -= (size_t)w;
    }
    return 1;
}

/* The next bytes of the input (the ones read to tell its kind first). */
static ssize_t read_in(decomp *d, uint8_t *buf, size_t cap)
{
    if (d->nhead) {
        size_t n = d->nhead < cap ? d->nhead : cap;
        memcpy(buf, d->head, n);
        memmove(d->head, d->head + n, d->nhead - n);
        d->nhead -= n;
        return (ssize_t)n;
    }
    ssize_t r;
    do
        r = read(d->in, buf, cap);
    while (r < 0 && errno == EINTR);
    return r;
}

static void fail(decomp *d, const char *what)
{
    if (d->stopped) /* the data after the reader's stop does not matter */
        return;
    if (!d->failed)
        snprintf(d->err, sizeof d->err, "%s: %s", d->name, what);
    d->failed = 1;
}

static void run_plain(decomp *d, uint8_t *in)
{
    ssize_t r;
    while ((r = read_in(d, in, CHUNK)) > 0)
        if (!send_all(d, in, (size_t)r))
            return;
    if (r < 0)
        fail(d, strerror(errno));
}

#ifdef ORDO_WITH_ZLIB
static void run_gzip(decomp *d, uint8_t *in, uint8_t *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
        fail(d, "out of memory");
        return;
    }
    int rc = Z_OK, member_done = 0, full = 0;
    ssize_t r = 0;
    for (;;) {
        /* more input once the last call had room left: it then holds no
         * output back */
        if (z.avail_in == 0 && !full) {
            r = read_in(d, in, CHUNK);
            if (r <= 0)
                break;
            z.next_in = in, z.avail_in = (uInt)r;
        }
        if (member_done) { /* another member follows: a concatenated file */
            inflateReset(&z);
            member_done = 0;
        }
        z.next_out = out, z.avail_out = (uInt)CHUNK;
        rc = inflate(&z, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
            char why[300];
            snprintf(why, sizeof why, "damaged gzip data (%s)", z.msg ? z.msg : "inflate failed");
            fail(d, why);
            break;
        }
        full = z.avail_out == 0;
        if (!send_all(d, out, CHUNK - z.avail_out))
            break;
        if (rc == Z_STREAM_END)
            member_done = 1;
    }
    if (r < 0)
        fail(d, strerror(errno));
    else if (!d->failed && !member_done)
        fail(d, "truncated gzip data (the file ends inside a member)");
    inflateEnd(&z);
}
#endif

#ifdef ORDO_WITH_ZSTD
static void run_zstd(decomp *d, uint8_t *in, uint8_t *out)
{
    ZSTD_DCtx *z = ZSTD_createDCtx();
    if (!z) {
        fail(d, "out of memory");
        return;
    }
    size_t left = 0; /* 0 once a frame is complete and all its output given */
    ssize_t r = 0;
    while (!d->failed && (r = read_in(d, in, CHUNK)) > 0) {
        ZSTD_inBuffer ib = {in, (size_t)r, 0};
        int full;
        do { /* until the input is used and no output is held back */
            ZSTD_outBuffer ob = {out, CHUNK, 0};
            left = ZSTD_decompressStream(z, &ob, &ib);
            if (ZSTD_isError(left)) {
                char why[300];
                snprintf(why, sizeof why, "damaged zstd data (%s)", ZSTD_getErrorName(left));
                fail(d, why);
                goto done;
            }
            if (!send_all(d, out, ob.pos))
                goto done;
            full = ob.pos == CHUNK;
        } while (ib.pos < ib.size || full);
    }
    if (r < 0)
        fail(d, strerror(errno));
    else if (left != 0)
        fail(d, "truncated zstd data (the file ends inside a frame)");
done:
    ZSTD_freeDCtx(z);
}
#endif

static void *worker(void *arg)
{
    decomp *d = arg;
    /* signals go to the sorting thread, which cleans up */
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    uint8_t *in = malloc(CHUNK), *out = malloc(CHUNK);
    if (!in || !out)
        fail(d, "out of memory");
    else if (d->kind == PLAIN)
        run_plain(d, in);
#ifdef ORDO_WITH_ZLIB
    else if (d->kind == GZIP)
        run_gzip(d, in, out);
#endif
#ifdef ORDO_WITH_ZSTD
    else if (d->kind == ZSTD)
        run_zstd(d, in, out);
#endif
    free(in), free(out);
    close(d->out); /* the reader's end of input */
    d->out = -1;
    return NULL;
}

static int built_with(int kind)
{
#ifdef ORDO_WITH_ZLIB
    if (kind == GZIP)
        return 1;
#endif
#ifdef ORDO_WITH_ZSTD
    if (kind == ZSTD)
        return 1;
#endif
    return kind == PLAIN;
}

int decomp_open(int fd, const char *name, decomp **dp, int *read_fd, char *err, size_t errlen)
{
    *dp = NULL;
    *read_fd = fd;
    uint8_t head[4];
    size_t nhead = 0;
    struct stat st;
    off_t at = lseek(fd, 0, SEEK_CUR);
    int stat_ok = !fstat(fd, &st);
    if (stat_ok && S_ISDIR(st.st_mode))
        return 1; /* the reader refuses a folder in its own words */
    int seekable = stat_ok && S_ISREG(st.st_mode) && at >= 0;
    if (seekable) {
        ssize_t r = pread(fd, head, sizeof head, at);
        nhead = r > 0 ? (size_t)r : 0;
    } else {
        ssize_t r;
        while (nhead < sizeof head && ((r = read(fd, head + nhead, sizeof head - nhead)) > 0 ||
                                       (r < 0 && errno == EINTR)))
            if (r > 0)
                nhead += (size_t)r;
    }
    int kind = kind_of(head, nhead);
    if (kind == PARQUET && seekable) { /* a file also ends with PAR1 (a CSV may start so) */
        uint8_t tail[4];
        if (st.st_size < 12 || pread(fd, tail, 4, st.st_size - 4) != 4 || memcmp(tail, "PAR1", 4))
            kind = PLAIN;
    }
    if (kind == PARQUET) {
        snprintf(err, errlen,
                 "%s: a Parquet file: ordo reads CSV (plain, gzip or zstd); from Python, with "
                 "pyarrow installed: ordo.load(\"%s\", DB, key=...) (read batch by batch)",
                 name, *name == '<' ? "FILE" : name); /* (<stdin>: no path to give) */
        return 0;
    }
    if (!built_with(kind)) {
        snprintf(err, errlen, "%s: %s data, and this ordo was built without %s", name,
                 kind == GZIP ? "gzip" : "zstd", kind == GZIP ? "zlib" : "libzstd");
        return 0;
    }
    if (kind == PLAIN && seekable)
        return 1;
    decomp *d = calloc(1, sizeof *d);
    int sv[2];
    if (!d || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
        snprintf(err, errlen, "%s: cannot start decompressing: %s", name, strerror(errno));
        free(d);
        return 0;
    }
    d->in = fd, d->out = sv[1], d->kind = kind, d->name = name;
    if (!seekable)
        memcpy(d->head, head, nhead), d->nhead = nhead;
    int e = pthread_create(&d->tid, NULL, worker, d);
    if (e) {
        snprintf(err, errlen, "%s: cannot start decompressing: %s", name, strerror(e));
        close(sv[0]), close(sv[1]);
        free(d);
        return 0;
    }
    *dp = d;
    *read_fd = sv[0];
    return 1;
}

void decomp_drain(const decomp *d, int read_fd, size_t max)
{
    static char buf[1 << 16];
    ssize_t r = 1;
    for (size_t n = 0; d && n < max && (r > 0 || (r < 0 && errno == EINTR)); n += r > 0 ? (size_t)r : 0)
        r = read(read_fd, buf, sizeof buf);
}

int decomp_finish(decomp *d, char *err, size_t errlen)
{
    if (!d)
        return 1;
    pthread_join(d->tid, NULL);
    int ok = !d->failed;
    if (!ok)
        snprintf(err, errlen, "%s", d->err);
    free(d);
    return ok;
}
