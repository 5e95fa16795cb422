/*
 * The encoding half of the extension: keys.c (ordo.Keys), columns_py.c
 * (input columns to ordo_column, zero-copy where the layout matches),
 * encode.c (encode_columns, encode_stream; the Arrow PyCapsule inputs, with
 * module.c's capsule helpers), encode_mt.c (batches encoded on several
 * threads), encode_csv.c (encode_csv).
 */
#ifndef ORDO_PY_ENCODE_H
#define ORDO_PY_ENCODE_H

#include "module.h"
#include "ordo_ingest.h"

/* Keys being built: data[off[i] .. off[i+1]) is key i. */
typedef struct ordo__py_keybuf {
    uint8_t *data;
    size_t len, cap;
    int64_t *off; /* n + 1 entries once started */
    size_t n, ncap;
} ordo__py_keybuf;

/* Room for `bytes` more key bytes and `rows` more keys; 0 when out of memory. */
int ordo__py_keybuf_reserve(ordo__py_keybuf *b, size_t bytes, size_t rows);
void ordo__py_keybuf_free(ordo__py_keybuf *b);
/* malloc for key bytes, asking for huge pages when large (as reserve does). */
void *ordo__py_alloc_keys(size_t bytes);
/* An ordo.Keys taking over b's memory (b is emptied), or NULL with an
 * exception. */
PyObject *ordo__py_keys_take(ordo__py_keybuf *b);

/* Rows to encode: nrows rows of ncols columns (each row i is element
 * offset + i of its buffers, as the batch API reads them). */
typedef struct ordo__py_batch {
    const ordo_column *cols;
    size_t ncols, nrows;
} ordo__py_batch;

/* Rows per range of the threaded encoder (16384; tests lower it to cut
 * small tables into many ranges). Read and written with the GIL. */
extern size_t ordo__py_range_rows;

/* Appends the keys of every row of the parts, in order, to kb, encoded on
 * up to `threads` threads (the calling one included) in ranges of at most
 * range_rows rows; call it without the GIL. The output is allocated once.
 * The keys are those of one batch call per part. On error kb is unchanged
 * and *bad_part and *where (relative to that part) tell the first invalid
 * value, as one call per part would. */
ordo_status ordo__py_encode_parts(ordo_format fmt, const ordo__py_batch *parts, size_t nparts,
                                  size_t threads, size_t range_rows, ordo__py_keybuf *kb,
                                  size_t *bad_part, ordo_batch_error *where);

/* For the benchmark: the best of `rounds` timings of one ordo_batch_encode
 * call per batch on one thread (what `ordo bench` times), into an output
 * reused from round to round (secs[0]; on huge pages, as ordo.Keys) and
 * into a fresh one from malloc each round (secs[1]). */
ordo_status ordo__py_bench_batches(ordo_format fmt, const ordo__py_batch *parts, size_t nparts,
                                   int rounds, double secs[2]);

/* ------------------------------------------------------ input columns */

enum { ORDO__PY_ARROW = 1, ORDO__PY_BUFFER = 2, ORDO__PY_SEQ = 3 };
/* NumPy datetime64 units, as _encode.py numbers them */
enum { ORDO__PY_DT_Y, ORDO__PY_DT_M, ORDO__PY_DT_W, ORDO__PY_DT_D, ORDO__PY_DT_H, ORDO__PY_DT_MIN,
       ORDO__PY_DT_S, ORDO__PY_DT_MS, ORDO__PY_DT_US, ORDO__PY_DT_NS };

/* One input column: an Arrow array (a record batch's child, borrowed; or a
 * column's own, moved out of its capsules), a contiguous native-endian buffer of NumPy values, or a Python
 * sequence of objects. */
typedef struct ordo__py_src {
    int kind;
    const char *name; /* UTF-8, borrowed */
    size_t index;     /* the table column it is, for errors */
    size_t length;
    /* Arrow: row i is element (offset + i) of the array's buffers */
    const struct ArrowSchema *schema;
    const struct ArrowArray *array;
    size_t offset;
    ordo__py_arrow own; /* a column's structs, moved out of its capsules (then owns = 1) */
    int owns;
    /* buffer: kind 'i', 'u', 'f', 'b' (one byte per bool), 'M' or 'T'
     * (datetime64 as int64 ticks of `ticks` units, NaT = NULL) */
    Py_buffer view;
    int has_view;
    char bkind;
    int itemsize;
    int unit;      /* ORDO__PY_DT_* */
    int64_t ticks; /* units per tick: datetime64[10s] is 10 */
    /* sequence: a tuple, the column's items when it was read (a snapshot) */
    PyObject *seq;
} ordo__py_src;

/* What a conversion allocated, freed after the batch is encoded. */
typedef struct ordo__py_scratch {
    void **mem;
    size_t nmem, capmem;
    ordo_rows **rows;
    size_t nrows, caprows;
} ordo__py_scratch;

void *ordo__py_scratch_alloc(ordo__py_scratch *sx, size_t n);
void ordo__py_scratch_free(ordo__py_scratch *sx);

/* The schema type (text for a schema, "bigint") ordo gives the column, or
 * NULL with an exception (TypeError) when it has none. */
const char *ordo__py_src_type(const ordo__py_src *src);
/* Column `sc` of the batch from src (rows 0 .. src->length): read in place
 * where the layout is the batch API's, else converted into sx. 0, or -1
 * with an exception naming the column (and the row of a bad value). */
int ordo__py_column(const ordo__py_src *src, const ordo_schema_column *sc, ordo__py_scratch *sx,
                    ordo_column *col);
/* The datetime C API, once. 0, or -1 with an exception. */
int ordo__py_columns_init(void);
/* Releases what a source holds (the buffer view, the sequence). */
void ordo__py_src_clear(ordo__py_src *src);

/* Raises ordo.Error for a bad value: status, the message, .line = the
 * 1-based row, .column = the 1-based column. Returns -1. */
int ordo__py_value_error(ordo_status s, size_t row, size_t column, const char *fmt, ...);

/* The debug hook of the zero-copy test: the values pointers of the key
 * columns of the last batch encoded. */
#define ORDO__PY_DEBUG_COLS 64
extern const void *ordo__py_last_values[ORDO__PY_DEBUG_COLS];
extern size_t ordo__py_last_ncols;

int ordo__py_keys_part(PyObject *m);
/* The keys of an ordo.Keys (self must be one): borrowed, valid while it lives. */
void ordo__py_keys_view(PyObject *self, const uint8_t **data, const int64_t **off, Py_ssize_t *n);
/* Keys.argsort(*, threads=None) (sort.c, with the load library): the ids
 * in key order, a pyarrow.UInt64Array. */
PyObject *ordo__py_keys_argsort(PyObject *self, PyObject *args, PyObject *kw);
int ordo__py_encode_part(PyObject *m);
int ordo__py_encode_csv_part(PyObject *m);

#endif
