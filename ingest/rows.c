/* ordo_rows: the public face of the column buffers (columns.h), filled
 * from text (fields.c) or from raw values. */
#include "columns.h"
#include "fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ordo_rows {
    ordo__batchbuf b;
};

ordo_status ordo_rows_open(const ordo_schema *s, size_t cap_rows, ordo_rows **out)
{
    if (!s || !out)
        return ORDO_ERR_NULL_ARG;
    *out = NULL;
    if (cap_rows == 0 || cap_rows > SIZE_MAX / 64)
        return ORDO_ERR_INVALID_ARG;
    ordo_rows *r = malloc(sizeof *r);
    if (!r)
        return ORDO_ERR_OUT_OF_MEMORY;
    ordo_status st = ordo__batchbuf_init(&r->b, s, cap_rows);
    if (st != ORDO_OK) {
        free(r);
        return st;
    }
    *out = r;
    return ORDO_OK;
}

void ordo_rows_close(ordo_rows *r)
{
    if (!r)
        return;
    ordo__batchbuf_free(&r->b);
    free(r);
}

static ordo_status room(ordo_rows *r, size_t c)
{
    if (!r)
        return ORDO_ERR_NULL_ARG;
    if (c >= r->b.s->ncols)
        return ORDO_ERR_INVALID_ARG;
    return r->b.rows < r->b.cap_rows ? ORDO_OK : ORDO_ERR_DST_TOO_SMALL;
}

ordo_status ordo_rows_put_text(ordo_rows *r, size_t c, const char *s, size_t n, int quoted,
                               ordo_error *err)
{
    ordo_status st = room(r, c);
    if (st == ORDO_OK && !s && n)
        st = ORDO_ERR_NULL_ARG;
    const char *why = st == ORDO_OK ? ordo__field_put(&r->b, c, r->b.rows, s ? s : "", n, quoted)
                                    : ordo_status_message(st);
    if (st == ORDO_OK && why)
        st = why == ordo__out_of_memory ? ORDO_ERR_OUT_OF_MEMORY : ORDO_ERR_INVALID_VALUE;
    if (st != ORDO_OK && err) {
        memset(err, 0, sizeof *err);
        err->status = st;
        snprintf(err->message, sizeof err->message, "%s", why);
    }
    return st;
}

ordo_status ordo_rows_put_null(ordo_rows *r, size_t c)
{
    ordo_status st = room(r, c);
    if (st == ORDO_OK)
        ordo__batchbuf_set_null(&r->b, c, r->b.rows);
    return st;
}

ordo_status ordo_rows_put_value(ordo_rows *r, size_t c, const void *p, size_t n)
{
    ordo_status st = room(r, c);
    if (st != ORDO_OK)
        return st;
    if (!p && n)
        return ORDO_ERR_NULL_ARG;
    const ordo_schema_column *sc = &r->b.s->cols[c];
    size_t row = r->b.rows;
    if (ordo__batchbuf_variable(sc->type))
        return ordo__batchbuf_push_bytes(&r->b, c, row, p, n) ? ORDO_OK : ORDO_ERR_OUT_OF_MEMORY;
    if (sc->type == ORDO_TYPE_BOOL) {
        if (n != 1)
            return ORDO_ERR_INVALID_ARG;
        ordo__batchbuf_set_bool(&r->b, c, row, *(const uint8_t *)p != 0);
        return ORDO_OK;
    }
    if (n != r->b.cols[c].vsize)
        return ORDO_ERR_INVALID_ARG;
    memcpy(ordo__batchbuf_slot(&r->b, c, row), p, n);
    return ORDO_OK;
}

void ordo_rows_end_row(ordo_rows *r)
{
    if (r && r->b.rows < r->b.cap_rows)
        r->b.rows++;
}

void ordo_rows_drop_row(ordo_rows *r)
{
    if (r && r->b.rows < r->b.cap_rows)
        ordo__batchbuf_drop_row(&r->b, r->b.rows);
}

const ordo_column *ordo_rows_columns(ordo_rows *r, size_t *rows)
{
    if (rows)
        *rows = r ? r->b.rows : 0;
    return r ? ordo__batchbuf_view(&r->b) : NULL;
}

const ordo_column *ordo__rows_columns_keyed(ordo_rows *r)
{
    return ordo__batchbuf_view_keyed(&r->b);
}

void ordo_rows_clear(ordo_rows *r)
{
    if (r)
        ordo__batchbuf_clear(&r->b);
}
