/* A streaming reader of CSV as PostgreSQL's COPY ... (FORMAT csv) writes it:
 * comma-separated, fields optionally in double quotes with "" for a quote
 * and newlines allowed inside; an unquoted empty field is NULL, a quoted
 * one ("") the empty string. LF or CRLF line ends, an optional UTF-8 BOM,
 * a last line without a newline. Memory is bounded by the longest row. */
#ifndef ORDO_INGEST_CSV_H
#define ORDO_INGEST_CSV_H

#include "ordo_ingest.h"

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* An input opened as a stream but a directory: reading it fails with
 * EISDIR, which says less than refusing it where it is opened. */
static inline int ordo__input_is_dir(FILE *f)
{
    struct stat st;
    return !fstat(fileno(f), &st) && S_ISDIR(st.st_mode);
}

typedef struct ordo__csv_reader {
    FILE *f;
    char *buf;
    size_t cap, len, pos;
    int eof;
    size_t line;       /* line of the next row */
    ordo_csv_field *fields;
    size_t nfields, fields_cap;
    /* The structure of buf[.., scanned) (ordo_csv_index): entries
     * idx[next .. count) are at base + idx[k]; in_quotes at scanned. */
    uint32_t *idx;
    size_t base, next, count, scanned;
    int in_quotes;
    ordo_status impl_status; /* ORDO_IMPL's verdict: the reader fails at once */
    int borrowed;            /* buf is the caller's (ordo__csv_open_mem) */
    int doubled;             /* the row has a field with "" to unescape */
    size_t max_row;          /* a row still not ended at this many bytes is an error */
    ordo_status err_status; /* of the last error: ORDO_ERR_BAD_INPUT, _ROW_TOO_LONG, _IO, ... */
    char err[256];     /* message of the last error */
    size_t err_line, err_column;
} ordo__csv_reader;

ordo_status ordo__csv_open(ordo__csv_reader *r, FILE *f);
/* The same with an initial buffer of `cap` bytes (it grows for longer rows);
 * small buffers exercise the refill paths in tests. */
ordo_status ordo__csv_open_sized(ordo__csv_reader *r, FILE *f, size_t cap);
/* Whole rows already in memory (buf[0..len), not copied, unquoted in
 * place), the first of them on line first_line. */
ordo_status ordo__csv_open_mem(ordo__csv_reader *r, char *buf, size_t len, size_t first_line);
void ordo__csv_close(ordo__csv_reader *r);
/* 1: a row is in r->fields[0 .. r->nfields); 0: end of input; -1: error
 * (r->err_status, r->err, r->err_line, r->err_column). */
int ordo__csv_next(ordo__csv_reader *r);

#endif
