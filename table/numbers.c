/* Numbers, instants and errors as every import reads them: one rule for a
 * number going into a column type, one for civil dates and times, one for
 * a column through PostgreSQL's text forms (time units: time_units.c). */
#include "import.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

ordo_status ordo_table_column_fail(ordo_error *err, ordo_status s, const char *name, size_t row,
                                   const char *fmt, ...)
{
    if (!err)
        return s;
    memset(err, 0, sizeof *err);
    err->status = s;
    int n = row == SIZE_MAX ? snprintf(err->message, sizeof err->message, "column '%s': ",
                                       name ? name : "")
                            : snprintf(err->message, sizeof err->message, "column '%s', row %zu: ",
                                       name ? name : "", row);
    if (row != SIZE_MAX)
        err->line = (uint64_t)row + 1;
    if (n > 0 && (size_t)n < sizeof err->message) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message + n, sizeof err->message - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return s;
}

ordo_status ordo__imp_unsupported(ordo_error *err, const char *name, const char *what,
                                  const ordo_schema_column *sc)
{
    return ordo__imp_fail(err, ORDO_ERR_BAD_TYPE, name, SIZE_MAX, "cannot read %s as %s", what,
                          sc->sql_name);
}

ordo__numkind ordo__numkind_of_type(ordo_type t)
{
    switch (t) {
    case ORDO_TYPE_INT8: return (ordo__numkind){'i', 1};
    case ORDO_TYPE_INT16: return (ordo__numkind){'i', 2};
    case ORDO_TYPE_INT32: return (ordo__numkind){'i', 4};
    case ORDO_TYPE_INT64: return (ordo__numkind){'i', 8};
    case ORDO_TYPE_UINT8: return (ordo__numkind){'u', 1};
    case ORDO_TYPE_UINT16: return (ordo__numkind){'u', 2};
    case ORDO_TYPE_UINT32: return (ordo__numkind){'u', 4};
    case ORDO_TYPE_UINT64: return (ordo__numkind){'u', 8};
    case ORDO_TYPE_FLOAT32: return (ordo__numkind){'f', 4};
    case ORDO_TYPE_FLOAT64: return (ordo__numkind){'f', 8};
    case ORDO_TYPE_BOOL: return (ordo__numkind){'b', 1};
    default: return (ordo__numkind){0, 0};
    }
}

int ordo_table_number_width(ordo_type t) { return ordo__numkind_of_type(t).width; }

const char *ordo__numkind_sql(ordo__numkind k)
{
    static const char *ints[] = {"tinyint", "smallint", NULL, "integer", NULL, NULL, NULL, "bigint"};
    static const char *uints[] = {"utinyint", "usmallint", NULL, "uinteger",
                                  NULL,       NULL,        NULL, "ubigint"};
    if (k.width < 1 || k.width > 8)
        return NULL;
    switch (k.kind) {
    case 'i': return ints[k.width - 1];
    case 'u': return uints[k.width - 1];
    case 'f': /* halfs are floats exactly: real */
        return k.width == 2 || k.width == 4 ? "real" : k.width == 8 ? "double precision" : NULL;
    case 'b':
    case 'B': return "boolean";
    default: return NULL;
    }
}

/* An unsigned integer of w bytes (1, 2, 4, 8) at p, in native order, and
 * back; signed ones are the same bytes (two's complement). */
static uint64_t load_uint(const uint8_t *p, int w)
{
    uint16_t b16;
    uint32_t b32;
    uint64_t b64;
    switch (w) {
    case 1: return *p;
    case 2: memcpy(&b16, p, 2); return b16;
    case 4: memcpy(&b32, p, 4); return b32;
    default: memcpy(&b64, p, 8); return b64;
    }
}

static void store_uint(void *slot, uint64_t u, int w)
{
    uint8_t b8 = (uint8_t)u;
    uint16_t b16 = (uint16_t)u;
    uint32_t b32 = (uint32_t)u;
    memcpy(slot, w == 1 ? (void *)&b8 : w == 2 ? (void *)&b16 : w == 4 ? (void *)&b32 : (void *)&u,
           (size_t)w);
}

