/* The ordo extension's SQL functions: ordered keys of PostgreSQL values,
 * the same bytes as the library's (and `ordo encode --format ordered`) for
 * the same values. Each value's type is PostgreSQL's own (types.c), read in
 * place (detoasted), and the key is one palloc sized by the bound. */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "nodes/nodeFuncs.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/typcache.h"

#include "ordo.h"
#include "spec.h"
#include "types.h"
#include "variadic.h"

#include <string.h>

PG_MODULE_MAGIC;

/* What one call site needs, kept in fn_extra so that a query over many rows
 * looks its types up and parses its spec once: the values' types (fixed
 * per call site) and the last spec parsed (usually a constant, then never
 * read again). */
typedef struct call_info {
    const char *fn;
    int nvalues; /* this call's (a VARIADIC array's vary from call to call) */
    text *spec;  /* a copy, in fn_mcxt; NULL before the first call */
    int spec_n;  /* the number of values it was parsed for; -1: none */
    bool spec_const; /* a constant in the call: parsed once per length */
    ordo_order *orders;
    ordo_pg_type *v;
    /* VARIADIC array: its elements' type and collation; v[i] is made for
     * each place i when an array first reaches it (messages name it) */
    bool variadic;
    ordo_pg_variadic va;
    Oid elem_coll;
    int cap, ninit; /* of orders and v: allocated, made */
    /* the row form: its row type (an anonymous one is looked up per value),
     * and per attribute (dropped ones too): skipped or not, the order, room
     * for the values */
    Oid row_type;
    int32 row_typmod;
    int natts;
    bool *skip;
    ordo_order *att_orders;
    Datum *att_values;
    bool *att_nulls;
} call_info;

static call_info *new_call_info(FmgrInfo *fl, const char *fn, int n)
{
    call_info *ci = MemoryContextAllocZero(fl->fn_mcxt, sizeof *ci);
    ci->fn = fn;
    ci->nvalues = n;
    ci->spec_n = -1;
    ci->cap = n ? n : 1;
    ci->orders = MemoryContextAllocZero(fl->fn_mcxt, sizeof *ci->orders * (size_t)ci->cap);
    ci->v = MemoryContextAllocZero(fl->fn_mcxt, sizeof *ci->v * (size_t)ci->cap);
    return ci;
}

/* The call's argument expressions (NIL when PostgreSQL gives none). */
static List *call_args(FmgrInfo *fl)
{
    return fl->fn_expr && IsA(fl->fn_expr, FuncExpr) ? ((FuncExpr *)fl->fn_expr)->args : NIL;
}

/* Whether argument argno of the call is a constant. */
static bool arg_is_const(FmgrInfo *fl, int argno)
{
    List *args = call_args(fl);
    return list_length(args) > argno && IsA(list_nth(args, argno), Const);
}

/* Room for n values of a VARIADIC array: the element type made for each
 * place up to n. */
static void variadic_room(call_info *ci, FmgrInfo *fl, int n)
{
    if (n > ci->cap) {
        int cap = n > 2 * ci->cap ? n : 2 * ci->cap;
        ordo_pg_type *v = MemoryContextAllocZero(fl->fn_mcxt, sizeof *v * (size_t)cap);
        memcpy(v, ci->v, sizeof *v * (size_t)ci->ninit); /* nothing points into v */
        pfree(ci->v), pfree(ci->orders);
        ci->v = v;
        ci->orders = MemoryContextAllocZero(fl->fn_mcxt, sizeof *ci->orders * (size_t)cap);
        ci->cap = cap;
        ci->spec_n = -1; /* the orders are gone: parse again */
    }
    for (; ci->ninit < n; ci->ninit++)
        ordo_pg_type_init(&ci->v[ci->ninit], ci->va.elem, ci->elem_coll, fl->fn_mcxt, ci->fn,
                          ci->ninit + 1);
}

/* The values' types and collations, once per call site: arguments first ..
 * PG_NARGS() - 1, or the elements of the VARIADIC array there. */
static call_info *setup_args(FunctionCallInfo fcinfo, int first, const char *fn)
{
    FmgrInfo *fl = fcinfo->flinfo;
    if (fl->fn_extra)
        return fl->fn_extra;
    bool variadic = get_fn_expr_variadic(fl);
    call_info *ci = new_call_info(fl, fn, variadic ? 0 : PG_NARGS() - first);
    ci->spec_const = arg_is_const(fl, 0);
    List *args = call_args(fl);
    for (int i = 0; i < (variadic ? 1 : ci->nvalues); i++) {
        Oid type = get_fn_expr_argtype(fl, first + i);
        if (!OidIsValid(type))
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("%s: could not determine the type of value %d", fn, i + 1)));
        /* The value's own collation, as ORDER BY it would use: COLLATE in
         * the call, else the column's or the type's (an array's is its
         * elements'). */
        Oid coll = list_length(args) > first + i ? exprCollation(list_nth(args, first + i))
                                                 : PG_GET_COLLATION();
        if (!variadic) {
            ordo_pg_type_init(&ci->v[i], type, coll, fl->fn_mcxt, fn, i + 1);
            continue;
        }
        ci->variadic = true;
        ordo_pg_variadic_init(&ci->va, type, fn);
        ci->elem_coll = coll;
        variadic_room(ci, fl, 1); /* a type ordo does not encode fails here */
    }
    fl->fn_extra = ci;
    return ci;
}

