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
    ordo__pg_instant t;
    int32_t months = 0, days32 = 0, east = 0;
    int64_t us = 0, hi128 = 0;
    uint64_t lo128 = 0;
    ordo_inet in;
    size_t fsize = 0;
    switch (data[0] % 17) {
    case 0:
        if (!ordo__pg_parse_int(s, n, INT32_MIN, INT32_MAX, &i))
            CHECK(i >= INT32_MIN && i <= INT32_MAX);
        break;
    case 1:
        ordo__pg_parse_int(s, n, INT64_MIN, INT64_MAX, &i);
        break;
    case 2:
        if (!ordo__pg_parse_uint(s, n, UINT16_MAX, &u))
            CHECK(u <= UINT16_MAX);
        break;
    case 3:
        if (!ordo__pg_parse_double(s, n, &d))
            CHECK(!isinf(d) || n >= 3);
        break;
    case 4:
        ordo__pg_parse_float(s, n, &f);
        break;
    case 5:
        if (!ordo__pg_parse_bool(s, n, &b))
            CHECK(b == 0 || b == 1);
        break;
    case 6:
        if (!ordo__pg_parse_bytea(s, n, bytes, &blen))
            CHECK(blen == (n - 2) / 2);
        break;
    case 7:
        ordo__pg_parse_uuid(s, n, buf);
        break;
    case 8:
        if (!ordo__pg_parse_date(s, n, &t))
            ordo__pg_instant_unix_ns(&t, &ns);
        break;
    case 9:
        if (!ordo__pg_parse_timestamp(s, n, data[0] & 0x80, &t) && ordo__pg_instant_unix_ns(&t, &ns))
            CHECK(t.infinite == 0);
        break;
    case 10:
        if (ordo_parse_rfc3339(s, n, &ns) == ORDO_OK)
            CHECK(n >= 20);
        ordo_parse_uuid(s, n, buf);
        break;
    case 11: /* numeric: the size helper and the builder agree */
        if (ordo_key_field_size(ORDO_TYPE_NUMERIC, s, n, &fsize) == ORDO_OK) {
            uint8_t *k = malloc(fsize);
            ordo_key kb;
            size_t len = 0;
            ordo_key_init(&kb, k, fsize, 0);
            CHECK(ordo_key_numeric(&kb, (ordo_order)(data[0] >> 6), s, n) == ORDO_OK);
            CHECK(ordo_key_finish(&kb, &len) == ORDO_OK && len == fsize);
            free(k);
        }
        break;
    case 12:
        if (!ordo__pg_parse_interval(s, n, &months, &days32, &us)) {
            uint8_t k[32];
            ordo_key kb;
            ordo_key_init(&kb, k, sizeof k, 0);
            CHECK(ordo_key_interval(&kb, ORDO_ASC_NULLS_LAST, months, days32, us) == ORDO_OK);
        }
        break;
    case 13:
        if (!ordo__pg_parse_inet(s, n, data[0] & 0x80, &in)) {
            uint8_t k[64];
            ordo_key kb;
            ordo_key_init(&kb, k, sizeof k, 0);
            CHECK(ordo_key_inet(&kb, ORDO_ASC_NULLS_LAST, &in) == ORDO_OK);
        }
        break;
    case 14:
        if (!ordo__pg_parse_timetz(s, n, &us, &east)) {
            uint8_t k[16];
            ordo_key kb;
            ordo_key_init(&kb, k, sizeof k, 0);
            CHECK(ordo_key_timetz(&kb, ORDO_ASC_NULLS_LAST, us, east) == ORDO_OK);
        }
        break;
    case 15:
        if (!ordo__pg_parse_time(s, n, &us))
            CHECK(us >= 0 && us <= ORDO_TIME_MAX);
        break;
    default:
        ordo__pg_parse_int128(s, n, &hi128, &lo128);
        ordo__pg_parse_lsn(s, n, &u);
        ordo__pg_parse_mac(s, n, buf, data[0] & 0x80 ? 8 : 6);
        break;
    }
    free(bytes);
    return 0;
}
