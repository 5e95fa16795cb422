/* A CSV input's rows gathered whole, for front ends that hand them on as
 * one piece (ordo.encode_csv, the Dask tasks): the keys `ordo encode
 * --schema` makes, or the rows a load stores with their lines; and a file
 * cut into parts by path. */
#include "table_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define fail ordo__table_fail

/* Rows of a batch appended to k: data[off[0] .. off[rows]). */
static ordo_status append(ordo_table_keys *k, const uint8_t *data, const size_t *off,
                          size_t rows, ordo_error *err)
{
    size_t bytes = off[rows] - off[0];
    if (ordo_table_keys_reserve(k, bytes, rows) != ORDO_OK)
        return fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    if (bytes) /* no value columns: no bytes, and data may be NULL */
        memcpy(k->data + k->len, data + off[0], bytes);
    for (size_t r = 0; r < rows; r++)
        k->off[k->n + r + 1] = (int64_t)(k->len + off[r + 1] - off[0]);
    k->len += bytes, k->n += rows;
    return ORDO_OK;
}

ordo_status ordo_table_csv_keys(const ordo_table_source *src, const ordo_table_load_options *o,
                                ordo_table_keys *keys, ordo_error *err)
{
    if (!src || !o || !keys || !o->schema)
        return fail(err, ORDO_ERR_NULL_ARG, "no source, options, schema or keys");
    if (src->kind != ORDO_TABLE_SOURCE_CSV)
        return fail(err, ORDO_ERR_INVALID_ARG, "source: not a CSV source");
    ordo_format fmt;
    ordo_status s = ordo__table_format(o->format, &fmt, err);
    if (s != ORDO_OK)
        return s;
    if (o->threads > ORDO__TABLE_THREADS_MAX)
        return ordo__table_refuse(err, "threads", "expected 0 to %d", ORDO__TABLE_THREADS_MAX);
    if ((s = ordo_table_keys_reserve(keys, 0, 0)) != ORDO_OK)
        return fail(err, s, "out of memory");
    ordo_schema schema;
    if ((s = ordo_schema_parse(o->schema, fmt, &schema, err)) != ORDO_OK)
        return s; /* the schema's own error: orders are allowed here */
    ordo_encoder_options eo = {0};
    eo.threads = o->threads > 1 ? o->threads : 0;
    eo.header = o->header;
    eo.name = ordo__table_source_name(src);
    ordo_encoder *enc = NULL;
    s = ordo_encoder_open(&schema, o->key, fmt, &eo, &enc, err);
    if (s == ORDO_OK)
        s = src->path ? ordo_encoder_input_path(enc, src->path, err)
            : src->fd >= 0 ? ordo_encoder_input_fd(enc, src->fd, err)
                           : ordo_encoder_input_mem(enc, src->data, src->size, err);
    const ordo_encoder_batch *b = NULL;
    while (s == ORDO_OK && (s = ordo_encoder_next(enc, &b, err)) == ORDO_OK && b)
        s = append(keys, b->keys, b->key_offsets, b->rows, err);
    ordo_encoder_close(enc);
    ordo_schema_free(&schema);
    return s;
}

typedef struct gathered {
    ordo_table_keys *keys, *values;
    ordo_buf *lines;
} gathered;

static ordo_status gather(void *ctx, const ordo_encoder_batch *b, ordo_error *err)
{
    gathered *g = ctx;
    ordo_status s = append(g->keys, b->keys, b->key_offsets, b->rows, err);
    if (s == ORDO_OK)
        s = append(g->values, b->values, b->value_offsets, b->rows, err);
    if (s == ORDO_OK && ordo_buf_append(g->lines, b->lines, b->rows * sizeof *b->lines) != ORDO_OK)
        s = fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    return s;
}

ordo_status ordo_table_csv_collect(const ordo_table_source *src, const ordo_csv_part *part,
                                   const ordo_table_load_options *o, ordo_table_keys *keys,
                                   ordo_table_keys *values, ordo_buf *lines, ordo_error *err)
{
    if (!keys || !values || !lines)
        return fail(err, ORDO_ERR_NULL_ARG, "no keys, values or lines");
    if (ordo_table_keys_reserve(keys, 0, 0) != ORDO_OK ||
        ordo_table_keys_reserve(values, 0, 0) != ORDO_OK)
        return fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    gathered g = {keys, values, lines};
    return ordo_table_csv_rows(src, part, o, gather, &g, err);
}

ordo_status ordo_table_csv_split_path(const char *path, uint64_t target, ordo_csv_part **parts,
                                      size_t *n, ordo_error *err)
{
    if (!path || !parts || !n)
        return fail(err, ORDO_ERR_NULL_ARG, "no path, parts or count");
    *parts = NULL, *n = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    ordo_status s;
    if (fd < 0 || fstat(fd, &st) != 0) {
        s = fail(err, ORDO_ERR_IO, "cannot open: %s", strerror(errno));
        if (err)
            err->file = path;
    } else {
        /* parts of at least target bytes: no more than size / target + 1 */
        size_t cap = target ? (size_t)((uint64_t)st.st_size / target) + 1 : 1;
        *parts = malloc(cap * sizeof **parts);
        s = *parts ? ordo_csv_split(fd, path, target, *parts, cap, n, err)
                   : fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
        if (s != ORDO_OK) {
            free(*parts);
            *parts = NULL, *n = 0;
        }
    }
    if (fd >= 0)
        close(fd);
    return s;
}
