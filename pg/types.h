/* PostgreSQL values as ordo fields: what each type is in the ordered format
 * (looked up once per call site) and the writing of one value. */
#ifndef ORDO_PG_TYPES_H
#define ORDO_PG_TYPES_H

#include "postgres.h"

#include "access/tupdesc.h"
#include "utils/typcache.h"

#include "ordo.h"

/* How a value is encoded, from its (base) type. */
typedef enum ordo_pg_kind {
    K_NONE = 0,
    K_BOOL,
    K_INT2,
    K_INT4,
    K_INT8,
    K_FLOAT4,
    K_FLOAT8,
    K_NUMERIC,
    K_TEXT,   /* text, varchar: under the value's collation */
    K_BPCHAR, /* char(n): trailing spaces do not count */
    K_BYTEA,
    K_UUID,
    K_DATE,
    K_TIME,
    K_TIMETZ,
    K_TIMESTAMP,
    K_TIMESTAMPTZ,
    K_INTERVAL,
    K_INET,
    K_CIDR,
    K_MACADDR,
    K_MACADDR8,
    K_BIT, /* bit(n), bit varying */
    K_PG_LSN,
    K_ENUM,
    K_RECORD, /* composite types, and anonymous records (ROW(...)) */
    K_ARRAY,  /* one dimension, lower bound 1 */
    K_RANGE   /* the built-in ranges */
} ordo_pg_kind;

/* An enum label's rank: its place in the labels' sort order. */
typedef struct ordo_pg_label {
    Oid label;
    uint32_t rank;
} ordo_pg_label;

typedef struct ordo_pg_type {
    Oid type; /* as given (a domain, say), for messages */
    ordo_pg_kind k;
    Oid coll;                  /* text, and text inside: the collation that applies */
    const ordo_collator *coll_c; /* text: its collator, NULL for byte order */
    ordo_pg_label *labels;     /* enums: sorted by label OID */
    int nlabels;
    /* records: the row type (typmod -1 for a named one; anonymous rows are
     * looked up from each value) and one type per attribute (dropped ones
     * K_NONE) */
    Oid row_type;
    int32 row_typmod;
    int natts;
    struct ordo_pg_type *atts;
    /* arrays: the element type; ranges: the subtype */
    struct ordo_pg_type *elem;
    int16 elmlen;
    bool elmbyval;
    char elmalign;
    TypeCacheEntry *range; /* ranges: PostgreSQL's range info */
    ordo_type range_sub;   /* ranges: the subtype as ordo names it */
    MemoryContext cxt;     /* where the lookups live */
    const char *fn;        /* the SQL function, for messages */
    int value;             /* the value's place (1-based), for messages */
} ordo_pg_type;

/* The description of type `type` (coll: the value's collation) in t,
 * allocated in cxt; ERRORs naming the type if ordo does not encode it. */
void ordo_pg_type_init(ordo_pg_type *t, Oid type, Oid coll, MemoryContext cxt, const char *fn,
                       int value);

/* A variable value's bytes, read in place where PostgreSQL keeps them. */
typedef struct ordo_pg_ready {
    const char *p;
    size_t n;
} ordo_pg_ready;

/* Readies value d of type t (not NULL) for ordo_pg_put: its bytes for the
 * variable types (a nested value is encoded in order o into a buffer of its
 * own), and its room in a key: *nfields fields of *var variable bytes for
 * ORDO_KEY_BOUND, plus *exact bytes of fields whose size is known. */
void ordo_pg_ready_value(const ordo_pg_type *t, ordo_order o, Datum d, ordo_pg_ready *r,
                         size_t *nfields, size_t *var, size_t *exact);

/* Writes value d of type t (not NULL) into k in order o: from r when it was
 * readied, else reading the value itself. The library's status. */
ordo_status ordo_pg_put(ordo_key *k, ordo_order o, const ordo_pg_type *t, Datum d,
                        const ordo_pg_ready *r);

/* ERRORs for status st of value t. */
void ordo_pg_fail(const ordo_pg_type *t, ordo_status st) pg_attribute_noreturn();

#endif
