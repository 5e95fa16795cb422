/* ordo_lexkey(VARIADIC "any"): the values as a LexKey key (canonical
 * widths, the `lexkey` format of `ordo encode`), for the types it holds.
 * LexKey has no orders and no collations: text is its bytes. */
#include "postgres.h"

#include "access/detoast.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "ordo.h"
#include "variadic.h"

#include <string.h>

typedef struct lexkey_call {
    int nvalues; /* the arguments'; a VARIADIC array's elements vary */
    bool variadic;
    ordo_pg_variadic va; /* VARIADIC array: its elements (types[0]) */
    Oid types[FLEXIBLE_ARRAY_MEMBER]; /* base types; VARIADIC array: one */
} lexkey_call;

static int holds(Oid t)
{
    switch (t) {
    case BOOLOID:
    case INT2OID:
    case INT4OID:
    case INT8OID:
    case FLOAT4OID:
    case FLOAT8OID:
    case TEXTOID:
    case VARCHAROID:
    case BPCHAROID:
    case BYTEAOID:
    case UUIDOID:
    case DATEOID:
    case TIMESTAMPOID:
    case TIMESTAMPTZOID: return 1;
    default: return 0;
    }
}

static const lexkey_call *setup(FunctionCallInfo fcinfo)
{
    FmgrInfo *fl = fcinfo->flinfo;
    if (fl->fn_extra)
        return fl->fn_extra;
    bool variadic = get_fn_expr_variadic(fl);
    int n = variadic ? 1 : PG_NARGS();
    lexkey_call *c = MemoryContextAllocZero(fl->fn_mcxt, offsetof(lexkey_call, types) +
                                                             sizeof(Oid) * (size_t)(n ? n : 1));
    c->nvalues = n;
    c->variadic = variadic;
    for (int i = 0; i < n; i++) {
        Oid type = get_fn_expr_argtype(fl, i);
        if (!OidIsValid(type))
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("ordo_lexkey: could not determine the type of value %d",
                                   i + 1)));
        if (variadic) { /* ordo_lexkey(VARIADIC array): its elements' type */
            ordo_pg_variadic_init(&c->va, type, "ordo_lexkey");
            type = c->va.elem;
        }
        c->types[i] = getBaseType(type);
        if (!holds(c->types[i]))
            ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                            errmsg("ordo_lexkey: value %d has type %s, which the LexKey format "
                                   "cannot hold",
                                   i + 1, format_type_be(type))));
    }
    fl->fn_extra = c;
    return c;
}

/* Microseconds since 2000 as Unix nanoseconds; ORDO_ERR_OUT_OF_RANGE where
 * int64 nanoseconds end (1677-09-21 ... 2262-04-11), infinities included. */
static ordo_status unix_ns(int64_t micros_2000, int64_t *ns)
{
    int64_t us;
    if (__builtin_add_overflow(micros_2000, ORDO_PG_EPOCH_US, &us) ||
        __builtin_mul_overflow(us, INT64_C(1000), ns))
        return ORDO_ERR_OUT_OF_RANGE;
    return ORDO_OK;
}

