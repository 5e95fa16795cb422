/* Arrow arrays as the batch API's columns for a schema's columns: the type
 * each one gets, and its rows in the layout of the target type, read in
 * place when the layouts agree, else converted into scratch. */
#include "import.h"

#include <ctype.h>
#include <stdlib.h>

/* The numeric kind of a format, from the core's table of formats
 * (ordo_arrow_format): integers, floats, bools (a bitmap). */
ordo__numkind ordo__arrow_numkind(const char *f)
{
    if (!strcmp(f, "e")) /* float16: no column type of the core's */
        return (ordo__numkind){'f', 2};
    ordo_type t;
    if (ordo_arrow_format(f, &t, NULL) != ORDO_OK)
        return (ordo__numkind){0, 0};
    return ordo__numkind_of_type(t);
}

/* A timestamp's unit ("ts" + unit + ":" + zone; the zone does not change
 * the instant), from the core's table; -1 for any other format. date64
 * has a unit too (ms) but is no "ts". */
static int timestamp_unit(const char *f)
{
    ordo_type t;
    uint8_t unit;
    if (strncmp(f, "ts", 2) || ordo_arrow_format(f, &t, &unit) != ORDO_OK || t != ORDO_TYPE_TIME)
        return -1;
    return unit;
}

static int is_timestamp(const char *f) { return timestamp_unit(f) >= 0; }

/* The unit letter of time32/time64 ("tt" + unit: a time of day, no column
 * of the core's) and duration ("tD" + unit) formats, read from the core's
 * one table of Arrow formats (ordo_arrow_format's durations); -1: none. */
static int time_unit(char c)
{
    const char f[4] = {'t', 'D', c, 0};
    ordo_type t;
    uint8_t unit;
    return c && ordo_arrow_format(f, &t, &unit) == ORDO_OK ? unit : -1;
}

static int is_time(const char *f) { return !strncmp(f, "tt", 2) && time_unit(f[2]) >= 0 && !f[3]; }

/* duration: "tD" + unit. */
static int is_duration(const char *f)
{
    return !strncmp(f, "tD", 2) && time_unit(f[2]) >= 0 && !f[3];
}

/* A string or binary format: ORDO_TYPE_STRING or _BYTES in the core's one
 * table of Arrow formats (ordo_arrow_format: small and large offsets), or
 * a view of either (which the core does not read in place); 0 none. */
static ordo_type arrow_string_type(const char *f)
{
    ordo_type t;
    if (!strcmp(f, "vu") || !strcmp(f, "vz"))
        return f[1] == 'u' ? ORDO_TYPE_STRING : ORDO_TYPE_BYTES;
    int text = ordo_arrow_format(f, &t, NULL) == ORDO_OK &&
               (t == ORDO_TYPE_STRING || t == ORDO_TYPE_BYTES);
    return text ? t : (ordo_type)0;
}

static int is_arrow_string(const char *f) { return arrow_string_type(f) != 0; }

long ordo__arrow_width(const char *f)
{
    ordo__numkind k = ordo__arrow_numkind(f);
    int bits;
    if (k.kind && k.kind != 'b')
        return k.width;
    if (ordo__arrow_fixed_width(f))
        return ordo__arrow_fixed_width(f);
    if (!strncmp(f, "d:", 2) && ordo_arrow_decimal(f, NULL, NULL, &bits) == ORDO_OK)
        return bits / 8;
    if (f[0] != 't' || !f[1] || !f[2] || (f[1] != 's' && f[3]) || (f[1] == 's' && f[3] != ':'))
        return 0;
    switch (f[1]) { /* (the units' letters are the core's checks: ordo_arrow_check_schema) */
    case 'd': return f[2] == 'D' ? 4 : 8;                  /* date32, date64 */
    case 't': return f[2] == 's' || f[2] == 'm' ? 4 : 8;   /* time32, time64 */
    case 's': case 'D': return 8;                          /* timestamp, duration */
    case 'i': return f[2] == 'M' ? 4 : f[2] == 'D' ? 8 : 16; /* months, days-ms, m-d-ns */
    }
    return 0;
}

long ordo__arrow_fixed_width(const char *f)
{
    char *end;
    long w = strncmp(f, "w:", 2) ? 0 : strtol(f + 2, &end, 10);
    return w > 0 && !*end ? w : 0;
}

int ordo__arrow_is_time(const char *f)
{
    return !strcmp(f, "tdD") || !strcmp(f, "tdm") || is_timestamp(f) || is_time(f) ||
           is_duration(f);
}

/* Days since 1970 of element j of a date32 ("tdD") or date64 ("tdm": its
 * milliseconds floored) buffer. */
