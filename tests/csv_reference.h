/* The CSV reader as it was before ordo_csv_index (a byte loop for the row
 * end, then a split), kept as the tests' reference: the indexed reader must
 * give the same rows, fields, positions and errors. */
#ifndef ORDO_CSV_REFERENCE_H
#define ORDO_CSV_REFERENCE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ref_field {
    char *p;
    size_t n;
    int quoted;
    size_t line, column;
} ref_field;

typedef struct ref_reader {
    FILE *f;
    char *buf;
    size_t cap, len, pos;
    int eof;
    size_t line;
    ref_field *fields;
    size_t nfields, fields_cap;
    char err[256];
    size_t err_line, err_column;
} ref_reader;

static void *ref_alloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        abort();
    return p;
}

static void ref_open_sized(ref_reader *r, FILE *f, size_t cap)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->cap = cap ? cap : 1;
    r->buf = ref_alloc(r->cap);
    r->line = 1;
    r->fields_cap = 16;
    r->fields = ref_alloc(r->fields_cap * sizeof *r->fields);
}

static void ref_close(ref_reader *r)
{
    free(r->buf);
    free(r->fields);
    memset(r, 0, sizeof *r);
}

/* Moves the unread bytes to the front, grows when full, reads more. */
static void ref_refill(ref_reader *r)
{
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
    }
    if (r->len == r->cap) {
        char *p = realloc(r->buf, r->cap * 2);
        if (!p)
            abort();
        r->buf = p;
        r->cap *= 2;
    }
    size_t got = fread(r->buf + r->len, 1, r->cap - r->len, r->f);
    if (got == 0)
        r->eof = 1;
    if (r->line == 1 && r->len == 0 && got >= 3 && !memcmp(r->buf, "\xef\xbb\xbf", 3)) {
        memmove(r->buf, r->buf + 3, got - 3); /* a UTF-8 byte-order mark */
        got -= 3;
    }
    r->len += got;
}

/* The end of the row starting at pos (just past its line end), or 0 when
 * the buffer does not hold all of it yet. Quotes are tracked, not parsed. */
static size_t ref_row_end(const ref_reader *r)
{
    int quoted = 0;
    for (size_t i = r->pos; i < r->len; i++) {
        char c = r->buf[i];
        if (c == '"')
            quoted = !quoted; /* "" inside quotes toggles twice: no change */
        else if (c == '\n' && !quoted)
            return i + 1;
    }
    return r->eof ? r->len : 0;
}

static int ref_fail(ref_reader *r, size_t line, size_t col, const char *msg)
{
    snprintf(r->err, sizeof r->err, "%s", msg);
    r->err_line = line;
    r->err_column = col;
    return -1;
}

static void ref_add_field(ref_reader *r, char *p, size_t n, int quoted, size_t line, size_t col)
{
    if (r->nfields == r->fields_cap) {
        r->fields_cap *= 2;
        ref_field *f = realloc(r->fields, r->fields_cap * sizeof *f);
        if (!f)
            abort();
        r->fields = f;
    }
    r->fields[r->nfields++] = (ref_field){p, n, quoted, line, col};
}

/* Splits the complete row buf[pos, end) into fields, unquoting in place. */
static int ref_split(ref_reader *r, size_t end)
{
    char *b = r->buf;
    size_t i = r->pos, line = r->line, line_start = r->pos;
    /* the line end is not part of the last field */
    size_t stop = end;
    if (stop > i && b[stop - 1] == '\n')
        stop--;
    if (stop > i && b[stop - 1] == '\r')
        stop--;
    r->nfields = 0;
    for (;;) {
        size_t col = i - line_start + 1, fline = line;
        if (i < stop && b[i] == '"') {
            size_t w = ++i, start = i;
            for (;;) {
                if (i >= stop)
                    return ref_fail(r, fline, col, "unterminated quoted field");
                if (b[i] == '"') {
                    if (i + 1 < stop && b[i + 1] == '"') {
                        b[w++] = '"';
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                if (b[i] == '\n')
                    line++, line_start = i + 1;
                b[w++] = b[i++];
            }
            ref_add_field(r, b + start, w - start, 1, fline, col);
            if (i < stop && b[i] != ',')
                return ref_fail(r, line, i - line_start + 1, "unexpected character after a closing quote");
        } else {
            size_t start = i;
            while (i < stop && b[i] != ',' && b[i] != '"')
                i++;
            if (i < stop && b[i] == '"')
                return ref_fail(r, line, i - line_start + 1, "quote inside an unquoted field");
            ref_add_field(r, b + start, i - start, 0, fline, col);
        }
        if (i >= stop)
            break;
        i++; /* the comma */
    }
    r->pos = end;
    r->line = line + 1;
    return 1;
}

static int ref_next(ref_reader *r)
{
    for (;;) {
        if (r->pos == r->len && r->eof)
            return 0;
        size_t end = ref_row_end(r);
        if (end)
            return ref_split(r, end);
        ref_refill(r);
    }
}

#endif
