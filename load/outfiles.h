/* The files the writers (run and SST) create in their caller's folder. Each
 * is new: created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW) through a
 * descriptor of the folder taken when the writer opens, never a name that
 * exists, and removed only while that name is still the file ordo made (its
 * device and inode). The folder must not be a RocksDB database's: RocksDB
 * owns the names there (ordo's own temporary folder inside it is fine). */
#ifndef ORDO_OUTFILES_H
#define ORDO_OUTFILES_H

#include "load_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* A file a writer made: its name in the folder, and what it is. */
typedef struct ordo__out_file {
    dev_t dev;
    ino_t ino;
} ordo__out_file;

/* Checks a writer's prefix (no '/' nor ".." in it: names stay inside the
 * folder) and its folder (a folder, not a RocksDB database's); opens the
 * folder: *dirfd. what names the writer in messages ("SST", "run"). */
ordo_status ordo__out_dir_open(const char *dir, const char *prefix, const char *what, int *dirfd,
                               ordo_error *err);
/* Creates name in the folder, new, for writing (mode 0644 less the umask):
 * the descriptor, or -1 with errno (EEXIST: the name is taken, whatever it
 * is; a link is not followed). *f records the file. */
static inline int ordo__out_create(int dirfd, const char *name, ordo__out_file *f)
{
    int fd = openat(dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st)) {
        int e = errno;
        unlinkat(dirfd, name, 0); /* ours: made exclusively a moment ago */
        close(fd);
        errno = e;
        return -1;
    }
    if (fd >= 0)
        f->dev = st.st_dev, f->ino = st.st_ino;
    return fd;
}

/* Removes name (in dirfd, or a path with AT_FDCWD) when it is still the
 * file f: 1 removed (or gone), 0 left (another file took the name). */
static inline int ordo__out_remove(int dirfd, const char *name, const ordo__out_file *f)
{
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
        return errno == ENOENT;
    if (st.st_dev != f->dev || st.st_ino != f->ino)
        return 0;
    return !unlinkat(dirfd, name, 0) || errno == ENOENT;
}

#endif
