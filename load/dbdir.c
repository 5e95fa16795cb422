#define _DEFAULT_SOURCE /* mkdtemp, dirfd */
#include "dbdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MARKER_NAME ".ordo-load"
static const char marker_text[] = "a temporary folder of ordo load: removed when the load ends\n";

static const char *kind(mode_t m)
{
    return S_ISLNK(m)    ? "a symbolic link"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISSOCK(m) ? "a socket"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISDIR(m)  ? "a folder"
                         : "a file";
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

int ordo__dbdir_check(const char *dir, int writing, int *exists, char *err, size_t errlen)
{
    struct stat st;
    *exists = 0;
    if (stat(dir, &st)) {
        if (errno == ENOENT)
            return 1;
        snprintf(err, errlen, "cannot use the database folder '%s': %s", dir, strerror(errno));
        return 0;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "'%s' is %s, not a database folder", dir, kind(st.st_mode));
        return 0;
    }
    *exists = 1;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "cannot read the database folder '%s': %s", dir, strerror(errno));
        return 0;
    }
    int ok = 1, entries = 0, current = 0;
    struct dirent *e;
    while (ok && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        entries++;
        current |= !strcmp(e->d_name, "CURRENT");
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
            if (errno == ENOENT) /* removed meanwhile */
                continue;
            snprintf(err, errlen, "cannot inspect '%s/%s': %s", dir, e->d_name, strerror(errno));
            ok = 0;
        } else if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
            snprintf(err, errlen,
                     "'%s/%s' is %s: a database folder holds only files and folders, "
                     "and ordo follows no links in it (remove or move it)",
                     dir, e->d_name, kind(st.st_mode));
            ok = 0;
        } else if (writing && S_ISREG(st.st_mode) && st.st_nlink > 1 &&
                   !has_suffix(e->d_name, ".sst")) {
            /* SST files are never written once made (and ingestion links
             * them); any other file RocksDB may write or extend in place */
            snprintf(err, errlen,
                     "'%s/%s' has %ju names (hard links): writing it would change a file "
                     "outside the database (copy it instead)",
                     dir, e->d_name, (uintmax_t)st.st_nlink);
            ok = 0;
        }
    }
    closedir(d);
    if (ok && entries && !current) { /* RocksDB would scatter its files among them */
        snprintf(err, errlen,
                 "'%s' holds files but no database: name a new or empty folder, or a database",
                 dir);
        ok = 0;
    }
    return ok;
}

int ordo__dbdir_tmp_create(const char *dir, ordo__dbdir_tmp *t, char *err, size_t errlen)
{
    t->fd = -1;
    snprintf(t->path, sizeof t->path, "%s/" ORDO__DBDIR_TMP_PREFIX "XXXXXX", dir);
    if (!mkdtemp(t->path)) {
        snprintf(err, errlen, "cannot create a temporary folder in '%s': %s", dir,
                 strerror(errno));
        t->path[0] = 0;
        return 0;
    }
    t->fd = open(t->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int m = t->fd < 0 ? -1
                      : openat(t->fd, MARKER_NAME, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                               0600);
    int ok = m >= 0 && write(m, marker_text, sizeof marker_text - 1) == sizeof marker_text - 1;
    if (m >= 0 && close(m))
        ok = 0;
    if (!ok) {
        snprintf(err, errlen, "cannot create a temporary folder in '%s': %s", dir,
                 strerror(errno ? errno : EIO));
        ordo__dbdir_tmp_remove(t);
        return 0;
    }
    return 1;
}

/* Removes every entry of the folder at fd but folders (unlinking a link,
 * FIFO or hard link removes only its name here); 1 when none is left. */
static int empty_folder(int fd)
{
    int dup_fd = dup(fd);
    DIR *d = dup_fd < 0 ? NULL : fdopendir(dup_fd);
    if (!d) {
        if (dup_fd >= 0)
            close(dup_fd);
        return 0;
    }
    int all = 1;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (unlinkat(fd, e->d_name, 0) && errno != ENOENT)
            all = 0; /* a folder ordo did not put there: left alone */
    }
    closedir(d);
    return all;
}

void ordo__dbdir_tmp_remove(ordo__dbdir_tmp *t)
{
    if (t->fd >= 0) {
        empty_folder(t->fd);
        close(t->fd);
        t->fd = -1;
    }
    if (t->path[0])
        rmdir(t->path); /* fails, harmlessly, if it is not our empty folder */
    t->path[0] = 0;
}

