/* Decimal literal to double / float, correctly rounded (see parse_float.h).
 *
 * The literal is read as w * 10^q with w the first 19 significant digits.
 * 1. Clinger: when w and 10^|q| are both exact in the format, one rounded
 *    multiply or divide is the answer.
 * 2. Eisel-Lemire: w * 5^q from a 64x128-bit product with the truncated table
 *    T(q) (pow5_table.h), whose error bounds say when the kept bits, the round
 *    bit and the sticky bit are certain. When they are not, q is in
 *    [-27, -1] and one exact long division decides (pf_exact_div): for up
 *    to 19 significant digits there is no fallback. Only when digits after
 *    the 19th leave w * 10^q and (w + 1) * 10^q rounding apart does the
 *    text go to strtod / strtof (both correctly rounded in glibc).
 *
 * Error analysis (X is the exact w' * 5^q scaled by 2^-pf_pow5_exp(q), w' = w
 * shifted so that its top bit is bit 63; X is in [2^190, 2^192)):
 * - T(q) <= F(q) < T(q) + 1 with F(q) = 5^q * 2^-pf_pow5_exp(q), equality
 *   only for q in [0, 55]. So X lies in [P, P + 2^64) with P = w' * T(q):
 *   exactly at P in the exact range, strictly above it elsewhere.
 * - With only the high product A = w' * T_hi, X / 2^64 lies in
 *   [A, A + 2^64 + 1). We keep 54 bits (25 for float) of the 128-bit A and
 *   drop at least 73 (102). Unless the 9 (38) lowest bits of A's high word
 *   are all ones, that interval stays below the next multiple of the dropped
 *   bits' weight: the kept bits are certain and, outside the exact range, X
 *   lies strictly between two multiples, so the sticky bit is 1.
 * - Otherwise the low product gives C = floor(P / 2^64), and X / 2^64 lies
 *   in [C, C + 2): the same holds unless all the dropped bits of C are ones.
 *   Values exactly at a multiple (a double, or a tie between two) with
 *   q < 0 always end there, just below it; they need 5^-q to divide w, so
 *   q >= -27, where pf_exact_div decides. For every other q no w < 2^64
 *   ends there (scripts/gen_pow5.py --no-fallback: the convergents of
 *   T(q) / 2^137, and / 2^166 for float). */
#include "parse_float.h"

#include "pow5_table.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Clinger's path needs each operation rounded once, straight to the format:
 * not with x87 excess precision. */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define PF_CLINGER 1
#else
#define PF_CLINGER 0
#endif

/* Beyond this, an exponent's digits no longer matter: the value is 0 or
 * infinite unless the text has about this many digits. */
#define PF_EXP_CLAMP INT64_C(1000000000000000)

/* Significant digits kept by the fallback's copy (see pf_compact). */
#define PF_FALLBACK_DIGITS 800

typedef struct pf_u128 {
    uint64_t hi, lo;
} pf_u128;

static inline pf_u128 pf_mul64(uint64_t a, uint64_t b)
{
#if defined(__SIZEOF_INT128__) && !defined(PF_NO_INT128)
    __extension__ typedef unsigned __int128 u128;
    u128 p = (u128)a * b;
    return (pf_u128){(uint64_t)(p >> 64), (uint64_t)p};
#else
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl; /* < 3 * 2^32 */
    return (pf_u128){hh + (lh >> 32) + (hl >> 32) + (mid >> 32), mid << 32 | (uint32_t)ll};
#endif
}

static inline int pf_is_digit(char c) { return (unsigned)(c - '0') < 10; }

/* A format: significand bits with the hidden one, the normal exponent range,
 * and the decimal exponents outside which every w in [1, 10^19] gives 0
 * (below half the smallest subnormal) or infinity (above the largest finite). */
#define PF_D 53, -1022, 1023, -342, 308
#define PF_F 24, -126, 127, -64, 38

/* w * 10^q for q in [-27, -1], exactly: 5^-q < 2^63 divides w' * 2^64 by
 * long division (w' = w shifted so that its top bit is bit 63), then the
 * quotient's top mant + 1 bits round with the rest and the remainder as the
 * sticky bit. This is where the truncated table cannot decide: values that
 * are a double (float) or a tie between two, such as 0.5 or
 * 4503599627370497.5. Always a normal number: 10^-27 <= value < 2^64.
 * Rare, so a bit at a time; no __int128 needed. */
