/* The LexKey builder under arbitrary parts and capacities: a bounded run
 * leaves whole parts only, a prefix of the unbounded run's key; the bound
 * always suffices; nothing is written past the capacity. */
#include "fuzz_util.h"

#define MAXP 32

static void build(ordo_lexkey *b, bytes in, int *nparts, size_t *var)
{
    *nparts = 0;
    *var = 0;
    while (in.n && *nparts < MAXP) {
        uint8_t t = take8(&in);
        uint64_t v = take64(&in);
        double d;
        memcpy(&d, &v, 8);
        float f;
        memcpy(&f, &v, 4);
        size_t len = t >> 5; /* string/bytes length 0..7, from the input */
        if (len > in.n)
            len = in.n;
        switch (t % 21) {
        case 0: ordo_lexkey_string(b, (const char *)in.p, len), *var += len; in.p += len, in.n -= len; break;
        case 1: ordo_lexkey_bytes(b, in.p, len), *var += len; in.p += len, in.n -= len; break;
        case 2: { uint8_t u[16]; memcpy(u, &v, 8); memcpy(u + 8, &v, 8); ordo_lexkey_uuid(b, u); break; }
        case 3: ordo_lexkey_bool(b, v & 1); break;
        case 4: ordo_lexkey_int8(b, (int8_t)v); break;
        case 5: ordo_lexkey_int16(b, (int16_t)v); break;
        case 6: ordo_lexkey_int32(b, (int32_t)v); break;
        case 7: ordo_lexkey_int64(b, (int64_t)v); break;
        case 8: ordo_lexkey_int(b, (int64_t)v); break;
        case 9: ordo_lexkey_uint8(b, (uint8_t)v); break;
        case 10: ordo_lexkey_uint16(b, (uint16_t)v); break;
        case 11: ordo_lexkey_uint32(b, (uint32_t)v); break;
        case 12: ordo_lexkey_uint64(b, v); break;
        case 13: ordo_lexkey_float32(b, f); break;
        case 14: ordo_lexkey_float64(b, d); break;
        case 15: ordo_lexkey_time(b, (int64_t)v); break;
        case 16: ordo_lexkey_duration(b, (int64_t)v); break;
        case 17: ordo_lexkey_nil(b); break;
        case 18: ordo_lexkey_end(b); break;
        case 19: ordo_lexkey_first(b); break;
        default: ordo_lexkey_last(b); break;
        }
        (*nparts)++;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned flags = data[0] & 1;
    bytes in = {data + 2, size - 2};
    int nparts;
    size_t var, full_len = 0, len = 0;
    /* unbounded */
    size_t big = ORDO_LEXKEY_BOUND(MAXP, size);
    uint8_t *full = malloc(big);
    ordo_lexkey b;
    ordo_lexkey_init(&b, full, big, flags);
    build(&b, in, &nparts, &var);
    ordo_status fs = ordo_lexkey_finish(&b, &full_len);
    CHECK(full_len <= ORDO_LEXKEY_BOUND(nparts, var));
    CHECK(fs != ORDO_ERR_DST_TOO_SMALL);
    /* bounded */
    size_t cap = full_len ? data[1] % (full_len + 1) : 0;
    uint8_t *out = guarded(cap);
    ordo_lexkey_init(&b, out, cap, flags);
    build(&b, in, &nparts, &var);
    ordo_status s = ordo_lexkey_finish(&b, &len);
    CHECK(len <= cap && len <= full_len);
    CHECK(len == 0 || memcmp(out, full, len) == 0);
    check_guard(out, cap, cap);
    if (cap == full_len)
        CHECK(s == fs && len == full_len);
    free(out);
    free(full);
    return 0;
}
