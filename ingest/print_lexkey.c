/* Parts of LexKey keys back to PostgreSQL's text forms, which load again to
 * the same keys (ordo_lexkey_text_print). A part that may be NULL (the nil
 * byte 00) or a value is settled by the parts after it. */
#include "buf.h"
#include "pgtext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ASK, VALUE, NIL }; /* how a part is read: nil or value, a value, the nil byte */

/* One part read: its text (fixed types) or its bytes (string, bytes). */
typedef struct part_text {
    char text[64];
    const uint8_t *p;
    size_t n;
    bool isnull;
} part_text;

#define NS_PER_DAY INT64_C(86400000000000)

/* date (midnight UTC; anything else is not a date's part), timestamp and
 * timestamptz (UTC, "+00") of Unix nanoseconds, fraction digits as needed. */
static int time_text(const ordo_schema_column *c, int64_t ns, char *out, size_t cap)
{
    /* floor division without days * NS_PER_DAY, which overflows near INT64_MIN */
    int64_t neg = ns % NS_PER_DAY < 0, days = ns / NS_PER_DAY - neg,
            rem = ns % NS_PER_DAY + (neg ? NS_PER_DAY : 0);
    int bc, n;
    if (c->time_unit == ORDO_UNIT_DAY32 && rem)
        return 0;
    n = ordo__date_text(days - ORDO_PG_EPOCH_DAYS, out, cap, &bc);
    if (c->time_unit != ORDO_UNIT_DAY32) {
        n += snprintf(out + n, cap - (size_t)n, " %02lld:%02lld:%02lld",
                      (long long)(rem / INT64_C(3600000000000)),
                      (long long)(rem / INT64_C(60000000000) % 60),
                      (long long)(rem / 1000000000 % 60));
        if (rem % 1000000000) {
            char frac[16];
            snprintf(frac, sizeof frac, "%09lld", (long long)(rem % 1000000000));
            for (int k = 8; k > 0 && frac[k] == '0'; k--)
                frac[k] = 0;
            n += snprintf(out + n, cap - (size_t)n, ".%s", frac);
        }
        if (c->sql == ORDO_SQL_TIMESTAMPTZ)
            n += snprintf(out + n, cap - (size_t)n, "+00");
    }
    if (bc) /* LexKey instants end in 1677 at the earliest: kept for the rule */
        snprintf(out + n, cap - (size_t)n, " BC");
    return 1;
}

static ordo_status read_part(ordo_lexkey_reader *r, const ordo_schema_column *c, int how,
                             part_text *t)
{
    bool *isnull = how == ASK ? &t->isnull : NULL;
    ordo_status s = ORDO_ERR_BAD_TYPE;
    t->isnull = false;
    t->text[0] = 0;
    t->p = NULL;
    t->n = 0;
    if (how == NIL) {
        s = ordo_lexkey_read_nil(r);
        t->isnull = s == ORDO_OK;
        return s;
    }
    switch (c->type) {
    case ORDO_TYPE_BOOL: {
        bool b = false;
        s = ordo_lexkey_read_bool(r, &b, isnull);
        snprintf(t->text, sizeof t->text, "%s", b ? "t" : "f");
        break;
    }
    case ORDO_TYPE_INT8:
    case ORDO_TYPE_INT16:
    case ORDO_TYPE_INT32:
    case ORDO_TYPE_INT64: {
        int64_t v = 0;
        s = ordo_lexkey_read_int(r, c->type, &v, isnull);
        snprintf(t->text, sizeof t->text, "%lld", (long long)v);
        break;
    }
    case ORDO_TYPE_UINT8:
    case ORDO_TYPE_UINT16:
    case ORDO_TYPE_UINT32:
    case ORDO_TYPE_UINT64: {
        uint64_t v = 0;
        s = ordo_lexkey_read_uint(r, c->type, &v, isnull);
        snprintf(t->text, sizeof t->text, "%llu", (unsigned long long)v);
        break;
    }
    case ORDO_TYPE_FLOAT32: {
        float v = 0;
        s = ordo_lexkey_read_float32(r, &v, isnull);
        ordo__float_text(v, 1, t->text, sizeof t->text);
        break;
    }
    case ORDO_TYPE_FLOAT64: {
        double v = 0;
        s = ordo_lexkey_read_float64(r, &v, isnull);
        ordo__float_text(v, 0, t->text, sizeof t->text);
        break;
    }
    case ORDO_TYPE_UUID: {
        uint8_t u[16] = {0};
        s = ordo_lexkey_read_uuid(r, u, isnull);
        snprintf(t->text, sizeof t->text,
                 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                 u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
                 u[14], u[15]);
        break;
    }
    case ORDO_TYPE_TIME: {
        int64_t v = 0;
        ordo_lexkey_reader before = *r;
        s = ordo_lexkey_read_int(r, ORDO_TYPE_TIME, &v, isnull);
        if (s == ORDO_OK && !t->isnull && !time_text(c, v, t->text, sizeof t->text)) {
            *r = before; /* a time of day where a date stands: not this schema's key */
            s = ORDO_ERR_MALFORMED_KEY;
        }
        break;
    }
    case ORDO_TYPE_STRING:
    case ORDO_TYPE_BYTES: s = ordo_lexkey_read_bytes(r, &t->p, &t->n, isnull); break;
    default: break;
    }
    return s;
}

