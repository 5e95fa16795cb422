/* What the Arrow C Data Interface lets a consumer check before it reads:
 * the structs' own fields, against what each format's layout needs. The
 * buffers' lengths are not part of the interface, so nothing here reads
 * a buffer; a producer's callbacks are called only by the stream helpers. */
#include "ordo_internal.h"

#include <stdarg.h>
#include <stdio.h>

#define MAX_DEPTH 64 /* deeper is refused: also stops a struct that holds itself */

/* What a format's layout needs. */
typedef struct layout {
    int buffers;  /* exactly this many (views: at least this many) */
    int children; /* -1: any (struct) */
    int validity; /* buffers[0] is the validity bitmap */
    int need;     /* buffers 1 .. need-1 must be there when length > 0 */
    int views;    /* binary/utf8 view: variadic data buffers, then their sizes */
    int unions;   /* a union: one more (NULL) buffer tolerated, as older exporters give */
} layout;

/* Digits (at least one, at most 10: an int32's) from *s; 0 when none or
 * too many. */
static int digits(const char **s, long *out)
{
    long v = 0;
    const char *p = *s;
    while (*p >= '0' && *p <= '9' && p - *s < 10)
        v = v * 10 + (*p++ - '0');
    if (p == *s || (*p >= '0' && *p <= '9'))
        return 0;
    *s = p, *out = v;
    return 1;
}

ordo_status ordo_arrow_decimal(const char *f, int32_t *precision, int32_t *scale, int *bits)
{
    if (!f)
        return ORDO_ERR_NULL_ARG;
    if (f[0] != 'd' || f[1] != ':') /* d:P,S or d:P,S,BITS */
        return ORDO_ERR_BAD_TYPE;
    const char *p = f + 2;
    long n, s, b = 128;
    if (!digits(&p, &n) || n < 1 || n > INT32_MAX || *p++ != ',')
        return ORDO_ERR_BAD_TYPE;
    int neg = *p == '-';
    p += neg;
    if (!digits(&p, &s) || s > (long)INT32_MAX + neg) /* the scale is an int32 */
        return ORDO_ERR_BAD_TYPE;
    if (*p == ',' && (p++, !digits(&p, &b)))
        return ORDO_ERR_BAD_TYPE;
    if (*p || (b != 32 && b != 64 && b != 128 && b != 256))
        return ORDO_ERR_BAD_TYPE;
    if (precision)
        *precision = (int32_t)n;
    if (scale)
        *scale = neg ? (int32_t)-s : (int32_t)s;
    if (bits)
        *bits = (int)b;
    return ORDO_OK;
}

/* The layout of a format string (the C Data Interface's grammar); 0 when
 * it does not parse. */
static int parse_format(const char *f, layout *l)
{
    static const layout prim = {2, 0, 1, 2, 0, 0}, var = {3, 0, 1, 3, 0, 0};
    long n;
    *l = prim;
    if (f[0] && !f[1]) {
        if (f[0] == 'n')
            return *l = (layout){0, 0, 0, 0, 0, 0}, 1;
        if (strchr("bcCsSiIlLefg", f[0]))
            return 1;
        if (strchr("zZuU", f[0]))
            return *l = var, 1;
        return 0;
    }
    if (!strcmp(f, "vz") || !strcmp(f, "vu"))
        return *l = (layout){3, 0, 1, 2, 1, 0}, 1;
    if (f[0] == 'w' && f[1] == ':') {
        const char *p = f + 2;
        return digits(&p, &n) && n > 0 && n <= INT32_MAX && !*p;
    }
    if (f[0] == 'd' && f[1] == ':')
        return ordo_arrow_decimal(f, NULL, NULL, NULL) == ORDO_OK;
    if (f[0] == 't') {
        if (!f[1] || !f[2])
            return 0;
        const char *units = f[1] == 'd' ? "Dm" : f[1] == 't' || f[1] == 's' || f[1] == 'D' ? "smun"
                            : f[1] == 'i' ? "MDn" : "";
        if (!*units || !strchr(units, f[2]))
            return 0;
        return f[1] == 's' ? f[3] == ':' : !f[3]; /* a timestamp's zone: any text */
    }
    if (f[0] != '+')
        return 0;
    if ((f[1] == 'l' || f[1] == 'L' || f[1] == 'm') && !f[2])
        return *l = (layout){2, 1, 1, 2, 0, 0}, 1;
    if (f[1] == 'v' && (f[2] == 'l' || f[2] == 'L') && !f[3])
        return *l = (layout){3, 1, 1, 3, 0, 0}, 1;
    if (f[1] == 's' && !f[2])
        return *l = (layout){1, -1, 1, 1, 0, 0}, 1;
    if (f[1] == 'r' && !f[2])
        return *l = (layout){0, 2, 0, 0, 0, 0}, 1;
    if (f[1] == 'w' && f[2] == ':') {
        const char *p = f + 3;
        *l = (layout){1, 1, 1, 1, 0, 0};
        return digits(&p, &n) && n > 0 && n <= INT32_MAX && !*p;
    }
    if (f[1] == 'u' && (f[2] == 'd' || f[2] == 's') && f[3] == ':') { /* +ud:0,1,... */
        int dense = f[2] == 'd', kids = 0;
        const char *p = f + 4;
        if (*p) {
            for (;;) {
                if (!digits(&p, &n) || n > 127)
                    return 0;
                kids++;
                if (!*p)
                    break;
                if (*p++ != ',')
                    return 0;
            }
        }
        *l = (layout){dense ? 2 : 1, kids, 0, dense ? 2 : 1, 0, 1};
        return 1;
    }
    return 0;
}

