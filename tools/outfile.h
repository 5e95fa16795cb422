/* Side outputs of the tool (ordo load's --rejects) that never overwrite:
 * ordo writes only files it creates itself, and never one of its inputs. */
#ifndef ORDO_OUTFILE_H
#define ORDO_OUTFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

typedef struct outfile {
    FILE *f;
    const char *path;
    int created; /* made by this run: removed again if the run fails */
    dev_t dev;   /* which file it made */
    ino_t ino;
} outfile;

/* Opens path for writing: a new file (created with O_EXCL, so never one that
 * exists, nor through a link), or an existing FIFO or character device (a
 * stream such as /dev/null or a pipe). Refused when it is one of the inputs:
 * the same device and inode as any of the open files in_fds[0..n_in).
 * 1, or 0 with the reason in err. */
int outfile_open(outfile *o, const char *path, const int *in_fds, size_t n_in, char *err,
                 size_t errlen);
/* Writes out what is buffered, syncs a file and closes it: 1, or 0 with
 * err on any write error so far. */
int outfile_finish(outfile *o, char *err, size_t errlen);
/* The run succeeded: the output stays (outfile_discard no longer removes it). */
void outfile_keep(outfile *o);
/* Closes if open; removes the file when this run created it and did not
 * keep it (a failed run leaves no half-written output). Safe to call twice. */
void outfile_discard(outfile *o);

/* 1 when path names the folder dir itself or an entry of it (a path that
 * does not exist yet is judged by the folder its name would be in). */
int outfile_in_folder(const char *dir, const char *path);

#endif
