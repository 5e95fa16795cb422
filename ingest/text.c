/* Single values in PostgreSQL's text forms: the parsers of put_text, with
 * statuses. */
#include "pgtext.h"

#include <string.h>

/* "out of range ..." is a value that parsed but does not fit. */
static ordo_status verdict(const char *e, const char **why)
{
    if (why)
        *why = e;
    if (!e)
        return ORDO_OK;
    return strncmp(e, "out of range", 12) ? ORDO_ERR_INVALID_VALUE : ORDO_ERR_OUT_OF_RANGE;
}

ordo_status ordo_text_int(const char *s, size_t n, int64_t min, int64_t max, int64_t *out,
                          const char **why)
{
    if ((!s && n) || !out)
        return ORDO_ERR_NULL_ARG;
    return verdict(ordo__pg_parse_int(s ? s : "", n, min, max, out), why);
}

ordo_status ordo_text_uint(const char *s, size_t n, uint64_t max, uint64_t *out, const char **why)
{
    if ((!s && n) || !out)
        return ORDO_ERR_NULL_ARG;
    return verdict(ordo__pg_parse_uint(s ? s : "", n, max, out), why);
}

ordo_status ordo_text_float64(const char *s, size_t n, double *out, const char **why)
{
    if ((!s && n) || !out)
        return ORDO_ERR_NULL_ARG;
    return verdict(ordo__pg_parse_double(s ? s : "", n, out), why);
}

ordo_status ordo_text_float32(const char *s, size_t n, float *out, const char **why)
{
    if ((!s && n) || !out)
        return ORDO_ERR_NULL_ARG;
    return verdict(ordo__pg_parse_float(s ? s : "", n, out), why);
}
