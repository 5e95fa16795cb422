#include "schema.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    ordo_sql_type sql;
    const char *canonical;
} type_names[] = {
    {"boolean", ORDO_SQL_BOOLEAN, "boolean"},
    {"bool", ORDO_SQL_BOOLEAN, "boolean"},
    {"tinyint", ORDO_SQL_TINYINT, "tinyint"},
    {"int1", ORDO_SQL_TINYINT, "tinyint"},
    {"smallint", ORDO_SQL_SMALLINT, "smallint"},
    {"int2", ORDO_SQL_SMALLINT, "smallint"},
    {"integer", ORDO_SQL_INTEGER, "integer"},
    {"int", ORDO_SQL_INTEGER, "integer"},
    {"int4", ORDO_SQL_INTEGER, "integer"},
    {"bigint", ORDO_SQL_BIGINT, "bigint"},
    {"int8", ORDO_SQL_BIGINT, "bigint"},
    {"hugeint", ORDO_SQL_HUGEINT, "hugeint"},
    {"int128", ORDO_SQL_HUGEINT, "hugeint"},
    {"utinyint", ORDO_SQL_UTINYINT, "utinyint"},
    {"uint8", ORDO_SQL_UTINYINT, "utinyint"},
    {"usmallint", ORDO_SQL_USMALLINT, "usmallint"},
    {"uint16", ORDO_SQL_USMALLINT, "usmallint"},
    {"uinteger", ORDO_SQL_UINTEGER, "uinteger"},
    {"uint32", ORDO_SQL_UINTEGER, "uinteger"},
    {"ubigint", ORDO_SQL_UBIGINT, "ubigint"},
    {"uint64", ORDO_SQL_UBIGINT, "ubigint"},
    {"real", ORDO_SQL_REAL, "real"},
    {"float4", ORDO_SQL_REAL, "real"},
    {"double precision", ORDO_SQL_DOUBLE, "double precision"},
    {"double", ORDO_SQL_DOUBLE, "double precision"},
    {"float8", ORDO_SQL_DOUBLE, "double precision"},
    {"float", ORDO_SQL_DOUBLE, "double precision"},
    {"numeric", ORDO_SQL_NUMERIC, "numeric"},
    {"decimal", ORDO_SQL_NUMERIC, "numeric"},
    {"text", ORDO_SQL_TEXT, "text"},
    {"varchar", ORDO_SQL_TEXT, "text"},
    {"character varying", ORDO_SQL_TEXT, "text"},
    {"char", ORDO_SQL_BPCHAR, "character"},
    {"character", ORDO_SQL_BPCHAR, "character"},
    {"bpchar", ORDO_SQL_BPCHAR, "character"},
    {"bytea", ORDO_SQL_BYTEA, "bytea"},
    {"blob", ORDO_SQL_BYTEA, "bytea"},
    {"uuid", ORDO_SQL_UUID, "uuid"},
    {"date", ORDO_SQL_DATE, "date"},
    {"time", ORDO_SQL_TIME, "time"},
    {"time without time zone", ORDO_SQL_TIME, "time"},
    {"timetz", ORDO_SQL_TIMETZ, "timetz"},
    {"time with time zone", ORDO_SQL_TIMETZ, "timetz"},
    {"timestamp", ORDO_SQL_TIMESTAMP, "timestamp"},
    {"timestamp without time zone", ORDO_SQL_TIMESTAMP, "timestamp"},
    {"timestamptz", ORDO_SQL_TIMESTAMPTZ, "timestamptz"},
    {"timestamp with time zone", ORDO_SQL_TIMESTAMPTZ, "timestamptz"},
    {"interval", ORDO_SQL_INTERVAL, "interval"},
    {"inet", ORDO_SQL_INET, "inet"},
    {"cidr", ORDO_SQL_CIDR, "cidr"},
    {"macaddr", ORDO_SQL_MACADDR, "macaddr"},
    {"macaddr8", ORDO_SQL_MACADDR8, "macaddr8"},
    {"pg_lsn", ORDO_SQL_PG_LSN, "pg_lsn"},
    {"bit", ORDO_SQL_BIT, "bit varying"},
    {"bit varying", ORDO_SQL_BIT, "bit varying"},
    {"varbit", ORDO_SQL_BIT, "bit varying"},
};

ordo_format ordo_format_from_name(const char *name)
{
    if (!strcmp(name, "lexkey"))
        return ORDO_FORMAT_LEXKEY;
    if (!strcmp(name, "lexkey-legacy"))
        return ORDO_FORMAT_LEXKEY_LEGACY;
    if (!strcmp(name, "ordered"))
        return ORDO_FORMAT_ORDERED;
    if (!strcmp(name, "packed"))
        return ORDO_FORMAT_PACKED;
    return (ordo_format)0;
}

/* The part each format gives an SQL type (0: the format cannot hold it,
 * or the ordered format does not support it yet). */