static int64_t unix_days(const char *f, const void *vals, size_t j)
{
    if (!strcmp(f, "tdD")) {
        int32_t x;
        memcpy(&x, (const uint8_t *)vals + 4 * j, 4);
        return x;
    }
    int64_t x;
    memcpy(&x, (const uint8_t *)vals + 8 * j, 8);
    return ordo__floor_div(x, INT64_C(86400000));
}

ordo_status ordo__arrow_time_value(const char *f, const void *vals, size_t j,
                                   const ordo_table_import_options *io, const char *name,
                                   size_t row, ordo_error *err, ordo_type *type, int64_t *out)
{
    int frac = 0;
    if (!strcmp(f, "tdD") || !strcmp(f, "tdm")) {
        int64_t d = unix_days(f, vals, j) - ORDO_PG_EPOCH_DAYS;
        if (d < ORDO_DATE_MIN || d >= ORDO_DATE_END)
            return ordo__imp_fail(err, ORDO_ERR_OUT_OF_RANGE, name, row, "date out of range");
        *type = ORDO_TYPE_DATE, *out = d;
        return ORDO_OK;
    }
    int64_t x;
    if (is_time(f) && (f[2] == 's' || f[2] == 'm')) { /* time32 */
        int32_t y;
        memcpy(&y, (const uint8_t *)vals + 4 * j, 4);
        x = y;
    } else {
        memcpy(&x, (const uint8_t *)vals + 8 * j, 8);
    }
    char what;
    if (is_timestamp(f)) { /* the zone does not change the instant: Arrow's is UTC */
        if (!ordo__pg_micros(x, timestamp_unit(f), out, &frac))
            return ordo__imp_fail(err, ORDO_ERR_OUT_OF_RANGE, name, row, "timestamp out of range");
        what = f[4] ? 'z' : 't', *type = f[4] ? ORDO_TYPE_TIMESTAMPTZ : ORDO_TYPE_TIMESTAMP;
    } else if (is_time(f)) {
        if (x < 0 || !ordo__unit_micros(x, time_unit(f[2]), out, &frac) || *out > ORDO_TIME_MAX)
            return ordo__imp_fail(err, ORDO_ERR_OUT_OF_RANGE, name, row, "time out of range");
        what = 'T', *type = ORDO_TYPE_TIME_OF_DAY;
    } else if (is_duration(f)) { /* an interval of microseconds (no days, no months) */
        if (!ordo__unit_micros(x, time_unit(f[2]), out, &frac))
            return ordo__imp_fail(err, ORDO_ERR_OUT_OF_RANGE, name, row, "interval out of range");
        what = 'd', *type = ORDO_TYPE_INTERVAL;
    } else {
        return ORDO_ERR_BAD_TYPE;
    }
    return ordo__sub_micro(io, err, name, row, what, *out, frac);
}

/* A scalar type's schema text; NULL for lists, structs and the types of none. */
static const char *scalar_type(const char *f)
{
    const char *t = ordo__numkind_sql(ordo__arrow_numkind(f));
    if (t)
        return t;
    ordo_type st = arrow_string_type(f);
    if (st == ORDO_TYPE_STRING || !strcmp(f, "n"))
        return "text";
    if (st == ORDO_TYPE_BYTES)
        return "bytea";
    if (!strcmp(f, "tdD") || !strcmp(f, "tdm"))
        return "date";
    if (is_timestamp(f))
        return f[4] ? "timestamptz" : "timestamp";
    if (is_time(f))
        return "time";
    if (!strncmp(f, "d:", 2))
        return "numeric";
    if (ordo__arrow_fixed_width(f))
        return ordo__arrow_fixed_width(f) == ORDO__ARROW_UUID_WIDTH ? "uuid" : "bytea";
    if (is_duration(f))
        return "interval";
    return NULL;
}

static ordo_status append(ordo_buf *b, const char *s) { return ordo_buf_append(b, s, strlen(s)); }

ordo_status ordo__schema_name(ordo_buf *b, const char *name)
{
    if (strchr(name, '"'))
        return ORDO_ERR_INVALID_ARG;
    int bare = isalpha((unsigned char)name[0]) || name[0] == '_';
    for (const char *p = name; bare && *p; p++)
        bare = isalnum((unsigned char)*p) || *p == '_';
    if (bare)
        return append(b, name);
    ordo_status s = append(b, "\"");
    if (s == ORDO_OK)
        s = append(b, name);
    return s == ORDO_OK ? append(b, "\"") : s;
}

/* The schema type of `schema` appended to out: a scalar's text, a list
 * its element's type and [], a struct record(name type, ...) of its
 * fields' types, recursively (what arrow_nested reads as them);
 * ORDO_ERR_BAD_TYPE when there is none (*why says why, when not the type
 * of an element itself). */
