/* Internals of the Arrow and plain imports (table/arrow_*.c,
 * table/plain_import.c, table/numbers.c): shared helpers, one place each. */
#ifndef ORDO_TABLE_IMPORT_H
#define ORDO_TABLE_IMPORT_H

#include "ordo_table.h"

#include <stdio.h>
#include <string.h>

/* A numeric kind of a source: 'i', 'u', 'f' (width 2: IEEE halfs, read as
 * the floats they are), 'b' a bitmap of bools, 'B' one byte per bool;
 * width in bytes. */
typedef struct ordo__numkind {
    char kind;
    int width;
} ordo__numkind;

ordo__numkind ordo__numkind_of_type(ordo_type t);
const char *ordo__numkind_sql(ordo__numkind k);
ordo_table_number ordo__number_at(const void *vals, ordo__numkind k, size_t i);
/* Rows off .. off + n of numbers of kind k as column sc's number type (a
 * new buffer in sx: col->values), rows that validity marks NULL left zero;
 * a value the type cannot hold is ORDO_ERR_OUT_OF_RANGE naming its row. */
ordo_status ordo__numbers_column(const void *vals, ordo__numkind k, size_t off, size_t n,
                                 const uint8_t *validity, const ordo_schema_column *sc,
                                 const char *name, ordo_table_scratch *sx, ordo_column *col,
                                 ordo_error *err);
/* Rows off .. off + n of numbers of kind k (not bools) as numeric text
 * (floats their shortest round-trip text), NULLs empty; 0 when out of
 * memory. col's offset is 0 afterwards. */
int ordo__numbers_text(const void *vals, ordo__numkind k, size_t off, size_t n,
                       const uint8_t *validity, ordo_table_scratch *sx, ordo_column *col);
/* floor(a / b), b != 0. */
int64_t ordo__floor_div(int64_t a, int64_t b);
/* Time units (table/time_units.c). v ticks of an ordo_time_unit (S, MS,
 * US, NS) as microseconds, floored, *frac the nanoseconds past them
 * (0..999); 0 when past int64. */
int ordo__unit_micros(int64_t v, int unit, int64_t *us, int *frac);
/* The same as PostgreSQL's microseconds since 2000 of a timestamp; 0 when
 * out of its range. */
int ordo__pg_micros(int64_t v, int unit, int64_t *out, int *frac);
/* ORDO_OK when frac is 0 or io truncates; else the refusal naming the
 * column, the row and the value: what 't' a timestamp, 'z' a timestamptz
 * (us PostgreSQL's microseconds since 2000), 'T' a time of day (us since
 * midnight), 'd' a duration (us). */
ordo_status ordo__sub_micro(const ordo_table_import_options *io, ordo_error *err,
                            const char *name, size_t row, char what, int64_t us, int frac);

/* The numeric kind of an Arrow format ({0, 0}: none; table/arrow_import.c). */
ordo__numkind ordo__arrow_numkind(const char *format);
/* A fixed_size_binary's width ("w:N", N > 0), else 0; the one rule of what
 * it holds: 16 bytes are a uuid (pa.uuid() is w:16), other widths bytea. */
long ordo__arrow_fixed_width(const char *format);
#define ORDO__ARROW_UUID_WIDTH 16
/* The element width in bytes of a fixed-width Arrow format: numbers (not
 * bools: a bitmap), dates, times, timestamps, durations, intervals,
 * decimals, fixed_size_binary; 0 for any other (variable width, nested). */
long ordo__arrow_width(const char *format);
/* Whether an Arrow format is a date, timestamp, time or duration; and
 * element j of such an array's values buffer as the ordered format keeps
 * it (arrow_import.c, the one conversion of each): *type DATE (*out
 * PostgreSQL's days), TIMESTAMP or TIMESTAMPTZ (its microseconds),
 * TIME_OF_DAY (microseconds since midnight), INTERVAL (a duration's
 * microseconds); out of range ORDO_ERR_OUT_OF_RANGE and a time that is no
 * whole microsecond under io's rule (ordo__sub_micro), naming name and row. */
int ordo__arrow_is_time(const char *format);
ordo_status ordo__arrow_time_value(const char *format, const void *vals, size_t j,
                                   const ordo_table_import_options *io, const char *name,
                                   size_t row, ordo_error *err, ordo_type *type, int64_t *out);
/* Lists as arrays, structs as records (table/arrow_nested.c): whether a
 * list or struct is read (its elements and fields numbers, bools, strings,
 * binary, dates, timestamps, times, durations, decimals, and lists and
 * structs of them; no dictionary, no list of lists); whether it is read as
 * sc (a list as an array, a struct as a record); the rows read (io: the
 * time units' rule). */
