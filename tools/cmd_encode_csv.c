/* ordo encode --schema: CSV rows (as PostgreSQL's COPY writes them) to one
 * key per row, in input order, through the batch API.
 *
 * The input is cut into chunks of whole rows (about CHUNK_BYTES each) by the
 * main thread, which also writes; workers parse, encode and format one chunk
 * each into the chunk's own output. Chunks are written in input order, so the
 * output is the same whatever the thread count. Memory is bounded by the
 * chunks in flight (one per worker, and two more). A bad row ends its
 * chunk's output just before it; the chunk's message is printed after that
 * output, and nothing of later chunks is written. */
#include "cli.h"
#include "columns.h"
#include "csv.h"
#include "fields.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES ((size_t)1 << 20)
#define BATCH_ROWS 16384

/* A growable byte buffer. */
typedef struct bytes {
    char *p;
    size_t len, cap;
} bytes;

static char *bytes_room(bytes *o, size_t n)
{
    o->p = cli_grow(o->p, &o->cap, o->len + n, 4096);
    return o->p + o->len;
}

/* What a run shares: read-only once the workers start. */
typedef struct job {
    const schema *s;
    ordo_format fmt;
    int raw, header;
    const char *name;
    size_t max_row;
} job;

/* One chunk of whole rows and everything made of it. */
typedef struct chunk {
    bytes in;           /* the rows */
    int too_long;       /* instead: the start of a row longer than the limit */
    size_t first_line;  /* the line the rows start on */
    int first;          /* the input's first chunk: it holds the header */
    bytes out;          /* the keys, formatted */
    char msg[512];      /* the error that ended the chunk early, if any */
    int done;           /* under the pool's lock */
    batchbuf b;
    uint8_t *keys;
    size_t keys_cap, *offs;
} chunk;

/* Encodes the batch's rows and appends their keys to the chunk's output.
 * A failure is the chunk's error unless it already has one. */
static void emit_batch(const job *j, chunk *ch)
{
    batchbuf *b = &ch->b;
    if (b->rows == 0)
        return;
    const ordo_column *cols = batchbuf_view(b);
    size_t total = 0, stride = 0;
    ordo_batch_error where = {0, 0};
    ordo_status s = ordo_batch_size(j->fmt, cols, j->s->ncols, b->rows, &total, &stride, &where);
    if (s == ORDO_OK && total > ch->keys_cap) {
        free(ch->keys);
        ch->keys_cap = total + total / 2;
        ch->keys = cli_alloc(ch->keys_cap);
    }
    if (s == ORDO_OK)
        s = ordo_batch_encode(j->fmt, cols, j->s->ncols, b->rows, ch->keys, ch->keys_cap,
                              ch->offs, &where);
    if (s != ORDO_OK) { /* the fields were checked one by one: not expected */
        if (!ch->msg[0])
            snprintf(ch->msg, sizeof ch->msg, "%s: encode: column '%s': %s", j->name,
                     j->s->cols[where.column].name, ordo_status_message(s));
        batchbuf_clear(b);
        return;
    }
    size_t per_row = j->raw ? 4 : 1;
    char *p = bytes_room(&ch->out, (j->raw ? total : 2 * total) + per_row * b->rows);
    for (size_t r = 0; r < b->rows; r++) {
        const uint8_t *k = ch->keys + ch->offs[r];
        size_t n = ch->offs[r + 1] - ch->offs[r];
        if (j->raw) {
            p[0] = (char)(n >> 24), p[1] = (char)(n >> 16), p[2] = (char)(n >> 8), p[3] = (char)n;
            memcpy(p + 4, k, n);
            p += 4 + n;
        } else {
            size_t len = 0;
            ordo_hex_encode(k, n, p, 2 * n, &len); /* sized above: cannot fail */
            p[len] = '\n';
            p += len + 1;
        }
    }
    ch->out.len = (size_t)(p - ch->out.p);
    batchbuf_clear(b);
}

/* A row of more than max_row bytes (its line end included) from `line`. */
static void too_long(const job *j, chunk *ch, size_t line)
{
    snprintf(ch->msg, sizeof ch->msg,
             "%s:%zu:1: a row longer than %zu bytes (--max-row-bytes): a quoted field left open?",
             j->name, line, j->max_row);
}

