/* The implementations a kernel test runs: every one of the registry
 * (ordo_impl_at) this CPU runs, the scalar reference as NULL, and the
 * emulated NEON kernels when built. */
#ifndef ORDO_TEST_IMPLS_H
#define ORDO_TEST_IMPLS_H

#include "dispatch.h"

#include <stdio.h>

typedef struct impl {
    const char *name;
    const ordo__kernels *k; /* NULL: the scalar reference */
} impl;

static impl impls[12];
static size_t n_impls;

/* A cmocka group setup: fills impls and says which run. */
static int impls_setup(void **state)
{
    (void)state;
    const char *name;
    n_impls = 0;
    for (size_t i = 0; (name = ordo_impl_at(i, NULL)) && n_impls < 11; i++) {
        const ordo__kernels *k = NULL;
        ordo_status s = ordo__impl_lookup(name, &k);
        if (s == ORDO_OK)
            impls[n_impls++] = (impl){name, k};
        else
            printf("# skipping %s: %s\n", name, ordo_status_message(s));
    }
#ifdef ORDO_ALLOW_EMULATED_KERNELS
    impls[n_impls++] = (impl){"neon-emulated", &ordo__kernels_neon_emulated};
#endif
    for (size_t i = 0; i < n_impls; i++)
        printf("# testing %s\n", impls[i].name);
    return n_impls > 0 ? 0 : -1;
}

#endif
