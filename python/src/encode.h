/*
 * The encoding half of the extension: keys.c (ordo.Keys), columns_py.c
 * (Python sequences to ordo_column; Arrow and NumPy columns are the
 * library's, ordo_table.h), source.c (the sources ordo._encode describes,
 * with module.c's capsule helpers), encode.c (encode: keys of any source,
 * over ordo_table_encoder and ordo_table_csv_keys), cluster_csv.c
 * (csv_rows, csv_split).
 */
#ifndef ORDO_PY_ENCODE_H
#define ORDO_PY_ENCODE_H

#include "module.h"
#include "ordo_ingest.h"
#include "ordo_table.h"

/* An ordo.Keys taking over b's memory (the library's keys: b is emptied),
 * or NULL with an exception. */
PyObject *ordo__py_keys_take(ordo_table_keys *b);

/* A Python sequence column: a tuple of its items when it was read (a
 * snapshot: code run while it is read may change a list, not this). */
typedef struct ordo__py_seq {
    PyObject *items;
    const char *name;
    size_t length;
    /* set by a caller that runs the library without the GIL: where its
     * thread state is while released (NULL: held), so that the conversion
     * takes the GIL for its work */
    PyThreadState **released;
} ordo__py_seq;

/* The schema type ordo gives the sequence's values ("text" when all None),
 * or NULL with TypeError. */
const char *ordo__py_seq_type(const ordo__py_seq *q);
/* ordo_table_input.convert for a sequence (ctx: the ordo__py_seq): its
 * column for a schema column. A Python exception set means the status is
 * the binding's (raise it as set). */
ordo_status ordo__py_seq_convert(void *ctx, const ordo_schema_column *sc,
                                 const ordo_table_import_options *io, ordo_table_scratch *sx,
                                 ordo_column *col, ordo_error *err);
/* read_as as a PyArg "O&" converter reads it (out: zeroed first; release
 * its dicts after the parse either way): None (the defaults) or
 * (timestamps, categories, dictionaries), strs the parsers take or None,
 * a (schema, array) capsule pair moved out (ordo__py_arrow_take) or None;
 * ValueError (TypeError, ordo.Error) set else. */
typedef struct ordo__py_read_as {
    ordo_table_import_options io;
    ordo__py_arrow dicts;
} ordo__py_read_as;
int ordo__py_read_as_arg(PyObject *obj, void *out);
/* The datetime C API, once. 0, or -1 with an exception. */
int ordo__py_columns_init(void);

/* A source as ordo._encode describes it: ("csv", path), ("stream",
 * capsule), ("batch", schema capsule, array capsule) or ("columns", names,
 * descs) (lists of one length): the Arrow structs moved out of their
 * capsules (a batch checked), the columns as the library's inputs in[0..n),
 * each of `rows` rows, sequences typed (ordo__py_seq_type) when `typed`,
 * their conversions taking the GIL back through `released` (may be NULL).
 * source.c; 0, or -1 with an exception; release either way. */
typedef struct ordo__py_columns {
    PyObject *names, *descs; /* tuples of our own */
    struct ordo__py_src *srcs;
    ordo_table_input *in;
    size_t n, rows;
} ordo__py_columns;
typedef enum ordo__py_source_kind {
    ORDO__PY_SOURCE_CSV = 1,
    ORDO__PY_SOURCE_STREAM,
    ORDO__PY_SOURCE_BATCH,
    ORDO__PY_SOURCE_COLUMNS
} ordo__py_source_kind;
typedef struct ordo__py_source {
    ordo__py_source_kind kind;
    ordo_table_source table; /* CSV and stream: what ordo_table_load reads */
    PyObject *path;
    struct ArrowArrayStream stream; /* released unless the library took it */
    ordo__py_arrow batch;
    ordo__py_columns cols;
} ordo__py_source;
int ordo__py_source_get(PyObject *desc, int typed, PyThreadState **released, ordo__py_source *s);
void ordo__py_source_release(ordo__py_source *s);

int ordo__py_keys_part(PyObject *m);
/* The keys of an ordo.Keys (self must be one): borrowed, valid while it lives. */
const ordo_table_keys *ordo__py_keys_of(PyObject *self);
/* Keys.argsort(*, threads=None) (sort.c, with the load library): the ids
 * in key order, a pyarrow.UInt64Array. */
PyObject *ordo__py_keys_argsort(PyObject *self, PyObject *args, PyObject *kw);
int ordo__py_encode_part(PyObject *m);
/* cluster_csv.c: what ordo.dask and ordo.spark need beyond the load bindings. */
int ordo__py_cluster_part(PyObject *m);

#endif
