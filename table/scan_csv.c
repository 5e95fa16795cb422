/* A scan's rows as CSV, as `ordo scan` prints them: PostgreSQL's COPY CSV
 * of each row's texts (ordo_csv_field_text), NULL as an empty field. */
#include "scan.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define FLUSH_AT (64u << 10)

static ordo_status flush(ordo_buf *b, ordo_table_write_fn write, void *ctx, ordo_error *err)
{
    ordo_status s = b->len ? write(ctx, b->data, b->len, err) : ORDO_OK;
    b->len = 0;
    return s;
}

static ordo_status put(ordo_buf *b, const void *p, size_t n, ordo_error *err)
{
    if (ordo_buf_append(b, p, n) != ORDO_OK)
        return ordo__scan_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    return ORDO_OK;
}

static ordo_status header_line(const ordo__scanner *S, ordo_buf *b, ordo_error *err)
{
    ordo_status s = ORDO_OK;
    for (size_t i = 0; s == ORDO_OK && i < S->nout; i++) {
        const char *name = S->table->cols[S->out[i]].name;
        if (i)
            s = put(b, ",", 1, err);
        if (s == ORDO_OK)
            s = put(b, name, strlen(name), err);
    }
    return s == ORDO_OK ? put(b, "\n", 1, err) : s;
}

static ordo_status row_line(const ordo__scanner *S, ordo_buf *b, ordo_error *err)
{
    for (size_t i = 0; i < S->nout; i++) {
        const ordo_table_field *f = &S->f[S->out[i]];
        if (i && put(b, ",", 1, err) != ORDO_OK)
            return ORDO_ERR_OUT_OF_MEMORY;
        if (!f->is_null && ordo_csv_field_text(f->text, f->len, b) != ORDO_OK)
            return ordo__scan_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    }
    return put(b, "\n", 1, err);
}

ordo_status ordo_table_scan_csv(ordo_db *db, const ordo_table_scan_options *o, int header,
                                ordo_table_write_fn write, void *ctx, ordo_error *err)
{
    if (!write)
        return ordo__scan_fail(err, ORDO_ERR_NULL_ARG, "scan: no write function");
    ordo__scanner S;
    ordo_status s = ordo__scanner_open(&S, db, o, err);
    if (s != ORDO_OK)
        return s;
    ordo_buf b = {0};
    if (header)
        s = header_line(&S, &b, err);
    for (int found = 1; s == ORDO_OK;) {
        if ((s = ordo__scanner_next(&S, &found, err)) != ORDO_OK || !found)
            break;
        if ((s = row_line(&S, &b, err)) == ORDO_OK && b.len >= FLUSH_AT)
            s = flush(&b, write, ctx, err);
    }
    /* what was made before a failure is written first, as a stream would */
    ordo_error fe;
    ordo_status fs = flush(&b, write, ctx, s == ORDO_OK ? err : &fe);
    if (s == ORDO_OK)
        s = fs;
    ordo_buf_free(&b);
    ordo__scanner_close(&S);
    return s;
}

static ordo_status write_fd(void *ctx, const void *p, size_t n, ordo_error *err)
{
    int fd = *(const int *)ctx;
    for (const char *c = p; n;) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return ordo__scan_fail(err, ORDO_ERR_IO, "write error: %s",
                                   w < 0 ? strerror(errno) : "nothing written");
        c += w, n -= (size_t)w;
    }
    return ORDO_OK;
}

ordo_status ordo_table_scan_csv_fd(ordo_db *db, const ordo_table_scan_options *o, int header,
                                   int fd, ordo_error *err)
{
    return ordo_table_scan_csv(db, o, header, write_fd, &fd, err);
}
