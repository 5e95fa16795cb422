/* ordo encode: one key from PART arguments. */
#include "cli.h"

#include <ordo_table.h>


#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct part {
    ordo_type type;
    const char *text; /* the whole argument, for messages */
    union {
        int64_t i;
        uint64_t u;
        double f64;
        float f32;
        bool b;
        uint8_t uuid[16];
    } v;
    const uint8_t *data; /* string and bytes */
    size_t len;
} part;

static const struct {
    const char *name;
    ordo_type type;
} type_names[] = {
    {"string", ORDO_TYPE_STRING}, {"bytes", ORDO_TYPE_BYTES},     {"uuid", ORDO_TYPE_UUID},
    {"bool", ORDO_TYPE_BOOL},     {"int", ORDO_TYPE_INT},         {"int8", ORDO_TYPE_INT8},
    {"int16", ORDO_TYPE_INT16},   {"int32", ORDO_TYPE_INT32},     {"int64", ORDO_TYPE_INT64},
    {"uint8", ORDO_TYPE_UINT8},   {"uint16", ORDO_TYPE_UINT16},   {"uint32", ORDO_TYPE_UINT32},
    {"uint64", ORDO_TYPE_UINT64}, {"float32", ORDO_TYPE_FLOAT32}, {"float64", ORDO_TYPE_FLOAT64},
    {"time", ORDO_TYPE_TIME},     {"duration", ORDO_TYPE_DURATION},
};

static void parse_part(const char *arg, part *p)
{
    memset(p, 0, sizeof *p);
    p->text = arg;
    if (!strcmp(arg, "nil")) {
        p->type = ORDO_TYPE_NIL;
        return;
    }
    if (!strcmp(arg, "end")) {
        p->type = ORDO_TYPE_END;
        return;
    }
    const char *colon = strchr(arg, ':');
    if (!colon)
        cli_fail("encode: bad part '%s': expected TYPE:VALUE, nil or end", arg);
    size_t tlen = (size_t)(colon - arg);
    const char *val = colon + 1, *why = NULL;
    size_t vlen = strlen(val);
    p->type = 0;
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
        if (strlen(type_names[i].name) == tlen && !strncmp(arg, type_names[i].name, tlen))
            p->type = type_names[i].type;
    if (!p->type)
        cli_fail("encode: bad part '%s': unknown type '%.*s'", arg, (int)tlen, arg);
    switch (p->type) {
    case ORDO_TYPE_STRING:
        p->data = (const uint8_t *)val;
        p->len = strlen(val);
        break;
    case ORDO_TYPE_BYTES: {
        uint8_t *b;
        cli_hex_arg("encode: bytes part", val, &b, &p->len);
        p->data = b;
        break;
    }
    case ORDO_TYPE_UUID:
        if (ordo_parse_uuid(val, vlen, p->v.uuid) != ORDO_OK)
            why = "expected the 8-4-4-4-12 hex form";
        break;
    case ORDO_TYPE_BOOL:
        if (strcmp(val, "true") && strcmp(val, "false"))
            why = "expected true or false";
        p->v.b = !strcmp(val, "true");
        break;
    case ORDO_TYPE_INT8: ordo_text_int(val, vlen, INT8_MIN, INT8_MAX, &p->v.i, &why); break;
    case ORDO_TYPE_INT16: ordo_text_int(val, vlen, INT16_MIN, INT16_MAX, &p->v.i, &why); break;
    case ORDO_TYPE_INT32: ordo_text_int(val, vlen, INT32_MIN, INT32_MAX, &p->v.i, &why); break;
    case ORDO_TYPE_INT:
    case ORDO_TYPE_INT64:
    case ORDO_TYPE_DURATION: ordo_text_int(val, vlen, INT64_MIN, INT64_MAX, &p->v.i, &why); break;
    case ORDO_TYPE_UINT8: ordo_text_uint(val, vlen, UINT8_MAX, &p->v.u, &why); break;
    case ORDO_TYPE_UINT16: ordo_text_uint(val, vlen, UINT16_MAX, &p->v.u, &why); break;
    case ORDO_TYPE_UINT32: ordo_text_uint(val, vlen, UINT32_MAX, &p->v.u, &why); break;
    case ORDO_TYPE_UINT64: ordo_text_uint(val, vlen, UINT64_MAX, &p->v.u, &why); break;
    case ORDO_TYPE_FLOAT32: ordo_text_float32(val, vlen, &p->v.f32, &why); break;
    case ORDO_TYPE_FLOAT64: ordo_text_float64(val, vlen, &p->v.f64, &why); break;
    case ORDO_TYPE_TIME: {
        ordo_status s = ordo_parse_rfc3339(val, vlen, &p->v.i);
        if (s == ORDO_ERR_OUT_OF_RANGE)
            why = "outside the int64 nanosecond range (1677-09-21 to 2262-04-11)";
        else if (s != ORDO_OK)
            why = "expected RFC 3339, e.g. 2023-11-14T22:13:20Z";
        break;
    }
    default:
        break;
    }
    if (why)
        cli_fail("encode: bad part '%s': %s", arg, why);
}