static const struct {
    ordo_sql_type sql;
    ordo_type lexkey;
    uint8_t lexkey_unit;
    ordo_type ordered;
} parts[] = {
    {ORDO_SQL_BOOLEAN, ORDO_TYPE_BOOL, 0, ORDO_TYPE_BOOL},
    {ORDO_SQL_TINYINT, ORDO_TYPE_INT8, 0, ORDO_TYPE_INT8},
    {ORDO_SQL_SMALLINT, ORDO_TYPE_INT16, 0, ORDO_TYPE_INT16},
    {ORDO_SQL_INTEGER, ORDO_TYPE_INT32, 0, ORDO_TYPE_INT32},
    {ORDO_SQL_BIGINT, ORDO_TYPE_INT64, 0, ORDO_TYPE_INT64},
    {ORDO_SQL_HUGEINT, 0, 0, ORDO_TYPE_INT128},
    {ORDO_SQL_UTINYINT, ORDO_TYPE_UINT8, 0, ORDO_TYPE_UINT8},
    {ORDO_SQL_USMALLINT, ORDO_TYPE_UINT16, 0, ORDO_TYPE_UINT16},
    {ORDO_SQL_UINTEGER, ORDO_TYPE_UINT32, 0, ORDO_TYPE_UINT32},
    {ORDO_SQL_UBIGINT, ORDO_TYPE_UINT64, 0, ORDO_TYPE_UINT64},
    {ORDO_SQL_REAL, ORDO_TYPE_FLOAT32, 0, ORDO_TYPE_FLOAT32},
    {ORDO_SQL_DOUBLE, ORDO_TYPE_FLOAT64, 0, ORDO_TYPE_FLOAT64},
    {ORDO_SQL_NUMERIC, 0, 0, ORDO_TYPE_NUMERIC},
    {ORDO_SQL_TEXT, ORDO_TYPE_STRING, 0, ORDO_TYPE_STRING},
    {ORDO_SQL_BPCHAR, ORDO_TYPE_STRING, 0, ORDO_TYPE_STRING},
    {ORDO_SQL_BYTEA, ORDO_TYPE_BYTES, 0, ORDO_TYPE_BYTES},
    {ORDO_SQL_UUID, ORDO_TYPE_UUID, 0, ORDO_TYPE_UUID},
    {ORDO_SQL_DATE, ORDO_TYPE_TIME, ORDO_UNIT_DAY32, ORDO_TYPE_DATE},
    {ORDO_SQL_TIME, 0, 0, ORDO_TYPE_TIME_OF_DAY},
    {ORDO_SQL_TIMETZ, 0, 0, ORDO_TYPE_TIMETZ},
    {ORDO_SQL_TIMESTAMP, ORDO_TYPE_TIME, ORDO_UNIT_NS, ORDO_TYPE_TIMESTAMP},
    {ORDO_SQL_TIMESTAMPTZ, ORDO_TYPE_TIME, ORDO_UNIT_NS, ORDO_TYPE_TIMESTAMPTZ},
    {ORDO_SQL_INTERVAL, 0, 0, ORDO_TYPE_INTERVAL},
    {ORDO_SQL_INET, 0, 0, ORDO_TYPE_INET},
    {ORDO_SQL_CIDR, 0, 0, ORDO_TYPE_CIDR},
    {ORDO_SQL_MACADDR, 0, 0, ORDO_TYPE_MACADDR},
    {ORDO_SQL_MACADDR8, 0, 0, ORDO_TYPE_MACADDR8},
    {ORDO_SQL_PG_LSN, 0, 0, ORDO_TYPE_PG_LSN},
    {ORDO_SQL_ENUM, 0, 0, ORDO_TYPE_ENUM},
    {ORDO_SQL_BIT, 0, 0, ORDO_TYPE_BIT},
    {ORDO_SQL_RECORD, 0, 0, ORDO_TYPE_ENCODED},
    {ORDO_SQL_RANGE, 0, 0, ORDO_TYPE_ENCODED},
    {ORDO_SQL_ARRAY, 0, 0, ORDO_TYPE_ENCODED},
};

/* The types the packed format holds: every ordered type of a fixed width. */
static int packable(ordo_type t)
{
    if (!t)
        return 0;
    switch (t) {
    case ORDO_TYPE_NUMERIC:
    case ORDO_TYPE_STRING:
    case ORDO_TYPE_BYTES:
    case ORDO_TYPE_INET:
    case ORDO_TYPE_CIDR:
    case ORDO_TYPE_BIT:
    case ORDO_TYPE_ENCODED: return 0;
    default: return 1;
    }
}

static int part_of(ordo_sql_type t)
{
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (parts[i].sql == t)
            return (int)i;
    return -1;
}

/* Lowercases and collapses whitespace; drops a "(...)" type modifier. */
static void normalise(const char *s, size_t n, char *out, size_t cap)
{
    size_t o = 0;
    int depth = 0, space = 0;
    for (size_t i = 0; i < n && o + 1 < cap; i++) {
        char c = s[i];
        if (c == '(') {
            depth++;
            continue;
        }
        if (c == ')') {
            depth -= depth > 0;
            continue;
        }
        if (depth)
            continue;
        if (isspace((unsigned char)c)) {
            space = o > 0;
            continue;
        }
        if (space && o + 2 < cap)
            out[o++] = ' ';
        space = 0;
        out[o++] = (char)tolower((unsigned char)c);
    }
    out[o] = 0;
}

/* Removes a trailing word (" word") from s when present. */
static int strip_suffix(char *s, const char *word)
{
    size_t n = strlen(s), w = strlen(word);
    if (n > w && s[n - w - 1] == ' ' && !strcmp(s + n - w, word)) {
        s[n - w - 1] = 0;
        return 1;
    }
    return 0;
}

/* PostgreSQL's range types and their subtypes. */
static const struct {
    const char *name;
    ordo_sql_type sub;
} range_names[] = {{"int4range", ORDO_SQL_INTEGER}, {"int8range", ORDO_SQL_BIGINT},
                   {"numrange", ORDO_SQL_NUMERIC},  {"daterange", ORDO_SQL_DATE},
                   {"tsrange", ORDO_SQL_TIMESTAMP}, {"tstzrange", ORDO_SQL_TIMESTAMPTZ}};

