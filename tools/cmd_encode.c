/* ordo encode: one key from PART arguments. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* Decimal digits with an optional sign, nothing else. 0 on bad text. */
static int parse_decimal(const char *s, int *neg, uint64_t *mag, int *overflow)
{
    *neg = 0;
    *overflow = 0;
    if (*s == '-' || *s == '+')
        *neg = *s++ == '-';
    if (!*s)
        return 0;
    uint64_t m = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return 0;
        if (__builtin_mul_overflow(m, 10, &m) || __builtin_add_overflow(m, (uint64_t)(*s - '0'), &m))
            *overflow = 1;
    }
    *mag = m;
    return 1;
}

static int parse_signed(const char *s, int64_t max, int64_t *out, const char **why)
{
    int neg, of;
    uint64_t m;
    if (!parse_decimal(s, &neg, &m, &of)) {
        *why = "not an integer";
        return 0;
    }
    /* |min| = max + 1 for every two's-complement width. */
    if (of || (neg && m > (uint64_t)max + 1) || (!neg && m > (uint64_t)max)) {
        *why = "out of range";
        return 0;
    }
    *out = neg ? (int64_t)(0 - m) : (int64_t)m;
    return 1;
}

static int parse_unsigned(const char *s, uint64_t max, uint64_t *out, const char **why)
{
    int neg, of;
    uint64_t m;
    if (!parse_decimal(s, &neg, &m, &of)) {
        *why = "not an unsigned integer";
        return 0;
    }
    if (of || m > max || (neg && m != 0)) {
        *why = "out of range";
        return 0;
    }
    *out = m;
    return 1;
}

/* A decimal or exponent literal, or nan/inf/infinity with an optional sign
 * (any case). Hex floats and trailing text are refused. */
static int float_syntax_ok(const char *s)
{
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    if (!strcasecmp(p, "nan") || !strcasecmp(p, "inf") || !strcasecmp(p, "infinity"))
        return 1;
    int digits = 0;
    while (*p >= '0' && *p <= '9')
        p++, digits++;
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9')
            p++, digits++;
    }
    if (!digits)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return *p == '\0';
}

static int is_inf_word(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    return !strcasecmp(s, "inf") || !strcasecmp(s, "infinity");
}

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
    p->type = 0;
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
        if (strlen(type_names[i].name) == tlen && !strncmp(arg, type_names[i].name, tlen))
            p->type = type_names[i].type;
    if (!p->type)
        cli_fail("encode: bad part '%s': unknown type '%.*s'", arg, (int)tlen, arg);
    int ok = 1;
    errno = 0;
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
        ok = ordo_parse_uuid(val, strlen(val), p->v.uuid) == ORDO_OK;
        why = "expected the 8-4-4-4-12 hex form";
        break;
    case ORDO_TYPE_BOOL:
        ok = !strcmp(val, "true") || !strcmp(val, "false");
        p->v.b = !strcmp(val, "true");
        why = "expected true or false";
        break;
    case ORDO_TYPE_INT8: ok = parse_signed(val, INT8_MAX, &p->v.i, &why); break;
    case ORDO_TYPE_INT16: ok = parse_signed(val, INT16_MAX, &p->v.i, &why); break;
    case ORDO_TYPE_INT32: ok = parse_signed(val, INT32_MAX, &p->v.i, &why); break;
    case ORDO_TYPE_INT:
    case ORDO_TYPE_INT64:
    case ORDO_TYPE_DURATION: ok = parse_signed(val, INT64_MAX, &p->v.i, &why); break;
    case ORDO_TYPE_UINT8: ok = parse_unsigned(val, UINT8_MAX, &p->v.u, &why); break;
    case ORDO_TYPE_UINT16: ok = parse_unsigned(val, UINT16_MAX, &p->v.u, &why); break;
    case ORDO_TYPE_UINT32: ok = parse_unsigned(val, UINT32_MAX, &p->v.u, &why); break;
    case ORDO_TYPE_UINT64: ok = parse_unsigned(val, UINT64_MAX, &p->v.u, &why); break;
    case ORDO_TYPE_FLOAT32:
    case ORDO_TYPE_FLOAT64:
        why = "expected a decimal or exponent literal, nan, inf or -inf";
        ok = float_syntax_ok(val);
        if (ok && p->type == ORDO_TYPE_FLOAT32) {
            p->v.f32 = strtof(val, NULL); /* rounds once, straight to float32 */
            if (isinf(p->v.f32) && !is_inf_word(val))
                ok = 0, why = "out of range for float32";
        } else if (ok) {
            p->v.f64 = strtod(val, NULL);
            if (isinf(p->v.f64) && !is_inf_word(val))
                ok = 0, why = "out of range for float64";
        }
        break;
    case ORDO_TYPE_TIME: {
        ordo_status s = ordo_parse_rfc3339(val, strlen(val), &p->v.i);
        ok = s == ORDO_OK;
        why = s == ORDO_ERR_OUT_OF_RANGE
                  ? "outside the int64 nanosecond range (1677-09-21 to 2262-04-11)"
                  : "expected RFC 3339, e.g. 2023-11-14T22:13:20Z";
        break;
    }
    default:
        break;
    }
    if (!ok)
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
    }
    return ORDO_ERR_BAD_TYPE;
}

int cmd_encode(int argc, char **argv)
{
    unsigned flags = 0;
    int first = 0, last = 0, nparts = 0, opts_done = 0;
    part *parts = cli_alloc(sizeof(part) * (size_t)argc);
    size_t var_bytes = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!opts_done && !strcmp(a, "--")) {
            opts_done = 1;
        } else if (!opts_done && (!strcmp(a, "--format") || !strncmp(a, "--format=", 9))) {
            const char *f = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (!f)
                cli_fail("encode: --format needs a value");
            if (!strcmp(f, "lexkey"))
                flags = 0;
            else if (!strcmp(f, "lexkey-legacy"))
                flags = ORDO_LEXKEY_LEGACY;
            else
                cli_fail("encode: --format: unknown format '%s' (lexkey, lexkey-legacy)", f);
        } else if (!opts_done && !strcmp(a, "--first")) {
            first = 1;
        } else if (!opts_done && !strcmp(a, "--last")) {
            last = 1;
        } else if (!opts_done && a[0] == '-' && a[1] == '-') {
            cli_fail("encode: unknown option '%s'", a);
        } else {
            parse_part(a, &parts[nparts]);
            var_bytes += parts[nparts].len;
            nparts++;
        }
    }
    if (first && last)
        cli_fail("encode: --first and --last cannot be combined");
    if (nparts == 0)
        cli_fail("encode: no parts provided");
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
    cli_print_hex(key, len, '\n');
    for (int i = 0; i < nparts; i++)
        if (parts[i].type == ORDO_TYPE_BYTES)
            free((void *)parts[i].data);
    free(parts);
    free(key);
    return 0;
}