static ordo_status add_part(ordo_lexkey *b, const part *p)
{
    switch (p->type) {
    case ORDO_TYPE_STRING: return ordo_lexkey_string(b, (const char *)p->data, p->len);
    case ORDO_TYPE_BYTES: return ordo_lexkey_bytes(b, p->data, p->len);
    case ORDO_TYPE_UUID: return ordo_lexkey_uuid(b, p->v.uuid);
    case ORDO_TYPE_BOOL: return ordo_lexkey_bool(b, p->v.b);
    case ORDO_TYPE_INT8: return ordo_lexkey_int8(b, (int8_t)p->v.i);
    case ORDO_TYPE_INT16: return ordo_lexkey_int16(b, (int16_t)p->v.i);
    case ORDO_TYPE_INT32: return ordo_lexkey_int32(b, (int32_t)p->v.i);
    case ORDO_TYPE_INT64: return ordo_lexkey_int64(b, p->v.i);
    case ORDO_TYPE_INT: return ordo_lexkey_int(b, p->v.i);
    case ORDO_TYPE_UINT8: return ordo_lexkey_uint8(b, (uint8_t)p->v.u);
    case ORDO_TYPE_UINT16: return ordo_lexkey_uint16(b, (uint16_t)p->v.u);
    case ORDO_TYPE_UINT32: return ordo_lexkey_uint32(b, (uint32_t)p->v.u);
    case ORDO_TYPE_UINT64: return ordo_lexkey_uint64(b, p->v.u);
    case ORDO_TYPE_FLOAT32: return ordo_lexkey_float32(b, p->v.f32);
    case ORDO_TYPE_FLOAT64: return ordo_lexkey_float64(b, p->v.f64);
    case ORDO_TYPE_TIME: return ordo_lexkey_time(b, p->v.i);
    case ORDO_TYPE_DURATION: return ordo_lexkey_duration(b, p->v.i);
    case ORDO_TYPE_NIL: return ordo_lexkey_nil(b);
    case ORDO_TYPE_END: return ordo_lexkey_end(b);
    default: return ORDO_ERR_BAD_TYPE; /* PART types are the LexKey ones only */
    }
}

