#include "csv.h"

#include <stdlib.h>
#include <string.h>

#define CSV_CHUNK ((size_t)1 << 20)
/* The longest row read (its line end included): PostgreSQL holds no field
 * over 1 GB either. */
#define CSV_MAX_ROW ((size_t)1 << 30)
/* Bytes indexed at a time: the index stays in L1/L2 while rows use it. */
#define CSV_SLICE ((size_t)16 << 10)

ordo_status ordo__csv_open(ordo__csv_reader *r, FILE *f)
{
    return ordo__csv_open_sized(r, f, CSV_CHUNK);
}

/* Everything but the buffer. */
static ordo_status init(ordo__csv_reader *r, FILE *f, char *buf, size_t cap)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->buf = buf;
    r->cap = cap;
    r->line = 1;
    r->max_row = CSV_MAX_ROW;
    r->fields_cap = 16;
    r->fields = malloc(r->fields_cap * sizeof *r->fields);
    r->idx = malloc(ORDO_CSV_INDEX_ROOM(CSV_SLICE) * sizeof *r->idx);
    ordo_impl_name(&r->impl_status);
    if (!r->fields || !r->idx) {
        free(r->fields), free(r->idx);
        r->fields = NULL, r->idx = NULL;
        return ORDO_ERR_OUT_OF_MEMORY;
    }
    return ORDO_OK;
}

ordo_status ordo__csv_open_sized(ordo__csv_reader *r, FILE *f, size_t cap)
{
    cap = cap ? cap : 1;
    char *buf = malloc(cap);
    ordo_status s = buf ? init(r, f, buf, cap) : ORDO_ERR_OUT_OF_MEMORY;
    if (s != ORDO_OK) {
        free(buf);
        memset(r, 0, sizeof *r);
    }
    return s;
}

ordo_status ordo__csv_open_mem(ordo__csv_reader *r, char *buf, size_t len, size_t first_line)
{
    ordo_status s = init(r, NULL, buf, len);
    r->len = len;
    r->eof = 1;
    r->borrowed = 1;
    r->line = first_line;
    return s;
}

void ordo__csv_close(ordo__csv_reader *r)
{
    if (!r->borrowed)
        free(r->buf);
    free(r->fields);
    free(r->idx);
    memset(r, 0, sizeof *r);
}

static int fail_as(ordo__csv_reader *r, ordo_status st, size_t line, size_t col, const char *msg)
{
    r->err_status = st;
    snprintf(r->err, sizeof r->err, "%s", msg);
    r->err_line = line;
    r->err_column = col;
    return -1;
}

static int fail(ordo__csv_reader *r, size_t line, size_t col, const char *msg)
{
    return fail_as(r, ORDO_ERR_BAD_INPUT, line, col, msg);
}

/* Moves the unread bytes to the front, grows when full, reads more; -1
 * when the one row the buffer holds is already too long. The index
 * restarts at the row start, which is outside quotes. */
static int refill(ordo__csv_reader *r)
{
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
    }
    if (r->len == r->cap) {
        /* a quoted field left open would read the rest of the input */
        if (r->len >= r->max_row) {
            char msg[96];
            snprintf(msg, sizeof msg, "a row longer than %zu bytes: a quoted field left open?",
                     r->max_row);
            return fail_as(r, ORDO_ERR_ROW_TOO_LONG, r->line, 1, msg);
        }
        char *p = realloc(r->buf, r->cap * 2);
        if (!p)
            return fail_as(r, ORDO_ERR_OUT_OF_MEMORY, r->line, 1, "out of memory");
        r->buf = p;
        r->cap *= 2;
    }
    size_t got = fread(r->buf + r->len, 1, r->cap - r->len, r->f);
    if (got == 0 && ferror(r->f))
        return fail_as(r, ORDO_ERR_IO, 0, 0, "read error");
    if (got == 0)
        r->eof = 1;
    if (r->line == 1 && r->len == 0 && got >= 3 && !memcmp(r->buf, "\xef\xbb\xbf", 3)) {
        memmove(r->buf, r->buf + 3, got - 3); /* a UTF-8 byte-order mark */
        got -= 3;
    }
    r->len += got;
    r->scanned = 0;
    r->in_quotes = 0;
    r->next = r->count = 0;
    return 0;
}

/* Indexes the next slice of the buffer; 0 when the buffer is used up. */
static int more(ordo__csv_reader *r)
{
    while (r->scanned < r->len) {
        size_t n = r->len - r->scanned, got = 0;
        if (n > CSV_SLICE)
            n = CSV_SLICE;
        ordo_csv_index((const uint8_t *)r->buf + r->scanned, n, r->idx,
                       ORDO_CSV_INDEX_ROOM(CSV_SLICE), &got, &r->in_quotes);
        r->base = r->scanned;
        r->scanned += n;
        r->next = 0;
        r->count = got;
        if (got)
            return 1;
    }
    return 0;
}

