/* The ordo extension: ordered keys of PostgreSQL values, the same bytes as
 * the library's (and `ordo encode --format ordered`) for the same values.
 * Each value's type is PostgreSQL's own, read in place (detoasted), and the
 * key is one palloc sized by the bound. */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_enum.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "nodes/nodeFuncs.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/date.h"
#include <sys/socket.h> /* AF_INET, for utils/inet.h */
#include "utils/inet.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/pg_lsn.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"
#include "utils/varbit.h"

#include "collation.h"
#include "ordo.h"
#include "spec.h"

#include <stdlib.h>
#include <string.h>

PG_MODULE_MAGIC;

/* How a value is encoded, from its (base) type. */
typedef enum kind {
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
    K_ENUM
} kind;

/* An enum label's rank: its place in the labels' sort order. */
typedef struct label_rank {
    Oid label;
    uint32_t rank;
} label_rank;

typedef struct value_info {
    Oid type;
    kind k;
    const ordo_collator *coll; /* text: NULL is byte order */
    label_rank *labels;        /* enums: sorted by label */
    int nlabels;
} value_info;

/* What one call site needs, kept in fn_extra: the values' types (fixed per
 * call site) and the last spec parsed (usually a constant). */
typedef struct call_info {
    int nvalues;
    text *spec; /* a copy, in fn_mcxt; NULL before the first call */
    ordo_order orders[FUNC_MAX_ARGS];
    value_info v[FLEXIBLE_ARRAY_MEMBER];
} call_info;

static kind kind_of(Oid base)
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
    default: return get_typtype(base) == TYPTYPE_ENUM ? K_ENUM : K_NONE;
    }
}

static int by_label(const void *a, const void *b)
{
    Oid x = ((const label_rank *)a)->label, y = ((const label_rank *)b)->label;
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

/* The ranks of an enum's labels (in cxt), as ordo's enum('a', 'b', ...)
 * numbers them: 0 for the first in the type's sort order. */
static void load_labels(value_info *v, Oid type, MemoryContext cxt)
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
    v->labels = MemoryContextAlloc(cxt, sizeof *v->labels * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        v->labels[i] = (label_rank){s[i].label, (uint32_t)i};
    qsort(v->labels, (size_t)n, sizeof *v->labels, by_label);
    v->nlabels = n;
    pfree(s);
}

/* The call site's types and collations, once. The values are arguments
 * first .. PG_NARGS() - 1. */
static call_info *setup(FunctionCallInfo fcinfo, int first, const char *fn)
{
    FmgrInfo *fl = fcinfo->flinfo;
    if (fl->fn_extra)
        return fl->fn_extra;
    if (get_fn_expr_variadic(fl))
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("%s: VARIADIC arrays are not supported", fn),
                        errhint("Pass the values as separate arguments.")));
    int n = PG_NARGS() - first;
    call_info *ci = MemoryContextAllocZero(fl->fn_mcxt,
                                           offsetof(call_info, v) + sizeof(value_info) * (size_t)n);
    ci->nvalues = n;
    List *args = fl->fn_expr && IsA(fl->fn_expr, FuncExpr) ? ((FuncExpr *)fl->fn_expr)->args : NIL;
    for (int i = 0; i < n; i++) {
        value_info *v = &ci->v[i];
        v->type = get_fn_expr_argtype(fl, first + i);
        if (!OidIsValid(v->type))
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("%s: could not determine the type of value %d", fn, i + 1)));
        Oid base = getBaseType(v->type);
        v->k = kind_of(base);
        if (v->k == K_NONE)
            ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                            errmsg("%s: value %d has type %s, which ordo does not encode", fn, i + 1,
                                   format_type_be(v->type))));
        if (v->k == K_ENUM)
            load_labels(v, base, fl->fn_mcxt);
        if (v->k == K_TEXT || v->k == K_BPCHAR) {
            /* The value's own collation, as ORDER BY it would use: COLLATE
             * in the call, else the column's or the type's. */
            Oid coll = list_length(args) > first + i ? exprCollation(list_nth(args, first + i))
                                                     : PG_GET_COLLATION();
            if (!OidIsValid(coll))
                ereport(ERROR, (errcode(ERRCODE_INDETERMINATE_COLLATION),
                                errmsg("%s: could not determine which collation to use for "
                                       "value %d",
                                       fn, i + 1),
                                errhint("Use the COLLATE clause to set the collation explicitly.")));
            char what[64];
            snprintf(what, sizeof what, "%s value %d", fn, i + 1);
            v->coll = ordo_pg_collator(coll, what);
        }
    }
    fl->fn_extra = ci;
    return ci;
}

