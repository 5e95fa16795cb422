/* Shared by the tests of stored tables: a table's rows read back in key
 * order through ordo_scan (keys with their tag byte), handed to a callback,
 * or as "key-hex=value-hex" lines. */
#ifndef ORDO_TABLE_ROWS_H
#define ORDO_TABLE_ROWS_H

#include "ordo_test.h"

#include <ordo_load.h>

typedef void (*t_row_fn)(void *ctx, const uint8_t *key, size_t kn, const uint8_t *value,
                         size_t vn);

/* Every stored row of tag's table to fn; their count. */
static inline size_t t_table_each(ordo_db *db, int tag, t_row_fn fn, void *ctx)
{
    uint8_t lo[1], hi[1];
    size_t lo_len, hi_len, n = 0;
    ordo_table_range(tag, lo, &lo_len, hi, &hi_len);
    ordo_scan *s;
    ordo_error e;
    assert_int_equal(ordo_scan_open(db, lo, lo_len, hi, hi_len, 0, &s, &e), ORDO_OK);
    for (;;) {
        const uint8_t *k, *v;
        size_t kn, vn;
        int found;
        assert_int_equal(ordo_scan_next(s, &k, &kn, &v, &vn, &found, &e), ORDO_OK);
        if (!found)
            break;
        fn(ctx, k, kn, v, vn);
        n++;
    }
    ordo_scan_close(s);
    return n;
}

typedef struct t_hex_lines {
    char *out;
    size_t cap, at, skip; /* skip: key bytes left out (1: the tag) */
} t_hex_lines;

static inline void t_hex_line(void *ctx, const uint8_t *k, size_t kn, const uint8_t *v, size_t vn)
{
    t_hex_lines *h = ctx;
    char kh[1025], vh[1025];
    kn = kn > h->skip ? kn - h->skip : 0;
    t_hex(k + h->skip, kn > 512 ? 512 : kn, kh);
    t_hex(v, vn > 512 ? 512 : vn, vh);
    h->at += (size_t)snprintf(h->out + h->at, h->at < h->cap ? h->cap - h->at : 0, "%s=%s\n", kh,
                              vh);
}

/* The table's rows as "key-hex=value-hex" lines in out (the first skip key
 * bytes left out), and their count. */
static inline size_t t_table_hex(ordo_db *db, int tag, size_t skip, char *out, size_t cap)
{
    t_hex_lines h = {out, cap, 0, skip};
    out[0] = 0;
    return t_table_each(db, tag, t_hex_line, &h);
}

#endif