/* Strips an array suffix ("[]", "[3]", " array") from the type words. */
static int strip_array(char *rest)
{
    size_t n = strlen(rest);
    if (strip_suffix(rest, "array"))
        return 1;
    if (!n || rest[n - 1] != ']')
        return 0;
    char *open = strrchr(rest, '[');
    if (!open)
        return 0;
    for (char *d = open + 1; d < rest + n - 1; d++)
        if (!isdigit((unsigned char)*d))
            return 0;
    while (open > rest && open[-1] == ' ')
        open--;
    *open = 0;
    return 1;
}

/* A range or an array column: c->fields gets one column of the subtype or
 * element type (sql already looked up), c becomes the range or array.
 * 0 with a message on error. */
static int make_nested(ordo_schema_column *c, ordo_sql_type sql, const char *sql_name, int array,
                       char *err, size_t errlen)
{
    int part = part_of(sql);
    ordo_type t = part >= 0 ? parts[part].ordered : (ordo_type)0;
    if (!t || t == ORDO_TYPE_ENCODED) {
        snprintf(err, errlen, "column '%s': arrays of %s are not supported", c->name, sql_name);
        return 0;
    }
    c->fields = calloc(1, sizeof *c->fields);
    ordo_schema_column *v = c->fields ? calloc(1, sizeof *v) : NULL;
    if (v)
        v->name = malloc(strlen(c->name) + 1);
    if (array && v && v->name)
        c->type_spec = malloc(strlen(sql_name) + 3);
    if (!v || !v->name || (array && !c->type_spec)) {
        if (v)
            free(v->name);
        free(v);
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    strcpy(v->name, c->name);
    v->sql = sql, v->sql_name = sql_name, v->type = t, v->order = ORDO_ASC_NULLS_LAST;
    c->fields->cols = v, c->fields->ncols = 1;
    if (array) {
        sprintf(c->type_spec, "%s[]", sql_name);
        c->sql = ORDO_SQL_ARRAY, c->sql_name = c->type_spec;
    } else {
        c->sql = ORDO_SQL_RANGE;
    }
    return 1;
}

/* How many ranges and arrays a value of c holds inside each other at most. */
static int nest_depth(const ordo_schema_column *c)
{
    int d = 0;
    for (size_t i = 0; c->fields && i < c->fields->ncols; i++) {
        int f = nest_depth(&c->fields->cols[i]);
        d = f > d ? f : d;
    }
    return d + (c->sql == ORDO_SQL_ARRAY || c->sql == ORDO_SQL_RANGE);
}

/* An array of enums, records or ranges: the column as parsed so far (labels,
 * fields, subtype) becomes its element, c the array. 0 with a message. */
static int wrap_array(ordo_schema_column *c, char *err, size_t errlen)
{
    const char *spec = c->type_spec ? c->type_spec : c->sql_name; /* enum(..), record(..), int4range */
    ordo_schema *f = calloc(1, sizeof *f);
    ordo_schema_column *v = f ? calloc(1, sizeof *v) : NULL;
    char *name = v ? malloc(strlen(c->name) + 1) : NULL, *ts = name ? malloc(strlen(spec) + 3) : NULL;
    if (!ts) {
        free(name), free(v), free(f);
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    strcpy(name, c->name);
    sprintf(ts, "%s[]", spec);
    int part = part_of(c->sql);
    *v = (ordo_schema_column){.name = name, .sql = c->sql, .sql_name = c->sql_name,
                              .type = part >= 0 ? parts[part].ordered : (ordo_type)0,
                              .order = ORDO_ASC_NULLS_LAST, .type_spec = c->type_spec,
                              .fields = c->fields, .labels = c->labels, .nlabels = c->nlabels};
    f->cols = v, f->ncols = 1;
    c->fields = f, c->labels = NULL, c->nlabels = 0;
    c->type_spec = ts, c->sql = ORDO_SQL_ARRAY, c->sql_name = ts;
    return 1;
}

static void free_labels(ordo_schema_column *c)
{
    for (size_t i = 0; i < c->nlabels; i++)
        free(c->labels[i]);
    free(c->labels), free(c->type_spec), free(c->name), free(c->collation);
    ordo_collator_close(c->collator);
    c->labels = NULL, c->type_spec = NULL, c->name = NULL, c->nlabels = 0;
    c->collation = NULL, c->collator = NULL;
    if (c->fields) {
        ordo_schema_free(c->fields);
        free(c->fields);
        c->fields = NULL;
    }
}

/* s[0..n) starts (after spaces) with `word` then "(": the offset past the
 * parenthesis, with *start where the word begins; else 0. */
static size_t keyword_open(const char *s, size_t n, const char *word, size_t *start)
{
    size_t i = 0, w = strlen(word);
    while (i < n && isspace((unsigned char)s[i]))
        i++;
    *start = i;
    if (n - i < w || strncasecmp(s + i, word, w))
        return 0;
    for (i += w; i < n && isspace((unsigned char)s[i]); i++)
        ;
    return i < n && s[i] == '(' ? i + 1 : 0;
}

/* "enum('a', 'b''c')" at s[0..n): the labels in c; returns the bytes taken,
 * 0 when s is not an enum, or -1 with a message. */
static long parse_enum(const char *s, size_t n, ordo_schema_column *c, char *err, size_t errlen)
{
    size_t start, i = keyword_open(s, n, "enum", &start);
    if (!i)
        return 0;
    for (;;) {
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        if (i >= n) {
            snprintf(err, errlen, "column '%s': enum( without its )", c->name);
            return -1;
        }
        if (s[i] != '\'') {
            snprintf(err, errlen, "column '%s': enum labels are written in single quotes", c->name);
            return -1;
        }
        char *label = malloc(n - i + 1), **grown = realloc(c->labels, (c->nlabels + 1) * sizeof *grown);
        if (!label || !grown) {
            free(label);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        c->labels = grown;
        size_t len = 0;
        for (i++; i < n; i++) {
            if (s[i] == '\'' && i + 1 < n && s[i + 1] == '\'')
                label[len++] = s[i++];
            else if (s[i] == '\'')
                break;
            else
                label[len++] = s[i];
        }
        label[len] = 0;
        c->labels[c->nlabels++] = label;
        if (i >= n) {
            snprintf(err, errlen, "column '%s': unterminated enum label", c->name);
            return -1;
        }
        for (size_t k = 0; k + 1 < c->nlabels; k++)
            if (!strcmp(c->labels[k], label)) {
                snprintf(err, errlen, "column '%s': enum label '%s' appears twice", c->name, label);
                return -1;
            }
        for (i++; i < n && isspace((unsigned char)s[i]); i++)
            ;
        if (i < n && s[i] == ',') {
            i++;
            continue;
        }
        if (i < n && s[i] == ')')
            break;
        if (i >= n) {
            snprintf(err, errlen, "column '%s': enum( without its )", c->name);
            return -1;
        }
        snprintf(err, errlen, "column '%s': expected ',' or ')' after enum label '%s'", c->name,
                 label);
        return -1;
    }
    i++;
    c->type_spec = malloc(i - start + 1);
    if (!c->type_spec) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(c->type_spec, s + start, i - start);
    c->type_spec[i - start] = 0;
    c->sql = ORDO_SQL_ENUM;
    c->sql_name = "enum";
    return (long)i;
}

/* "record(a integer, b text)" at s[0..n): the fields in c; returns the
 * bytes taken, 0 when s is not a record, or -1 with a message. */
static long parse_record(const char *s, size_t n, ordo_schema_column *c, char *err, size_t errlen)
{
    size_t start, i = keyword_open(s, n, "record", &start);
    if (!i)
        return 0;
    size_t open = i;
    int depth = 1, quoted = 0, squoted = 0;
    for (; i < n && depth; i++) {
        if (s[i] == '\'' && !quoted)
            squoted = !squoted;
        else if (s[i] == '"' && !squoted)
            quoted = !quoted;
        else if (!quoted && !squoted)
            depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
    }
    if (depth) {
        snprintf(err, errlen, "column '%s': record( without its )", c->name);
        return -1;
    }
    char *inner = malloc(i - open);
    c->fields = calloc(1, sizeof *c->fields);
    c->type_spec = malloc(i - start + 1);
    if (!inner || !c->fields || !c->type_spec) {
        free(inner);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(inner, s + open, i - 1 - open);
    inner[i - 1 - open] = 0;
    memcpy(c->type_spec, s + start, i - start);
    c->type_spec[i - start] = 0;
    /* nesting is bounded: the parser recurses, and keys nest at most
     * ORDO_RECORD_MAX_DEPTH records */
    static _Thread_local int nesting;
    char sub[200];
    int ok = 0;
    if (nesting >= ORDO_RECORD_MAX_DEPTH) {
        snprintf(sub, sizeof sub, "records nest deeper than %d", ORDO_RECORD_MAX_DEPTH);
    } else {
        nesting++;
        ok = ordo__schema_parse(inner, "ordered", c->fields, sub, sizeof sub);
        nesting--;
    }
    free(inner);
    if (!ok) {
        free(c->fields);
        c->fields = NULL;
        snprintf(err, errlen, "column '%s': record field: %s", c->name, sub);
        return -1;
    }
    for (size_t f = 0; f < c->fields->ncols; f++) {
        if (c->fields->cols[f].order_given) {
            snprintf(err, errlen, "column '%s': record field '%s' takes no order", c->name,
                     c->fields->cols[f].name);
            return -1;
        }
    }
    c->sql = ORDO_SQL_RECORD;
    c->sql_name = "record";
    return (long)i;
}

/* The parentheses of s[0..n) (the type after the name, or what follows an
 * enum's labels or a record's fields): normalise drops them, so they are
 * checked here. Only type modifiers may appear, "(10)" or "(10, 2)", after a
 * type name; 0 with a message otherwise. */
static int check_parens(const char *s, size_t n, const ordo_schema_column *c, char *err, size_t errlen)
{
    int seen = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ')') {
            snprintf(err, errlen, "column '%s': a ')' without its '('", c->name);
            return 0;
        }
        if (s[i] != '(')
            continue;
        const char *close = memchr(s + i, ')', n - i);
        if (!close) {
            snprintf(err, errlen, "column '%s': a '(' without its ')'", c->name);
            return 0;
        }
        size_t end = (size_t)(close - s) + 1;
        if (c->sql == ORDO_SQL_ENUM || c->sql == ORDO_SQL_RECORD) {
            snprintf(err, errlen, "column '%s': unexpected '%.*s' after the %s", c->name,
                     (int)(end - i), s + i,
                     c->sql == ORDO_SQL_ENUM ? "enum's labels" : "record's fields");
            return 0;
        }
        if (seen++) {
            snprintf(err, errlen, "column '%s': a second type modifier '%.*s'", c->name,
                     (int)(end - i), s + i);
            return 0;
        }
        /* integers, comma-separated; numeric's scale may be negative */
        size_t j = i + 1;
        for (;;) {
            while (j < n && isspace((unsigned char)s[j]))
                j++;
            j += j < n && s[j] == '-';
            size_t digits = j;
            while (j < n && isdigit((unsigned char)s[j]))
                j++;
            while (j < n && isspace((unsigned char)s[j]))
                j++;
            if (j == digits || j >= n || (s[j] != ',' && s[j] != ')'))
                break;
            if (s[j++] == ')')
                break;
        }
        if (j != end) {
            snprintf(err, errlen, "column '%s': type modifier '%.*s' is not a list of integers",
                     c->name, (int)(end - i), s + i);
            return 0;
        }
        i = end - 1;
    }
    return 1;
}

/* Moves a COLLATE "name" clause (PostgreSQL's; an unquoted name is taken
 * as written) out of s[0..n) into c->collation, copying the rest of the
 * text to out (n + 1 bytes). 0 with a message for a COLLATE without a
 * name, and for a second clause (PostgreSQL: "multiple COLLATE clauses not
 * allowed"; a key spec item that names one beside its table column's too). */
static int take_collate(const char *s, size_t n, char *out, ordo_schema_column *c, char *err,
                        size_t errlen)
{
    size_t o = 0;
    int quoted = 0, squoted = 0;
    for (size_t i = 0; i < n;) {
        char ch = s[i];
        int word = !quoted && !squoted && n - i >= 7 && !strncasecmp(s + i, "collate", 7) &&
                   (i == 0 || isspace((unsigned char)s[i - 1])) &&
                   (n - i == 7 || isspace((unsigned char)s[i + 7]) || s[i + 7] == '"');
        if (!word) {
            if (ch == '\'' && !quoted)
                squoted = !squoted;
            else if (ch == '"' && !squoted)
                quoted = !quoted;
            out[o++] = ch, i++;
            continue;
        }
        size_t j = i + 7, from, len;
        while (j < n && isspace((unsigned char)s[j]))
            j++;
        if (j < n && s[j] == '"') {
            const char *q = memchr(s + j + 1, '"', n - j - 1);
            from = j + 1, len = q ? (size_t)(q - (s + from)) : 0;
            j = q ? (size_t)(q - s) + 1 : n;
        } else {
            for (from = j; j < n && !isspace((unsigned char)s[j]) && s[j] != ','; j++)
                ;
            len = j - from;
        }
        if (!len) {
            snprintf(err, errlen, "column '%s': COLLATE without a collation name", c->name);
            return 0;
        }
        if (c->collation) {
            snprintf(err, errlen, "column '%s': multiple COLLATE clauses not allowed", c->name);
            return 0;
        }
        char *name = malloc(len + 1);
        if (!name) {
            snprintf(err, errlen, "out of memory");
            return 0;
        }
        memcpy(name, s + from, len);
        name[len] = 0;
        c->collation = name;
        out[o++] = ' ';
        i = j;
    }
    out[o] = 0;
    return 1;
}

/* Opens the column's collation: text types only (and arrays of them:
 * `text[] COLLATE "x"` collates the elements, as in PostgreSQL, so the
 * element column gets the collator while the array keeps the name for
 * printing the schema), and only the ordered format holds a collation
 * other than byte order. */
static int open_collation(ordo_schema_column *c, ordo_format fmt, char *err, size_t errlen)
{
    ordo_schema_column *t = c;
    if (c->sql == ORDO_SQL_ARRAY && c->fields && c->fields->ncols == 1)
        t = &c->fields->cols[0];
    if (t->sql != ORDO_SQL_TEXT && t->sql != ORDO_SQL_BPCHAR) {
        snprintf(err, errlen, "column '%s': COLLATE applies to text, varchar and char, not %s",
                 c->name, c->sql_name);
        return 0;
    }
    if (t != c) {
        free(t->collation);
        if (!(t->collation = malloc(strlen(c->collation) + 1))) {
            snprintf(err, errlen, "out of memory");
            return 0;
        }
        strcpy(t->collation, c->collation);
        c = t;
    }
    ordo_status st = ordo_collator_open(c->collation, &c->collator);
    if (st != ORDO_OK) {
        snprintf(err, errlen, "column '%s': collation \"%s\": %s", c->name, c->collation,
                 st == ORDO_ERR_UNKNOWN_COLLATION ? "unknown collation (an ICU name such as "
                                                    "\"en-US-x-icu\" or a UTF-8 libc locale such "
                                                    "as \"en_US.utf8\")"
                                                  : ordo_status_message(st));
        return 0;
    }
    if (fmt != ORDO_FORMAT_ORDERED && strcmp(ordo_collator_provider(c->collator), "c")) {
        snprintf(err, errlen, "column '%s': collation \"%s\" needs the ordered format "
                 "(use --format ordered)", c->name, c->collation);
        return 0;
    }
    return 1;
}

static int parse_type(const char *s, size_t n, const char *format, ordo_schema_column *c, char *err,
                      size_t errlen);

static int parse_column(const char *s, size_t n, const char *format, ordo_schema_column *c, char *err,
                        size_t errlen, size_t index)
{
    memset(c, 0, sizeof *c);
    while (n && isspace((unsigned char)*s))
        s++, n--;
    /* the name: an identifier or a double-quoted name */
    size_t k = 0, from = 0, len;
    if (n && *s == '"') {
        for (k = 1; k < n && s[k] != '"'; k++)
            ;
        if (k >= n) {
            snprintf(err, errlen, "column %zu: unterminated quoted name", index + 1);
            return 0;
        }
        from = 1, len = k - 1;
        k++;
    } else {
        while (k < n && !isspace((unsigned char)s[k]))
            k++;
        len = k;
    }
    if (!(c->name = malloc(len + 1))) {
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    memcpy(c->name, s + from, len);
    c->name[len] = 0;
    if (!c->name[0]) {
        snprintf(err, errlen, "column %zu: missing name", index + 1);
        return 0;
    }
    long taken = parse_enum(s + k, n - k, c, err, errlen);
    if (taken == 0)
        taken = parse_record(s + k, n - k, c, err, errlen);
    if (taken < 0) {
        free_labels(c);
        return 0;
    }
    k += (size_t)taken;
    char *tail = malloc(n - k + 1);
    if (!tail || !take_collate(s + k, n - k, tail, c, err, errlen)) {
        if (!tail)
            snprintf(err, errlen, "out of memory");
        free(tail);
        free_labels(c);
        return 0;
    }
    s = tail, n = strlen(tail), k = 0; /* the type and order words, COLLATE taken out */
    int ok = parse_type(s, n, format, c, err, errlen);
    free(tail);
    if (ok && c->collation && !open_collation(c, ordo_format_from_name(format), err, errlen))
        ok = 0;
    return ok;
}

/* The type and order words after the name (and an enum's labels or a
 * record's fields) into c. */
static int parse_type(const char *s, size_t n, const char *format, ordo_schema_column *c, char *err,
                      size_t errlen)
{
    size_t k = 0;
    if (!check_parens(s + k, n - k, c, err, errlen)) {
        free_labels(c);
        return 0;
    }
    char rest[256];
    if (c->sql == ORDO_SQL_ENUM || c->sql == ORDO_SQL_RECORD) { /* a placeholder word, then any order
                                                         words, as for other types */
        memcpy(rest, "enum ", 5);
        normalise(s + k, n - k, rest + 5, sizeof rest - 5);
        if (!rest[5])
            rest[4] = 0;
    } else {
        normalise(s + k, n - k, rest, sizeof rest);
    }
    if (strip_suffix(rest, "nulls first"))
        c->nulls_first = 1, c->order_given = 2;
    else if (strip_suffix(rest, "nulls last"))
        c->nulls_first = 0, c->order_given = 2;
    int dir_given = 0;
    if (strip_suffix(rest, "desc"))
        c->desc = 1, dir_given = 1;
    else if (strip_suffix(rest, "asc"))
        dir_given = 1;
    if (c->order_given != 2)
        c->nulls_first = c->desc; /* PostgreSQL: DESC defaults to NULLS FIRST */
    c->order_given |= dir_given;
    int array = strip_array(rest);
    if ((c->sql == ORDO_SQL_ENUM || c->sql == ORDO_SQL_RECORD) && strcmp(rest, "enum")) {
        snprintf(err, errlen, "column '%s': unexpected '%s' after the %s", c->name, rest + 5,
                 c->sql == ORDO_SQL_ENUM ? "enum's labels" : "record's fields");
        free_labels(c);
        return 0;
    }
    if (!rest[0] && c->sql != ORDO_SQL_ENUM && c->sql != ORDO_SQL_RECORD) {
        snprintf(err, errlen, "column '%s': missing type", c->name);
        return 0;
    }
    for (size_t i = 0; i < sizeof range_names / sizeof range_names[0]; i++) {
        if (!strcmp(rest, range_names[i].name)) {
            const char *sub = "";
            for (size_t k = 0; k < sizeof type_names / sizeof type_names[0]; k++)
                if (type_names[k].sql == range_names[i].sub) {
                    sub = type_names[k].canonical;
                    break;
                }
            if (!make_nested(c, range_names[i].sub, sub, 0, err, errlen))
                return 0;
            c->sql_name = range_names[i].name;
        }
    }
    for (size_t i = 0; c->sql != ORDO_SQL_ENUM && c->sql != ORDO_SQL_RECORD &&
                       c->sql != ORDO_SQL_RANGE && i < sizeof type_names / sizeof type_names[0];
         i++) {
        if (!strcmp(rest, type_names[i].name)) {
            c->sql = type_names[i].sql;
            c->sql_name = type_names[i].canonical;
            break;
        }
    }
    if (!c->sql) {
        snprintf(err, errlen, "column '%s': unknown type '%s'", c->name, rest);
        return 0;
    }
    const char *mod = memchr(s + k, '(', n - k);
    if (mod && !strcmp(rest, "float")) { /* PostgreSQL: float(1..24) is real */
        long bits = strtol(mod + 1, NULL, 10);
        if (bits < 1 || bits > 53) {
            snprintf(err, errlen, "column '%s': precision for type float must be 1 to 53 bits",
                     c->name);
            return 0;
        }
        if (bits <= 24)
            c->sql = ORDO_SQL_REAL, c->sql_name = "real";
    }
    if (array && (c->sql == ORDO_SQL_ENUM || c->sql == ORDO_SQL_RECORD || c->sql == ORDO_SQL_RANGE)) {
        if (!wrap_array(c, err, errlen))
            return 0;
        if (nest_depth(c) > ORDO_NEST_MAX_DEPTH) { /* the reader could not open them all */
            snprintf(err, errlen, "column '%s': arrays and ranges nest deeper than %d", c->name,
                     ORDO_NEST_MAX_DEPTH);
            return 0;
        }
    } else if (array && !make_nested(c, c->sql, c->sql_name, 1, err, errlen)) {
        return 0;
    }
    ordo_format fmt = ordo_format_from_name(format);
    int part = part_of(c->sql);
    if (fmt == ORDO_FORMAT_LEXKEY || fmt == ORDO_FORMAT_LEXKEY_LEGACY) {
        c->type = part >= 0 ? parts[part].lexkey : (ordo_type)0;
        c->time_unit = part >= 0 ? parts[part].lexkey_unit : 0;
        if (!c->type) {
            snprintf(err, errlen, "column '%s': the %s format cannot hold type %s", c->name,
                     format, c->sql_name);
            return 0;
        }
        if (c->order_given) {
            snprintf(err, errlen,
                     "column '%s': the %s format has no ASC/DESC or NULLS FIRST/LAST "
                     "(use --format ordered)",
                     c->name, format);
            return 0;
        }
    } else if (fmt == ORDO_FORMAT_ORDERED) {
        c->type = part >= 0 ? parts[part].ordered : (ordo_type)0;
        if (!c->type) {
            snprintf(err, errlen, "column '%s': the ordered format does not support type %s yet",
                     c->name, c->sql_name);
            return 0;
        }
        c->order = (uint8_t)((c->desc ? 2 : 0) + (c->nulls_first ? 0 : 1));
    } else if (fmt == ORDO_FORMAT_PACKED) {
        /* the ordered format's fixed-width fields without their presence
         * bytes: a NULLS clause is allowed (a table's key spec may carry
         * one) but means nothing, as no value is NULL */
        c->type = part >= 0 ? parts[part].ordered : (ordo_type)0;
        if (!packable(c->type)) {
            snprintf(err, errlen,
                     "column '%s': the packed format holds fixed-width types only, not %s "
                     "(use --format ordered)",
                     c->name, c->sql_name);
            return 0;
        }
        c->order = (uint8_t)((c->desc ? 2 : 0) + (c->nulls_first ? 0 : 1));
    } else {
        snprintf(err, errlen, "unknown format '%s'", format);
        return 0;
    }
    return 1;
}

int ordo__schema_parse(const char *text, const char *format, ordo_schema *s, char *err, size_t errlen)
{
    s->cols = NULL;
    s->ncols = 0;
    size_t cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == ',';
    s->cols = calloc(cap, sizeof *s->cols);
    if (!s->cols) {
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    const char *start = text;
    int depth = 0, quoted = 0, squoted = 0;
    for (const char *p = text;; p++) {
        if (*p == '\'' && !quoted)
            squoted = !squoted; /* enum labels: a doubled '' toggles twice */
        else if (squoted && *p)
            continue;
        else if (*p == '"')
            quoted = !quoted;
        else if (!quoted && *p == '(')
            depth++;
        else if (!quoted && *p == ')')
            depth--;
        if (*p == '\0' || (*p == ',' && !depth && !quoted)) {
            if (!parse_column(start, (size_t)(p - start), format, &s->cols[s->ncols], err,
                              errlen, s->ncols)) {
                free_labels(&s->cols[s->ncols]);
                ordo_schema_free(s);
                return 0;
            }
            for (size_t i = 0; i < s->ncols; i++) {
                if (!strcmp(s->cols[i].name, s->cols[s->ncols].name)) {
                    snprintf(err, errlen, "column '%s' appears twice", s->cols[i].name);
                    free_labels(&s->cols[s->ncols]);
                    ordo_schema_free(s);
                    return 0;
                }
            }
            s->ncols++;
            if (*p == '\0')
                break;
            start = p + 1;
        }
    }
    return 1;
}

void ordo_schema_free(ordo_schema *s)
{
    if (!s)
        return;
    for (size_t i = 0; s->cols && i < s->ncols; i++)
        free_labels(&s->cols[i]);
    free(s->cols);
    s->cols = NULL;
    s->ncols = 0;
}

int ordo__schema_key(const ordo_schema *table, const char *text, const char *format, ordo_schema *key,
               size_t *columns, char *err, size_t errlen)
{
    /* Each item names a table column: it becomes "name TYPE [order]" and is
     * parsed like a schema column, so orders and formats check the same way. */
    size_t cap = strlen(text) + table->ncols * 32 + 64;
    char *spec = malloc(cap * 2);
    if (!spec) {
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    size_t o = 0, nitems = 0;
    const char *p = text;
    int ok = 1;
    while (ok) {
        while (isspace((unsigned char)*p))
            p++;
        const char *start = p, *end;
        size_t k;
        if (*p == '"') {
            end = strchr(p + 1, '"');
            if (!end) {
                snprintf(err, errlen, "item %zu: unterminated quoted name", nitems + 1);
                ok = 0;
                break;
            }
            start = p + 1, k = (size_t)(end - start), p = end + 1;
        } else {
            while (*p && *p != ',' && !isspace((unsigned char)*p))
                p++;
            k = (size_t)(p - start);
        }
        const char *rest = p;
        while (*p && *p != ',')
            p++;
        size_t c = 0;
        while (c < table->ncols && (strlen(table->cols[c].name) != k ||
                                    memcmp(table->cols[c].name, start, k)))
            c++;
        if (!k) {
            snprintf(err, errlen, "item %zu: missing column name", nitems + 1);
            ok = 0;
        } else if (c == table->ncols) {
            snprintf(err, errlen, "'%.*s' is not a column of the schema", (int)k, start);
            ok = 0;
        } else {
            columns[nitems++] = c;
            const char *type = table->cols[c].type_spec ? table->cols[c].type_spec
                                                        : table->cols[c].sql_name;
            const char *coll = table->cols[c].collation;
            size_t need = strlen(type) + strlen(table->cols[c].name) + (size_t)(p - rest) + 8 +
                          (coll ? strlen(coll) + 12 : 0);
            if (o + need >= cap * 2) {
                char *grown = realloc(spec, cap * 2 + need * 2);
                if (!grown) {
                    snprintf(err, errlen, "out of memory");
                    ok = 0;
                    break;
                }
                spec = grown, cap += need;
            }
            o += (size_t)snprintf(spec + o, cap * 2 - o, "%s\"%s\" %s%s%s%s %.*s", o ? "," : "",
                                  table->cols[c].name, type, coll ? " COLLATE \"" : "",
                                  coll ? coll : "", coll ? "\"" : "", (int)(p - rest), rest);
        }
        if (!*p)
            break;
        p++;
    }
    if (ok && !ordo__schema_parse(spec, format, key, err, errlen))
        ok = 0;
    free(spec);
    return ok;
}

const char *ordo_format_name(ordo_format f)
{
    switch (f) {
    case ORDO_FORMAT_LEXKEY: return "lexkey";
    case ORDO_FORMAT_LEXKEY_LEGACY: return "lexkey-legacy";
    case ORDO_FORMAT_ORDERED: return "ordered";
    case ORDO_FORMAT_PACKED: return "packed";
    default: return NULL;
    }
}

ordo_status ordo_format_parse(const char *name, ordo_format *f, ordo_error *err)
{
    *f = name ? ordo_format_from_name(name) : (ordo_format)0;
    if (*f)
        return ORDO_OK;
    if (err) {
        /* the list from the names, so a new format cannot be left out */
        static const ordo_format all[] = {ORDO_FORMAT_ORDERED, ORDO_FORMAT_PACKED,
                                          ORDO_FORMAT_LEXKEY, ORDO_FORMAT_LEXKEY_LEGACY};
        memset(err, 0, sizeof *err);
        err->status = ORDO_ERR_INVALID_ARG;
        err->option = "format";
        int n = snprintf(err->message, sizeof err->message, "format: unknown format '%.200s' (",
                         name ? name : "(null)");
        for (size_t i = 0; i < sizeof all / sizeof *all; i++)
            n += snprintf(err->message + n, sizeof err->message - (size_t)n, "%s%s",
                          i ? ", " : "", ordo_format_name(all[i]));
        snprintf(err->message + n, sizeof err->message - (size_t)n, ")");
    }
    return ORDO_ERR_INVALID_ARG;
}

int ordo_format_decodes(ordo_format f)
{
    return f == ORDO_FORMAT_ORDERED || f == ORDO_FORMAT_PACKED;
}

const char *ordo_order_name(ordo_order o)
{
    static const char *names[] = {"ASC NULLS FIRST", "ASC NULLS LAST", "DESC NULLS FIRST",
                                  "DESC NULLS LAST"};
    return names[(unsigned)o & 3];
}

/* The message of a parser into err: out of memory has its own status. */
static ordo_status schema_error(ordo_error *err, const char *msg)
{
    ordo_status s = strcmp(msg, "out of memory") ? ORDO_ERR_INVALID_ARG : ORDO_ERR_OUT_OF_MEMORY;
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = s;
        snprintf(err->message, sizeof err->message, "%s", msg);
    }
    return s;
}

ordo_status ordo_schema_parse(const char *text, ordo_format f, ordo_schema *s, ordo_error *err)
{
    if (!text || !s)
        return schema_error(err, "no schema");
    s->cols = NULL, s->ncols = 0;
    if (!ordo_format_name(f))
        return schema_error(err, "unknown format");
    char msg[sizeof err->message];
    if (!ordo__schema_parse(text, ordo_format_name(f), s, msg, sizeof msg))
        return schema_error(err, msg);
    return ORDO_OK;
}

ordo_status ordo_schema_key(const ordo_schema *table, const char *spec, ordo_format f,
                            ordo_schema *key, ordo_error *err)
{
    if (!table || !key)
        return schema_error(err, "no schema");
    key->cols = NULL, key->ncols = 0;
    if (!ordo_format_name(f))
        return schema_error(err, "unknown format");
    char msg[sizeof err->message];
    char *all = NULL;
    if (!spec) { /* every column, in order */
        size_t n = 1;
        for (size_t c = 0; c < table->ncols; c++)
            n += 24 + strlen(table->cols[c].name);
        if (!(all = malloc(n)))
            return schema_error(err, "out of memory");
        size_t at = 0;
        for (size_t c = 0; c < table->ncols; c++) /* the orders written, as written */
            at += (size_t)snprintf(all + at, n - at, "%s\"%s\" %s", c ? "," : "",
                                   table->cols[c].name,
                                   table->cols[c].order_given
                                       ? ordo_order_name((ordo_order)table->cols[c].order)
                                       : "");
        all[at] = 0;
        spec = all;
    }
    size_t commas = 1;
    for (const char *p = spec; *p; p++)
        commas += *p == ',';
    size_t *columns = malloc((table->ncols + commas) * sizeof *columns);
    int ok = columns && ordo__schema_key(table, spec, ordo_format_name(f), key, columns, msg,
                                         sizeof msg);
    if (!columns)
        snprintf(msg, sizeof msg, "out of memory");
    for (size_t k = 0; ok && k < key->ncols; k++)
        key->cols[k].source = columns[k];
    free(columns), free(all);
    return ok ? ORDO_OK : schema_error(err, msg);
}
