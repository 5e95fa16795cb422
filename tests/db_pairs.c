/* ordo_db_pairs DIR [LO_HEX [HI_HEX]]: every stored (key, value) of the
 * database at DIR in [LO, HI) (HI absent: to the end, system keys
 * included) as "KEY_HEX VALUE_HEX" lines, for the Python tests that
 * compare stores byte for byte (the extension carries no such hook). */
#include "ordo_load.h"
#include "ordo_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hex(const ordo_table_keys *k, size_t i)
{
    for (int64_t j = k->off[i]; j < k->off[i + 1]; j++)
        printf("%02x", k->data[j]);
}

/* A hex argument's bytes into buf (len set); 0 when it is no hex. */
static int unhex(const char *s, unsigned char *buf, size_t cap, size_t *len)
{
    size_t n = strlen(s);
    if (n % 2 || n / 2 > cap)
        return 0;
    for (size_t i = 0; i < n / 2; i++)
        if (sscanf(s + 2 * i, "%2hhx", &buf[i]) != 1)
            return 0;
    *len = n / 2;
    return 1;
}

int main(int argc, char **argv)
{
    static unsigned char lo[4096], hi[4096];
    size_t lo_len = 0, hi_len = 0;
    if (argc < 2 || argc > 4 || (argc > 2 && !unhex(argv[2], lo, sizeof lo, &lo_len)) ||
        (argc > 3 && !unhex(argv[3], hi, sizeof hi, &hi_len))) {
        fprintf(stderr, "usage: ordo_db_pairs DIR [LO_HEX [HI_HEX]]\n");
        return 2;
    }
    ordo_db *db = NULL;
    ordo_table_keys keys = {0}, values = {0};
    ordo_error e = {0};
    ordo_status s = ordo_db_open(argv[1], ORDO_DB_READ_ONLY, &db, &e);
    if (s == ORDO_OK)
        s = ordo_table_scan_pairs(db, lo, lo_len, argc > 3 ? hi : NULL, hi_len, &keys, &values,
                                  &e);
    for (size_t i = 0; s == ORDO_OK && i < keys.n; i++) {
        hex(&keys, i);
        putchar(' ');
        hex(&values, i);
        putchar('\n');
    }
    if (s != ORDO_OK)
        fprintf(stderr, "ordo_db_pairs: %s\n", e.message);
    ordo_table_keys_free(&keys);
    ordo_table_keys_free(&values);
    ordo_db_close(db);
    return s == ORDO_OK ? (fflush(stdout) ? 1 : 0) : 1;
}