/* The next structural position: a '"', or a ',' or '\n' outside quotes. */
static inline int entry(ordo__csv_reader *r, size_t *at)
{
    if (r->next == r->count && !more(r))
        return 0;
    *at = r->base + r->idx[r->next++];
    return 1;
}

/* 0 when out of memory. */
static int add_field(ordo__csv_reader *r, char *p, size_t n, int quoted, size_t line, size_t col)
{
    if (r->nfields == r->fields_cap) {
        ordo_csv_field *f = realloc(r->fields, 2 * r->fields_cap * sizeof *f);
        if (!f)
            return fail_as(r, ORDO_ERR_OUT_OF_MEMORY, line, col, "out of memory") + 1;
        r->fields = f;
        r->fields_cap *= 2;
    }
    r->fields[r->nfields++] = (ordo_csv_field){p, n, quoted, line, col};
    return 1;
}

/* Line ends inside a quoted field: the line count and where the last begins. */
static void count_lines(const char *b, size_t from, size_t to, size_t *line, size_t *line_start)
{
    const char *p = b + from, *end = b + to;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        ++*line;
        *line_start = (size_t)(++p - b);
    }
}

/* "" to " in the fields that have them, once the row is whole (a row that
 * turns out incomplete is parsed again after a refill, so it must not have
 * changed). */
static void unescape_quotes(ordo__csv_reader *r)
{
    for (size_t k = 0; r->doubled && k < r->nfields; k++) {
        ordo_csv_field *f = &r->fields[k];
        if (f->quoted != 2)
            continue;
        size_t w = 0;
        for (size_t i = 0; i < f->n; i++, w++) {
            f->p[w] = f->p[i];
            if (f->p[i] == '"')
                i++;
        }
        f->n = w;
        f->quoted = 1;
    }
}

/* One row from pos: 1 when whole, 0 when the buffer ends first, -1 on a
 * malformed row (the first fault in reading order, with its position). */
static int parse_row(ordo__csv_reader *r)
{
    char *b = r->buf;
    size_t i = r->pos, line = r->line, line_start = r->pos, e = 0;
    r->nfields = 0;
    r->doubled = 0;
    for (;;) {
        size_t col = i - line_start + 1;
        if (!entry(r, &e)) {
            if (!r->eof)
                return 0;
            /* The input's last line has no line end; no quote in it either
             * (every quote is an entry). */
            size_t end = r->len;
            if (end > i && b[end - 1] == '\r')
                end--;
            if (!add_field(r, b + i, end - i, 0, line, col))
                return -1;
            r->pos = r->len;
            break;
        }
        if (b[e] != '"') { /* an unquoted field ends at e */
            size_t end = e;
            if (b[e] == '\n' && end > i && b[end - 1] == '\r')
                end--;
            if (!add_field(r, b + i, end - i, 0, line, col))
                return -1;
            i = e + 1;
            if (b[e] == ',')
                continue;
            r->pos = i;
            break;
        }
        if (e != i)
            return fail(r, line, e - line_start + 1, "quote inside an unquoted field");
        /* Quoted: inside quotes the only entries are quotes. */
        size_t fline = line, from = i + 1, q, after = 0;
        int doubled = 0, have;
        for (;;) {
            if (!entry(r, &q)) {
                if (!r->eof)
                    return 0;
                return fail(r, fline, col, "unterminated quoted field");
            }
            count_lines(b, from, q, &line, &line_start);
            have = entry(r, &after);
            if (have && after == q + 1 && b[after] == '"') {
                doubled = 1; /* "" */
                from = q + 2;
                continue;
            }
            break;
        }
        if (!add_field(r, b + i + 1, q - i - 1, doubled ? 2 : 1, fline, col))
            return -1;
        r->doubled |= doubled;
        /* After the closing quote: a comma, the line end (CR LF too) or the
         * end of input. */
        size_t next = q + 1;
        if (have && after == next) {
            i = after + 1;
            if (b[after] == ',')
                continue;
            r->pos = i;
            break;
        }
        if (have && after == next + 1 && b[next] == '\r' && b[after] == '\n') {
            r->pos = after + 1;
            break;
        }
        if (!have && !r->eof)
            return 0;
        if (!have && (next == r->len || (next + 1 == r->len && b[next] == '\r'))) {
            r->pos = r->len;
            break;
        }
        return fail(r, line, next - line_start + 1, "unexpected character after a closing quote");
    }
    unescape_quotes(r);
    r->line = line + 1;
    return 1;
}

int ordo__csv_next(ordo__csv_reader *r)
{
    if (r->impl_status != ORDO_OK)
        return fail_as(r, r->impl_status, r->line, 1, ordo_status_message(r->impl_status));
    for (;;) {
        if (r->pos == r->len && r->eof)
            return 0;
        int rc = parse_row(r);
        if (rc)
            return rc;
        if (refill(r) < 0)
            return -1;
    }
}
