/* Reading tables back (ordo.open, Db.tables, Db.get, ordo.decode_keys):
 * glue over ordo_table_list, ordo_table_get and ordo_table_decode_keys,
 * their Arrow structs handed to pyarrow as PyCapsules. */
#include "load.h"

#include <ordo_table.h>

#include <stdlib.h>
#include <string.h>

/* A stream read to its end, released: (schema capsule, [(schema capsule,
 * array capsule)]) (an import moves a schema out of its capsule: one for
 * each batch), or NULL with ordo.Error (the stream's own failure). */
static PyObject *drain(struct ArrowArrayStream *st)
{
    struct ArrowSchema s = {0};
    PyObject *list = PyList_New(0), *sc = NULL, *r = NULL;
    if (!list)
        goto done;
    if (st->get_schema(st, &s) != 0)
        goto failed;
    if (!(sc = ordo__py_schema_capsule(&s)))
        goto done;
    for (;;) {
        struct ArrowArray a = {0};
        int rc;
        /* the keys are the call's (copied, or held by its arguments) */
        Py_BEGIN_ALLOW_THREADS
        rc = st->get_next(st, &a);
        Py_END_ALLOW_THREADS
        if (rc != 0)
            goto failed;
        if (!a.release)
            break;
        struct ArrowSchema bs = {0};
        if (st->get_schema(st, &bs) != 0) {
            a.release(&a);
            goto failed;
        }
        PyObject *pair = ordo__py_arrow_pair(&bs, &a);
        if (!pair || PyList_Append(list, pair) < 0) {
            Py_XDECREF(pair);
            goto done;
        }
        Py_DECREF(pair);
    }
    r = PyTuple_Pack(2, sc, list);
    goto done;
failed: {
    ordo_error e = {0};
    ordo_status f = ordo_table_scan_error(st, &e);
    ordo__py_raise(f != ORDO_OK ? f : ORDO_ERR_IO, &e);
}
done:
    st->release(st);
    Py_XDECREF(sc);
    Py_XDECREF(list);
    return r;
}

/* ------------------------------------------------------- tables */

static PyObject *opt_str(const char *s)
{
    return s && *s ? PyUnicode_FromString(s) : Py_NewRef(Py_None);
}

static PyObject *table_dict(void *tables, size_t i)
{
    const ordo_table_info *t = (const ordo_table_info *)tables + i;
    const ordo_table_meta *m = &t->meta;
    PyObject *tag = t->tag == ORDO_UNTAGGED ? Py_NewRef(Py_None) : PyLong_FromLong(t->tag);
    return !tag ? NULL : Py_BuildValue("{s:N,s:s,s:s,s:s,s:K,s:K,s:N}", "tag", tag, "format",
                                       m->format, "schema", m->schema, "key", m->key, "rows",
                                       (unsigned long long)m->rows, "bytes",
                                       (unsigned long long)t->bytes, "collations",
                                       opt_str(m->collations));
}

static PyObject *py_table_list(PyObject *self, PyObject *dbo)
{
    (void)self;
    ordo_db *db = ordo__py_db_hold(dbo);
    if (!db)
        return NULL;
    ordo_table_info *t = NULL;
    size_t n = 0;
    ordo_error e = {0};
    ordo_status s;
    Py_BEGIN_ALLOW_THREADS /* the bytes are counted from the rows */
    s = ordo_table_list(db, &t, &n, &e);
    Py_END_ALLOW_THREADS
    ordo__py_db_release(dbo);
    if (s != ORDO_OK)
        return ordo__py_raise(s, &e);
    PyObject *list = ordo__py_items(n, 0, table_dict, t);
    ordo_table_list_free(t, n);
    return list;
}

static PyObject *col_name(void *schema, size_t i)
{
    return PyUnicode_FromString(((const ordo_schema *)schema)->cols[i].name);
}

