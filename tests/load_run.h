/* Runs the ordo tool for the load and scan tests: a child process with
 * its stdin from a file, optionally a file-size limit, all of stdout and
 * stderr captured; a scratch folder per test program. */
#ifndef ORDO_LOAD_RUN_H
#define ORDO_LOAD_RUN_H

#include "ordo_test.h"

#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

static char g_dir[256]; /* this run's scratch folder */

typedef struct run {
    int status; /* exit status, or 128 + signal */
    char *out;  /* all of standard output, NUL-terminated */
    size_t out_len;
    char err[16384];
} run;

static inline char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)n + 1);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
    p[n] = 0;
    fclose(f);
    if (len)
        *len = (size_t)n;
    return p;
}

/* Starts `ordo args...` with stdin from in_path (or /dev/null); returns
 * the pid. fsize > 0 caps the size of files it writes (RLIMIT_FSIZE). */
static inline pid_t start_ordo(const char *const *args, const char *in_path, rlim_t fsize)
{
    const char *argv[64] = {ORDO_TOOL_PATH};
    size_t n = 1;
    while (args[n - 1])
        argv[n] = args[n - 1], n++;
    argv[n] = NULL;
    char out[300], err[300];
    snprintf(out, sizeof out, "%s/out", g_dir);
    snprintf(err, sizeof err, "%s/err", g_dir);
    pid_t pid = fork();
    if (pid == 0) {
        int fi = open(in_path ? in_path : "/dev/null", O_RDONLY);
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fi, 0), dup2(fo, 1), dup2(fe, 2);
        if (fsize) {
            struct rlimit rl = {fsize, fsize};
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    return pid;
}

static inline void finish_ordo(pid_t pid, run *r)
{
    int st = 0;
    waitpid(pid, &st, 0);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    char path[300];
    snprintf(path, sizeof path, "%s/out", g_dir);
    r->out = slurp(path, &r->out_len);
    snprintf(path, sizeof path, "%s/err", g_dir);
    char *e = slurp(path, NULL);
    snprintf(r->err, sizeof r->err, "%s", e);
    free(e);
}

static inline void ordo(run *r, const char *in_path, ...)
{
    const char *args[64];
    size_t n = 0;
    va_list ap;
    va_start(ap, in_path);
    while ((args[n++] = va_arg(ap, const char *)))
        ;
    va_end(ap);
    finish_ordo(start_ordo(args, in_path, 0), r);
}

/* Equal texts, else a failure showing the first line that differs. */
#define assert_text_equal(got, want) assert_text_equal_((got), (want), __FILE__, __LINE__)
__attribute__((noinline, unused)) static void assert_text_equal_(const char *got, const char *want, const char *file, int line)
{
    size_t i = 0, at = 0, ln = 1;
    while (got[i] && got[i] == want[i]) {
        if (got[i] == '\n')
            at = i + 1, ln++;
        i++;
    }
    if (got[i] == want[i])
        return;
    const char *ge = strchr(got + at, '\n'), *we = strchr(want + at, '\n');
    int gn = ge ? (int)(ge - got - (long)at) : (int)strlen(got + at);
    int wn = we ? (int)(we - want - (long)at) : (int)strlen(want + at);
    fail_msg("%s:%d: line %zu differs:\n  got  '%.*s'\n  want '%.*s'", file, line, ln, gn,
             got + at, wn, want + at);
}

static inline void run_free(run *r) { free(r->out), r->out = NULL; }

static inline void path_in(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", g_dir, name);
}

static inline void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Temporary folders a load left in the database folder. */
static inline int leftovers(const char *db)
{
    DIR *d = opendir(db);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += !strncmp(e->d_name, ".ordo-load-", 11);
    closedir(d);
    return n;
}

/* Starts `ordo args...` (a load into db) and kills it with SIGKILL once
 * it has spilled its second run: it leaves a temporary folder behind. */
static inline void kill_while_spilling(const char *db, const char *const *args)
{
    pid_t pid = start_ordo(args, NULL, 0);
    int spilled = 0;
    for (int i = 0; i < 2000 && !spilled; i++) {
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
        spilled = t_sh("ls %s/.ordo-load-*/run-000001 >/dev/null 2>&1", db) == 0;
    }
    if (!spilled)
        kill(pid, SIGKILL);
    assert_true(spilled);
    kill(pid, SIGKILL);
    run r;
    finish_ordo(pid, &r);
    assert_int_equal(r.status, 128 + SIGKILL);
    run_free(&r);
    assert_int_equal(leftovers(db), 1);
}

static inline int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ordo-test-load-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static inline int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    return system(cmd);
}

#endif
