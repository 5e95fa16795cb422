/* Shared by the tests: the cmocka prelude and key assertions. */
#ifndef ORDO_TEST_H
#define ORDO_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ordo.h"

/* Decodes test hex (spaces allowed) in hex[0..len) into buf; returns the
 * length. */
static inline size_t t_unhex_n(const char *hex, size_t len, uint8_t *buf, size_t cap)
{
    size_t n = 0;
    for (const char *p = hex, *end = hex + len; p < end;) {
        if (*p == ' ') {
            p++;
            continue;
        }
        unsigned v = 0;
        char two[3] = {p[0], p + 1 < end ? p[1] : 0, 0};
        if (!two[1] || sscanf(two, "%2x", &v) != 1 || n >= cap)
            fail_msg("bad test hex '%.*s'", (int)len, hex);
        buf[n++] = (uint8_t)v;
        p += 2;
    }
    return n;
}

/* The same for a NUL-terminated hex string. */
static inline size_t t_unhex(const char *hex, uint8_t *buf, size_t cap)
{
    return t_unhex_n(hex, strlen(hex), buf, cap);
}

static inline void t_hex(const uint8_t *k, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", k[i]);
    out[2 * n] = 0;
}

/* Fails with both keys in hex when they differ. */
#define assert_key_hex(key, len, hex)                                                   \
    do {                                                                                \
        uint8_t want_[512];                                                             \
        size_t wn_ = t_unhex((hex), want_, sizeof want_);                               \
        if ((size_t)(len) != wn_ || memcmp((key), want_, wn_) != 0) {                   \
            char got_[1025], exp_[1025];                                                \
            t_hex((const uint8_t *)(key), (size_t)(len) > 512 ? 512 : (size_t)(len), got_); \
            t_hex(want_, wn_, exp_);                                                    \
            fail_msg("key mismatch\n  got  %s\n  want %s", got_, exp_);                 \
        }                                                                               \
    } while (0)

#define assert_status(got, want)                                                        \
    do {                                                                                \
        ordo_status g_ = (got), w_ = (want);                                            \
        if (g_ != w_)                                                                   \
            fail_msg("status %s, want %s", ordo_status_name(g_), ordo_status_name(w_)); \
    } while (0)

/* xorshift64*: reproducible random values; the seed is printed by tests. */
static inline uint64_t t_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

static inline uint64_t t_seed(void)
{
    const char *e = getenv("ORDO_TEST_SEED");
    uint64_t s = e ? strtoull(e, NULL, 0) : UINT64_C(0x9e3779b97f4a7c15);
    printf("# ORDO_TEST_SEED=0x%llx\n", (unsigned long long)s);
    return s ? s : 1;
}

/* Runs a shell command built like printf; returns its exit status (128 when
 * it did not exit normally). For the tests that drive other programs. */
static inline int t_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int t_sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return st >= 0 && (st & 0x7f) == 0 ? (st >> 8) & 0xff : 128;
}

#endif
