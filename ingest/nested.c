/* Ranges and arrays in PostgreSQL's text forms: '[1,5)', 'empty', '(,5]',
 * '{1,NULL,3}', '{"a b",c}' (range_in/range_out, array_in/array_out for one
 * dimension). The values go through the element or subtype column's own
 * text parser and printer; the library nests them (SPEC.md §14.17-18). */
#include "nested.h"

#include "fields.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* n values of column type col (texts t[i] of len[i]; NULL: null[i]) encoded
 * as whole ASC NULLS LAST fields: *out (malloc'd) and offs[0..n]. */
static const char *encode_values(const ordo_schema_column *col, char *const *t, const size_t *len,
                                 const int *null, size_t n, uint8_t **out,
                                 size_t *offs, char *why, size_t whylen, const char *what)
{
    ordo_schema_column one_col = *col;
    one_col.order = ORDO_ASC_NULLS_LAST;
    ordo_schema one = {&one_col, 1};
    ordo__batchbuf rb;
    *out = NULL;
    offs[0] = 0;
    if (n == 0)
        return NULL;
    if (ordo__batchbuf_init(&rb, &one, n) != ORDO_OK)
        return ordo__out_of_memory;
    const char *e = NULL;
    for (size_t i = 0; !e && i < n; i++) {
        const char *fe = null[i] ? ordo__field_put(&rb, 0, i, "", 0, 0)
                                 : ordo__field_put(&rb, 0, i, t[i], len[i], 1);
        if (fe == ordo__out_of_memory)
            e = fe;
        else if (fe) {
            snprintf(why, whylen, "%s %zu (%s): %s", what, i + 1, col->sql_name, fe);
            e = why;
        }
        rb.rows = i + 1;
    }
    size_t total = 0;
    const ordo_column *view = e ? NULL : ordo__batchbuf_view_keyed(&rb);
    if (!e && ordo_batch_size(ORDO_FORMAT_ORDERED, view, 1, n, &total, NULL, NULL) != ORDO_OK)
        e = "a value cannot be encoded";
    if (!e && !(*out = malloc(total ? total : 1)))
        e = ordo__out_of_memory;
    if (!e && ordo_batch_encode(ORDO_FORMAT_ORDERED, view, 1, n, *out, total, offs, NULL) != ORDO_OK)
        e = "a value cannot be encoded";
    ordo__batchbuf_free(&rb);
    if (e) {
        free(*out);
        *out = NULL;
    }
    return e;
}

static int is_space(char c) { return isspace((unsigned char)c) != 0; }

/* s[*i .. *n) without the spaces around it. */
static void trim(const char *s, size_t *i, size_t *n)
{
    while (*i < *n && is_space(s[*i]))
        (*i)++;
    while (*n > *i && is_space(s[*n - 1]))
        (*n)--;
}

/* One array element or range bound: quotes and backslashes undone into
 * dst; returns the index past it. stop: the characters that end it
 * outside quotes. *q: written in quotes anywhere; *raw_end: dst's length
 * before trailing unquoted spaces (trimmed by the caller when unquoted). */
static size_t take_item(const char *s, size_t n, size_t i, const char *stop, int doubled, char *dst,
                        size_t *len, int *q, int *bad)
{
    size_t o = 0, keep = 0; /* keep: dst up to the last quoted or escaped byte */
    int inq = 0;
    *q = 0, *bad = 0;
    for (; i < n; i++) {
        char ch = s[i];
        if (ch == '\\') {
            if (i + 1 >= n) {
                *bad = 1;
                break;
            }
            dst[o++] = s[++i], keep = o;
        } else if (ch == '"' && inq && doubled && i + 1 < n && s[i + 1] == '"') {
            dst[o++] = '"', keep = o, i++;
        } else if (ch == '"') {
            inq = !inq, *q = 1, keep = o;
        } else if (!inq && strchr(stop, ch)) {
            break;
        } else {
            dst[o++] = ch;
            if (inq)
                keep = o;
        }
    }
    if (inq)
        *bad = 1;
    /* unquoted spaces at the end are not part of the value */
    while (o > keep && is_space(dst[o - 1]))
        o--;
    *len = o;
    return i;
}

/* The field of a range or array from its encoded values, into the column. */
static const char *store(ordo__batchbuf *b, size_t c, size_t r, const ordo_schema_column *sc,
                         const uint8_t *vals, const size_t *offs, size_t n, unsigned flags)
{
    size_t cap = 8 * offs[n] + 128; /* each value byte at most 4 bytes once nested */
    uint8_t *buf = malloc(cap);
    if (!buf)
        return ordo__out_of_memory;
    ordo_key k;
    ordo_key_init(&k, buf, cap, 0);
    if (sc->sql == ORDO_SQL_RANGE)
        ordo_key_range_begin(&k, (ordo_order)sc->order, sc->fields->cols[0].type, flags);
    else
        ordo_key_array_begin(&k, (ordo_order)sc->order);
    for (size_t i = 0; i < n; i++)
        ordo_key_encoded(&k, vals + offs[i], offs[i + 1] - offs[i]);
    if (sc->sql == ORDO_SQL_RANGE)
        ordo_key_range_end(&k);
    else
        ordo_key_array_end(&k);
    size_t len = 0;
    ordo_status s = ordo_key_finish(&k, &len);
    const char *e = NULL;
    if (s == ORDO_ERR_INVALID_VALUE)
        e = "range lower bound must be less than or equal to range upper bound";
    else if (s == ORDO_ERR_OUT_OF_RANGE)
        e = "a bound steps out of its type's range";
    else if (s != ORDO_OK)
        e = "cannot be encoded";
    if (!e) {
        uint8_t *at = ordo__batchbuf_reserve_bytes(b, c, r, len);
        if (at)
            memcpy(at, buf, len);
        else
            e = ordo__out_of_memory;
    }
    free(buf);
    return e;
}

static const char *put_range(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n)
{
    static _Thread_local char why[256];
    const ordo_schema_column *sc = &b->s->cols[c];
    size_t i = 0;
    trim(s, &i, &n);
    if (n - i == 5 && !strncasecmp(s + i, "empty", 5))
        return store(b, c, r, sc, NULL, (size_t[]){0}, 0, ORDO_RANGE_EMPTY);
    if (i >= n || (s[i] != '[' && s[i] != '('))
        return "expected a range: [lower,upper), (lower,upper], ... or empty";
    unsigned flags = s[i] == '[' ? ORDO_RANGE_LOWER_INC : 0;
    i++;
    char *text = malloc(2 * (n + 1));
    if (!text)
        return ordo__out_of_memory;
    char *t[2] = {text, text + n + 1};
    size_t len[2] = {0, 0}, offs[3];
    int q[2], bad[2], null[2] = {0, 0};
    while (i < n && is_space(s[i]))
        i++;
    i = take_item(s, n, i, ",", 1, t[0], &len[0], &q[0], &bad[0]);
    const char *e = NULL;
    if (bad[0] || i >= n)
        e = "a range without its comma";
    else {
        for (i++; i < n && is_space(s[i]); i++)
            ;
        i = take_item(s, n, i, ")]", 1, t[1], &len[1], &q[1], &bad[1]);
    }
    if (!e && (bad[1] || i >= n))
        e = "a range without its closing ) or ]";
    else if (!e && i + 1 != n)
        e = "text after the range's closing bracket";
    if (e) {
        free(text);
        return e;
    }
    if (s[i] == ']')
        flags |= ORDO_RANGE_UPPER_INC;
    /* an unquoted empty bound is unbounded */
    char *vt[2];
    size_t vl[2];
    int nv = 0;
    if (len[0] == 0 && !q[0])
        flags |= ORDO_RANGE_LOWER_INF;
    else
        vt[nv] = t[0], vl[nv++] = len[0];
    if (len[1] == 0 && !q[1])
        flags |= ORDO_RANGE_UPPER_INF;
    else
        vt[nv] = t[1], vl[nv++] = len[1];
    uint8_t *vals = NULL;
    e = encode_values(&sc->fields->cols[0], vt, vl, null, (size_t)nv, &vals, offs, why,
                      sizeof why, "bound");
    if (!e)
        e = store(b, c, r, sc, vals, offs, (size_t)nv, flags);
    free(vals), free(text);
    return e;
}

static const char *put_array(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n)
{
    static _Thread_local char why[256];
    const ordo_schema_column *sc = &b->s->cols[c];
    size_t i = 0;
    trim(s, &i, &n);
    if (i < n && s[i] == '[')
        return "array dimensions ([m:n]=) are not supported: one-dimensional arrays from 1 only";
    if (i >= n || s[i] != '{' || s[n - 1] != '}')
        return "expected an array: {value, ...}";
    i++, n--; /* inside the braces */
    size_t cap = 1;
    for (size_t k = i; k < n; k++)
        cap += s[k] == ',';
    char *text = malloc(n + 1), **t = calloc(cap, sizeof *t);
    size_t *len = calloc(cap, sizeof *len), *offs = calloc(cap + 1, sizeof *offs);
    int *null = calloc(cap, sizeof *null);
    const char *e = NULL;
    size_t m = 0, o = 0;
    if (!text || !t || !len || !offs || !null)
        e = ordo__out_of_memory;
    size_t j = i;
    while (j < n && is_space(s[j]))
        j++;
    if (!e && j < n) { /* not {} */
        for (;;) {
            while (i < n && is_space(s[i]))
                i++;
            if (i < n && s[i] == '{') {
                e = "multidimensional arrays are not supported";
                break;
            }
            int q, bad;
            size_t l;
            size_t from = i;
            i = take_item(s, n, i, ",{}", 0, text + o, &l, &q, &bad);
            if (bad || (i < n && s[i] != ',')) {
                e = "a malformed array element (quotes, braces or a trailing backslash)";
                break;
            }
            if (!q && l == 0) {
                e = "an empty array element (write \"\" for an empty string)";
                break;
            }
            /* unquoted NULL (any case, no escapes) is a NULL element */
            int is_null = !q && l == 4 && !strncasecmp(text + o, "null", 4) &&
                          !memchr(s + from, '\\', i - from);
            t[m] = text + o, len[m] = l, null[m] = is_null;
            o += l, m++;
            if (i >= n)
                break;
            i++; /* the comma */
        }
    }
    uint8_t *vals = NULL;
    if (!e)
        e = encode_values(&sc->fields->cols[0], t, len, null, m, &vals, offs, why, sizeof why,
                          "element");
    if (!e)
        e = store(b, c, r, sc, vals, offs, m, 0);
    free(vals), free(text), free(t), free(len), free(offs), free(null);
    return e;
}

const char *ordo__put_nested(ordo__batchbuf *b, size_t c, size_t r, const char *s, size_t n)
{
    return b->s->cols[c].sql == ORDO_SQL_RANGE ? put_range(b, c, r, s, n) : put_array(b, c, r, s, n);
}

/* ------------------------------------------------------------- text out */

/* A value inside a range (range_bound_escape) or an array (array_out): in
 * quotes when empty or holding one of `special` or a space; inside quotes
 * `"` and `\` are doubled (ranges) or backslash-escaped (arrays). Arrays
 * also quote NULL spelled as a value. */
static void quoted_value(ordo__out *m, const char *p, size_t n, int array)
{
    const char *special = array ? "{},\"\\" : "()[],\"\\";
    int quote = n == 0 || (array && n == 4 && !strncasecmp(p, "null", 4));
    for (size_t i = 0; i < n && !quote; i++)
        quote = strchr(special, p[i]) != NULL || is_space(p[i]);
    if (!quote) {
        ordo__out_put(m, p, n);
        return;
    }
    ordo__out_c(m, '"');
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '"' || p[i] == '\\')
            ordo__out_c(m, array ? '\\' : p[i]);
        ordo__out_c(m, p[i]);
    }
    ordo__out_c(m, '"');
}

