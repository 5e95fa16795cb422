/* PostgreSQL values as ordo fields. Scalars map to the row API's calls;
 * records, arrays and ranges to its begin/end calls around their members,
 * which PostgreSQL compares ASC NULLS LAST (record_cmp, array_cmp and
 * range_cmp), as ordo's nested fields are written. */
#include "types.h"

#include "access/detoast.h"
#include "access/htup_details.h"
#include "catalog/pg_enum.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/date.h"
#include <sys/socket.h> /* AF_INET, for utils/inet.h */
#include "utils/inet.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/pg_lsn.h"
#include "utils/rangetypes.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"
#include "utils/varbit.h"

#include "collation.h"

#include <stdlib.h>
#include <string.h>

static ordo_pg_kind scalar_kind(Oid base)
{
    switch (base) {
    case BOOLOID: return K_BOOL;
    case INT2OID: return K_INT2;
    case INT4OID: return K_INT4;
    case INT8OID: return K_INT8;
    case FLOAT4OID: return K_FLOAT4;
    case FLOAT8OID: return K_FLOAT8;
    case NUMERICOID: return K_NUMERIC;
    case TEXTOID:
    case VARCHAROID: return K_TEXT;
    case BPCHAROID: return K_BPCHAR;
    case BYTEAOID: return K_BYTEA;
    case UUIDOID: return K_UUID;
    case DATEOID: return K_DATE;
    case TIMEOID: return K_TIME;
    case TIMETZOID: return K_TIMETZ;
    case TIMESTAMPOID: return K_TIMESTAMP;
    case TIMESTAMPTZOID: return K_TIMESTAMPTZ;
    case INTERVALOID: return K_INTERVAL;
    case INETOID: return K_INET;
    case CIDROID: return K_CIDR;
    case MACADDROID: return K_MACADDR;
    case MACADDR8OID: return K_MACADDR8;
    case BITOID:
    case VARBITOID: return K_BIT;
    case PG_LSNOID: return K_PG_LSN;
    default: return K_NONE;
    }
}

/* The built-in ranges, the only ones ordo's schemas name. */
static ordo_type range_sub(Oid range)
{
    switch (range) {
    case INT4RANGEOID: return ORDO_TYPE_INT32;
    case INT8RANGEOID: return ORDO_TYPE_INT64;
    case NUMRANGEOID: return ORDO_TYPE_NUMERIC;
    case DATERANGEOID: return ORDO_TYPE_DATE;
    case TSRANGEOID: return ORDO_TYPE_TIMESTAMP;
    case TSTZRANGEOID: return ORDO_TYPE_TIMESTAMPTZ;
    default: return (ordo_type)0;
    }
}

static void unsupported(const ordo_pg_type *t, const char *why)
{
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("%s: value %d has type %s, which ordo does not encode%s", t->fn,
                           t->value, format_type_be(t->type), why)));
}

static int by_label(const void *a, const void *b)
{
    Oid x = ((const ordo_pg_label *)a)->label, y = ((const ordo_pg_label *)b)->label;
    return x < y ? -1 : x > y;
}

typedef struct sort_order {
    float4 order;
    Oid label;
} sort_order;

static int by_sort_order(const void *a, const void *b)
{
    float4 x = ((const sort_order *)a)->order, y = ((const sort_order *)b)->order;
    return x < y ? -1 : x > y;
}

/* The ranks of an enum's labels, as ordo's enum('a', 'b', ...) numbers them:
 * 0 for the first in the type's sort order. */