int ordo__arrow_nests(const struct ArrowSchema *schema);
int ordo__arrow_nestable(const struct ArrowSchema *schema, const ordo_schema_column *sc);
ordo_status ordo__arrow_nested(const struct ArrowSchema *schema, const struct ArrowArray *array,
                               size_t offset, size_t length, const ordo_schema_column *sc,
                               const char *name, const ordo_table_import_options *io,
                               ordo_table_scratch *sx, ordo_column *col, ordo_error *err);

/* Categories (table/categories.c). The import options checked, as every
 * encoder and load checks them (the option named, ORDO_ERR_INVALID_ARG). */
ordo_status ordo__table_import_check(const ordo_table_import_options *io, ordo_error *err);
/* An Arrow column as io reads it: with categories ORDER a dictionary column
 * as its indices (*tmp: schema without its dictionary), else schema itself. */
static inline const struct ArrowSchema *ordo__arrow_codes_schema(
    const struct ArrowSchema *schema, const ordo_table_import_options *io,
    struct ArrowSchema *tmp)
{
    if (!schema || !io || io->categories != ORDO_TABLE_CATEGORIES_ORDER || !schema->dictionary)
        return schema;
    *tmp = *schema;
    tmp->dictionary = NULL;
    return tmp;
}
/* A column's dictionary, as its entries' keys, once a batch has set it. */
typedef struct ordo__dict_keys {
    ordo_table_keys keys;
    char *format; /* its values' Arrow format */
    int set;
} ordo__dict_keys;
/* The dictionary of an Arrow column (schema and array checked first; none:
 * nothing to do) held to *d, or taken as *d when none is set yet; a
 * different one is ORDO_ERR_INVALID_VALUE "column 'NAME' changes its
 * dictionary ...". */
ordo_status ordo__dict_check(ordo__dict_keys *d, const struct ArrowSchema *schema,
                             const struct ArrowArray *array, const char *name, ordo_error *err);
void ordo__dict_free(ordo__dict_keys *d);

/* A name as a schema writes it (arrow_import.c; the derived schemas'
 * columns and record fields): bare when it is an identifier, else in double
 * quotes; ORDO_ERR_INVALID_ARG (nothing appended) when it holds a double
 * quote, which no schema can name. */
ordo_status ordo__schema_name(ordo_buf *b, const char *name);

/* Room for an Arrow type's name in a message (ordo_table_arrow_type_name
 * cuts a longer one with "..."). */
#define ORDO__ARROW_NAME_MAX 256

/* Errors: ordo_table_column_fail (ordo_table.h). */
/* NumPy's name of a unit ("Y" ... "ns"; table/time_units.c). */
const char *ordo__unit_name(ordo_table_unit u);
#define ordo__imp_fail ordo_table_column_fail
ordo_status ordo__imp_unsupported(ordo_error *err, const char *name, const char *what,
                                  const ordo_schema_column *sc);

/* A copied variable-width column: int64 offsets and the bytes. */
typedef struct ordo__varcol {
    int64_t *off;
    uint8_t *data;
    size_t len, cap;
} ordo__varcol;
int ordo__var_open(ordo__varcol *v, size_t rows, size_t guess);
int ordo__var_push(ordo__varcol *v, size_t r, const void *p, size_t n);
/* Hands the memory to sx and points col at it; 0 when out of memory (freed). */
int ordo__var_done(ordo__varcol *v, ordo_table_scratch *sx, ordo_column *col);
void ordo__var_drop(ordo__varcol *v);

/* A validity bitmap of n rows, all valid, in sx. */
uint8_t *ordo__new_validity(ordo_table_scratch *sx, size_t n);
static inline void ordo__set_null(uint8_t *v, size_t r) { v[r >> 3] &= (uint8_t) ~(1u << (r & 7)); }
static inline int ordo__bit(const uint8_t *bm, size_t i) { return bm[i >> 3] >> (i & 7) & 1; }
/* Offset j of a caller's offsets buffer (int64, or int32 when !wide): read
 * byte-wise, as the C Data Interface does not promise aligned buffers (a
 * frame unpickled by Dask holds them at odd addresses). */
static inline int64_t ordo__offset_at(const void *offsets, int wide, size_t j)
{
    if (wide) {
        int64_t v;
        memcpy(&v, (const uint8_t *)offsets + 8 * j, 8);
        return v;
    }
    int32_t v;
    memcpy(&v, (const uint8_t *)offsets + 4 * j, 4);
    return v;
}
/* Keeps a row builder in sx (closed by clear, before the memory). */
int ordo__scratch_rows(ordo_table_scratch *sx, ordo_rows *r);

#endif
