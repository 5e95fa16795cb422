/* ordo_table_keys_argsort: the load library's key sort over keys kept with
 * int64 offsets (ordo.Keys'). */
#include "table_internal.h"

#include <stdlib.h>

ordo_status ordo_table_keys_argsort(const ordo_table_keys *k, size_t threads, uint64_t *ids,
                                    ordo_error *err)
{
    if (!k || (k->n && (!k->off || !ids)))
        return ordo__table_fail(err, ORDO_ERR_NULL_ARG, "keys: a NULL argument");
    if (k->n > SIZE_MAX / sizeof(size_t) - 1)
        return ordo__table_fail(err, ORDO_ERR_SIZE_OVERFLOW, "keys: too many to sort");
    if (!k->n)
        return ORDO_OK;
    /* the sort takes size_t offsets: each checked to lie in the keys'
     * bytes. Where int64_t and size_t are long and unsigned long (LP64) one
     * may be read as the other (C11 6.5p7), so they are passed as they are
     * (a copy is a fresh 8 bytes a row to touch); elsewhere copied. */
    int same = _Generic((int64_t)0, long: 1, default: 0) &&
               _Generic((size_t)0, unsigned long: 1, default: 0);
    size_t *own = same ? NULL : malloc((k->n + 1) * sizeof *own);
    if (!same && !own)
        return ordo__table_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; i <= k->n; i++) {
        if (k->off[i] < 0 || (uint64_t)k->off[i] > k->len) {
            free(own);
            return ordo__table_fail(err, ORDO_ERR_INVALID_ARG,
                                    "keys: offset %zu is past the keys' bytes", i);
        }
        if (own)
            own[i] = (size_t)k->off[i];
    }
    const size_t *offs = own ? own : (const size_t *)(const void *)k->off;
    ordo_status s = ordo_key_argsort(k->data, offs, k->n, threads, ids, err);
    free(own);
    return s;
}
