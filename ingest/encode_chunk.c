/* A chunk of whole CSV rows parsed and encoded: every field checked, the
 * key columns encoded with the batch API, the other columns kept as the
 * value form, and each row's line. A bad row ends the chunk (its rows
 * before stay), or with skip_bad is kept aside as a reject. */
#include "csv.h"
#include "encoder.h"
#include "fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(ordo__chunk *ch, ordo_status s, uint64_t line, uint64_t column, const char *msg)
{
    ch->failed = 1;
    ch->err.status = s;
    ch->err.line = line, ch->err.column = column;
    snprintf(ch->err.message, sizeof ch->err.message, "%s", msg);
    return 0;
}

static int oom(ordo__chunk *ch) { return fail(ch, ORDO_ERR_OUT_OF_MEMORY, 0, 0, "out of memory"); }

/* The per-row arrays hold at least `rows` rows. */
static int rows_room(ordo__chunk *ch, size_t rows)
{
    if (rows <= ch->rows_cap)
        return 1;
    size_t cap = ch->rows_cap ? ch->rows_cap : 1024;
    while (cap < rows)
        cap *= 2;
    size_t *ko = realloc(ch->koff, (cap + 1) * sizeof *ko);
    if (ko)
        ch->koff = ko;
    size_t *vo = realloc(ch->voff, (cap + 1) * sizeof *vo);
    if (vo)
        ch->voff = vo;
    uint64_t *li = realloc(ch->lines, cap * sizeof *li);
    if (li)
        ch->lines = li;
    uint64_t *kc = realloc(ch->kcols, cap * sizeof *kc);
    if (kc)
        ch->kcols = kc;
    size_t *ro = realloc(ch->roff, (cap + 1) * sizeof *ro);
    if (ro)
        ch->roff = ro;
    if (!ko || !vo || !li || !kc || !ro)
        return 0;
    ch->rows_cap = cap;
    return 1;
}

/* Room in the per-row arrays for a batch more of rows, so that a row needs
 * no check of its own; no more than the chunk's lines, though, which a
 * row of quoted line breaks can outnumber (rows never do). */
static int batch_room(ordo__chunk *ch)
{
    size_t want = ch->rows + ORDO__BATCH_ROWS;
    return rows_room(ch, want < ch->max_rows ? want : ch->max_rows);
}

/* Encodes the rows held in kb and appends their keys. */
static int encode_pending(const ordo__job *j, ordo__chunk *ch)
{
    ordo__batchbuf *b = &ch->kb;
    size_t n = b->rows;
    if (n == 0)
        return 1;
    const ordo_column *cols = ordo__batchbuf_view_keyed(b);
    size_t total = 0;
    ordo_batch_error where = {0, 0};
    ordo_status s = ordo_batch_size(j->fmt, cols, j->key.ncols, n, &total, NULL, &where);
    if (s == ORDO_OK && !ordo__buf_reserve(&ch->keys, total))
        s = ORDO_ERR_OUT_OF_MEMORY;
    /* the offsets go straight to koff, from 0: moved by the keys before */
    size_t base = ch->keys.len, *off = ch->koff + ch->rows;
    if (s == ORDO_OK)
        s = ordo_batch_encode(j->fmt, cols, j->key.ncols, n, (uint8_t *)ch->keys.data + base,
                              total, off, &where);
    ordo__batchbuf_clear(b);
    if (s != ORDO_OK) { /* the fields were checked one by one: not expected */
        char msg[sizeof ch->err.message];
        snprintf(msg, sizeof msg, "column '%s': %s", j->key.cols[where.column].name,
                 ordo_status_message(s));
        return fail(ch, s, ch->lines[ch->rows + where.row], 0, msg);
    }
    for (size_t r = 0; base && r <= n; r++)
        off[r] += base;
    ch->keys.len += total;
    ch->rows += n;
    if (j->format) { /* the caller's work on these rows, while their keys are in cache */
        ordo_encoder_batch part = {0};
        part.rows = n;
        part.keys = (const uint8_t *)ch->keys.data;
        part.key_offsets = ch->koff + ch->rows - n;
        part.lines = ch->lines + ch->rows - n;
        part.key_columns = ch->kcols + ch->rows - n;
        if (j->values) {
            part.values = (const uint8_t *)ch->vals.data;
            part.value_offsets = ch->voff + ch->rows - n;
        }
        if (!j->format(j->format_ctx, &part, &ch->output))
            return oom(ch);
    }
    return 1;
}