static ordo_status type_text(const struct ArrowSchema *schema, ordo_buf *out, const char **why)
{
    const char *f = schema->format, *t = scalar_type(f);
    if (t)
        return append(out, t);
    int list = !strcmp(f, "+l") || !strcmp(f, "+L");
    if ((!list && strcmp(f, "+s")) || !ordo__arrow_nests(schema))
        return ORDO_ERR_BAD_TYPE;
    ordo_status s;
    if (list)
        return (s = type_text(schema->children[0], out, why)) != ORDO_OK ? s : append(out, "[]");
    if (!schema->n_children)
        return *why = "a struct without fields", ORDO_ERR_BAD_TYPE;
    if ((s = append(out, "record(")) != ORDO_OK)
        return s;
    for (int64_t i = 0; i < schema->n_children; i++) {
        const char *name = schema->children[i]->name ? schema->children[i]->name : "";
        if (!name[0])
            return *why = "a field without a name", ORDO_ERR_BAD_TYPE;
        for (int64_t k = 0; k < i; k++)
            if (schema->children[k]->name && !strcmp(schema->children[k]->name, name))
                return *why = "two fields of one name", ORDO_ERR_BAD_TYPE;
        if (i && (s = append(out, ", ")) != ORDO_OK)
            return s;
        if ((s = ordo__schema_name(out, name)) == ORDO_ERR_INVALID_ARG)
            return *why = "a field's name holds a double quote", ORDO_ERR_BAD_TYPE;
        if (s != ORDO_OK || (s = append(out, " ")) != ORDO_OK ||
            (s = type_text(schema->children[i], out, why)) != ORDO_OK)
            return s;
    }
    return append(out, ")");
}

ordo_status ordo_table_arrow_type(const struct ArrowSchema *schema, const char *name,
                                  ordo_buf *type, ordo_error *err)
{
    if (!type)
        return ORDO_ERR_NULL_ARG;
    ordo_status s = ordo_arrow_check_schema(schema, err);
    if (s != ORDO_OK)
        return s;
    const struct ArrowSchema *given = schema;
    if (schema->dictionary) /* a dictionary's rows are its values' */
        schema = schema->dictionary;
    size_t was = type->len;
    const char *why = NULL;
    if ((s = type_text(schema, type, &why)) == ORDO_OK)
        return ORDO_OK;
    type->len = was; /* as it was */
    if (type->data)
        type->data[was] = 0;
    if (s != ORDO_ERR_BAD_TYPE)
        return s;
    char tn[ORDO__ARROW_NAME_MAX];
    ordo_table_arrow_type_name(given, tn, sizeof tn);
    return ordo__imp_fail(err, ORDO_ERR_BAD_TYPE, name, SIZE_MAX,
                          "the Arrow type %s has no ordo type%s%s%s", tn, why ? " (" : "",
                          why ? why : "", why ? ")" : "");
}

/* ------------------------------------------------------ the rows */

typedef struct src {
    const struct ArrowSchema *schema;
    const struct ArrowArray *array;
    size_t offset, length;
    const char *name;
    const ordo_table_import_options *io;
    ordo_error *err;
    ordo__numkind index; /* a dictionary column's indices' kind (once a column, not a row) */
} src;

/* Whether a string, binary or view array is the column's bytes as they
 * are (else each is its value's text form, parsed). */
static int text_is_plain(const char *f, const ordo_schema_column *sc)
{
    return (sc->type == ORDO_TYPE_STRING && sc->sql != ORDO_SQL_BPCHAR) ||
           (sc->type == ORDO_TYPE_BYTES && (f[0] == 'z' || f[0] == 'Z' || f[1] == 'z'));
}

