/* A CSV input cut into parts of whole rows, so that cluster workers can
 * each encode one (ordo.dask.load on one large file): one pass over the
 * bytes, quote state carried by the structure kernels. */
#include <ordo_ingest.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK ((size_t)1 << 20)

static ordo_status fail(ordo_error *err, ordo_status s, const char *name, const char *msg)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = s;
        err->file = name;
        snprintf(err->message, sizeof err->message, "%s", msg);
    }
    return s;
}

static uint64_t count_lf(const uint8_t *p, size_t n)
{
    uint64_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += p[i] == '\n';
    return c;
}

typedef struct splitter {
    uint64_t target, start, start_line, next; /* next: split at a row end at or past it */
    ordo_csv_part *parts;
    size_t cap, n;
} splitter;

/* A row ends just before `at` (absolute) on line `line`: a part ends there
 * when it is long enough and room is left for the part after it. */
static void row_end(splitter *s, uint64_t at, uint64_t line)
{
    if (at < s->next || s->n + 1 >= s->cap)
        return;
    s->parts[s->n++] = (ordo_csv_part){s->start, at - s->start, s->start_line};
    s->start = at, s->start_line = line, s->next = at + s->target;
}

ordo_status ordo_csv_split(int fd, const char *name, uint64_t target, ordo_csv_part *parts,
                           size_t cap, size_t *n, ordo_error *err)
{
    if (!n || (cap && !parts))
        return fail(err, ORDO_ERR_NULL_ARG, name, "a required pointer is NULL");
    *n = 0;
    if (!target || !cap)
        return fail(err, ORDO_ERR_INVALID_ARG, name, "target and cap must be above 0");
    uint8_t *buf = malloc(BLOCK);
    uint32_t *idx = malloc(ORDO_CSV_INDEX_ROOM(BLOCK) * sizeof *idx);
    if (!buf || !idx) {
        free(buf), free(idx);
        return fail(err, ORDO_ERR_OUT_OF_MEMORY, name, "out of memory");
    }
    splitter s = {target, 0, 1, target, parts, cap, 0};
    uint64_t pos = 0, line = 1; /* buf[0]'s offset and line */
    int inq = 0;
    ordo_status st = ORDO_OK;
    for (;;) {
        ssize_t got = read(fd, buf, BLOCK);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            char msg[300];
            snprintf(msg, sizeof msg, "cannot read: %s", strerror(errno));
            st = fail(err, ORDO_ERR_IO, name, msg);
            break;
        }
        if (got == 0)
            break;
        size_t len = (size_t)got, counted = 0; /* line holds up to buf[counted] */
        if (pos + len >= s.next && s.n + 1 < cap) {
            /* a part may end here: the row ends (unquoted line feeds) */
            size_t count = 0;
            st = ordo_csv_index(buf, len, idx, ORDO_CSV_INDEX_ROOM(BLOCK), &count, &inq);
            if (st != ORDO_OK) {
                fail(err, st, name, ordo_status_message(st));
                break;
            }
            for (size_t k = 0; k < count; k++) {
                size_t i = idx[k];
                if (buf[i] != '\n' || pos + i + 1 < s.next)
                    continue;
                line += count_lf(buf + counted, i + 1 - counted);
                counted = i + 1;
                row_end(&s, pos + i + 1, line);
            }
        } else if (memchr(buf, '"', len)) {
            size_t count = 0; /* only the quote state matters here */
            st = ordo_csv_index(buf, len, idx, ORDO_CSV_INDEX_ROOM(BLOCK), &count, &inq);
            if (st != ORDO_OK) {
                fail(err, st, name, ordo_status_message(st));
                break;
            }
        }
        line += count_lf(buf + counted, len - counted);
        pos += len;
    }
    free(buf), free(idx);
    if (st != ORDO_OK)
        return st;
    if (pos > s.start)
        parts[s.n++] = (ordo_csv_part){s.start, pos - s.start, s.start_line};
    *n = s.n;
    return ORDO_OK;
}
