/* load_arrow DB TAG: an Arrow C stream (here three rows of id int64, name
 * utf8, made in C; any producer's stream will do) into a table of the
 * RocksDB at DB in one ordo_table_load call: the schema from the stream's
 * types, key "id", batches encoded, sorted, written and ingested. */
#include <ordo_table.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int64_t ids[] = {3, 1, 2};
static const int32_t offs[] = {0, 5, 8, 11};
static const void *id_bufs[] = {NULL, ids}, *name_bufs[] = {NULL, offs, "threeonetwo"};
static void done_s(struct ArrowSchema *s) { s->release = NULL; }
static void done_a(struct ArrowArray *a) { a->release = NULL; }
static struct ArrowSchema cols[2] = {{.format = "l", .name = "id", .release = done_s},
                                     {.format = "u", .name = "name", .release = done_s}};
static struct ArrowSchema *colp[] = {&cols[0], &cols[1]};
static struct ArrowArray kids[2] = {{.length = 3, .n_buffers = 2, .buffers = id_bufs, .release = done_a},
                                    {.length = 3, .n_buffers = 3, .buffers = name_bufs, .release = done_a}};
static struct ArrowArray *kidp[] = {&kids[0], &kids[1]};
static const void *no_bufs[] = {NULL};
static int sent;

static int get_schema(struct ArrowArrayStream *st, struct ArrowSchema *out)
{
    (void)st;
    *out = (struct ArrowSchema){.format = "+s", .n_children = 2, .children = colp, .release = done_s};
    return 0;
}
static int get_next(struct ArrowArrayStream *st, struct ArrowArray *out)
{
    (void)st;
    memset(out, 0, sizeof *out); /* a released array: the end */
    if (!sent++)
        *out = (struct ArrowArray){.length = 3, .n_buffers = 1, .buffers = no_bufs,
                                   .n_children = 2, .children = kidp, .release = done_a};
    return 0;
}
static const char *last_error(struct ArrowArrayStream *st) { return (void)st, "none"; }
static void release(struct ArrowArrayStream *st) { st->release = NULL; }

int main(int argc, char **argv)
{
    if (argc != 3)
        return fprintf(stderr, "usage: load_arrow DB TAG\n"), 2;
    struct ArrowArrayStream st = {get_schema, get_next, last_error, release, NULL};
    ordo_table_load_options o = {.key = "id", .tag = atoi(argv[2]), .db_path = argv[1]};
    ordo_table_source src = {.kind = ORDO_TABLE_SOURCE_ARROW_STREAM, .stream = &st};
    ordo_table_summary sum;
    ordo_error e = {0};
    if (ordo_table_load(NULL, &src, &o, &sum, &e) != ORDO_OK)
        return fprintf(stderr, "%s\n", e.message), 1;
    printf("%llu rows\n", (unsigned long long)sum.rows);
    return 0;
}
