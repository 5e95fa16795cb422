/* Hex decoding: any text, any capacity; success round-trips, errors point
 * at a real bad character, nothing is written past the capacity or on error. */
#include "fuzz_util.h"

#include <ctype.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    size_t cap = size ? data[0] % (size / 2 + 2) : 0;
    uint8_t *out = guarded(cap);
    size_t len = 7777, pos = 7777;
    ordo_status s = ordo_hex_decode(text, size, out, cap, &len, &pos);
    if (s == ORDO_OK) {
        CHECK(size % 2 == 0 && len == size / 2 && len <= cap);
        char *again = malloc(2 * len + 1);
        size_t n2 = 0;
        CHECK(ordo_hex_encode(out, len, again, 2 * len, &n2) == ORDO_OK && n2 == size);
        for (size_t i = 0; i < size; i++)
            CHECK(again[i] == tolower((unsigned char)text[i]));
        free(again);
        check_guard(out, len, cap);
    } else {
        check_guard(out, 0, cap);
        CHECK(len == 7777);
        if (s == ORDO_ERR_BAD_HEX_CHAR) {
            CHECK(pos < size && !isxdigit((unsigned char)text[pos]));
            for (size_t i = 0; i < pos; i++)
                CHECK(isxdigit((unsigned char)text[i]));
        } else {
            CHECK(s == ORDO_ERR_ODD_HEX_LENGTH || s == ORDO_ERR_DST_TOO_SMALL);
        }
    }
    free(out);
    return 0;
}
