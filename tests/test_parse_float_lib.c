/* ingest/parse_float.c against glibc's strtod / strtof, bit for bit, with the
 * same overflow / underflow classification PostgreSQL makes from errno, on a
 * few million generated literals: random shapes, printed doubles and floats,
 * exact midpoints between neighbours (and just above, just below, cut
 * short), exact ties the fast path must round to even, and the edges of both
 * formats. The portable 64x64-bit multiply is checked on every input too, and
 * the power-of-five table against bignums. ordo__pg_parse_double / ordo__pg_parse_float
 * keep the messages and the accepted syntax of the strtod code they replace
 * (kept below as the reference). Every parsed text is followed in memory by
 * a digit, so reading past its end changes the result. */
#include "ordo_test.h"

#include "float_grammar.h"
#include "parse_float.h"
#include "pgtext.h"
#include "pow5_table.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <strings.h>

/* Texts the portable copy below sent to strtod / strtof. */
static unsigned long g_fallbacks;

/* The same parser with the portable multiply instead of __int128, its
 * fallbacks counted. */
#define PF_FALLBACK_HOOK() (g_fallbacks++)
#define PF_NO_INT128
#define ordo__pf_parse_double pf_parse_double_portable
#define ordo__pf_parse_float pf_parse_float_portable
#include "parse_float.c"
#undef ordo__pf_parse_double
#undef ordo__pf_parse_float

static uint64_t g_seed;
static unsigned long g_checked;

/* Each test draws from its own stream, so one test alone reproduces. */
static uint64_t stream(unsigned id)
{
    uint64_t s = g_seed ^ (UINT64_C(0x9e3779b97f4a7c15) * (id + 1));
    return s ? s : 1;
}

static uint64_t below(uint64_t *r, uint64_t n) { return t_rand(r) % n; }

/* ------------------------------------------------------------ comparison */

static ordo__pf_status ref_status(double v, int erange)
{
    if (!erange)
        return ORDO__PF_OK;
    return isinf(v) ? ORDO__PF_OVERFLOW : v == 0 ? ORDO__PF_UNDERFLOW : ORDO__PF_OK;
}

static const char *status_name(ordo__pf_status s)
{
    static const char *names[] = {"ok", "syntax", "overflow", "underflow"};
    return names[s];
}

/* Digits from the first nonzero one to the last nonzero one, before any
 * exponent: the parser's fast path takes at most 19 of them. */
static size_t significant_digits(const char *s, size_t n)
{
    size_t first = n, last = 0;
    for (size_t i = 0; i < n && s[i] != 'e' && s[i] != 'E'; i++)
        if (s[i] >= '1' && s[i] <= '9') {
            if (first == n)
                first = i;
            last = i;
        }
    if (first == n)
        return 0;
    size_t k = 0;
    for (size_t i = first; i <= last; i++)
        k += s[i] >= '0' && s[i] <= '9';
    return k;
}

/* str is NUL-terminated, n = strlen(str). */
static void check_n(const char *str, size_t n)
{
    static char *buf;
    static size_t cap;
    if (n + 2 > cap) {
        cap = 2 * (n + 2);
        buf = realloc(buf, cap);
        assert_non_null(buf);
    }
    memcpy(buf, str, n);
    buf[n] = '7'; /* a digit right after the text */
    buf[n + 1] = 0;

    char *end;
    errno = 0;
    double rd = strtod(str, &end);
    int rd_range = errno == ERANGE;
    if (end != str + n)
        fail_msg("generator bug: strtod stops early in \"%s\"", str);
    errno = 0;
    float rf = strtof(str, NULL);
    int rf_range = errno == ERANGE;

    double d = -1, dp = -1;
    float f = -1, fp = -1;
    unsigned long fallbacks = g_fallbacks;
    ordo__pf_status sd = ordo__pf_parse_double(buf, n, &d), sdp = pf_parse_double_portable(buf, n, &dp);
    ordo__pf_status sf = ordo__pf_parse_float(buf, n, &f), sfp = pf_parse_float_portable(buf, n, &fp);
    if (g_fallbacks != fallbacks && significant_digits(str, n) <= 19)
        fail_msg("\"%s\" (at most 19 significant digits) went to the fallback", str);
    ordo__pf_status wd = ref_status(rd, rd_range), wf = ref_status(rf, rf_range);
    if (sd != wd || memcmp(&d, &rd, sizeof d) != 0)
        fail_msg("double \"%s\": got %a (%s), strtod %a (%s); ORDO_TEST_SEED=0x%" PRIx64, str, d,
                 status_name(sd), rd, status_name(wd), g_seed);
    if (sf != wf || memcmp(&f, &rf, sizeof f) != 0)
        fail_msg("float \"%s\": got %a (%s), strtof %a (%s); ORDO_TEST_SEED=0x%" PRIx64, str,
                 (double)f, status_name(sf), (double)rf, status_name(wf), g_seed);
    if (sdp != sd || memcmp(&d, &dp, sizeof d) != 0 || sfp != sf || memcmp(&f, &fp, sizeof f) != 0)
        fail_msg("portable multiply differs on \"%s\"; ORDO_TEST_SEED=0x%" PRIx64, str, g_seed);
    g_checked++;
}

static void check(const char *str) { check_n(str, strlen(str)); }

/* ------------------------------------------------- rendering digit strings */

