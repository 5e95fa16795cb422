/* ordo_csv_reader: the public face of the streaming reader (csv.h), over a
 * descriptor, a path or a copy of memory. */
#include "csv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ordo_csv_reader {
    ordo__csv_reader rd;
    FILE *f;     /* ours: closed by ordo_csv_close */
    char *copy;  /* ordo_csv_open_mem's bytes */
    const char *name;
};

static ordo_status set_error(ordo_error *err, ordo_status s, const char *name, uint64_t line,
                             uint64_t column, const char *msg)
{
    if (err) {
        err->status = s;
        err->file = name;
        err->line = line, err->column = column;
        snprintf(err->message, sizeof err->message, "%s", msg);
    }
    return s;
}

static ordo_status start(FILE *f, char *copy, size_t n, const char *name, ordo_csv_reader **out,
                         ordo_error *err)
{
    if (f && ordo__input_is_dir(f)) {
        fclose(f);
        return set_error(err, ORDO_ERR_IO, name, 0, 0, "a directory, not a CSV file");
    }
    ordo_csv_reader *r = calloc(1, sizeof *r);
    ordo_status s = ORDO_ERR_OUT_OF_MEMORY;
    if (r)
        s = f ? ordo__csv_open(&r->rd, f) : ordo__csv_open_mem(&r->rd, copy, n, 1);
    if (s != ORDO_OK) {
        if (r && !f)
            ordo__csv_close(&r->rd);
        free(r);
        if (f)
            fclose(f);
        free(copy);
        return set_error(err, s, name, 0, 0, ordo_status_message(s));
    }
    r->f = f, r->copy = copy, r->name = name;
    *out = r;
    return ORDO_OK;
}

ordo_status ordo_csv_open_fd(int fd, const char *name, ordo_csv_reader **r, ordo_error *err)
{
    if (!r)
        return ORDO_ERR_NULL_ARG;
    *r = NULL;
    int dup_fd = dup(fd); /* the caller keeps its descriptor */
    FILE *f = dup_fd >= 0 ? fdopen(dup_fd, "rb") : NULL;
    if (!f) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot read descriptor %d: %s", fd, strerror(errno));
        if (dup_fd >= 0)
            close(dup_fd);
        return set_error(err, ORDO_ERR_IO, name, 0, 0, msg);
    }
    return start(f, NULL, 0, name, r, err);
}

ordo_status ordo_csv_open_path(const char *path, ordo_csv_reader **r, ordo_error *err)
{
    if (!r || !path)
        return ORDO_ERR_NULL_ARG;
    *r = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot open: %s", strerror(errno));
        return set_error(err, ORDO_ERR_IO, path, 0, 0, msg);
    }
    return start(f, NULL, 0, path, r, err);
}

ordo_status ordo_csv_open_mem(const void *p, size_t n, const char *name, ordo_csv_reader **r,
                              ordo_error *err)
{
    if (!r || (!p && n))
        return ORDO_ERR_NULL_ARG;
    *r = NULL;
    char *copy = malloc(n ? n : 1); /* rows are unquoted in place */
    if (!copy)
        return set_error(err, ORDO_ERR_OUT_OF_MEMORY, name, 0, 0, "out of memory");
    if (n)
        memcpy(copy, p, n);
    size_t skip = n >= 3 && !memcmp(copy, "\xef\xbb\xbf", 3) ? 3 : 0; /* a UTF-8 BOM */
    if (skip)
        memmove(copy, copy + 3, n - 3);
    return start(NULL, copy, n - skip, name, r, err);
}

ordo_status ordo_csv_next(ordo_csv_reader *r, const ordo_csv_field **fields, size_t *nfields,
                          ordo_error *err)
{
    if (!r || !fields || !nfields)
        return ORDO_ERR_NULL_ARG;
    *fields = NULL, *nfields = 0;
    int rc = ordo__csv_next(&r->rd);
    if (rc < 0)
        return set_error(err, r->rd.err_status, r->name, r->rd.err_line, r->rd.err_column,
                         r->rd.err);
    if (rc > 0)
        *fields = r->rd.fields, *nfields = r->rd.nfields;
    return ORDO_OK;
}

void ordo_csv_close(ordo_csv_reader *r)
{
    if (!r)
        return;
    ordo__csv_close(&r->rd);
    if (r->f)
        fclose(r->f);
    free(r->copy);
    free(r);
}