static ordo_status put(ordo_lexkey *b, Oid t, Datum d)
{
    switch (t) {
    case BOOLOID: return ordo_lexkey_bool(b, DatumGetBool(d));
    case INT2OID: return ordo_lexkey_int16(b, DatumGetInt16(d));
    case INT4OID: return ordo_lexkey_int32(b, DatumGetInt32(d));
    case INT8OID: return ordo_lexkey_int64(b, DatumGetInt64(d));
    case FLOAT4OID: return ordo_lexkey_float32(b, DatumGetFloat4(d));
    case FLOAT8OID: return ordo_lexkey_float64(b, DatumGetFloat8(d));
    case TEXTOID:
    case VARCHAROID:
    case BPCHAROID:
    case BYTEAOID: {
        const struct varlena *v = PG_DETOAST_DATUM_PACKED(d);
        const char *p = VARDATA_ANY(v);
        size_t n = VARSIZE_ANY_EXHDR(v);
        if (t == BPCHAROID) /* char(n): trailing spaces do not count */
            while (n && p[n - 1] == ' ')
                n--;
        return t == BYTEAOID ? ordo_lexkey_bytes(b, p, n) : ordo_lexkey_string(b, p, n);
    }
    case UUIDOID: return ordo_lexkey_uuid(b, DatumGetUUIDP(d)->data);
    case DATEOID:
    case TIMESTAMPOID:
    case TIMESTAMPTZOID: {
        int64_t micros, ns;
        if (t == DATEOID) {
            DateADT day = DatumGetDateADT(d);
            if (DATE_NOT_FINITE(day))
                return ORDO_ERR_OUT_OF_RANGE;
            micros = (int64_t)day * INT64_C(86400000000);
        } else {
            micros = t == TIMESTAMPOID ? DatumGetTimestamp(d) : DatumGetTimestampTz(d);
        }
        ordo_status st = unix_ns(micros, &ns);
        return st == ORDO_OK ? ordo_lexkey_time(b, ns) : st;
    }
    default: return ORDO_ERR_BAD_TYPE;
    }
}

static bool is_varlena(Oid t)
{
    return t == TEXTOID || t == VARCHAROID || t == BPCHAROID || t == BYTEAOID;
}

/* The key of n values, value i of type types[i * step] (step 0: all of
 * types[0], a VARIADIC array's elements). */
static bytea *lexkey_of(int n, const Datum *values, const bool *nulls, const Oid *types, int step)
{
    size_t var = 0, bound;
    for (int i = 0; i < n; i++)
        if (!nulls[i] && is_varlena(types[i * step]))
            var += toast_raw_datum_size(values[i]);
    if (ordo_lexkey_bound((size_t)n, var, &bound) != ORDO_OK || bound > MaxAllocSize - VARHDRSZ)
        ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                        errmsg("ordo_lexkey: the key could exceed 1 GB")));
    bytea *out = palloc(VARHDRSZ + bound);
    ordo_lexkey b;
    ordo_lexkey_init(&b, VARDATA(out), bound, 0);
    for (int i = 0; i < n; i++) {
        Oid t = types[i * step];
        ordo_status st = nulls[i] ? ordo_lexkey_nil(&b) : put(&b, t, values[i]);
        int code = st == ORDO_ERR_OUT_OF_RANGE ? ERRCODE_DATETIME_VALUE_OUT_OF_RANGE
                                               : ERRCODE_INVALID_PARAMETER_VALUE;
        if (st != ORDO_OK)
            ereport(ERROR, (errcode(code), errmsg("ordo_lexkey: value %d (%s): %s", i + 1,
                                                  format_type_be(t), ordo_status_message(st))));
    }
    size_t len;
    ordo_status st = ordo_lexkey_finish(&b, &len);
    if (st != ORDO_OK)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("ordo_lexkey: %s", ordo_status_message(st))));
    SET_VARSIZE(out, VARHDRSZ + len);
    return out;
}

PG_FUNCTION_INFO_V1(ordo_sql_lexkey);
/* ordo_lexkey(VARIADIC "any") RETURNS bytea */
Datum ordo_sql_lexkey(PG_FUNCTION_ARGS)
{
    const lexkey_call *c = setup(fcinfo);
    if (c->variadic) { /* ordo_lexkey(VARIADIC array): its elements */
        Datum *values;
        bool *nulls;
        int n = ordo_pg_variadic_values(&c->va, fcinfo, 0, "ordo_lexkey", &values, &nulls);
        bytea *key = lexkey_of(n, values, nulls, c->types, 0);
        pfree(values), pfree(nulls);
        PG_RETURN_BYTEA_P(key);
    }
    Datum values[FUNC_MAX_ARGS];
    bool nulls[FUNC_MAX_ARGS];
    for (int i = 0; i < c->nvalues; i++) {
        nulls[i] = PG_ARGISNULL(i);
        values[i] = nulls[i] ? (Datum)0 : PG_GETARG_DATUM(i);
    }
    PG_RETURN_BYTEA_P(lexkey_of(c->nvalues, values, nulls, c->types, 1));
}