/* A growable string. */
typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = 2 * (b->n + n + 1);
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void sb_str(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

static void sb_rep(sbuf *b, char c, size_t k)
{
    for (size_t i = 0; i < k; i++)
        sb_put(b, &c, 1);
}

static void sb_exp(sbuf *b, uint64_t *r, int64_t x)
{
    char tmp[40];
    const char *plus = x >= 0 && below(r, 3) == 0 ? "+" : "";
    const char *zeros = below(r, 8) == 0 ? "00" : "";
    snprintf(tmp, sizeof tmp, "%c%s%s%" PRId64, below(r, 4) ? 'e' : 'E', plus,
             x < 0 ? "-" : "", x < 0 ? -x : x);
    /* leading zeros in the exponent go after the sign */
    size_t at = 1 + strlen(plus) + (x < 0);
    sb_put(b, tmp, at);
    sb_str(b, zeros);
    sb_str(b, tmp + at);
}

/* Checks the value digits * 10^x (digits: at least one, no sign) written in a
 * randomly chosen form: DIGITSe<x>, d.ddde<x'>, or positional with leading
 * or trailing zeros, with or without a sign, and optionally with the
 * digits' trailing zeros moved into the exponent. */
static void emit(uint64_t *r, const char *digits, int64_t x, int neg)
{
    size_t L = strlen(digits);
    while (L > 1 && digits[L - 1] == '0' && below(r, 2))
        L--, x++;
    sbuf b = {0};
    sb_str(&b, neg ? "-" : below(r, 6) == 0 ? "+" : "");
    int64_t dp = (int64_t)L + x; /* the point's place, counted from the first digit */
    int form = (int)below(r, 3);
    if (form == 2 && (dp < -60 || dp > (int64_t)L + 60))
        form = (int)below(r, 2);
    if (below(r, 10) == 0)
        sb_rep(&b, '0', below(r, 4));
    if (form == 0) {
        sb_put(&b, digits, L);
        if (x != 0 || below(r, 2))
            sb_exp(&b, r, x);
    } else if (form == 1) {
        sb_put(&b, digits, 1);
        if (L > 1 || below(r, 3) == 0)
            sb_str(&b, ".");
        sb_put(&b, digits + 1, L - 1);
        sb_exp(&b, r, dp - 1);
    } else if (dp <= 0) {
        sb_str(&b, below(r, 3) ? "0." : ".");
        sb_rep(&b, '0', (size_t)-dp);
        sb_put(&b, digits, L);
    } else if (dp < (int64_t)L) {
        sb_put(&b, digits, (size_t)dp);
        sb_str(&b, ".");
        sb_put(&b, digits + dp, L - (size_t)dp);
    } else {
        sb_put(&b, digits, L);
        sb_rep(&b, '0', (size_t)(dp - (int64_t)L));
        if (below(r, 3) == 0)
            sb_str(&b, below(r, 2) ? "." : ".000");
    }
    check_n(b.p, b.n);
    free(b.p);
}

/* Decrements / increments a digit string in place (it may gain or lose a
 * digit: "100" - 1 = "099" is kept, leading zeros are fine). */
static void dec_digits(char *d)
{
    size_t i = strlen(d);
    while (i-- > 0) {
        if (d[i] != '0') {
            d[i]--;
            return;
        }
        d[i] = '9';
    }
}

/* d needs room for one more digit. */
static void inc_digits(char *d)
{
    size_t L = strlen(d), i = L;
    while (i-- > 0) {
        if (d[i] != '9') {
            d[i]++;
            return;
        }
        d[i] = '0';
    }
    memmove(d + 1, d, L + 1);
    d[0] = '1';
}

/* --------------------------------------- exact decimals of N * 2^E (base 1e9) */

typedef struct dbig {
    uint32_t d[160]; /* little-endian base-10^9 limbs: 1440 digits */
    int n;
} dbig;

static void dbig_set(dbig *b, uint64_t v)
{
    b->n = 0;
    do {
        b->d[b->n++] = (uint32_t)(v % 1000000000u);
        v /= 1000000000u;
    } while (v);
}

static void dbig_mul(dbig *b, uint32_t m) /* m < 2^31 */
{
    uint64_t carry = 0;
    for (int i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->d[i] * m + carry;
        b->d[i] = (uint32_t)(t % 1000000000u);
        carry = t / 1000000000u;
    }
    while (carry) {
        assert_true(b->n < 160);
        b->d[b->n++] = (uint32_t)(carry % 1000000000u);
        carry /= 1000000000u;
    }
}

/* N * 2^E as digits * 10^x, exactly. out holds 1500 chars. */
static void exact_decimal(uint64_t N, int E, char *out, int64_t *x)
{
    dbig b;
    dbig_set(&b, N);
    if (E >= 0) {
        for (; E >= 29; E -= 29)
            dbig_mul(&b, UINT32_C(1) << 29);
        dbig_mul(&b, UINT32_C(1) << E);
        *x = 0;
    } else {
        *x = E; /* 2^E = 5^-E / 10^-E */
        int k = -E;
        for (; k >= 13; k -= 13)
            dbig_mul(&b, 1220703125u); /* 5^13 */
        uint32_t p = 1;
        while (k--)
            p *= 5;
        dbig_mul(&b, p);
    }
    int at = sprintf(out, "%" PRIu32, b.d[b.n - 1]);
    for (int i = b.n - 2; i >= 0; i--)
        at += sprintf(out + at, "%09" PRIu32, b.d[i]);
}

/* The midpoint N * 2^E (N odd) and its neighbourhood: just below and just
 * above it (last digit -1, one more digit 1, now and then a 1 beyond the
 * 800 digits the fallback's copy keeps), and the digits cut to 17..25 and 40
 * places (at or below it) and that cut plus one in the last place. */
static void emit_midpoint(uint64_t *r, uint64_t N, int E)
{
    static char digits[1600], tmp[1600];
    int64_t x;
    int neg = below(r, 4) == 0;
    exact_decimal(N, E, digits, &x);
    size_t L = strlen(digits);
    emit(r, digits, x, neg);
    strcpy(tmp, digits);
    dec_digits(tmp);
    emit(r, tmp[0] == '0' && tmp[1] ? tmp + 1 : tmp, x, neg);
    strcpy(tmp, digits);
    strcat(tmp, "1");
    emit(r, tmp, x - 1, neg);
    if (below(r, 4) == 0) { /* above it by a 1 after the 850th digit */
        memset(tmp + L, '0', 850 - L);
        strcpy(tmp + 850, "1");
        emit(r, tmp, x - (int64_t)(851 - L), neg);
    }
    static const size_t cuts[] = {17, 18, 19, 20, 21, 25, 40};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        size_t c = cuts[i];
        if (L <= c || below(r, 2))
            continue;
        memcpy(tmp, digits, c);
        tmp[c] = 0;
        emit(r, tmp, x + (int64_t)(L - c), neg);
        inc_digits(tmp);
        emit(r, tmp, x + (int64_t)(L - c), neg); /* "99" + 1 = "100": same scale */
    }
}

