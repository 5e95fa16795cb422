/* Keys back to values: ordo_decode(key, schema) and ordo_inspect(key,
 * schema). The ingest library reads each field into PostgreSQL's text form
 * of its type (ordo_text_print), which the result column's input function
 * then reads: the values come back as PostgreSQL itself would parse them. */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "ordo_ingest.h"

#include <string.h>

/* A parsed schema, kept per call site while the schema text stays the same
 * (parsing opens its collators); freed with the call site's memory. */
typedef struct schema_cache {
    text *spec;
    ordo_schema s;
    int parsed;
    MemoryContextCallback cb;
} schema_cache;

static void free_schema(void *arg)
{
    schema_cache *c = arg;
    if (c->parsed)
        ordo_schema_free(&c->s);
    c->parsed = 0;
}

static const ordo_schema *take_schema(FunctionCallInfo fcinfo, int argno, const char *fn)
{
    FmgrInfo *fl = fcinfo->flinfo;
    schema_cache *c = fl->fn_extra;
    if (!c) {
        c = MemoryContextAllocZero(fl->fn_mcxt, sizeof *c);
        c->cb.func = free_schema;
        c->cb.arg = c;
        MemoryContextRegisterResetCallback(fl->fn_mcxt, &c->cb);
        fl->fn_extra = c;
    }
    text *spec = PG_GETARG_TEXT_PP(argno);
    size_t len = VARSIZE_ANY_EXHDR(spec);
    if (c->parsed && VARSIZE_ANY_EXHDR(c->spec) == len &&
        !memcmp(VARDATA_ANY(c->spec), VARDATA_ANY(spec), len))
        return &c->s;
    free_schema(c);
    if (c->spec)
        pfree(c->spec);
    c->spec = MemoryContextAlloc(fl->fn_mcxt, VARHDRSZ + len);
    SET_VARSIZE(c->spec, VARHDRSZ + len);
    memcpy(VARDATA(c->spec), VARDATA_ANY(spec), len);
    char *s = text_to_cstring(spec);
    ordo_error err;
    if (ordo_schema_parse(s, ORDO_FORMAT_ORDERED, &c->s, &err) != ORDO_OK)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: bad schema '%s': %s", fn, s, err.message)));
    pfree(s);
    c->parsed = 1;
    return &c->s;
}

/* Column c's field of the key from reader r as text into *out; ERRORs for a
 * field that does not read. */
static bool read_field(ordo_key_reader *r, const ordo_schema *s, size_t c, ordo_text_style style,
                       ordo_buf *out, size_t at, const char *fn)
{
    bool is_null = false;
    out->len = 0;
    ordo_status st = ordo_text_print(r, &s->cols[c], style, out, &is_null);
    if (st != ORDO_OK) {
        ordo_buf_free(out);
        int code = st == ORDO_ERR_OUT_OF_MEMORY ? ERRCODE_OUT_OF_MEMORY
                                                : ERRCODE_INVALID_BINARY_REPRESENTATION;
        ereport(ERROR, (errcode(code),
                        errmsg("%s: column '%s' at byte %zu: %s", fn, s->cols[c].name, at,
                               ordo_status_message(st))));
    }
    return is_null;
}

static void check_end(const ordo_key_reader *r, ordo_buf *out, const char *fn)
{
    size_t left = ordo_key_reader_remaining(r);
    if (left) {
        ordo_buf_free(out);
        ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                        errmsg("%s: %zu bytes left after the last column (schema mismatch)", fn,
                               left)));
    }
}

PG_FUNCTION_INFO_V1(ordo_sql_decode);
/* ordo_decode(key bytea, schema text) RETURNS record: the key's columns, as
 * the column definition list types them. */