/* The error, the message naming the struct and the field: "Arrow array
 * children[1]: n_buffers is 1, ...". */
__attribute__((format(printf, 5, 6))) static ordo_status
fail(ordo_error *err, ordo_status s, const char *what, const char *path, const char *fmt, ...)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = s;
        int n = snprintf(err->message, sizeof err->message, "Arrow %s%s%s: ", what,
                         *path ? " " : "", path);
        if (n > 0 && (size_t)n < sizeof err->message) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err->message + n, sizeof err->message - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return s;
}

/* path + ".children[i]" (or "children[i]" at the top), cut to fit. */
static void child_path(char *dst, size_t cap, const char *path, const char *what, long long i)
{
    snprintf(dst, cap, "%s%s%s[%lld]", path, *path ? "." : "", what, i);
}

static ordo_status check_schema(const struct ArrowSchema *s, const char *path, int depth,
                                ordo_error *err)
{
    if (depth > MAX_DEPTH)
        return fail(err, ORDO_ERR_INVALID_VALUE, "schema", path,
                    "nested more than %d levels deep", MAX_DEPTH);
    if (!s)
        return fail(err, ORDO_ERR_NULL_ARG, "schema", path, "is NULL");
    if (!s->release)
        return fail(err, ORDO_ERR_INVALID_VALUE, "schema", path,
                    "is released (release is NULL)");
    if (!s->format)
        return fail(err, ORDO_ERR_NULL_ARG, "schema", path, "format is NULL");
    layout l;
    if (!parse_format(s->format, &l))
        return fail(err, ORDO_ERR_BAD_TYPE, "schema", path, "format '%.100s' is not an Arrow format",
                    s->format);
    if (s->n_children < 0)
        return fail(err, ORDO_ERR_INVALID_VALUE, "schema", path, "n_children is %lld",
                    (long long)s->n_children);
    if (l.children >= 0 && s->n_children != l.children)
        return fail(err, ORDO_ERR_INVALID_VALUE, "schema", path,
                    "n_children is %lld, its format has %d", (long long)s->n_children,
                    l.children);
    if (s->n_children && !s->children)
        return fail(err, ORDO_ERR_NULL_ARG, "schema", path,
                    "children is NULL with n_children %lld", (long long)s->n_children);
    char sub[256];
    for (int64_t i = 0; i < s->n_children; i++) {
        child_path(sub, sizeof sub, path, "children", (long long)i);
        ordo_status st = check_schema(s->children[i], sub, depth + 1, err);
        if (st != ORDO_OK)
            return st;
    }
    if (s->dictionary) {
        if (!s->format[0] || s->format[1] || !strchr("cCsSiIlL", s->format[0]))
            return fail(err, ORDO_ERR_INVALID_VALUE, "schema", path,
                        "a dictionary's indices must be integers");
        snprintf(sub, sizeof sub, "%s%sdictionary", path, *path ? "." : "");
        return check_schema(s->dictionary, sub, depth + 1, err);
    }
    return ORDO_OK;
}