/* The midpoint between the positive finite double (float) with these bits and
 * the next one up: the overflow threshold for the largest finite value. */
static void midpoint_double(uint64_t *r, uint64_t bits)
{
    uint64_t frac = bits & ((UINT64_C(1) << 52) - 1);
    int ef = (int)(bits >> 52 & 0x7ff);
    uint64_t M = ef ? frac | UINT64_C(1) << 52 : frac;
    int e = ef ? ef - 1075 : -1074;
    emit_midpoint(r, 2 * M + 1, e - 1);
}

static void midpoint_float(uint64_t *r, uint32_t bits)
{
    uint64_t frac = bits & ((UINT32_C(1) << 23) - 1);
    int ef = (int)(bits >> 23 & 0xff);
    uint64_t M = ef ? frac | UINT64_C(1) << 23 : frac;
    int e = ef ? ef - 150 : -149;
    emit_midpoint(r, 2 * M + 1, e - 1);
}

/* ------------------------------------------------------------------ tests */

/* Hand-picked edges, each also with a sign. */
static void edges(void **state)
{
    (void)state;
    /* The exact largest double, overflow threshold and half the smallest
     * subnormal, with their neighbours, are in boundaries. */
    static const char *v[] = {
        "0", "0.0", ".0", "0.", "00000", "0e0", "0e999999", "0e-999999",
        "0.000e99999999999999999999", "1", "0.5", "-123456.789012", "123456.789012", "1e0",
        "1E+0", "1e-0", "5.", ".5", "1e-400", "1e+400", "1e400", "1e99999999999999999999",
        "1e-99999999999999999999", "9e-99999999999999999999",
        "1e+00000000000000000000000000000005", "1e-0000000000000000000005",
        /* the largest double, and above */
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1e308",
        "1e309", "9.9999999999999999e307",
        /* smallest normal, largest subnormal, smallest subnormal, half of it */
        "2.2250738585072014e-308", "2.2250738585072011e-308", "2.2250738585072012e-308",
        "2.2250738585072009e-308", "4.9406564584124654e-324", "5e-324", "4.9e-324", "3e-324",
        "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-323", "1e-324", "1e-325",
        /* floats: largest, overflow threshold, smallest normal and subnormal */
        "3.4028235e38", "3.40282347e38", "3.4028236e38",
        "3.40282356779733661637539395458142568448e38",
        "3.40282356779733661637539395458142568447e38",
        "3.40282356779733661637539395458142568449e38",
        "1.17549435e-38", "1.1754942e-38", "1.4e-45", "1.401298464324817e-45", "7e-46", "7.1e-46",
        "7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743e-46",
        "7.00649232162408535461864791644958065640130970938257885878534141944895541342930300744e-46",
        "1e-45", "1e-46", "1e39", "1e38",
        /* ties: 2^53 + 1, 2^24 + 1 and others with few digits */
        "9007199254740993", "9007199254740993.0", "9007199254740993.00000000000000000000000001",
        "9007199254740992.99999999999999999999999999", "9007199254740995", "18014398509481986",
        "18014398509481990", "16777217", "16777217.0", "16777219", "33554434",
        "4503599627370496.5", "4503599627370497.5", "2251799813685248.25", "2251799813685248.75",
        "1125899906842624.125", "562949953421312.0625", "8388608.5", "8388609.5", "4194304.25",
        "0.500000000000000166533453693773481063544750213623046875",
        /* many digits, leading and trailing zeros */
        "123456789012345678901234567890", "1234567890123456789", "12345678901234567890",
        "99999999999999999999", "999999999999999999999999999999e-30",
        "0.1000000000000000055511151231257827",
        "0.100000000000000005551115123125782702118158340454101562",
        "0.1000000000000000055511151231257827021181583404541015625",
        "0.1000000000000000055511151231257827021181583404541015626",
        "00000000000000000000000000001.5", "1.50000000000000000000000000000000000000000000000",
        "0.000000000000000000000000000000000000000001",
        "100000000000000000000000000000000000000000000000000000000000000000000000000000e-78",
        "7.2057594037927933e16", "3.0517578125e-5", "2.98023223876953125E-8",
        "1.8446744073709551615e19", "18446744073709551615", "18446744073709551616",
        "10000000000000000000", "9999999999999999999", "4.35e-44", "1e22", "1e23", "1e-22",
        "9007199254740992e22", "9007199254740993e-22", "1e-5", "16777216e10", "16777217e-10",
        "1.00000005960464477550", "1.0000000596046447755", "1.00000005960464477539",
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char tmp[1600];
        check(v[i]);
        if (v[i][0] == '-')
            continue;
        snprintf(tmp, sizeof tmp, "-%s", v[i]);
        check(tmp);
        snprintf(tmp, sizeof tmp, "+%s", v[i]);
        check(tmp);
    }
}

