/* The key spec of ordo_key(spec, ...). The values carry their own types,
 * so a spec holds orders only: ordo's schema items without the name and
 * the type ("DESC", "ASC NULLS FIRST"). */
#include "spec.h"

#include <stdio.h>
#include <string.h>

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* The next word of s[*at .. end) into word (lowercased, cut at cap - 1). */
static size_t next_word(const char *s, size_t *at, size_t end, char *word, size_t cap)
{
    while (*at < end && is_space(s[*at]))
        (*at)++;
    size_t n = 0;
    while (*at < end && !is_space(s[*at])) {
        if (n + 1 < cap)
            word[n++] = lower(s[*at]);
        (*at)++;
    }
    word[n] = 0;
    return n;
}

/* One item s[start .. end): its order into *o. */
static int parse_item(const char *s, size_t start, size_t end, ordo_order *o, size_t item,
                      char *err, size_t errlen)
{
    char w[16];
    size_t at = start;
    int desc = 0, nulls_first = -1;
    size_t n = next_word(s, &at, end, w, sizeof w);
    if (!n) {
        snprintf(err, errlen, "item %zu is empty (write ASC for the default order)", item);
        return 0;
    }
    if (!strcmp(w, "asc") || !strcmp(w, "desc")) {
        desc = w[0] == 'd';
        n = next_word(s, &at, end, w, sizeof w);
    }
    if (n && !strcmp(w, "nulls")) {
        n = next_word(s, &at, end, w, sizeof w);
        if (!n || (strcmp(w, "first") && strcmp(w, "last"))) {
            snprintf(err, errlen, "item %zu ('%.*s'): NULLS must be followed by FIRST or LAST",
                     item, (int)(end - start), s + start);
            return 0;
        }
        nulls_first = w[0] == 'f';
        n = next_word(s, &at, end, w, sizeof w);
    }
    if (n) {
        snprintf(err, errlen,
                 "item %zu ('%.*s'): expected [ASC|DESC] [NULLS FIRST|NULLS LAST], not '%s'",
                 item, (int)(end - start), s + start, w);
        return 0;
    }
    if (nulls_first < 0)
        nulls_first = desc; /* PostgreSQL: DESC defaults to NULLS FIRST */
    *o = (ordo_order)((desc ? 2 : 0) + (nulls_first ? 0 : 1));
    return 1;
}

int ordo_pg_parse_spec(const char *spec, size_t len, size_t nvalues, ordo_order *orders,
                       char *err, size_t errlen)
{
    size_t at = 0;
    while (at < len && is_space(spec[at]))
        at++;
    if (at == len) {
        for (size_t i = 0; i < nvalues; i++)
            orders[i] = ORDO_ASC_NULLS_LAST;
        return 1;
    }
    size_t item = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && spec[i] != ',')
            continue;
        ordo_order o;
        if (!parse_item(spec, start, i, &o, item + 1, err, errlen))
            return 0;
        if (item == nvalues) {
            snprintf(err, errlen, "%zu value%s but more orders than that", nvalues,
                     nvalues == 1 ? "" : "s");
            return 0;
        }
        orders[item++] = o;
        start = i + 1;
    }
    if (item != nvalues) {
        snprintf(err, errlen, "%zu value%s but %zu order%s (give one per value, or none)",
                 nvalues, nvalues == 1 ? "" : "s", item, item == 1 ? "" : "s");
        return 0;
    }
    return 1;
}
