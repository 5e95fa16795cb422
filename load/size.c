/* Sizes, duplicate policies and tags as `ordo load` (--memory,
 * --on-duplicate, --tag) and the Python package take them. */
#include "load_internal.h"

#include <stdio.h>

#include <string.h>

#define SIZE_MAX_BYTES UINT64_C(1000000000000000) /* 10^15 */

ordo_status ordo_parse_size(const char *s, uint64_t *out)
{
    if (!s || !out)
        return ORDO_ERR_NULL_ARG;
    /* integer and fraction apart, in integers: exact, and free of the
     * locale's decimal point (strtod's) */
    uint64_t whole = 0, frac = 0, scale = 1;
    const char *p = s;
    if (*p < '0' || *p > '9')
        return ORDO_ERR_INVALID_ARG;
    for (; *p >= '0' && *p <= '9'; p++) {
        whole = whole * 10 + (uint64_t)(*p - '0');
        if (whole > SIZE_MAX_BYTES)
            return ORDO_ERR_INVALID_ARG;
    }
    if (*p == '.' && p[1] >= '0' && p[1] <= '9')
        for (p++; *p >= '0' && *p <= '9'; p++)
            if (scale < UINT64_C(1000000)) /* a millionth of a byte is nothing */
                frac = frac * 10 + (uint64_t)(*p - '0'), scale *= 10;
    uint64_t unit;
    if (!*p)
        unit = 1;
    else if (!strcmp(p, "K") || !strcmp(p, "KiB") || !strcmp(p, "k"))
        unit = UINT64_C(1) << 10;
    else if (!strcmp(p, "M") || !strcmp(p, "MiB"))
        unit = UINT64_C(1) << 20;
    else if (!strcmp(p, "G") || !strcmp(p, "GiB"))
        unit = UINT64_C(1) << 30;
    else
        return ORDO_ERR_INVALID_ARG;
    if (whole > SIZE_MAX_BYTES / unit)
        return ORDO_ERR_INVALID_ARG;
    uint64_t v = whole * unit + frac * unit / scale; /* frac * unit < 2^50 */
    if (v < 1 || v > SIZE_MAX_BYTES)
        return ORDO_ERR_INVALID_ARG;
    *out = v;
    return ORDO_OK;
}

ordo_status ordo_dup_policy_parse(const char *s, ordo_dup_policy *out, ordo_error *err)
{
    static const char *const names[] = {"error", "first", "last"};
    static const ordo_dup_policy policies[] = {ORDO_DUP_ERROR, ORDO_DUP_FIRST, ORDO_DUP_LAST};
    if (!s || !out)
        return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "no duplicate policy");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i])) {
            *out = policies[i];
            return ORDO_OK;
        }
    char why[160];
    snprintf(why, sizeof why, "expected error, first or last, got '%.100s'", s);
    return ordo__load_refuse(err, "on_duplicate", why);
}

int ordo_key_reserved(int tag, const void *key, size_t len)
{
    return tag == ORDO_UNTAGGED && len && ((const uint8_t *)key)[0] == 0xff;
}

ordo_status ordo_tag_check(long long tag, ordo_error *err)
{
    if (ordo_tag_valid(tag))
        return ORDO_OK;
    char why[160];
    snprintf(why, sizeof why, "expected 0 to 254 (255 is for system keys), or -1 (untagged), "
             "got %lld", tag);
    return ordo__load_refuse(err, "tag", why);
}
