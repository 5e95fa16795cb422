/* Time units: the one place ticks of a unit become the microseconds the
 * ordered format keeps (PostgreSQL's), and where a time that is no whole
 * microsecond is refused or floored (ordo_table_timestamps). */
#include "import.h"
#include "table_internal.h"

ordo_status ordo_table_timestamps_parse(const char *text, ordo_table_timestamps *out,
                                        ordo_error *err)
{
    if (!out)
        return ORDO_ERR_NULL_ARG;
    if (!text || !strcmp(text, "refuse"))
        *out = ORDO_TABLE_TIMESTAMPS_REFUSE;
    else if (!strcmp(text, "truncate"))
        *out = ORDO_TABLE_TIMESTAMPS_TRUNCATE;
    else
        return ordo__table_refuse(err, "timestamps",
                                  "expected 'refuse' or 'truncate', got '%.100s'", text);
    return ORDO_OK;
}

/* NumPy's names of the units, in ORDO_TABLE_UNIT_* order */
static const char *const unit_names[] = {"Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns"};

const char *ordo__unit_name(ordo_table_unit u)
{
    return (size_t)u < sizeof unit_names / sizeof *unit_names ? unit_names[u] : "?";
}

ordo_status ordo_table_unit_parse(const char *unit, const char *column, ordo_table_unit *out,
                                  ordo_error *err)
{
    for (size_t u = 0; unit && out && u < sizeof unit_names / sizeof *unit_names; u++)
        if (!strcmp(unit, unit_names[u]))
            return *out = (ordo_table_unit)u, ORDO_OK;
    return ordo__imp_fail(err, out ? ORDO_ERR_BAD_TYPE : ORDO_ERR_NULL_ARG, column ? column : "?",
                          SIZE_MAX, "no ordo type for NumPy's time unit '%.20s' (ordo takes "
                          "years to nanoseconds: Y, M, W, D, h, m, s, ms, us, ns)",
                          unit ? unit : "");
}

int ordo__unit_micros(int64_t v, int unit, int64_t *us, int *frac)
{
    *frac = 0;
    switch (unit) {
    case ORDO_UNIT_S: return !__builtin_mul_overflow(v, INT64_C(1000000), us);
    case ORDO_UNIT_MS: return !__builtin_mul_overflow(v, INT64_C(1000), us);
    case ORDO_UNIT_US: *us = v; return 1;
    default: {
        int64_t q = v / 1000, r = v % 1000; /* no product or difference: none overflows */
        if (r < 0)
            q--, r += 1000;
        *us = q, *frac = (int)r;
        return 1;
    }
    }
}

ordo_status ordo__sub_micro(const ordo_table_import_options *io, ordo_error *err,
                            const char *name, size_t row, char what, int64_t us, int frac)
{
    if (!frac || (io && io->timestamps == ORDO_TABLE_TIMESTAMPS_TRUNCATE))
        return ORDO_OK;
    char text[96];
    /* 't' and 'z': PostgreSQL's microseconds since 2000 */
    int64_t day = ordo__floor_div(us, INT64_C(86400000000)), tod = us - day * INT64_C(86400000000);
    long long s = (long long)(tod / 1000000);
    long long ns = (long long)(tod % 1000000) * 1000 + frac;
    if (what == 'd') { /* a duration: its nanoseconds (an int64 when they came as such) */
        int64_t v;
        if (__builtin_mul_overflow(us, 1000, &v) || __builtin_add_overflow(v, frac, &v))
            snprintf(text, sizeof text, "%lld us and %d ns", (long long)us, frac);
        else
            snprintf(text, sizeof text, "%lld ns", (long long)v);
    } else if (what == 'T') {
        snprintf(text, sizeof text, "%02lld:%02lld:%02lld.%09lld", s / 3600, s / 60 % 60, s % 60,
                 ns);
    } else {
        int64_t y;
        int m, d;
        ordo_civil_from_days(day + ORDO_PG_EPOCH_DAYS, &y, &m, &d);
        snprintf(text, sizeof text, "%04lld-%02d-%02d %02lld:%02lld:%02lld.%09lld%s",
                 (long long)y, m, d, s / 3600, s / 60 % 60, s % 60, ns, what == 'z' ? "+00" : "");
    }
    return ordo__imp_fail(err, ORDO_ERR_INVALID_VALUE, name, row,
                          "%s is not a whole number of microseconds (PostgreSQL's unit); "
                          "timestamps=\"truncate\" floors it",
                          text);
}

int ordo__pg_micros(int64_t v, int unit, int64_t *out, int *frac)
{
    int64_t us;
    if (!ordo__unit_micros(v, unit, &us, frac) ||
        __builtin_sub_overflow(us, ORDO_PG_EPOCH_US, &us) || us < ORDO_TIMESTAMP_MIN ||
        us >= ORDO_TIMESTAMP_END)
        return 0;
    *out = us;
    return 1;
}