/* Powers of two across both ranges with the midpoints next to them (where
 * the spacing changes), the format limits, and the subnormal range. */
static void boundaries(void **state)
{
    (void)state;
    uint64_t r = stream(1);
    for (uint64_t ef = 0; ef < 2047; ef++) {
        uint64_t p = ef << 52;
        midpoint_double(&r, p);
        if (ef)
            midpoint_double(&r, p - 1);
        midpoint_double(&r, p | ((UINT64_C(1) << 52) - 1));
    }
    for (uint32_t ef = 0; ef < 255; ef++) {
        uint32_t p = ef << 23;
        midpoint_float(&r, p);
        if (ef)
            midpoint_float(&r, p - 1);
        midpoint_float(&r, p | ((UINT32_C(1) << 23) - 1));
    }
    for (uint64_t k = 0; k < 3000; k++) { /* subnormals */
        midpoint_double(&r, k < 1500 ? k : below(&r, UINT64_C(1) << 52));
        midpoint_float(&r, (uint32_t)(k < 1500 ? k : below(&r, UINT32_C(1) << 23)));
    }
    print_message("boundaries: %lu literals\n", g_checked);
}

/* Random decimal literals of many shapes: 1-25 significant digits (now and
 * then up to 700), digit patterns with runs of 0 and 9, leading and trailing
 * zeros, the point anywhere, exponents across and beyond both ranges. */
static void random_shapes(void **state)
{
    (void)state;
    uint64_t r = stream(2);
    char digits[800];
    unsigned long start = g_checked;
    for (int iter = 0; iter < 1200000; iter++) {
        size_t L = 1 + below(&r, 25);
        if (below(&r, 50) == 0)
            L = 26 + below(&r, 60);
        if (below(&r, 2000) == 0)
            L = 100 + below(&r, 600);
        int pattern = (int)below(&r, 8);
        for (size_t i = 0; i < L; i++) {
            char c = (char)('0' + below(&r, 10));
            if (pattern == 1)
                c = i ? '0' : c;
            else if (pattern == 2)
                c = '9';
            else if (pattern == 3 && below(&r, 4))
                c = below(&r, 2) ? '0' : '9';
            digits[i] = c;
        }
        if (digits[0] == '0')
            digits[0] = (char)('1' + below(&r, 9));
        if (pattern == 4 && L > 19) /* zeros after the 19 digits the fast path keeps */
            memset(digits + 19, '0', L - 19);
        digits[L] = 0;
        /* the value's decimal magnitude: mostly in range, sometimes beyond */
        int64_t mag = (int64_t)below(&r, 700) - 360;
        uint64_t pick = below(&r, 100);
        if (pick < 5)
            mag = (int64_t)below(&r, 40) - 20;
        else if (pick < 8)
            mag = (int64_t)below(&r, 30) + (below(&r, 2) ? -330 : 295);
        else if (pick < 10)
            mag = (int64_t)below(&r, 30) + (below(&r, 2) ? -55 : 30);
        else if (pick == 10)
            mag = (int64_t)(t_rand(&r) >> 4) * (below(&r, 2) ? 1 : -1);
        emit(&r, digits, mag - (int64_t)L, below(&r, 3) == 0);
    }
    print_message("random shapes: %lu literals\n", g_checked - start);
}

static double rand_double(uint64_t *r)
{
    double d;
    uint64_t u;
    switch (below(r, 4)) {
    case 0: /* decimal-looking: an integer scaled by a power of ten */
        d = (double)(t_rand(r) >> below(r, 64)) * pow(10, (double)((int)below(r, 40) - 20));
        break;
    case 1: /* uniform in the exponent */
        u = t_rand(r) >> 12 | (below(r, 2047) << 52);
        memcpy(&d, &u, sizeof d);
        break;
    default:
        do
            u = t_rand(r) & ~(UINT64_C(1) << 63);
        while ((u >> 52) == 0x7ff);
        memcpy(&d, &u, sizeof d);
    }
    return d;
}

/* Random doubles and floats as printf writes them: %.17g / %.9g (round
 * trip), %.1g .. %.25g, %.Ne and %.Nf. */
static void printed(void **state)
{
    (void)state;
    uint64_t r = stream(3);
    char s[800];
    unsigned long start = g_checked;
    for (int iter = 0; iter < 700000; iter++) {
        int single = iter % 3 == 2;
        double d = single ? (double)(float)rand_double(&r) : rand_double(&r);
        if (single && (isinf(d) || (d == 0 && below(&r, 2)))) {
            uint32_t u = (uint32_t)t_rand(&r) & 0x7f7fffffu;
            float f;
            memcpy(&f, &u, sizeof f);
            d = f;
        }
        if (below(&r, 2))
            d = -d;
        int p = 1 + (int)below(&r, 25);
        switch (below(&r, 6)) {
        case 0:
            snprintf(s, sizeof s, single ? "%.9g" : "%.17g", d);
            break;
        case 1:
        case 2:
            snprintf(s, sizeof s, "%.*g", p, d);
            break;
        case 3:
            snprintf(s, sizeof s, below(&r, 2) ? "%.*e" : "%.*E", p - 1, d);
            break;
        case 4:
            snprintf(s, sizeof s, "%.*G", p, d);
            break;
        default:
            if (fabs(d) > 1e60 || (fabs(d) < 1e-30 && d != 0))
                snprintf(s, sizeof s, "%.*g", p, d);
            else
                snprintf(s, sizeof s, "%.*f", (int)below(&r, 40), d);
        }
        check(s);
    }
    print_message("printed: %lu literals\n", g_checked - start);
}

