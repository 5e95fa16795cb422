/* Private: the CSV structure finder's two paths, for ordo_csv_index and
 * for the tests that prove the kernels equal to the reference. */
#ifndef ORDO_CSV_INDEX_H
#define ORDO_CSV_INDEX_H

#include "kernels.h"

/* The reference: one byte at a time; writes exactly the entries it counts. */
size_t ordo__csv_index_scalar(const uint8_t *p, size_t n, int *in_quotes, uint32_t *out);
/* p[0..n) through kern (NULL: the reference); idx has ORDO_CSV_INDEX_ROOM(n). */
size_t ordo__csv_index_with(const ordo__kernels *kern, const uint8_t *p, size_t n, uint32_t *idx,
                           int *in_quotes);

#endif
