/* The options of a load, checked once for every front end: the format,
 * the tag, the policies, the sizes, the schema ("orders belong in key") and
 * the key, each refusal naming its option. */
#include "import.h"
#include "table_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MEMORY_MIN (1ull << 20)
#define SST_SIZE_MIN (64ull << 10)

ordo_status ordo__table_fail(ordo_error *err, ordo_status s, const char *fmt, ...)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = s;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return s;
}

ordo_status ordo__table_refuse(ordo_error *err, const char *option, const char *fmt, ...)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = ORDO_ERR_INVALID_ARG;
        err->option = option;
        int n = snprintf(err->message, sizeof err->message, "%s: ", option);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message + n, sizeof err->message - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return ORDO_ERR_INVALID_ARG;
}

#define fail ordo__table_fail
#define refuse ordo__table_refuse

ordo_status ordo__table_format(const char *name, ordo_format *fmt, ordo_error *err)
{
    return ordo_format_parse(name ? name : "ordered", fmt, err);
}

ordo_status ordo__table_schema_parse(const char *schema, ordo_schema *table, ordo_error *err)
{
    ordo_error e = {0};
    ordo_status s = ordo_schema_parse(schema, ORDO_FORMAT_ORDERED, table, &e);
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        return fail(err, s, "out of memory");
    if (s != ORDO_OK)
        return refuse(err, "schema", "%.1000s", e.message);
    for (size_t c = 0; c < table->ncols; c++)
        if (table->cols[c].order_given) {
            s = refuse(err, "schema", "column '%.200s': orders belong in key",
                       table->cols[c].name);
            ordo_schema_free(table);
            return s;
        }
    return ORDO_OK;
}

ordo_status ordo__table_options_check(const ordo_table_load_options *o, ordo_format *fmt,
                                      ordo_error *err)
{
    *fmt = 0;
    if (!o)
        return fail(err, ORDO_ERR_NULL_ARG, "no options");
    ordo_status s = ordo__table_format(o->format, fmt, err);
    if (s != ORDO_OK)
        return s;
    if (!ordo_tag_valid(o->tag))
        return refuse(err, "tag", "expected 0 to 254 (255 is for system keys), or untagged, "
                      "got %d", o->tag);
    if (o->on_duplicate != ORDO_DUP_ERROR && o->on_duplicate != ORDO_DUP_FIRST &&
        o->on_duplicate != ORDO_DUP_LAST)
        return refuse(err, "on_duplicate", "expected error, first or last");
    if (o->threads > ORDO__TABLE_THREADS_MAX)
        return refuse(err, "threads", "expected 1 to %d (0: 1)", ORDO__TABLE_THREADS_MAX);
    if (o->via != ORDO_TABLE_VIA_SST && o->via != ORDO_TABLE_VIA_WRITEBATCH)
        return refuse(err, "via", "expected sst or writebatch");
    if (o->memory && o->memory < MEMORY_MIN)
        return refuse(err, "memory", "at least 1M");
    if (o->sst_size && o->sst_size < SST_SIZE_MIN)
        return refuse(err, "sst_size",
                      "at least 64K (smaller files would hold a block or two each)");
    if (o->via == ORDO_TABLE_VIA_WRITEBATCH && o->on_duplicate == ORDO_DUP_FIRST) {
        fail(err, ORDO_ERR_INVALID_ARG,
             "via writebatch keeps the last row of a key (on_duplicate last) or fails on a "
             "duplicate (error): on_duplicate first needs via sst");
        if (err)
            err->option = "on_duplicate";
        return ORDO_ERR_INVALID_ARG;
    }
    if (ordo__table_import_check(&o->import, err) != ORDO_OK)
        return ORDO_ERR_INVALID_ARG;
    if (o->prefix && (strchr(o->prefix, '/') || strstr(o->prefix, "..")))
        return refuse(err, "prefix", "no '/' or '..'");
    ordo_status impl;
    ordo_impl_name(&impl); /* a bad ORDO_IMPL is refused before any input is read */
    if (impl != ORDO_OK)
        return fail(err, impl, "ORDO_IMPL: %s", ordo_status_message(impl));
    return ORDO_OK;
}

ordo_status ordo_table_load_check(const ordo_table_load_options *o, ordo_error *err)
{
    ordo_format fmt = 0;
    ordo_status s = ordo__table_options_check(o, &fmt, err);
    if (s != ORDO_OK || !o->schema)
        return s;
    ordo_schema table;
    if ((s = ordo__table_schema_parse(o->schema, &table, err)) != ORDO_OK)
        return s;
    ordo_schema key;
    ordo_error e = {0};
    s = ordo_schema_key(&table, o->key, fmt, &key, &e);
    if (s == ORDO_OK)
        ordo_schema_free(&key);
    else if (s == ORDO_ERR_OUT_OF_MEMORY)
        fail(err, s, "out of memory");
    else
        s = refuse(err, "key", "%.1000s", e.message);
    ordo_schema_free(&table);
    return s;
}