/* Exact midpoints between random neighbours, with their neighbourhood. */
static void midpoints(void **state)
{
    (void)state;
    uint64_t r = stream(4);
    unsigned long start = g_checked;
    for (int iter = 0; iter < 12000; iter++) {
        uint64_t ef;
        switch (below(&r, 4)) {
        case 0:
            ef = below(&r, 2047);
            break;
        case 1: /* exponents with short midpoints (ties the fast path sees) */
            ef = 1023 + 40 + below(&r, 40);
            break;
        case 2:
            ef = 1023 - 10 + below(&r, 60);
            break;
        default:
            ef = below(&r, 2) ? below(&r, 40) : 2046 - below(&r, 40);
        }
        midpoint_double(&r, ef << 52 | t_rand(&r) >> 12);
    }
    for (int iter = 0; iter < 40000; iter++) {
        uint32_t ef;
        switch (below(&r, 3)) {
        case 0:
            ef = (uint32_t)below(&r, 255);
            break;
        case 1:
            ef = 127 + 10 + (uint32_t)below(&r, 50);
            break;
        default:
            ef = below(&r, 2) ? (uint32_t)below(&r, 20) : 254 - (uint32_t)below(&r, 20);
        }
        midpoint_float(&r, ef << 23 | (uint32_t)(t_rand(&r) >> 41));
    }
    print_message("midpoints: %lu literals\n", g_checked - start);
}

/* Exact ties written with few digits: N * 2^E with N odd of 54 (25) bits and
 * N a multiple of 5^k, so that the decimal form has trailing zeros to move
 * into the exponent (q > 0), or E in [-4, -1] ([-17, -1]) for q < 0. */
static void short_ties(void **state)
{
    (void)state;
    uint64_t r = stream(5);
    unsigned long start = g_checked;
    for (int iter = 0; iter < 60000; iter++) {
        int single = iter % 2;
        int bits = single ? 25 : 54;
        int k = (int)below(&r, single ? 11 : 24);
        uint64_t p5 = 1;
        for (int i = 0; i < k; i++)
            p5 *= 5;
        uint64_t lo = ((UINT64_C(1) << (bits - 1)) + p5 - 1) / p5, hi = (UINT64_C(1) << bits) / p5;
        uint64_t m = (lo + below(&r, hi > lo ? hi - lo : 1)) | 1;
        uint64_t N = m * p5;
        if (N < UINT64_C(1) << (bits - 1) || N >= UINT64_C(1) << bits)
            continue;
        int E = below(&r, 3) ? k + (int)below(&r, 8) : -1 - (int)below(&r, single ? 17 : 4);
        emit_midpoint(&r, N, E);
    }
    print_message("short ties: %lu literals\n", g_checked - start);
}

/* --------------------------------------------------- the power-of-5 table */

/* Little-endian 32-bit limbs, enough for 5^342 * 2^128. */
typedef struct bbig {
    uint32_t d[48];
} bbig;

