/* Python sequences as the batch API's columns (Arrow arrays and NumPy
 * buffers are the library's: ordo_table_arrow_column, ordo_table_plain_column):
 * the type a sequence gets, and its values for a schema column, numbers and
 * dates read from the objects, anything else from its text. */
#include "encode.h"

#include <datetime.h>
#include <string.h>

/* A value's error, as the library words them, naming the schema column sc
 * it is for (a scan bound's values are named by position only). */
#define fail(err, s, sc, row, ...) ordo_table_column_fail(err, s, (sc)->name, row, __VA_ARGS__)

/* A Python exception is set: the status says only that. */
static ordo_status raised(void) { return ORDO_ERR_INVALID_VALUE; }

static PyObject *decimal_type; /* decimal.Decimal (ordo__py_columns_init) */

const char *ordo__py_seq_type(const ordo__py_seq *q)
{
    unsigned seen = 0;
    PyObject *first_other = NULL;
    for (size_t i = 0; i < q->length; i++) {
        PyObject *o = PySequence_Fast_ITEMS(q->items)[i];
        int dec = 0;
        unsigned k = o == Py_None                                      ? 0
                     : PyBool_Check(o)                                 ? ORDO_TABLE_KIND_BOOL
                     : PyLong_Check(o)                                 ? ORDO_TABLE_KIND_INT
                     : PyFloat_Check(o)                                ? ORDO_TABLE_KIND_FLOAT
                     : PyUnicode_Check(o)                              ? ORDO_TABLE_KIND_TEXT
                     : PyBytes_Check(o) || PyByteArray_Check(o) ||
                             PyMemoryView_Check(o)                     ? ORDO_TABLE_KIND_BYTES
                     : PyDateTime_Check(o) && PyDateTime_DATE_GET_TZINFO(o) == Py_None
                                                                       ? ORDO_TABLE_KIND_TIMESTAMP
                     : PyDateTime_Check(o)                             ? ORDO_TABLE_KIND_TIMESTAMPTZ
                     : PyDate_Check(o)                                 ? ORDO_TABLE_KIND_DATE
                     : (dec = PyObject_IsInstance(o, decimal_type)) > 0 ? ORDO_TABLE_KIND_DECIMAL
                                                                       : ORDO_TABLE_KIND_OTHER;
        if (dec < 0)
            return NULL;
        if (k == ORDO_TABLE_KIND_OTHER && !first_other)
            first_other = o;
        seen |= k;
    }
    const char *t = ordo_table_kinds_type(seen);
    if (t)
        return t;
    if (first_other)
        PyErr_Format(PyExc_TypeError,
                     "column '%s': no ordo type for Python %.100s values; give schema=", q->name,
                     Py_TYPE(first_other)->tp_name);
    else
        PyErr_Format(PyExc_TypeError,
                     "column '%s': values of different kinds (say int and str); give schema= "
                     "or convert the column",
                     q->name);
    return NULL;
}

/* After a value's conversion failed: 1, the exception cleared, when it says
 * the value is not of the kind wanted (TypeError, ValueError, BufferError;
 * a UnicodeEncodeError is a ValueError), for the caller to report naming the
 * row; 0 for anything else the value's own code raised (KeyboardInterrupt,
 * MemoryError, RecursionError), which propagates. */
static int value_refused(void)
{
    if (!PyErr_ExceptionMatches(PyExc_TypeError) && !PyErr_ExceptionMatches(PyExc_ValueError) &&
        !PyErr_ExceptionMatches(PyExc_BufferError))
        return 0;
    PyErr_Clear();
    return 1;
}

static ordo_status bad(const ordo_schema_column *sc, size_t i, PyObject *o, ordo_error *err)
{
    PyErr_Clear();
    return fail(err, ORDO_ERR_INVALID_VALUE, sc, i, "a Python %.100s is not a %s value",
                Py_TYPE(o)->tp_name, sc->sql_name);
}

/* Row texts for ordo_table_text_column, kept until the next row: the
 * object's str (TEXTS_STR), a bytes-like object's bytes raw or a str's text
 * (TEXTS_BYTEA), a str's UTF-8 raw and nothing else (TEXTS_TEXT). */
enum { TEXTS_STR, TEXTS_BYTEA, TEXTS_TEXT };
typedef struct texts {
    const ordo__py_seq *q;
    PyObject *keep;
    int mode;
    ordo_error *err;
    const ordo_schema_column *sc;
} texts;