int cmd_encode(int argc, char **argv)
{
    const char *format = "lexkey", *schema = NULL, *output = "hex", *threads = NULL;
    const char *max_row = NULL, *key_spec = NULL;
    int first = 0, last = 0, header = 0, nparts = 0;
    const opt opts[] = {
        {"--format", OPT_STRING, &format, NULL},
        {"--schema", OPT_STRING, &schema, NULL},
        {"--key", OPT_STRING, &key_spec, NULL},
        {"--output", OPT_STRING, &output, NULL},
        {"--threads", OPT_STRING, &threads, NULL},
        {"--max-row-bytes", OPT_STRING, &max_row, NULL},
        {"--header", OPT_FLAG, &header, NULL},
        {"--first", OPT_FLAG, &first, NULL},
        {"--last", OPT_FLAG, &last, NULL},
    };
    const opt_spec spec = {"encode", NULL, "unknown option", OPT_POS_NOT_LONG,
                           OPT_EQUALS | OPT_DOUBLE_DASH, opts, sizeof opts / sizeof opts[0]};
    char **args = cli_positional(argc);
    int nargs = cli_options(&spec, argc, argv, args);
    if (schema) {
        if (first || last)
            cli_fail("encode: --first/--last apply to PART arguments, not to --schema input");
        if (nargs > 1)
            cli_fail("encode: --schema reads one FILE (or - for standard input), got %d", nargs);
        long nthreads = sysconf(_SC_NPROCESSORS_ONLN); /* default: every core */
        if (threads) {
            char *end;
            nthreads = strtol(threads, &end, 10);
            if (*end || end == threads || nthreads < 1 || nthreads > ORDO_TABLE_THREADS_MAX)
                cli_fail("encode: --threads: expected 1 to %d, got '%s'", ORDO_TABLE_THREADS_MAX,
                         threads);
        }
        /* PostgreSQL's own limit on a field: 1 GB */
        unsigned long long max_bytes = (unsigned long long)1 << 30;
        if (max_row) {
            char *end;
            errno = 0;
            max_bytes = strtoull(max_row, &end, 10);
            if (*end || end == max_row || max_row[0] == '-' || errno || max_bytes == 0 ||
                max_bytes > ((unsigned long long)1 << 40))
                cli_fail("encode: --max-row-bytes: expected 1 to 2^40, got '%s'", max_row);
        }
        int rc = encode_csv(format, schema, key_spec, header, output, nargs ? args[0] : "-",
                            nthreads > 1 ? (int)nthreads : 1, (size_t)max_bytes);
        free(args);
        return rc;
    }
    if (header || !strcmp(output, "raw") || threads || max_row || key_spec)
        cli_fail("encode: --header, --key, --output raw, --threads and --max-row-bytes apply to "
                 "--schema input");
    int json = cli_output_json("encode", output);
    unsigned flags = 0;
    if (!strcmp(format, "lexkey-legacy"))
        flags = ORDO_LEXKEY_LEGACY;
    else if (strcmp(format, "lexkey"))
        cli_fail("encode: --format: unknown format '%s' for PART arguments (lexkey, "
                 "lexkey-legacy; ordered and packed keys take --schema and CSV)",
                 format);
    if (first && last)
        cli_fail("encode: --first and --last cannot be combined");
    if (nargs == 0)
        cli_fail("encode: no parts provided");
    part *parts = cli_alloc(sizeof(part) * (size_t)nargs);
    size_t var_bytes = 0;
    for (int i = 0; i < nargs; i++) {
        parse_part(args[i], &parts[nparts]);
        var_bytes += parts[nparts].len;
        nparts++;
    }
    size_t cap = ORDO_LEXKEY_BOUND(nparts, var_bytes), len = 0;
    uint8_t *key = cli_alloc(cap);
    ordo_lexkey b;
    ordo_lexkey_init(&b, key, cap, flags);
    for (int i = 0; i < nparts; i++)
        if (add_part(&b, &parts[i]) != ORDO_OK)
            cli_fail("encode: part '%s': %s", parts[i].text,
                     ordo_status_message(ordo_lexkey_finish(&b, NULL)));
    if (first)
        ordo_lexkey_first(&b);
    if (last)
        ordo_lexkey_last(&b);
    ordo_status s = ordo_lexkey_finish(&b, &len);
    if (s != ORDO_OK)
        cli_fail("encode: %s", ordo_status_message(s));
    cli_print_key(key, len, json, "\n");
    for (int i = 0; i < nparts; i++)
        if (parts[i].type == ORDO_TYPE_BYTES)
            free((void *)parts[i].data);
    free(parts);
    free(args);
    free(key);
    return 0;
}
