/* Sorted runs on disk: records (see keysort.h) written in key order to a
 * new file, read back through a bounded buffer (merge.c merges them). The
 * run writer's files end with a sparse index (run_index.h) that readers
 * seek with; a merge's intermediate runs are bare records. */
#ifndef ORDO_RUNS_H
#define ORDO_RUNS_H

#include "keysort.h"
#include "outfiles.h"
#include "run_index.h"

#include <stdio.h>

/* Writes the records of items[0..n) in that order, then their index, to a
 * new file (never one that exists: O_EXCL|O_NOFOLLOW); 1, or 0 on a write
 * error, -1 out of memory (err says). *id (when not NULL) records the file
 * made, for ordo__out_remove. */
int ordo__run_write(const char *path, const ordo__keysort_item *items, size_t n, size_t buffer,
                    ordo__out_file *id, char *err, size_t errlen);

/* Reads go through its own buffer, never past the records' end (nor the
 * range's): stdio would read a buffer ahead. */
typedef struct ordo__run_reader {
    int fd, opened;
    const char *path;
    uint8_t *rec; /* the current record */
    size_t cap;
    uint64_t pos, end; /* where the next record starts, where reading ends */
    uint64_t file_at;  /* the file offset of the buffer's end */
    uint8_t *buf;      /* bytes buf[at .. len) are next */
    size_t buf_cap, buf_at, buf_len;
    ordo__run_index ix;
    size_t buffer;
    int indexed;
    int started;   /* the buffer is allocated: reading began */
    int malformed; /* the last error was the file's content, not reading it */
    /* an indexed file's blocks in the range read: their ends and CRC32C;
     * records are read only from [pos, checked), blocks checked */
    struct ordo__run_block {
        uint64_t end;
        uint32_t crc;
    } *blk;
    size_t nblk, blk_next;
    uint64_t checked;
} ordo__run_reader;

/* Opens a run file to read through `buffer` bytes; 0 on error (err, and
 * r->malformed). indexed: the file must end with an index (a run writer's
 * file: one without, a truncated or damaged one is refused) and each block
 * is checked (CRC32C) before a record of it is read (a damaged one is
 * refused); 0: bare records to the end of the file (a merge pass's own). */
int ordo__run_reader_open(ordo__run_reader *r, const char *path, size_t buffer, int indexed,
                          char *err, size_t errlen);
/* Before the first next only: narrows the records read to index blocks that
 * may hold keys in [lo, hi) (lo, hi NULL: unbounded), so that reading
 * starts at or before the first key >= lo and ends after the last below hi,
 * the buffer no larger than that stretch (no read-ahead past it); the index
 * is freed. Without an index, the whole run. 1, or 0 on error (err). */
int ordo__run_reader_range(ordo__run_reader *r, const uint8_t *lo, size_t lo_len,
                           const uint8_t *hi, size_t hi_len, char *err, size_t errlen);
/* 1: the next record is r->rec; 0: end of the run; -1: error (err, and
 * r->malformed for a record that does not fit in the file). */
int ordo__run_reader_next(ordo__run_reader *r, char *err, size_t errlen);
void ordo__run_reader_close(ordo__run_reader *r);

/* A run file being written record by record: for merges in several passes. */
typedef struct ordo__run_out {
    FILE *f;
    const char *path;
    int indexed, oom;
    ordo__out_file id; /* the file made */
    uint64_t pos, mark; /* bytes written; where the next index entry is due */
    ordo__run_index ix;
} ordo__run_out;
/* indexed: an index is kept and written at close. */
int ordo__run_out_open(ordo__run_out *o, const char *path, size_t buffer, char **iobuf,
                       int indexed, char *err, size_t errlen);
int ordo__run_out_put(ordo__run_out *o, const uint8_t *rec, char *err, size_t errlen);
int ordo__run_out_close(ordo__run_out *o, char *err, size_t errlen);

#endif
