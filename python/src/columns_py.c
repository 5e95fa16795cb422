/* Input columns (Arrow arrays, NumPy buffers, Python sequences) as the
 * batch API's columns: the schema type each one gets, and its values in the
 * layout of the target type, read in place when the layouts agree. */
#include "encode.h"

#include <datetime.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Microseconds and days from 1970-01-01 to 2000-01-01 (PostgreSQL's epoch). */
#define PG_EPOCH_US INT64_C(946684800000000)
#define PG_EPOCH_DAYS 10957

void *ordo__py_scratch_alloc(ordo__py_scratch *sx, size_t n)
{
    if (sx->nmem == sx->capmem) {
        size_t cap = sx->capmem ? 2 * sx->capmem : 16;
        void **p = realloc(sx->mem, cap * sizeof *p);
        if (!p)
            return NULL;
        sx->mem = p, sx->capmem = cap;
    }
    void *m = calloc(1, n ? n : 1);
    if (m)
        sx->mem[sx->nmem++] = m;
    return m;
}

static int scratch_rows(ordo__py_scratch *sx, ordo_rows *r)
{
    if (sx->nrows == sx->caprows) {
        size_t cap = sx->caprows ? 2 * sx->caprows : 8;
        ordo_rows **p = realloc(sx->rows, cap * sizeof *p);
        if (!p)
            return 0;
        sx->rows = p, sx->caprows = cap;
    }
    sx->rows[sx->nrows++] = r;
    return 1;
}

void ordo__py_scratch_free(ordo__py_scratch *sx)
{
    for (size_t i = 0; i < sx->nrows; i++) /* first: they read their schemas in mem */
        ordo_rows_close(sx->rows[i]);
    for (size_t i = 0; i < sx->nmem; i++)
        free(sx->mem[i]);
    free(sx->mem);
    free(sx->rows);
    memset(sx, 0, sizeof *sx);
}

void ordo__py_src_clear(ordo__py_src *src)
{
    if (src->has_view)
        PyBuffer_Release(&src->view);
    src->has_view = 0;
    Py_CLEAR(src->seq);
    if (src->owns)
        ordo__py_arrow_release(&src->own);
    src->owns = 0;
}

int ordo__py_value_error(ordo_status s, size_t row, size_t column, const char *fmt, ...)
{
    ordo_error e;
    memset(&e, 0, sizeof e);
    e.status = s;
    e.line = row + 1;
    e.column = column + 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e.message, sizeof e.message, fmt, ap);
    va_end(ap);
    ordo__py_raise(s, &e);
    return -1;
}

static int oom(void)
{
    PyErr_NoMemory();
    return -1;
}

static int bit(const uint8_t *bm, size_t i) { return bm[i >> 3] >> (i & 7) & 1; }

/* ------------------------------------------------------------ types */

/* The numeric kinds of the sources: 'i' signed, 'u' unsigned, 'f' float,
 * 'b' a bitmap of bools, 'B' one byte per bool; width in bytes. */
typedef struct {
    char kind;
    int width;
} numkind;

static numkind arrow_numkind(const char *f)
{
    numkind k = {0, 0};
    if (!f[0] || f[1])
        return k;
    switch (f[0]) {
    case 'c': return (numkind){'i', 1};
    case 's': return (numkind){'i', 2};
    case 'i': return (numkind){'i', 4};
    case 'l': return (numkind){'i', 8};
    case 'C': return (numkind){'u', 1};
    case 'S': return (numkind){'u', 2};
    case 'I': return (numkind){'u', 4};
    case 'L': return (numkind){'u', 8};
    case 'f': return (numkind){'f', 4};
    case 'g': return (numkind){'f', 8};
    case 'b': return (numkind){'b', 1};
    default: return k;
    }
}

static const char *numkind_sql(numkind k)
{
    static const char *ints[] = {"tinyint", "smallint", NULL, "integer", NULL, NULL, NULL, "bigint"};
    static const char *uints[] = {"utinyint", "usmallint", NULL, "uinteger",
                                  NULL,       NULL,        NULL, "ubigint"};
    if (k.width < 1 || k.width > 8)
        return NULL;
    switch (k.kind) {
    case 'i': return ints[k.width - 1];
    case 'u': return uints[k.width - 1];
    case 'f': return k.width == 4 ? "real" : k.width == 8 ? "double precision" : NULL;
    case 'b':
    case 'B': return "boolean";
    default: return NULL;
    }
}

/* The numeric kind a target type holds in place (kind 0: none). */
static numkind target_numkind(ordo_type t)
{
    switch (t) {
    case ORDO_TYPE_INT8: return (numkind){'i', 1};
    case ORDO_TYPE_INT16: return (numkind){'i', 2};
    case ORDO_TYPE_INT32: return (numkind){'i', 4};
    case ORDO_TYPE_INT64: return (numkind){'i', 8};
    case ORDO_TYPE_UINT8: return (numkind){'u', 1};
    case ORDO_TYPE_UINT16: return (numkind){'u', 2};
    case ORDO_TYPE_UINT32: return (numkind){'u', 4};
    case ORDO_TYPE_UINT64: return (numkind){'u', 8};
    case ORDO_TYPE_FLOAT32: return (numkind){'f', 4};
    case ORDO_TYPE_FLOAT64: return (numkind){'f', 8};
    case ORDO_TYPE_BOOL: return (numkind){'b', 1};
    default: return (numkind){0, 0};
    }
}

/* Arrow time units: 's', 'm', 'u', 'n'. */
static int arrow_unit(char c)
{
    switch (c) {
    case 's': return ORDO_UNIT_S;
    case 'm': return ORDO_UNIT_MS;
    case 'u': return ORDO_UNIT_US;
    case 'n': return ORDO_UNIT_NS;
    default: return -1;
    }
}

static int is_arrow_string(const char *f)
{
    return !strcmp(f, "u") || !strcmp(f, "U") || !strcmp(f, "z") || !strcmp(f, "Z") ||
           !strcmp(f, "vu") || !strcmp(f, "vz");
}

/* The type of a sequence from its objects: the one kind of value it holds
 * besides None (ints and floats together are floats). */
