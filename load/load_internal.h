/* What the load library's files share: the database handle's store, the
 * error helper, the minimum room a writable open needs. */
#ifndef ORDO_LOAD_INTERNAL_H
#define ORDO_LOAD_INTERNAL_H

#include "ordo_load.h"
#include "store.h"

/* Below this much room (free space, file-size limit) RocksDB cannot even
 * open a database safely. */
#define ORDO__LOAD_MIN_ROOM ((uint64_t)1 << 20)
/* The smallest SST file target: smaller files would hold a block or two. */
#define ORDO__SST_SIZE_MIN ((uint64_t)64 << 10)

ordo__store *ordo__db_store(ordo_db *db);

/* Fills *err (when not NULL) with s, line and the formatted message;
 * returns s. */
ordo_status ordo__load_fail(ordo_error *err, ordo_status s, uint64_t line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* ORDO_ERR_INVALID_ARG for a refused option: err->option its name, the
 * message "option: why". */
ordo_status ordo__load_refuse(ordo_error *err, const char *option, const char *why);

#endif