/* Row i's bytes of a string, binary or view array (s NULL: NULL). */
static ordo_status text_at(void *ctx, size_t i, const char **s, size_t *n, int *raw)
{
    (void)raw;
    const src *c = ctx;
    const struct ArrowArray *a = c->array;
    size_t j = c->offset + i;
    const uint8_t *validity = a->null_count ? a->buffers[0] : NULL;
    *s = NULL, *n = 0;
    if (validity && !ordo__bit(validity, j))
        return ORDO_OK;
    const char *f = c->schema->format;
    if (f[0] == 'v') { /* a view: 16 bytes, inline up to 12 bytes */
        const uint8_t *view = (const uint8_t *)a->buffers[1] + 16 * j;
        int32_t len, buf, at;
        memcpy(&len, view, 4);
        if (len < 0)
            return ordo__imp_fail(c->err, ORDO_ERR_INVALID_VALUE, c->name, i,
                                  "a malformed Arrow view (a negative length)");
        *n = (size_t)len;
        if (len <= 12) {
            *s = (const char *)view + 4;
            return ORDO_OK;
        }
        memcpy(&buf, view + 8, 4);
        memcpy(&at, view + 12, 4);
        /* the last buffer holds the data buffers' sizes: the bytes must lie within */
        const void *sizes = a->n_buffers > 0 ? a->buffers[a->n_buffers - 1] : NULL;
        if (buf < 0 || 2 + (int64_t)buf >= a->n_buffers - 1 || at < 0 || !a->buffers[2 + buf] ||
            !sizes || (int64_t)at + len > ordo__offset_at(sizes, 1, (size_t)buf)) {
            ordo__imp_fail(c->err, ORDO_ERR_INVALID_ARG, c->name, i, "a malformed Arrow view");
            c->err->line = 0; /* the array's fault, not a value's */
            return ORDO_ERR_INVALID_ARG;
        }
        *s = (const char *)a->buffers[2 + buf] + at;
        return ORDO_OK;
    }
    int64_t from, to;
    int wide = f[0] != 'u' && f[0] != 'z';
    from = ordo__offset_at(a->buffers[1], wide, j), to = ordo__offset_at(a->buffers[1], wide, j + 1);
    if (from < 0 || to < from) /* as the batch API checks the offsets it reads in place */
        return ordo__imp_fail(c->err, ORDO_ERR_INVALID_VALUE, c->name, i,
                              "a malformed Arrow array (offsets that decrease)");
    *s = (const char *)a->buffers[2] + from;
    *n = (size_t)(to - from);
    return ORDO_OK;
}

/* The column's Arrow type cannot be read as sc's: named as pyarrow names it. */
static ordo_status unsupported(const src *c, const ordo_schema_column *sc)
{
    char t[ORDO__ARROW_NAME_MAX];
    ordo_table_arrow_type_name(c->schema, t, sizeof t);
    return ordo__imp_fail(c->err, ORDO_ERR_BAD_TYPE, c->name, SIZE_MAX,
                          "cannot read Arrow %s as %s", t, sc->sql_name);
}

static void *fixed(ordo_table_scratch *sx, size_t n, size_t width)
{
    return ordo_table_scratch_alloc(sx, (n ? n : 1) * width);
}

/* The array's own buffers, read where they are from row `off`. */
static ordo_status in_place(ordo_column *col, const void *values, const uint8_t *validity,
                            size_t off)
{
    col->values = values;
    col->validity = validity;
    col->offset = off;
    return ORDO_OK;
}

/* Converted values start at row 0: so must the validity. */
static ordo_status own_validity(const uint8_t *validity, size_t off, size_t n,
                                ordo_table_scratch *sx, ordo_column *col)
{
    col->offset = 0;
    col->validity = NULL;
    if (!validity)
        return ORDO_OK;
    uint8_t *v = ordo__new_validity(sx, n);
    if (!v)
        return ORDO_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++)
        if (!ordo__bit(validity, off + i))
            ordo__set_null(v, i);
    col->validity = v;
    return ORDO_OK;
}

static ordo_status dictionary_column(const src *c, const ordo_schema_column *sc,
                                     ordo_table_scratch *sx, ordo_column *col);
/* The rows of a timestamp, time or duration array as the ordered format
 * keeps them (ordo__arrow_time_value), into dst (elements of `width`
 * bytes: int64 microseconds, or ordo_interval), NULL rows left zero. */
static ordo_status time_values(const src *c, void *dst, size_t width)
{
    const struct ArrowArray *a = c->array;
    const uint8_t *validity = a->null_count && a->n_buffers > 0 ? a->buffers[0] : NULL;
    for (size_t i = 0; i < c->length; i++) {
        if (validity && !ordo__bit(validity, c->offset + i))
            continue;
        ordo_type t;
        int64_t us;
        ordo_status s = ordo__arrow_time_value(c->schema->format, a->buffers[1], c->offset + i,
                                               c->io, c->name, i, c->err, &t, &us);
        if (s != ORDO_OK)
            return s;
        if (width == sizeof(ordo_interval))
            ((ordo_interval *)dst)[i] = (ordo_interval){0, 0, us};
        else
            ((int64_t *)dst)[i] = us;
    }
    return ORDO_OK;
}


