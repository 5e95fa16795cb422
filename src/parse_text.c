/* Text forms of values: UUIDs and RFC 3339 instants. No sscanf, no locale. */
#include "ordo_internal.h"

ordo_status ordo_parse_uuid(const char *s, size_t n, uint8_t out[16])
{
    uint8_t tmp[16];
    size_t k = 0;
    if (!out || (!s && n))
        return ORDO_ERR_NULL_ARG;
    if (n != 36)
        return ORDO_ERR_INVALID_VALUE;
    for (size_t i = 0; i < 36;) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-')
                return ORDO_ERR_INVALID_VALUE;
            i++;
            continue;
        }
        int hi = ordo__hex_value((unsigned char)s[i]);
        int lo = ordo__hex_value((unsigned char)s[i + 1]);
        if (hi < 0 || lo < 0)
            return ORDO_ERR_INVALID_VALUE;
        tmp[k++] = (uint8_t)(hi << 4 | lo);
        i += 2;
    }
    memcpy(out, tmp, 16);
    return ORDO_OK;
}

/* Reads exactly w decimal digits. */
static int digits(const char *s, int w, int *v)
{
    int x = 0;
    for (int i = 0; i < w; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        x = x * 10 + (s[i] - '0');
    }
    *v = x;
    return 1;
}

ordo_status ordo_time_from_unix(int64_t sec, int64_t nsec, int64_t *unix_ns)
{
    const int64_t giga = 1000000000;
    int64_t s2, n2 = nsec % giga, ns;
    if (!unix_ns)
        return ORDO_ERR_NULL_ARG;
    /* Normalise to 0 <= n2 < 1e9 first, so no intermediate can wrap. */
    if (__builtin_add_overflow(sec, nsec / giga - (n2 < 0), &s2))
        return ORDO_ERR_OUT_OF_RANGE;
    if (n2 < 0)
        n2 += giga;
    /* Negative seconds take a negative fraction, so that the product does
     * not overflow for instants just above the int64 minimum. */
    if (s2 < 0 && n2 > 0)
        s2 += 1, n2 -= giga;
    if (__builtin_mul_overflow(s2, giga, &ns) || __builtin_add_overflow(ns, n2, &ns))
        return ORDO_ERR_OUT_OF_RANGE;
    *unix_ns = ns;
    return ORDO_OK;
}

ordo_status ordo_parse_rfc3339(const char *s, size_t n, int64_t *unix_ns)
{
    int y, mo, d, h, mi, se, oh = 0, om = 0;
    int64_t frac = 0;
    if (!unix_ns || (!s && n))
        return ORDO_ERR_NULL_ARG;
    /* YYYY-MM-DDTHH:MM:SS is 19 characters. */
    if (n < 20 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) || s[7] != '-' ||
        !digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
        !digits(s + 11, 2, &h) || s[13] != ':' || !digits(s + 14, 2, &mi) || s[16] != ':' ||
        !digits(s + 17, 2, &se))
        return ORDO_ERR_INVALID_VALUE;
    if (d < 1 || d > ordo_days_in_month(y, mo) || h > 23 || mi > 59 || se > 59)
        return ORDO_ERR_INVALID_VALUE;
    size_t i = 19;
    if (s[i] == '.') {
        int nd = 0;
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            if (++nd > 9)
                return ORDO_ERR_INVALID_VALUE;
            frac = frac * 10 + (s[i] - '0');
            i++;
        }
        if (nd == 0)
            return ORDO_ERR_INVALID_VALUE;
        for (; nd < 9; nd++)
            frac *= 10;
    }
    int sign = 0;
    if (i < n && (s[i] == 'Z' || s[i] == 'z')) {
        i++;
    } else if (i < n && (s[i] == '+' || s[i] == '-')) {
        sign = s[i] == '-' ? -1 : 1;
        if (n - i != 6 || !digits(s + i + 1, 2, &oh) || s[i + 3] != ':' ||
            !digits(s + i + 4, 2, &om) || oh > 23 || om > 59)
            return ORDO_ERR_INVALID_VALUE;
        i += 6;
    } else {
        return ORDO_ERR_INVALID_VALUE;
    }
    if (i != n)
        return ORDO_ERR_INVALID_VALUE;
    int64_t secs = ordo_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se -
                   (int64_t)sign * (oh * 3600 + om * 60);
    return ordo_time_from_unix(secs, frac, unix_ns);
}
