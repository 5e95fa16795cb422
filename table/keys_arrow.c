/* Keys (ordo_table_keys) in and out: a caller's bytes and offsets copied in,
 * checked; an Arrow large_binary array over the keys' own memory out. */
#include "table_internal.h"

#include <stdlib.h>
#include <string.h>

ordo_status ordo_table_keys_copy(const void *data, size_t len, const void *offsets,
                                 size_t offsets_bytes, ordo_table_keys *out, ordo_error *err)
{
    if (!out || (len && !data) || !offsets)
        return ordo__table_fail(err, ORDO_ERR_NULL_ARG, "keys: a NULL argument");
    if (out->len || out->n)
        return ordo__table_fail(err, ORDO_ERR_INVALID_ARG, "keys: the output is not empty");
    size_t n = offsets_bytes / sizeof(int64_t);
    if (offsets_bytes % sizeof(int64_t) || n == 0)
        return ordo__table_fail(err, ORDO_ERR_INVALID_ARG, "offsets: expected N + 1 int64 values");
    int64_t prev = 0, o = 0;
    for (size_t i = 0; i < n; i++, prev = o) {
        memcpy(&o, (const uint8_t *)offsets + i * sizeof o, sizeof o); /* any alignment */
        if ((i == 0 && o != 0) || o < prev || (uint64_t)o > len ||
            (i == n - 1 && (uint64_t)o != len))
            return ordo__table_fail(err, ORDO_ERR_INVALID_ARG, "offsets: expected N + 1 "
                                    "non-decreasing offsets from 0 to the data's length");
    }
    ordo_status s = ordo_table_keys_reserve(out, len, n - 1);
    if (s != ORDO_OK)
        return ordo__table_fail(err, s, "keys: %s", ordo_status_message(s));
    if (len)
        memcpy(out->data, data, len);
    memcpy(out->off, offsets, n * sizeof(int64_t));
    out->len = len, out->n = n - 1;
    return ORDO_OK;
}

/* What an exported array points into besides the keys. */
typedef struct keys_export {
    void (*done)(void *ctx);
    void *ctx;
    const void *buffers[3]; /* validity (none), offsets, data */
} keys_export;

static void export_release(struct ArrowArray *a)
{
    if (!a->release)
        return;
    keys_export *x = a->private_data;
    if (x->done)
        x->done(x->ctx);
    free(x);
    a->release = NULL;
}

static void schema_release(struct ArrowSchema *s) { s->release = NULL; }

ordo_status ordo_table_keys_arrow(const ordo_table_keys *k, void (*done)(void *ctx), void *ctx,
                                  struct ArrowSchema *schema, struct ArrowArray *array)
{
    static const uint8_t empty;  /* Arrow wants a data buffer for no bytes too */
    static const int64_t zero;   /* and one offset for no keys */
    if (!k || !schema || !array)
        return ORDO_ERR_NULL_ARG;
    keys_export *x = malloc(sizeof *x);
    if (!x)
        return ORDO_ERR_OUT_OF_MEMORY;
    *x = (keys_export){done, ctx, {NULL, k->off ? (const void *)k->off : &zero,
                                   k->data ? (const void *)k->data : &empty}};
    *schema = (struct ArrowSchema){.format = "Z", .name = "", .flags = ARROW_FLAG_NULLABLE,
                                   .release = schema_release};
    *array = (struct ArrowArray){.length = (int64_t)k->n, .n_buffers = 3, .buffers = x->buffers,
                                 .release = export_release, .private_data = x};
    return ORDO_OK;
}