static int64_t pf_exact_div(uint64_t w, int k, int mant, int emin)
{
    uint64_t d = 1;
    for (int i = 0; i < k; i++)
        d *= 5;
    int lz = __builtin_clzll(w);
    uint64_t wn = w << lz, qh = wn / d, r = wn % d, ql = 0; /* qh >= 1: wn >= 2^63 > d */
    for (int i = 0; i < 64; i++) { /* r < d < 2^63: 2r does not overflow */
        r <<= 1;
        ql <<= 1;
        if (r >= d) {
            r -= d;
            ql |= 1;
        }
    }
    int hb = 127 - __builtin_clzll(qh); /* the quotient's top bit, 64..127 */
    int s = hb - mant;                    /* bits below the round bit, >= 11 */
    uint64_t n, low;
    if (s >= 64) {
        n = qh >> (s - 64);
        low = (qh & ((UINT64_C(1) << (s - 64)) - 1)) | ql;
    } else {
        n = qh << (64 - s) | ql >> s;
        low = ql & ((UINT64_C(1) << s) - 1);
    }
    int sticky = low || r;
    uint64_t m = (n & 3) == 1 && !sticky ? n >> 1 : (n + 1) >> 1; /* a tie goes to even */
    int e = hb - 64 - lz - k; /* the value's leading bit: Q * 2^(-64 - lz - k) */
    return ((int64_t)(e - emin) << (mant - 1)) + (int64_t)m;
}

/* w * 10^q to nearest-even: the IEEE bits without the sign (0 when it
 * underflows, infinity's bits when it overflows), or -1 when the truncated
 * table leaves it undecided. w != 0. Never -1 for w < 2^64 (so for up to
 * 19 significant digits): exactly divided where 5^-q < 2^63 (pf_exact_div),
 * and elsewhere the undecided products cannot occur (proof and check:
 * python3 scripts/gen_pow5.py --no-fallback). */
static inline int64_t pf_eisel_lemire(uint64_t w, int64_t q, int mant, int emin, int emax, int qmin,
                                      int qmax)
{
    const int64_t inf = (int64_t)(emax - emin + 2) << (mant - 1);
    if (q < qmin)
        return 0;
    if (q > qmax)
        return inf;
    int lz = __builtin_clzll(w);
    uint64_t wn = w << lz;
    const uint64_t *t = ordo__pow5[q - PF_POW5_MIN_Q];
    int exact = q >= 0 && q <= PF_POW5_EXACT_MAX;
    const uint64_t mask = UINT64_MAX >> (mant + 2);
    pf_u128 a = pf_mul64(wn, t[0]);
    uint64_t below = 0; /* bits under a, all known when exact */
    if ((a.hi & mask) == mask || (exact && t[1])) {
        pf_u128 b = pf_mul64(wn, t[1]);
        below = b.lo;
        a.lo += b.hi;
        a.hi += a.lo < b.hi;
        if (!exact && (a.hi & mask) == mask && a.lo == UINT64_MAX)
            return q < 0 && q >= -27 ? pf_exact_div(w, (int)-q, mant, emin) : -1;
    }
    /* a >= 2^126: its top bit is 127 or 126. e is the exponent of the
     * value's leading bit: a's top bit (64 + 126 + up in X) scaled back. */
    int up = (int)(a.hi >> 63);
    int e = 190 + up + pf_pow5_exp((int)q) + (int)q - lz;
    if (e > emax)
        return inf;
    int shift = 126 + up - mant; /* keeps mant + 1 bits: the significand and a round bit */
    int64_t base = 0; /* the exponent field (less one, see below) in place */
    if (e >= emin) {
        base = (int64_t)(e - emin) << (mant - 1);
    } else { /* subnormal: fewer bits, exponent field 0 */
        shift += emin - e;
        if (shift >= 128)
            return 0;
    }
    uint64_t n = a.hi >> (shift - 64); /* shift >= 73 */
    int sticky = !exact || below || a.lo || (a.hi & ((UINT64_C(1) << (shift - 64)) - 1));
    uint64_t m = (n & 3) == 1 && !sticky ? n >> 1 : (n + 1) >> 1; /* a tie goes to even */
    /* m includes the hidden bit, which adds the 1 that the exponent field
     * lacks; a carry out of the significand steps the exponent (or reaches
     * infinity's bits) by itself. */
    return base + (int64_t)m;
}

