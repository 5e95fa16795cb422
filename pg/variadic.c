/* The elements of a VARIADIC array as the values (variadic.h). */
#include "variadic.h"

#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

void ordo_pg_variadic_init(ordo_pg_variadic *va, Oid array_type, const char *fn)
{
    va->elem = get_base_element_type(array_type);
    if (!OidIsValid(va->elem)) /* the parser lets only arrays through */
        ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                        errmsg("%s: the VARIADIC argument has type %s, not an array", fn,
                               format_type_be(array_type))));
    get_typlenbyvalalign(va->elem, &va->elmlen, &va->elmbyval, &va->elmalign);
}

int ordo_pg_variadic_values(const ordo_pg_variadic *va, FunctionCallInfo fcinfo, int argno,
                            const char *fn, Datum **values, bool **nulls)
{
    if (PG_ARGISNULL(argno))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                        errmsg("%s: the VARIADIC array is NULL", fn),
                        errhint("A key needs one value or more; a NULL value is an element "
                                "that is NULL.")));
    ArrayType *a = PG_GETARG_ARRAYTYPE_P(argno);
    if (ARR_NDIM(a) > 1)
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("%s: the VARIADIC array has %d dimensions (one only)", fn,
                               ARR_NDIM(a))));
    int n = 0;
    deconstruct_array(a, va->elem, va->elmlen, va->elmbyval, va->elmalign, values, nulls, &n);
    if (n == 0)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: the VARIADIC array is empty", fn),
                        errhint("A key needs one value or more.")));
    return n;
}