static void load_labels(ordo_pg_type *t, Oid type)
{
    CatCList *list = SearchSysCacheList1(ENUMTYPOIDNAME, ObjectIdGetDatum(type));
    int n = list->n_members;
    sort_order *s = palloc(sizeof *s * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        Form_pg_enum e = (Form_pg_enum)GETSTRUCT(&list->members[i]->tuple);
        s[i] = (sort_order){e->enumsortorder, e->oid};
    }
    ReleaseSysCacheList(list);
    qsort(s, (size_t)n, sizeof *s, by_sort_order);
    t->labels = MemoryContextAlloc(t->cxt, sizeof *t->labels * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        t->labels[i] = (ordo_pg_label){s[i].label, (uint32_t)i};
    qsort(t->labels, (size_t)n, sizeof *t->labels, by_label);
    t->nlabels = n;
    pfree(s);
}

/* The attributes of row type (type, typmod), each with its own collation. */
static void load_row(ordo_pg_type *t, Oid type, int32 typmod)
{
    TupleDesc td = lookup_rowtype_tupdesc(type, typmod);
    int n = td->natts;
    ordo_pg_type *atts = MemoryContextAllocZero(t->cxt, sizeof *atts * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        Form_pg_attribute a = TupleDescAttr(td, i);
        if (a->attisdropped)
            continue;
        ordo_pg_type_init(&atts[i], a->atttypid, a->attcollation, t->cxt, t->fn, t->value);
    }
    ReleaseTupleDesc(td);
    t->row_type = type, t->row_typmod = typmod, t->natts = n, t->atts = atts;
}

void ordo_pg_type_init(ordo_pg_type *t, Oid type, Oid coll, MemoryContext cxt, const char *fn,
                       int value)
{
    memset(t, 0, sizeof *t);
    t->type = type, t->coll = coll, t->cxt = cxt, t->fn = fn, t->value = value;
    Oid base = getBaseType(type);
    char typtype = get_typtype(base);
    t->k = scalar_kind(base);
    if (t->k == K_TEXT || t->k == K_BPCHAR) {
        if (!OidIsValid(coll))
            ereport(ERROR, (errcode(ERRCODE_INDETERMINATE_COLLATION),
                            errmsg("%s: could not determine which collation to use for value %d",
                                   fn, value),
                            errhint("Use the COLLATE clause to set the collation explicitly.")));
        char what[64];
        snprintf(what, sizeof what, "%s value %d", fn, value);
        t->coll_c = ordo_pg_collator(coll, what);
    } else if (t->k != K_NONE) {
        /* a scalar */
    } else if (typtype == TYPTYPE_ENUM) {
        t->k = K_ENUM;
        load_labels(t, base);
    } else if (base == RECORDOID || typtype == TYPTYPE_COMPOSITE) {
        t->k = K_RECORD;
        if (base != RECORDOID)
            load_row(t, base, -1);
    } else if (typtype == TYPTYPE_RANGE) {
        t->k = K_RANGE;
        t->range_sub = range_sub(base);
        if (!t->range_sub)
            unsupported(t, " (of the ranges, only the built-in ones)");
        t->range = lookup_type_cache(base, TYPECACHE_RANGE_INFO);
        t->elem = MemoryContextAlloc(cxt, sizeof *t->elem);
        ordo_pg_type_init(t->elem, t->range->rngelemtype->type_id, InvalidOid, cxt, fn, value);
    } else if (type_is_array(base) && get_typlen(base) == -1) {
        t->k = K_ARRAY;
        Oid elem = get_element_type(base);
        get_typlenbyvalalign(elem, &t->elmlen, &t->elmbyval, &t->elmalign);
        t->elem = MemoryContextAlloc(cxt, sizeof *t->elem);
        ordo_pg_type_init(t->elem, elem, coll, cxt, fn, value);
    } else {
        unsupported(t, "");
    }
}

void ordo_pg_fail(const ordo_pg_type *t, ordo_status st)
{
    int code = st == ORDO_ERR_OUT_OF_RANGE    ? ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE
               : st == ORDO_ERR_INVALID_UTF8  ? ERRCODE_CHARACTER_NOT_IN_REPERTOIRE
               : st == ORDO_ERR_OUT_OF_MEMORY ? ERRCODE_OUT_OF_MEMORY
                                              : ERRCODE_INVALID_PARAMETER_VALUE;
    ereport(ERROR, (errcode(code), errmsg("%s: value %d (%s): %s", t->fn, t->value,
                                          format_type_be(t->type), ordo_status_message(st))));
}

static uint32_t enum_rank(const ordo_pg_type *t, Oid label)
{
    ordo_pg_label want = {label, 0};
    const ordo_pg_label *r = bsearch(&want, t->labels, (size_t)t->nlabels, sizeof want, by_label);
    if (!r) /* a label added after this call site looked (ALTER TYPE ... ADD VALUE) */
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("%s: value %d (%s): a label added since the query started", t->fn,
                               t->value, format_type_be(t->type))));
    return r->rank;
}