/* The row as CSV, for a file of rejects: NULL stays an empty field, text in
 * quotes stays in quotes. */
static int reject_text(ordo__bytes *o, const ordo__csv_reader *rd)
{
    size_t need = 1;
    for (size_t c = 0; c < rd->nfields; c++)
        need += 2 * rd->fields[c].n + 3;
    if (!ordo__buf_reserve(o, need))
        return 0;
    char *w = o->data + o->len;
    for (size_t c = 0; c < rd->nfields; c++) {
        const ordo_csv_field *f = &rd->fields[c];
        if (c)
            *w++ = ',';
        int quote = f->quoted;
        for (size_t i = 0; i < f->n && !quote; i++)
            quote = f->p[i] == ',' || f->p[i] == '"' || f->p[i] == '\n' || f->p[i] == '\r';
        if (quote)
            *w++ = '"';
        for (size_t i = 0; i < f->n; i++) {
            if (quote && f->p[i] == '"')
                *w++ = '"';
            *w++ = f->p[i];
        }
        if (quote)
            *w++ = '"';
    }
    *w++ = '\n';
    o->len = (size_t)(w - o->data);
    return 1;
}

/* Keeps a bad row aside; pointers are set once the chunk is done (the
 * text buffer may still move). */
static int add_reject(ordo__chunk *ch, const ordo__csv_reader *rd, const ordo_error *e)
{
    if (ch->nrejects == ch->rejects_cap) {
        size_t cap = ch->rejects_cap ? 2 * ch->rejects_cap : 16;
        ordo_reject *p = realloc(ch->rejects, cap * sizeof *p);
        if (!p)
            return 0;
        ch->rejects = p, ch->rejects_cap = cap;
    }
    size_t msg_at = ch->rejtext.len, mlen = strlen(e->message) + 1;
    if (!ordo__buf_reserve(&ch->rejtext, mlen))
        return 0;
    memcpy(ch->rejtext.data + msg_at, e->message, mlen);
    ch->rejtext.len += mlen;
    size_t row_at = ch->rejtext.len;
    if (!reject_text(&ch->rejtext, rd))
        return 0;
    ordo_reject *r = &ch->rejects[ch->nrejects++];
    r->line = e->line, r->column = e->column;
    r->message = (const char *)(uintptr_t)msg_at; /* offsets until done */
    r->row = (const char *)(uintptr_t)row_at;
    r->row_len = ch->rejtext.len - row_at;
    return 1;
}

/* Row r's key fields into kb, in key order; 1, or 0 with e set and
 * nothing of the row left in kb. The hot loop: nothing else here. */
static int take_keys(const ordo__job *j, ordo__batchbuf *kb, size_t r, const ordo_csv_field *fl,
                     ordo_error *e)
{
    const size_t *src = j->src;
    for (size_t k = 0, n = j->key.ncols; k < n; k++) {
        const ordo_csv_field *f = &fl[src[k]];
        const char *why = f->n == 0 && !f->quoted && j->no_nulls
                              ? "NULL in a packed key (its columns are NOT NULL)"
                              : ordo__field_put_hot(kb, k, r, f->p, f->n, f->quoted);
        if (why) {
            ordo__field_error(f, &j->key.cols[k], why, e);
            ordo__batchbuf_drop_row(kb, r);
            return 0;
        }
    }
    return 1;
}

/* Room for the row's value: the most each field can take. */
static int value_room(ordo__chunk *ch, const ordo__csv_reader *rd)
{
    size_t need = 0;
    for (size_t c = 0; c < rd->nfields; c++)
        need += ORDO_ROW_VALUE_MAX(rd->fields[c].n);
    return ordo__buf_reserve(&ch->vals, need);
}

/* take_keys, then the columns that are not key columns checked in table
 * order, and the row's value; 1, or 0 with e set and nothing of the row
 * left behind. */