/* The elements of the VARIADIC array, argument argno, as the values:
 * *values and *nulls palloc'd, ci->nvalues their number. */
static void variadic_values(call_info *ci, FunctionCallInfo fcinfo, int argno, Datum **values,
                            bool **nulls)
{
    int n = ordo_pg_variadic_values(&ci->va, fcinfo, argno, ci->fn, values, nulls);
    variadic_room(ci, fcinfo->flinfo, n);
    ci->nvalues = n;
}

/* The spec's orders (argument argno, text or a cstring), parsed again only
 * when the spec or the number of values changes; returns whether it was. */
static bool take_spec(call_info *ci, FunctionCallInfo fcinfo, int argno, int cstring)
{
    if (ci->spec_const && ci->spec_n == ci->nvalues)
        return false;
    if (PG_ARGISNULL(argno))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                        errmsg("%s: the key spec is NULL", ci->fn),
                        errhint("Pass '' for ASC on every value.")));
    const char *p;
    size_t len;
    if (cstring) {
        p = PG_GETARG_CSTRING(argno);
        len = strlen(p);
    } else {
        const text *spec = PG_GETARG_TEXT_PP(argno);
        p = VARDATA_ANY(spec);
        len = VARSIZE_ANY_EXHDR(spec);
    }
    if (ci->spec_n == ci->nvalues && VARSIZE_ANY_EXHDR(ci->spec) == len &&
        !memcmp(VARDATA_ANY(ci->spec), p, len))
        return false;
    char err[256];
    ci->spec_n = -1; /* the orders are not the spec's until it parses */
    if (!ordo_pg_parse_spec(p, len, (size_t)ci->nvalues, ci->orders, err, sizeof err))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: bad key spec '%.*s': %s", ci->fn, (int)len, p, err)));
    if (ci->spec)
        pfree(ci->spec);
    ci->spec = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, VARHDRSZ + len);
    SET_VARSIZE(ci->spec, VARHDRSZ + len);
    memcpy(VARDATA(ci->spec), p, len);
    ci->spec_n = ci->nvalues;
    return true;
}

/* The key of the values (skip[i]: a dropped column, no value). */
static bytea *make_key(const call_info *ci, const Datum *values, const bool *nulls,
                       const bool *skip)
{
    ordo_pg_ready few[32]; /* no allocation but the key's for up to 32 values */
    ordo_pg_ready *r = ci->nvalues <= 32 ? few : palloc(sizeof *r * (size_t)ci->nvalues);
    size_t nfields = 0, var = 0, exact = 0, bound;
    for (int i = 0; i < ci->nvalues; i++) {
        if (skip && skip[i])
            continue;
        nfields++;
        if (!nulls[i])
            ordo_pg_ready_value(&ci->v[i], ci->orders[i], values[i], &r[i], &nfields, &var, &exact);
    }
    if (ordo_key_bound(nfields, var, &bound) != ORDO_OK || bound > MaxAllocSize - VARHDRSZ ||
        exact > MaxAllocSize - VARHDRSZ - bound)
        ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                        errmsg("%s: the key could exceed 1 GB", ci->fn)));
    bound += exact;
    bytea *out = palloc(VARHDRSZ + bound);
    ordo_key k;
    ordo_key_init(&k, VARDATA(out), bound, 0);
    for (int i = 0; i < ci->nvalues; i++) {
        if (skip && skip[i])
            continue;
        ordo_status st = nulls[i] ? ordo_key_null(&k, ci->orders[i])
                                  : ordo_pg_put(&k, ci->orders[i], &ci->v[i], values[i], &r[i]);
        if (st != ORDO_OK)
            ordo_pg_fail(&ci->v[i], st);
    }
    size_t len;
    ordo_status st = ordo_key_finish(&k, &len);
    if (st != ORDO_OK) /* every field was checked as it was written */
        elog(ERROR, "%s: %s", ci->fn, ordo_status_message(st));
    SET_VARSIZE(out, VARHDRSZ + len);
    if (r != few)
        pfree(r);
    return out;
}