/* The bytes of a variable scalar: text and bytea in place, numeric and bit
 * strings as the text forms the library takes (palloc'd). */
static void read_bytes(const ordo_pg_type *t, Datum d, ordo_pg_ready *r)
{
    switch (t->k) {
    case K_NUMERIC:
        r->p = DatumGetCString(DirectFunctionCall1(numeric_out, d));
        r->n = strlen(r->p);
        return;
    case K_TEXT:
    case K_BPCHAR:
    case K_BYTEA: {
        const struct varlena *v = PG_DETOAST_DATUM_PACKED(d);
        r->p = VARDATA_ANY(v);
        r->n = VARSIZE_ANY_EXHDR(v);
        if (t->k == K_BPCHAR) /* char(n): trailing spaces do not count */
            while (r->n && r->p[r->n - 1] == ' ')
                r->n--;
        return;
    }
    case K_INET:
    case K_CIDR: r->p = (const char *)DatumGetInetPP(d), r->n = 0; return;
    case K_BIT: {
        const VarBit *b = DatumGetVarBitP(d);
        int nbits = VARBITLEN(b);
        char *digits = palloc((size_t)nbits + 1);
        for (int j = 0; j < nbits; j++)
            digits[j] = (char)('0' + ((VARBITS(b)[j / 8] >> (7 - j % 8)) & 1));
        r->p = digits, r->n = (size_t)nbits;
        return;
    }
    default: r->p = NULL, r->n = 0; return;
    }
}

static ordo_status put_record(ordo_key *k, ordo_order o, const ordo_pg_type *t, Datum d)
{
    HeapTupleHeader h = DatumGetHeapTupleHeader(d);
    Oid type = HeapTupleHeaderGetTypeId(h);
    int32 typmod = HeapTupleHeaderGetTypMod(h);
    if (!t->atts || type != t->row_type || typmod != t->row_typmod)
        load_row((ordo_pg_type *)t, type, typmod); /* an anonymous row: its own type */
    TupleDesc td = lookup_rowtype_tupdesc(type, typmod);
    HeapTupleData tup;
    tup.t_len = HeapTupleHeaderGetDatumLength(h);
    ItemPointerSetInvalid(&tup.t_self);
    tup.t_tableOid = InvalidOid;
    tup.t_data = h;
    Datum *values = palloc(sizeof *values * (size_t)(td->natts ? td->natts : 1));
    bool *nulls = palloc(sizeof *nulls * (size_t)(td->natts ? td->natts : 1));
    heap_deform_tuple(&tup, td, values, nulls);
    ordo_status st = ordo_key_record_begin(k, o);
    for (int i = 0; st == ORDO_OK && i < td->natts && i < t->natts; i++) {
        if (TupleDescAttr(td, i)->attisdropped)
            continue;
        st = nulls[i] ? ordo_key_null(k, ORDO_ASC_NULLS_LAST)
                      : ordo_pg_put(k, ORDO_ASC_NULLS_LAST, &t->atts[i], values[i], NULL);
    }
    ReleaseTupleDesc(td);
    pfree(values), pfree(nulls);
    return st == ORDO_OK ? ordo_key_record_end(k) : st;
}