/* table_columns(format, schema, key) -> (columns, key_columns): the names. */
static PyObject *py_table_columns(PyObject *self, PyObject *args)
{
    (void)self;
    const char *format, *schema, *key;
    if (!PyArg_ParseTuple(args, "sss:table_columns", &format, &schema, &key))
        return NULL;
    ordo_table_reader *r = NULL;
    ordo_error e = {0};
    ordo_status s = ordo_table_reader_open(format, schema, key, ORDO_UNTAGGED, &r, &e);
    if (s != ORDO_OK)
        return ordo__py_raise(s, &e);
    const ordo_schema *t = ordo_table_reader_table(r), *k = ordo_table_reader_key(r);
    PyObject *tn = ordo__py_items(t->ncols, 1, col_name, (void *)t);
    PyObject *kn = tn ? ordo__py_items(k->ncols, 1, col_name, (void *)k) : NULL;
    ordo_table_reader_close(r);
    PyObject *res = tn && kn ? PyTuple_Pack(2, tn, kn) : NULL;
    Py_XDECREF(tn);
    Py_XDECREF(kn);
    return res;
}

/* table_get(db, tag, key, *, accept_collation_version=False) -> (schema
 * capsule, array capsule) | None. */
static PyObject *py_table_get(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *names[] = {"db", "tag", "key", "accept_collation_version", NULL};
    PyObject *dbo, *tago;
    Py_buffer key = {0};
    int accept = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOy*|$p:table_get", names, &dbo, &tago, &key,
                                     &accept))
        return NULL;
    ordo_table_scan_options o = {0};
    o.accept_collation_version = accept;
    ordo_db *db = ordo__py_tag(tago, &o.tag) < 0 ? NULL : ordo__py_db_hold(dbo);
    if (!db) {
        PyBuffer_Release(&key);
        return NULL;
    }
    struct ArrowSchema s;
    struct ArrowArray a;
    int found = 0;
    ordo_error e = {0};
    ordo_status st;
    Py_BEGIN_ALLOW_THREADS
    st = ordo_table_get(db, &o, key.buf, (size_t)key.len, &s, &a, &found, &e);
    Py_END_ALLOW_THREADS
    ordo__py_db_release(dbo);
    PyBuffer_Release(&key);
    if (st != ORDO_OK)
        return ordo__py_raise(st, &e);
    if (!found)
        Py_RETURN_NONE;
    return ordo__py_arrow_pair(&s, &a);
}

/* ------------------------------------------------------- decode_keys */

/* The keys as bytes at *data with int64 offsets (*off, n + 1; malloc'd,
 * ours: the caller's offsets are checked as they are copied), from a list
 * or tuple of bytes (copied into *owned) or an ordo__py_bin source. */
