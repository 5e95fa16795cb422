/* parity_arrow_load MANIFEST DATA DB SCHEMA KEY TAG DUP MEMORY: the C leg
 * of python/tests/test_parity.py. The parity rows come as Arrow buffers
 * (written by the test: DATA holds each column's buffers, MANIFEST says
 * where, with each column's Arrow format); this program makes an Arrow C
 * stream of them, in several batches (slices of the columns), and loads it
 * with one ordo_table_load call, as any C producer of Arrow would. TAG is
 * a number or "none"; exit 0, or 1 with the library's message. */
#include <ordo_table.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 64

typedef struct column {
    char name[64], format[32];
    int nbuf;
    const void *bufs[3];
} column;

typedef struct rows {
    long long n;
    int batches, ncols, sent;
    column cols[MAX_COLS];
    struct ArrowSchema kids[MAX_COLS];
    struct ArrowSchema *kidp[MAX_COLS];
} rows;

/* A batch's children, its own (a consumer may keep a batch past the next
 * get_next): freed by its release. */
typedef struct batch {
    struct ArrowArray arrays[MAX_COLS];
    struct ArrowArray *arrayp[MAX_COLS];
} batch;

static void done_schema(struct ArrowSchema *s) { s->release = NULL; }
static void done_array(struct ArrowArray *a) { a->release = NULL; }
static void free_batch(struct ArrowArray *a)
{
    batch *b = a->private_data;
    for (int64_t i = 0; i < a->n_children; i++)
        if (b->arrays[i].release)
            b->arrays[i].release(&b->arrays[i]);
    free(b);
    a->release = NULL;
}
static const void *no_bufs[] = {NULL};

static int get_schema(struct ArrowArrayStream *st, struct ArrowSchema *out)
{
    rows *r = st->private_data;
    *out = (struct ArrowSchema){.format = "+s", .n_children = r->ncols, .children = r->kidp,
                                .release = done_schema};
    return 0;
}

/* Batch b: rows [b n / batches, (b + 1) n / batches), each column a slice. */
static int get_next(struct ArrowArrayStream *st, struct ArrowArray *out)
{
    rows *r = st->private_data;
    memset(out, 0, sizeof *out); /* released: the end */
    if (r->sent == r->batches)
        return 0;
    long long lo = r->n * r->sent / r->batches, hi = r->n * (r->sent + 1) / r->batches;
    batch *b = calloc(1, sizeof *b);
    if (!b)
        return ENOMEM;
    r->sent++;
    for (int i = 0; i < r->ncols; i++) {
        b->arrays[i] = (struct ArrowArray){.length = hi - lo, .offset = lo,
                                           /* (unknown in a slice; none without a bitmap) */
                                           .null_count = r->cols[i].bufs[0] ? -1 : 0,
                                           .n_buffers = r->cols[i].nbuf,
                                           .buffers = r->cols[i].bufs, .release = done_array};
        b->arrayp[i] = &b->arrays[i];
    }
    *out = (struct ArrowArray){.length = hi - lo, .n_buffers = 1, .buffers = no_bufs,
                               .n_children = r->ncols, .children = b->arrayp,
                               .release = free_batch, .private_data = b};
    return 0;
}

static const char *last_error(struct ArrowArrayStream *st) { return (void)st, "none"; }
static void release(struct ArrowArrayStream *st) { st->release = NULL; }

static void *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    void *p = NULL; /* 64-byte aligned, as Arrow's buffers are */
    if (n >= 0 && posix_memalign(&p, 64, (size_t)n + 64) == 0 &&
        fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return p;
}

/* The manifest: "ROWS BATCHES COLUMNS", then a line a column:
 * "NAME FORMAT NBUF POS:SIZE ..." (SIZE 0: no buffer). */
static int read_manifest(const char *path, const unsigned char *data, size_t len, rows *r)
{
    FILE *f = fopen(path, "r");
    if (!f || fscanf(f, "%lld %d %d", &r->n, &r->batches, &r->ncols) != 3 || r->ncols < 1 ||
        r->ncols > MAX_COLS || r->batches < 1)
        return f ? fclose(f), -1 : -1;
    for (int i = 0; i < r->ncols; i++) {
        column *c = &r->cols[i];
        if (fscanf(f, "%63s %31s %d", c->name, c->format, &c->nbuf) != 3 || c->nbuf < 1 ||
            c->nbuf > 3)
            return fclose(f), -1;
        for (int b = 0; b < c->nbuf; b++) {
            unsigned long long pos, size;
            if (fscanf(f, "%llu:%llu", &pos, &size) != 2 || pos > len || size > len - pos)
                return fclose(f), -1;
            c->bufs[b] = size ? data + pos : NULL;
        }
        r->kids[i] = (struct ArrowSchema){.format = c->format, .name = c->name,
                                          .flags = ARROW_FLAG_NULLABLE, .release = done_schema};
        r->kidp[i] = &r->kids[i];
    }
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 9)
        return fprintf(stderr, "usage: parity_arrow_load MANIFEST DATA DB SCHEMA KEY TAG DUP "
                               "MEMORY\n"),
               2;
    static rows r;
    size_t len;
    unsigned char *data = read_all(argv[2], &len);
    if (!data || read_manifest(argv[1], data, len, &r) != 0)
        return fprintf(stderr, "%s, %s: cannot read them\n", argv[1], argv[2]), 2;
    ordo_table_load_options o = {.schema = argv[4], .key = argv[5], .db_path = argv[3]};
    ordo_error e = {0};
    o.tag = strcmp(argv[6], "none") ? atoi(argv[6]) : ORDO_UNTAGGED;
    o.threads = 2; /* the library's encoding threads */
    if (ordo_dup_policy_parse(argv[7], &o.on_duplicate, &e) != ORDO_OK ||
        ordo_parse_size(argv[8], &o.memory) != ORDO_OK)
        return fprintf(stderr, "%s\n", e.message[0] ? e.message : "bad MEMORY"), 2;
    struct ArrowArrayStream st = {get_schema, get_next, last_error, release, &r};
    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_ARROW_STREAM, .stream = &st};
    ordo_table_summary sum;
    ordo_status s = ordo_table_load(NULL, &src, &o, &sum, &e);
    free(data);
    if (s != ORDO_OK)
        return fprintf(stderr, "%s\n", e.message), 1;
    printf("%llu %llu %llu\n", (unsigned long long)sum.rows_in, (unsigned long long)sum.rows,
           (unsigned long long)sum.duplicates);
    return 0;
}