/* Whether columns c.. of s read from r (a copy) to the end of the key, each
 * as nil or as a value. memo[c][remaining] caches the answers (0 unknown, 1
 * no, 2 yes), so that a run of ambiguous parts costs columns x bytes, not
 * 2^columns. */
static int rest_reads(ordo_lexkey_reader r, const ordo_schema *s, size_t c, uint8_t *memo,
                      size_t stride)
{
    if (c == s->ncols)
        return ordo_lexkey_reader_status(&r) == ORDO_OK && ordo_lexkey_reader_remaining(&r) == 0;
    uint8_t *m = &memo[c * stride + ordo_lexkey_reader_remaining(&r)];
    if (*m)
        return *m - 1;
    part_text t;
    ordo_lexkey_reader a = r;
    ordo_status st = read_part(&a, &s->cols[c], ASK, &t);
    int ok = 0;
    if (st == ORDO_OK) {
        ok = rest_reads(a, s, c + 1, memo, stride);
    } else if (st == ORDO_ERR_AMBIGUOUS_KEY) {
        a = r;
        ok = read_part(&a, &s->cols[c], VALUE, &t) == ORDO_OK &&
             rest_reads(a, s, c + 1, memo, stride);
        a = r;
        ok = ok || (read_part(&a, &s->cols[c], NIL, &t) == ORDO_OK &&
                    rest_reads(a, s, c + 1, memo, stride));
    }
    *m = (uint8_t)(ok + 1);
    return ok;
}

/* Settles an ambiguous part of column c: the one explanation, nil or value,
 * under which the columns after it read; ORDO_ERR_AMBIGUOUS_KEY when both
 * do. When neither does the value is taken, so that the error shows at the
 * column where the key stops reading. */
static ordo_status settle(ordo_lexkey_reader *r, const ordo_schema *s, size_t c, part_text *t)
{
    size_t stride = ordo_lexkey_reader_remaining(r) + 1;
    if (stride > SIZE_MAX / (s->ncols + 1))
        return ORDO_ERR_SIZE_OVERFLOW;
    uint8_t *memo = calloc((s->ncols + 1) * stride, 1);
    if (!memo)
        return ORDO_ERR_OUT_OF_MEMORY;
    ordo_lexkey_reader v = *r, n = *r;
    part_text tv, tn;
    int v_ok = read_part(&v, &s->cols[c], VALUE, &tv) == ORDO_OK &&
               rest_reads(v, s, c + 1, memo, stride);
    int n_ok = read_part(&n, &s->cols[c], NIL, &tn) == ORDO_OK &&
               rest_reads(n, s, c + 1, memo, stride);
    free(memo);
    if (v_ok && n_ok)
        return ORDO_ERR_AMBIGUOUS_KEY;
    if (n_ok) {
        *r = n, *t = tn;
        return ORDO_OK;
    }
    return read_part(r, &s->cols[c], VALUE, t);
}

ordo_status ordo_lexkey_text_print(ordo_lexkey_reader *r, const ordo_schema *s, size_t c,
                                   ordo_text_style style, unsigned flags, ordo_buf *out,
                                   bool *is_null)
{
    if (!r || !s || !out)
        return ORDO_ERR_NULL_ARG;
    if (c >= s->ncols || (flags & ~ORDO_LEXKEY_TEXT_NO_NULLS) ||
        (style != ORDO_TEXT_SQL && style != ORDO_TEXT_CSV && style != ORDO_TEXT_BARE))
        return ORDO_ERR_INVALID_ARG;
    if (!ordo__buf_reserve(out, 0)) /* data is never NULL after a call */
        return ORDO_ERR_OUT_OF_MEMORY;
    out->data[out->len] = 0;
    const ordo_schema_column *col = &s->cols[c];
    part_text t;
    ordo_lexkey_reader before = *r;
    ordo_status st = read_part(r, col, (flags & ORDO_LEXKEY_TEXT_NO_NULLS) ? VALUE : ASK, &t);
    if (st == ORDO_ERR_AMBIGUOUS_KEY)
        st = settle(r, s, c, &t);
    if (st != ORDO_OK)
        return st;
    if (is_null)
        *is_null = t.isnull;
    ordo__out o = {out, 0};
    size_t at = out->len;
    if (t.isnull) {
        if (style == ORDO_TEXT_SQL)
            ordo__out_str(&o, "NULL");
    } else if (col->type == ORDO_TYPE_BYTES) {
        static const char hx[] = "0123456789abcdef";
        ordo__out_str(&o, "\\x");
        for (size_t k = 0; k < t.n; k++) {
            char two[2] = {hx[t.p[k] >> 4], hx[t.p[k] & 15]};
            ordo__out_put(&o, two, 2);
        }
    } else if (col->type == ORDO_TYPE_STRING) {
        if (style == ORDO_TEXT_CSV) {
            ordo__out_csv(&o, t.p, t.n);
        } else if (style == ORDO_TEXT_BARE) {
            if (t.n)
                ordo__out_put(&o, t.p, t.n);
        } else {
            ordo__out_sql(&o, t.p, t.n);
        }
    } else {
        ordo__out_str(&o, t.text);
    }
    if (o.oom) { /* nothing of a failed part, and the part not consumed */
        out->len = at, out->data[at] = 0;
        *r = before;
        return ORDO_ERR_OUT_OF_MEMORY;
    }
    return ORDO_OK;
}