static ordo_status column(const src *c, const ordo_schema_column *sc, ordo_table_scratch *sx,
                          ordo_column *col)
{
    const struct ArrowArray *a = c->array;
    const char *f = c->schema->format, *name = c->name;
    size_t n = c->length, off = c->offset;
    ordo_error *err = c->err;
    const uint8_t *validity = a->null_count && a->n_buffers > 0 ? a->buffers[0] : NULL;
    if (c->schema->dictionary)
        return dictionary_column(c, sc, sx, col);
    if (f[0] == '+') /* lists as arrays, structs as records; no other nested type */
        return ordo__arrow_nestable(c->schema, sc)
                   ? ordo__arrow_nested(c->schema, a, off, n, sc, name, c->io, sx, col, err)
                   : unsupported(c, sc);
    ordo__numkind k = ordo__arrow_numkind(f), t = ordo__numkind_of_type(sc->type);
    if (!strcmp(f, "n")) { /* all NULL: zeroed buffers of any layout */
        uint8_t *z = ordo_table_scratch_alloc(sx, (n + 1) * 32);
        if (!z)
            return ORDO_ERR_OUT_OF_MEMORY;
        col->values = z, col->offsets = z, col->offset_bits = 64, col->offset = 0;
        col->validity = z;
        return ORDO_OK;
    }
    if (k.kind && t.kind) {
        if (k.kind == t.kind && k.width == t.width)
            return in_place(col, a->buffers[1], validity, off);
        ordo_status s = ordo__numbers_column(a->buffers[1], k, off, n, validity, sc, name, sx,
                                             col, err);
        return s != ORDO_OK ? s : own_validity(validity, off, n, sx, col);
    }
    if (k.kind == 'b' && sc->type == ORDO_TYPE_NUMERIC)
        return unsupported(c, sc); /* 't' is no numeric */
    if (k.kind && sc->type == ORDO_TYPE_NUMERIC) {
        if (!ordo__numbers_text(a->buffers[1], k, off, n, validity, sx, col))
            return ORDO_ERR_OUT_OF_MEMORY;
        return own_validity(validity, off, n, sx, col);
    }
    if (is_arrow_string(f)) {
        /* bytea takes binary as its bytes, text in its text form (\\x...) as
         * the CLI reads it */
        int plain = text_is_plain(f, sc);
        if (plain && f[0] != 'v') {
            col->offsets = a->buffers[1];
            col->offset_bits = f[0] == 'u' || f[0] == 'z' ? 32 : 64;
            return in_place(col, a->buffers[2], validity, off);
        }
        if (!plain) /* any other type from its text (char(n), uuid, inet, ...) */
            return ordo_table_text_column(sc, n, text_at, (void *)c, name, sx, col, err);
        ordo__varcol v; /* views: copied */
        if (!ordo__var_open(&v, n, n * 16))
            return ORDO_ERR_OUT_OF_MEMORY;
        for (size_t i = 0; i < n; i++) {
            const char *s;
            size_t len = 0;
            int raw = 0;
            ordo_status st = text_at((void *)c, i, &s, &len, &raw);
            if (st == ORDO_OK && !ordo__var_push(&v, i, s ? s : "", s ? len : 0))
                st = ORDO_ERR_OUT_OF_MEMORY;
            if (st != ORDO_OK) {
                ordo__var_drop(&v);
                return st;
            }
        }
        if (!ordo__var_done(&v, sx, col))
            return ORDO_ERR_OUT_OF_MEMORY;
        return own_validity(validity, off, n, sx, col);
    }
    int date32 = !strcmp(f, "tdD"), date64 = !strcmp(f, "tdm");
    if (date32 || date64) {
        if (date32 && sc->type == ORDO_TYPE_TIME) { /* LexKey: days are a unit of its own */
            col->time_unit = ORDO_UNIT_DAY32;
            return in_place(col, a->buffers[1], validity, off);
        }
        if (sc->type != ORDO_TYPE_TIME && sc->type != ORDO_TYPE_DATE)
            return unsupported(c, sc);
        int32_t *dst = fixed(sx, n, 4);
        if (!dst)
            return ORDO_ERR_OUT_OF_MEMORY;
        for (size_t i = 0; i < n; i++) {
            if (validity && !ordo__bit(validity, off + i))
                continue;
            int64_t d;
            ordo_type t;
            if (sc->type == ORDO_TYPE_DATE) {
                ordo_status st = ordo__arrow_time_value(f, a->buffers[1], off + i, c->io, name, i,
                                                        err, &t, &d);
                if (st != ORDO_OK)
                    return st;
            } else if ((d = unix_days(f, a->buffers[1], off + i)) < INT32_MIN || d > INT32_MAX) {
                return ordo__imp_fail(err, ORDO_ERR_OUT_OF_RANGE, name, i, "date out of range");
            } /* (LexKey's days) */
            dst[i] = (int32_t)d;
        }
        col->values = dst;
        col->time_unit = ORDO_UNIT_DAY32;
        return own_validity(validity, off, n, sx, col);
    }
    if (is_timestamp(f)) { /* the zone does not change the instant: Arrow's is UTC */
        int unit = timestamp_unit(f);
        if (sc->type == ORDO_TYPE_TIME) { /* LexKey: the batch API converts units */
            col->time_unit = (uint8_t)unit;
            return in_place(col, a->buffers[1], validity, off);
        }
        if (sc->type != ORDO_TYPE_TIMESTAMP && sc->type != ORDO_TYPE_TIMESTAMPTZ)
            return unsupported(c, sc);
        int64_t *dst = fixed(sx, n, 8);
        if (!dst)
            return ORDO_ERR_OUT_OF_MEMORY;
        ordo_status s = time_values(c, dst, sizeof *dst);
        if (s != ORDO_OK)
            return s;
        col->values = dst;
        return own_validity(validity, off, n, sx, col);
    }
    if (is_time(f)) {
        if (sc->type != ORDO_TYPE_TIME_OF_DAY)
            return unsupported(c, sc);
        int64_t *dst = fixed(sx, n, 8);
        if (!dst)
            return ORDO_ERR_OUT_OF_MEMORY;
        ordo_status s = time_values(c, dst, sizeof *dst);
        if (s != ORDO_OK)
            return s;
        col->values = dst;
        return own_validity(validity, off, n, sx, col);
    }
    if (ordo__arrow_fixed_width(f)) { /* fixed_size_binary: a uuid in place, else bytea */
        long w = ordo__arrow_fixed_width(f);
        if (sc->type == ORDO_TYPE_UUID && w == ORDO__ARROW_UUID_WIDTH)
            return in_place(col, a->buffers[1], validity, off);
        if (sc->type != ORDO_TYPE_BYTES)
            return unsupported(c, sc);
        ordo__varcol v;
        if (!ordo__var_open(&v, n, n * (size_t)w))
            return ORDO_ERR_OUT_OF_MEMORY;
        for (size_t i = 0; i < n; i++) {
            int null = validity && !ordo__bit(validity, off + i);
            const uint8_t *p = (const uint8_t *)a->buffers[1] + (size_t)w * (off + i);
            if (!ordo__var_push(&v, i, p, null ? 0 : (size_t)w)) {
                ordo__var_drop(&v);
                return ORDO_ERR_OUT_OF_MEMORY;
            }
        }
        if (!ordo__var_done(&v, sx, col))
            return ORDO_ERR_OUT_OF_MEMORY;
        return own_validity(validity, off, n, sx, col);
    }
    if (is_duration(f)) { /* an interval of microseconds (no days, no months) */
        if (sc->type != ORDO_TYPE_INTERVAL)
            return unsupported(c, sc);
        ordo_interval *dst = fixed(sx, n, sizeof *dst);
        if (!dst)
            return ORDO_ERR_OUT_OF_MEMORY;
        ordo_status s = time_values(c, dst, sizeof *dst);
        if (s != ORDO_OK)
            return s;
        col->values = dst;
        return own_validity(validity, off, n, sx, col);
    }
    if (!strncmp(f, "d:", 2)) {
        int32_t scale;
        int bits;
        if (ordo_arrow_decimal(f, NULL, &scale, &bits) != ORDO_OK)
            return unsupported(c, sc);
        if (sc->type != ORDO_TYPE_NUMERIC)
            return unsupported(c, sc);
        size_t w = (size_t)bits / 8;
        if (w == 16 || w == 8) { /* read in place, element x 10^-scale (ordo_column) */
            col->numeric_layout = w == 16 ? ORDO_NUMERIC_DECIMAL128 : ORDO_NUMERIC_INT64;
            col->numeric_scale = scale;
            return in_place(col, a->buffers[1], validity, off);
        }
        ordo__varcol v;
        if (!ordo__var_open(&v, n, n * 16))
            return ORDO_ERR_OUT_OF_MEMORY;
        const uint8_t *vals = a->buffers[1];
        for (size_t i = 0; i < n; i++) {
            char text[ORDO_DECIMAL_TEXT_MAX];
            int len = 0;
            if (!validity || ordo__bit(validity, off + i))
                len = (int)ordo_decimal_text(vals + w * (off + i), w, scale, text, sizeof text);
            if (!ordo__var_push(&v, i, text, (size_t)len)) {
                ordo__var_drop(&v);
                return ORDO_ERR_OUT_OF_MEMORY;
            }
        }
        if (!ordo__var_done(&v, sx, col))
            return ORDO_ERR_OUT_OF_MEMORY;
        return own_validity(validity, off, n, sx, col);
    }
    return unsupported(c, sc);
}

