#include "columns.h"

#include <stdlib.h>
#include <string.h>

size_t ordo__batchbuf_value_size(const ordo_schema_column *c)
{
    switch (c->type) {
    case ORDO_TYPE_INT8:
    case ORDO_TYPE_UINT8: return 1;
    case ORDO_TYPE_INT16:
    case ORDO_TYPE_UINT16: return 2;
    case ORDO_TYPE_INT32:
    case ORDO_TYPE_UINT32:
    case ORDO_TYPE_FLOAT32: return 4;
    case ORDO_TYPE_UUID:
    case ORDO_TYPE_INT128:
    case ORDO_TYPE_INTERVAL: return 16;
    case ORDO_TYPE_TIMETZ: return sizeof(ordo_timetz);
    case ORDO_TYPE_INET:
    case ORDO_TYPE_CIDR: return sizeof(ordo_inet);
    case ORDO_TYPE_DATE:
    case ORDO_TYPE_ENUM: return 4;
    case ORDO_TYPE_MACADDR: return 6;
    case ORDO_TYPE_STRING:
    case ORDO_TYPE_BYTES:
    case ORDO_TYPE_NUMERIC:
    case ORDO_TYPE_BIT:
    case ORDO_TYPE_ENCODED:
    case ORDO_TYPE_BOOL: return 0;
    case ORDO_TYPE_TIME: return c->time_unit == ORDO_UNIT_DAY32 ? 4 : 8;
    default: return 8;
    }
}

size_t ordo_value_size(const ordo_schema_column *c) { return c ? ordo__batchbuf_value_size(c) : 0; }

ordo_status ordo__batchbuf_init(ordo__batchbuf *b, const ordo_schema *s, size_t cap_rows)
{
    memset(b, 0, sizeof *b);
    b->s = s;
    b->cap_rows = cap_rows;
    b->cols = calloc(s->ncols ? s->ncols : 1, sizeof *b->cols);
    b->view = calloc(s->ncols ? s->ncols : 1, sizeof *b->view);
    if (!b->cols || !b->view) {
        ordo__batchbuf_free(b);
        return ORDO_ERR_OUT_OF_MEMORY;
    }
    for (size_t c = 0; c < s->ncols; c++) {
        ordo__colvec *v = &b->cols[c];
        const ordo_schema_column *sc = &s->cols[c];
        size_t vs = ordo__batchbuf_value_size(sc);
        v->vsize = vs;
        v->type = sc->type;
        if (ordo__batchbuf_variable(sc->type)) {
            v->values_cap = cap_rows * 16 + 64;
            v->offsets = malloc((cap_rows + 1) * sizeof(int64_t));
            if (v->offsets)
                v->offsets[0] = 0;
        } else if (sc->type == ORDO_TYPE_BOOL) {
            v->values_cap = cap_rows / 8 + 8;
        } else {
            v->values_cap = cap_rows * vs + 8;
        }
        v->values = malloc(v->values_cap);
        v->validity = malloc(cap_rows / 8 + 8);
        if (!v->values || !v->validity || (ordo__batchbuf_variable(sc->type) && !v->offsets)) {
            ordo__batchbuf_free(b);
            return ORDO_ERR_OUT_OF_MEMORY;
        }
        memset(v->validity, 0xff, cap_rows / 8 + 8);
        if (sc->type == ORDO_TYPE_BOOL)
            memset(v->values, 0, v->values_cap);
    }
    return ORDO_OK;
}

void ordo__batchbuf_clear(ordo__batchbuf *b)
{
    for (size_t c = 0; c < b->s->ncols; c++) {
        ordo__colvec *v = &b->cols[c];
        if (v->nulls)
            memset(v->validity, 0xff, b->cap_rows / 8 + 8);
        if (b->s->cols[c].type == ORDO_TYPE_BOOL)
            memset(v->values, 0, v->values_cap);
        v->nulls = 0;
        v->values_len = 0;
    }
    b->rows = 0;
}

