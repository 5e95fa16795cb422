/* The input cut into chunks of whole rows, quotes respected, for workers
 * to parse independently; lines counted so that each chunk knows where it
 * starts. */
#include "encoder.h"

#include <stdlib.h>
#include <string.h>

/* Bytes indexed per ordo_csv_index call when looking for a row end. */
#define SLICE ((size_t)1 << 16)

ordo_status ordo__input_init(ordo__input *in, size_t max_row)
{
    memset(in, 0, sizeof *in);
    in->max_row = max_row;
    in->line = 1;
    in->idx = malloc(ORDO_CSV_INDEX_ROOM(SLICE) * sizeof *in->idx);
    return in->idx ? ORDO_OK : ORDO_ERR_OUT_OF_MEMORY;
}

void ordo__input_free(ordo__input *in)
{
    free(in->idx);
    free(in->carry.data);
    if (in->f)
        fclose(in->f);
    memset(in, 0, sizeof *in);
}

/* '\n' bytes in p[0..n), quoted ones too: lines, for error positions.
 * Written for the compiler's vectoriser: a 32-bit count per 4 KiB. */
static size_t count_newlines(const char *p, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n;) {
        size_t m = n - i < 4096 ? n - i : 4096;
        uint32_t part = 0;
        for (size_t k = 0; k < m; k++)
            part += p[i + k] == '\n';
        c += part;
        i += m;
    }
    return c;
}

/* Where the last whole row of p[0..n) ends (just past its '\n'), 0 when
 * none does; p starts a row. Only p[from..n) is scanned: *inq is the quote
 * state at `from` (0 at a row start) and is carried out to n, so a row
 * read piece by piece is scanned once, not once per piece. */
static size_t last_row_end(const char *p, size_t from, size_t n, int *inq, uint32_t *idx)
{
    if (!memchr(p + from, '"', n - from)) { /* no quote: the state holds */
        if (*inq)
            return 0;
        for (size_t i = n; i > from; i--)
            if (p[i - 1] == '\n')
                return i;
        return 0;
    }
    size_t end = 0;
    for (size_t at = from; at < n; at += SLICE) {
        size_t len = n - at < SLICE ? n - at : SLICE, got = 0;
        if (ordo_csv_index((const uint8_t *)p + at, len, idx, ORDO_CSV_INDEX_ROOM(SLICE), &got,
                           inq) != ORDO_OK)
            return 0; /* not reached: ORDO_IMPL is checked before any input */
        for (size_t k = got; k > 0; k--)
            if (p[at + idx[k - 1]] == '\n') {
                end = at + idx[k - 1] + 1;
                break;
            }
    }
    return end;
}

/* Up to n bytes into dst, as many as there are (fread's contract). */
static size_t input_read(ordo__input *in, char *dst, size_t n)
{
    if (!in->f) {
        size_t got = in->mem_len - in->mem_at < n ? in->mem_len - in->mem_at : n;
        if (got)
            memcpy(dst, in->mem + in->mem_at, got);
        in->mem_at += got;
        return got;
    }
    size_t got = fread(dst, 1, n, in->f);
    if (got < n && ferror(in->f))
        in->read_error = 1;
    return got;
}

int ordo__input_chunk(ordo__input *in, ordo__chunk *ch)
{
    ordo__bytes *b = &ch->in;
    b->len = 0;
    ch->too_long = 0;
    if (in->carry.len) {
        if (!ordo__buf_reserve(b, in->carry.len)) {
            in->oom = 1;
            return 0;
        }
        memcpy(b->data, in->carry.data, in->carry.len);
    }
    b->len = in->carry.len;
    in->carry.len = 0;
    size_t split = 0, scanned = 0;
    int inq = 0;
    while (!in->eof) {
        if (!ordo__buf_reserve(b, ORDO__CHUNK_BYTES)) {
            in->oom = 1;
            return 0;
        }
        size_t got = input_read(in, b->data + b->len, ORDO__CHUNK_BYTES);
        in->bytes += got;
        if (got == 0) {
            in->eof = 1;
            break;
        }
        if (!in->started && got >= 3 && !memcmp(b->data, "\xef\xbb\xbf", 3)) {
            memmove(b->data, b->data + 3, got - 3); /* a UTF-8 byte-order mark */
            got -= 3;
            in->bom = 1;
        }
        in->started = 1;
        b->len += got;
        split = last_row_end(b->data, scanned, b->len, &inq, in->idx);
        scanned = b->len;
        if (split > 0)
            break;
        if (b->len > in->max_row) { /* b is all one row, not ended yet */
            ch->too_long = 1;
            ch->first_line = in->line;
            in->eof = 1;
            return 1;
        }
        /* else a row longer than the chunk: read on */
    }
    if (in->eof)
        split = b->len; /* the last row may lack its line end */
    size_t rest = b->len - split;
    if (rest) {
        if (!ordo__buf_reserve(&in->carry, rest)) {
            in->oom = 1;
            return 0;
        }
        memcpy(in->carry.data, b->data + split, rest);
    }
    in->carry.len = rest;
    b->len = split;
    ch->first_line = in->line;
    ch->first = in->line == 1;
    ch->bom = ch->first && in->bom;
    size_t lines = count_newlines(b->data, split);
    ch->max_rows = lines + 1;
    in->line += lines;
    return split > 0;
}