/* The bytes per element of a converted fixed-width column (0: not fixed). */
static size_t element_width(const ordo_column *c)
{
    int w = ordo_table_number_width(c->type);
    if (w && c->type != ORDO_TYPE_BOOL)
        return (size_t)w;
    switch (c->type) {
    case ORDO_TYPE_DATE: return 4;
    case ORDO_TYPE_TIME: return c->time_unit == ORDO_UNIT_DAY32 ? 4 : 8;
    case ORDO_TYPE_TIMESTAMP:
    case ORDO_TYPE_TIMESTAMPTZ:
    case ORDO_TYPE_TIME_OF_DAY: return 8;
    case ORDO_TYPE_UUID: return 16;
    case ORDO_TYPE_INTERVAL: return sizeof(ordo_interval);
    case ORDO_TYPE_NUMERIC: /* decimals read in place; text goes through offsets */
        return ordo_numeric_layout_width(c->numeric_layout);
    default: return 0;
    }
}

/* Row i's dictionary entry: *at its index, -1 for a NULL row; an index
 * outside the dictionary is the array's fault. */
static ordo_status dictionary_index(const src *c, size_t i, int64_t *at)
{
    const struct ArrowArray *a = c->array;
    const uint8_t *validity = a->null_count && a->n_buffers > 0 ? a->buffers[0] : NULL;
    size_t j = c->offset + i;
    *at = -1;
    if (validity && !ordo__bit(validity, j))
        return ORDO_OK;
    ordo_table_number x = ordo__number_at(a->buffers[1], c->index, j);
    int64_t entries = a->dictionary->length;
    if (x.kind == 'u' ? x.u >= (uint64_t)entries : x.i < 0 || x.i >= entries) {
        ordo__imp_fail(c->err, ORDO_ERR_INVALID_ARG, c->name, i,
                       "a dictionary index past the dictionary's %lld entries", (long long)entries);
        if (c->err)
            c->err->line = 0; /* the array's fault */
        return ORDO_ERR_INVALID_ARG;
    }
    *at = x.kind == 'u' ? (int64_t)x.u : x.i;
    return ORDO_OK;
}

