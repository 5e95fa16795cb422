/* ordo_column_text: a batch column's value as PostgreSQL's text without
 * encoding it into a key and reading it back (the table engine's value
 * columns), for the types whose text is their value's own; and the integer
 * printer the key printer shares. */
#include "pgtext.h"

#include "ordo_ingest.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int ordo__uuid_text(const uint8_t raw[16], char *out)
{
    static const char hex[] = "0123456789abcdef";
    int n = 0;
    for (int k = 0; k < 16; k++) {
        if (k == 4 || k == 6 || k == 8 || k == 10)
            out[n++] = '-';
        out[n++] = hex[raw[k] >> 4];
        out[n++] = hex[raw[k] & 15];
    }
    out[n] = '\0';
    return n;
}

int ordo__uint_text(uint64_t v, char *out)
{
    char tmp[24];
    int k = 0;
    do
        tmp[k++] = (char)('0' + (int)(v % 10));
    while ((v /= 10) != 0);
    for (int i = 0; i < k; i++)
        out[i] = tmp[k - 1 - i];
    out[k] = 0;
    return k;
}

int ordo__int_text(int64_t v, char *out)
{
    if (v >= 0)
        return ordo__uint_text((uint64_t)v, out);
    out[0] = '-';
    return 1 + ordo__uint_text(0 - (uint64_t)v, out + 1);
}

size_t ordo_decimal_text(const void *value, size_t w, int32_t scale, char *out, size_t cap)
{
    const uint8_t *p = value;
    if (!p || !out || (w != 4 && w != 8 && w != 16 && w != 32) || cap < ORDO_DECIMAL_TEXT_MAX) {
        if (out && cap)
            out[0] = 0;
        return 0;
    }
    uint32_t limb[8]; /* little-endian 32-bit limbs */
    size_t nl = w / 4;
    for (size_t i = 0; i < nl; i++)
        memcpy(&limb[i], p + 4 * i, 4); /* native little-endian, as Arrow's buffers */
    int neg = limb[nl - 1] >> 31;
    if (neg) { /* the magnitude: two's complement negated */
        uint64_t carry = 1;
        for (size_t i = 0; i < nl; i++) {
            uint64_t x = (uint64_t)(uint32_t)~limb[i] + carry;
            limb[i] = (uint32_t)x, carry = x >> 32;
        }
    }
    char digits[96]; /* 2^256 has 78 digits */
    int k = 0;
    size_t top = nl;
    do { /* divide by 10^9, nine digits per pass, least significant first */
        uint64_t rem = 0;
        for (size_t i = top; i-- > 0;) {
            uint64_t x = rem << 32 | limb[i];
            limb[i] = (uint32_t)(x / 1000000000u), rem = x % 1000000000u;
        }
        while (top && !limb[top - 1])
            top--;
        for (int d = 0; d < 9 && (top || rem); d++, rem /= 10)
            digits[k++] = (char)('0' + rem % 10);
    } while (top);
    if (!k)
        digits[k++] = '0';
    size_t n = 0;
    if (neg)
        out[n++] = '-';
    if (scale < 0 || scale > 64) { /* digits, then e and the exponent */
        while (k)
            out[n++] = digits[--k];
        return n + (size_t)snprintf(out + n, cap - n, "e%lld", -(long long)scale);
    }
    while (k <= scale)
        digits[k++] = '0';
    while (k) {
        if (k == scale)
            out[n++] = '.';
        out[n++] = digits[--k];
    }
    out[n] = 0;
    return n;
}

/* One field of an interval's text: " +3 days" (none when v is 0). */
static size_t interval_part(char *t, int64_t v, const char *unit, int *zero, int *before)
{
    if (!v)
        return 0;
    int n = snprintf(t, 48, "%s%s%lld %s%s", *zero ? "" : " ", *before && v > 0 ? "+" : "",
                     (long long)v, unit, v != 1 ? "s" : "");
    *before = v < 0, *zero = 0;
    return (size_t)n;
}