static int keys_arg(PyObject *keys, ordo__py_bin *b, PyObject **owned, const uint8_t **data,
                    int64_t **off, size_t *n)
{
    if (PyList_Check(keys) || PyTuple_Check(keys)) {
        PyObject *t = PySequence_Tuple(keys); /* a snapshot: no code runs while it is read */
        if (!t)
            return -1;
        size_t k = (size_t)PyTuple_GET_SIZE(t), total = 0;
        for (size_t i = 0; i < k; i++) {
            PyObject *v = PyTuple_GET_ITEM(t, (Py_ssize_t)i);
            if (!PyBytes_Check(v)) {
                Py_DECREF(t);
                ordo__py_raisef(ORDO_ERR_INVALID_ARG, "keys: item %zu is %.200s, not bytes", i,
                                Py_TYPE(v)->tp_name);
                return -1;
            }
            total += (size_t)PyBytes_GET_SIZE(v);
        }
        *owned = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
        *off = malloc((k + 1) * sizeof **off);
        if (!*owned || !*off) {
            Py_DECREF(t);
            if (*owned)
                PyErr_NoMemory();
            return -1;
        }
        char *p = PyBytes_AS_STRING(*owned);
        (*off)[0] = 0;
        for (size_t i = 0; i < k; i++) {
            PyObject *v = PyTuple_GET_ITEM(t, (Py_ssize_t)i);
            size_t len = (size_t)PyBytes_GET_SIZE(v);
            memcpy(p + (*off)[i], PyBytes_AS_STRING(v), len);
            (*off)[i + 1] = (*off)[i] + (int64_t)len;
        }
        Py_DECREF(t);
        *data = (const uint8_t *)p, *n = k;
        return 0;
    }
    if (!PyObject_HasAttrString(keys, "__arrow_c_array__") &&
        !PyObject_HasAttrString(keys, "offsets")) {
        ordo__py_raisef(ORDO_ERR_INVALID_ARG, "keys: expected ordo.Keys, an Arrow binary array "
                        "or a list of bytes, got %.200s", Py_TYPE(keys)->tp_name);
        return -1;
    }
    if (ordo__py_bin_get(keys, "keys", b) < 0) {
        if (PyErr_ExceptionMatches(PyExc_ValueError) || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyObject *et, *ev, *tb;
            PyErr_Fetch(&et, &ev, &tb);
            PyObject *msg = ev ? PyObject_Str(ev) : NULL;
            const char *m = msg ? PyUnicode_AsUTF8(msg) : NULL;
            ordo__py_raisef(ORDO_ERR_INVALID_ARG, "%s", m ? m : "keys: not readable");
            Py_XDECREF(msg), Py_XDECREF(et), Py_XDECREF(ev), Py_XDECREF(tb);
        }
        return -1;
    }
    size_t base = 0;
    ordo_error e;
    if (!(*off = malloc((b->b.n + 1) * sizeof **off))) {
        PyErr_NoMemory();
        return -1;
    }
    if (ordo_bins_offsets(&b->b, *off, &base, &e) != ORDO_OK) {
        ordo__py_raisef(ORDO_ERR_INVALID_ARG, "keys: %s", e.message);
        return -1;
    }
    *data = b->b.data + base, *n = b->b.n;
    return 0;
}

/* decode_keys(keys, schema, key, format) -> drain's tuple */
static PyObject *py_decode_keys(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *keys;
    ordo_table_decode_options o = {0};
    if (!PyArg_ParseTuple(args, "Oszs:decode_keys", &keys, &o.schema, &o.key, &o.format))
        return NULL;
    ordo__py_bin b;
    memset(&b, 0, sizeof b);
    PyObject *owned = NULL, *r = NULL;
    const uint8_t *data = NULL;
    int64_t *off = NULL;
    size_t n = 0;
    if (keys_arg(keys, &b, &owned, &data, &off, &n) == 0) {
        struct ArrowArrayStream st;
        ordo_error e = {0};
        ordo_status s = ordo_table_decode_keys(&o, data, off, n, &st, &e);
        r = s != ORDO_OK ? ordo__py_raise(s, &e) : drain(&st);
    }
    free(off);
    Py_XDECREF(owned);
    ordo__py_bin_release(&b);
    return r;
}

static PyMethodDef functions[] = {
    {"table_list", py_table_list, METH_O,
     "table_list(db) -> list[dict]: the tables (tag, format, schema, key, rows, bytes, "
     "collations) of db."},
    {"table_columns", py_table_columns, METH_VARARGS,
     "table_columns(format, schema, key) -> (columns, key_columns): the names, key columns in "
     "key order."},
    {"table_get", (PyCFunction)(void (*)(void))py_table_get, METH_VARARGS | METH_KEYWORDS,
     "table_get(db, tag, key, *, accept_collation_version=False) -> (schema, array) capsules "
     "of the row whose key (without the tag byte) is key, or None."},
    {"decode_keys", py_decode_keys, METH_VARARGS,
     "decode_keys(keys, schema, key, format) -> (schema, [(schema, array)]) capsules: the key "
     "columns of the keys, batch by batch."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_db_read_part(PyObject *m) { return PyModule_AddFunctions(m, functions); }