static ordo_status put_array(ordo_key *k, ordo_order o, const ordo_pg_type *t, Datum d)
{
    ArrayType *a = DatumGetArrayTypeP(d);
    if (ARR_NDIM(a) > 1)
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("%s: value %d (%s): arrays of %d dimensions are not supported (one "
                               "only)",
                               t->fn, t->value, format_type_be(t->type), ARR_NDIM(a))));
    if (ARR_NDIM(a) == 1 && ARR_LBOUND(a)[0] != 1) /* PostgreSQL orders by the bounds too */
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("%s: value %d (%s): arrays whose lower bound is not 1 are not "
                               "supported",
                               t->fn, t->value, format_type_be(t->type))));
    ordo_status st = ordo_key_array_begin(k, o);
    ArrayIterator it = array_create_iterator(a, 0, NULL);
    Datum v;
    bool isnull;
    while (st == ORDO_OK && array_iterate(it, &v, &isnull))
        st = isnull ? ordo_key_null(k, ORDO_ASC_NULLS_LAST)
                    : ordo_pg_put(k, ORDO_ASC_NULLS_LAST, t->elem, v, NULL);
    array_free_iterator(it);
    return st == ORDO_OK ? ordo_key_array_end(k) : st;
}

static ordo_status put_range(ordo_key *k, ordo_order o, const ordo_pg_type *t, Datum d)
{
    const RangeType *r = DatumGetRangeTypeP(d);
    RangeBound lo, up;
    bool empty;
    range_deserialize(t->range, r, &lo, &up, &empty);
    unsigned flags = empty ? ORDO_RANGE_EMPTY
                           : (lo.inclusive ? ORDO_RANGE_LOWER_INC : 0u) |
                                 (up.inclusive ? ORDO_RANGE_UPPER_INC : 0u) |
                                 (lo.infinite ? ORDO_RANGE_LOWER_INF : 0u) |
                                 (up.infinite ? ORDO_RANGE_UPPER_INF : 0u);
    ordo_status st = ordo_key_range_begin(k, o, t->range_sub, flags);
    if (st == ORDO_OK && !empty && !lo.infinite)
        st = ordo_pg_put(k, ORDO_ASC_NULLS_LAST, t->elem, lo.val, NULL);
    if (st == ORDO_OK && !empty && !up.infinite)
        st = ordo_pg_put(k, ORDO_ASC_NULLS_LAST, t->elem, up.val, NULL);
    return st == ORDO_OK ? ordo_key_range_end(k) : st;
}

