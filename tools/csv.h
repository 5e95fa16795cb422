/* A streaming reader of CSV as PostgreSQL's COPY ... (FORMAT csv) writes it:
 * comma-separated, fields optionally in double quotes with "" for a quote
 * and newlines allowed inside; an unquoted empty field is NULL, a quoted
 * one ("") the empty string. LF or CRLF line ends, an optional UTF-8 BOM,
 * a last line without a newline. Memory is bounded by the longest row. */
#ifndef ORDO_CSV_H
#define ORDO_CSV_H

#include "ordo.h"

#include <stddef.h>
#include <stdio.h>

typedef struct csv_field {
    char *p;       /* unquoted bytes, in the reader's buffer, valid until the next row */
    size_t n;
    int quoted;    /* written in quotes: never NULL */
    size_t line;   /* 1-based line and byte column where the field starts */
    size_t column;
} csv_field;

typedef struct csv_reader {
    FILE *f;
    char *buf;
    size_t cap, len, pos;
    int eof;
    size_t line;       /* line of the next row */
    csv_field *fields;
    size_t nfields, fields_cap;
    /* The structure of buf[.., scanned) (ordo_csv_index): entries
     * idx[next .. count) are at base + idx[k]; in_quotes at scanned. */
    uint32_t *idx;
    size_t base, next, count, scanned;
    int in_quotes;
    ordo_status impl_status; /* ORDO_IMPL's verdict: the reader fails at once */
    int borrowed;            /* buf is the caller's (csv_open_mem) */
    int doubled;             /* the row has a field with "" to unescape */
    size_t max_row;          /* a row still not ended at this many bytes is an error */
    char err[256];     /* message of the last error */
    size_t err_line, err_column;
} csv_reader;

void csv_open(csv_reader *r, FILE *f);
/* The same with an initial buffer of `cap` bytes (it grows for longer rows);
 * small buffers exercise the refill paths in tests. */
void csv_open_sized(csv_reader *r, FILE *f, size_t cap);
/* Whole rows already in memory (buf[0..len), not copied, unquoted in
 * place), the first of them on line first_line. */
void csv_open_mem(csv_reader *r, char *buf, size_t len, size_t first_line);
void csv_close(csv_reader *r);
/* 1: a row is in r->fields[0 .. r->nfields); 0: end of input; -1: error
 * (r->err, r->err_line, r->err_column). */
int csv_next(csv_reader *r);

#endif