ordo_status ordo__print_nested(ordo_key_reader *r, const ordo_schema_column *c, ordo__out *f,
                               int mode, bool *was_null)
{
    int range = c->sql == ORDO_SQL_RANGE;
    size_t cap = ordo_key_reader_remaining(r), count = 0;
    uint8_t *scratch = malloc(cap ? cap : 1);
    bool isnull = false;
    unsigned flags = 0;
    if (!scratch)
        return ORDO_ERR_OUT_OF_MEMORY;
    ordo_schema_column vc = c->fields->cols[0];
    vc.order = ORDO_ASC_NULLS_LAST;
    ordo_status s = range ? ordo_key_read_range_begin(r, (ordo_order)c->order, vc.type, scratch, cap,
                                                      NULL, &flags, &isnull)
                          : ordo_key_read_array_begin(r, (ordo_order)c->order, scratch, cap, NULL,
                                                      &count, &isnull);
    if (was_null)
        *was_null = isnull;
    if (s != ORDO_OK || isnull) {
        free(scratch);
        return s; /* the caller prints a NULL */
    }
    ordo_buf text = {0}, vt = {0};
    ordo__out mo = {&text, 0}, *m = &mo;
    if (range && (flags & ORDO_RANGE_EMPTY)) {
        ordo__out_str(m, "empty");
    } else if (range) {
        ordo__out_c(m, (flags & ORDO_RANGE_LOWER_INC) ? '[' : '(');
        for (int bnd = 0; s == ORDO_OK && bnd < 2; bnd++) {
            if (bnd)
                ordo__out_c(m, ',');
            if (flags & (bnd ? ORDO_RANGE_UPPER_INF : ORDO_RANGE_LOWER_INF))
                continue;
            vt.len = 0;
            bool vnull;
            s = ordo_text_print(r, &vc, ORDO_TEXT_BARE, &vt, &vnull);
            if (s == ORDO_OK)
                quoted_value(m, vt.data, vt.len, 0);
        }
        ordo__out_c(m, (flags & ORDO_RANGE_UPPER_INC) ? ']' : ')');
    } else {
        ordo__out_c(m, '{');
        for (size_t i = 0; s == ORDO_OK && i < count; i++) {
            if (i)
                ordo__out_c(m, ',');
            vt.len = 0;
            bool vnull = false;
            s = ordo_text_print(r, &vc, ORDO_TEXT_BARE, &vt, &vnull);
            if (s == ORDO_OK && vnull)
                ordo__out_str(m, "NULL");
            else if (s == ORDO_OK)
                quoted_value(m, vt.data, vt.len, 1);
        }
        ordo__out_c(m, '}');
    }
    if (s == ORDO_OK)
        s = range ? ordo_key_read_range_end(r) : ordo_key_read_array_end(r);
    if (s == ORDO_OK && mo.oom)
        s = ORDO_ERR_OUT_OF_MEMORY;
    if (s == ORDO_OK) {
        if (mode == 1)
            ordo__out_csv(f, text.data, text.len);
        else if (mode == 0)
            ordo__out_sql(f, text.data, text.len);
        else
            ordo__out_put(f, text.data, text.len);
    }
    ordo_buf_free(&text), ordo_buf_free(&vt);
    free(scratch);
    return s;
}
