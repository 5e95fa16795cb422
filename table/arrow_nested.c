/* Arrow lists as arrays and structs as records: each row written as
 * PostgreSQL's text of the value ({"1","2",NULL}, ("1","x")) and read
 * through the column's own parser (ordo_table_text_column), so that the
 * elements follow every rule of their type's text. Elements: numbers,
 * bools, strings, binary, fixed-size binary (uuids), dates, timestamps,
 * times, durations and decimals
 * (each converted by the one rule of its type, arrow_import.c's, and
 * printed by the ingest library's), and lists and structs of those. */
#include "import.h"

#include <stdlib.h>

/* Lists and structs nest at most this deep: each struct level quotes the
 * text of the one inside it (PostgreSQL's record text doubles its quotes
 * and backslashes), so a row's text grows as 2^depth. */
#define MAX_DEPTH 10

/* Row texts grow in the ingest library's buffer. */
typedef ordo_buf buf;

static int add(buf *b, const void *s, size_t n) { return ordo_buf_append(b, s, n) == ORDO_OK; }

/* s quoted for an array element or a record field: "..." with " and \
 * escaped. */
static int add_quoted(buf *b, const char *s, size_t n)
{
    if (!add(b, "\"", 1))
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((s[i] == '"' || s[i] == '\\') ? !add(b, "\\", 1) || !add(b, s + i, 1)
                                           : !add(b, s + i, 1))
            return 0;
    return add(b, "\"", 1);
}

/* n bytes as bytea's text form: \x, then two hex digits a byte. */
static int bytea_text(buf *out, const uint8_t *p, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    if (!add(out, "\\x", 2))
        return 0;
    for (size_t i = 0; i < n; i++) {
        char two[2] = {hex[p[i] >> 4], hex[p[i] & 15]};
        if (!add(out, two, 2))
            return 0;
    }
    return 1;
}

typedef struct nest {
    const struct ArrowSchema *schema;
    const struct ArrowArray *array;
    size_t offset; /* the column's rows start at this element */
    const char *name;
    const ordo_table_import_options *io;
    size_t i; /* the row being written */
    buf row;
    ordo_status why; /* an element's own refusal */
    int told;        /* ... with err filled, naming the row */
    ordo_error *err;
} nest;

/* Element j's range of a variable-width array (int32 or, wide, int64 offsets). */
static void range_at(const struct ArrowArray *a, size_t j, int wide, int64_t *from, int64_t *to)
{
    *from = ordo__offset_at(a->buffers[1], wide, j), *to = ordo__offset_at(a->buffers[1], wide, j + 1);
}

static int valid_at(const struct ArrowArray *a, size_t j)
{
    return !(a->null_count && a->n_buffers > 0 && a->buffers[0]) || ordo__bit(a->buffers[0], j);
}

/* Element j of (s, a) as text appended to out (a NULL: ok set 0 to say so,
 * nothing written). 0 when out of memory or the type has no text here. */