/* The array against its schema (checked already, so the recursion is as
 * deep as the schema's). */
static ordo_status check_array(const struct ArrowSchema *s, const struct ArrowArray *a,
                               const char *path, int depth, ordo_error *err)
{
    if (!a)
        return fail(err, ORDO_ERR_NULL_ARG, "array", path, "is NULL");
    if (!a->release)
        return fail(err, ORDO_ERR_INVALID_VALUE, "array", path,
                    "is released (release is NULL)");
    if (a->length < 0 || a->offset < 0)
        return fail(err, ORDO_ERR_INVALID_VALUE, "array", path,
                    "negative length (%lld) or offset (%lld)", (long long)a->length,
                    (long long)a->offset);
    if (a->null_count < -1 || a->null_count > a->length)
        return fail(err, ORDO_ERR_INVALID_VALUE, "array", path,
                    "null_count %lld for %lld rows", (long long)a->null_count,
                    (long long)a->length);
    int64_t end;
    if (__builtin_add_overflow(a->offset, a->length, &end))
        return fail(err, ORDO_ERR_SIZE_OVERFLOW, "array", path,
                    "offset %lld plus length %lld overflows int64", (long long)a->offset,
                    (long long)a->length);
    layout l;
    parse_format(s->format, &l);
    int null_type = l.buffers == 0 && l.children == 0;
    if (a->n_buffers < 0 || (null_type ? a->n_buffers > 1 /* C++ gives one NULL buffer */
                             : l.views ? 0
                             : a->n_buffers > l.buffers + l.unions))
        return fail(err, ORDO_ERR_INVALID_VALUE, "array", path,
                    "n_buffers is %lld, its format has %d", (long long)a->n_buffers,
                    l.buffers);
    if (a->n_buffers < l.buffers)
        return fail(err, ORDO_ERR_NULL_ARG, "array", path,
                    "n_buffers is %lld, its format needs %d", (long long)a->n_buffers,
                    l.buffers);
    if (a->n_buffers && !a->buffers)
        return fail(err, ORDO_ERR_NULL_ARG, "array", path,
                    "buffers is NULL with n_buffers %lld", (long long)a->n_buffers);
    if (a->length > 0) {
        /* a union exported with a leading NULL slot: its buffers start one later */
        int skip = l.unions && a->n_buffers > l.buffers;
        if (l.validity && a->null_count != 0 && !a->buffers[0])
            return fail(err, ORDO_ERR_NULL_ARG, "array", path,
                        "null_count is %lld but the validity buffer is NULL",
                        (long long)a->null_count);
        for (int b = l.validity ? 1 : 0; b < l.need; b++)
            if (!a->buffers[b + skip])
                return fail(err, ORDO_ERR_NULL_ARG, "array", path,
                            "buffers[%d] is NULL for %lld rows", b + skip,
                            (long long)a->length);
        for (int64_t b = 2; l.views && b < a->n_buffers - 1; b++)
            if (!a->buffers[b])
                return fail(err, ORDO_ERR_NULL_ARG, "array", path,
                            "buffers[%lld] (a view's data) is NULL", (long long)b);
        if (l.views && a->n_buffers > 3 && !a->buffers[a->n_buffers - 1])
            return fail(err, ORDO_ERR_NULL_ARG, "array", path,
                        "buffers[%lld] (the views' buffer sizes) is NULL",
                        (long long)a->n_buffers - 1);
    }
    if (a->n_children != s->n_children)
        return fail(err, ORDO_ERR_INVALID_VALUE, "array", path,
                    "n_children is %lld, its schema's %lld", (long long)a->n_children,
                    (long long)s->n_children);
    if (a->n_children && !a->children)
        return fail(err, ORDO_ERR_NULL_ARG, "array", path,
                    "children is NULL with n_children %lld", (long long)a->n_children);
    int is_struct = l.children < 0;
    char sub[256];
    for (int64_t i = 0; i < a->n_children; i++) {
        child_path(sub, sizeof sub, path, "children", (long long)i);
        const struct ArrowArray *c = a->children[i];
        if (!c)
            return fail(err, ORDO_ERR_NULL_ARG, "array", sub, "is NULL");
        ordo_status st = check_array(s->children[i], c, sub, depth + 1, err);
        if (st != ORDO_OK)
            return st;
        /* a struct's rows are its children's rows offset .. offset + length */
        if (is_struct && c->length < end)
            return fail(err, ORDO_ERR_INVALID_VALUE, "array", sub,
                        "has %lld rows, its struct covers %lld", (long long)c->length,
                        (long long)end);
    }
    if (!s->dictionary != !a->dictionary)
        return fail(err, ORDO_ERR_INVALID_VALUE, "array", path,
                    "%s", s->dictionary ? "dictionary is NULL, its schema has one"
                                        : "has a dictionary, its schema none");
    if (a->dictionary) {
        snprintf(sub, sizeof sub, "%s%sdictionary", path, *path ? "." : "");
        return check_array(s->dictionary, a->dictionary, sub, depth + 1, err);
    }
    return ORDO_OK;
}

