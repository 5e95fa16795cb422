#include "tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const ordo__table_fields[ORDO__TABLE_FIELDS] = {"format", "key", "rows", "schema"};

size_t ordo__table_key(int tag, const char *field, char out[64])
{
    char t[8];
    if (tag == ORDO_UNTAGGED)
        snprintf(t, sizeof t, "none");
    else
        snprintf(t, sizeof t, "%03d", tag);
    return (size_t)snprintf(out, 64, "\xff" "ordo/table/%s/%s", t, field);
}

size_t ordo__table_loading_key(int tag, char out[64])
{
    if (tag == ORDO_UNTAGGED)
        return (size_t)snprintf(out, 64, ORDO__TABLE_LOADING_PREFIX "none");
    return (size_t)snprintf(out, 64, ORDO__TABLE_LOADING_PREFIX "%03d", tag);
}

int ordo__table_loading_tag(const uint8_t *k, size_t n, int *tag)
{
    size_t p = sizeof ORDO__TABLE_LOADING_PREFIX - 1;
    if (n != p + 3 && n != p + 4)
        return 0;
    if (memcmp(k, ORDO__TABLE_LOADING_PREFIX, p))
        return 0;
    if (n == p + 4)
        return !memcmp(k + p, "none", 4) && (*tag = ORDO_UNTAGGED, 1);
    int t = 0;
    for (size_t i = p; i < n; i++) {
        if (k[i] < '0' || k[i] > '9')
            return 0;
        t = t * 10 + (k[i] - '0');
    }
    if (t > 254)
        return 0;
    *tag = t;
    return 1;
}

void ordo_table_range(int tag, uint8_t lo[1], size_t *ln, uint8_t hi[1], size_t *hn)
{
    lo[0] = (uint8_t)(tag < 0 ? 0 : tag);
    *ln = tag < 0 ? 0 : 1;
    hi[0] = (uint8_t)(tag < 0 ? 0xff : tag + 1);
    *hn = 1;
}

void ordo__table_undo(ordo__store_batch *b, int tag)
{
    uint8_t lo[1], hi[1];
    size_t ln, hn;
    char mk[64];
    ordo_table_range(tag, lo, &ln, hi, &hn);
    ordo__store_batch_delete_range(b, lo, ln, hi, hn);
    ordo__store_batch_delete(b, mk, ordo__table_loading_key(tag, mk));
}

void ordo__table_values(const ordo_table_meta *m, uint64_t rows, char rows_text[32],
                        const char *vals[ORDO__TABLE_FIELDS])
{
    snprintf(rows_text, 32, "%llu", (unsigned long long)rows);
    vals[0] = m->format, vals[1] = m->key, vals[2] = rows_text, vals[3] = m->schema;
}

/* An optional field's text into *out (NULL when absent); 0 on an error. */
static int read_optional(ordo__store *s, int tag, const char *field, char **out,
                         ordo__table_text *m, char *err, size_t errlen)
{
    char k[64], *v = NULL;
    size_t kn = ordo__table_key(tag, field, k), vn = 0;
    int got = ordo__store_get(s, k, kn, &v, &vn, err, errlen);
    if (got < 0 || (got && !(*out = malloc(vn + 1)))) {
        free(v);
        if (got > 0)
            snprintf(err, errlen, "out of memory");
        return 0;
    }
    if (got) {
        memcpy(*out, v, vn);
        (*out)[vn] = 0;
        if (memchr(*out, 0, vn))
            m->nul_in = field;
    }
    free(v);
    return 1;
}

int ordo__table_read(ordo__store *s, int tag, ordo__table_text *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    char **slots[ORDO__TABLE_FIELDS] = {&m->format, &m->key, &m->rows, &m->schema};
    int found = 0;
    for (int i = 0; i < ORDO__TABLE_FIELDS; i++) {
        char k[64], *v = NULL;
        size_t kn = ordo__table_key(tag, ordo__table_fields[i], k), vn = 0;
        int got = ordo__store_get(s, k, kn, &v, &vn, err, errlen);
        if (got < 0) {
            ordo__table_meta_free(m);
            return -1;
        }
        if (!got)
            continue;
        found++;
        *slots[i] = malloc(vn + 1);
        if (!*slots[i]) {
            free(v);
            snprintf(err, errlen, "out of memory");
            ordo__table_meta_free(m);
            return -1;
        }
        memcpy(*slots[i], v, vn);
        (*slots[i])[vn] = 0;
        free(v);
        if (memchr(*slots[i], 0, vn)) /* C text would end early, silently */
            m->nul_in = ordo__table_fields[i];
    }
    if (found == ORDO__TABLE_FIELDS &&
        (!read_optional(s, tag, ORDO__TABLE_COLLATIONS, &m->collations, m, err, errlen) ||
         !read_optional(s, tag, ORDO__TABLE_BYTES, &m->bytes, m, err, errlen))) {
        ordo__table_meta_free(m);
        return -1;
    }
    if (found && found != ORDO__TABLE_FIELDS) {
        snprintf(err, errlen, "the system keys of table %d are incomplete", tag);
        ordo__table_meta_free(m);
        return -1;
    }
    return found ? 1 : 0;
}

void ordo__table_meta_free(ordo__table_text *m)
{
    free(m->format), free(m->key), free(m->rows), free(m->schema), free(m->collations);
    free(m->bytes);
    memset(m, 0, sizeof *m);
}
