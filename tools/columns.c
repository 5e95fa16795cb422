#include "columns.h"

#include "cli.h"

#include <stdlib.h>
#include <string.h>

size_t batchbuf_value_size(const schema_column *c)
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

void batchbuf_init(batchbuf *b, const schema *s, size_t cap_rows)
{
    memset(b, 0, sizeof *b);
    b->s = s;
    b->cap_rows = cap_rows;
    b->cols = calloc(s->ncols, sizeof *b->cols);
    b->view = calloc(s->ncols, sizeof *b->view);
    if (!b->cols || !b->view)
        cli_fail("out of memory");
    for (size_t c = 0; c < s->ncols; c++) {
        colvec *v = &b->cols[c];
        const schema_column *sc = &s->cols[c];
        size_t vs = batchbuf_value_size(sc);
        v->vsize = vs;
        if (batchbuf_variable(sc->type)) {
            v->values_cap = cap_rows * 16 + 64;
            v->offsets = cli_alloc((cap_rows + 1) * sizeof(int64_t));
            v->offsets[0] = 0;
        } else if (sc->type == ORDO_TYPE_BOOL) {
            v->values_cap = cap_rows / 8 + 8;
        } else {
            v->values_cap = cap_rows * vs + 8;
        }
        v->values = cli_alloc(v->values_cap);
        v->validity = cli_alloc(cap_rows / 8 + 8);
        memset(v->validity, 0xff, cap_rows / 8 + 8);
        if (sc->type == ORDO_TYPE_BOOL)
            memset(v->values, 0, v->values_cap);
    }
}

void batchbuf_clear(batchbuf *b)
{
    for (size_t c = 0; c < b->s->ncols; c++) {
        colvec *v = &b->cols[c];
        if (v->nulls)
            memset(v->validity, 0xff, b->cap_rows / 8 + 8);
        if (b->s->cols[c].type == ORDO_TYPE_BOOL)
            memset(v->values, 0, v->values_cap);
        v->nulls = 0;
        v->values_len = 0;
    }
    b->rows = 0;
}

void batchbuf_free(batchbuf *b)
{
    for (size_t c = 0; b->cols && c < b->s->ncols; c++) {
        free(b->cols[c].values);
        free(b->cols[c].offsets);
        free(b->cols[c].validity);
    }
    free(b->cols);
    free(b->view);
    memset(b, 0, sizeof *b);
}

void batchbuf_set_null(batchbuf *b, size_t c, size_t r)
{
    colvec *v = &b->cols[c];
    v->validity[r / 8] &= (uint8_t) ~(1u << (r % 8));
    v->nulls++;
    const schema_column *sc = &b->s->cols[c];
    if (batchbuf_variable(sc->type))
        v->offsets[r + 1] = (int64_t)v->values_len;
    else if (sc->type != ORDO_TYPE_BOOL)
        memset(batchbuf_slot(b, c, r), 0, v->vsize);
}

void batchbuf_set_bool(batchbuf *b, size_t c, size_t r, int on)
{
    if (on)
        b->cols[c].values[r / 8] |= (uint8_t)(1u << (r % 8));
}

uint8_t *batchbuf_reserve_bytes(batchbuf *b, size_t c, size_t r, size_t n)
{
    colvec *v = &b->cols[c];
    v->values = cli_grow(v->values, &v->values_cap, v->values_len + n, 64);
    uint8_t *at = v->values + v->values_len;
    v->values_len += n;
    v->offsets[r + 1] = (int64_t)v->values_len;
    return at;
}

void batchbuf_push_bytes(batchbuf *b, size_t c, size_t r, const void *p, size_t n)
{
    uint8_t *at = batchbuf_reserve_bytes(b, c, r, n);
    if (n)
        memcpy(at, p, n);
}

const ordo_column *batchbuf_view(batchbuf *b)
{
    for (size_t c = 0; c < b->s->ncols; c++) {
        const schema_column *sc = &b->s->cols[c];
        colvec *v = &b->cols[c];
        b->view[c] = (ordo_column){
            .type = sc->type,
            .values = v->values,
            .offsets = v->offsets,
            .validity = v->nulls ? v->validity : NULL,
            .offset = 0,
            .offset_bits = 64,
            .time_unit = sc->time_unit,
            .order = sc->order,
        };
    }
    return b->view;
}

void batchbuf_drop_row(batchbuf *b, size_t r)
{
    for (size_t c = 0; c < b->s->ncols; c++) {
        colvec *v = &b->cols[c];
        ordo_type t = b->s->cols[c].type;
        if (!(v->validity[r / 8] >> (r % 8) & 1)) {
            v->validity[r / 8] |= (uint8_t)(1u << (r % 8));
            v->nulls--;
        }
        if (batchbuf_variable(t))
            v->values_len = (size_t)v->offsets[r];
        else if (t == ORDO_TYPE_BOOL)
            v->values[r / 8] &= (uint8_t) ~(1u << (r % 8));
    }
}
