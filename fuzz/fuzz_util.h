/* Shared by the harnesses: a check that aborts (libFuzzer and the replay
 * both report it) and a reader that hands out input bytes. */
#ifndef ORDO_FUZZ_UTIL_H
#define ORDO_FUZZ_UTIL_H

#include "ordo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                             \
        }                                                                        \
    } while (0)

typedef struct bytes {
    const uint8_t *p;
    size_t n;
} bytes;

static inline uint8_t take8(bytes *b)
{
    if (!b->n)
        return 0;
    b->n--;
    return *b->p++;
}

static inline uint64_t take64(bytes *b)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | take8(b);
    return v;
}

/* Fills a guarded buffer: cap usable bytes then 16 guard bytes. */
#define GUARD_BYTE 0xa5
static inline uint8_t *guarded(size_t cap)
{
    uint8_t *p = malloc(cap + 16);
    memset(p, GUARD_BYTE, cap + 16);
    return p;
}
static inline void check_guard(const uint8_t *p, size_t from, size_t cap)
{
    for (size_t i = from; i < cap + 16; i++)
        CHECK(p[i] == GUARD_BYTE);
}

#endif
