/* The decimal literal grammar of PostgreSQL's float input as ordo reads
 * it, written plainly: [+-] digits [. digits] [(e|E) [+-] digits], with at
 * least one mantissa digit. The reference of test_parse_float_lib and
 * fuzz_float. */
#ifndef ORDO_FLOAT_GRAMMAR_H
#define ORDO_FLOAT_GRAMMAR_H

#include <stddef.h>

static int ref_is_digit(char c) { return c >= '0' && c <= '9'; }

static int ref_decimal_literal(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    for (; i < n && ref_is_digit(s[i]); i++)
        digits++;
    if (i < n && s[i] == '.')
        for (i++; i < n && ref_is_digit(s[i]); i++)
            digits++;
    if (!digits)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i == n || !ref_is_digit(s[i]))
            return 0;
        while (i < n && ref_is_digit(s[i]))
            i++;
    }
    return i == n;
}

#endif