/* Row i's text of a dictionary of strings (ctx: the indices, then the
 * dictionary as a src). */
static ordo_status dictionary_text_at(void *ctx, size_t i, const char **s, size_t *n, int *raw)
{
    const src *c = ctx, *d = c + 1;
    int64_t at;
    ordo_status st = dictionary_index(c, i, &at);
    *s = NULL, *n = 0;
    if (st != ORDO_OK || at < 0)
        return st;
    st = text_at((void *)d, (size_t)at, s, n, raw);
    if (st != ORDO_OK && c->err)
        c->err->line = 0; /* a malformed dictionary: no row of the column's */
    return st;
}

/* A dictionary-encoded array: its values read as the column (every entry,
 * once), then gathered by index into rows of their own. */
static ordo_status dictionary_column(const src *c, const ordo_schema_column *sc,
                                     ordo_table_scratch *sx, ordo_column *col)
{
    const struct ArrowArray *a = c->array, *da = a->dictionary;
    src d = {c->schema->dictionary, da, (size_t)da->offset, (size_t)da->length, c->name, c->io,
             c->err, {0, 0}};
    if (is_arrow_string(d.schema->format) && !text_is_plain(d.schema->format, sc)) {
        /* parsed per row from its entry's text: a value of any type */
        src pair[2] = {*c, d};
        return ordo_table_text_column(sc, c->length, dictionary_text_at, pair, c->name, sx, col,
                                      c->err);
    }
    ordo_column dc = *col;
    ordo_status s = column(&d, sc, sx, &dc);
    if (s != ORDO_OK) {
        if (c->err && c->err->line) /* a bad entry: no row of the column's */
            c->err->line = 0;
        return s;
    }
    size_t n = c->length, width = element_width(&dc);
    int var = dc.offsets && dc.type != ORDO_TYPE_NIL, boolean = dc.type == ORDO_TYPE_BOOL;
    if (!var && !width && !boolean && dc.type != ORDO_TYPE_NIL)
        return unsupported(c, sc);
    uint8_t *v = ordo__new_validity(sx, n);
    uint8_t *dst = var || dc.type == ORDO_TYPE_NIL ? NULL : fixed(sx, n, boolean ? 1 : width);
    ordo__varcol vc = {0};
    if (!v || (!var && !dst && dc.type != ORDO_TYPE_NIL) || (var && !ordo__var_open(&vc, n, n * 16)))
        return ORDO_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++) {
        int64_t at;
        if ((s = dictionary_index(c, i, &at)) != ORDO_OK) {
            ordo__var_drop(&vc);
            return s;
        }
        int null = at < 0;
        if (!null) {
            size_t k = dc.offset + (size_t)at;
            null = dc.validity && !ordo__bit(dc.validity, k);
            if (!null && var) {
                int64_t from, to;
                from = ordo__offset_at(dc.offsets, dc.offset_bits == 64, k);
                to = ordo__offset_at(dc.offsets, dc.offset_bits == 64, k + 1);
                if (from < 0 || to < from) {
                    ordo__var_drop(&vc);
                    return ordo__imp_fail(c->err, ORDO_ERR_INVALID_VALUE, c->name, i,
                                          "a malformed Arrow array (offsets that decrease)");
                }
                if (!ordo__var_push(&vc, i, (const uint8_t *)dc.values + from, (size_t)(to - from))) {
                    ordo__var_drop(&vc);
                    return ORDO_ERR_OUT_OF_MEMORY;
                }
                continue;
            }
            if (!null && boolean && ordo__bit(dc.values, k))
                dst[i >> 3] |= (uint8_t)(1u << (i & 7));
            else if (!null && width)
                memcpy(dst + i * width, (const uint8_t *)dc.values + k * width, width);
        }
        if (null)
            ordo__set_null(v, i);
        if (var && !ordo__var_push(&vc, i, "", 0)) {
            ordo__var_drop(&vc);
            return ORDO_ERR_OUT_OF_MEMORY;
        }
    }
    *col = dc;
    if (var && !ordo__var_done(&vc, sx, col))
        return ORDO_ERR_OUT_OF_MEMORY;
    if (!var)
        col->values = dst ? dst : v, col->offset = 0;
    col->validity = v;
    return ORDO_OK;
}

