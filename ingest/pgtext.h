/* PostgreSQL's text forms of values, as COPY ... (FORMAT csv) writes them.
 * Each parser takes the field's bytes (not NUL-terminated) and returns NULL
 * on success or a constant message saying what is wrong. */
#ifndef ORDO_INGEST_PGTEXT_H
#define ORDO_INGEST_PGTEXT_H

#include "ordo.h"

#include <stddef.h>
#include <stdint.h>

const char *ordo__pg_parse_bool(const char *s, size_t n, int *out);
/* A decimal integer in [min, max]. */
const char *ordo__pg_parse_int(const char *s, size_t n, int64_t min, int64_t max, int64_t *out);
const char *ordo__pg_parse_uint(const char *s, size_t n, uint64_t max, uint64_t *out);
/* Decimal or exponent literal, NaN, Infinity, -Infinity (any case, also inf). */
const char *ordo__pg_parse_double(const char *s, size_t n, double *out);
const char *ordo__pg_parse_float(const char *s, size_t n, float *out);
/* bytea's hex form \x0a1b...; *len is the decoded length, out has n/2 bytes. */
const char *ordo__pg_parse_bytea(const char *s, size_t n, uint8_t *out, size_t *len);
/* 8-4-4-4-12 hex digits, or 32 hex digits, optionally in braces. */
const char *ordo__pg_parse_uuid(const char *s, size_t n, uint8_t out[16]);

/* Dates and timestamps: proleptic Gregorian, "BC" suffix, infinities. */
typedef struct ordo__pg_instant {
    int infinite;     /* 0, 1 (infinity) or -1 (-infinity) */
    int64_t days;     /* since 1970-01-01 */
    int64_t micros;   /* within the day, after applying the offset: may leave [0, 1 day) */
    int32_t nanos;    /* beyond the microseconds (0..999), from digits 7 to 9 */
    int has_offset;
    int32_t offset_s; /* seconds east of UTC */
} ordo__pg_instant;

const char *ordo__pg_parse_date(const char *s, size_t n, ordo__pg_instant *out);
/* with_tz: 1 requires an offset (timestamptz), 0 forbids one (timestamp). */
const char *ordo__pg_parse_timestamp(const char *s, size_t n, int with_tz, ordo__pg_instant *out);
/* The instant as Unix nanoseconds; 0 when it is infinite or out of range. */
int ordo__pg_instant_unix_ns(const ordo__pg_instant *t, int64_t *ns);

/* PostgreSQL time: HH:MM:SS[.ffffff] to microseconds, 24:00:00 allowed. */
const char *ordo__pg_parse_time(const char *s, size_t n, int64_t *micros);
/* PostgreSQL timetz: HH:MM:SS[.ffffff]+HH[:MM[:SS]]; *east in seconds. */
const char *ordo__pg_parse_timetz(const char *s, size_t n, int64_t *micros, int32_t *east);
/* inet / cidr text: an IPv4 or IPv6 address, optionally /bits (inet
 * without bits is a host: /32 or /128). cidr needs clear host bits. */
const char *ordo__pg_parse_inet(const char *s, size_t n, int cidr, ordo_inet *out);
/* A decimal integer of up to 128 bits (hugeint): high and low halves. */
const char *ordo__pg_parse_int128(const char *s, size_t n, int64_t *hi, uint64_t *lo);
/* interval as PostgreSQL writes it (IntervalStyle postgres):
 * [N year[s]] [N mon[s]] [N day[s]] [[+|-]HH:MM:SS[.ffffff]], or infinity. */
const char *ordo__pg_parse_interval(const char *s, size_t n, int32_t *months, int32_t *days,
                              int64_t *micros);
/* macaddr (6 bytes) or macaddr8 (8) in the colon form PostgreSQL writes. */
const char *ordo__pg_parse_mac(const char *s, size_t n, uint8_t *out, size_t bytes);
/* pg_lsn: two hex numbers, XXX/YYY. */
const char *ordo__pg_parse_lsn(const char *s, size_t n, uint64_t *lsn);

/* Text forms shared by the printers of ordered and LexKey keys
 * (float_text.c, print.c): a double or float as ordo_float64_text and
 * ordo_float32_text write it, but cut to cap - 1 bytes as snprintf cuts
 * (returns the whole length); and YYYY-MM-DD of days since 2000-01-01 (*bc
 * set for years before 1; returns the length). */
size_t ordo__float_text(double d, int is_float, char *out, size_t cap);
int ordo__date_text(int64_t days2000, char *out, size_t cap, int *bc);
/* PostgreSQL's text (print.c, as COPY writes it) of a date (days since
 * 2000-01-01, its infinities, " BC"), a time of day (microseconds since
 * midnight: HH:MM:SS[.ffffff], returns the length) and a timestamp
 * (microseconds since 2000, its infinities; tz: with "+00"), into
 * out[0..cap) as snprintf writes (64 bytes suffice). */
void ordo__pg_date_text(int64_t days2000, char *out, size_t cap);
int ordo__time_text(int64_t us, char *out, size_t cap);
void ordo__timestamp_text(int64_t us, int tz, char *out, size_t cap);
/* An integer's decimal text at out (room for 21 bytes and a NUL);
 * returns the length (column_text.c). */
int ordo__int_text(int64_t v, char *out);
int ordo__uint_text(uint64_t v, char *out);
/* A uuid's 16 bytes as its text, 8-4-4-4-12 lowercase hex digits, at out
 * (room for 36 bytes and a NUL); returns 36 (column_text.c). */
int ordo__uuid_text(const uint8_t raw[16], char *out);

#endif