/* The spec's orders, parsed again only when the spec changes. */
static void take_spec(call_info *ci, FunctionCallInfo fcinfo, const char *fn)
{
    if (PG_ARGISNULL(0))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                        errmsg("%s: the key spec is NULL", fn),
                        errhint("Pass '' for ASC on every value.")));
    text *spec = PG_GETARG_TEXT_PP(0);
    size_t len = VARSIZE_ANY_EXHDR(spec);
    if (ci->spec && VARSIZE_ANY_EXHDR(ci->spec) == len &&
        !memcmp(VARDATA_ANY(ci->spec), VARDATA_ANY(spec), len))
        return;
    char err[256];
    if (!ordo_pg_parse_spec(VARDATA_ANY(spec), len, (size_t)ci->nvalues, ci->orders, err,
                            sizeof err))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: bad key spec '%.*s': %s", fn, (int)len, VARDATA_ANY(spec),
                               err)));
    if (ci->spec)
        pfree(ci->spec);
    ci->spec = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, VARHDRSZ + len);
    SET_VARSIZE(ci->spec, VARHDRSZ + len);
    memcpy(VARDATA(ci->spec), VARDATA_ANY(spec), len);
}

/* A value made ready for encoding: the bytes of variable types. */
typedef struct ready {
    const char *p;
    size_t n;
} ready;

static void fail(const char *fn, int i, Oid type, ordo_status st)
{
    int code = st == ORDO_ERR_OUT_OF_RANGE     ? ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE
               : st == ORDO_ERR_INVALID_UTF8   ? ERRCODE_CHARACTER_NOT_IN_REPERTOIRE
               : st == ORDO_ERR_OUT_OF_MEMORY  ? ERRCODE_OUT_OF_MEMORY
                                               : ERRCODE_INVALID_PARAMETER_VALUE;
    ereport(ERROR, (errcode(code), errmsg("%s: value %d (%s): %s", fn, i + 1,
                                          format_type_be(type), ordo_status_message(st))));
}

static uint32_t enum_rank(const value_info *v, Oid label, const char *fn, int i)
{
    label_rank want = {label, 0};
    const label_rank *r = bsearch(&want, v->labels, (size_t)v->nlabels, sizeof want, by_label);
    if (!r) /* a label added after this call site looked (ALTER TYPE ... ADD VALUE) */
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("%s: value %d (%s): a label added since the query started", fn,
                               i + 1, format_type_be(v->type))));
    return r->rank;
}