/* The literal as w * 10^q; w holds the first 19 significant digits. */
typedef struct pf_decimal {
    uint64_t w;
    int64_t q;
    int neg;
    int truncated; /* a non-zero digit after the 19th: the value is above w * 10^q */
} pf_decimal;

/* Checks the syntax and reads the literal in one pass; 0 when malformed.
 * Any number of digits: those after the 19th only move q and set truncated. */
static int pf_scan_long(const char *s, size_t n, pf_decimal *d)
{
    const char *p = s, *end = s + n;
    uint64_t w = 0;
    int64_t q = 0;
    int kept = 0, truncated = 0;
    d->neg = 0;
    if (p < end && (*p == '-' || *p == '+'))
        d->neg = *p++ == '-';
    const char *digits = p;
    while (p < end && *p == '0')
        p++;
    for (; p < end && pf_is_digit(*p); p++) {
        if (kept < 19) {
            w = w * 10 + (uint64_t)(*p - '0');
            kept++;
        } else {
            q++;
            truncated |= *p != '0';
        }
    }
    size_t ndigits = (size_t)(p - digits);
    if (p < end && *p == '.') {
        const char *frac = ++p;
        if (!kept) { /* zeros before the first significant digit */
            while (p < end && *p == '0')
                p++;
            q -= p - frac;
        }
        for (; p < end && pf_is_digit(*p); p++) {
            if (kept < 19) {
                w = w * 10 + (uint64_t)(*p - '0');
                kept++;
                q--;
            } else {
                truncated |= *p != '0';
            }
        }
        ndigits += (size_t)(p - frac);
    }
    if (!ndigits)
        return 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        int eneg = 0;
        if (p < end && (*p == '-' || *p == '+'))
            eneg = *p++ == '-';
        if (p == end || !pf_is_digit(*p))
            return 0;
        int64_t x = 0;
        for (; p < end && pf_is_digit(*p); p++)
            if (x < PF_EXP_CLAMP)
                x = x * 10 + (*p - '0');
        q += eneg ? -x : x;
    }
    if (p != end)
        return 0;
    d->w = w;
    d->q = q;
    d->truncated = truncated;
    return 1;
}

static const uint64_t pf_pow10_u64[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                        100000000};

/* pf_room[k] = 10^(19 - k): w < pf_room[k] has at most 19 - k significant
 * digits, so k more keep it within 19 (and w * 10^k + v below 10^19). */
static const uint64_t pf_room[] = {UINT64_C(10000000000000000000), UINT64_C(1000000000000000000),
                                   UINT64_C(100000000000000000),   UINT64_C(10000000000000000),
                                   UINT64_C(1000000000000000),     UINT64_C(100000000000000),
                                   UINT64_C(10000000000000),       UINT64_C(1000000000000),
                                   UINT64_C(100000000000)};

/* The run of digits at p (p <= end), up to 8 of them: returns how many and
 * writes their value. With 8 bytes to read inside [s, end), the digits are
 * found and converted as one little-endian word (SWAR): each step below
 * merges neighbouring lanes without carries, since every lane stays under
 * its width (10 < 2^8, 100 < 2^16, 10^4 < 2^32). */
static inline int pf_digits8(const char *p, const char *s, const char *end, uint64_t *val)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (end - s >= 8) {
        const uint64_t ones = UINT64_C(0x0101010101010101);
        /* 8 bytes at p, or the text's last 8 with those before p shifted
         * out (zeros in; all of them at the end): no branch on the length */
        const char *at = end - p >= 8 ? p : end - 8;
        unsigned sh = 4 * (unsigned)(p - at); /* twice: p - at may be 8 */
        uint64_t x;
        memcpy(&x, at, 8);
        x = x >> sh >> sh;
        /* A lane is a digit when its high nibble is 3 and adding 6 to it
         * leaves it at 3. A carry out of a lane only disturbs later lanes,
         * after a non-digit. */
        uint64_t bad = ((x & 0xf0 * ones) ^ 0x30 * ones) |
                       (((x + 0x06 * ones) & 0xf0 * ones) ^ 0x30 * ones);
        int k = bad ? __builtin_ctzll(bad) >> 3 : 8;
        if (k == 0) {
            *val = 0;
            return 0;
        }
        /* digits only (no borrows below lane k), then the k digits moved to
         * the top with zero lanes as leading zeros */
        uint64_t v = (x - 0x30 * ones) << (8 * (8 - k));
        v = (v * 10 + (v >> 8)) & UINT64_C(0x00ff00ff00ff00ff);
        v = (v * 100 + (v >> 16)) & UINT64_C(0x0000ffff0000ffff);
        *val = (v * 10000 + (v >> 32)) & UINT64_C(0xffffffff);
        return k;
    }
