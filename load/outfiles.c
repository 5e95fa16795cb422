#define _DEFAULT_SOURCE /* dirfd */
#include "outfiles.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file only RocksDB makes in a database's folder, or NULL. */
static const char *rocksdb_file(int dirfd)
{
    static const char *const names[] = {"CURRENT", "IDENTITY", "LOCK"};
    struct stat st;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!fstatat(dirfd, names[i], &st, AT_SYMLINK_NOFOLLOW))
            return names[i];
    int fd = dup(dirfd);
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    if (!d) {
        if (fd >= 0)
            close(fd);
        return NULL; /* creating files fails the same way, with its reason */
    }
    const char *found = NULL;
    struct dirent *e;
    while (!found && (e = readdir(d)))
        if (!strncmp(e->d_name, "MANIFEST-", 9))
            found = "MANIFEST-*";
    closedir(d);
    return found;
}

ordo_status ordo__out_dir_open(const char *dir, const char *prefix, const char *what, int *dirfd,
                               ordo_error *err)
{
    *dirfd = -1;
    if (strchr(prefix, '/') || strstr(prefix, ".."))
        return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, 0,
                               "the %s file prefix '%s' holds '/' or '..': a prefix starts file "
                               "names inside the folder",
                               what, prefix);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        return ordo__load_fail(err, e == ENOTDIR ? ORDO_ERR_UNSAFE_PATH : ORDO_ERR_IO, 0,
                               "cannot use '%s' as the %s files' folder: %s", dir, what,
                               e == ENOTDIR ? "not a folder" : strerror(e));
    }
    const char *db = rocksdb_file(fd);
    if (db) {
        close(fd);
        return ordo__load_fail(err, ORDO_ERR_UNSAFE_PATH, 0,
                               "'%s' is a RocksDB database's folder (it holds %s): %s files go "
                               "into a folder of their own, or the database's temporary folder",
                               dir, db, what);
    }
    *dirfd = fd;
    return ORDO_OK;
}
