/* Sorted runs on disk, for the external sort of `ordo load`: records (see
 * keysort.h) written in key order to a temporary file, read back through a
 * bounded buffer, and merged k ways. */
#ifndef ORDO_RUNS_H
#define ORDO_RUNS_H

#include "keysort.h"

#include <stdio.h>

/* Writes the records of items[0..n) in that order; 0 on error (err says). */
int run_write(const char *path, const keysort_item *items, size_t n, size_t buffer, char *err,
              size_t errlen);

typedef struct run_reader {
    FILE *f;
    char *iobuf;
    uint8_t *rec; /* the current record */
    size_t cap;
    size_t index; /* the run's position in input order: breaks ties */
} run_reader;

/* Called with each record in merged order; returns 0 to stop (err set). */
typedef int (*rec_sink)(void *ctx, const uint8_t *rec, char *err, size_t errlen);

/* Merges the runs at paths[0..k) (in input order, so that equal keys come out
 * in input order too) into sink, each read through `buffer` bytes. */
int runs_merge(char *const *paths, size_t k, size_t buffer, rec_sink sink, void *ctx, char *err,
               size_t errlen);

/* A sink appending to a run file: for merges in several passes. */
typedef struct run_out {
    FILE *f;
    const char *path;
} run_out;
int run_out_open(run_out *o, const char *path, size_t buffer, char **iobuf, char *err,
                 size_t errlen);
int run_out_sink(void *ctx, const uint8_t *rec, char *err, size_t errlen);
int run_out_close(run_out *o, char *err, size_t errlen);

#endif