ordo_status ordo_arrow_check_schema(const struct ArrowSchema *schema, ordo_error *err)
{
    return check_schema(schema, "", 0, err);
}

ordo_status ordo_arrow_check(const struct ArrowSchema *schema, const struct ArrowArray *array,
                             ordo_error *err)
{
    ordo_status s = check_schema(schema, "", 0, err);
    return s != ORDO_OK ? s : check_array(schema, array, "", 0, err);
}

/* ------------------------------------------------------------ streams */

static ordo_status stream_usable(const struct ArrowArrayStream *st, ordo_error *err)
{
    const char *missing = !st                   ? "is NULL"
                          : !st->release        ? "is released (consumed already)"
                          : !st->get_schema     ? "get_schema is NULL"
                          : !st->get_next       ? "get_next is NULL"
                          : !st->get_last_error ? "get_last_error is NULL"
                                                : NULL;
    if (!missing)
        return ORDO_OK;
    /* a released stream is a state; a missing pointer a NULL */
    ordo_status s = st && !st->release ? ORDO_ERR_INVALID_VALUE : ORDO_ERR_NULL_ARG;
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = s;
        snprintf(err->message, sizeof err->message, "Arrow stream: %s", missing);
    }
    return s;
}

/* A failed callback: the producer's own message when it gives one. */
static ordo_status stream_failed(struct ArrowArrayStream *st, const char *call, int rc,
                                 ordo_error *err)
{
    const char *why = st->get_last_error(st);
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = ORDO_ERR_IO;
        if (why)
            snprintf(err->message, sizeof err->message, "Arrow stream: %s failed: %.900s", call,
                     why);
        else
            snprintf(err->message, sizeof err->message,
                     "Arrow stream: %s failed (error %d, no message)", call, rc);
    }
    return ORDO_ERR_IO;
}

ordo_status ordo_arrow_stream_schema(struct ArrowArrayStream *st, struct ArrowSchema *out,
                                     ordo_error *err)
{
    if (!out)
        return ORDO_ERR_NULL_ARG;
    memset(out, 0, sizeof *out);
    ordo_status s = stream_usable(st, err);
    if (s != ORDO_OK)
        return s;
    int rc = st->get_schema(st, out);
    if (rc != 0) {
        memset(out, 0, sizeof *out); /* not valid: never released by us */
        return stream_failed(st, "get_schema", rc, err);
    }
    s = check_schema(out, "", 0, err);
    if (s != ORDO_OK && out->release)
        out->release(out);
    if (s != ORDO_OK)
        memset(out, 0, sizeof *out);
    return s;
}

ordo_status ordo_arrow_stream_next(struct ArrowArrayStream *st, const struct ArrowSchema *schema,
                                   struct ArrowArray *out, ordo_error *err)
{
    if (!out || !schema)
        return ORDO_ERR_NULL_ARG;
    memset(out, 0, sizeof *out);
    ordo_status s = stream_usable(st, err);
    if (s != ORDO_OK)
        return s;
    int rc = st->get_next(st, out);
    if (rc != 0) {
        memset(out, 0, sizeof *out);
        return stream_failed(st, "get_next", rc, err);
    }
    if (!out->release) /* the end */
        return ORDO_OK;
    s = check_array(schema, out, "", 0, err);
    if (s != ORDO_OK) {
        out->release(out);
        memset(out, 0, sizeof *out);
    }
    return s;
}