static int64_t sign_extend(uint64_t u, int w)
{
    if (w == 8)
        return (int64_t)u;
    uint64_t m = (uint64_t)1 << (8 * w - 1);
    return (int64_t)(u ^ m) - (int64_t)m;
}

/* An IEEE half (float16) as the double it is exactly. */
static double half_value(uint16_t h)
{
    int e = h >> 10 & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return h >> 15 ? -v : v;
}

ordo_table_number ordo__number_at(const void *vals, ordo__numkind k, size_t i)
{
    ordo_table_number v = {'i', 0, 0, 0, 0};
    const uint8_t *p = (const uint8_t *)vals + i * (size_t)k.width;
    switch (k.kind) {
    case 'b': v.kind = 'b', v.i = ordo__bit(vals, i); return v;
    case 'B': v.kind = 'b', v.i = *p != 0; return v;
    case 'i': v.i = sign_extend(load_uint(p, k.width), k.width); return v;
    case 'u': v.kind = 'u', v.u = load_uint(p, k.width); return v;
    default:
        v.kind = 'f';
        if (k.width == 2) {
            uint16_t h;
            memcpy(&h, p, 2);
            v.d = half_value(h);
        } else if (k.width == 4) {
            float x;
            memcpy(&x, p, 4);
            v.d = x;
        } else {
            memcpy(&v.d, p, 8);
        }
        return v;
    }
}

ordo_status ordo_table_number_int_text(const char *text, ordo_table_number *v)
{
    if (!text || !v)
        return ORDO_ERR_NULL_ARG;
    const char *p = text + (*text == '-');
    int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    const char *digits = hex ? p + 2 : p;
    size_t n = strspn(digits, hex ? "0123456789abcdefABCDEF" : "0123456789");
    if (!n || digits[n])
        return ORDO_ERR_INVALID_ARG;
    memset(v, 0, sizeof *v);
    int base = hex ? 16 : 10;
    errno = 0;
    if (*text == '-') {
        long long x = strtoll(text, NULL, base);
        if (errno != ERANGE)
            return v->kind = 'i', v->i = x, ORDO_OK;
    } else {
        unsigned long long u = strtoull(text, NULL, base);
        if (errno != ERANGE && u <= INT64_MAX)
            return v->kind = 'i', v->i = (int64_t)u, ORDO_OK;
        if (errno != ERANGE)
            return v->kind = 'u', v->u = u, ORDO_OK;
    }
    /* past 64 bits: only a float column takes it; strtod and strtof round
     * the exact value once (infinite past their range) */
    v->kind = 'X';
    v->d = strtod(text, NULL);
    v->f = strtof(text, NULL);
    return ORDO_OK;
}

const char *ordo_table_number_put(const ordo_table_number *pv, ordo_type type, void *slot,
                                  uint8_t *bitmap, size_t r)
{
    ordo_table_number v = *pv;
    ordo__numkind t = ordo__numkind_of_type(type);
    if (!t.kind)
        return "not a number type";
    if (v.kind == 'X' && (t.kind != 'f' || isinf(v.d))) /* past every integer type */
        return "out of range";
    if (v.kind == 'b' && t.kind != 'b') /* as the CLI refuses 't' for a number */
        return "not a number (a boolean)";
    if (t.kind == 'f') {
        double d = v.kind == 'f' || v.kind == 'X' ? v.d : v.kind == 'u' ? (double)v.u : (double)v.i;
        if (t.width == 4) {
            /* ints round once, to float32 (as the text parser rounds) */
            float f = v.kind == 'X'   ? v.f
                      : v.kind == 'f' ? (float)v.d
                      : v.kind == 'u' ? (float)v.u
                                      : (float)v.i;
            /* as PostgreSQL's float8 -> float4: overflow and underflow to 0 refused */
            if ((isinf(f) && !isinf(d)) || (f == 0 && d != 0))
                return "out of range";
            memcpy(slot, &f, 4);
        } else {
            memcpy(slot, &d, 8);
        }
        return NULL;
    }
    int neg = 0;
    uint64_t mag = 0;
    if (v.kind == 'f') /* as the CLI refuses the text of a float ('1.0') */
        return t.kind == 'b' ? "not a boolean (a float)" : "not an integer (a float)";
    if (v.kind == 'u') {
        mag = v.u;
    } else {
        neg = v.i < 0;
        mag = neg ? (uint64_t)(-(v.i + 1)) + 1 : (uint64_t)v.i;
    }
    if (t.kind == 'b') {
        if (neg || mag > 1)
            return "not a boolean (0 or 1)";
        if (mag)
            bitmap[r >> 3] |= (uint8_t)(1u << (r & 7));
        return NULL;
    }
    int bits = 8 * t.width;
    if (t.kind == 'u') {
        if (neg || (bits < 64 && mag >> bits))
            return "out of range";
        store_uint(slot, mag, t.width);
        return NULL;
    }
    uint64_t lim = (uint64_t)1 << (bits - 1); /* |min|; max is lim - 1 */
    if (neg ? mag > lim : mag >= lim)
        return "out of range";
    store_uint(slot, neg ? 0 - mag : mag, t.width); /* two's complement */
    return NULL;
}

