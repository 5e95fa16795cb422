/* Exact decimal-to-binary conversion for the CSV path: the correctly rounded
 * (round-to-nearest-even) double or float of a decimal literal, bit for bit
 * what glibc's strtod / strtof give, without their NUL-terminated copy.
 * Clinger's fast path, then Eisel-Lemire on a 128-bit power-of-five table
 * (with one exact division where it cannot decide): no fallback for up to
 * 19 significant digits; beyond, the rare texts the first 19 digits do not
 * decide go to strtod / strtof. */
#ifndef ORDO_INGEST_PARSE_FLOAT_H
#define ORDO_INGEST_PARSE_FLOAT_H

#include <stddef.h>

typedef enum ordo__pf_status {
    ORDO__PF_OK = 0,
    ORDO__PF_SYNTAX,    /* not [+-]digits[.digits][(e|E)[+-]digits] (one digit at least) */
    ORDO__PF_OVERFLOW,  /* rounds to infinity; *out is +-infinity */
    ORDO__PF_UNDERFLOW  /* non-zero digits that round to zero; *out is +-0 */
} ordo__pf_status;

/* Parses s[0, n): an optional sign, digits with an optional '.', at least one
 * digit, then an optional exponent; nothing else (no spaces, no hex, no
 * nan/inf words). Any n, any number of digits, any exponent. On ORDO__PF_OK,
 * ORDO__PF_OVERFLOW and ORDO__PF_UNDERFLOW *out is strtod's (strtof's) result for the
 * same text; on ORDO__PF_SYNTAX it is untouched. Zero digits give +-0 and ORDO__PF_OK. */
ordo__pf_status ordo__pf_parse_double(const char *s, size_t n, double *out);
ordo__pf_status ordo__pf_parse_float(const char *s, size_t n, float *out);

#endif