static int take_all(const ordo__job *j, ordo__chunk *ch, const ordo__csv_reader *rd, size_t r,
                    ordo_error *e)
{
    if (j->values && !value_room(ch, rd)) {
        memset(e, 0, sizeof *e);
        e->status = ORDO_ERR_OUT_OF_MEMORY;
        snprintf(e->message, sizeof e->message, "out of memory");
        return 0;
    }
    if (!take_keys(j, &ch->kb, r, rd->fields, e))
        return 0;
    const ordo_schema *t = j->table;
    size_t at = ch->vals.len;
    for (size_t c = 0; c < t->ncols; c++) {
        const ordo_csv_field *f = &rd->fields[c];
        if (!j->is_key[c]) {
            const char *why = ordo__field_put(&ch->vb, c, 0, f->p, f->n, f->quoted);
            ordo__batchbuf_drop_cell(&ch->vb, c, 0); /* (the other cells hold nothing) */
            if (why) {
                ordo__field_error(f, &t->cols[c], why, e);
                ordo__batchbuf_drop_row(&ch->kb, r);
                return 0;
            }
        }
        if (j->values && (!j->is_key[c] || j->values_all))
            at += ordo_row_value_put((uint8_t *)ch->vals.data + at, f->p, f->n,
                                     f->n == 0 && !f->quoted);
    }
    if (j->values)
        ch->voff[ch->rows + r + 1] = ch->vals.len = at;
    return 1;
}

/* Parses one row into the key columns (and the rest: take_all); 1, or 0
 * with e set (a bad row: ORDO_ERR_BAD_INPUT; out of memory). Key fields
 * are checked first, in key order, then the others in table order. The
 * per-row arrays have room (batch_room). */
static int take_row(const ordo__job *j, ordo__chunk *ch, const ordo__csv_reader *rd, ordo_error *e)
{
    if (rd->nfields != j->ncols) {
        ordo__field_count_error(rd, j->ncols, e);
        return 0;
    }
    size_t r = ch->kb.rows;
    if (!(j->rest ? take_all(j, ch, rd, r, e) : take_keys(j, &ch->kb, r, rd->fields, e)))
        return 0;
    size_t at_row = ch->rows + r;
    ch->lines[at_row] = rd->fields[0].line;
    ch->kcols[at_row] = rd->fields[j->src0].column;
    ch->kb.rows = r + 1;
    return 1;
}

/* The row just taken, rawin[at .. end), as the last kept row's bytes. */
static int keep_raw(ordo__chunk *ch, size_t at, size_t end)
{
    ordo__bytes *o = &ch->raws;
    if (!ordo__buf_reserve(o, end - at))
        return 0;
    memcpy(o->data + o->len, ch->rawin.data + at, end - at);
    o->len += end - at;
    ch->roff[ch->rows + ch->kb.rows] = o->len;
    return 1;
}

static int too_long(const ordo__job *j, ordo__chunk *ch, size_t line)
{
    char msg[128];
    snprintf(msg, sizeof msg, "a row longer than %zu bytes: a quoted field left open?", j->max_row);
    return fail(ch, ORDO_ERR_ROW_TOO_LONG, line, 1, msg);
}

/* The buffers a chunk keeps from run to run. */
static int ready(const ordo__job *j, ordo__chunk *ch)
{
    if (ch->bufs_ready)
        return 1;
    if (ordo__batchbuf_init(&ch->kb, &j->key, ORDO__BATCH_ROWS) != ORDO_OK ||
        ordo__batchbuf_init(&ch->vb, j->table, 1) != ORDO_OK ||
        !rows_room(ch, 1024))
        return 0;
    ch->bufs_ready = 1;
    return 1;
}

/* The batch the caller sees: pointers into the chunk's buffers. */
static void publish(const ordo__job *j, ordo__chunk *ch)
{
    for (size_t k = 0; k < ch->nrejects; k++) {
        ch->rejects[k].message = ch->rejtext.data + (uintptr_t)ch->rejects[k].message;
        ch->rejects[k].row = ch->rejtext.data + (uintptr_t)ch->rejects[k].row;
    }
    ordo_encoder_batch *b = &ch->batch;
    memset(b, 0, sizeof *b);
    b->rows = ch->rows;
    b->keys = (const uint8_t *)ch->keys.data;
    b->key_offsets = ch->koff;
    if (j->values) {
        b->values = (const uint8_t *)ch->vals.data;
        b->value_offsets = ch->voff;
    }
    b->lines = ch->lines;
    b->key_columns = ch->kcols;
    b->rejects = ch->rejects;
    b->nrejects = ch->nrejects;
    if (j->raw) {
        b->bom = ch->bom;
        b->raw = (const uint8_t *)ch->raws.data;
        b->raw_offsets = ch->roff;
        if (ch->header_len)
            b->header = (const uint8_t *)ch->rawin.data + ch->header_at,
            b->header_len = ch->header_len;
    }
    if (j->format) /* what the format hook appended, part by part */
        b->output = ch->output.data, b->output_len = ch->output.len;
}

