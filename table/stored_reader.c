/* A stored table's description read back: its metadata (ordo_table_read)
 * parsed into a table reader, its collation versions checked. What every
 * reader of a stored table starts from (scans, `ordo decode --db`). */
#include "ordo_table.h"

#include <stdio.h>
#include <string.h>

static ordo_status fail_with(ordo_error *err, ordo_status s, const ordo_error *e)
{
    if (err)
        *err = *e, err->status = s;
    return s;
}

ordo_status ordo_table_open_reader(ordo_db *db, int tag, int accept_collation_version,
                                   ordo_table_reader **r, ordo_table_meta *meta, ordo_error *err)
{
    ordo_error e = {0};
    if (meta)
        memset(meta, 0, sizeof *meta);
    if (!db || !r) {
        snprintf(e.message, sizeof e.message, "%s", ordo_status_message(ORDO_ERR_NULL_ARG));
        return fail_with(err, ORDO_ERR_NULL_ARG, &e);
    }
    *r = NULL;
    if (ordo_tag_check(tag, &e) != ORDO_OK)
        return fail_with(err, ORDO_ERR_INVALID_ARG, &e);
    ordo_table_meta m;
    ordo_status s = ordo_table_read(db, tag, &m, &e);
    if (s != ORDO_OK)
        return fail_with(err, s, &e);
    s = ordo_table_reader_open(m.format, m.schema, m.key, tag, r, &e);
    /* keys made under another collation version may sort differently */
    if (s == ORDO_OK && !accept_collation_version &&
        (s = ordo_schema_check_collations(ordo_table_reader_table(*r), m.collations, &e)) !=
            ORDO_OK) {
        ordo_table_reader_close(*r);
        *r = NULL;
    }
    if (s == ORDO_OK && meta)
        *meta = m;
    else
        ordo_table_meta_free(&m);
    return s == ORDO_OK ? ORDO_OK : fail_with(err, s, &e);
}
