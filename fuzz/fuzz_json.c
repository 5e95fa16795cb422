/* JSON key decoding: success re-encodes to a string that decodes the same;
 * errors write nothing. */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t cap = size;
    uint8_t *out = guarded(cap);
    size_t len = 7777;
    ordo_status s = ordo_json_decode((const char *)data, size, out, cap, &len);
    if (s == ORDO_OK) {
        CHECK(len <= cap);
        check_guard(out, len, cap);
        char *js = malloc(2 * len + 2);
        size_t jn = 0, len2 = 0;
        CHECK(ordo_json_encode(out, len, js, 2 * len + 2, &jn) == ORDO_OK);
        uint8_t *back = malloc(len + 1);
        CHECK(ordo_json_decode(js, jn, back, len, &len2) == ORDO_OK && len2 == len);
        CHECK(len == 0 || memcmp(back, out, len) == 0);
        free(js);
        free(back);
    } else {
        CHECK(len == 7777);
        check_guard(out, 0, cap);
    }
    free(out);
    return 0;
}