#else
    (void)s;
#endif
    uint64_t v = 0;
    int k = 0;
    for (; k < 8 && p + k < end && pf_is_digit(p[k]); k++)
        v = v * 10 + (uint64_t)(p[k] - '0');
    *val = v;
    return k;
}

/* pf_scan_long for the common case of at most 19 significant digits
 * (leading zeros, as in 0.000123, do not count), 8 at a time; the rest goes
 * to pf_scan_long. */
__attribute__((always_inline)) static inline int pf_scan(const char *s, size_t n, pf_decimal *d)
{
    const char *p = s, *end = s + n;
    uint64_t w = 0, v;
    int nd = 0, nfrac = 0, k;
    if (p == end)
        return 0;
    d->neg = *p == '-'; /* no branch on the sign */
    p += *p == '-' || *p == '+';
    do {
        k = pf_digits8(p, s, end, &v);
        if (w >= pf_room[k])
            return pf_scan_long(s, n, d);
        w = w * pf_pow10_u64[k] + v;
        nd += k;
        p += k;
    } while (k == 8);
    if (p < end && *p == '.') {
        p++;
        do {
            k = pf_digits8(p, s, end, &v);
            if (w >= pf_room[k])
                return pf_scan_long(s, n, d);
            w = w * pf_pow10_u64[k] + v;
            nd += k;
            nfrac += k;
            p += k;
        } while (k == 8);
    }
    if (!nd)
        return 0;
    int64_t q = -nfrac;
    if (p < end) {
        if (*p != 'e' && *p != 'E')
            return 0;
        p++;
        int eneg = 0;
        if (p < end && (*p == '-' || *p == '+'))
            eneg = *p++ == '-';
        if (p == end || !pf_is_digit(*p))
            return 0;
        int64_t x = 0;
        for (; p < end && pf_is_digit(*p); p++)
            if (x < PF_EXP_CLAMP)
                x = x * 10 + (*p - '0');
        if (p != end)
            return 0;
        q += eneg ? -x : x;
    }
    d->w = w;
    d->q = q;
    d->truncated = 0;
    return 1;
}

/* The fallback's NUL-terminated copy of a valid literal, as [-]DIGITSe<q>:
 * no point, no leading zeros, and after the 800th significant digit a single
 * 1 standing for any non-zero rest. Every midpoint between two neighbouring
 * doubles (or floats), and the overflow threshold, has at most 768
 * significant digits, so none lies strictly between the text and its copy:
 * both round alike, and any length fits the buffer. */
static void pf_compact(const char *s, size_t n, char *buf)
{
    const char *p = s, *end = s + n;
    size_t k = 0, d0;
    int64_t q = 0;
    int rest = 0, point = 0;
    if (*p == '-')
        buf[k++] = '-';
    p += *p == '-' || *p == '+';
    d0 = k;
    for (; p < end && *p != 'e' && *p != 'E'; p++) {
        if (*p == '.') {
            point = 1;
        } else if (k == d0 && *p == '0') {
            q -= point;
        } else if (k - d0 < PF_FALLBACK_DIGITS) {
            buf[k++] = *p;
            q -= point;
        } else {
            rest |= *p != '0';
            q += !point;
        }
    }
    if (p < end) {
        int eneg = *++p == '-';
        int64_t x = 0;
        for (p += *p == '-' || *p == '+'; p < end; p++)
            if (x < PF_EXP_CLAMP)
                x = x * 10 + (*p - '0');
        q += eneg ? -x : x;
    }
    if (k == d0)
        buf[k++] = '0';
    if (rest) {
        buf[k++] = '1';
        q--;
    }
    snprintf(buf + k, 24, "e%" PRId64, q);
}

