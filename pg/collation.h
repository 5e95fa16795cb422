/* PostgreSQL collations as ordo collators. */
#ifndef ORDO_PG_COLLATION_H
#define ORDO_PG_COLLATION_H

#include "postgres.h"

#include "ordo.h"

/* The collator of collation `coll` (a pg_collation OID; DEFAULT_COLLATION_OID
 * is the database's), opened once per backend and kept; NULL for byte
 * order ("C", "POSIX", or no collation). ERRORs for a nondeterministic
 * collation, a provider or locale ordo does not know, and a collation whose
 * recorded version differs from the one ordo's collator has (the keys
 * would not be PostgreSQL's order). `what` names the value in messages. */
const ordo_collator *ordo_pg_collator(Oid coll, const char *what);

#endif
