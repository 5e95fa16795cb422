/* Reading tables back (ordo.open, Db.tables, Db.get, ordo.decode_keys):
 * glue over ordo_table_read, _list, _get and ordo_table_decode_keys,
 * their Arrow structs handed to pyarrow as PyCapsules. */
#include "load.h"

#include <ordo_table.h>


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
    ordo_db *db = ordo__py_handle_hold(dbo, &ordo__py_db_kind);
    if (!db)
        return NULL;
    ordo_table_info *t = NULL;
    size_t n = 0;
    ordo_error e = {0};
    ordo_status s;
    Py_BEGIN_ALLOW_THREADS /* (an older table's bytes are counted from its rows) */
    s = ordo_table_list(db, &t, &n, &e);
    Py_END_ALLOW_THREADS
    ordo__py_handle_release(dbo);
    if (s != ORDO_OK)
        return ordo__py_raise(s, &e);
    PyObject *list = ordo__py_items(n, 0, table_dict, t);
    ordo_table_list_free(t, n);
    return list;
}

static PyObject *py_table_meta(PyObject *self, PyObject *args)
{
    PyObject *dbo;
    int tag;
    ordo_db *db;
    if (!PyArg_ParseTuple(args, "OO&:table_meta", &dbo, ordo__py_tag_arg, &tag) ||
        !(db = ordo__py_handle_get(dbo, &ordo__py_db_kind)))
        return NULL;
    ordo_table_meta m;
    ordo_error e = {0};
    ordo_status s = ordo_table_read(db, tag, &m, &e);
    if (s == ORDO_ERR_NO_TABLE)
        Py_RETURN_NONE;
    if (s != ORDO_OK)
        return ordo__py_raise(s, &e);
    PyObject *r = Py_BuildValue("{s:s,s:s,s:s,s:K,s:N}", "format", m.format, "key", m.key,
                                "schema", m.schema, "rows", (unsigned long long)m.rows,
                                "collations", opt_str(m.collations));
    ordo_table_meta_free(&m);
    return r;
}

static PyObject *col_name(void *schema, size_t i)
{
    return PyUnicode_FromString(((const ordo_schema *)schema)->cols[i].name);
}

/* table_columns(format, schema, key) -> (columns, key_columns): the names. */
static PyObject *py_table_columns(PyObject *self, PyObject *args)
{
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
    static char *names[] = {"db", "tag", "key", "accept_collation_version", NULL};
    PyObject *dbo;
    Py_buffer key = {0};
    int accept = 0;
    ordo_table_scan_options o = {0};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO&y*|$p:table_get", names, &dbo,
                                     ordo__py_tag_arg, &o.tag, &key, &accept))
        return NULL;
    o.accept_collation_version = accept;
    ordo_db *db = ordo__py_handle_hold(dbo, &ordo__py_db_kind);
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
    ordo__py_handle_release(dbo);
    PyBuffer_Release(&key);
    if (st != ORDO_OK)
        return ordo__py_raise(st, &e);
    if (!found)
        Py_RETURN_NONE;
    return ordo__py_arrow_pair(&s, &a);
}

/* ------------------------------------------------------- decode_keys */

/* decode_keys(keys, schema, key, format) -> TableScan: keys an ordo.Keys
 * or an Arrow binary array (ordo/_db.py joins a list of bytes), read in
 * place, their offsets checked as they are copied. */
static PyObject *py_decode_keys(PyObject *self, PyObject *args)
{
    PyObject *keys;
    ordo_table_decode_options o = {0};
    if (!PyArg_ParseTuple(args, "Oszs:decode_keys", &keys, &o.schema, &o.key, &o.format))
        return NULL;
    ordo__py_bin b; /* (its TypeError and ValueError: ordo.Error in ordo/_db.py) */
    if (ordo__py_bin_get(keys, "keys", &b) < 0)
        return ordo__py_bin_release(&b), NULL;
    struct ArrowArrayStream st;
    ordo_error e = {0};
    ordo_status s = ordo_table_decode_bins(&o, &b.b, &st, &e);
    if (s == ORDO_OK)
        return ordo__py_stream_new(&st, NULL, &b);
    ordo__py_bin_release(&b);
    return ordo__py_raise(s, &e);
}

static PyMethodDef functions[] = {
    {"table_meta", py_table_meta, METH_VARARGS,
     "table_meta(db, tag) -> dict | None: the table under tag (-1 or None: untagged) as "
     "dict(format, key, schema, rows, collations), None when there is none."},
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
     "decode_keys(keys, schema, key, format) -> TableScan: the key columns of the keys as an "
     "Arrow C stream (the keys held until close)."},
    {NULL, NULL, 0, NULL},
};

int ordo__py_db_read_part(PyObject *m) { return PyModule_AddFunctions(m, functions); }