/* *v into row r of dst, a column of sc's number type: a value the type
 * cannot hold is ORDO_ERR_OUT_OF_RANGE naming its row. */
static ordo_status put_row(const ordo_table_number *v, const ordo_schema_column *sc,
                           uint8_t *dst, size_t r, const char *name, ordo_error *err)
{
    size_t width = (size_t)ordo_table_number_width(sc->type);
    const char *why = ordo_table_number_put(v, sc->type, dst + r * width, dst, r);
    return why ? ordo__imp_fail(err, ORDO_ERR_OUT_OF_RANGE, name, r, "%s for %s", why,
                                sc->sql_name)
               : ORDO_OK;
}

ordo_status ordo__numbers_column(const void *vals, ordo__numkind k, size_t off, size_t n,
                                 const uint8_t *validity, const ordo_schema_column *sc,
                                 const char *name, ordo_table_scratch *sx, ordo_column *col,
                                 ordo_error *err)
{
    uint8_t *dst = ordo_table_scratch_alloc(sx, (n ? n : 1) *
                                                    (size_t)ordo_table_number_width(sc->type));
    if (!dst)
        return ORDO_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++) {
        if (validity && !ordo__bit(validity, off + i))
            continue;
        ordo_table_number v = ordo__number_at(vals, k, off + i);
        ordo_status s = put_row(&v, sc, dst, i, name, err);
        if (s != ORDO_OK)
            return s;
    }
    col->values = dst;
    return ORDO_OK;
}

int ordo__numbers_text(const void *vals, ordo__numkind k, size_t off, size_t n,
                       const uint8_t *validity, ordo_table_scratch *sx, ordo_column *col)
{
    ordo__varcol v;
    if (!ordo__var_open(&v, n, n * 8))
        return 0;
    for (size_t i = 0; i < n; i++) {
        char text[ORDO_FLOAT_TEXT_MAX];
        size_t len = 0;
        if (!validity || ordo__bit(validity, off + i)) {
            ordo_table_number x = ordo__number_at(vals, k, off + i);
            if (x.kind == 'f') /* a float32's value too, as PostgreSQL's float8 prints it */
                ordo_float64_text(x.d, text, sizeof text, &len);
            else
                len = (size_t)(x.kind == 'u'
                                   ? snprintf(text, sizeof text, "%llu", (unsigned long long)x.u)
                                   : snprintf(text, sizeof text, "%lld", (long long)x.i));
        }
        if (!ordo__var_push(&v, i, text, len)) {
            ordo__var_drop(&v);
            return 0;
        }
    }
    return ordo__var_done(&v, sx, col);
}

int64_t ordo__floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

int64_t ordo_table_civil_days(int64_t y, int m, int d) { return ordo_days_from_civil(y, m, d); }