static const char *seq_type(const ordo__py_src *src)
{
    enum { B = 1, I = 2, F = 4, S = 8, Y = 16, D = 32, TN = 64, TZ = 128, N = 256, X = 512 };
    unsigned seen = 0;
    PyObject *first_other = NULL;
    PyObject **items = PySequence_Fast_ITEMS(src->seq);
    static PyObject *decimal_type;
    for (size_t i = 0; i < src->length; i++) {
        PyObject *o = items[i];
        if (o == Py_None)
            continue;
        if (PyBool_Check(o))
            seen |= B;
        else if (PyLong_Check(o))
            seen |= I;
        else if (PyFloat_Check(o))
            seen |= F;
        else if (PyUnicode_Check(o))
            seen |= S;
        else if (PyBytes_Check(o) || PyByteArray_Check(o) || PyMemoryView_Check(o))
            seen |= Y;
        else if (PyDateTime_Check(o))
            seen |= PyDateTime_DATE_GET_TZINFO(o) == Py_None ? TN : TZ;
        else if (PyDate_Check(o))
            seen |= D;
        else {
            if (!decimal_type) {
                PyObject *m = PyImport_ImportModule("decimal");
                decimal_type = m ? PyObject_GetAttrString(m, "Decimal") : NULL;
                Py_XDECREF(m);
                if (!decimal_type)
                    return NULL;
            }
            int dec = PyObject_IsInstance(o, decimal_type);
            if (dec < 0)
                return NULL;
            seen |= dec ? N : X;
            if (!dec && !first_other)
                first_other = o;
        }
    }
    switch (seen) {
    case 0: return "text"; /* empty or all None */
    case B: return "boolean";
    case I: return "bigint";
    case F:
    case I | F: return "double precision";
    case S: return "text";
    case Y: return "bytea";
    case D: return "date";
    case TN: return "timestamp";
    case TZ: return "timestamptz";
    case N:
    case N | I: return "numeric";
    default: break;
    }
    if (first_other)
        PyErr_Format(PyExc_TypeError,
                     "column '%s': no ordo type for Python %.100s values; give schema=",
                     src->name, Py_TYPE(first_other)->tp_name);
    else
        PyErr_Format(PyExc_TypeError,
                     "column '%s': values of different kinds (say int and str); give schema= "
                     "or convert the column",
                     src->name);
    return NULL;
}

const char *ordo__py_src_type(const ordo__py_src *src)
{
    if (src->kind == ORDO__PY_SEQ)
        return seq_type(src);
    if (src->kind == ORDO__PY_BUFFER) {
        if (src->bkind == 'M')
            return "timestamp";
        if (src->bkind == 'T')
            return "timestamptz";
        const char *t = numkind_sql((numkind){src->bkind, src->itemsize});
        if (!t)
            PyErr_Format(PyExc_TypeError, "column '%s': no ordo type for NumPy kind '%c%d'",
                         src->name, src->bkind, src->itemsize);
        return t;
    }
    const char *f = src->schema->format;
    if (src->schema->dictionary) {
        PyErr_Format(PyExc_TypeError,
                     "column '%s': dictionary-encoded Arrow arrays are not supported (decode "
                     "them first, e.g. with .dictionary_decode())",
                     src->name);
        return NULL;
    }
    const char *t = numkind_sql(arrow_numkind(f));
    if (t)
        return t;
    if (!strcmp(f, "u") || !strcmp(f, "U") || !strcmp(f, "vu") || !strcmp(f, "n"))
        return "text";
    if (!strcmp(f, "z") || !strcmp(f, "Z") || !strcmp(f, "vz"))
        return "bytea";
    if (!strcmp(f, "tdD") || !strcmp(f, "tdm"))
        return "date";
    if (!strncmp(f, "ts", 2) && arrow_unit(f[2]) >= 0 && f[3] == ':')
        return f[4] ? "timestamptz" : "timestamp";
    if (!strncmp(f, "tt", 2) && arrow_unit(f[2]) >= 0 && !f[3])
        return "time";
    if (!strncmp(f, "d:", 2))
        return "numeric";
    PyErr_Format(PyExc_TypeError, "column '%s': the Arrow type '%s' has no ordo type", src->name,
                 f);
    return NULL;
}

/* ------------------------------------------------------ conversions */

typedef struct {
    char kind; /* 'i', 'u', 'f', 'b' a bool (i: 0 or 1), 'X' a Python int past 64 bits (d: it
                * as a double, or inf) */
    int64_t i;
    uint64_t u;
    double d;
    float f; /* 'X': the int as a float, rounded once */
} num;

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

static num num_at(const void *vals, numkind k, size_t i)
{
    num v = {'i', 0, 0, 0, 0};
    const uint8_t *p = (const uint8_t *)vals + i * (size_t)k.width;
    switch (k.kind) {
    case 'b': v.kind = 'b', v.i = bit(vals, i); return v;
    case 'B': v.kind = 'b', v.i = *p != 0; return v;
    case 'i': v.i = sign_extend(load_uint(p, k.width), k.width); return v;
    case 'u':
        v.kind = 'u';
        v.u = load_uint(p, k.width);
        return v;
    default:
        v.kind = 'f';
        if (k.width == 4) {
            float x;
            memcpy(&x, p, 4);
            v.d = x;
        } else {
            memcpy(&v.d, p, 8);
        }
        return v;
    }
}

/* Writes v as target kind t at slot (bools into the bitmap at row r); NULL
 * or why it does not fit. */
