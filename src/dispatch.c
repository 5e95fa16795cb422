/* CPU detection and the choice of kernel implementation, made once. */
#include "dispatch.h"
#include "ordo_internal.h"

#include <stdatomic.h>
#include <stdlib.h>

#if defined(__x86_64__) || defined(__i386__)
#  include <cpuid.h>
#  define ORDO_X86 1
#endif

#if ORDO_X86
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}
#endif

static unsigned detect(void)
{
    unsigned f = 0;
#if ORDO_X86
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    /* The x86 kernels also count bits with POPCNT (every SSE4.2-era CPU
     * has it; a Core 2 with SSE4.1 alone runs the portable kernels). */
    if ((c & (1u << 19)) && (c & (1u << 23)))
        f |= ORDO_CPU_SSE41;
    /* AVX2 needs OSXSAVE and AVX, the OS saving XMM and YMM state, and the
     * AVX2 bit of leaf 7. */
    int osxsave = (c & (1u << 27)) != 0, avx = (c & (1u << 28)) != 0;
    if (osxsave && avx && (xgetbv0() & 6) == 6 && __get_cpuid_max(0, NULL) >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if (b & (1u << 5))
            f |= ORDO_CPU_AVX2;
        /* AVX-512: F (EBX 16), BW (EBX 30), VL (EBX 31), VBMI (ECX 1), and
         * XCR0 saving opmask, ZMM0-15 upper halves and ZMM16-31 (bits 5-7)
         * besides XMM and YMM. */
        const unsigned b512 = (1u << 16) | (1u << 30) | (1u << 31);
        if ((b & b512) == b512 && (c & (1u << 1)) && (xgetbv0() & 0xe6) == 0xe6)
            f |= ORDO_CPU_AVX512;
    }
#elif defined(__aarch64__)
    f |= ORDO_CPU_NEON; /* baseline on AArch64 */
#endif
    return f;
}

/* Feature word + 1, so that 0 means "not detected yet". Every thread computes
 * the same answer, so a race on first use is benign. */
static _Atomic unsigned cached_features;

unsigned ordo_cpu_features(void)
{
    unsigned f = atomic_load_explicit(&cached_features, memory_order_relaxed);
    if (f == 0) {
        f = detect() + 1;
        atomic_store_explicit(&cached_features, f, memory_order_relaxed);
    }
    return f - 1;
}

typedef struct impl_entry {
    const char *name;
    unsigned needs;           /* CPU feature bits */
    const ordo__kernels *kern; /* NULL: not built (or the scalar reference) */
} impl_entry;

/* The registry: the scalar reference first (the proof path, chosen only by
 * name), then the kernel tables from the least to the most preferred; the
 * dispatcher takes the last one this CPU runs. The portable table runs
 * everywhere, so a CPU or a build without SIMD kernels gets it. */
static const impl_entry impls[] = {
    {"scalar", 0, NULL},
    {"portable", 0, &ordo__kernels_portable},
#ifdef ORDO_HAVE_SSE41
    {"sse41", ORDO_CPU_SSE41, &ordo__kernels_sse41},
#else
    {"sse41", ORDO_CPU_SSE41, NULL},
#endif
#ifdef ORDO_HAVE_AVX2
    {"avx2", ORDO_CPU_AVX2 | ORDO_CPU_SSE41, &ordo__kernels_avx2},
#else
    {"avx2", ORDO_CPU_AVX2 | ORDO_CPU_SSE41, NULL},
#endif
#ifdef ORDO_HAVE_AVX512
    {"avx512", ORDO_CPU_AVX512 | ORDO_CPU_AVX2 | ORDO_CPU_SSE41, &ordo__kernels_avx512},
#else
    {"avx512", ORDO_CPU_AVX512 | ORDO_CPU_AVX2 | ORDO_CPU_SSE41, NULL},
#endif
#ifdef ORDO_HAVE_NEON
    {"neon", ORDO_CPU_NEON, &ordo__kernels_neon},
#else
    {"neon", ORDO_CPU_NEON, NULL},
#endif
};
#define N_IMPLS (sizeof impls / sizeof impls[0])
#define SCALAR 0u

static int runnable(unsigned i)
{
    unsigned cpu = ordo_cpu_features();
    return (i == SCALAR || impls[i].kern) && (cpu & impls[i].needs) == impls[i].needs;
}

const char *ordo_impl_at(size_t i, ordo_status *status)
{
    if (i >= N_IMPLS)
        return NULL;
    if (status)
        *status = runnable((unsigned)i) ? ORDO_OK : ORDO_ERR_UNSUPPORTED_IMPL;
    return impls[i].name;
}

/* Index of the named implementation, or a status. */
static ordo_status find(const char *name, unsigned *index)
{
    for (unsigned i = 0; i < N_IMPLS; i++) {
        if (strcmp(name, impls[i].name) != 0)
            continue;
        if (!runnable(i))
            return ORDO_ERR_UNSUPPORTED_IMPL;
        *index = i;
        return ORDO_OK;
    }
    return ORDO_ERR_UNKNOWN_IMPL;
}

/* (index + 1) | status << 8; 0 = not chosen yet. An emulated kernel is
 * never in this registry, so it is never chosen. */
static _Atomic unsigned cached_choice;

static unsigned choose(void)
{
    const char *want = getenv("ORDO_IMPL");
    if (want && *want) {
        unsigned i = SCALAR;
        ordo_status s = find(want, &i);
        return (i + 1) | (unsigned)s << 8;
    }
    for (unsigned i = N_IMPLS; i-- > SCALAR + 1;)
        if (runnable(i))
            return i + 1;
    return SCALAR + 1; /* not reached: the portable kernels always run */
}

static unsigned choice(void)
{
    unsigned c = atomic_load_explicit(&cached_choice, memory_order_relaxed);
    if (c == 0) {
        c = choose();
        atomic_store_explicit(&cached_choice, c, memory_order_relaxed);
    }
    return c;
}

const char *ordo_impl_name(ordo_status *status)
{
    unsigned c = choice();
    if (status)
        *status = (ordo_status)(c >> 8);
    return impls[(c & 0xff) - 1].name;
}

ordo_status ordo__impl_lookup(const char *name, const ordo__kernels **k)
{
    unsigned i = SCALAR;
    ordo_status s = find(name, &i);
    if (s == ORDO_OK)
        *k = impls[i].kern;
    return s;
}

ordo_status ordo__impl_active(const ordo__kernels **k)
{
    unsigned c = choice();
    if (c >> 8)
        return (ordo_status)(c >> 8);
    *k = impls[(c & 0xff) - 1].kern;
    return ORDO_OK;
}