ordo_status ordo_table_civil_put(const ordo_table_civil *v, const ordo_schema_column *sc,
                                 ordo_column *col, void *values, size_t row)
{
    if (!v || !sc || !col || !values)
        return ORDO_ERR_NULL_ARG;
    int date = sc->sql == ORDO_SQL_DATE, pg = sc->type != ORDO_TYPE_TIME;
    if (!date && sc->sql != ORDO_SQL_TIMESTAMP && sc->sql != ORDO_SQL_TIMESTAMPTZ)
        return ORDO_ERR_BAD_TYPE;
    if (v->year < -5000000 || v->year > 5000000 || v->month < 1 || v->month > 12 ||
        v->day < 1 || v->day > 31 || v->hour < 0 || v->hour > 24 || v->minute < 0 ||
        v->minute > 59 || v->second < 0 || v->second > 60 || v->micro < 0 ||
        v->micro > 999999 || v->nano < 0 ||
        v->nano > 999) /* a civil date and time: the days below cannot overflow */
        return ORDO_ERR_OUT_OF_RANGE;
    int64_t days = ordo_days_from_civil(v->year, v->month, v->day);
    if (date) { /* days since 2000 (ordered), since 1970 (LexKey's day unit) */
        int64_t d = pg ? days - ORDO_PG_EPOCH_DAYS : days;
        if (pg ? d < ORDO_DATE_MIN || d >= ORDO_DATE_END : d < INT32_MIN || d > INT32_MAX)
            return ORDO_ERR_OUT_OF_RANGE;
        ((int32_t *)values)[row] = (int32_t)d;
        if (!pg)
            col->time_unit = ORDO_UNIT_DAY32;
        return ORDO_OK;
    }
    int64_t us, tod = v->hour * INT64_C(3600000000) + v->minute * INT64_C(60000000) +
                      v->second * INT64_C(1000000) + v->micro;
    if (__builtin_mul_overflow(days, INT64_C(86400000000), &us) ||
        __builtin_add_overflow(us, tod, &us) ||
        __builtin_sub_overflow(us, v->utc_offset_us, &us) ||
        (pg && __builtin_sub_overflow(us, ORDO_PG_EPOCH_US, &us)) ||
        (pg && (us < ORDO_TIMESTAMP_MIN || us >= ORDO_TIMESTAMP_END)))
        return ORDO_ERR_OUT_OF_RANGE;
    ((int64_t *)values)[row] = us; /* LexKey's nanoseconds are checked by the batch API */
    if (!pg)
        col->time_unit = ORDO_UNIT_US;
    return ORDO_OK;
}

/* Row i marked NULL in *v (all valid when first made); NULL when out of memory. */
static uint8_t *null_at(ordo_table_scratch *sx, uint8_t **v, size_t n, size_t i)
{
    if (!*v && (*v = ordo_table_scratch_alloc(sx, n / 8 + 1)))
        memset(*v, 0xff, n / 8 + 1);
    if (*v)
        (*v)[i >> 3] &= (uint8_t) ~(1u << (i & 7));
    return *v;
}

ordo_status ordo_table_number_column(const ordo_schema_column *sc, size_t length,
                                     ordo_table_number_fn number, void *ctx, const char *name,
                                     ordo_table_scratch *sx, ordo_column *col, ordo_error *err)
{
    int width = sc ? ordo_table_number_width(sc->type) : 0;
    if (!sc || !number || !sx || !col)
        return ORDO_ERR_NULL_ARG;
    if (!width)
        return ordo__imp_unsupported(err, name, "numbers", sc);
    uint8_t *validity = NULL;
    uint8_t *dst = ordo_table_scratch_alloc(sx, (length ? length : 1) * (size_t)width);
    if (!dst)
        return ORDO_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < length; i++) {
        ordo_table_number v = {'i', 0, 0, 0, 0};
        int is_null = 0;
        ordo_status s = number(ctx, i, &v, &is_null);
        if (s != ORDO_OK)
            return s;
        if (is_null && !null_at(sx, &validity, length, i))
            return ORDO_ERR_OUT_OF_MEMORY;
        if (!is_null && (s = put_row(&v, sc, dst, i, name, err)) != ORDO_OK)
            return s;
    }
    col->values = dst, col->validity = validity;
    return ORDO_OK;
}

