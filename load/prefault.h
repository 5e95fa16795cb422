/* Pages of a memory region faulted in ahead of their first use, on a
 * thread of its own: on a VM the kernel zeroing a fresh page costs about
 * 1 ms per MB, as much as the copy that first touches it, and it is done
 * on whichever thread touches it first. */
#ifndef ORDO_LOAD_PREFAULT_H
#define ORDO_LOAD_PREFAULT_H

#include <stddef.h>

typedef struct ordo__prefault ordo__prefault;

/* A thread for the cap bytes at base; NULL when it cannot help here (one
 * CPU, no MADV_POPULATE_WRITE, no thread or memory): the caller's first
 * touches then fault the pages in, as without it. */
ordo__prefault *ordo__prefault_start(void *base, size_t cap);
/* The bytes [0, upto) are wanted soon: faulted in ahead, without changing
 * their contents (MADV_POPULATE_WRITE). Called by one thread; cheap when
 * they were asked for already. p may be NULL. */
void ordo__prefault_ask(ordo__prefault *p, size_t upto);
/* Ends the thread (after its current step of a few MB); p may be NULL. In
 * a process forked while it ran (which has no thread), ask does nothing and
 * stop only frees p. */
void ordo__prefault_stop(ordo__prefault *p);

#endif