void ordo__chunk_run(const ordo__job *j, ordo__chunk *ch)
{
    ch->keys.len = ch->vals.len = ch->rejtext.len = ch->output.len = 0;
    ch->rows = ch->nrejects = 0;
    ch->failed = 0;
    memset(&ch->err, 0, sizeof ch->err);
    if (!ready(j, ch)) {
        oom(ch);
        publish(j, ch);
        return;
    }
    ch->koff[0] = ch->voff[0] = ch->roff[0] = 0;
    ch->raws.len = ch->header_len = 0;
    /* the reader unquotes in place: the rows as read are a copy */
    if (j->raw && !ch->too_long) {
        if (!ordo__buf_reserve(&ch->rawin, ch->in.len)) {
            oom(ch);
            publish(j, ch);
            return;
        }
        if (ch->in.len)
            memcpy(ch->rawin.data, ch->in.data, ch->in.len);
    }
    if (ch->too_long) {
        too_long(j, ch, ch->first_line);
        publish(j, ch);
        return;
    }
    ordo__csv_reader rd;
    if (ordo__csv_open_mem(&rd, ch->in.data, ch->in.len, ch->first_line) != ORDO_OK) {
        oom(ch);
        publish(j, ch);
        return;
    }
    int rc = 0, header = ch->first && j->header;
    size_t row_at = 0, row_line = ch->first_line; /* where the next row starts */
    ordo_error e;
    if (!batch_room(ch))
        oom(ch);
    while (!ch->failed && (rc = ordo__csv_next(&rd)) == 1) {
        if (rd.pos - row_at > j->max_row) { /* a long row that does end */
            too_long(j, ch, row_line);
            break;
        }
        size_t start = row_at;
        row_at = rd.pos, row_line = rd.line;
        if (header) {
            header = 0;
            ch->header_at = start, ch->header_len = rd.pos - start;
            if (!ordo__header_check(&rd, j->table, &e))
                fail(ch, e.status, e.line, e.column, e.message);
            continue;
        }
        if (take_row(j, ch, &rd, &e)) {
            if (j->raw && !keep_raw(ch, start, rd.pos)) {
                oom(ch);
                break;
            }
            if (ch->kb.rows == ORDO__BATCH_ROWS && encode_pending(j, ch) && !batch_room(ch))
                oom(ch);
            continue;
        }
        if (e.status == ORDO_ERR_BAD_INPUT && j->skip_bad) {
            if (!add_reject(ch, &rd, &e))
                oom(ch);
            continue;
        }
        fail(ch, e.status, e.line, e.column, e.message);
    }
    if (rc < 0)
        fail(ch, rd.err_status, rd.err_line, rd.err_column, rd.err);
    int failed = ch->failed;
    ordo_error saved = ch->err;
    encode_pending(j, ch); /* the rows before a bad one are kept */
    if (failed) /* the first error stands */
        ch->err = saved, ch->failed = 1;
    ordo__csv_close(&rd);
    publish(j, ch);
}

void ordo__chunk_free(ordo__chunk *ch)
{
    ordo__batchbuf_free(&ch->kb); /* a zeroed one too */
    ordo__batchbuf_free(&ch->vb);
    free(ch->in.data), free(ch->keys.data), free(ch->vals.data), free(ch->rejtext.data);
    free(ch->output.data), free(ch->rawin.data), free(ch->raws.data);
    free(ch->koff), free(ch->voff), free(ch->roff), free(ch->lines), free(ch->kcols);
    free(ch->rejects);
    memset(ch, 0, sizeof *ch);
}
