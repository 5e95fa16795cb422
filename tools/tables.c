#include "tables.h"

#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const table_fields[TABLE_FIELDS] = {"format", "key", "rows", "schema"};

size_t table_key(int tag, const char *field, char out[64])
{
    char t[8];
    if (tag == TABLE_UNTAGGED)
        snprintf(t, sizeof t, "none");
    else
        snprintf(t, sizeof t, "%03d", tag);
    return (size_t)snprintf(out, 64, "\xff" "ordo/table/%s/%s", t, field);
}

int table_read(store *s, int tag, table_meta *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    char **slots[TABLE_FIELDS] = {&m->format, &m->key, &m->rows, &m->schema};
    int found = 0;
    for (int i = 0; i < TABLE_FIELDS; i++) {
        char k[64], *v = NULL;
        size_t kn = table_key(tag, table_fields[i], k), vn = 0;
        int got = store_get(s, k, kn, &v, &vn, err, errlen);
        if (got < 0) {
            table_meta_free(m);
            return -1;
        }
        if (!got)
            continue;
        found++;
        *slots[i] = cli_alloc(vn + 1);
        memcpy(*slots[i], v, vn);
        (*slots[i])[vn] = 0;
        free(v);
    }
    if (found && found != TABLE_FIELDS) {
        snprintf(err, errlen, "the system keys of table %d are incomplete", tag);
        table_meta_free(m);
        return -1;
    }
    return found ? 1 : 0;
}

void table_meta_free(table_meta *m)
{
    free(m->format), free(m->key), free(m->rows), free(m->schema);
    memset(m, 0, sizeof *m);
}
