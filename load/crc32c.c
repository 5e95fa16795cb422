/* CRC32C: the SSE4.2 crc32 instruction where the CPU has it (about three
 * times the table's speed: the run files' checksums were a quarter of a
 * spilling sort's time), else table-driven, eight bytes a step ("slicing
 * by 8"): tables[k][b] is the CRC of byte b followed by k zero bytes. */
#include "crc32c.h"

#include <pthread.h>
#include <string.h>

static uint32_t tables[8][256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#  define ORDO_CRC32C_SSE42 1
static int have_sse42;

/* Eight bytes an instruction; the bytes before an 8-byte boundary and
 * after the last one one at a time. */
__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const uint8_t *p,
                                                               size_t n)
{
    uint64_t c = ~crc;
    for (; n && ((uintptr_t)p & 7); n--)
        c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c = __builtin_ia32_crc32di(c, v);
    }
    for (; n; n--)
        c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
    return ~(uint32_t)c;
}
#endif

static void make_tables(void)
{
#ifdef ORDO_CRC32C_SSE42
    __builtin_cpu_init();
    have_sse42 = __builtin_cpu_supports("sse4.2");
#endif
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t c = b;
        for (int i = 0; i < 8; i++)
            c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
        tables[0][b] = c;
    }
    for (int k = 1; k < 8; k++)
        for (uint32_t b = 0; b < 256; b++)
            tables[k][b] = (tables[k - 1][b] >> 8) ^ tables[0][tables[k - 1][b] & 0xff];
}

uint32_t ordo__crc32c_table(uint32_t crc, const void *data, size_t n)
{
    pthread_once(&once, make_tables);
    const uint8_t *p = data;
    uint32_t c = ~crc;
    for (; n >= 8; p += 8, n -= 8) {
        uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                           (uint32_t)p[3] << 24);
        c = tables[7][lo & 0xff] ^ tables[6][(lo >> 8) & 0xff] ^ tables[5][(lo >> 16) & 0xff] ^
            tables[4][lo >> 24] ^ tables[3][p[4]] ^ tables[2][p[5]] ^ tables[1][p[6]] ^
            tables[0][p[7]];
    }
    while (n--)
        c = (c >> 8) ^ tables[0][(c ^ *p++) & 0xff];
    return ~c;
}

uint32_t ordo__crc32c(uint32_t crc, const void *data, size_t n)
{
    pthread_once(&once, make_tables);
#ifdef ORDO_CRC32C_SSE42
    if (have_sse42)
        return crc32c_sse42(crc, data, n);
#endif
    return ordo__crc32c_table(crc, data, n);
}
