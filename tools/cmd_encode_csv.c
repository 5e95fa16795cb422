/* ordo encode --schema: CSV rows (as PostgreSQL's COPY writes them) to one
 * key per row, in input order, through the batch API. */
#include "cli.h"
#include "columns.h"
#include "csv.h"
#include "fields.h"
#include "handoff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_ROWS 65536

typedef struct out_buf {
    FILE *f;
    char *p;
    size_t len, cap;
} out_buf;

static void out_flush(out_buf *o)
{
    if (o->len && fwrite(o->p, 1, o->len, o->f) != o->len) {
        fputs("ordo: encode: write error on standard output\n", stderr);
        exit(1);
    }
    o->len = 0;
}

static char *out_room(out_buf *o, size_t n)
{
    if (o->cap - o->len < n) {
        out_flush(o);
        if (o->cap < n) {
            free(o->p);
            o->cap = n;
            o->p = cli_alloc(n);
        }
    }
    return o->p + o->len;
}

/* What the writing stage owns: the output and the key buffers. */
typedef struct encoder {
    ordo_format fmt;
    int raw;
    out_buf o;
    uint8_t *keys;
    size_t keys_cap, *offs;
} encoder;

/* Encodes the batch's rows and writes their keys. */
static void emit_batch(batchbuf *b, ordo_format fmt, int raw, out_buf *o, uint8_t **keys,
                       size_t *keys_cap, size_t **offs)
{
    if (b->rows == 0)
        return;
    const ordo_column *cols = batchbuf_view(b);
    size_t total = 0, stride = 0;
    ordo_batch_error where = {0, 0};
    ordo_status s = ordo_batch_size(fmt, cols, b->s->ncols, b->rows, &total, &stride, &where);
    if (s == ORDO_OK && total > *keys_cap) {
        free(*keys);
        *keys_cap = total + total / 2;
        *keys = cli_alloc(*keys_cap);
    }
    if (s == ORDO_OK)
        s = ordo_batch_encode(fmt, cols, b->s->ncols, b->rows, *keys, *keys_cap, *offs, &where);
    if (s != ORDO_OK)
        cli_fail("encode: column '%s': %s", b->s->cols[where.column].name,
                 ordo_status_message(s));
    static const char hex[16] = "0123456789abcdef";
    for (size_t r = 0; r < b->rows; r++) {
        const uint8_t *k = *keys + (*offs)[r];
        size_t n = (*offs)[r + 1] - (*offs)[r];
        if (raw) {
            char *p = out_room(o, n + 4);
            p[0] = (char)(n >> 24), p[1] = (char)(n >> 16), p[2] = (char)(n >> 8), p[3] = (char)n;
            memcpy(p + 4, k, n);
            o->len += n + 4;
        } else {
            char *p = out_room(o, 2 * n + 1);
            for (size_t i = 0; i < n; i++) {
                p[2 * i] = hex[k[i] >> 4];
                p[2 * i + 1] = hex[k[i] & 15];
            }
            p[2 * n] = '\n';
            o->len += 2 * n + 1;
        }
    }
    batchbuf_clear(b);
}

/* The worker's job: one batch, encoded and written (output stays in input
 * order: there is one worker and it takes batches in turn). */
static void emit_job(void *ctx, void *job)
{
    encoder *e = ctx;
    emit_batch(job, e->fmt, e->raw, &e->o, &e->keys, &e->keys_cap, &e->offs);
}

int encode_csv(const char *format, const char *schema_text, int header, const char *output,
               const char *path, int threads)
{
    ordo_format fmt = schema_format(format);
    if (!fmt)
        cli_fail("encode: --format: unknown format '%s' (lexkey, lexkey-legacy, ordered)", format);
    int raw = 0;
    if (!strcmp(output, "raw"))
        raw = 1;
    else if (strcmp(output, "hex"))
        cli_fail("encode: --output: expected hex or raw, got '%s'", output);
    schema s;
    char err[256];
    if (!schema_parse(schema_text, format, &s, err, sizeof err))
        cli_fail("encode: --schema: %s", err);
    const char *name = strcmp(path, "-") ? path : "<stdin>";
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f)
        cli_fail("encode: cannot open '%s'", path);

    csv_reader rd;
    csv_open(&rd, f);
    /* Two batches: with threads > 1 the reader parses one while a worker
     * encodes and writes the other. */
    batchbuf bufs[2], *b = &bufs[0];
    batchbuf_init(&bufs[0], &s, BATCH_ROWS);
    batchbuf_init(&bufs[1], &s, BATCH_ROWS);
    encoder e = {fmt, raw, {stdout, cli_alloc(1 << 20), 0, 1 << 20}, NULL, 0,
                 cli_alloc((BATCH_ROWS + 1) * sizeof(size_t))};
    handoff worker;
    int threaded = threads > 1 && handoff_start(&worker, emit_job, &e);
    int rc, first = 1;
    char msg[512] = "";
    while ((rc = csv_next(&rd)) == 1) {
        if (first && header) {
            first = 0;
            if (!header_check(&rd, &s, name, msg, sizeof msg))
                break;
            continue;
        }
        first = 0;
        size_t r = b->rows;
        if (rd.nfields != s.ncols) {
            field_count_error(&rd, s.ncols, name, msg, sizeof msg);
            break;
        }
        for (size_t c = 0; c < s.ncols && !msg[0]; c++) {
            const char *err_text =
                field_put(b, c, r, rd.fields[c].p, rd.fields[c].n, rd.fields[c].quoted);
            if (err_text)
                field_error(&rd.fields[c], &s.cols[c], err_text, name, msg, sizeof msg);
        }
        if (msg[0])
            break;
        b->rows++;
        if (b->rows == BATCH_ROWS) {
            if (threaded) {
                handoff_put(&worker, b);
                b = b == &bufs[0] ? &bufs[1] : &bufs[0];
            } else {
                emit_job(&e, b);
            }
        }
    }
    if (rc < 0)
        snprintf(msg, sizeof msg, "%s:%zu:%zu: %s", name, rd.err_line, rd.err_column, rd.err);
    /* The rows before a bad one are written; nothing of the bad one. */
    if (threaded) {
        handoff_put(&worker, b);
        handoff_stop(&worker);
    } else {
        emit_job(&e, b);
    }
    out_flush(&e.o);
    if (!msg[0] && ferror(f))
        snprintf(msg, sizeof msg, "%s: read error", name);
    if (f != stdin)
        fclose(f);
    csv_close(&rd);
    batchbuf_free(&bufs[0]);
    batchbuf_free(&bufs[1]);
    free(e.o.p), free(e.keys), free(e.offs);
    schema_free(&s);
    if (msg[0])
        cli_fail_plain("%s", msg);
    return 0;
}