static int value_text(nest *c, const struct ArrowSchema *s, const struct ArrowArray *a, size_t j,
                      buf *out, int *null, int depth)
{
    const char *f = s->format;
    *null = 0;
    if (!valid_at(a, j) || !strcmp(f, "n")) {
        *null = 1;
        return 1;
    }
    ordo__numkind k = ordo__arrow_numkind(f);
    char t[64];
    if (k.kind == 'b')
        return add(out, ordo__bit(a->buffers[1], j) ? "t" : "f", 1);
    if (k.kind) {
        ordo_table_number x = ordo__number_at(a->buffers[1], k, j);
        int n = 0;
        size_t len = 0;
        if (x.kind == 'f') /* t holds ORDO_FLOAT_TEXT_MAX */
            (k.width <= 4 ? ordo_float32_text((float)x.d, t, sizeof t, &len)
                          : ordo_float64_text(x.d, t, sizeof t, &len)),
                n = (int)len;
        else
            n = x.kind == 'u' ? snprintf(t, sizeof t, "%llu", (unsigned long long)x.u)
                              : snprintf(t, sizeof t, "%lld", (long long)x.i);
        return add(out, t, (size_t)n);
    }
    if (ordo__arrow_is_time(f)) { /* as its column would hold it, printed from there */
        ordo_type type;
        int64_t v;
        ordo_status st = ordo__arrow_time_value(f, a->buffers[1], j, c->io, c->name, c->i, c->err,
                                                &type, &v);
        if (st != ORDO_OK)
            return c->why = st, c->told = 1, 0;
        int32_t days = (int32_t)v; /* (range checked) */
        ordo_interval iv = {0, 0, v};
        ordo_column one = {.type = type,
                           .values = type == ORDO_TYPE_DATE ? (const void *)&days
                                     : type == ORDO_TYPE_INTERVAL ? (const void *)&iv
                                                                  : (const void *)&v};
        ordo_schema_column sc = {.type = type};
        bool unused;
        st = ordo_column_text(&one, &sc, 0, out, &unused);
        return st == ORDO_OK ? 1 : st == ORDO_ERR_OUT_OF_MEMORY ? 0 : (c->why = st, 0);
    }
    if (!strncmp(f, "d:", 2)) { /* a decimal: its digits (ordo_decimal_text) */
        int32_t scale;
        int bits;
        char d[ORDO_DECIMAL_TEXT_MAX];
        if (ordo_arrow_decimal(f, NULL, &scale, &bits) != ORDO_OK)
            return c->why = ORDO_ERR_BAD_TYPE, 0;
        size_t w = (size_t)bits / 8;
        size_t n = ordo_decimal_text((const uint8_t *)a->buffers[1] + w * j, w, scale, d, sizeof d);
        return n ? add(out, d, n) : (c->why = ORDO_ERR_BAD_TYPE, 0);
    }
    if (ordo__arrow_fixed_width(f)) { /* fixed_size_binary: a uuid (the mapping's), else bytea */
        size_t w = (size_t)ordo__arrow_fixed_width(f); /* (nestable: 1 or more) */
        const uint8_t *p = (const uint8_t *)a->buffers[1] + w * j;
        if (w == ORDO__ARROW_UUID_WIDTH) {
            ordo_column one = {.type = ORDO_TYPE_UUID, .values = p};
            ordo_schema_column sc = {.type = ORDO_TYPE_UUID};
            bool unused;
            ordo_status st = ordo_column_text(&one, &sc, 0, out, &unused);
            return st == ORDO_OK ? 1 : st == ORDO_ERR_OUT_OF_MEMORY ? 0 : (c->why = st, 0);
        }
        return bytea_text(out, p, w);
    }
    if (!strcmp(f, "u") || !strcmp(f, "z") || !strcmp(f, "U") || !strcmp(f, "Z")) {
        int64_t from, to;
        range_at(a, j, f[0] == 'U' || f[0] == 'Z', &from, &to);
        if (from < 0 || to < from)
            return c->why = ORDO_ERR_INVALID_VALUE, 0;
        const uint8_t *p = to > from ? (const uint8_t *)a->buffers[2] + from : NULL;
        if (f[0] == 'u' || f[0] == 'U')
            return add(out, p, (size_t)(to - from));
        return bytea_text(out, p, (size_t)(to - from));
    }
    if (depth > MAX_DEPTH)
        return c->why = ORDO_ERR_BAD_TYPE, 0;
    int list = !strcmp(f, "+l") || !strcmp(f, "+L");
    if ((list && a->n_children == 1) || (!strcmp(f, "+s") && s->n_children == a->n_children)) {
        int64_t from = (int64_t)j, to = (int64_t)j + 1, n = a->n_children;
        if (list) {
            range_at(a, j, f[1] == 'L', &from, &to);
            if (from < 0 || to < from || to > a->children[0]->length)
                return c->why = ORDO_ERR_INVALID_VALUE, 0;
            n = to - from;
        }
        if (!add(out, list ? "{" : "(", 1))
            return 0;
        for (int64_t i = 0; i < n; i++) {
            const struct ArrowSchema *cs = s->children[list ? 0 : i];
            const struct ArrowArray *ca = a->children[list ? 0 : i];
            size_t at = (size_t)(list ? from + i : (int64_t)j) + (size_t)ca->offset;
            buf e = {0};
            int en;
            if (i && !add(out, ",", 1))
                return 0;
            if (!value_text(c, cs, ca, at, &e, &en, depth + 1)) {
                ordo_buf_free(&e);
                return 0;
            }
            int ok = en ? (list ? add(out, "NULL", 4) : 1) : add_quoted(out, e.data ? e.data : "", e.len);
            ordo_buf_free(&e);
            if (!ok)
                return 0;
        }
        return add(out, list ? "}" : ")", 1);
    }
    return c->why = ORDO_ERR_BAD_TYPE, 0;
}