/* 1 when the folder open at fd holds ordo's marker file. */
static int has_marker(int fd)
{
    struct stat st;
    if (fstatat(fd, MARKER_NAME, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode) ||
        st.st_size != (off_t)(sizeof marker_text - 1))
        return 0;
    int m = openat(fd, MARKER_NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (m < 0)
        return 0;
    char buf[sizeof marker_text];
    ssize_t n = read(m, buf, sizeof buf);
    close(m);
    return n == (ssize_t)(sizeof marker_text - 1) && !memcmp(buf, marker_text, (size_t)n);
}

int ordo__dbdir_remove_leftovers(const char *dir, char *err, size_t errlen)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        snprintf(err, errlen, "cannot read the database folder '%s': %s", dir, strerror(errno));
        return 0;
    }
    int ok = 1;
    struct dirent *e;
    while (ok && (e = readdir(d))) {
        if (strncmp(e->d_name, ORDO__DBDIR_TMP_PREFIX, strlen(ORDO__DBDIR_TMP_PREFIX)))
            continue;
        struct stat st, fst;
        if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
            continue; /* gone meanwhile */
        const char *why = NULL;
        int fd = -1;
        if (!S_ISDIR(st.st_mode))
            why = kind(st.st_mode);
        else if (st.st_uid != geteuid())
            why = "owned by another user";
        else if ((fd = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
                 fstat(fd, &fst) || fst.st_dev != st.st_dev || fst.st_ino != st.st_ino)
            why = "not readable";
        else if (!has_marker(fd))
            why = "without ordo's marker file";
        if (why) {
            snprintf(err, errlen,
                     "'%s/%s' has the name of ordo's temporary folders but is not one ordo made "
                     "(%s): remove or rename it",
                     dir, e->d_name, why);
            ok = 0;
        } else if (!empty_folder(fd) || unlinkat(dfd, e->d_name, AT_REMOVEDIR)) {
            snprintf(err, errlen, "cannot remove the leftover temporary folder '%s/%s': %s", dir,
                     e->d_name, errno == ENOTEMPTY || errno == EEXIST
                                    ? "it holds a folder ordo did not make"
                                    : strerror(errno));
            ok = 0;
        }
        if (fd >= 0)
            close(fd);
    }
    closedir(d);
    return ok;
}

int ordo__dbdir_make(const char *dir, int *made, dev_t *dev, ino_t *ino, char *err, size_t errlen)
{
    *made = 0;
    if (mkdir(dir, 0777)) {
        if (errno == EEXIST) /* made meanwhile: RocksDB checks what it is */
            return 1;
        snprintf(err, errlen, "cannot create the database folder '%s': %s", dir, strerror(errno));
        return 0;
    }
    struct stat st;
    if (lstat(dir, &st) || !S_ISDIR(st.st_mode))
        return 1; /* replaced at once: not ours to remove */
    *made = 1, *dev = st.st_dev, *ino = st.st_ino;
    return 1;
}

/* Removes everything in the folder at fd (its subfolders opened without
 * following links, emptied the same way); depth bounds the recursion. */
static void remove_all(int fd, int depth)
{
    int dup_fd = dup(fd);
    DIR *d = dup_fd < 0 ? NULL : fdopendir(dup_fd);
    if (!d) {
        if (dup_fd >= 0)
            close(dup_fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        struct stat st;
        if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
            continue;
        if (!S_ISDIR(st.st_mode)) {
            unlinkat(fd, e->d_name, 0); /* a link's name, never its target */
            continue;
        }
        int sub = depth < 16 ? openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
                                                         O_CLOEXEC)
                             : -1;
        if (sub >= 0) {
            remove_all(sub, depth + 1);
            close(sub);
        }
        unlinkat(fd, e->d_name, AT_REMOVEDIR);
    }
    closedir(d);
}

void ordo__dbdir_remove_made(const char *dir, dev_t dev, ino_t ino)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return;
    if (!fstat(fd, &st) && st.st_dev == dev && st.st_ino == ino) {
        remove_all(fd, 0);
        rmdir(dir); /* fails, harmlessly, if something else was put there meanwhile */
    }
    close(fd);
}
