/* The CSV -> key batch encoder's parts: the input cut into chunks of whole
 * rows (chunker.c), a chunk parsed and encoded (encode_chunk.c), and the
 * workers that run chunks and hand them out in input order (encoder.c). */
#ifndef ORDO_INGEST_ENCODER_H
#define ORDO_INGEST_ENCODER_H

#include "buf.h"
#include "columns.h"

#include <stdio.h>

/* About this many bytes of input per chunk. */
#define ORDO__CHUNK_BYTES ((size_t)1 << 20)
/* Rows encoded per ordo_batch_encode call. */
#define ORDO__BATCH_ROWS 16384
/* Rows longer than this (line end included) by default: PostgreSQL holds
 * no field over 1 GB either. */
#define ORDO__MAX_ROW ((size_t)1 << 30)

/* The chunks' growable buffers are ordo_bufs (buf.h's ordo__buf_reserve). */
typedef ordo_buf ordo__bytes;

/* What a run shares: read-only once the workers start. */
typedef struct ordo__job {
    const ordo_schema *table;
    ordo_schema key;  /* key.cols[k].source: its table column */
    int *is_key;      /* per table column */
    size_t *src;      /* per key column: its table column (key.cols[k].source, packed) */
    size_t src0;      /* src[0]: the field whose column each row reports */
    size_t ncols;     /* table->ncols: the fields a row has */
    int rest;         /* a column that is not a key column, or values: per-row work past the keys */
    ordo_format fmt;
    int no_nulls;     /* packed: a NULL key field is a bad row */
    int header, values, values_all, skip_bad, raw;
    size_t max_row;
    int (*format)(void *ctx, const struct ordo_encoder_batch *b, ordo_buf *out);
    void *format_ctx;
} ordo__job;

/* One chunk of whole rows and everything made of it. */
typedef struct ordo__chunk {
    ordo__bytes in;     /* the rows */
    int too_long;       /* instead: the start of a row longer than the limit */
    size_t first_line;  /* the line the rows start on */
    size_t max_rows;    /* rows it may hold at most: its line ends, and one */
    int first;          /* the input's first chunk: it holds the header */
    int bom;            /* first, after a byte-order mark */
    /* results */
    ordo__batchbuf kb;  /* key columns of rows not yet encoded */
    ordo__batchbuf vb;  /* one row, for checking the other columns */
    int bufs_ready;
    ordo__bytes keys, vals, rejtext;
    ordo__bytes rawin, raws; /* raw: the rows as read (before unquoting in place); each kept row's */
    size_t *koff, *voff, *roff;
    size_t header_at, header_len; /* raw: the header row in rawin */
    uint64_t *lines, *kcols;
    size_t rows, rows_cap;  /* rows encoded; room of the per-row arrays */
    ordo_reject *rejects;
    size_t nrejects, rejects_cap;
    int failed;         /* err ends the chunk, after its rows */
    ordo_error err;
    ordo_encoder_batch batch;
    ordo_buf output;    /* what the job's format hook wrote */
    int done;           /* under the pool's lock */
} ordo__chunk;

/* Parses and encodes the chunk's rows: a worker's task. */
void ordo__chunk_run(const ordo__job *j, ordo__chunk *ch);
void ordo__chunk_free(ordo__chunk *ch);

/* The input: a stream or memory, cut into chunks of whole rows. */
typedef struct ordo__input {
    FILE *f;               /* or */
    const char *mem;
    size_t mem_len, mem_at;
    size_t max_row;
    uint32_t *idx;         /* a slice's structure */
    ordo__bytes carry;     /* the start of a row the last chunk did not end */
    size_t line;           /* the line the next chunk starts on */
    int eof, started, read_error, oom;
    int bom;               /* the input started with a UTF-8 byte-order mark (dropped) */
    uint64_t bytes;        /* read so far */
} ordo__input;

ordo_status ordo__input_init(ordo__input *in, size_t max_row);
void ordo__input_free(ordo__input *in);
/* Fills ch->in with the next whole rows; 0 at the end of input (or on a
 * read error: in->read_error, or out of memory: in->oom). A row not ended
 * after in->max_row bytes ends the input: the chunk says so (too_long). */
int ordo__input_chunk(ordo__input *in, ordo__chunk *ch);

#endif
