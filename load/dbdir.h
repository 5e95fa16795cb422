/* The database folder of `ordo load`: what may be in it before RocksDB opens
 * it, and the temporary folders ordo makes (and only those) inside it.
 *
 * RocksDB opens its files by name and follows symbolic links, so a link, a
 * FIFO or a hard link under one of its names would make a load read, block on
 * or write a file outside the database. ordo__dbdir_check refuses such a folder
 * before RocksDB touches it. A temporary folder carries a marker file; only a
 * real folder (not a link) owned by this user and holding that marker is ever
 * removed, entry by entry through its descriptor, links unlinked, never
 * followed. */
#ifndef ORDO_DBDIR_H
#define ORDO_DBDIR_H

#include <stddef.h>
#include <sys/types.h>

#define ORDO__DBDIR_TMP_PREFIX ".ordo-load-"

/* 1: DIR is usable (*exists tells whether it was there), 0: refused (err).
 * Hard links matter only to a writer (a reader writes nothing through them). */
int ordo__dbdir_check(const char *dir, int writing, int *exists, char *err, size_t errlen);

typedef struct ordo__dbdir_tmp {
    int fd;          /* the temporary folder, or -1 */
    char path[4200]; /* DIR/.ordo-load-XXXXXX */
} ordo__dbdir_tmp;

/* Makes a new temporary folder (mode 0700) with its marker inside DIR. */
int ordo__dbdir_tmp_create(const char *dir, ordo__dbdir_tmp *t, char *err, size_t errlen);
/* Removes the folder ordo__dbdir_tmp_create made, if any; safe to call twice. */
void ordo__dbdir_tmp_remove(ordo__dbdir_tmp *t);

/* Removes the temporary folders of killed loads (call only while holding the
 * database's lock, so that none belongs to a running load). 0 and err when
 * an entry with the temporary prefix is not a folder ordo made. */
int ordo__dbdir_remove_leftovers(const char *dir, char *err, size_t errlen);

/* Makes the database folder DIR when it is missing: 1 with *made set and
 * its identity (dev, ino) when this call made it, 1 with *made 0 when it
 * was there (RocksDB then checks it), 0 with err when it cannot. */
int ordo__dbdir_make(const char *dir, int *made, dev_t *dev, ino_t *ino, char *err, size_t errlen);
/* Removes the database folder ordo__dbdir_make made (still that folder:
 * dev, ino) with all that is in it, through descriptors: names unlinked,
 * links never followed, a folder that is not that one left alone. */
void ordo__dbdir_remove_made(const char *dir, dev_t dev, ino_t ino);

#endif
