/* Sorted runs on disk: records (see keysort.h) written in key order to a
 * new file, read back through a bounded buffer (merge.c merges them). */
#ifndef ORDO_RUNS_H
#define ORDO_RUNS_H

#include "keysort.h"

#include <stdio.h>

/* Writes the records of items[0..n) in that order; 0 on error (err says). */
int ordo__run_write(const char *path, const ordo__keysort_item *items, size_t n, size_t buffer, char *err,
              size_t errlen);

typedef struct ordo__run_reader {
    FILE *f;
    char *iobuf;
    const char *path;
    uint8_t *rec; /* the current record */
    size_t cap;
} ordo__run_reader;

/* Opens a run file to read through `buffer` bytes; 0 on error (err). */
int ordo__run_reader_open(ordo__run_reader *r, const char *path, size_t buffer, char *err,
                          size_t errlen);
/* 1: the next record is r->rec; 0: end of the run; -1: error (err). */
int ordo__run_reader_next(ordo__run_reader *r, char *err, size_t errlen);
void ordo__run_reader_close(ordo__run_reader *r);

/* A run file being written record by record: for merges in several passes. */
typedef struct ordo__run_out {
    FILE *f;
    const char *path;
} ordo__run_out;
int ordo__run_out_open(ordo__run_out *o, const char *path, size_t buffer, char **iobuf, char *err,
                 size_t errlen);
int ordo__run_out_put(ordo__run_out *o, const uint8_t *rec, char *err, size_t errlen);
int ordo__run_out_close(ordo__run_out *o, char *err, size_t errlen);

#endif
