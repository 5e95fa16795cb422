/* Compressed inputs of `ordo sort`: a gzip or zstd file (told by its first
 * bytes, whatever its name) is decompressed on a thread of its own into a
 * socket whose other end the CSV encoder reads as it would the file.
 * Concatenated gzip members and zstd frames are read one after the other.
 * Built with zlib and libzstd when they are found (ORDO_WITH_ZLIB,
 * ORDO_WITH_ZSTD); without one, such an input is refused by name. */
#ifndef ORDO_DECOMPRESS_H
#define ORDO_DECOMPRESS_H

#include <stddef.h>

typedef struct decomp decomp;

/* The descriptor to read fd's data from: fd itself for plain data (*d
 * NULL), else the read end of a socket a thread fills (*d, for
 * decomp_finish). A seekable fd is looked at in place; any other (a pipe)
 * always goes through the thread, which hands plain data on as it is.
 * 1, or 0 with err (a compression this ordo was built without; no memory). */
int decomp_open(int fd, const char *name, decomp **d, int *read_fd, char *err, size_t errlen);
/* After the reader reached the end: waits for the thread and frees d
 * (NULL is fine). 1 when all the input was decompressed, 0 with err for
 * damaged or truncated data or a read error. */
int decomp_finish(decomp *d, char *err, size_t errlen);

#endif
