/* The merger's internal hooks: a writer's in-memory run joins a run set,
 * and the SST writer takes merged records as they are. */
#ifndef ORDO_MERGE_H
#define ORDO_MERGE_H

#include "keysort.h"
#include "load_internal.h"

/* Adds n items (records the writer owns; it outlives r) as the last runs:
 * items[0, split) and items[split, n) each sorted (split n: one run);
 * tmp_dir (copied) is where passes go when the options name none. */
ordo_status ordo__runs_add_memory(ordo_runs *r, const ordo__keysort_item *items, size_t n,
                                  size_t split, const char *tmp_dir, ordo_error *err);

/* ordo_sst_writer_add of a record in the runs' layout. */
ordo_status ordo__sst_writer_put(ordo_sst_writer *w, const uint8_t *rec, ordo_error *err);

#endif
