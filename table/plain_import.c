/* Plain columns (NumPy's layout: fixed-width native values, datetime64
 * and timedelta64 ticks with NaT as NULL) as the batch API's columns. */
#include "import.h"

static int plain_ok(const ordo_table_plain *p)
{
    return p && (p->data || !p->length) && p->ticks >= 1 && p->unit >= ORDO_TABLE_UNIT_Y &&
           p->unit <= ORDO_TABLE_UNIT_NS &&
           (p->itemsize == 1 || p->itemsize == 2 || p->itemsize == 4 || p->itemsize == 8) &&
           p->kind && strchr("iufbMTm", p->kind) &&
           (p->kind != 'f' || p->itemsize >= 2) && (p->kind != 'b' || p->itemsize == 1) &&
           (!strchr("MTm", p->kind) || p->itemsize == 8) &&
           /* a year or a month of a duration has no length in microseconds */
           (p->kind != 'm' || p->unit >= ORDO_TABLE_UNIT_W);
}

static ordo_status bad_plain(const ordo_table_plain *p, const char *name, ordo_error *err)
{
    if (p && p->kind == 'm' && p->itemsize == 8 && p->unit < ORDO_TABLE_UNIT_W)
        return ordo__imp_fail(err, ORDO_ERR_BAD_TYPE, name, SIZE_MAX,
                              "no ordo type for NumPy timedelta64[%s] (ordo takes weeks to "
                              "nanoseconds: a year or a month has no fixed length)",
                              ordo__unit_name(p->unit));
    return ordo__imp_fail(err, ORDO_ERR_BAD_TYPE, name, SIZE_MAX,
                          "no ordo type for NumPy kind '%c%d'", p && p->kind ? p->kind : '?',
                          p ? p->itemsize : 0);
}

ordo_status ordo_table_plain_type(const ordo_table_plain *p, const char *name, const char **type,
                                  ordo_error *err)
{
    if (!p || !type)
        return ORDO_ERR_NULL_ARG;
    if (!plain_ok(p))
        return bad_plain(p, name, err);
    *type = p->kind == 'M'   ? "timestamp"
            : p->kind == 'T' ? "timestamptz"
            : p->kind == 'm' ? "interval"
                             : ordo__numkind_sql((ordo__numkind){p->kind, p->itemsize});
    return ORDO_OK;
}

/* v ticks of p's unit as microseconds (floored, *frac the nanoseconds past
 * them) or with ns, nanoseconds (since 1970 for a datetime64; a
 * timedelta64's span); 0 when that is past int64. */
static int ticks_micros(const ordo_table_plain *p, int64_t v, int ns, int64_t *out, int *frac)
{
    /* nanoseconds per unit, in ORDO_TABLE_UNIT_* order; years and months by the calendar */
    static const int64_t per[] = {0, 0, INT64_C(604800000000000), INT64_C(86400000000000),
                                  INT64_C(3600000000000), INT64_C(60000000000), 1000000000,
                                  1000000, 1000, 1};
    int unit = (int)p->unit;
    *frac = 0;
    if (__builtin_mul_overflow(v, p->ticks, &v))
        return 0;
    if (unit == ORDO_TABLE_UNIT_Y || unit == ORDO_TABLE_UNIT_M) {
        int64_t months = v;
        if (unit == ORDO_TABLE_UNIT_Y && __builtin_mul_overflow(v, 12, &months))
            return 0;
        if (months < -INT64_C(12000000) || months > INT64_C(12000000)) /* a million years */
            return 0;
        int64_t y = ordo__floor_div(months, 12);
        v = ordo_days_from_civil(1970 + y, (int)(months - 12 * y) + 1, 1);
        unit = ORDO_TABLE_UNIT_D;
    }
    int64_t f = per[unit];
    if (ns || f >= 1000)
        return !__builtin_mul_overflow(v, ns ? f : f / 1000, out);
    return ordo__unit_micros(v, ORDO_UNIT_NS, out, frac); /* time_units.c's rule */
}

/* timedelta64 (NaT already NULL in col->validity): intervals of that many
 * microseconds, nanoseconds under io's rule (time_units.c), as Arrow's
 * durations are read. */
static ordo_status durations(const ordo_table_plain *p, const ordo_schema_column *sc,
                             const char *name, const ordo_table_import_options *io,
                             ordo_table_scratch *sx, ordo_column *col, ordo_error *err)
{
    if (sc->type != ORDO_TYPE_INTERVAL)
        return ordo__imp_unsupported(err, name, "NumPy timedelta64", sc);
    size_t n = p->length;
    ordo_interval *dst = ordo_table_scratch_alloc(sx, (n ? n : 1) * sizeof *dst);
    if (!dst)
        return ORDO_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++) {
        int64_t x;
        int frac = 0;
        memcpy(&x, (const uint8_t *)p->data + 8 * i, 8);
        if (x == INT64_MIN) /* NaT */
            continue;
        if (!ticks_micros(p, x, 0, &x, &frac))
            return ordo__imp_fail(err, ORDO_ERR_OUT_OF_RANGE, name, i, "interval out of range");
        ordo_status s = ordo__sub_micro(io, err, name, i, 'd', x, frac);
        if (s != ORDO_OK)
            return s;
        dst[i] = (ordo_interval){0, 0, x};
    }
    col->values = dst;
    return ORDO_OK;
}

/* datetime64 as timestamps, timedelta64 as intervals of microseconds (no
 * days, no months: as Arrow's durations). */