static ordo_status text_at(void *ctx, size_t i, const char **s, size_t *n, int *raw)
{
    texts *t = ctx;
    PyObject *o = PySequence_Fast_ITEMS(t->q->items)[i];
    Py_CLEAR(t->keep);
    *s = NULL;
    if (o == Py_None)
        return ORDO_OK;
    if (t->mode == TEXTS_TEXT && !PyUnicode_Check(o))
        return bad(t->sc, i, o, t->err);
    *raw = t->mode == TEXTS_TEXT;
    if (t->mode == TEXTS_BYTEA && !PyUnicode_Check(o)) {
        PyObject *b = PyObject_CheckBuffer(o) ? PyBytes_FromObject(o) : NULL;
        if (!b) {
            if (PyErr_Occurred() && !value_refused())
                return raised();
            return fail(t->err, ORDO_ERR_INVALID_VALUE, t->sc, i,
                        "a Python %.100s is not a bytea value", Py_TYPE(o)->tp_name);
        }
        *s = PyBytes_AS_STRING(b), *n = (size_t)PyBytes_GET_SIZE(b), *raw = 1, t->keep = b;
        return ORDO_OK;
    }
    PyObject *str = PyUnicode_Check(o) ? Py_NewRef(o) : PyObject_Str(o);
    if (!str)
        return raised();
    Py_ssize_t len;
    const char *p = PyUnicode_AsUTF8AndSize(str, &len);
    if (!p) {
        Py_DECREF(str);
        return value_refused() /* surrogates */
                   ? fail(t->err, ORDO_ERR_INVALID_VALUE, t->sc, i, "not valid UTF-8 text")
                   : raised();
    }
    *s = p, *n = (size_t)len, t->keep = str;
    return ORDO_OK;
}

static ordo_status via_text(const ordo__py_seq *q, const ordo_schema_column *sc, int mode,
                            ordo_table_scratch *sx, ordo_column *col, ordo_error *err)
{
    texts t = {q, NULL, mode, err, sc};
    ordo_status s = ordo_table_text_column(sc, q->length, text_at, &t, sc->name, sx, col, err);
    Py_CLEAR(t.keep);
    return s;
}

/* A Python number; 0 when it is not one, -1 with an exception. */
static int py_num(PyObject *o, ordo_table_number *v)
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
    /* past int64: the library reads it from its hex digits (no length limit) */
    PyObject *hex = overflow ? PyNumber_ToBase(ix, 16) : NULL;
    const char *text = hex ? PyUnicode_AsUTF8(hex) : NULL;
    int got = !overflow ? (v->kind = 'i', v->i = x, 1)
              : text    ? ordo_table_number_int_text(text, v) == ORDO_OK
                        : -1;
    Py_XDECREF(hex);
    Py_DECREF(ix);
    return got;
}

/* What number_at and civil_at read: the sequence, for a schema column. */
typedef struct rows {
    const ordo__py_seq *q;
    const ordo_schema_column *sc;
    ordo_error *err;
    PyObject *nanosecond; /* the attribute's name */
} rows;

/* Ints, floats and __index__ objects as numbers (ordo_table_number_column). */
static ordo_status number_at(void *ctx, size_t i, ordo_table_number *v, int *is_null)
{
    rows *r = ctx;
    PyObject *o = PySequence_Fast_ITEMS(r->q->items)[i];
    if ((*is_null = o == Py_None))
        return ORDO_OK;
    /* (a bool only for a boolean column: the CLI refuses "True" for a number) */
    int got = PyBool_Check(o) && r->sc->type != ORDO_TYPE_BOOL ? 0 : py_num(o, v);
    return got > 0 ? ORDO_OK : got < 0 ? raised() : bad(r->sc, i, o, r->err);
}

/* Dates and datetimes read from the objects (ordo_table_civil_column). */
static ordo_status civil_at(void *ctx, size_t i, ordo_table_civil *v, int *is_null)
{
    rows *r = ctx;
    PyObject *o = PySequence_Fast_ITEMS(r->q->items)[i];
    if ((*is_null = o == Py_None))
        return ORDO_OK;
    *v = (ordo_table_civil){PyDateTime_GET_YEAR(o), PyDateTime_GET_MONTH(o),
                            PyDateTime_GET_DAY(o), 0, 0, 0, 0, 0, 0};
    if (r->sc->sql != ORDO_SQL_DATE)
        v->hour = PyDateTime_DATE_GET_HOUR(o), v->minute = PyDateTime_DATE_GET_MINUTE(o),
        v->second = PyDateTime_DATE_GET_SECOND(o), v->micro = PyDateTime_DATE_GET_MICROSECOND(o);
    if (r->sc->sql != ORDO_SQL_DATE && !PyDateTime_CheckExact(o)) { /* a pandas Timestamp's */
        PyObject *ns = PyObject_GetAttr(o, r->nanosecond);
        if (!ns && !PyErr_ExceptionMatches(PyExc_AttributeError))
            return raised();
        PyErr_Clear();
        v->nano = ns && PyLong_Check(ns) ? (int)PyLong_AsLong(ns) : 0;
        Py_XDECREF(ns);
        if (v->nano == -1 && PyErr_Occurred())
            return raised();
    }
    if (r->sc->sql != ORDO_SQL_TIMESTAMPTZ)
        return ORDO_OK;
    PyObject *off = PyObject_CallMethod(o, "utcoffset", NULL); /* the instant: minus it */
    if (!off)
        return raised();
    int delta = PyDelta_Check(off);
    if (delta)
        v->utc_offset_us = PyDateTime_DELTA_GET_DAYS(off) * INT64_C(86400000000) +
                           PyDateTime_DELTA_GET_SECONDS(off) * INT64_C(1000000) +
                           PyDateTime_DELTA_GET_MICROSECONDS(off);
    Py_DECREF(off);
    if (!delta)
        return fail(r->err, ORDO_ERR_INVALID_VALUE, r->sc, i, "a datetime without a UTC offset");
    return ORDO_OK;
}