ordo_status ordo_pg_put(ordo_key *k, ordo_order o, const ordo_pg_type *t, Datum d,
                        const ordo_pg_ready *ready)
{
    ordo_pg_ready own;
    const ordo_pg_ready *r = ready;
    if (!r) {
        read_bytes(t, d, &own);
        r = &own;
    }
    switch (t->k) {
    case K_BOOL: return ordo_key_bool(k, o, DatumGetBool(d));
    case K_INT2: return ordo_key_int16(k, o, DatumGetInt16(d));
    case K_INT4: return ordo_key_int32(k, o, DatumGetInt32(d));
    case K_INT8: return ordo_key_int64(k, o, DatumGetInt64(d));
    case K_FLOAT4: return ordo_key_float32(k, o, DatumGetFloat4(d));
    case K_FLOAT8: return ordo_key_float64(k, o, DatumGetFloat8(d));
    case K_NUMERIC: return ordo_key_numeric(k, o, r->p, r->n);
    case K_TEXT:
    case K_BPCHAR:
        return t->coll_c ? ordo_key_text_collated(k, o, t->coll_c, r->p, r->n)
                         : ordo_key_text(k, o, r->p, r->n);
    case K_BYTEA: return ordo_key_bytes(k, o, r->p, r->n);
    case K_UUID: return ordo_key_uuid(k, o, DatumGetUUIDP(d)->data);
    case K_DATE: return ordo_key_date(k, o, DatumGetDateADT(d));
    case K_TIME: return ordo_key_time(k, o, DatumGetTimeADT(d));
    case K_TIMETZ: {
        const TimeTzADT *v = DatumGetTimeTzADTP(d);
        return ordo_key_timetz(k, o, v->time, -v->zone); /* PostgreSQL's zone is west */
    }
    case K_TIMESTAMP: return ordo_key_timestamp(k, o, DatumGetTimestamp(d));
    case K_TIMESTAMPTZ: return ordo_key_timestamptz(k, o, DatumGetTimestampTz(d));
    case K_INTERVAL: {
        const Interval *v = DatumGetIntervalP(d);
        return ordo_key_interval(k, o, v->month, v->day, v->time);
    }
    case K_INET:
    case K_CIDR: {
        const inet *a = (const inet *)r->p;
        ordo_inet x = {.family = ip_family(a) == PGSQL_AF_INET ? 4 : 6, .bits = ip_bits(a)};
        memcpy(x.addr, ip_addr(a), ip_addrsize(a));
        return t->k == K_INET ? ordo_key_inet(k, o, &x) : ordo_key_cidr(k, o, &x);
    }
    case K_MACADDR: {
        const macaddr *m = DatumGetMacaddrP(d);
        const uint8_t b[6] = {m->a, m->b, m->c, m->d, m->e, m->f};
        return ordo_key_macaddr(k, o, b);
    }
    case K_MACADDR8: {
        const macaddr8 *m = DatumGetMacaddr8P(d);
        const uint8_t b[8] = {m->a, m->b, m->c, m->d, m->e, m->f, m->g, m->h};
        return ordo_key_macaddr8(k, o, b);
    }
    case K_BIT: return ordo_key_bit_string(k, o, r->p, r->n);
    case K_PG_LSN: return ordo_key_pg_lsn(k, o, DatumGetLSN(d));
    case K_ENUM: return ordo_key_enum(k, o, enum_rank(t, DatumGetObjectId(d)));
    case K_RECORD:
    case K_ARRAY:
    case K_RANGE:
        if (ready) /* encoded by ordo_pg_ready_value */
            return ordo_key_encoded(k, r->p, r->n);
        return t->k == K_RECORD  ? put_record(k, o, t, d)
               : t->k == K_ARRAY ? put_array(k, o, t, d)
                                 : put_range(k, o, t, d);
    case K_NONE: break;
    }
    return ORDO_ERR_BAD_TYPE;
}

/* A nested value encoded alone, into a buffer grown until it fits (its
 * members' sizes are only known by writing them). */
static void encode_nested(const ordo_pg_type *t, ordo_order o, Datum d, ordo_pg_ready *r)
{
    size_t cap = 256 + 4 * (size_t)toast_raw_datum_size(d);
    for (;;) {
        if (cap > MaxAllocSize)
            ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                            errmsg("%s: value %d (%s): its key would exceed 1 GB", t->fn, t->value,
                                   format_type_be(t->type))));
        uint8_t *buf = palloc(cap);
        ordo_key k;
        ordo_key_init(&k, buf, cap, 0);
        ordo_status st = ordo_pg_put(&k, o, t, d, NULL);
        size_t len = 0;
        if (st == ORDO_OK)
            st = ordo_key_finish(&k, &len);
        if (st == ORDO_OK) {
            r->p = (const char *)buf, r->n = len;
            return;
        }
        pfree(buf);
        if (st != ORDO_ERR_DST_TOO_SMALL)
            ordo_pg_fail(t, st);
        cap *= 4;
    }
}

void ordo_pg_ready_value(const ordo_pg_type *t, ordo_order o, Datum d, ordo_pg_ready *r,
                         size_t *nfields, size_t *var, size_t *exact)
{
    if (t->k == K_RECORD || t->k == K_ARRAY || t->k == K_RANGE) {
        encode_nested(t, o, d, r);
        *exact += r->n, (*nfields)--;
        return;
    }
    read_bytes(t, d, r);
    if (t->coll_c) {
        size_t size;
        ordo_status st = ordo_key_text_collated_size(t->coll_c, r->p, r->n, &size);
        if (st != ORDO_OK)
            ordo_pg_fail(t, st);
        *exact += size, (*nfields)--;
        return;
    }
    if (t->k != K_INET && t->k != K_CIDR)
        *var += r->n;
}
