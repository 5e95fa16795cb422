/* ordo decode and ordo inspect: ordered and packed keys (ordo_text_print)
 * and LexKey keys (ordo_lexkey_text_print) back to PostgreSQL's text forms, as CSV
 * rows or as a field-by-field breakdown. */
#include "cli.h"

#ifdef ORDO_WITH_ROCKSDB
#    include <ordo_table.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why a LexKey part did not read, for the message. */
static const char *lexkey_why(ordo_status st)
{
    if (st == ORDO_ERR_AMBIGUOUS_KEY)
        return "cannot split the key here: a NULL (the nil byte 00) and a value both fit "
               "(--no-nulls reads every part as a value)";
    if (st == ORDO_ERR_MALFORMED_KEY)
        return "the key does not split by the schema here (a part of the wrong width, a missing "
               "00 separator, or a 00 byte inside an earlier text or bytes part)";
    return ordo_status_message(st);
}

/* Decodes one key and prints a CSV row (or the inspect table), built whole
 * first so that nothing of a bad key reaches stdout; a bad key ends the run
 * with its reason on stderr (cli_fail). */
static void decode_one(const ordo_schema *s, ordo_format fmt, unsigned flags, const char *hex,
                       int inspect, size_t index)
{
    uint8_t *key;
    size_t len;
    char what[64];
    snprintf(what, sizeof what, "decode: key %zu", index);
    cli_hex_arg(what, hex, &key, &len);
    int packed = fmt == ORDO_FORMAT_PACKED, lexkey = fmt != ORDO_FORMAT_ORDERED && !packed;
    ordo_key_reader r;
    if (packed)
        ordo_key_reader_init_packed(&r, key, len);
    else
        ordo_key_reader_init(&r, key, len);
    ordo_lexkey_reader lr;
    unsigned width = fmt == ORDO_FORMAT_LEXKEY_LEGACY ? ORDO_LEXKEY_LEGACY : 0;
    ordo_lexkey_reader_init(&lr, key, len, width, s->ncols);
    char *text = NULL;
    size_t tlen = 0;
    FILE *row = open_memstream(&text, &tlen);
    if (!row)
        cli_fail("decode: out of memory");
    ordo_buf value = {0};
    if (inspect)
        fprintf(row, "%-5s %-16s %-16s %-17s %6s %6s  %s\n", "field", "name", "type", "order",
                "offset", "bytes", "value");
    for (size_t c = 0; c < s->ncols; c++) {
        /* a LexKey part starts after its 00 separator */
        size_t at = len - (lexkey ? ordo_lexkey_reader_remaining(&lr)
                                  : ordo_key_reader_remaining(&r));
        if (lexkey && c)
            at++;
        char type[160]; /* a collation shows with its type */
        snprintf(type, sizeof type, s->cols[c].collation ? "%s COLLATE \"%s\"" : "%s",
                 s->cols[c].sql_name, s->cols[c].collation);
        if (inspect)
            fprintf(row, "%-5zu %-16s %-16s %-17s %6zu ", c + 1, s->cols[c].name, type,
                    lexkey   ? "-"
                    : packed ? (s->cols[c].order >= ORDO_DESC_NULLS_FIRST ? "DESC" : "ASC")
                             : ordo_order_name((ordo_order)s->cols[c].order),
                    at);
        value.len = 0;
        ordo_text_style style = inspect ? ORDO_TEXT_SQL : ORDO_TEXT_CSV;
        ordo_status st = lexkey ? ordo_lexkey_text_print(&lr, s, c, style, flags, &value, NULL)
                                : ordo_text_print(&r, &s->cols[c], style, &value, NULL);
        if (st == ORDO_ERR_OUT_OF_MEMORY)
            cli_fail("decode: out of memory");
        if (st != ORDO_OK)
            cli_fail("decode: key %zu, column '%s' at byte %zu: %s", index, s->cols[c].name, at,
                     lexkey ? lexkey_why(st) : ordo_status_message(st));
        size_t end = len - (lexkey ? ordo_lexkey_reader_remaining(&lr)
                                   : ordo_key_reader_remaining(&r));
        if (inspect) {
            fprintf(row, "%6zu  ", end - at);
            for (size_t k = at; k < end; k++)
                fprintf(row, "%02x", key[k]);
            fputs("  ", row);
        } else if (c) {
            fputc(',', row);
        }
        fwrite(value.data, 1, value.len, row);
        if (inspect)
            fputc('\n', row);
    }
    ordo_buf_free(&value);
    for (size_t c = 0; inspect && c < s->ncols; c++) {
        /* an array's collation is its elements' (text[] COLLATE "x") */
        const ordo_schema_column *t = &s->cols[c];
        if (!t->collator && t->sql == ORDO_SQL_ARRAY && t->fields && t->fields->ncols == 1)
            t = &t->fields->cols[0];
        if (t->collator)
            fprintf(row, "collation \"%s\": %s, version %s\n", t->collation,
                    ordo_collator_provider(t->collator),
                    *ordo_collator_version(t->collator) ? ordo_collator_version(t->collator)
                                                        : "-");
    }
    if (!lexkey && ordo_key_reader_remaining(&r))
        cli_fail("decode: key %zu: %zu bytes left after the last column (schema mismatch)", index,
                 ordo_key_reader_remaining(&r));
    if (!inspect)
        fputc('\n', row);
    fclose(row);
    fwrite(text, 1, tlen, stdout);
    free(text);
    free(key);
}

/* The table stored under --db and --tag: its key columns (in key order,
 * with their orders) and format, as the library reads them from the
 * table's metadata (ordo_table_open_reader). */