static ordo_status datetimes(const ordo_table_plain *p, const ordo_schema_column *sc,
                             const char *name, const ordo_table_import_options *io,
                             ordo_table_scratch *sx, ordo_column *col, ordo_error *err)
{
    size_t n = p->length;
    const uint8_t *vals = p->data;
    const int64_t nat = INT64_MIN;
    uint8_t *validity = NULL;
    for (size_t i = 0; i < n; i++) {
        int64_t x;
        memcpy(&x, vals + 8 * i, 8);
        if (x == nat) {
            if (!validity && !(validity = ordo__new_validity(sx, n)))
                return ORDO_ERR_OUT_OF_MEMORY;
            ordo__set_null(validity, i);
        }
    }
    col->validity = validity;
    static const int ordo_unit[] = {
        [ORDO_TABLE_UNIT_S] = ORDO_UNIT_S, [ORDO_TABLE_UNIT_MS] = ORDO_UNIT_MS,
        [ORDO_TABLE_UNIT_US] = ORDO_UNIT_US, [ORDO_TABLE_UNIT_NS] = ORDO_UNIT_NS};
    if (p->kind == 'm')
        return durations(p, sc, name, io, sx, col, err);
    int lex = sc->type == ORDO_TYPE_TIME;
    if (lex && p->ticks == 1 && p->unit >= ORDO_TABLE_UNIT_S) { /* LexKey: in place */
        col->values = vals;
        col->time_unit = (uint8_t)ordo_unit[p->unit];
        return ORDO_OK;
    }
    if (!lex && sc->type != ORDO_TYPE_TIMESTAMP && sc->type != ORDO_TYPE_TIMESTAMPTZ)
        return ordo__imp_unsupported(err, name, "NumPy datetime64", sc);
    int64_t *dst = ordo_table_scratch_alloc(sx, (n ? n : 1) * 8);
    if (!dst)
        return ORDO_ERR_OUT_OF_MEMORY;
    if (lex)
        col->time_unit = ORDO_UNIT_NS; /* LexKey's nanoseconds, checked by the batch API */
    for (size_t i = 0; i < n; i++) {
        int64_t x;
        memcpy(&x, vals + 8 * i, 8);
        int frac = 0, unused;
        if (x == nat)
            continue;
        if (!(ticks_micros(p, x, lex, &x, &frac) &&
              (lex ? (dst[i] = x, 1) : ordo__pg_micros(x, ORDO_UNIT_US, &dst[i], &unused))))
            return ordo__imp_fail(err, ORDO_ERR_OUT_OF_RANGE, name, i, "timestamp out of range");
        ordo_status s = ordo__sub_micro(io, err, name, i, p->kind == 'T' ? 'z' : 't', dst[i], frac);
        if (s != ORDO_OK)
            return s;
    }
    col->values = dst;
    return ORDO_OK;
}

ordo_status ordo_table_plain_column(const ordo_table_plain *p, const ordo_schema_column *sc,
                                    const char *name, const ordo_table_import_options *io,
                                    ordo_table_scratch *sx, ordo_column *col, ordo_error *err)
{
    if (!p || !sc || !sx || !col)
        return ORDO_ERR_NULL_ARG;
    if (!plain_ok(p))
        return bad_plain(p, name, err);
    memset(col, 0, sizeof *col);
    col->type = sc->type;
    col->order = sc->order;
    col->time_unit = sc->time_unit;
    col->collator = sc->collator;
    if (p->kind == 'M' || p->kind == 'T' || p->kind == 'm')
        return datetimes(p, sc, name, io, sx, col, err);
    size_t n = p->length;
    ordo__numkind k = {p->kind == 'b' ? 'B' : p->kind, p->itemsize}; /* NumPy bools are bytes */
    ordo__numkind t = ordo__numkind_of_type(sc->type);
    if (t.kind && k.kind == t.kind && k.width == t.width) {
        col->values = p->data; /* in place */
        return ORDO_OK;
    }
    if (sc->type == ORDO_TYPE_NUMERIC && k.kind != 'B') /* as Arrow's numbers: their text */
        return ordo__numbers_text(p->data, k, 0, n, NULL, sx, col) ? ORDO_OK
                                                                  : ORDO_ERR_OUT_OF_MEMORY;
    if (!t.kind)
        return ordo__imp_unsupported(err, name, "a NumPy number", sc);
    return ordo__numbers_column(p->data, k, 0, n, NULL, sc, name, sx, col, err);
}

const char *ordo_table_kinds_type(unsigned kinds)
{
    switch (kinds) {
    case 0: return "text"; /* empty or all NULL */
    case ORDO_TABLE_KIND_BOOL: return "boolean";
    case ORDO_TABLE_KIND_INT: return "bigint";
    case ORDO_TABLE_KIND_FLOAT:
    case ORDO_TABLE_KIND_INT | ORDO_TABLE_KIND_FLOAT: return "double precision";
    case ORDO_TABLE_KIND_TEXT: return "text";
    case ORDO_TABLE_KIND_BYTES: return "bytea";
    case ORDO_TABLE_KIND_DATE: return "date";
    case ORDO_TABLE_KIND_TIMESTAMP: return "timestamp";
    case ORDO_TABLE_KIND_TIMESTAMPTZ: return "timestamptz";
    case ORDO_TABLE_KIND_DECIMAL:
    case ORDO_TABLE_KIND_DECIMAL | ORDO_TABLE_KIND_INT: return "numeric";
    default: return NULL;
    }
}