/* An interval as PostgreSQL prints it (IntervalStyle postgres): its
 * months, days and time apart, as its key does not keep them ("1 year 2
 * mons", "-2 days +03:00:00", "00:00:00"); t holds 160. */
static size_t interval_text(const ordo_interval *iv, char *t)
{
    int zero = 1, before = 0;
    size_t n = interval_part(t, iv->months / 12, "year", &zero, &before);
    n += interval_part(t + n, iv->months % 12, "mon", &zero, &before);
    n += interval_part(t + n, iv->days, "day", &zero, &before);
    if (zero || iv->micros) {
        uint64_t m = iv->micros < 0 ? 0 - (uint64_t)iv->micros : (uint64_t)iv->micros;
        n += (size_t)snprintf(t + n, 48, "%s%s%02llu:%02llu:%02llu", zero ? "" : " ",
                              iv->micros < 0 ? "-" : before ? "+" : "",
                              (unsigned long long)(m / 3600000000u),
                              (unsigned long long)(m / 60000000u % 60),
                              (unsigned long long)(m / 1000000u % 60));
        if (m % 1000000u) {
            n += (size_t)snprintf(t + n, 16, ".%06llu", (unsigned long long)(m % 1000000u));
            while (t[n - 1] == '0')
                t[--n] = 0;
        }
    }
    return n;
}

static size_t int_size(ordo_type t)
{
    return t == ORDO_TYPE_INT8 || t == ORDO_TYPE_UINT8     ? 1
           : t == ORDO_TYPE_INT16 || t == ORDO_TYPE_UINT16 ? 2
           : t == ORDO_TYPE_INT32 || t == ORDO_TYPE_UINT32 ? 4
                                                           : 8;
}

/* Element i of a caller's buffer of size-byte integers, sign-extended
 * (sign) or not: read byte-wise, as the C Data Interface does not promise
 * aligned buffers (a frame unpickled by Dask holds them at odd addresses). */
static uint64_t int_at(const void *base, size_t i, size_t size, int sign)
{
    const uint8_t *p = (const uint8_t *)base + size * i;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    uint64_t u64;
    switch (size) {
    case 1: memcpy(&i8, p, 1); return sign ? (uint64_t)(int64_t)i8 : (uint8_t)i8;
    case 2: memcpy(&i16, p, 2); return sign ? (uint64_t)(int64_t)i16 : (uint16_t)i16;
    case 4: memcpy(&i32, p, 4); return sign ? (uint64_t)(int64_t)i32 : (uint32_t)i32;
    default: memcpy(&u64, p, 8); return u64;
    }
}