ordo_status ordo_table_civil_column(const ordo_schema_column *sc, size_t length,
                                    ordo_table_civil_fn civil, void *ctx, const char *name,
                                    const ordo_table_import_options *io, ordo_table_scratch *sx,
                                    ordo_column *col, ordo_error *err)
{
    if (!sc || !civil || !sx || !col)
        return ORDO_ERR_NULL_ARG;
    void *dst = ordo_table_scratch_alloc(sx, (length ? length : 1) *
                                                 (sc->sql == ORDO_SQL_DATE ? 4 : 8));
    uint8_t *validity = NULL;
    if (!dst)
        return ORDO_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < length; i++) {
        ordo_table_civil v = {0, 1, 1, 0, 0, 0, 0, 0, 0};
        int is_null = 0;
        ordo_status s = civil(ctx, i, &v, &is_null);
        if (s != ORDO_OK)
            return s;
        if (is_null && !null_at(sx, &validity, length, i))
            return ORDO_ERR_OUT_OF_MEMORY;
        if (!is_null && (s = ordo_table_civil_put(&v, sc, col, dst, i)) != ORDO_OK)
            return s == ORDO_ERR_BAD_TYPE ? ordo__imp_unsupported(err, name, "dates", sc)
                                          : ordo__imp_fail(err, ORDO_ERR_OUT_OF_RANGE, name, i,
                                                           "out of range for %s", sc->sql_name);
        if (!is_null && v.nano && sc->sql != ORDO_SQL_DATE) { /* dropped by civil_put: floored */
            int64_t us = ((const int64_t *)dst)[i]; /* LexKey's since 1970 */
            us -= sc->type == ORDO_TYPE_TIME ? ORDO_PG_EPOCH_US : 0;
            if ((s = ordo__sub_micro(io, err, name, i, sc->sql == ORDO_SQL_TIMESTAMPTZ ? 'z' : 't',
                                     us, v.nano)) != ORDO_OK)
                return s;
        }
    }
    col->values = dst;
    col->validity = validity;
    return ORDO_OK;
}

ordo_status ordo_table_text_column(const ordo_schema_column *sc, size_t length,
                                   ordo_table_text_fn text, void *ctx, const char *name,
                                   ordo_table_scratch *sx, ordo_column *col, ordo_error *err)
{
    if (!sc || !text || !sx || !col)
        return ORDO_ERR_NULL_ARG;
    ordo_schema *one = ordo_table_scratch_alloc(sx, sizeof *one);
    if (!one)
        return ORDO_ERR_OUT_OF_MEMORY;
    one->cols = (ordo_schema_column *)sc; /* borrowed for the rows' life */
    one->ncols = 1;
    ordo_rows *rows = NULL;
    ordo_status st = ordo_rows_open(one, length ? length : 1, &rows);
    if (st != ORDO_OK)
        return ORDO_ERR_OUT_OF_MEMORY;
    if (!ordo__scratch_rows(sx, rows)) {
        ordo_rows_close(rows);
        return ORDO_ERR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < length; i++) {
        const char *s = NULL;
        size_t n = 0;
        int raw = 0;
        if ((st = text(ctx, i, &s, &n, &raw)) != ORDO_OK)
            return st;
        ordo_error e;
        e.message[0] = 0;
        st = !s ? ordo_rows_put_null(rows, 0)
             : raw ? ordo_rows_put_value(rows, 0, s, n)
                   : ordo_rows_put_text(rows, 0, s, n, 1, &e);
        if (st == ORDO_ERR_OUT_OF_MEMORY)
            return st;
        if (st != ORDO_OK)
            return ordo__imp_fail(err, st, name, i, "%s (as %s)",
                                  e.message[0] ? e.message : ordo_status_message(st),
                                  sc->sql_name);
        ordo_rows_end_row(rows);
    }
    size_t nrows = 0;
    const ordo_column *c = ordo_rows_columns(rows, &nrows);
    *col = c[0];
    return ORDO_OK;
}