static const char *num_put(num v, numkind t, void *slot, uint8_t *bitmap, size_t r)
{
    if (v.kind == 'X' && (t.kind != 'f' || isinf(v.d))) /* past every integer type */
        return "out of range";
    if (v.kind == 'b' && t.kind != 'b') /* as the CLI refuses 't' for a number (Python bools too) */
        return "not a number (a boolean)";
    if (t.kind == 'f') {
        double d = v.kind == 'f' || v.kind == 'X' ? v.d : v.kind == 'u' ? (double)v.u : (double)v.i;
        if (t.width == 4) {
            /* ints round once, to float32 (as the text parser rounds) */
            float f = v.kind == 'X'   ? v.f
                      : v.kind == 'f' ? (float)v.d
                      : v.kind == 'u' ? (float)v.u
                                      : (float)v.i;
            if (isinf(f) && !isinf(d))
                return "out of range";
            memcpy(slot, &f, 4);
        } else {
            memcpy(slot, &d, 8);
        }
        return NULL;
    }
    /* integers and bools: the value as a sign and a magnitude */
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

/* Shortest decimal that reads back as the same double (the text a NUMERIC
 * column gets from a float). */
static int double_text(double d, char *out, size_t cap)
{
    if (isnan(d))
        return snprintf(out, cap, "NaN");
    if (isinf(d))
        return snprintf(out, cap, d > 0 ? "Infinity" : "-Infinity");
    int n = 0;
    for (int prec = 15; prec <= 17; prec++) {
        n = snprintf(out, cap, "%.*g", prec, d);
        if (strtod(out, NULL) == d)
            break;
    }
    return n;
}

/* A copied variable-width column: int64 offsets and the bytes. */
typedef struct {
    int64_t *off;
    uint8_t *data;
    size_t len, cap;
} varcol;

static int var_open(varcol *v, size_t rows, size_t guess)
{
    v->off = malloc((rows + 1) * sizeof *v->off);
    v->cap = guess ? guess : 64;
    v->data = malloc(v->cap);
    v->len = 0;
    if (!v->off || !v->data) {
        free(v->off), free(v->data);
        return 0;
    }
    v->off[0] = 0;
    return 1;
}

static int var_push(varcol *v, size_t r, const void *p, size_t n)
{
    if (n > v->cap - v->len) {
        size_t cap = v->cap;
        while (n > cap - v->len) {
            if (cap > SIZE_MAX / 2)
                return 0;
            cap *= 2;
        }
        uint8_t *d = realloc(v->data, cap);
        if (!d)
            return 0;
        v->data = d, v->cap = cap;
    }
    if (n)
        memcpy(v->data + v->len, p, n);
    v->len += n;
    v->off[r + 1] = (int64_t)v->len;
    return 1;
}

/* Hands the column's memory to the scratch list; 0 when out of memory. */
static int var_done(varcol *v, ordo__py_scratch *sx, ordo_column *col)
{
    /* two slots are taken before giving them the pointers, so that a
     * failure leaks nothing */
    if (!ordo__py_scratch_alloc(sx, 1) || !ordo__py_scratch_alloc(sx, 1)) {
        free(v->off), free(v->data);
        return 0;
    }
    free(sx->mem[sx->nmem - 1]);
    free(sx->mem[sx->nmem - 2]);
    sx->mem[sx->nmem - 2] = v->off;
    sx->mem[sx->nmem - 1] = v->data;
    col->values = v->data;
    col->offsets = v->off;
    col->offset_bits = 64;
    col->offset = 0;
    return 1;
}

/* A validity bitmap of n rows, all valid, in scratch. */
static uint8_t *new_validity(ordo__py_scratch *sx, size_t n)
{
    uint8_t *v = ordo__py_scratch_alloc(sx, n / 8 + 1);
    if (v)
        memset(v, 0xff, n / 8 + 1);
    return v;
}

static void set_null(uint8_t *validity, size_t r) { validity[r >> 3] &= (uint8_t) ~(1u << (r & 7)); }

/* A timestamp in unit as PostgreSQL's microseconds since 2000 (nanoseconds
 * round half up, as the text parser rounds); 0 when out of range. */
static int pg_micros(int64_t v, int unit, int64_t *out)
{
    int64_t us;
    switch (unit) {
    case ORDO_UNIT_S:
        if (__builtin_mul_overflow(v, INT64_C(1000000), &us))
            return 0;
        break;
    case ORDO_UNIT_MS:
        if (__builtin_mul_overflow(v, INT64_C(1000), &us))
            return 0;
        break;
    case ORDO_UNIT_US: us = v; break;
    default: {
        int64_t q = v / 1000, r = v % 1000;
        if (r < 0)
            q--, r += 1000;
        us = q + (r >= 500);
        break;
    }
    }
    if (__builtin_sub_overflow(us, PG_EPOCH_US, &us))
        return 0;
    if (us < ORDO_TIMESTAMP_MIN || us >= ORDO_TIMESTAMP_END)
        return 0;
    *out = us;
    return 1;
}

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* An Arrow decimal of w bytes (4, 8, 16 or 32: little-endian two's
 * complement) with `scale` digits after the point, as numeric text: the
 * digits with a point where it falls within them, else with an exponent
 * (any int32 scale; the numeric parser judges the range). out holds 160. */
static int decimal_text(const uint8_t *p, size_t w, int32_t scale, char *out, size_t cap)
{
    uint32_t limb[8]; /* little-endian 32-bit limbs */
    size_t nl = w / 4;
    for (size_t i = 0; i < nl; i++)
        memcpy(&limb[i], p + 4 * i, 4); /* native little-endian, as Arrow's buffers */
    int neg = limb[nl - 1] >> 31;
    if (neg) { /* the magnitude: two's complement negated */
        uint64_t carry = 1;
        for (size_t i = 0; i < nl; i++) {
            uint64_t x = (uint64_t)(uint32_t)~limb[i] + carry;
            limb[i] = (uint32_t)x, carry = x >> 32;
        }
    }
    char digits[96]; /* 2^256 has 78 digits */
    int k = 0;
    size_t top = nl;
    do { /* divide by 10^9, nine digits per pass, least significant first */
        uint64_t rem = 0;
        for (size_t i = top; i-- > 0;) {
            uint64_t x = rem << 32 | limb[i];
            limb[i] = (uint32_t)(x / 1000000000u), rem = x % 1000000000u;
        }
        while (top && !limb[top - 1])
            top--;
        for (int d = 0; d < 9 && (top || rem); d++, rem /= 10)
            digits[k++] = (char)('0' + rem % 10);
    } while (top);
    if (!k)
        digits[k++] = '0';
    size_t n = 0;
    if (neg)
        out[n++] = '-';
    if (scale < 0 || scale > 64) { /* digits, then e and the exponent */
        while (k)
            out[n++] = digits[--k];
        return (int)n + snprintf(out + n, cap - n, "e%lld", -(long long)scale);
    }
    while (k <= scale)
        digits[k++] = '0';
    while (k) {
        if (k == scale)
            out[n++] = '.';
        out[n++] = digits[--k];
    }
    out[n] = 0;
    return (int)n;
}

/* Arrow's decimal format "d:P,S[,W]": 1 with the scale and the byte width. */
static int decimal_format(const char *f, int32_t *scale, size_t *width)
{
    char *end;
    long long prec = strtoll(f + 2, &end, 10), sc, bw = 128;
    if (end == f + 2 || *end != ',' || prec < 1)
        return 0;
    const char *q = end + 1;
    sc = strtoll(q, &end, 10);
    if (end == q || sc < INT32_MIN || sc > INT32_MAX)
        return 0;
    if (*end == ',') {
        q = end + 1;
        bw = strtoll(q, &end, 10);
        if (end == q)
            return 0;
    }
    if (*end || (bw != 32 && bw != 64 && bw != 128 && bw != 256))
        return 0;
    *scale = (int32_t)sc, *width = (size_t)bw / 8;
    return 1;
}

/* The column through PostgreSQL's text forms: each row's text parsed as the
 * CLI parses a CSV field. text(i, &s, &n, &keep, &raw) gives row i's text,
 * or s NULL for a NULL, or with *raw set the value itself (a bytea's bytes);
 * *keep (if set) owns s; it may return -1 with an exception. */
typedef int (*text_at_fn)(const ordo__py_src *src, size_t i, const char **s, size_t *n,
                          PyObject **keep, int *raw);

static int via_text(const ordo__py_src *src, const ordo_schema_column *sc,
                    ordo__py_scratch *sx, ordo_column *col, text_at_fn text_at)
{
    ordo_schema *one = ordo__py_scratch_alloc(sx, sizeof *one);
    if (!one)
        return oom();
    one->cols = (ordo_schema_column *)sc; /* borrowed for the rows' life */
    one->ncols = 1;
    ordo_rows *rows = NULL;
    ordo_status st = ordo_rows_open(one, src->length ? src->length : 1, &rows);
    if (st != ORDO_OK)
        return oom();
    if (!scratch_rows(sx, rows)) {
        ordo_rows_close(rows);
        return oom();
    }
    for (size_t i = 0; i < src->length; i++) {
        const char *s = NULL;
        size_t n = 0;
        PyObject *keep = NULL;
        int raw = 0;
        if (text_at(src, i, &s, &n, &keep, &raw) < 0)
            return -1;
        ordo_error e;
        st = !s ? ordo_rows_put_null(rows, 0)
             : raw ? ordo_rows_put_value(rows, 0, s, n)
                   : ordo_rows_put_text(rows, 0, s, n, 1, &e);
        Py_XDECREF(keep);
        if (st == ORDO_ERR_OUT_OF_MEMORY)
            return oom();
        if (st != ORDO_OK)
            return ordo__py_value_error(st, i, src->index, "column '%s', row %zu: %s (as %s)",
                                        src->name, i, e.message, sc->sql_name);
        ordo_rows_end_row(rows);
    }
    size_t nrows = 0;
    const ordo_column *c = ordo_rows_columns(rows, &nrows);
    *col = c[0];
    return 0;
}

/* ---------------------------------------------------------- Arrow */

static int arrow_text_at(const ordo__py_src *src, size_t i, const char **s, size_t *n,
                         PyObject **keep, int *raw)
{
    (void)keep, (void)raw;
    const struct ArrowArray *a = src->array;
    size_t j = src->offset + i;
    const uint8_t *validity = a->null_count ? a->buffers[0] : NULL;
    if (validity && !bit(validity, j)) {
        *s = NULL;
        return 0;
    }
    const char *f = src->schema->format;
    if (f[0] == 'v') { /* a view: 16 bytes, inline up to 12 bytes */
        const uint8_t *view = (const uint8_t *)a->buffers[1] + 16 * j;
        int32_t len, buf, at;
        memcpy(&len, view, 4);
        if (len < 0)
            return ordo__py_value_error(ORDO_ERR_INVALID_VALUE, i, src->index,
                                        "column '%s', row %zu: a malformed Arrow view (a "
                                        "negative length)", src->name, i);
        *n = (size_t)len;
        if (len <= 12) {
            *s = (const char *)view + 4;
        } else {
            memcpy(&buf, view + 8, 4);
            memcpy(&at, view + 12, 4);
            /* the last buffer holds the data buffers' sizes: the bytes must lie within */
            const int64_t *sizes = a->n_buffers > 0 ? a->buffers[a->n_buffers - 1] : NULL;
            if (buf < 0 || 2 + (int64_t)buf >= a->n_buffers - 1 || at < 0 || !a->buffers[2 + buf] ||
                !sizes || (int64_t)at + len > sizes[buf]) {
                PyErr_Format(PyExc_ValueError, "column '%s', row %zu: a malformed Arrow view",
                             src->name, i);
                return -1;
            }
            *s = (const char *)a->buffers[2 + buf] + at;
        }
        return 0;
    }
    const uint8_t *data = a->buffers[2];
    int64_t from, to;
    if (f[0] == 'u' || f[0] == 'z') {
        const int32_t *off = a->buffers[1];
        from = off[j], to = off[j + 1];
    } else {
        const int64_t *off = a->buffers[1];
        from = off[j], to = off[j + 1];
    }
    if (from < 0 || to < from) /* as the batch API checks the offsets it reads in place */
        return ordo__py_value_error(ORDO_ERR_INVALID_VALUE, i, src->index,
                                    "column '%s', row %zu: a malformed Arrow array (offsets "
                                    "that decrease)", src->name, i);
    *s = (const char *)data + from;
    *n = (size_t)(to - from);
    return 0;
}

static int unsupported(const ordo__py_src *src, const char *what, const ordo_schema_column *sc)
{
    PyErr_Format(PyExc_TypeError, "column '%s': cannot read %s as %s", src->name, what,
                 sc->sql_name);
    return -1;
}

/* A fixed-width column of n rows into scratch, with its own validity when
 * the source has NULLs. */
static void *fixed_scratch(ordo__py_scratch *sx, size_t n, size_t width)
{
    return ordo__py_scratch_alloc(sx, (n ? n : 1) * width);
}

static int arrow_column(const ordo__py_src *src, const ordo_schema_column *sc,
                        ordo__py_scratch *sx, ordo_column *col)
{
    const struct ArrowArray *a = src->array;
    const char *f = src->schema->format;
    size_t n = src->length, off = src->offset;
    ordo_error e; /* the structs as the library checks them: an error, not a crash */
    ordo_status st = ordo_arrow_check(src->schema, a, &e);
    if (st != ORDO_OK)
        return ordo__py_raisef(st, "column '%s': %s", src->name, e.message), -1;
    const uint8_t *validity = a->null_count && a->n_buffers > 0 ? a->buffers[0] : NULL;
    if (src->schema->dictionary)
        return unsupported(src, "a dictionary-encoded array", sc);
    if (f[0] == '+') /* no nested Arrow type maps to a column */
        return unsupported(src, f[1] == 's' ? "an Arrow struct" : "a nested Arrow array", sc);
    numkind k = arrow_numkind(f), t = target_numkind(sc->type);
    if (!strcmp(f, "n")) { /* all NULL: zeroed buffers of any layout */
        uint8_t *z = ordo__py_scratch_alloc(sx, (n + 1) * 32);
        if (!z)
            return oom();
        col->values = z, col->offsets = z, col->offset_bits = 64, col->offset = 0;
        col->validity = z;
        return 0;
    }
    if (k.kind && t.kind) {
        if (k.kind == t.kind && k.width == t.width) { /* in place */
            col->values = a->buffers[1];
            col->validity = validity;
            col->offset = off;
            return 0;
        }
        uint8_t *dst = fixed_scratch(sx, n, (size_t)t.width);
        if (!dst)
            return oom();
        for (size_t i = 0; i < n; i++) {
            if (validity && !bit(validity, off + i))
                continue;
            const char *why = num_put(num_at(a->buffers[1], k, off + i), t,
                                      dst + i * (size_t)t.width, dst, i);
            if (why)
                return ordo__py_value_error(ORDO_ERR_OUT_OF_RANGE, i, src->index,
                                            "column '%s', row %zu: %s for %s", src->name, i, why,
                                            sc->sql_name);
        }
        col->values = dst, col->validity = validity, col->offset = 0;
        if (validity) { /* the values moved to row 0; the validity must follow */
            uint8_t *v = new_validity(sx, n);
            if (!v)
                return oom();
            for (size_t i = 0; i < n; i++)
                if (!bit(validity, off + i))
                    set_null(v, i);
            col->validity = v;
        }
        return 0;
    }
    if (k.kind == 'b' && sc->type == ORDO_TYPE_NUMERIC)
        return unsupported(src, "an Arrow boolean", sc); /* as 't' is no numeric */
    if (k.kind && sc->type == ORDO_TYPE_NUMERIC) {
        varcol v;
        if (!var_open(&v, n, n * 8))
            return oom();
        for (size_t i = 0; i < n; i++) {
            char text[64];
            int len = 0;
            if (!validity || bit(validity, off + i)) {
                num x = num_at(a->buffers[1], k, off + i);
                len = x.kind == 'f' ? double_text(x.d, text, sizeof text)
                      : x.kind == 'u' ? snprintf(text, sizeof text, "%llu", (unsigned long long)x.u)
                                      : snprintf(text, sizeof text, "%lld", (long long)x.i);
            }
            if (!var_push(&v, i, text, (size_t)len)) {
                free(v.off), free(v.data);
                return oom();
            }
        }
        if (!var_done(&v, sx, col))
            return oom();
        goto own_validity;
    }
    if (is_arrow_string(f)) {
        /* bytea takes binary as its bytes, text in its text form (\\x...) as
         * the CLI reads it */
        int plain = (sc->type == ORDO_TYPE_STRING && sc->sql != ORDO_SQL_BPCHAR) ||
                    (sc->type == ORDO_TYPE_BYTES && (f[0] == 'z' || f[0] == 'Z' || f[1] == 'z'));
        if (plain && f[0] != 'v') { /* in place */
            col->values = a->buffers[2];
            col->offsets = a->buffers[1];
            col->offset_bits = f[0] == 'u' || f[0] == 'z' ? 32 : 64;
            col->validity = validity;
            col->offset = off;
            return 0;
        }
        if (plain) { /* views: copied */
            varcol v;
            if (!var_open(&v, n, n * 16))
                return oom();
            for (size_t i = 0; i < n; i++) {
                const char *s;
                size_t len = 0;
                if (arrow_text_at(src, i, &s, &len, NULL, NULL) < 0) {
                    free(v.off), free(v.data);
                    return -1;
                }
                if (!var_push(&v, i, s ? s : "", s ? len : 0)) {
                    free(v.off), free(v.data);
                    return oom();
                }
            }
            if (!var_done(&v, sx, col))
                return oom();
            goto own_validity;
        }
        /* any other type from its text (char(n), uuid, inet, ...) */
        return via_text(src, sc, sx, col, arrow_text_at);
    }
    int date32 = !strcmp(f, "tdD"), date64 = !strcmp(f, "tdm");
    if (date32 || date64) {
        if (date32 && sc->type == ORDO_TYPE_TIME) { /* LexKey: days are a unit of its own */
            col->values = a->buffers[1];
            col->validity = validity;
            col->offset = off;
            col->time_unit = ORDO_UNIT_DAY32;
            return 0;
        }
        if (sc->type != ORDO_TYPE_TIME && sc->type != ORDO_TYPE_DATE)
            return unsupported(src, "an Arrow date", sc);
        int32_t *dst = fixed_scratch(sx, n, 4);
        if (!dst)
            return oom();
        for (size_t i = 0; i < n; i++) {
            if (validity && !bit(validity, off + i))
                continue;
            int64_t d;
            if (date32) {
                int32_t x;
                memcpy(&x, (const uint8_t *)a->buffers[1] + 4 * (off + i), 4);
                d = x;
            } else {
                int64_t x;
                memcpy(&x, (const uint8_t *)a->buffers[1] + 8 * (off + i), 8);
                d = floor_div(x, INT64_C(86400000));
            }
            if (sc->type == ORDO_TYPE_DATE)
                d -= PG_EPOCH_DAYS;
            if (sc->type == ORDO_TYPE_DATE ? d < ORDO_DATE_MIN || d >= ORDO_DATE_END
                                           : d < INT32_MIN || d > INT32_MAX) /* LexKey's days */
                return ordo__py_value_error(ORDO_ERR_OUT_OF_RANGE, i, src->index,
                                            "column '%s', row %zu: date out of range",
                                            src->name, i);
            dst[i] = (int32_t)d;
        }
        col->values = dst;
        col->time_unit = ORDO_UNIT_DAY32;
        goto own_validity;
    }
    if (!strncmp(f, "ts", 2) && arrow_unit(f[2]) >= 0 && f[3] == ':') {
        int unit = arrow_unit(f[2]);
        if (sc->type == ORDO_TYPE_TIME) { /* LexKey: the batch API converts units */
            col->values = a->buffers[1];
            col->validity = validity;
            col->offset = off;
            col->time_unit = (uint8_t)unit;
            return 0;
        }
        if (sc->type != ORDO_TYPE_TIMESTAMP && sc->type != ORDO_TYPE_TIMESTAMPTZ)
            return unsupported(src, "an Arrow timestamp", sc);
        int64_t *dst = fixed_scratch(sx, n, 8);
        if (!dst)
            return oom();
        for (size_t i = 0; i < n; i++) {
            if (validity && !bit(validity, off + i))
                continue;
            int64_t x;
            memcpy(&x, (const uint8_t *)a->buffers[1] + 8 * (off + i), 8);
            if (!pg_micros(x, unit, &dst[i]))
                return ordo__py_value_error(ORDO_ERR_OUT_OF_RANGE, i, src->index,
                                            "column '%s', row %zu: timestamp out of range",
                                            src->name, i);
        }
        col->values = dst;
        goto own_validity;
    }
    if (!strncmp(f, "tt", 2) && arrow_unit(f[2]) >= 0 && !f[3]) {
        if (sc->type != ORDO_TYPE_TIME_OF_DAY)
            return unsupported(src, "an Arrow time", sc);
        int unit = arrow_unit(f[2]);
        int64_t *dst = fixed_scratch(sx, n, 8);
        if (!dst)
            return oom();
        for (size_t i = 0; i < n; i++) {
            if (validity && !bit(validity, off + i))
                continue;
            int64_t x;
            if (unit == ORDO_UNIT_S || unit == ORDO_UNIT_MS) {
                int32_t y;
                memcpy(&y, (const uint8_t *)a->buffers[1] + 4 * (off + i), 4);
                x = unit == ORDO_UNIT_S ? (int64_t)y * 1000000 : (int64_t)y * 1000;
            } else {
                memcpy(&x, (const uint8_t *)a->buffers[1] + 8 * (off + i), 8);
                if (unit == ORDO_UNIT_NS)
                    x = x < 0 ? -1 : x / 1000 + (x % 1000 >= 500); /* -1 ns is refused */
            }
            if (x < 0 || x > ORDO_TIME_MAX)
                return ordo__py_value_error(ORDO_ERR_OUT_OF_RANGE, i, src->index,
                                            "column '%s', row %zu: time out of range", src->name,
                                            i);
            dst[i] = x;
        }
        col->values = dst;
        goto own_validity;
    }
    if (!strncmp(f, "d:", 2)) {
        int32_t scale;
        size_t w;
        if (!decimal_format(f, &scale, &w))
            return unsupported(src, "this Arrow decimal format", sc);
        if (sc->type != ORDO_TYPE_NUMERIC)
            return unsupported(src, "an Arrow decimal", sc);
        varcol v;
        if (!var_open(&v, n, n * 16))
            return oom();
        const uint8_t *vals = a->buffers[1];
        for (size_t i = 0; i < n; i++) {
            char text[160];
            int len = 0;
            if (!validity || bit(validity, off + i))
                len = decimal_text(vals + w * (off + i), w, scale, text, sizeof text);
            if (!var_push(&v, i, text, (size_t)len)) {
                free(v.off), free(v.data);
                return oom();
            }
        }
        if (!var_done(&v, sx, col))
            return oom();
        goto own_validity;
    }
    return unsupported(src, f, sc);
own_validity: /* converted values start at row 0: so must the validity */
    col->offset = 0;
    col->validity = NULL;
    if (validity) {
        uint8_t *v = new_validity(sx, n);
        if (!v)
            return oom();
        for (size_t i = 0; i < n; i++)
            if (!bit(validity, off + i))
                set_null(v, i);
        col->validity = v;
    }
    return 0;
}

/* ---------------------------------------------------------- NumPy */

/* Days from 1970-01-01 to a proleptic Gregorian date. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* A NumPy datetime64 value, v ticks of src's unit, as microseconds (or with
 * ns, nanoseconds) since 1970; 0 when that is past int64. */
static int dt64_since_1970(const ordo__py_src *src, int64_t v, int ns, int64_t *out)
{
    /* nanoseconds per unit, in ORDO__PY_DT_* order; years and months by the calendar */
    static const int64_t per[] = {0, 0, INT64_C(604800000000000), INT64_C(86400000000000),
                                  INT64_C(3600000000000), INT64_C(60000000000), 1000000000,
                                  1000000, 1000, 1};
    int unit = src->unit;
    if (__builtin_mul_overflow(v, src->ticks, &v))
        return 0;
    if (unit == ORDO__PY_DT_Y || unit == ORDO__PY_DT_M) {
        int64_t months = v;
        if (unit == ORDO__PY_DT_Y && __builtin_mul_overflow(v, 12, &months))
            return 0;
        if (months < -INT64_C(12000000) || months > INT64_C(12000000)) /* a million years */
            return 0;
        int64_t y = floor_div(months, 12);
        v = days_from_civil(1970 + y, (int)(months - 12 * y) + 1, 1);
        unit = ORDO__PY_DT_D;
    }
    int64_t f = per[unit];
    if (ns || f >= 1000)
        return !__builtin_mul_overflow(v, ns ? f : f / 1000, out);
    int64_t q = floor_div(v, 1000); /* nanoseconds round half up, as the text parser rounds */
    *out = q + (v - 1000 * q >= 500);
    return 1;
}

static int buffer_column(const ordo__py_src *src, const ordo_schema_column *sc,
                         ordo__py_scratch *sx, ordo_column *col)
{
    size_t n = src->length;
    const uint8_t *vals = src->view.buf;
    if (src->bkind == 'M' || src->bkind == 'T') { /* datetime64 as int64; NaT is NULL */
        const int64_t nat = INT64_MIN;
        uint8_t *validity = NULL;
        for (size_t i = 0; i < n; i++) {
            int64_t x;
            memcpy(&x, vals + 8 * i, 8);
            if (x == nat) {
                if (!validity && !(validity = new_validity(sx, n)))
                    return oom();
                set_null(validity, i);
            }
        }
        col->validity = validity;
        static const int ordo_unit[] = {
            [ORDO__PY_DT_S] = ORDO_UNIT_S, [ORDO__PY_DT_MS] = ORDO_UNIT_MS,
            [ORDO__PY_DT_US] = ORDO_UNIT_US, [ORDO__PY_DT_NS] = ORDO_UNIT_NS};
        int lex = sc->type == ORDO_TYPE_TIME;
        if (lex && src->ticks == 1 && src->unit >= ORDO__PY_DT_S) { /* LexKey: in place */
            col->values = vals;
            col->time_unit = (uint8_t)ordo_unit[src->unit];
            return 0;
        }
        if (!lex && sc->type != ORDO_TYPE_TIMESTAMP && sc->type != ORDO_TYPE_TIMESTAMPTZ)
            return unsupported(src, "NumPy datetime64", sc);
        int64_t *dst = fixed_scratch(sx, n, 8);
        if (!dst)
            return oom();
        if (lex)
            col->time_unit = ORDO_UNIT_NS; /* LexKey's nanoseconds, checked by the batch API */
        for (size_t i = 0; i < n; i++) {
            int64_t x;
            memcpy(&x, vals + 8 * i, 8);
            if (x != nat && !(dt64_since_1970(src, x, lex, &x) &&
                              (lex ? (dst[i] = x, 1) : pg_micros(x, ORDO_UNIT_US, &dst[i]))))
                return ordo__py_value_error(ORDO_ERR_OUT_OF_RANGE, i, src->index,
                                            "column '%s', row %zu: timestamp out of range",
                                            src->name, i);
        }
        col->values = dst;
        return 0;
    }
    numkind k = {src->bkind, src->itemsize}, t = target_numkind(sc->type);
    if (k.kind == 'b')
        k.kind = 'B'; /* NumPy bools are bytes */
    if (t.kind && k.kind == t.kind && k.width == t.width) {
        col->values = vals; /* in place */
        return 0;
    }
    if (t.kind) {
        uint8_t *dst = fixed_scratch(sx, n, (size_t)t.width);
        if (!dst)
            return oom();
        for (size_t i = 0; i < n; i++) {
            const char *why = num_put(num_at(vals, k, i), t, dst + i * (size_t)t.width, dst, i);
            if (why)
                return ordo__py_value_error(ORDO_ERR_OUT_OF_RANGE, i, src->index,
                                            "column '%s', row %zu: %s for %s", src->name, i, why,
                                            sc->sql_name);
        }
        col->values = dst;
        return 0;
    }
    return unsupported(src, "a NumPy number", sc);
}

/* ------------------------------------------------------- sequences */

/* After a value's conversion failed: 1, the exception cleared, when it says
 * the value is not of the kind wanted (TypeError, ValueError, BufferError;
 * a UnicodeEncodeError is a ValueError), for the caller to raise ordo.Error
 * naming the row; 0 for anything else the value's own code raised
 * (KeyboardInterrupt, MemoryError, RecursionError), which propagates. */
static int value_refused(void)
{
    if (!PyErr_ExceptionMatches(PyExc_TypeError) && !PyErr_ExceptionMatches(PyExc_ValueError) &&
        !PyErr_ExceptionMatches(PyExc_BufferError))
        return 0;
    PyErr_Clear();
    return 1;
}

static int not_utf8(const ordo__py_src *src, size_t i)
{
    return ordo__py_value_error(ORDO_ERR_INVALID_VALUE, i, src->index,
                                "column '%s', row %zu: not valid UTF-8 text", src->name, i);
}

static int seq_text_at(const ordo__py_src *src, size_t i, const char **s, size_t *n,
                       PyObject **keep, int *raw)
{
    (void)raw;
    PyObject *o = PySequence_Fast_ITEMS(src->seq)[i];
    *s = NULL;
    if (o == Py_None)
        return 0;
    PyObject *str = PyUnicode_Check(o) ? Py_NewRef(o) : PyObject_Str(o);
    if (!str)
        return -1;
    Py_ssize_t len;
    const char *p = PyUnicode_AsUTF8AndSize(str, &len);
    if (!p) {
        Py_DECREF(str);
        return value_refused() ? not_utf8(src, i) : -1; /* surrogates */
    }
    *s = p, *n = (size_t)len, *keep = str;
    return 0;
}

static int seq_bad(const ordo__py_src *src, size_t i, PyObject *o, const ordo_schema_column *sc)
{
    PyErr_Clear();
    return ordo__py_value_error(ORDO_ERR_INVALID_VALUE, i, src->index,
                                "column '%s', row %zu: a Python %.100s is not a %s value",
                                src->name, i, Py_TYPE(o)->tp_name, sc->sql_name);
}

/* A bytea row: str in bytea's text form (as the CLI reads it), bytes-like
 * objects as their bytes. */
static int seq_bytea_at(const ordo__py_src *src, size_t i, const char **s, size_t *n,
                        PyObject **keep, int *raw)
{
    PyObject *o = PySequence_Fast_ITEMS(src->seq)[i];
    if (o == Py_None || PyUnicode_Check(o))
        return seq_text_at(src, i, s, n, keep, raw);
    PyObject *b = PyObject_CheckBuffer(o) ? PyBytes_FromObject(o) : NULL;
    if (!b) {
        if (PyErr_Occurred() && !value_refused())
            return -1;
        return ordo__py_value_error(ORDO_ERR_INVALID_VALUE, i, src->index,
                                    "column '%s', row %zu: a Python %.100s is not a bytea value",
                                    src->name, i, Py_TYPE(o)->tp_name);
    }
    *s = PyBytes_AS_STRING(b), *n = (size_t)PyBytes_GET_SIZE(b), *keep = b, *raw = 1;
    return 0;
}

/* A Python int of double d (its correct rounding) as a float rounded once:
 * d rounded again is that unless d is halfway between two floats, when the
 * int's side of d decides. -1 with an exception. */
static int long_float(PyObject *ix, double d, float *out)
{
    float f = (float)d;
    if (isinf(d) || (double)f == d) {
        *out = f;
        return 0;
    }
    /* f's neighbour on d's side (past FLT_MAX, f is infinite: as if 2^128) */
    float g = isinf(f) ? copysignf(FLT_MAX, f) : nextafterf(f, d > f ? INFINITY : -INFINITY);
    double fd = isinf(f) ? copysign(0x1p128, f) : f;
    PyObject *mid = (fd + g) / 2 == d ? PyLong_FromDouble(d) : NULL;
    int above = 0, below = 0;
    if (mid) {
        above = PyObject_RichCompareBool(ix, mid, Py_GT);
        below = above ? 0 : PyObject_RichCompareBool(ix, mid, Py_LT);
        Py_DECREF(mid);
        if (above < 0 || below < 0)
            return -1;
    } else if (PyErr_Occurred()) {
        return -1;
    }
    *out = (above && g > f) || (below && g < f) ? g : f;
    return 0;
}

/* A Python number as num; 0 when it is not one, -1 with an exception. */
static int py_num(PyObject *o, num *v)
{
    if (PyFloat_Check(o)) {
        v->kind = 'f', v->d = PyFloat_AS_DOUBLE(o);
        return 1;
    }
    PyObject *ix = PyLong_Check(o) ? Py_NewRef(o) : PyNumber_Index(o);
    if (!ix) /* __index__ returned no int: not a number; what it raised of its own propagates */
        return value_refused() ? 0 : -1;
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(ix, &overflow);
    unsigned long long u = 0;
    if (!overflow) {
        v->kind = 'i', v->i = x;
    } else if (overflow > 0 && (u = PyLong_AsUnsignedLongLong(ix), !PyErr_Occurred())) {
        v->kind = 'u', v->u = u;
    } else { /* past 64 bits: only a float column takes it, as a double if it fits one */
        PyErr_Clear();
        v->kind = 'X', v->d = PyLong_AsDouble(ix);
        if (v->d == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            v->d = INFINITY;
        }
        if (long_float(ix, v->d, &v->f) < 0) {
            Py_DECREF(ix);
            return -1;
        }
    }
    Py_DECREF(ix);
    return 1;
}

/* Dates and datetimes read from the objects (not through their text): 0,
 * -1 with an exception, or 1 when the column holds something else (a
 * naive datetime for a timestamptz, say), left to the text path. */
static int seq_instants(const ordo__py_src *src, const ordo_schema_column *sc,
                        ordo__py_scratch *sx, ordo_column *col)
{
    size_t n = src->length;
    PyObject **items = PySequence_Fast_ITEMS(src->seq);
    int date = sc->sql == ORDO_SQL_DATE, tz = sc->sql == ORDO_SQL_TIMESTAMPTZ;
    for (size_t i = 0; i < n; i++) {
        PyObject *o = items[i];
        if (o == Py_None)
            continue;
        if (date ? !PyDate_Check(o) || PyDateTime_Check(o)
                 : !PyDateTime_Check(o) || (PyDateTime_DATE_GET_TZINFO(o) != Py_None) != tz)
            return 1;
    }
    void *dst = fixed_scratch(sx, n, date ? 4 : 8);
    uint8_t *validity = NULL;
    if (!dst)
        return oom();
    for (size_t i = 0; i < n; i++) {
        PyObject *o = items[i];
        if (o == Py_None) {
            if (!validity && !(validity = new_validity(sx, n)))
                return oom();
            set_null(validity, i);
            continue;
        }
        int64_t days = days_from_civil(PyDateTime_GET_YEAR(o), PyDateTime_GET_MONTH(o),
                                       PyDateTime_GET_DAY(o));
        if (date) { /* days since 1970 for LexKey (its day unit), since 2000 for ordered */
            ((int32_t *)dst)[i] = (int32_t)(sc->type == ORDO_TYPE_DATE ? days - PG_EPOCH_DAYS : days);
            continue;
        }
        int64_t us = days * INT64_C(86400000000) +
                     PyDateTime_DATE_GET_HOUR(o) * INT64_C(3600000000) +
                     PyDateTime_DATE_GET_MINUTE(o) * INT64_C(60000000) +
                     PyDateTime_DATE_GET_SECOND(o) * INT64_C(1000000) +
                     PyDateTime_DATE_GET_MICROSECOND(o);
        if (tz) { /* the instant: local time minus its offset */
            PyObject *off = PyObject_CallMethod(o, "utcoffset", NULL);
            if (!off)
                return -1;
            if (!PyDelta_Check(off)) {
                Py_DECREF(off);
                return ordo__py_value_error(ORDO_ERR_INVALID_VALUE, i, src->index,
                                            "column '%s', row %zu: a datetime without a UTC "
                                            "offset",
                                            src->name, i);
            }
            us -= PyDateTime_DELTA_GET_DAYS(off) * INT64_C(86400000000) +
                  PyDateTime_DELTA_GET_SECONDS(off) * INT64_C(1000000) +
                  PyDateTime_DELTA_GET_MICROSECONDS(off);
            Py_DECREF(off);
        }
        /* years 1 to 9999, give or take a day: within PostgreSQL's range;
         * LexKey's nanoseconds are checked by the batch API */
        ((int64_t *)dst)[i] = sc->type == ORDO_TYPE_TIME ? us : us - PG_EPOCH_US;
    }
    col->values = dst;
    col->validity = validity;
    if (sc->type == ORDO_TYPE_TIME)
        col->time_unit = date ? ORDO_UNIT_DAY32 : ORDO_UNIT_US;
    return 0;
}

static int seq_column(const ordo__py_src *src, const ordo_schema_column *sc,
                      ordo__py_scratch *sx, ordo_column *col)
{
    size_t n = src->length;
    PyObject **items = PySequence_Fast_ITEMS(src->seq);
    uint8_t *validity = NULL;
    numkind t = target_numkind(sc->type);
    /* ints, floats and __index__ objects are numbers; anything else (str,
     * Decimal, NumPy bools and float32s) is read from its text, as the CLI
     * reads it */
    int strings = 0;
    for (size_t i = 0; t.kind && i < n && !strings; i++) {
        PyObject *o = items[i];
        strings = !(o == Py_None || PyLong_Check(o) || PyFloat_Check(o) || PyIndex_Check(o));
    }
    if (t.kind && !strings) {
        uint8_t *dst = fixed_scratch(sx, n, (size_t)t.width);
        if (!dst)
            return oom();
        for (size_t i = 0; i < n; i++) {
            PyObject *o = items[i];
            if (o == Py_None) {
                if (!validity && !(validity = new_validity(sx, n)))
                    return oom();
                set_null(validity, i);
                continue;
            }
            if (PyBool_Check(o) && t.kind != 'b') /* the CLI refuses "True" for a number */
                return seq_bad(src, i, o, sc);
            num v = {'i', 0, 0, 0, 0};
            int got = py_num(o, &v);
            if (got < 0)
                return -1;
            if (!got)
                return seq_bad(src, i, o, sc);
            const char *why = num_put(v, t, dst + i * (size_t)t.width, dst, i);
            if (why)
                return ordo__py_value_error(ORDO_ERR_OUT_OF_RANGE, i, src->index,
                                            "column '%s', row %zu: %s for %s", src->name, i, why,
                                            sc->sql_name);
        }
        col->values = dst, col->validity = validity;
        return 0;
    }
    int text = sc->type == ORDO_TYPE_STRING && sc->sql != ORDO_SQL_BPCHAR;
    int bytea = sc->type == ORDO_TYPE_BYTES, bytea_text = 0;
    for (size_t i = 0; bytea && i < n && !bytea_text; i++)
        bytea_text = PyUnicode_Check(items[i]) || !(PyBytes_Check(items[i]) ||
                                                    PyByteArray_Check(items[i]) ||
                                                    items[i] == Py_None);
    if (bytea_text) /* str or other buffers: row by row, text as the CLI reads it */
        return via_text(src, sc, sx, col, seq_bytea_at);
    if (text || bytea) {
        varcol v;
        if (!var_open(&v, n, n * 16))
            return oom();
        for (size_t i = 0; i < n; i++) {
            PyObject *o = items[i];
            const char *p = "";
            Py_ssize_t len = 0;
            if (o == Py_None) {
                if (!validity && !(validity = new_validity(sx, n)))
                    goto fail;
                set_null(validity, i);
            } else if (text && PyUnicode_Check(o)) {
                if (!(p = PyUnicode_AsUTF8AndSize(o, &len))) {
                    free(v.off), free(v.data);
                    return value_refused() ? not_utf8(src, i) : -1;
                }
            } else if (!text && PyBytes_Check(o)) {
                p = PyBytes_AS_STRING(o), len = PyBytes_GET_SIZE(o);
            } else if (!text && PyByteArray_Check(o)) {
                p = PyByteArray_AS_STRING(o), len = PyByteArray_GET_SIZE(o);
            } else {
                free(v.off), free(v.data);
                return seq_bad(src, i, o, sc);
            }
            if (!var_push(&v, i, p, (size_t)len))
                goto fail;
        }
        if (!var_done(&v, sx, col))
            return oom();
        col->validity = validity;
        return 0;
    fail:
        free(v.off), free(v.data);
        return oom();
    }
    if (sc->sql == ORDO_SQL_DATE || sc->sql == ORDO_SQL_TIMESTAMP ||
        sc->sql == ORDO_SQL_TIMESTAMPTZ) {
        int rc = seq_instants(src, sc, sx, col);
        if (rc <= 0)
            return rc;
    }
    /* every other type from str(value), as the CLI reads a CSV field */
    return via_text(src, sc, sx, col, seq_text_at);
}

int ordo__py_column(const ordo__py_src *src, const ordo_schema_column *sc, ordo__py_scratch *sx,
                    ordo_column *col)
{
    memset(col, 0, sizeof *col);
    col->type = sc->type;
    col->order = sc->order;
    col->time_unit = sc->time_unit;
    col->collator = sc->collator; /* text COLLATE "x" (NULL otherwise) */
    switch (src->kind) {
    case ORDO__PY_ARROW: return arrow_column(src, sc, sx, col);
    case ORDO__PY_BUFFER: return buffer_column(src, sc, sx, col);
    default: return seq_column(src, sc, sx, col);
    }
}

int ordo__py_columns_init(void)
{
    PyDateTime_IMPORT;
    return PyDateTimeAPI ? 0 : -1;
}