/* Whether every value is a date (a datetime, naive or aware as the type
 * is, for a timestamp or timestamptz) or None: read from the objects then;
 * else through their text (a naive datetime for a timestamptz). */
static int instants(const ordo__py_seq *q, const ordo_schema_column *sc)
{
    PyObject **items = PySequence_Fast_ITEMS(q->items);
    int date = sc->sql == ORDO_SQL_DATE, tz = sc->sql == ORDO_SQL_TIMESTAMPTZ;
    for (size_t i = 0; i < q->length; i++) {
        PyObject *o = items[i];
        if (o != Py_None && (date ? !PyDate_Check(o) || PyDateTime_Check(o)
                                  : !PyDateTime_Check(o) ||
                                        (PyDateTime_DATE_GET_TZINFO(o) != Py_None) != tz))
            return 0;
    }
    return date || tz || sc->sql == ORDO_SQL_TIMESTAMP;
}

static PyObject *nanosecond_name; /* "nanosecond" (ordo__py_columns_init) */

static ordo_status convert(const ordo__py_seq *q, const ordo_schema_column *sc,
                           const ordo_table_import_options *io, ordo_table_scratch *sx,
                           ordo_column *col, ordo_error *err)
{
    PyObject **items = PySequence_Fast_ITEMS(q->items);
    rows r = {q, sc, err, nanosecond_name};
    /* ints, floats and __index__ objects are numbers; anything else (str,
     * Decimal, NumPy bools and float32s) is read from its text, as the CLI
     * reads it */
    int strings = 0;
    for (size_t i = 0; ordo_table_number_width(sc->type) && i < q->length && !strings; i++) {
        PyObject *o = items[i];
        strings = !(o == Py_None || PyLong_Check(o) || PyFloat_Check(o) || PyIndex_Check(o));
    }
    if (ordo_table_number_width(sc->type) && !strings)
        return ordo_table_number_column(sc, q->length, number_at, &r, sc->name, sx, col, err);
    if (sc->type == ORDO_TYPE_BYTES) /* bytes-like as they are, str as the CLI reads it */
        return via_text(q, sc, TEXTS_BYTEA, sx, col, err);
    if (sc->type == ORDO_TYPE_STRING && sc->sql != ORDO_SQL_BPCHAR) /* str as it is */
        return via_text(q, sc, TEXTS_TEXT, sx, col, err);
    if (instants(q, sc))
        return ordo_table_civil_column(sc, q->length, civil_at, &r, sc->name, io, sx, col, err);
    /* every other type from str(value), as the CLI reads a CSV field */
    return via_text(q, sc, TEXTS_STR, sx, col, err);
}

ordo_status ordo__py_seq_convert(void *ctx, const ordo_schema_column *sc,
                                 const ordo_table_import_options *io, ordo_table_scratch *sx,
                                 ordo_column *col, ordo_error *err)
{
    ordo__py_seq *q = ctx;
    PyThreadState *ts = q->released ? *q->released : NULL;
    if (ts) /* called by a load running without the GIL */
        PyEval_RestoreThread(ts);
    ordo_status s = convert(q, sc, io, sx, col, err);
    if (s == ORDO_ERR_OUT_OF_MEMORY && !PyErr_Occurred())
        PyErr_NoMemory();
    if (ts)
        *q->released = PyEval_SaveThread();
    return s;
}

int ordo__py_columns_init(void)
{
    PyDateTime_IMPORT;
    PyObject *m = PyDateTimeAPI ? PyImport_ImportModule("decimal") : NULL;
    decimal_type = m ? PyObject_GetAttrString(m, "Decimal") : NULL;
    Py_XDECREF(m);
    nanosecond_name = decimal_type ? PyUnicode_InternFromString("nanosecond") : NULL;
    return nanosecond_name ? 0 : -1;
}