static const double pf_pow10_double[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                         1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                         1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
static const float pf_pow10_float[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                       1e6f, 1e7f, 1e8f, 1e9f, 1e10f};

/* Tests count the fallbacks through this hook. */
#ifndef PF_FALLBACK_HOOK
#define PF_FALLBACK_HOOK() ((void)0)
#endif

/* More than 19 significant digits that the first 19 (and the next value up)
 * do not decide: strtod / strtof on the compact copy, in their own frames
 * so that the hot functions do not carry the buffer. */
__attribute__((noinline)) static ordo__pf_status pf_fallback_double(const char *s, size_t n, double *out)
{
    char buf[PF_FALLBACK_DIGITS + 32];
    PF_FALLBACK_HOOK();
    pf_compact(s, n, buf);
    double v = strtod(buf, NULL);
    *out = v;
    return v == 0 ? ORDO__PF_UNDERFLOW : isinf(v) ? ORDO__PF_OVERFLOW : ORDO__PF_OK; /* w != 0 */
}

__attribute__((noinline)) static ordo__pf_status pf_fallback_float(const char *s, size_t n, float *out)
{
    char buf[PF_FALLBACK_DIGITS + 32];
    PF_FALLBACK_HOOK();
    pf_compact(s, n, buf);
    float v = strtof(buf, NULL);
    *out = v;
    return v == 0 ? ORDO__PF_UNDERFLOW : isinf(v) ? ORDO__PF_OVERFLOW : ORDO__PF_OK;
}

/* The sign goes on as a bit: no branch on it, and -0 for zero. */
static inline void pf_put_double(double *out, double v, int neg)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    u |= (uint64_t)neg << 63;
    memcpy(out, &u, sizeof u);
}

static inline void pf_put_float(float *out, float v, int neg)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    u |= (uint32_t)neg << 31;
    memcpy(out, &u, sizeof u);
}

ordo__pf_status ordo__pf_parse_double(const char *s, size_t n, double *out)
{
    pf_decimal d;
    if (!pf_scan(s, n, &d))
        return ORDO__PF_SYNTAX;
    if (d.w == 0) {
        pf_put_double(out, 0.0, d.neg);
        return ORDO__PF_OK;
    }
    /* 10^22 is the largest power of ten a double holds exactly. */
    if (PF_CLINGER && !d.truncated && d.w <= UINT64_C(1) << 53 && d.q >= -22 && d.q <= 22) {
        double v = (double)d.w;
        pf_put_double(out, d.q < 0 ? v / pf_pow10_double[-d.q] : v * pf_pow10_double[d.q], d.neg);
        return ORDO__PF_OK;
    }
    int64_t bits = pf_eisel_lemire(d.w, d.q, PF_D);
    if (d.truncated && bits >= 0 && pf_eisel_lemire(d.w + 1, d.q, PF_D) != bits)
        bits = -1;
    if (bits < 0)
        return pf_fallback_double(s, n, out);
    uint64_t u = (uint64_t)bits | (uint64_t)d.neg << 63;
    memcpy(out, &u, sizeof u);
    return bits == 0 ? ORDO__PF_UNDERFLOW : bits == INT64_C(0x7ff0000000000000) ? ORDO__PF_OVERFLOW : ORDO__PF_OK;
}

ordo__pf_status ordo__pf_parse_float(const char *s, size_t n, float *out)
{
    pf_decimal d;
    if (!pf_scan(s, n, &d))
        return ORDO__PF_SYNTAX;
    if (d.w == 0) {
        pf_put_float(out, 0.0f, d.neg);
        return ORDO__PF_OK;
    }
    /* In float arithmetic, not through double: rounding twice can differ. */
    if (PF_CLINGER && !d.truncated && d.w <= UINT64_C(1) << 24 && d.q >= -10 && d.q <= 10) {
        float v = (float)d.w;
        pf_put_float(out, d.q < 0 ? v / pf_pow10_float[-d.q] : v * pf_pow10_float[d.q], d.neg);
        return ORDO__PF_OK;
    }
    int64_t bits = pf_eisel_lemire(d.w, d.q, PF_F);
    if (d.truncated && bits >= 0 && pf_eisel_lemire(d.w + 1, d.q, PF_F) != bits)
        bits = -1;
    if (bits < 0)
        return pf_fallback_float(s, n, out);
    uint32_t u = (uint32_t)bits | (uint32_t)d.neg << 31;
    memcpy(out, &u, sizeof u);
    return bits == 0 ? ORDO__PF_UNDERFLOW : bits == 0x7f800000 ? ORDO__PF_OVERFLOW : ORDO__PF_OK;
}