static void bb_mul_small(bbig *b, uint32_t m)
{
    uint64_t carry = 0;
    for (int i = 0; i < 48; i++) {
        uint64_t t = (uint64_t)b->d[i] * m + carry;
        b->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    assert_int_equal(carry, 0);
}

static void bb_shl(bbig *b, int k)
{
    bbig o = {{0}};
    for (int i = 0; i < 48 * 32; i++)
        if (b->d[i / 32] >> (i % 32) & 1) {
            assert_true(i + k < 48 * 32);
            o.d[(i + k) / 32] |= UINT32_C(1) << ((i + k) % 32);
        }
    *b = o;
}

static int bb_cmp(const bbig *a, const bbig *b)
{
    for (int i = 47; i >= 0; i--)
        if (a->d[i] != b->d[i])
            return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

static bbig bb_u128(uint64_t hi, uint64_t lo)
{
    bbig b = {{(uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi, (uint32_t)(hi >> 32)}};
    return b;
}

static bbig bb_mul(const bbig *a, const bbig *b)
{
    bbig o = {{0}};
    for (int i = 0; i < 48; i++) {
        uint64_t carry = 0;
        for (int j = 0; i + j < 48; j++) {
            uint64_t t = (uint64_t)a->d[i] * b->d[j] + o.d[i + j] + carry;
            o.d[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
    }
    return o;
}

static void bb_add(bbig *a, const bbig *b)
{
    uint64_t carry = 0;
    for (int i = 0; i < 48; i++) {
        uint64_t t = (uint64_t)a->d[i] + b->d[i] + carry;
        a->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
}

/* Every entry is floor(5^q / 2^e), e = pf_pow5_exp(q), in [2^127, 2^128),
 * and exact exactly for q in [0, PF_POW5_EXACT_MAX]. */
static void pow5_table(void **state)
{
    (void)state;
    assert_int_equal(PF_POW5_MAX_Q - PF_POW5_MIN_Q + 1, sizeof ordo__pow5 / sizeof ordo__pow5[0]);
    for (int q = PF_POW5_MIN_Q; q <= PF_POW5_MAX_Q; q++) {
        const uint64_t *t = ordo__pow5[q - PF_POW5_MIN_Q];
        int e = pf_pow5_exp(q);
        assert_true(t[0] >> 63);
        bbig p5 = {{1}}, T = bb_u128(t[0], t[1]), T1 = T, one = {{1}};
        bb_add(&T1, &one);
        for (int i = 0; i < (q < 0 ? -q : q); i++)
            bb_mul_small(&p5, 5);
        if (q >= 0 && e <= 0) { /* exact: 5^q << -e == T */
            assert_true(q <= PF_POW5_EXACT_MAX);
            bb_shl(&p5, -e);
            assert_int_equal(bb_cmp(&p5, &T), 0);
        } else if (q >= 0) { /* T << e <= 5^q < (T + 1) << e, never equal */
            assert_true(q > PF_POW5_EXACT_MAX);
            bb_shl(&T, e);
            bb_shl(&T1, e);
            assert_true(bb_cmp(&T, &p5) < 0 && bb_cmp(&p5, &T1) < 0);
        } else { /* T * 5^-q < 2^-e < (T + 1) * 5^-q */
            bbig two = {{1}}, lo = bb_mul(&T, &p5), hi = bb_mul(&T1, &p5);
            assert_true(e < 0);
            bb_shl(&two, -e);
            assert_true(bb_cmp(&lo, &two) < 0 && bb_cmp(&two, &hi) < 0);
        }
    }
}

/* ---------------------------------------- ordo__pg_parse_double / ordo__pg_parse_float */

/* The code these replaced (ingest/pgtext.c before parse_float.c), as the
 * reference for messages, accepted syntax and values. */
static int ref_word_is(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && strncasecmp(s, w, n) == 0;
}

static int ref_float_text(const char *s, size_t n, char *buf, int *special)
{
    size_t i = 0;
    *special = 0;
    if (n == 0)
        return 0;
    memcpy(buf, s, n);
    buf[n] = 0;
    if (s[0] == '+' || s[0] == '-')
        i++;
    if (ref_word_is(s + i, n - i, "nan") || ref_word_is(s + i, n - i, "inf") ||
        ref_word_is(s + i, n - i, "infinity")) {
        *special = 1;
        return 1;
    }
    return ref_decimal_literal(s, n);
}

/* Any length (the 512-byte copy's limit went with issue #13 item 12). */
static const char *ref_pg_double(const char *s, size_t n, double *out)
{
    char *buf = malloc(n + 1);
    int special;
    assert_non_null(buf);
    const char *e = NULL;
    if (!ref_float_text(s, n, buf, &special)) {
        e = "expected a number, NaN, Infinity or -Infinity";
    } else {
        errno = 0;
        double d = strtod(buf, NULL);
        if (!special && errno == ERANGE && (d == 0 || isinf(d)))
            e = "out of range for double precision";
        else
            *out = d;
    }
    free(buf);
    return e;
}

static const char *ref_pg_float(const char *s, size_t n, float *out)
{
    char *buf = malloc(n + 1);
    int special;
    assert_non_null(buf);
    const char *e = NULL;
    if (!ref_float_text(s, n, buf, &special)) {
        e = "expected a number, NaN, Infinity or -Infinity";
    } else {
        errno = 0;
        float f = strtof(buf, NULL);
        if (!special && errno == ERANGE && (f == 0 || isinf(f)))
            e = "out of range for real";
        else
            *out = f;
    }
    free(buf);
    return e;
}

/* ordo__pg_parse_* against the reference: same message, same bits, *out untouched
 * on error. s[n] is whatever follows (not read). */
static void pg_same(const char *s, size_t n)
{
    double d = 42, rd = 42;
    float f = 42, rf = 42;
    const char *e = ordo__pg_parse_double(s, n, &d), *re = ref_pg_double(s, n, &rd);
    if ((e == NULL) != (re == NULL) || (e && strcmp(e, re) != 0) || memcmp(&d, &rd, sizeof d) != 0)
        fail_msg("ordo__pg_parse_double(\"%.*s\"): %s %a, was %s %a", (int)n, s, e ? e : "ok", d,
                 re ? re : "ok", rd);
    e = ordo__pg_parse_float(s, n, &f);
    re = ref_pg_float(s, n, &rf);
    if ((e == NULL) != (re == NULL) || (e && strcmp(e, re) != 0) || memcmp(&f, &rf, sizeof f) != 0)
        fail_msg("ordo__pg_parse_float(\"%.*s\"): %s %a, was %s %a", (int)n, s, e ? e : "ok", (double)f,
                 re ? re : "ok", (double)rf);
}

static void pg_errors(void **state)
{
    (void)state;
    double d = 7;
    float f = 7;
    const char *syntax = "expected a number, NaN, Infinity or -Infinity";
    const char *dr = "out of range for double precision", *fr = "out of range for real";
    static const struct {
        const char *s, *dmsg, *fmsg;
    } v[] = {
        {"1e309", "r", "r"}, {"-1e309", "r", "r"}, {"1e-400", "r", "r"}, {"-1e-400", "r", "r"},
        {"2e-324", "r", "r"}, {"1e99999999999999999999", "r", "r"}, {"3e-324", NULL, "r"},
        {"4.9e-324", NULL, "r"}, {"1e-320", NULL, "r"}, {"3.4028236e38", NULL, "r"},
        {"-3.5e38", NULL, "r"}, {"1e-46", NULL, "r"}, {"1e-45", NULL, NULL},
        {"1e-40", NULL, NULL}, {"0e-999999", NULL, NULL}, {"-0", NULL, NULL}, {"NaN", NULL, NULL},
        {"-nan", NULL, NULL}, {"+INF", NULL, NULL}, {"-Infinity", NULL, NULL},
        {"infinity", NULL, NULL}, {"", "s", "s"}, {"+", "s", "s"}, {"-", "s", "s"},
        {".", "s", "s"}, {"-.", "s", "s"}, {"e5", "s", "s"}, {".e5", "s", "s"}, {"1e", "s", "s"},
        {"1e+", "s", "s"}, {"1e-", "s", "s"}, {"1.5x", "s", "s"}, {" 1", "s", "s"},
        {"1 ", "s", "s"}, {"0x10", "s", "s"}, {"0x1p3", "s", "s"}, {"1..2", "s", "s"},
        {"1e5.5", "s", "s"}, {"1e5e5", "s", "s"}, {"--1", "s", "s"}, {"+-1", "s", "s"},
        {"infinit", "s", "s"}, {"nanx", "s", "s"}, {"in", "s", "s"}, {"-infinityy", "s", "s"},
        {"1,5", "s", "s"}, {"\xef\xbc\x91", "s", "s"}, {"+.5e-3", NULL, NULL}, {"5.", NULL, NULL},
        {".5", NULL, NULL}, {"1E+05", NULL, NULL},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        size_t n = strlen(v[i].s);
        const char *e = ordo__pg_parse_double(v[i].s, n, &d);
        const char *want = !v[i].dmsg ? NULL : v[i].dmsg[0] == 'r' ? dr : syntax;
        if ((e == NULL) != (want == NULL) || (e && strcmp(e, want) != 0))
            fail_msg("ordo__pg_parse_double(\"%s\"): %s, want %s", v[i].s, e ? e : "ok",
                     want ? want : "ok");
        e = ordo__pg_parse_float(v[i].s, n, &f);
        want = !v[i].fmsg ? NULL : v[i].fmsg[0] == 'r' ? fr : syntax;
        if ((e == NULL) != (want == NULL) || (e && strcmp(e, want) != 0))
            fail_msg("ordo__pg_parse_float(\"%s\"): %s, want %s", v[i].s, e ? e : "ok",
                     want ? want : "ok");
        pg_same(v[i].s, n);
    }
    /* values */
    assert_null(ordo__pg_parse_double("-Infinity", 9, &d));
    assert_true(isinf(d) && d < 0);
    assert_null(ordo__pg_parse_float("nan", 3, &f));
    assert_true(isnan(f));
    assert_null(ordo__pg_parse_double("4.9e-324", 8, &d));
    assert_true(d == 4.9406564584124654e-324);
    assert_null(ordo__pg_parse_float("-0.5", 4, &f));
    assert_true(f == -0.5f);
    /* not NUL-terminated: the bytes after n are not read */
    assert_null(ordo__pg_parse_double("1.25e1xyz", 6, &d));
    assert_true(d == 12.5);
}

/* Issue #13 item 12: a valid literal of any length is strtod's (strtof's)
 * value; 512 bytes and more were refused. */
static void pg_long_literals(void **state)
{
    (void)state;
    static char s[4096];
    static const struct {
        const char *head;
        char fill;
        size_t count;
        const char *tail;
        double want; /* 0: only compared with strtod */
        float fwant;
    } v[] = {
        {"1.", '0', 509, "", 1, 1},                                /* 511 bytes */
        {"1.", '0', 510, "", 1, 1},                                /* 512 */
        {"1.", '0', 511, "", 1, 1},                                /* 513 */
        {"", '0', 1000, "1", 1, 1},                                /* 0000...0001 */
        {"-", '0', 1000, "1", -1, -1},
        {"+", '0', 1000, "1.5e0", 1.5, 1.5f},
        {"1.", '0', 1000, "1e5", 100000.0, 100000.0f},             /* 1.000...0001e5 */
        {"0.", '0', 1000, "1e1002", 10, 10},
        {"123456789", '7', 591, "e-580", 0, 0},                    /* 600 digits */
        {"0.", '3', 600, "", 0, 0},
        {"1.1754943", '9', 800, "e-38", 0, 0},                     /* near FLT_MIN */
        /* 2^53 + 1, halfway between two doubles: a digit 1000 places on
         * decides the rounding; without it the tie goes to even */
        {"9007199254740993.", '0', 1000, "1", 9007199254740994.0, 0},
        {"9007199254740993.", '0', 1000, "", 9007199254740992.0, 0},
        /* 2^24 + 1, the same for floats */
        {"16777217.", '0', 1000, "1", 16777217.0, 16777218.0f},
        {"16777217.", '0', 1000, "", 16777217.0, 16777216.0f},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        size_t n = (size_t)snprintf(s, sizeof s, "%s", v[i].head);
        memset(s + n, v[i].fill, v[i].count);
        n += v[i].count;
        n += (size_t)snprintf(s + n, sizeof s - n, "%s", v[i].tail);
        s[n] = '5'; /* never read */
        double d = 0;
        float f = 0;
        if (ordo__pg_parse_double(s, n, &d) || ordo__pg_parse_float(s, n, &f))
            fail_msg("literal %zu (%zu bytes) refused", i, n);
        s[n] = 0;
        if (d != strtod(s, NULL) || f != strtof(s, NULL) || (v[i].want && d != v[i].want) ||
            (v[i].fwant && f != v[i].fwant))
            fail_msg("literal %zu (%zu bytes): %a %a, strtod %a, strtof %a", i, n, d, (double)f,
                     strtod(s, NULL), (double)strtof(s, NULL));
        pg_same(s, n);
        check_n(s, n);
    }
    /* out of range and bad syntax stay so at any length */
    memset(s, '9', 600);
    s[600] = 0;
    double d;
    float f;
    assert_string_equal(ordo__pg_parse_double(s, 600, &d), "out of range for double precision");
    assert_string_equal(ordo__pg_parse_float(s, 600, &f), "out of range for real");
    s[599] = 'x';
    assert_string_equal(ordo__pg_parse_double(s, 600, &d), "expected a number, NaN, Infinity or -Infinity");
    pg_same(s, 600);
}

/* Random short strings over the float alphabet: ordo__pg_parse_* accept exactly
 * what the reference accepts, with the same values and messages. */
static void pg_random_syntax(void **state)
{
    (void)state;
    uint64_t r = stream(6);
    static const char alpha[] = "0123456789.eE+-nNaAiIfFtTyYx ";
    static const char *words[] = {"nan", "inf", "infinity", "1e309", "1e-999",
                                  "0.5", "e",   ".",        "-"};
    char s[40];
    for (int iter = 0; iter < 300000; iter++) {
        size_t n = 0, len = below(&r, 14);
        while (n < len) {
            if (below(&r, 8) == 0) {
                const char *w = words[below(&r, sizeof words / sizeof words[0])];
                size_t wl = strlen(w);
                if (n + wl > sizeof s - 1)
                    break;
                memcpy(s + n, w, wl);
                n += wl;
            } else {
                char c = alpha[below(&r, sizeof alpha - 1)];
                s[n++] = below(&r, 3) ? c : (char)('0' + below(&r, 10));
            }
        }
        s[n] = '5'; /* a digit after the text: never read */
        pg_same(s, n);
    }
}

/* The shortest digits that read back as d (1-17 of them), with their
 * decimal exponent: "%.*e" at growing precision. */
static int shortest(double d, char *dg, int *x)
{
    char t[64];
    for (int p = 1;; p++) {
        snprintf(t, sizeof t, "%.*e", p - 1, d);
        if (strtod(t, NULL) == d || p == 17)
            break;
    }
    int n = 0;
    const char *c = t + (t[0] == '-');
    for (; *c != 'e'; c++)
        if (*c != '.')
            dg[n++] = *c;
    *x = atoi(c + 1);
    return n;
}

/* dg[0, n) * 10^(x - n + 1) laid out in fixed notation (leading "0.000",
 * trailing zeros) or, outside [lo, hi), as d.ddde[+-]XX: Python's repr
 * (lo -4, hi 16) and PostgreSQL's float8out (lo -4, hi 15). */
static void layout(char *s, const char *dg, int n, int x, int neg, int lo, int hi)
{
    size_t k = 0;
    if (neg)
        s[k++] = '-';
    if (x < lo || x >= hi) {
        s[k++] = dg[0];
        if (n > 1) {
            s[k++] = '.';
            memcpy(s + k, dg + 1, (size_t)n - 1);
            k += (size_t)n - 1;
        }
        snprintf(s + k, 16, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
        return;
    }
    if (x < 0) {
        s[k++] = '0';
        s[k++] = '.';
        for (int i = 0; i < -x - 1; i++)
            s[k++] = '0';
        memcpy(s + k, dg, (size_t)n);
        k += (size_t)n;
    } else if (x >= n - 1) {
        memcpy(s + k, dg, (size_t)n);
        k += (size_t)n;
        for (int i = 0; i < x - (n - 1); i++)
            s[k++] = '0';
    } else {
        memcpy(s + k, dg, (size_t)x + 1);
        k += (size_t)x + 1;
        s[k++] = '.';
        memcpy(s + k, dg + x + 1, (size_t)(n - x - 1));
        k += (size_t)(n - x - 1);
    }
    s[k] = 0;
}

/* Issue #18: long numbers as users' files hold them: doubles with 15-17
 * significant digits in their shortest round-trip form, laid out as
 * Python's repr and PostgreSQL write them (0.000ddd... has more than 19
 * digits but at most 19 significant ones), and %.17g; 19 and 20
 * significant digits around the 19-digit limit, with leading zeros. */
static void long_numbers(void **state)
{
    (void)state;
    uint64_t r = stream(18);
    char s[400], dg[24];
    unsigned long start = g_checked;
    for (int iter = 0; iter < 100000; iter++) { /* ~600 000 texts: cheap enough under qemu too */
        double d;
        if (iter % 2) { /* 17 random digits near a typical exponent */
            char t[96];
            snprintf(t, sizeof t, "%d.%08llu%08llue%d", 1 + (int)below(&r, 9),
                     (unsigned long long)below(&r, 100000000), (unsigned long long)below(&r, 100000000),
                     (int)below(&r, 24) - 8);
            d = strtod(t, NULL);
        } else {
            d = rand_double(&r);
        }
        if (!isfinite(d) || d == 0)
            continue;
        int neg = (int)below(&r, 2), x, n = shortest(d, dg, &x);
        layout(s, dg, n, x, neg, -4, 16);
        check(s);
        layout(s, dg, n, x, neg, -4, 15);
        check(s);
        layout(s, dg, n, x, neg, -30, 30); /* long fixed forms: many leading or trailing zeros */
        check(s);
        snprintf(s, sizeof s, "%.17g", neg ? -d : d);
        check(s);
        /* 19 and 20 significant digits, some after leading zeros */
        for (int m = 19; m <= 20; m++) {
            for (int i = 0; i < m; i++)
                dg[i] = (char)('0' + (i == 0 ? 1 + below(&r, 9) : below(&r, 10)));
            layout(s, dg, m, (int)below(&r, 60) - 30, neg, -30, 30);
            check(s);
        }
    }
    print_message("long_numbers: %lu literals\n", g_checked - start);
}

int main(void)
{
    g_seed = t_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pow5_table),   cmocka_unit_test(edges),
        cmocka_unit_test(boundaries),   cmocka_unit_test(random_shapes),
        cmocka_unit_test(printed),      cmocka_unit_test(midpoints),
        cmocka_unit_test(short_ties),   cmocka_unit_test(pg_errors),
        cmocka_unit_test(pg_random_syntax), cmocka_unit_test(pg_long_literals),
        cmocka_unit_test(long_numbers),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("# %lu literals compared with strtod and strtof\n", g_checked);
    return failed;
}
