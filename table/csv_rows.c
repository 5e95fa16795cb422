/* A CSV source's encoder, opened as every load opens it (ordo load, its
 * Python twin, the Spark and Dask tasks): the options checked, one worker
 * that parses and encodes while the caller sorts, values as a table stores
 * them; and ordo_table_csv_rows, its batches handed to an engine. */
#include "table_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define fail ordo__table_fail

const char *ordo__table_source_name(const ordo_table_source *src)
{
    if (src->name)
        return src->name;
    if (src->kind == ORDO_TABLE_SOURCE_ARROW_STREAM)
        return "<arrow>";
    if (src->path)
        return src->path;
    return src->fd == 0 ? "<stdin>" : "<input>";
}

/* Bytes [offset, offset + n) of the file at path, into a new buffer. */
static ordo_status read_part(const char *path, const ordo_csv_part *part, void **out,
                             ordo_error *err)
{
    *out = NULL;
    uint64_t n = part->length;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        ordo_status s = fail(err, ORDO_ERR_IO, "cannot open: %s", strerror(errno));
        if (err)
            err->file = path;
        return s;
    }
    char *buf = n < SIZE_MAX ? malloc(n ? (size_t)n : 1) : NULL;
    ordo_status s = buf ? ORDO_OK : fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    for (uint64_t at = 0; s == ORDO_OK && at < n;) {
        ssize_t got = pread(fd, buf + at, (size_t)(n - at), (off_t)(part->offset + at));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            s = fail(err, ORDO_ERR_IO, "cannot read: %s", strerror(errno));
        else if (got == 0)
            s = fail(err, ORDO_ERR_IO, "the file is shorter than its split said");
        else
            at += (uint64_t)got;
        if (s != ORDO_OK && err)
            err->file = path;
    }
    close(fd);
    if (s != ORDO_OK) {
        free(buf);
        return s;
    }
    *out = buf;
    return ORDO_OK;
}

ordo_status ordo__table_csv_open(const ordo_table_source *src, const ordo_csv_part *part,
                                 const ordo_table_load_options *o, const char *name,
                                 ordo_format *fmt, ordo_schema *table, ordo_encoder **enc,
                                 void **part_data, ordo_error *err)
{
    *enc = NULL;
    *part_data = NULL;
    ordo_status s = ordo__table_options_check(o, fmt, err);
    if (s != ORDO_OK)
        return s;
    if (!src || src->kind != ORDO_TABLE_SOURCE_CSV)
        return fail(err, ORDO_ERR_INVALID_ARG, "source: not a CSV source");
    if (!o->schema || !o->key)
        return o->schema ? ordo__table_refuse(err, "key", "a CSV input needs a key")
                         : ordo__table_refuse(err, "schema", "a CSV input needs a schema");
    if (part && !src->path)
        return fail(err, ORDO_ERR_INVALID_ARG, "source: a part needs a path");
    if ((s = ordo__table_schema_parse(o->schema, table, err)) != ORDO_OK)
        return s;
    ordo_encoder_options eo = {0};
    eo.threads = 1; /* one parses and encodes while the caller sorts and spills */
    eo.header = o->header;
    eo.values = 1;
    eo.values_all = !ordo_format_decodes(*fmt); /* LexKey keys do not decode */
    eo.skip_bad_rows = o->on_reject != NULL;
    eo.name = name;
    eo.first_line = part ? part->first_line : 0;
    ordo_error e = {0};
    s = ordo_encoder_open(table, o->key, *fmt, &eo, enc, &e);
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        s = fail(err, s, "out of memory");
    else if (s != ORDO_OK)
        s = ordo__table_refuse(err, "key", "%.1000s", e.message);
    else if (part && (s = read_part(src->path, part, part_data, err)) == ORDO_OK)
        s = ordo_encoder_input_mem(*enc, *part_data, (size_t)part->length, err);
    else if (!part)
        s = src->path ? ordo_encoder_input_path(*enc, src->path, err)
            : src->fd >= 0 ? ordo_encoder_input_fd(*enc, src->fd, err)
                           : ordo_encoder_input_mem(*enc, src->data, src->size, err);
    if (s != ORDO_OK) {
        ordo_encoder_close(*enc);
        *enc = NULL;
        ordo_schema_free(table);
        free(*part_data);
        *part_data = NULL;
    }
    return s;
}

ordo_status ordo_table_csv_rows(const ordo_table_source *src, const ordo_csv_part *part,
                                const ordo_table_load_options *o, ordo_table_batch_fn fn,
                                void *ctx, ordo_error *err)
{
    if (!src || !o || !fn)
        return fail(err, ORDO_ERR_NULL_ARG, "no source, options or function");
    ordo_format fmt;
    ordo_schema table;
    ordo_encoder *enc;
    void *bytes;
    ordo_status s = ordo__table_csv_open(src, part, o, ordo__table_source_name(src), &fmt,
                                         &table, &enc, &bytes, err);
    if (s != ORDO_OK)
        return s;
    const ordo_encoder_batch *b;
    while ((s = ordo_encoder_next(enc, &b, err)) == ORDO_OK && b)
        if ((s = fn(ctx, b, err)) != ORDO_OK)
            break;
    ordo_encoder_close(enc);
    ordo_schema_free(&table);
    free(bytes);
    return s;
}