PG_FUNCTION_INFO_V1(ordo_sql_key);
/* ordo_key(spec text, VARIADIC values "any") RETURNS bytea */
Datum ordo_sql_key(PG_FUNCTION_ARGS)
{
    call_info *ci = setup_args(fcinfo, 1, "ordo_key");
    if (ci->variadic) { /* ordo_key(spec, VARIADIC array): its elements */
        Datum *values;
        bool *nulls;
        variadic_values(ci, fcinfo, 1, &values, &nulls);
        take_spec(ci, fcinfo, 0, 0);
        bytea *key = make_key(ci, values, nulls, NULL);
        pfree(values), pfree(nulls);
        PG_RETURN_BYTEA_P(key);
    }
    take_spec(ci, fcinfo, 0, 0);
    Datum values[FUNC_MAX_ARGS];
    bool nulls[FUNC_MAX_ARGS];
    for (int i = 0; i < ci->nvalues; i++) {
        nulls[i] = PG_ARGISNULL(1 + i);
        values[i] = nulls[i] ? (Datum)0 : PG_GETARG_DATUM(1 + i);
    }
    PG_RETURN_BYTEA_P(make_key(ci, values, nulls, NULL));
}

/* The row form's columns as values: one type per attribute of the row
 * type (type, typmod) whose descriptor is td (the spec counts the columns
 * that are not dropped). */
static call_info *setup_row(FunctionCallInfo fcinfo, Oid type, int32 typmod, TupleDesc td)
{
    FmgrInfo *fl = fcinfo->flinfo;
    call_info *ci = fl->fn_extra;
    if (ci && ci->row_type == type && ci->row_typmod == typmod && ci->natts == td->natts)
        return ci;
    int live = 0;
    for (int i = 0; i < td->natts; i++)
        live += !TupleDescAttr(td, i)->attisdropped;
    int n = td->natts;
    ci = new_call_info(fl, "ordo_key", n);
    ci->spec_const = arg_is_const(fl, 1);
    ci->row_type = type, ci->row_typmod = typmod;
    ci->nvalues = live; /* for the spec; the types are per attribute */
    ci->natts = n;
    size_t room = (size_t)(n ? n : 1);
    ci->skip = MemoryContextAllocZero(fl->fn_mcxt, sizeof *ci->skip * room);
    ci->att_orders = MemoryContextAllocZero(fl->fn_mcxt, sizeof *ci->att_orders * room);
    ci->att_values = MemoryContextAllocZero(fl->fn_mcxt, sizeof *ci->att_values * room);
    ci->att_nulls = MemoryContextAllocZero(fl->fn_mcxt, sizeof *ci->att_nulls * room);
    for (int i = 0, v = 0; i < n; i++) {
        Form_pg_attribute a = TupleDescAttr(td, i);
        ci->skip[i] = a->attisdropped;
        if (!a->attisdropped)
            ordo_pg_type_init(&ci->v[i], a->atttypid, a->attcollation, fl->fn_mcxt, "ordo_key",
                              ++v);
    }
    fl->fn_extra = ci;
    return ci;
}

PG_FUNCTION_INFO_V1(ordo_sql_key_row);
/* ordo_key(r record, spec cstring) RETURNS bytea: the row's columns as the
 * values, in order. */
Datum ordo_sql_key_row(PG_FUNCTION_ARGS)
{
    if (PG_ARGISNULL(0)) /* no row (not a row of NULLs): no key */
        PG_RETURN_NULL();
    HeapTupleHeader h = PG_GETARG_HEAPTUPLEHEADER(0);
    Oid type = HeapTupleHeaderGetTypeId(h);
    int32 typmod = HeapTupleHeaderGetTypMod(h);
    TupleDesc td = lookup_rowtype_tupdesc(type, typmod);
    call_info *ci = setup_row(fcinfo, type, typmod, td);
    /* the spec is read per live column; its orders spread over all */
    if (take_spec(ci, fcinfo, 1, 1))
        for (int i = 0, v = 0; i < ci->natts; i++)
            ci->att_orders[i] = ci->skip[i] ? ORDO_ASC_NULLS_LAST : ci->orders[v++];
    HeapTupleData tup;
    tup.t_len = HeapTupleHeaderGetDatumLength(h);
    ItemPointerSetInvalid(&tup.t_self);
    tup.t_tableOid = InvalidOid;
    tup.t_data = h;
    heap_deform_tuple(&tup, td, ci->att_values, ci->att_nulls);
    ReleaseTupleDesc(td);
    call_info all = *ci;
    all.nvalues = ci->natts, all.orders = ci->att_orders;
    PG_RETURN_BYTEA_P(make_key(&all, ci->att_values, ci->att_nulls, ci->skip));
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
                        errdetail("An empty prefix, or one of ff bytes only, has no upper "
                                  "bound.")));
    SET_VARSIZE(out, VARHDRSZ + len);
    PG_RETURN_BYTEA_P(out);
}
