/* ordo_key(spec, VARIADIC array) and ordo_lexkey(VARIADIC array): the
 * array's elements are the values, as if passed one by one. */
#ifndef ORDO_PG_VARIADIC_H
#define ORDO_PG_VARIADIC_H

#include "postgres.h"

#include "fmgr.h"

/* The elements' type (a domain over it resolved) and storage, once per
 * call site. */
typedef struct ordo_pg_variadic {
    Oid elem;
    int16 elmlen;
    bool elmbyval;
    char elmalign;
} ordo_pg_variadic;

/* The element type of array_type, the VARIADIC argument's type; fn names
 * the SQL function in messages. */
void ordo_pg_variadic_init(ordo_pg_variadic *va, Oid array_type, const char *fn);

/* The elements of the array, argument argno: *values and *nulls palloc'd,
 * their number returned. ERRORs for a NULL array, an empty one (a key needs
 * a value; there is no call with none) and one of several dimensions. */
int ordo_pg_variadic_values(const ordo_pg_variadic *va, FunctionCallInfo fcinfo, int argno,
                            const char *fn, Datum **values, bool **nulls);

#endif
