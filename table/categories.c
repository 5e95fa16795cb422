/* Categories: the one place a dictionary column's codes are taken as its
 * key (ordo_table_categories), and where every batch's dictionary is held
 * to the first one's, so that a code means one category throughout. */
#include "import.h"
#include "table_internal.h"

#include <stdlib.h>

ordo_status ordo_table_categories_parse(const char *text, ordo_table_categories *out,
                                        ordo_error *err)
{
    if (!out)
        return ORDO_ERR_NULL_ARG;
    if (!text || !strcmp(text, "label"))
        *out = ORDO_TABLE_CATEGORIES_LABEL;
    else if (!strcmp(text, "order"))
        *out = ORDO_TABLE_CATEGORIES_ORDER;
    else
        return ordo__table_refuse(err, "categories",
                                  "expected 'label' or 'order', got '%.100s'", text);
    return ORDO_OK;
}

ordo_status ordo__table_import_check(const ordo_table_import_options *io, ordo_error *err)
{
    if (io->timestamps != ORDO_TABLE_TIMESTAMPS_REFUSE &&
        io->timestamps != ORDO_TABLE_TIMESTAMPS_TRUNCATE)
        return ordo__table_refuse(err, "timestamps", "expected refuse or truncate");
    if (io->categories != ORDO_TABLE_CATEGORIES_LABEL &&
        io->categories != ORDO_TABLE_CATEGORIES_ORDER)
        return ordo__table_refuse(err, "categories", "expected label or order");
    if (!io->dictionaries_schema && !io->dictionaries)
        return ORDO_OK;
    if (io->categories != ORDO_TABLE_CATEGORIES_ORDER)
        return ordo__table_refuse(err, "dictionaries", "given only with categories order");
    ordo_error e = {0};
    if (!io->dictionaries_schema || !io->dictionaries ||
        ordo_arrow_check(io->dictionaries_schema, io->dictionaries, &e) != ORDO_OK ||
        strcmp(io->dictionaries_schema->format, "+s") != 0)
        return ordo__table_refuse(err, "dictionaries", "expected a record batch%s%s",
                                  e.message[0] ? ": " : "", e.message);
    return ORDO_OK;
}

/* The dictionary's entries as the ordered format's keys, one after another
 * (self-delimiting: equal bytes, equal entries): a fixed-width type's as
 * the bytes they are (fixed_size_binary of its width: exact, whatever the
 * type's range or unit), any other's of its values' type. */
static ordo_status entry_keys(const struct ArrowSchema *ds, const struct ArrowArray *da,
                              const char *name, ordo_table_keys *out, ordo_error *err)
{
    struct ArrowSchema as_bytes;
    char format[32];
    long w = ds->format ? ordo__arrow_width(ds->format) : 0;
    if (w > 0) {
        as_bytes = *ds;
        snprintf(format, sizeof format, "w:%ld", w);
        as_bytes.format = format, as_bytes.metadata = NULL; /* (no extension type) */
        ds = &as_bytes;
    }
    ordo_buf type = {0};
    ordo_schema one;
    int parsed = 0;
    ordo_table_scratch *sx = NULL;
    ordo_status s = ordo_buf_append(&type, "v ", 2);
    if (s == ORDO_OK)
        s = ordo_table_arrow_type(ds, name, &type, err);
    if (s == ORDO_OK && (s = ordo__table_schema_parse(type.data, &one, err)) == ORDO_OK)
        parsed = 1;
    if (s == ORDO_OK)
        s = ordo_table_scratch_open(&sx);
    ordo_table_import_options io = {ORDO_TABLE_TIMESTAMPS_REFUSE, ORDO_TABLE_CATEGORIES_LABEL,
                                    NULL, NULL};
    ordo_column col;
    if (s == ORDO_OK)
        s = ordo_table_arrow_column(ds, da, (size_t)da->offset, (size_t)da->length,
                                    &one.cols[0], name, &io, sx, &col, err);
    if (s == ORDO_OK) {
        ordo_table_batch b = {&col, 1, (size_t)da->length};
        size_t bad;
        ordo_batch_error where;
        s = ordo_table_encode_batches(ORDO_FORMAT_ORDERED, &b, 1, 1, 0, out, &bad, &where);
        if (s != ORDO_OK && s != ORDO_ERR_OUT_OF_MEMORY)
            s = ordo__imp_fail(err, s, name, SIZE_MAX, "its dictionary's entry %zu: %s",
                               where.row, ordo_status_message(s));
    }
    if (s != ORDO_OK && err && err->line) /* an entry: no row of the column's */
        err->line = 0;
    ordo_table_scratch_close(sx);
    if (parsed)
        ordo_schema_free(&one);
    ordo_buf_free(&type);
    return s;
}

ordo_status ordo__dict_check(ordo__dict_keys *d, const struct ArrowSchema *schema,
                             const struct ArrowArray *array, const char *name, ordo_error *err)
{
    ordo_status s = ordo_arrow_check(schema, array, err);
    if (s != ORDO_OK)
        return s;
    if (!schema->dictionary)
        return ORDO_OK;
    ordo_table_keys k = {0};
    if ((s = entry_keys(schema->dictionary, array->dictionary, name, &k, err)) != ORDO_OK) {
        ordo_table_keys_free(&k);
        return s;
    }
    const char *f = schema->dictionary->format;
    if (!d->set) { /* the first: every later one is held to it */
        if (!(d->format = strdup(f))) {
            ordo_table_keys_free(&k);
            return ordo__table_fail(err, ORDO_ERR_OUT_OF_MEMORY, "out of memory");
        }
        d->keys = k, d->set = 1;
        return ORDO_OK;
    }
    /* of one Arrow type: bytes compared mean the same only in one (seconds
     * are no milliseconds), and one rule for every type */
    int same = !strcmp(f, d->format) && k.n == d->keys.n && k.len == d->keys.len &&
               (!k.len || !memcmp(k.data, d->keys.data, k.len)); /* (keys self-delimit) */
    ordo_table_keys_free(&k);
    if (same)
        return ORDO_OK;
    return ordo__imp_fail(err, ORDO_ERR_INVALID_VALUE, name, SIZE_MAX,
                          "the batch changes its dictionary (categories 'order' keys a "
                          "dictionary column by its codes, which mean one thing only under "
                          "one dictionary: the whole input needs the first batch's)");
}

void ordo__dict_free(ordo__dict_keys *d)
{
    if (d->set)
        ordo_table_keys_free(&d->keys);
    free(d->format);
    memset(d, 0, sizeof *d);
}