/* A worker's task: the chunk's rows parsed, encoded and formatted. */
static void run_chunk(const job *j, chunk *ch)
{
    ch->out.len = 0;
    ch->msg[0] = 0;
    if (ch->too_long) {
        too_long(j, ch, ch->first_line);
        return;
    }
    csv_reader rd;
    csv_open_mem(&rd, ch->in.p, ch->in.len, ch->first_line);
    int rc = 0, header = ch->first && j->header;
    size_t row_at = 0, row_line = ch->first_line; /* where the next row starts */
    while (!ch->msg[0] && (rc = csv_next(&rd)) == 1) {
        if (rd.pos - row_at > j->max_row) { /* a long row that does end */
            too_long(j, ch, row_line);
            break;
        }
        row_at = rd.pos, row_line = rd.line;
        if (header) {
            header = 0;
            header_check(&rd, j->s, j->name, ch->msg, sizeof ch->msg);
            continue;
        }
        batchbuf *b = &ch->b;
        if (rd.nfields != j->s->ncols) {
            field_count_error(&rd, j->s->ncols, j->name, ch->msg, sizeof ch->msg);
            break;
        }
        for (size_t c = 0; c < j->s->ncols; c++) {
            const csv_field *f = &rd.fields[c];
            const char *err = field_put(b, c, b->rows, f->p, f->n, f->quoted);
            if (err) {
                field_error(f, &j->s->cols[c], err, j->name, ch->msg, sizeof ch->msg);
                break;
            }
        }
        if (ch->msg[0]) {
            batchbuf_drop_row(b, b->rows); /* nothing of the bad row */
            break;
        }
        if (++b->rows == BATCH_ROWS)
            emit_batch(j, ch);
    }
    if (rc < 0)
        snprintf(ch->msg, sizeof ch->msg, "%s:%zu:%zu: %s", j->name, rd.err_line, rd.err_column,
                 rd.err);
    emit_batch(j, ch); /* the rows before a bad one are written */
    csv_close(&rd);
}

/* --------------------------------------------------------------- input */

typedef struct input {
    FILE *f;
    size_t max_row; /* a row still without its end past this many bytes is an error */
    uint32_t *idx; /* last_row_end's index of a slice */
    bytes carry; /* the start of a row the last chunk did not end */
    size_t line; /* the line the next chunk starts on */
    int eof, started;
} input;

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
#define SLICE ((size_t)1 << 16)
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
            return 0; /* not reached: ORDO_IMPL was checked first */
        for (size_t k = got; k > 0; k--)
            if (p[at + idx[k - 1]] == '\n') {
                end = at + idx[k - 1] + 1;
                break;
            }
    }
    return end;
}

/* Fills ch with the next whole rows; 0 at the end of input. A row that
 * has not ended after in->max_row bytes (a quoted field left open reads
 * as one row to the end of input) ends the input: the chunk says so. */
static int read_chunk(input *in, chunk *ch)
{
    bytes *b = &ch->in;
    b->len = 0;
    ch->too_long = 0;
    if (in->carry.len)
        memcpy(bytes_room(b, in->carry.len), in->carry.p, in->carry.len);
    b->len = in->carry.len;
    in->carry.len = 0;
    size_t split = 0, scanned = 0;
    int inq = 0;
    while (!in->eof) {
        size_t got = fread(bytes_room(b, CHUNK_BYTES), 1, CHUNK_BYTES, in->f);
        if (got == 0) {
            in->eof = 1;
            break;
        }
        if (!in->started && got >= 3 && !memcmp(b->p, "\xef\xbb\xbf", 3)) {
            memmove(b->p, b->p + 3, got - 3); /* a UTF-8 byte-order mark */
            got -= 3;
        }
        in->started = 1;
        b->len += got;
        split = last_row_end(b->p, scanned, b->len, &inq, in->idx);
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
    if (rest)
        memcpy(bytes_room(&in->carry, rest), b->p + split, rest);
    in->carry.len = rest;
    b->len = split;
    ch->first_line = in->line;
    ch->first = in->line == 1;
    in->line += count_newlines(b->p, split);
    return split > 0;
}

/* ---------------------------------------------------------------- pool */

typedef struct pool {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    const job *j;
    chunk *slots;
    size_t nslots;
    size_t queued, taken; /* chunks [taken, queued) wait for a worker */
    int quit;
} pool;

static void *worker(void *arg)
{
    pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->taken == p->queued)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->taken == p->queued)
            break; /* quit, and nothing left */
        chunk *ch = &p->slots[p->taken++ % p->nslots];
        pthread_mutex_unlock(&p->mu);
        run_chunk(p->j, ch);
        pthread_mutex_lock(&p->mu);
        ch->done = 1;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Writes a finished chunk; 0 when it ended with an error (printed by the caller). */
static int write_chunk(chunk *ch)
{
    if (ch->out.len && fwrite(ch->out.p, 1, ch->out.len, stdout) != ch->out.len)
        cli_write_error();
    return !ch->msg[0];
}

