/* The key spec of ordo_key(spec, ...): one order per value, by position. */
#ifndef ORDO_PG_SPEC_H
#define ORDO_PG_SPEC_H

#include "ordo.h"

#include <stddef.h>

/* Parses "ORDER, ORDER, ..." (each ORDER "[ASC|DESC] [NULLS FIRST|NULLS
 * LAST]", any case and spacing; PostgreSQL's defaults: ASC, and NULLS FIRST
 * after DESC) for nvalues values into orders[0 .. nvalues). An empty or
 * all-blank spec is ASC for every value. Returns 1, or 0 with a message in
 * err (which item, and what was wrong). */
int ordo_pg_parse_spec(const char *spec, size_t len, size_t nvalues, ordo_order *orders,
                       char *err, size_t errlen);

#endif