/* Writes value i (not NULL) into k in order o. */
static ordo_status put(ordo_key *k, ordo_order o, const value_info *v, Datum d, const ready *r,
                       const char *fn, int i)
{
    switch (v->k) {
    case K_BOOL: return ordo_key_bool(k, o, DatumGetBool(d));
    case K_INT2: return ordo_key_int16(k, o, DatumGetInt16(d));
    case K_INT4: return ordo_key_int32(k, o, DatumGetInt32(d));
    case K_INT8: return ordo_key_int64(k, o, DatumGetInt64(d));
    case K_FLOAT4: return ordo_key_float32(k, o, DatumGetFloat4(d));
    case K_FLOAT8: return ordo_key_float64(k, o, DatumGetFloat8(d));
    case K_NUMERIC: return ordo_key_numeric(k, o, r->p, r->n);
    case K_TEXT:
    case K_BPCHAR:
        return v->coll ? ordo_key_text_collated(k, o, v->coll, r->p, r->n)
                       : ordo_key_text(k, o, r->p, r->n);
    case K_BYTEA: return ordo_key_bytes(k, o, r->p, r->n);
    case K_UUID: return ordo_key_uuid(k, o, DatumGetUUIDP(d)->data);
    case K_DATE: return ordo_key_date(k, o, DatumGetDateADT(d));
    case K_TIME: return ordo_key_time(k, o, DatumGetTimeADT(d));
    case K_TIMETZ: {
        const TimeTzADT *t = DatumGetTimeTzADTP(d);
        return ordo_key_timetz(k, o, t->time, -t->zone); /* PostgreSQL's zone is west */
    }
    case K_TIMESTAMP: return ordo_key_timestamp(k, o, DatumGetTimestamp(d));
    case K_TIMESTAMPTZ: return ordo_key_timestamptz(k, o, DatumGetTimestampTz(d));
    case K_INTERVAL: {
        const Interval *t = DatumGetIntervalP(d);
        return ordo_key_interval(k, o, t->month, t->day, t->time);
    }
    case K_INET:
    case K_CIDR: {
        const inet *a = (const inet *)r->p;
        ordo_inet x = {.family = ip_family(a) == PGSQL_AF_INET ? 4 : 6, .bits = ip_bits(a)};
        memcpy(x.addr, ip_addr(a), ip_addrsize(a));
        return v->k == K_INET ? ordo_key_inet(k, o, &x) : ordo_key_cidr(k, o, &x);
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
    case K_ENUM: return ordo_key_enum(k, o, enum_rank(v, DatumGetObjectId(d), fn, i));
    case K_NONE: break;
    }
    return ORDO_ERR_BAD_TYPE;
}

/* Makes value i ready (variable types: their bytes, read in place where
 * PostgreSQL keeps them) and adds its room to the bound: *nfields fields
 * of *var variable bytes, plus *exact bytes of collated text (whose size
 * ordo computes exactly). */
static void prepare(const value_info *v, Datum d, ready *r, size_t *nfields, size_t *var,
                    size_t *exact, const char *fn, int i)
{
    switch (v->k) {
    case K_NUMERIC:
        r->p = DatumGetCString(DirectFunctionCall1(numeric_out, d));
        r->n = strlen(r->p);
        break;
    case K_TEXT:
    case K_BPCHAR:
    case K_BYTEA: {
        const struct varlena *t = PG_DETOAST_DATUM_PACKED(d);
        r->p = VARDATA_ANY(t);
        r->n = VARSIZE_ANY_EXHDR(t);
        if (v->k == K_BPCHAR)
            while (r->n && r->p[r->n - 1] == ' ')
                r->n--;
        if (v->coll) {
            size_t size;
            ordo_status st = ordo_key_text_collated_size(v->coll, r->p, r->n, &size);
            if (st != ORDO_OK)
                fail(fn, i, v->type, st);
            *exact += size, (*nfields)--;
            return;
        }
        break;
    }
    case K_INET:
    case K_CIDR: r->p = (const char *)DatumGetInetPP(d); return;
    case K_BIT: {
        const VarBit *b = DatumGetVarBitP(d);
        int nbits = VARBITLEN(b);
        char *digits = palloc((size_t)nbits + 1);
        for (int j = 0; j < nbits; j++)
            digits[j] = (char)('0' + ((VARBITS(b)[j / 8] >> (7 - j % 8)) & 1));
        r->p = digits, r->n = (size_t)nbits;
        break;
    }
    default: return;
    }
    *var += r->n;
}

static bytea *make_key(FunctionCallInfo fcinfo, const call_info *ci, int first, const char *fn)
{
    ready r[FUNC_MAX_ARGS];
    size_t nfields = (size_t)ci->nvalues, var = 0, exact = 0, bound;
    for (int i = 0; i < ci->nvalues; i++)
        if (!PG_ARGISNULL(first + i))
            prepare(&ci->v[i], PG_GETARG_DATUM(first + i), &r[i], &nfields, &var, &exact, fn, i);
    if (ordo_key_bound(nfields, var, &bound) != ORDO_OK || bound > MaxAllocSize - VARHDRSZ ||
        exact > MaxAllocSize - VARHDRSZ - bound)
        ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                        errmsg("%s: the key could exceed 1 GB", fn)));
    bound += exact;
    bytea *out = palloc(VARHDRSZ + bound);
    ordo_key k;
    ordo_key_init(&k, VARDATA(out), bound, 0);
    for (int i = 0; i < ci->nvalues; i++) {
        ordo_status st = PG_ARGISNULL(first + i)
                             ? ordo_key_null(&k, ci->orders[i])
                             : put(&k, ci->orders[i], &ci->v[i], PG_GETARG_DATUM(first + i), &r[i],
                                   fn, i);
        if (st != ORDO_OK)
            fail(fn, i, ci->v[i].type, st);
    }
    size_t len;
    ordo_status st = ordo_key_finish(&k, &len);
    if (st != ORDO_OK) /* every field was checked as it was written */
        elog(ERROR, "%s: %s", fn, ordo_status_message(st));
    SET_VARSIZE(out, VARHDRSZ + len);
    return out;
}

PG_FUNCTION_INFO_V1(ordo_sql_key);
/* ordo_key(spec text, VARIADIC values "any") RETURNS bytea */
Datum ordo_sql_key(PG_FUNCTION_ARGS)
{
    call_info *ci = setup(fcinfo, 1, "ordo_key");
    take_spec(ci, fcinfo, "ordo_key");
    PG_RETURN_BYTEA_P(make_key(fcinfo, ci, 1, "ordo_key"));
}

PG_FUNCTION_INFO_V1(ordo_sql_prefix_upper_bound);
/* ordo_prefix_upper_bound(bytea) RETURNS bytea: the smallest key above
 * every key that starts with the prefix. */
Datum ordo_sql_prefix_upper_bound(PG_FUNCTION_ARGS)
{
    bytea *p = PG_GETARG_BYTEA_PP(0);
    size_t n = VARSIZE_ANY_EXHDR(p), len = 0;
    bytea *out = palloc(VARHDRSZ + (n ? n : 1));
    ordo_status st = ordo_prefix_upper_bound(VARDATA_ANY(p), n, VARDATA(out), n, &len);
    if (st != ORDO_OK)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("ordo_prefix_upper_bound: %s", ordo_status_message(st)),
                        errdetail("An empty prefix, or one of ff bytes only, has no upper bound.")));
    SET_VARSIZE(out, VARHDRSZ + len);
    PG_RETURN_BYTEA_P(out);
}
