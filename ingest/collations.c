/* A schema's collations and their versions, as a table's metadata keeps
 * them (PostgreSQL's collversion check is the model): keys made under one
 * collation version may sort differently under another. */
#include "ordo_ingest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends "NAME\tVERSION\n" for each collation of s not yet in *b. */
static ordo_status add(const ordo_schema *s, ordo_buf *b)
{
    for (size_t i = 0; i < s->ncols; i++) {
        const ordo_schema_column *c = &s->cols[i];
        if (c->fields) {
            ordo_status st = add(c->fields, b);
            if (st != ORDO_OK)
                return st;
        }
        if (!c->collator || !strcmp(ordo_collator_provider(c->collator), "c"))
            continue;
        char line[256];
        int n = snprintf(line, sizeof line, "%s\t%s\n", c->collation,
                         ordo_collator_version(c->collator));
        if (n < 0 || (size_t)n >= sizeof line)
            return ORDO_ERR_INVALID_ARG;
        size_t nl = strcspn(line, "\t") + 1; /* "NAME\t" */
        int seen = 0;
        for (const char *p = b->data; p && *p && !seen; p = strchr(p, '\n') + 1)
            seen = !strncmp(p, line, nl);
        if (!seen) {
            ordo_status st = ordo_buf_append(b, line, (size_t)n);
            if (st != ORDO_OK)
                return st;
        }
    }
    return ORDO_OK;
}

ordo_status ordo_schema_collations(const ordo_schema *s, char **text)
{
    if (!s || !text)
        return ORDO_ERR_NULL_ARG;
    ordo_buf b = {0};
    ordo_status st = add(s, &b);
    if (st == ORDO_OK && !b.data)
        st = ordo_buf_append(&b, "", 0);
    if (st != ORDO_OK) {
        ordo_buf_free(&b);
        return st;
    }
    *text = b.data;
    return ORDO_OK;
}

ordo_status ordo_schema_check_collations(const ordo_schema *s, const char *stored,
                                         ordo_error *err)
{
    char *now = NULL;
    ordo_status st = ordo_schema_collations(s, &now);
    if (st != ORDO_OK)
        return st;
    const char *was = stored ? stored : "";
    /* every collation in use, with the version the keys were made with */
    for (const char *p = now; *p; p = strchr(p, '\n') + 1) {
        size_t nl = strcspn(p, "\t") + 1, len = strcspn(p, "\n");
        const char *q = was;
        while (*q && strncmp(q, p, nl))
            q = strchr(q, '\n') ? strchr(q, '\n') + 1 : q + strlen(q);
        if (*q && strcspn(q, "\n") == len && !strncmp(q, p, len))
            continue;
        if (err) {
            err->status = ORDO_ERR_COLLATION_VERSION;
            err->file = NULL, err->line = 0, err->column = 0;
            if (*q)
                snprintf(err->message, sizeof err->message,
                         "collation \"%.*s\" has version %.*s, but the keys were made with "
                         "version %.*s: they may sort differently (reload the table)",
                         (int)(nl - 1), p, (int)(len - nl), p + nl, (int)(strcspn(q, "\n") - nl),
                         q + nl);
            else
                snprintf(err->message, sizeof err->message,
                         "collation \"%.*s\": the table records no version for it",
                         (int)(nl - 1), p);
        }
        free(now);
        return ORDO_ERR_COLLATION_VERSION;
    }
    free(now);
    return ORDO_OK;
}