ordo_status ordo_column_text(const ordo_column *col, const ordo_schema_column *c, size_t r,
                             ordo_buf *out, bool *is_null)
{
    if (!col || !c || !out || !is_null)
        return ORDO_ERR_NULL_ARG;
    if (col->type != c->type)
        return ORDO_ERR_BAD_TYPE;
    size_t i = col->offset + r;
    int null = col->validity && !((col->validity[i >> 3] >> (i & 7)) & 1);
    char text[ORDO_DECIMAL_TEXT_MAX];
    const char *p = text;
    size_t n = 0;
    switch (col->type) {
    case ORDO_TYPE_BOOL:
        p = (((const uint8_t *)col->values)[i >> 3] >> (i & 7)) & 1 ? "t" : "f", n = 1;
        break;
    case ORDO_TYPE_INT8:
    case ORDO_TYPE_INT16:
    case ORDO_TYPE_INT32:
    case ORDO_TYPE_INT64: {
        int64_t v = (int64_t)int_at(col->values, i, int_size(col->type), 1);
        n = (size_t)ordo__int_text(v, text);
        break;
    }
    case ORDO_TYPE_UINT8:
    case ORDO_TYPE_UINT16:
    case ORDO_TYPE_UINT32:
    case ORDO_TYPE_UINT64:
        n = (size_t)ordo__uint_text(int_at(col->values, i, int_size(col->type), 0), text);
        break;
    case ORDO_TYPE_FLOAT32:
    case ORDO_TYPE_FLOAT64: {
        int f32 = col->type == ORDO_TYPE_FLOAT32;
        double d;
        if (f32) {
            float f;
            memcpy(&f, (const uint8_t *)col->values + 4 * i, 4);
            d = f;
        } else {
            memcpy(&d, (const uint8_t *)col->values + 8 * i, 8);
        }
        if (d == 0) /* the key keeps no zero's sign; PostgreSQL's text does */
            p = signbit(d) ? "-0" : "0";
        else
            ordo__float_text(d, f32, text, sizeof text);
        n = strlen(p);
        break;
    }
    case ORDO_TYPE_DATE: {
        int32_t d;
        if (null) /* its bytes may be anything */
            break;
        memcpy(&d, (const uint8_t *)col->values + 4 * i, 4);
        if (d != ORDO_DATE_INFINITY && d != ORDO_DATE_NEG_INFINITY &&
            (d < ORDO_DATE_MIN || d >= ORDO_DATE_END)) /* as the key refuses it */
            return ORDO_ERR_OUT_OF_RANGE;
        ordo__pg_date_text(d, text, sizeof text);
        n = strlen(text);
        break;
    }
    case ORDO_TYPE_TIME_OF_DAY:
    case ORDO_TYPE_TIMESTAMP:
    case ORDO_TYPE_TIMESTAMPTZ: {
        int64_t us;
        if (null)
            break;
        memcpy(&us, (const uint8_t *)col->values + 8 * i, 8);
        if (col->type == ORDO_TYPE_TIME_OF_DAY) {
            if (us < 0 || us > ORDO_TIME_MAX)
                return ORDO_ERR_OUT_OF_RANGE;
            n = (size_t)ordo__time_text(us, text, sizeof text);
            break;
        }
        if (us != ORDO_TIMESTAMP_INFINITY && us != ORDO_TIMESTAMP_NEG_INFINITY &&
            (us < ORDO_TIMESTAMP_MIN || us >= ORDO_TIMESTAMP_END))
            return ORDO_ERR_OUT_OF_RANGE;
        ordo__timestamp_text(us, col->type == ORDO_TYPE_TIMESTAMPTZ, text, sizeof text);
        n = strlen(text);
        break;
    }
    case ORDO_TYPE_INTERVAL: {
        ordo_interval iv;
        memcpy(&iv, (const uint8_t *)col->values + i * sizeof iv, sizeof iv);
        n = interval_text(&iv, text);
        break;
    }
    case ORDO_TYPE_NUMERIC: {
        size_t w = ordo_numeric_layout_width(col->numeric_layout);
        if (!w) /* text: checked by its key */
            return ORDO_ERR_BAD_TYPE;
        n = ordo_decimal_text((const uint8_t *)col->values + w * i, w, col->numeric_scale, text,
                              sizeof text);
        break;
    }
    case ORDO_TYPE_UUID:
        n = (size_t)ordo__uuid_text((const uint8_t *)col->values + 16 * i, text);
        break;
    case ORDO_TYPE_STRING: {
        if (c->sql != ORDO_SQL_TEXT || c->collator || col->collator)
            return ORDO_ERR_BAD_TYPE; /* char(n), enums, collated text: from the key */
        int64_t a, b; /* checked as the key encoder checks them: a caller's buffers */
        if (col->offset_bits != 64 && col->offset_bits != 32)
            return ORDO_ERR_INVALID_ARG;
        a = (int64_t)int_at(col->offsets, i, col->offset_bits / 8, 1);
        b = (int64_t)int_at(col->offsets, i + 1, col->offset_bits / 8, 1);
        if (a < 0 || b < a)
            return ORDO_ERR_INVALID_VALUE;
        p = (const char *)col->values + a, n = (size_t)(b - a);
        break;
    }
    default: return ORDO_ERR_BAD_TYPE;
    }
    *is_null = null;
    return *is_null ? ORDO_OK : ordo_buf_append(out, p, n);
}