typedef struct stored {
#ifdef ORDO_WITH_ROCKSDB
    ordo_db *db;
    ordo_table_reader *T;
#else
    int none;
#endif
} stored;

static const ordo_schema *stored_open(stored *t, const char *cmd, const char *path, int tag,
                                      ordo_format *fmt)
{
#ifdef ORDO_WITH_ROCKSDB
    ordo_error e;
    if (ordo_db_open(path, ORDO_DB_READ_ONLY, &t->db, &e) != ORDO_OK)
        cli_fail("%s: %s", cmd, e.message);
    /* decoding reads no order: keys made under another collation version
     * still decode */
    ordo_status st = ordo_table_open_reader(t->db, tag, 1, &t->T, NULL, &e);
    if (st == ORDO_ERR_OUT_OF_MEMORY)
        cli_out_of_memory();
    if (st != ORDO_OK)
        cli_fail("%s: %s", cmd, e.message);
    *fmt = ordo_table_reader_format(t->T);
    return ordo_table_reader_key(t->T);
#else
    (void)t, (void)path, (void)tag, (void)fmt;
    cli_fail("%s: --db: this ordo was built without RocksDB (-DORDO_WITH_ROCKSDB=OFF)", cmd);
#endif
}

static void stored_close(stored *t)
{
#ifdef ORDO_WITH_ROCKSDB
    ordo_table_reader_close(t->T);
    ordo_db_close(t->db);
#else
    (void)t;
#endif
}

/* --tag N: the tag, and whether it was given (the command names the messages). */
typedef struct tag_arg {
    const char *cmd;
    int tag, given;
} tag_arg;

static void parse_tag(void *dst, const char *a, const char *v)
{
    tag_arg *t = dst;
    t->tag = cli_tag(t->cmd, a, v);
    t->given = 1;
}

#define NO_NULLS_WHY                                                                               \
    "%s: --no-nulls applies to the LexKey formats (ordered keys say where NULLs are; packed keys " \
    "hold none)%s"

static int run(int argc, char **argv, int inspect)
{
    const char *format = NULL, *schema_text = NULL, *db_path = NULL;
    const char *cmd = inspect ? "inspect" : "decode";
    int no_nulls = 0;
    tag_arg tag = {cmd, -1, 0}; /* -1: ORDO_UNTAGGED (ordo_load.h) */
    const opt opts[] = {
        {"--format", OPT_STRING, &format, NULL},
        {"--schema", OPT_STRING, &schema_text, NULL},
        {"--no-nulls", OPT_FLAG, &no_nulls, NULL},
        {"--db", OPT_STRING, &db_path, NULL},
        {"--tag", OPT_CALL, &tag, parse_tag},
    };
    const opt_spec spec = {cmd, NULL, "unknown option", OPT_POS_NOT_LONG,
                           OPT_EQUALS | OPT_MISSING_UNKNOWN, opts, sizeof opts / sizeof opts[0]};
    char **args = cli_positional(argc);
    int nargs = cli_options(&spec, argc, argv, args);
    ordo_format fmt = ORDO_FORMAT_ORDERED;
    ordo_schema parsed = {0};
    const ordo_schema *s = &parsed;
    stored table = {0};
    unsigned flags = no_nulls ? ORDO_LEXKEY_TEXT_NO_NULLS : 0;
    if (db_path) {
        /* the table says what its keys are: nothing to retype */
        if (schema_text || format)
            cli_fail("%s: --db reads the schema, key and format from the table: give no %s", cmd,
                     schema_text ? "--schema" : "--format");
        if (inspect && nargs != 1) /* before any file is opened */
            cli_fail("inspect: needs exactly one HEX key");
        s = stored_open(&table, cmd, db_path, tag.tag, &fmt);
        if (no_nulls && (fmt == ORDO_FORMAT_ORDERED || fmt == ORDO_FORMAT_PACKED))
            cli_fail(NO_NULLS_WHY, cmd, ", and the table's format is neither");
    } else {
        if (tag.given)
            cli_fail("%s: --tag names a table of --db DIR", cmd);
        if (format)
            fmt = cli_format(cmd, format);
        if (!schema_text)
            cli_fail("%s: needs --schema SCHEMA (or --db DIR [--tag N])", cmd);
        if (no_nulls && (fmt == ORDO_FORMAT_ORDERED || fmt == ORDO_FORMAT_PACKED))
            cli_fail(NO_NULLS_WHY, cmd, "");
        ordo_error err;
        if (ordo_schema_parse(schema_text, fmt, &parsed, &err) != ORDO_OK)
            cli_fail("%s: --schema: %s", cmd, err.message);
        if (inspect && nargs != 1)
            cli_fail("inspect: needs exactly one HEX key");
    }
    if (nargs == 0 || (nargs == 1 && !strcmp(args[0], "-"))) {
        char *line = NULL;
        size_t cap = 0, index = 0;
        ssize_t n;
        while ((n = getline(&line, &cap, stdin)) > 0) {
            while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
                line[--n] = 0;
            decode_one(s, fmt, flags, line, inspect, ++index);
        }
        free(line);
    } else {
        for (int i = 0; i < nargs; i++)
            decode_one(s, fmt, flags, args[i], inspect, (size_t)i + 1);
    }
    ordo_schema_free(&parsed);
    stored_close(&table);
    free(args);
    return 0;
}

int cmd_decode(int argc, char **argv) { return run(argc, argv, 0); }
int cmd_inspect(int argc, char **argv) { return run(argc, argv, 1); }
