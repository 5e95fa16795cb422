#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int outfile_open(outfile *o, const char *path, const int *in_fds, size_t n_in, char *err,
                 size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    struct stat st;
    int fd;
    if (!stat(path, &st)) {
        for (size_t i = 0; i < n_in; i++) {
            struct stat in;
            if (!fstat(in_fds[i], &in) && in.st_dev == st.st_dev && in.st_ino == st.st_ino &&
                !S_ISCHR(st.st_mode)) { /* /dev/null may be both */
                snprintf(err, errlen, "'%s' is also an input: an output is never an input", path);
                return 0;
            }
        }
        if (!S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode)) {
            snprintf(err, errlen,
                     "'%s' already exists: ordo writes only files it creates (remove it or name a "
                     "new file)",
                     path);
            return 0;
        }
        fd = open(path, O_WRONLY | O_CLOEXEC);
    } else {
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        o->created = fd >= 0 && !fstat(fd, &st);
        o->dev = st.st_dev, o->ino = st.st_ino;
    }
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        snprintf(err, errlen, "cannot create '%s': %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        outfile_discard(o);
        return 0;
    }
    return 1;
}

int outfile_finish(outfile *o, char *err, size_t errlen)
{
    errno = 0;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    struct stat st;
    if (!bad && !fstat(fileno(o->f), &st) && S_ISREG(st.st_mode))
        bad = fsync(fileno(o->f)) != 0;
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (bad)
        snprintf(err, errlen, "cannot write '%s': %s", o->path, strerror(errno ? errno : EIO));
    return !bad;
}

void outfile_keep(outfile *o) { o->created = 0; }

void outfile_discard(outfile *o)
{
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    struct stat st; /* still the file it made, not one put in its place */
    if (o->created && !lstat(o->path, &st) && st.st_dev == o->dev && st.st_ino == o->ino)
        unlink(o->path);
    o->created = 0;
}

int outfile_in_folder(const char *dir, const char *path)
{
    struct stat ds, ps;
    if (stat(dir, &ds))
        return 0;
    if (!stat(path, &ps) && ps.st_dev == ds.st_dev && ps.st_ino == ds.st_ino)
        return 1;
    char parent[4200];
    snprintf(parent, sizeof parent, "%s", path);
    char *slash = strrchr(parent, '/');
    if (!slash)
        snprintf(parent, sizeof parent, ".");
    else if (slash == parent)
        parent[1] = 0;
    else
        *slash = 0;
    return !stat(parent, &ps) && ps.st_dev == ds.st_dev && ps.st_ino == ds.st_ino;
}
