/* Primary keys: a split that succeeds takes the first 00, has two
 * non-empty halves, and encoding them back gives the input. */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t plen = 0, roff = 0;
    ordo_status s = ordo_pk_split(data, size, &plen, &roff);
    const uint8_t *z = size ? memchr(data, 0, size) : NULL;
    if (s == ORDO_OK) {
        CHECK(z && (size_t)(z - data) == plen && plen > 0 && roff == plen + 1 && roff < size);
        uint8_t *out = guarded(size);
        size_t len = 0;
        CHECK(ordo_pk_encode(data, plen, data + roff, size - roff, out, size, &len) == ORDO_OK);
        CHECK(len == size && memcmp(out, data, size) == 0);
        check_guard(out, size, size);
        free(out);
    } else if (s == ORDO_ERR_NO_SEPARATOR) {
        CHECK(!z);
    } else {
        CHECK(s == ORDO_ERR_EMPTY_HALF && z && (z == data || (size_t)(z - data) == size - 1));
    }
    return 0;
}