/* Whether value_text writes every value of this type (checked once, before
 * the rows). */
static int nestable(const struct ArrowSchema *s, int depth)
{
    const char *f = s->format;
    if (s->dictionary || depth > MAX_DEPTH)
        return 0;
    if (ordo__arrow_numkind(f).kind || !strcmp(f, "n") || !strcmp(f, "u") || !strcmp(f, "U") ||
        !strcmp(f, "z") || !strcmp(f, "Z") || ordo__arrow_is_time(f))
        return 1;
    if (!strncmp(f, "d:", 2))
        return ordo_arrow_decimal(f, NULL, NULL, NULL) == ORDO_OK;
    if (ordo__arrow_fixed_width(f))
        return 1;
    int list = !strcmp(f, "+l") || !strcmp(f, "+L");
    if (!list && strcmp(f, "+s"))
        return 0;
    for (int64_t i = 0; i < s->n_children; i++)
        if (!nestable(s->children[i], depth + 1))
            return 0;
    /* a list of lists would be a multidimensional array, which ordo has not */
    return !list || (s->n_children == 1 && strcmp(s->children[0]->format, "+l") &&
                     strcmp(s->children[0]->format, "+L"));
}

static ordo_status row_text(void *ctx, size_t i, const char **s, size_t *n, int *raw)
{
    nest *c = ctx;
    int null;
    (void)raw;
    c->row.len = 0;
    c->why = ORDO_OK;
    c->i = i, c->told = 0;
    if (!value_text(c, c->schema, c->array, c->offset + i, &c->row, &null, 0)) {
        if (c->told) /* an element's value, refused naming the row */
            return c->why;
        if (c->why == ORDO_ERR_BAD_TYPE)
            return ORDO_ERR_BAD_TYPE;
        if (c->why != ORDO_OK)
            return ordo__imp_fail(c->err, c->why, c->name, i,
                                  "a malformed Arrow array (offsets that decrease)");
        return ORDO_ERR_OUT_OF_MEMORY;
    }
    *s = null ? NULL : c->row.len ? c->row.data : "";
    *n = c->row.len;
    return ORDO_OK;
}

int ordo__arrow_nests(const struct ArrowSchema *schema) { return nestable(schema, 0); }

int ordo__arrow_nestable(const struct ArrowSchema *schema, const ordo_schema_column *sc)
{
    const char *f = schema->format;
    int list = !strcmp(f, "+l") || !strcmp(f, "+L");
    int rec = !strcmp(f, "+s");
    return ((list && sc->sql == ORDO_SQL_ARRAY) || (rec && sc->sql == ORDO_SQL_RECORD)) &&
           nestable(schema, 0);
}

ordo_status ordo__arrow_nested(const struct ArrowSchema *schema, const struct ArrowArray *array,
                               size_t offset, size_t length, const ordo_schema_column *sc,
                               const char *name, const ordo_table_import_options *io,
                               ordo_table_scratch *sx, ordo_column *col, ordo_error *err)
{
    nest c = {schema, array, offset, name, io, 0, {0}, ORDO_OK, 0, err};
    ordo_status s = ordo_table_text_column(sc, length, row_text, &c, name, sx, col, err);
    ordo_buf_free(&c.row);
    return s;
}
