/* Compressed CSV inputs of the ordo tool (sort, load, encode): a gzip or zstd file (told by its first
 * bytes, whatever its name) is decompressed on a thread of its own into a
 * socket whose other end the CSV encoder reads as it would the file.
 * Concatenated gzip members and zstd frames are read one after the other.
 * Built with zlib and libzstd when they are found (ORDO_WITH_ZLIB,
 * ORDO_WITH_ZSTD); without one, such an input is refused by name. A
 * Parquet file (PAR1 at both ends; at the start of a pipe) is refused with
 * the Python route that reads it. */
#ifndef ORDO_DECOMPRESS_H
#define ORDO_DECOMPRESS_H

#include <stddef.h>

typedef struct decomp decomp;

/* The descriptor to read fd's data from: fd itself for plain data (*d
 * NULL), else the read end of a socket a thread fills (*d, for
 * decomp_finish). A seekable fd is looked at in place; any other (a pipe)
 * always goes through the thread, which hands plain data on as it is.
 * A folder is handed back as it is (the reader refuses it). 1, or 0 with
 * err (Parquet, a compression this ordo was built without; no memory). */
int decomp_open(int fd, const char *name, decomp **d, int *read_fd, char *err, size_t errlen);
/* After the reader stopped early (a bad row): reads on from read_fd, at
 * most max bytes, so that damage in the data just after (a zstd frame's
 * checksum, a gzip member's CRC) is found before the rows' error is
 * believed. */
void decomp_drain(const decomp *d, int read_fd, size_t max);
/* After the reader reached the end or stopped (and closed *read_fd, which
 * stops the thread): waits for the thread and frees d (NULL is fine). 1
 * when the input was decompressed as far as the reader read it, 0 with err
 * ("NAME: damaged gzip data (...)", truncated data, a read error). */
int decomp_finish(decomp *d, char *err, size_t errlen);

#endif
