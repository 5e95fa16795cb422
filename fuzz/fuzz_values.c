/* The typed-value parsers (PostgreSQL text forms, RFC 3339, UUID): any text
 * is a value within its type's range or an error; never a crash, never a
 * wrapped time. */
#include "fuzz_util.h"
#include "pgtext.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    int64_t i = 0, ns = 0;
    uint64_t u = 0;
    double d = 0;
    float f = 0;
    int b = 0;
    uint8_t buf[16], *bytes = malloc(n / 2 + 1);
    size_t blen = 0;
    pg_instant t;
    switch (data[0] % 11) {
    case 0:
        if (!pg_parse_int(s, n, INT32_MIN, INT32_MAX, &i))
            CHECK(i >= INT32_MIN && i <= INT32_MAX);
        break;
    case 1:
        pg_parse_int(s, n, INT64_MIN, INT64_MAX, &i);
        break;
    case 2:
        if (!pg_parse_uint(s, n, UINT16_MAX, &u))
            CHECK(u <= UINT16_MAX);
        break;
    case 3:
        if (!pg_parse_double(s, n, &d))
            CHECK(!isinf(d) || n >= 3);
        break;
    case 4:
        pg_parse_float(s, n, &f);
        break;
    case 5:
        if (!pg_parse_bool(s, n, &b))
            CHECK(b == 0 || b == 1);
        break;
    case 6:
        if (!pg_parse_bytea(s, n, bytes, &blen))
            CHECK(blen == (n - 2) / 2);
        break;
    case 7:
        pg_parse_uuid(s, n, buf);
        break;
    case 8:
        if (!pg_parse_date(s, n, &t))
            pg_instant_unix_ns(&t, &ns);
        break;
    case 9:
        if (!pg_parse_timestamp(s, n, data[0] & 0x80, &t) && pg_instant_unix_ns(&t, &ns))
            CHECK(t.infinite == 0);
        break;
    default:
        if (ordo_parse_rfc3339(s, n, &ns) == ORDO_OK)
            CHECK(n >= 20);
        ordo_parse_uuid(s, n, buf);
        break;
    }
    free(bytes);
    return 0;
}
