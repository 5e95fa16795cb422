/* An Arrow type's name as pyarrow prints it (str(pa.DataType)), from an
 * ArrowSchema's format string, flags, children and metadata: the one
 * place errors get the name of an Arrow type. */
#include "import.h"

#include <stdarg.h>
#include <stdlib.h>

#define NAME_DEPTH 64 /* as ordo_arrow_check_schema's limit */

typedef struct out {
    char *p;
    size_t cap, len; /* len counts what did not fit too */
} out;

static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->cap ? o->cap - o->len : 0;
    int n = vsnprintf(room ? o->p + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n;
}

/* A metadata value by key (the C data interface's layout: int32 count,
 * then int32 length + bytes for each key and value); NULL when absent. */
static const char *meta_value(const char *m, const char *key, int32_t *len)
{
    if (!m)
        return NULL;
    int32_t n;
    memcpy(&n, m, 4);
    m += 4;
    size_t klen = strlen(key);
    for (int32_t i = 0; i < n && i < 4096; i++) {
        int32_t kl, vl;
        memcpy(&kl, m, 4);
        if (kl < 0)
            return NULL;
        const char *k = m + 4;
        memcpy(&vl, k + kl, 4);
        if (vl < 0)
            return NULL;
        const char *v = k + kl + 4;
        if ((size_t)kl == klen && !memcmp(k, key, klen)) {
            *len = vl;
            return v;
        }
        m = v + vl;
    }
    return NULL;
}

static const char *unit_name(char c)
{
    switch (c) {
    case 's': return "s";
    case 'm': return "ms";
    case 'u': return "us";
    case 'n': return "ns";
    default: return NULL;
    }
}