int encode_csv(const char *format, const char *schema_text, int header, const char *output,
               const char *path, int threads, size_t max_row)
{
    job j = {0};
    j.fmt = schema_format(format);
    if (!j.fmt)
        cli_fail("encode: --format: unknown format '%s' (lexkey, lexkey-legacy, ordered)", format);
    if (!strcmp(output, "raw"))
        j.raw = 1;
    else if (strcmp(output, "hex"))
        cli_fail("encode: --output: expected hex or raw, got '%s'", output);
    ordo_status impl;
    ordo_impl_name(&impl); /* refused before any input is read */
    if (impl != ORDO_OK)
        cli_fail("encode: ORDO_IMPL: %s", ordo_status_message(impl));
    schema s;
    char err[256];
    if (!schema_parse(schema_text, format, &s, err, sizeof err))
        cli_fail("encode: --schema: %s", err);
    j.s = &s;
    j.header = header;
    j.name = strcmp(path, "-") ? path : "<stdin>";
    j.max_row = max_row;
    input in = {strcmp(path, "-") ? fopen(path, "rb") : stdin, max_row, NULL, {0}, 1, 0, 0};
    if (!in.f)
        cli_fail("encode: cannot open '%s'", path);
    in.idx = cli_alloc(ORDO_CSV_INDEX_ROOM(SLICE) * sizeof *in.idx);

    /* A chunk per worker, one more being read and one being written. One
     * thread: the main thread does everything in turn. */
    size_t nworkers = threads > 1 ? (size_t)threads : 0;
    pool p = {.j = &j, .nslots = nworkers ? nworkers + 2 : 1};
    size_t nalloc = p.nslots;
    p.slots = calloc(p.nslots, sizeof *p.slots);
    pthread_t *tids = calloc(nworkers ? nworkers : 1, sizeof *tids);
    if (!p.slots || !tids)
        cli_fail("out of memory");
    for (size_t i = 0; i < p.nslots; i++) {
        batchbuf_init(&p.slots[i].b, &s, BATCH_ROWS);
        p.slots[i].offs = cli_alloc((BATCH_ROWS + 1) * sizeof(size_t));
    }
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.work, NULL);
    pthread_cond_init(&p.done, NULL);
    size_t started = 0;
    while (started < nworkers && pthread_create(&tids[started], NULL, worker, &p) == 0)
        started++;
    if (started == 0) /* no thread: one slot, run in turn */
        p.nslots = 1;

    const char *fail = NULL;
    size_t written = 0; /* chunks [written, queued) are in flight */
    for (;;) {
        chunk *ch = &p.slots[p.queued % p.nslots];
        if (p.queued - written == p.nslots) { /* the slot's previous chunk: write it first */
            pthread_mutex_lock(&p.mu);
            while (!ch->done)
                pthread_cond_wait(&p.done, &p.mu);
            pthread_mutex_unlock(&p.mu);
            written++;
            if (!write_chunk(ch)) {
                fail = ch->msg;
                break;
            }
        }
        if (!read_chunk(&in, ch))
            break;
        ch->done = 0;
        if (started == 0) {
            run_chunk(&j, ch);
            ch->done = 1;
            p.queued++;
            continue;
        }
        pthread_mutex_lock(&p.mu);
        p.queued++;
        pthread_cond_signal(&p.work);
        pthread_mutex_unlock(&p.mu);
    }
    /* the chunks still in flight, in order, up to the first error */
    for (; !fail && written < p.queued; written++) {
        chunk *ch = &p.slots[written % p.nslots];
        pthread_mutex_lock(&p.mu);
        while (!ch->done)
            pthread_cond_wait(&p.done, &p.mu);
        pthread_mutex_unlock(&p.mu);
        if (!write_chunk(ch))
            fail = ch->msg;
    }
    /* After an error the workers finish what they hold; none of it is written. */
    pthread_mutex_lock(&p.mu);
    p.quit = 1;
    p.taken = p.queued; /* what nobody took yet stays untaken */
    pthread_cond_broadcast(&p.work);
    pthread_mutex_unlock(&p.mu);
    for (size_t i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    /* stdout is checked by cli_fail_plain below or by main: a write error
     * and a bad row are both reported */

    char msg[sizeof p.slots[0].msg] = "";
    if (fail)
        memcpy(msg, fail, sizeof msg);
    else if (ferror(in.f))
        snprintf(msg, sizeof msg, "%s: read error", j.name);
    if (in.f != stdin)
        fclose(in.f);
    for (size_t i = 0; i < nalloc; i++) {
        chunk *ch = &p.slots[i];
        batchbuf_free(&ch->b);
        free(ch->in.p), free(ch->out.p), free(ch->keys), free(ch->offs);
    }
    free(p.slots), free(tids), free(in.carry.p), free(in.idx);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.work);
    pthread_cond_destroy(&p.done);
    schema_free(&s);
    if (msg[0])
        cli_fail_plain("%s", msg);
    return 0;
}
