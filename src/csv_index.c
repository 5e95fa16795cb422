/* CSV structure (ordo_csv_index): the scalar reference, a byte at a time as
 * the SPEC reads, and the hand-over to the active kernel in whole 64-byte
 * blocks, the last partial block through a zero-padded copy (a 00 byte is
 * none of the three characters). */
#include "csv_index.h"
#include "dispatch.h"

size_t ordo__csv_index_scalar(const uint8_t *p, size_t n, int *in_quotes, uint32_t *out)
{
    size_t k = 0;
    int q = *in_quotes;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c == '"') {
            q = !q;
            out[k++] = (uint32_t)i;
        } else if (!q && (c == ',' || c == '\n')) {
            out[k++] = (uint32_t)i;
        }
    }
    *in_quotes = q;
    return k;
}

size_t ordo__csv_index_with(const ordo__kernels *kern, const uint8_t *p, size_t n, uint32_t *idx,
                           int *in_quotes)
{
    if (!kern)
        return ordo__csv_index_scalar(p, n, in_quotes, idx);
    uint64_t inq = *in_quotes ? ~UINT64_C(0) : 0;
    size_t whole = n / 64, k = kern->csv(p, whole, 0, &inq, idx);
    if (n % 64) {
        uint8_t last[64] = {0};
        memcpy(last, p + 64 * whole, n % 64);
        k += kern->csv(last, 1, (uint32_t)(64 * whole), &inq, idx + k);
    }
    *in_quotes = inq != 0;
    return k;
}

ordo_status ordo_csv_index_impl(const char *impl, const uint8_t *p, size_t n, uint32_t *idx,
                                size_t room, size_t *count, int *in_quotes)
{
    if ((!p && n) || !idx || !count || !in_quotes)
        return ORDO_ERR_NULL_ARG;
    if (n > UINT32_MAX - 72u)
        return ORDO_ERR_SIZE_OVERFLOW;
    if (room < ORDO_CSV_INDEX_ROOM(n))
        return ORDO_ERR_DST_TOO_SMALL;
    const ordo__kernels *k = NULL;
    ordo_status s = impl ? ordo__impl_lookup(impl, &k) : ordo__impl_active(&k);
    if (s != ORDO_OK)
        return s;
    *count = ordo__csv_index_with(k, p, n, idx, in_quotes);
    return ORDO_OK;
}

ordo_status ordo_csv_index(const uint8_t *p, size_t n, uint32_t *idx, size_t room,
                           size_t *count, int *in_quotes)
{
    return ordo_csv_index_impl(NULL, p, n, idx, room, count, in_quotes);
}
