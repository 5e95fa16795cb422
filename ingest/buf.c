#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ordo__buf_reserve(ordo_buf *b, size_t n)
{
    if (b->cap - b->len > n) /* one more for a NUL */
        return 1;
    size_t cap = b->cap < 64 ? 64 : b->cap;
    while (cap - b->len <= n) {
        if (cap > SIZE_MAX / 2)
            return 0;
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (!p)
        return 0;
    b->data = p, b->cap = cap;
    return 1;
}

ordo_status ordo_buf_append(ordo_buf *b, const void *p, size_t n)
{
    if (!ordo__buf_reserve(b, n))
        return ORDO_ERR_OUT_OF_MEMORY;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
    return ORDO_OK;
}

void ordo_buf_free(ordo_buf *b)
{
    if (!b)
        return;
    free(b->data);
    b->data = NULL, b->len = b->cap = 0;
}

void ordo__out_put(ordo__out *o, const void *p, size_t n)
{
    if (o->oom || !ordo__buf_reserve(o->b, n)) {
        o->oom = 1;
        return;
    }
    if (n)
        memcpy(o->b->data + o->b->len, p, n);
    o->b->len += n;
    o->b->data[o->b->len] = 0;
}

void ordo__out_c(ordo__out *o, char c) { ordo__out_put(o, &c, 1); }

void ordo__out_str(ordo__out *o, const char *s) { ordo__out_put(o, s, strlen(s)); }

void ordo__out_printf(ordo__out *o, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        o->oom = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        ordo__out_put(o, small, (size_t)n);
        return;
    }
    if (o->oom || !ordo__buf_reserve(o->b, (size_t)n)) {
        o->oom = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(o->b->data + o->b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    o->b->len += (size_t)n;
}

void ordo__out_csv(ordo__out *o, const void *text, size_t n)
{
    const char *p = text;
    /* empty (else NULL); or a leading UTF-8 BOM, which the CSV reader drops
     * at the start of input: quoted, the text reads back as it is */
    int quote = n == 0 || (n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3));
    for (size_t i = 0; i < n && !quote; i++)
        quote = p[i] == ',' || p[i] == '"' || p[i] == '\n' || p[i] == '\r';
    if (!quote) {
        ordo__out_put(o, p, n);
        return;
    }
    ordo__out_c(o, '"');
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '"')
            ordo__out_c(o, '"');
        ordo__out_c(o, p[i]);
    }
    ordo__out_c(o, '"');
}

void ordo__out_sql(ordo__out *o, const void *text, size_t n)
{
    const char *p = text;
    ordo__out_c(o, '\'');
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\'')
            ordo__out_c(o, '\''); /* doubled, as SQL quotes a quote */
        ordo__out_c(o, p[i]);
    }
    ordo__out_c(o, '\'');
}

ordo_status ordo_csv_field_text(const void *text, size_t n, ordo_buf *out)
{
    if (!out || (!text && n))
        return ORDO_ERR_NULL_ARG;
    if (!ordo__buf_reserve(out, 0))
        return ORDO_ERR_OUT_OF_MEMORY;
    ordo__out o = {out, 0};
    size_t before = out->len;
    ordo__out_csv(&o, text, n);
    if (o.oom) {
        out->len = before;
        out->data[before] = 0;
        return ORDO_ERR_OUT_OF_MEMORY;
    }
    return ORDO_OK;
}