/* Categories ORDER: a dictionary column's indices (their schema: codes) as
 * the column, each one within its dictionary; a row whose entry is NULL is
 * NULL, as it is by label. */
static ordo_status codes_column(const src *c, const struct ArrowSchema *codes,
                                const ordo_schema_column *sc, ordo_table_scratch *sx,
                                ordo_column *col)
{
    const struct ArrowArray *da = c->array->dictionary;
    const uint8_t *dv = da->null_count && da->n_buffers > 0 ? da->buffers[0] : NULL;
    int64_t at;
    size_t entry_nulls = 0;
    ordo_status s;
    for (size_t i = 0; i < c->length; i++) {
        if ((s = dictionary_index(c, i, &at)) != ORDO_OK)
            return s;
        entry_nulls += at >= 0 && dv && !ordo__bit(dv, (size_t)da->offset + (size_t)at);
    }
    struct ArrowArray indices = *c->array;
    indices.dictionary = NULL;
    src ic = *c;
    ic.schema = codes, ic.array = &indices;
    if ((s = column(&ic, sc, sx, col)) == ORDO_ERR_BAD_TYPE) {
        char t[ORDO__ARROW_NAME_MAX];
        ordo_table_arrow_type_name(codes, t, sizeof t);
        return ordo__imp_fail(c->err, s, c->name, SIZE_MAX,
                              "categories 'order' reads the dictionary column as its codes "
                              "(Arrow %s), not as %s: give it an integer type, or keep "
                              "categories 'label'", t, sc->sql_name);
    }
    if (s != ORDO_OK || !entry_nulls)
        return s;
    /* rows whose entry is NULL: a validity of the column's own (its rows
     * where the column has them: col->offset on) */
    size_t off = col->offset;
    uint8_t *v = ordo__new_validity(sx, off + c->length);
    if (!v)
        return ORDO_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < c->length; i++) { /* (the rare case: the indices read again) */
        dictionary_index(c, i, &at);
        if (at < 0 || !ordo__bit(dv, (size_t)da->offset + (size_t)at))
            ordo__set_null(v, off + i); /* (a NULL index is a NULL row of col's too) */
    }
    col->validity = v;
    return ORDO_OK;
}

ordo_status ordo_table_arrow_column(const struct ArrowSchema *schema,
                                    const struct ArrowArray *array, size_t offset, size_t length,
                                    const ordo_schema_column *sc, const char *name,
                                    const ordo_table_import_options *io, ordo_table_scratch *sx,
                                    ordo_column *col, ordo_error *err)
{
    if (!sc || !sx || !col)
        return ORDO_ERR_NULL_ARG;
    /* the structs as the library checks them: an error, not a crash */
    ordo_status s = ordo_arrow_check(schema, array, err);
    if (s != ORDO_OK)
        return s;
    if (offset < (size_t)array->offset || length > (size_t)(array->offset + array->length) ||
        offset > (size_t)(array->offset + array->length) - length)
        return ordo__imp_fail(err, ORDO_ERR_INVALID_ARG, name, SIZE_MAX,
                              "rows %zu to %zu are not within the Arrow array (offset %lld, "
                              "length %lld)", offset, offset + length, (long long)array->offset,
                              (long long)array->length);
    memset(col, 0, sizeof *col);
    col->type = sc->type;
    col->order = sc->order;
    col->time_unit = sc->time_unit;
    col->collator = sc->collator; /* text COLLATE "x" (NULL otherwise) */
    src c = {schema, array, offset, length, name, io, err,
             schema->dictionary ? ordo__arrow_numkind(schema->format) : (ordo__numkind){0, 0}};
    struct ArrowSchema codes;
    return ordo__arrow_codes_schema(schema, io, &codes) != schema
               ? codes_column(&c, &codes, sc, sx, col)
               : column(&c, sc, sx, col);
}