/* The fixed names: format code -> pyarrow's name. */
static const char *simple_name(const char *f)
{
    static const char *const names[][2] = {
        {"n", "null"},          {"b", "bool"},          {"c", "int8"},
        {"C", "uint8"},         {"s", "int16"},         {"S", "uint16"},
        {"i", "int32"},         {"I", "uint32"},        {"l", "int64"},
        {"L", "uint64"},        {"e", "halffloat"},     {"f", "float"},
        {"g", "double"},        {"z", "binary"},        {"Z", "large_binary"},
        {"vz", "binary_view"},  {"u", "string"},        {"U", "large_string"},
        {"vu", "string_view"},  {"tdD", "date32[day]"}, {"tdm", "date64[ms]"},
        {"tts", "time32[s]"},   {"ttm", "time32[ms]"},  {"ttu", "time64[us]"},
        {"ttn", "time64[ns]"},  {"tiM", "month_interval"}, {"tiD", "day_time_interval"},
        {"tin", "month_day_nano_interval"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(f, names[i][0]))
            return names[i][1];
    return NULL;
}

static void name_of(out *o, const struct ArrowSchema *s, int depth);

/* A child as a field: "name: type". */
static void field(out *o, const struct ArrowSchema *c, int depth)
{
    put(o, "%s: ", c && c->name ? c->name : "");
    name_of(o, c, depth + 1);
}

static int has_children(const struct ArrowSchema *s, int64_t n)
{
    return s->n_children >= n && (n == 0 || s->children);
}

static void name_of(out *o, const struct ArrowSchema *s, int depth)
{
    if (!s || !s->format) {
        put(o, "?");
        return;
    }
    if (depth > NAME_DEPTH) {
        put(o, "...");
        return;
    }
    int32_t elen = 0;
    const char *ext = meta_value(s->metadata, "ARROW:extension:name", &elen);
    if (ext) {
        put(o, "extension<%.*s>", (int)(elen > 200 ? 200 : elen), ext);
        return;
    }
    if (s->dictionary) {
        put(o, "dictionary<values=");
        name_of(o, s->dictionary, depth + 1);
        struct ArrowSchema idx = *s; /* the indices: this schema without its dictionary */
        idx.dictionary = NULL;
        idx.metadata = NULL;
        put(o, ", indices=");
        name_of(o, &idx, depth + 1);
        put(o, ", ordered=%d>", (int)(s->flags & 1)); /* ARROW_FLAG_DICTIONARY_ORDERED */
        return;
    }
    const char *f = s->format, *simple = simple_name(f);
    if (simple) {
        put(o, "%s", simple);
        return;
    }
    if (f[0] == 'd' && f[1] == ':') { /* d:P,S[,BITS] */
        int32_t p, sc;
        int bits;
        if (ordo_arrow_decimal(f, &p, &sc, &bits) == ORDO_OK) {
            put(o, "decimal%d(%d, %d)", bits, (int)p, (int)sc);
            return;
        }
    } else if (f[0] == 'w' && f[1] == ':') {
        put(o, "fixed_size_binary[%.20s]", f + 2);
        return;
    } else if (f[0] == 't' && (f[1] == 's' || f[1] == 'D') && unit_name(f[2])) {
        if (f[1] == 'D' && !f[3]) {
            put(o, "duration[%s]", unit_name(f[2]));
            return;
        }
        if (f[1] == 's' && f[3] == ':') {
            if (f[4])
                put(o, "timestamp[%s, tz=%.100s]", unit_name(f[2]), f + 4);
            else
                put(o, "timestamp[%s]", unit_name(f[2]));
            return;
        }
    } else if (f[0] == '+') {
        static const char *const lists[][2] = {
            {"+l", "list"}, {"+L", "large_list"}, {"+vl", "list_view"}, {"+vL", "large_list_view"}};
        for (size_t i = 0; i < 4; i++)
            if (!strcmp(f, lists[i][0]) && has_children(s, 1)) {
                put(o, "%s<", lists[i][1]);
                field(o, s->children[0], depth);
                put(o, ">");
                return;
            }
        if (f[1] == 'w' && f[2] == ':' && has_children(s, 1)) {
            put(o, "fixed_size_list<");
            field(o, s->children[0], depth);
            put(o, ">[%.20s]", f + 3);
            return;
        }
        if (!strcmp(f, "+s") && has_children(s, s->n_children)) {
            put(o, "struct<");
            for (int64_t i = 0; i < s->n_children; i++) {
                put(o, i ? ", " : "");
                field(o, s->children[i], depth);
            }
            put(o, ">");
            return;
        }
        if (!strcmp(f, "+m") && has_children(s, 1) && s->children[0] &&
            has_children(s->children[0], 2) && s->children[0]->n_children == 2) {
            put(o, "map<");
            name_of(o, s->children[0]->children[0], depth + 2);
            put(o, ", ");
            name_of(o, s->children[0]->children[1], depth + 2);
            put(o, "%s>", s->flags & 4 ? ", keys_sorted" : ""); /* ARROW_FLAG_MAP_KEYS_SORTED */
            return;
        }
        if (!strcmp(f, "+r") && has_children(s, 2) && s->n_children == 2) {
            put(o, "run_end_encoded<");
            field(o, s->children[0], depth);
            put(o, ", ");
            field(o, s->children[1], depth);
            put(o, ">");
            return;
        }
        if ((!strncmp(f, "+ud:", 4) || !strncmp(f, "+us:", 4)) &&
            has_children(s, s->n_children)) {
            put(o, "%s_union<", f[2] == 'd' ? "dense" : "sparse");
            const char *id = f + 4;
            for (int64_t i = 0; i < s->n_children; i++) {
                put(o, i ? ", " : "");
                field(o, s->children[i], depth);
                char *end;
                long code = strtol(id, &end, 10);
                put(o, "=%ld", end == id ? (long)i : code);
                id = *end == ',' ? end + 1 : end;
            }
            put(o, ">");
            return;
        }
    }
    put(o, "'%.100s'", f); /* no type pyarrow knows: the format itself */
}

size_t ordo_table_arrow_type_name(const struct ArrowSchema *schema, char *buf, size_t cap)
{
    out o = {buf, buf ? cap : 0, 0};
    if (o.cap)
        buf[0] = 0;
    name_of(&o, schema, 0);
    if (o.cap >= 4 && o.len >= o.cap) /* cut: say so */
        memcpy(buf + o.cap - 4, "...", 4);
    return o.len;
}
