/* Exact decimal-to-binary conversion for the CSV path: the correctly rounded
 * (round-to-nearest-even) double or float of a decimal literal, bit for bit
 * what glibc's strtod / strtof give, without their NUL-terminated copy.
 * Clinger's fast path, then Eisel-Lemire on a 128-bit power-of-five table;
 * the rare cases neither can decide go to strtod / strtof. */
#ifndef ORDO_PARSE_FLOAT_H
#define ORDO_PARSE_FLOAT_H

#include <stddef.h>

typedef enum pf_status {
    PF_OK = 0,
    PF_SYNTAX,    /* not [+-]digits[.digits][(e|E)[+-]digits] (one digit at least) */
    PF_OVERFLOW,  /* rounds to infinity; *out is +-infinity */
    PF_UNDERFLOW  /* non-zero digits that round to zero; *out is +-0 */
} pf_status;

/* Parses s[0, n): an optional sign, digits with an optional '.', at least one
 * digit, then an optional exponent; nothing else (no spaces, no hex, no
 * nan/inf words). Any n, any number of digits, any exponent. On PF_OK,
 * PF_OVERFLOW and PF_UNDERFLOW *out is strtod's (strtof's) result for the
 * same text; on PF_SYNTAX it is untouched. Zero digits give +-0 and PF_OK. */
pf_status pf_parse_double(const char *s, size_t n, double *out);
pf_status pf_parse_float(const char *s, size_t n, float *out);

#endif
