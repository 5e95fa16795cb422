/* Runs the ordo tool in a child process and captures what it prints. */
#ifndef ORDO_TOOL_RUN_H
#define ORDO_TOOL_RUN_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct tool_result {
    int status; /* exit status, or 128 + signal */
    char out[8192];
    char err[8192];
} tool_result;

static inline void tool_slurp(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(fd, buf + n, cap - 1 - n)) > 0)
        n += (size_t)r;
    buf[n] = 0;
    close(fd);
}

/* argv[0] is ignored and replaced by the tool's path; NULL-terminated.
 * stdin_text (may be NULL) is written to the child's standard input.
 * stdout_path (may be NULL: captured in r->out) replaces standard output,
 * e.g. "/dev/full" for write errors. */
static inline void tool_run_to(const char *tool, const char *const *argv, const char *stdin_text,
                               const char *stdout_path, tool_result *r)
{
    char out_path[] = "/tmp/ordo-test-outXXXXXX", err_path[] = "/tmp/ordo-test-errXXXXXX",
         in_path[] = "/tmp/ordo-test-inXXXXXX";
    int fo = mkstemp(out_path), fe = mkstemp(err_path), fi = mkstemp(in_path);
    if (fo < 0 || fe < 0 || fi < 0)
        abort();
    if (stdin_text && write(fi, stdin_text, strlen(stdin_text)) < 0)
        abort();
    lseek(fi, 0, SEEK_SET);
    pid_t pid = fork();
    if (pid == 0) {
        if (stdout_path) {
            close(fo);
            fo = open(stdout_path, O_WRONLY);
            if (fo < 0)
                _exit(126);
        }
        dup2(fi, 0), dup2(fo, 1), dup2(fe, 2);
        execv(tool, (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    lseek(fo, 0, SEEK_SET), lseek(fe, 0, SEEK_SET);
    tool_slurp(fo, r->out, sizeof r->out);
    tool_slurp(fe, r->err, sizeof r->err);
    close(fi);
    unlink(out_path), unlink(err_path), unlink(in_path);
}

static inline void tool_run(const char *tool, const char *const *argv, const char *stdin_text,
                            tool_result *r)
{
    tool_run_to(tool, argv, stdin_text, NULL, r);
}

#endif