Datum ordo_sql_decode(PG_FUNCTION_ARGS)
{
    const char *fn = "ordo_decode";
    bytea *key = PG_GETARG_BYTEA_PP(0);
    const ordo_schema *s = take_schema(fcinfo, 1, fn);
    TupleDesc td;
    if (get_call_result_type(fcinfo, NULL, &td) != TYPEFUNC_COMPOSITE)
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("%s: the result needs a column definition list", fn),
                        errhint("SELECT * FROM ordo_decode(k, 'a integer, b text') AS (a integer, "
                                "b text)")));
    if ((size_t)td->natts != s->ncols)
        ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                        errmsg("%s: the schema has %zu columns but the result %d", fn, s->ncols,
                               td->natts)));
    AttInMetadata *meta = TupleDescGetAttInMetadata(td);
    char **values = palloc0(sizeof *values * (s->ncols ? s->ncols : 1));
    ordo_key_reader r;
    size_t len = VARSIZE_ANY_EXHDR(key);
    ordo_key_reader_init(&r, VARDATA_ANY(key), len);
    ordo_buf out = {0};
    for (size_t c = 0; c < s->ncols; c++) {
        size_t at = len - ordo_key_reader_remaining(&r);
        if (!read_field(&r, s, c, ORDO_TEXT_BARE, &out, at, fn))
            values[c] = pnstrdup(out.data ? out.data : "", out.len);
    }
    check_end(&r, &out, fn);
    ordo_buf_free(&out);
    HeapTuple tup = BuildTupleFromCStrings(meta, values);
    PG_RETURN_DATUM(HeapTupleGetDatum(tup));
}

PG_FUNCTION_INFO_V1(ordo_sql_inspect);
/* ordo_inspect(key bytea, schema text) RETURNS text: one line per column,
 * as `ordo inspect` prints them (field, name, type, order, offset, bytes,
 * the field's bytes and its value as a SQL literal), then one per
 * collation. */
Datum ordo_sql_inspect(PG_FUNCTION_ARGS)
{
    const char *fn = "ordo_inspect";
    bytea *key = PG_GETARG_BYTEA_PP(0);
    const ordo_schema *s = take_schema(fcinfo, 1, fn);
    const uint8_t *k = (const uint8_t *)VARDATA_ANY(key);
    size_t len = VARSIZE_ANY_EXHDR(key);
    ordo_key_reader r;
    ordo_key_reader_init(&r, k, len);
    StringInfoData t;
    initStringInfo(&t);
    appendStringInfo(&t, "%-5s %-16s %-16s %-17s %6s %6s  %s\n", "field", "name", "type", "order",
                     "offset", "bytes", "value");
    ordo_buf out = {0};
    for (size_t c = 0; c < s->ncols; c++) {
        const ordo_schema_column *col = &s->cols[c];
        size_t at = len - ordo_key_reader_remaining(&r);
        char type[160];
        snprintf(type, sizeof type, col->collation ? "%s COLLATE \"%s\"" : "%s", col->sql_name,
                 col->collation);
        bool is_null = read_field(&r, s, c, ORDO_TEXT_SQL, &out, at, fn);
        (void)is_null; /* the SQL literal says NULL */
        size_t end = len - ordo_key_reader_remaining(&r);
        appendStringInfo(&t, "%-5zu %-16s %-16s %-17s %6zu %6zu  ", c + 1, col->name, type,
                         ordo_order_name((ordo_order)col->order), at, end - at);
        for (size_t i = at; i < end; i++)
            appendStringInfo(&t, "%02x", k[i]);
        appendStringInfoString(&t, "  ");
        appendBinaryStringInfo(&t, out.data ? out.data : "", (int)out.len);
        appendStringInfoChar(&t, '\n');
    }
    for (size_t c = 0; c < s->ncols; c++) {
        /* an array's collation is its elements' (text[] COLLATE "x") */
        const ordo_schema_column *col = &s->cols[c];
        if (!col->collator && col->sql == ORDO_SQL_ARRAY && col->fields && col->fields->ncols == 1)
            col = &col->fields->cols[0];
        if (col->collator) {
            const char *v = ordo_collator_version(col->collator);
            appendStringInfo(&t, "collation \"%s\": %s, version %s\n", col->collation,
                             ordo_collator_provider(col->collator), *v ? v : "-");
        }
    }
    check_end(&r, &out, fn);
    ordo_buf_free(&out);
    PG_RETURN_TEXT_P(cstring_to_text_with_len(t.data, t.len));
}
