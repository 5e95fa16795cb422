/* The decimal parser (ingest/parse_float.c) against strtod / strtof: on every
 * literal of its grammar, the same bits and the same overflow / underflow
 * verdict as PostgreSQL draws from errno; everything else is ORDO__PF_SYNTAX.
 * An input starting with '~' is mapped byte by byte onto a digit-heavy
 * alphabet, so that the fuzzer mostly writes valid, long literals; any other
 * input is the text itself. The text is never NUL-terminated for the parser. */
#include "fuzz_util.h"
#include "float_grammar.h"
#include "parse_float.h"

#include <errno.h>
#include <math.h>

static ordo__pf_status verdict(double v, int erange)
{
    return !erange ? ORDO__PF_OK : isinf(v) ? ORDO__PF_OVERFLOW : v == 0 ? ORDO__PF_UNDERFLOW : ORDO__PF_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char alpha[] = "0123456789000999555.eE+-";
    char *text = malloc(size + 1), *mapped = NULL;
    const char *s = (const char *)data;
    size_t n = size;
    if (size && data[0] == '~') {
        n = size - 1;
        mapped = malloc(n ? n : 1); /* exactly n bytes: an over-read is caught */
        for (size_t i = 0; i < n; i++)
            mapped[i] = alpha[data[i + 1] % (sizeof alpha - 1)];
        s = mapped;
    }
    double d = 0;
    float f = 0;
    ordo__pf_status sd = ordo__pf_parse_double(s, n, &d), sf = ordo__pf_parse_float(s, n, &f);
    if (!ref_decimal_literal(s, n)) {
        CHECK(sd == ORDO__PF_SYNTAX && sf == ORDO__PF_SYNTAX);
    } else {
        memcpy(text, s, n);
        text[n] = 0;
        char *end;
        errno = 0;
        double rd = strtod(text, &end);
        ordo__pf_status wd = verdict(rd, errno == ERANGE);
        CHECK(end == text + n);
        errno = 0;
        float rf = strtof(text, NULL);
        ordo__pf_status wf = verdict(rf, errno == ERANGE);
        CHECK(sd == wd && memcmp(&d, &rd, sizeof d) == 0);
        CHECK(sf == wf && memcmp(&f, &rf, sizeof f) == 0);
    }
    free(mapped);
    free(text);
    return 0;
}