void ordo__batchbuf_free(ordo__batchbuf *b)
{
    for (size_t c = 0; b->cols && c < b->s->ncols; c++) { /* a half-made one too */
        free(b->cols[c].values);
        free(b->cols[c].offsets);
        free(b->cols[c].validity);
    }
    if (b->s)
        ordo__batchbuf_free_keys(b);
    free(b->cols);
    free(b->view);
    memset(b, 0, sizeof *b);
}

void ordo__batchbuf_set_null(ordo__batchbuf *b, size_t c, size_t r)
{
    ordo__colvec *v = &b->cols[c];
    v->validity[r / 8] &= (uint8_t) ~(1u << (r % 8));
    v->nulls++;
    const ordo_schema_column *sc = &b->s->cols[c];
    if (ordo__batchbuf_variable(sc->type))
        v->offsets[r + 1] = (int64_t)v->values_len;
    else if (sc->type != ORDO_TYPE_BOOL)
        memset(ordo__batchbuf_slot(b, c, r), 0, v->vsize);
}

void ordo__batchbuf_set_bool(ordo__batchbuf *b, size_t c, size_t r, int on)
{
    if (on)
        b->cols[c].values[r / 8] |= (uint8_t)(1u << (r % 8));
}

uint8_t *ordo__batchbuf_reserve_bytes(ordo__batchbuf *b, size_t c, size_t r, size_t n)
{
    ordo__colvec *v = &b->cols[c];
    if (v->values_len + n > v->values_cap) {
        size_t cap = v->values_cap < 64 ? 64 : v->values_cap;
        while (cap < v->values_len + n)
            cap = cap > SIZE_MAX / 2 ? v->values_len + n : cap * 2;
        uint8_t *p = realloc(v->values, cap);
        if (!p)
            return NULL;
        v->values = p, v->values_cap = cap;
    }
    uint8_t *at = v->values + v->values_len;
    v->values_len += n;
    v->offsets[r + 1] = (int64_t)v->values_len;
    return at;
}

int ordo__batchbuf_push_bytes(ordo__batchbuf *b, size_t c, size_t r, const void *p, size_t n)
{
    uint8_t *at = ordo__batchbuf_reserve_bytes(b, c, r, n);
    if (!at)
        return 0;
    if (n)
        memcpy(at, p, n);
    return 1;
}

const ordo_column *ordo__batchbuf_view(ordo__batchbuf *b)
{
    for (size_t c = 0; c < b->s->ncols; c++) {
        const ordo_schema_column *sc = &b->s->cols[c];
        ordo__colvec *v = &b->cols[c];
        b->view[c] = (ordo_column){
            .type = sc->type,
            .values = v->values,
            .offsets = v->offsets,
            .validity = v->nulls ? v->validity : NULL,
            .offset = 0,
            .offset_bits = 64,
            .time_unit = sc->time_unit,
            .order = sc->order,
            .collator = sc->collator,
        };
    }
    return b->view;
}

void ordo__batchbuf_drop_cell(ordo__batchbuf *b, size_t c, size_t r)
{
    ordo__colvec *v = &b->cols[c];
    ordo_type t = b->s->cols[c].type;
    if (!(v->validity[r / 8] >> (r % 8) & 1)) {
        v->validity[r / 8] |= (uint8_t)(1u << (r % 8));
        v->nulls--;
    }
    if (ordo__batchbuf_variable(t))
        v->values_len = (size_t)v->offsets[r];
    else if (t == ORDO_TYPE_BOOL)
        v->values[r / 8] &= (uint8_t) ~(1u << (r % 8));
}

void ordo__batchbuf_drop_row(ordo__batchbuf *b, size_t r)
{
    for (size_t c = 0; c < b->s->ncols; c++)
        ordo__batchbuf_drop_cell(b, c, r);
}
