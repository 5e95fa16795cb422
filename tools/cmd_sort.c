/* ordo sort: CSV rows written back unchanged, in the order of their keys.
 * The ingest library's encoder parses each input (gzip and zstd ones
 * decompressed on the way: decompress.h) and gives every row's key
 * and its bytes as read (ordo_encoder_options.raw); the load library's run
 * writer sorts them within --memory and spills sorted runs; its merge hands
 * the rows back in key order (ordo_runs_merge_to), equal keys in input
 * order. Runs, merge passes and the -o output being written live in a
 * temporary folder next to the output (.ordo-sort-XXXXXX), removed on every
 * exit but a SIGKILL; the output is renamed into place at the end. With
 * --threads N the rows held in memory are merged as N key ranges at once,
 * each after the first into a file of its own, appended in order. */
#define _GNU_SOURCE /* copy_file_range */
#include "cli.h"
#include "decompress.h"

#include <ordo_load.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* seq: the input's index above the line, so that seq order is input order
 * and names the row's file and line. */
#define SEQ_LINE_BITS 40
#define SEQ_LINE_MASK ((UINT64_C(1) << SEQ_LINE_BITS) - 1)
#define MAX_INPUTS (1u << 20)
/* At most this many key ranges are merged at once (--threads). */
#define PARTS_MAX 8

typedef enum dup_mode { DUP_KEEP, DUP_ERROR, DUP_FIRST, DUP_LAST } dup_mode;

typedef struct sort_options {
    const char *schema, *key, *format, *out, *runs;
    ordo_format fmt;
    uint64_t memory;
    int memory_default; /* --memory not given: the run writer's default */
    int threads, header, keys_only;
    dup_mode dup;
    char **inputs;
    int ninputs;
} sort_options;

/* What the exit paths clean: the temporary folder (by its descriptor, so
 * only entries of the folder this run made are removed). */
static char g_tmp[4200];
static int g_tmp_fd = -1;
static volatile sig_atomic_t g_signal;

static void on_signal(int sig) { g_signal = sig; }

static void cleanup(void)
{
    if (g_tmp_fd < 0)
        return;
    int fd = dup(g_tmp_fd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)))
            if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
                unlinkat(g_tmp_fd, de->d_name, 0);
        closedir(d);
    } else if (fd >= 0) {
        close(fd);
    }
    close(g_tmp_fd);
    g_tmp_fd = -1;
    rmdir(g_tmp);
}

static void sort_end(int code, int plain, const char *msg) __attribute__((noreturn));
static void sort_end(int code, int plain, const char *msg)
{
    cleanup();
    fflush(stdout);
    fprintf(stderr, "%s%s\n", plain ? "" : "ordo: sort: ", msg);
    exit(code);
}

#define SORT_END(code, plain) CLI_END_WITH(sort_end, code, plain)

/* A failure of the machine (status 1), a refusal (2), a bad row (2, as
 * "FILE:LINE:COLUMN: message"). */
static void sort_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void sort_fail(const char *fmt, ...) { SORT_END(CLI_EXIT_MACHINE, 0); }
static void sort_refuse(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void sort_refuse(const char *fmt, ...) { SORT_END(CLI_EXIT_BAD_INPUT, 0); }
static void sort_fail_at(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void sort_fail_at(const char *fmt, ...) { SORT_END(CLI_EXIT_BAD_INPUT, 1); }

static int g_stdout_used; /* rows went to standard output already */

static void check_signal(void)
{
    if (g_signal == SIGPIPE) { /* the reader went away: its temporary files go, then as GNU sort */
        cleanup();
        signal(SIGPIPE, SIG_DFL);
        raise(SIGPIPE);
    }
    if (g_signal)
        sort_fail("interrupted by signal %d; %s", (int)g_signal,
                  g_stdout_used ? "the output is incomplete" : "no output written");
}

typedef struct sorter {
    const sort_options *o;
    ordo_format fmt;
    ordo_schema table;
    ordo_run_writer *runs;
    const char **names; /* per input, for messages */
    FILE *out;
    char *out_tmp;      /* -o: the file being written in the temporary folder */
    uint8_t *header;    /* the first input's header row */
    size_t header_len;
    int bom;            /* the first input starts with a byte-order mark: so does the output */
    uint64_t rows_in;
} sorter;

/* Where one key range of the merge goes (ordo_runs_merge_split_to), with
 * its duplicate policy's state: the first range to the output, each other
 * to a file of its own in the temporary folder, appended to the output in
 * order at the end. A range's thread never exits: its failure is kept
 * here and reported by the main thread. */
typedef struct part {
    const sorter *S;
    FILE *out;
    char *path; /* (ranges after the first) */
    /* the previous key, and for --on-duplicate last its row */
    uint8_t *prev;
    size_t prev_len, prev_cap;
    uint64_t prev_seq;
    int have_prev;
    uint8_t *held;
    size_t held_len, held_cap;
    uint8_t *held_key;
    size_t held_key_len, held_key_cap;
    char *hex; /* --keys-only: a key's text */
    size_t hex_cap;
    int failed, bad_row; /* a write failed (status 1), or a duplicate with error (2) */
    char why[2600];
} part;

/* -1, P's failure kept: why (an errno, or 0: out of memory). */
static int part_fail(part *P, int err)
{
    const char *name = P->path ? P->path : P->S->o->out ? P->S->o->out : "standard output";
    P->failed = 1; /* (glibc's strerror is thread-safe) */
    snprintf(P->why, sizeof P->why, "cannot write %s: %s", name,
             err ? strerror(err) : "out of memory");
    return -1;
}

/* 0, or -1 with the failure kept in P. */
static int out_write(part *P, const void *p, size_t n)
{
    return !n || fwrite(p, 1, n, P->out) == n ? 0 : part_fail(P, errno);
}

/* Reports P's failure, if it has one (on the main thread). */
static void part_check(const part *P)
{
    if (!P->failed)
        return;
    check_signal();
    if (P->bad_row)
        sort_fail_at("%s", P->why);
    sort_fail("%s", P->why);
}

/* A row as it was read, with a line end when the input's last row had
 * none; 0, or -1 (P failed). */
static int put_row(part *P, const uint8_t *key, size_t kn, const uint8_t *row, size_t n)
{
    if (P->S->o->keys_only) { /* (no exit on a range's thread: its own buffer, grown) */
        if (P->hex_cap < 2 * kn + 1) {
            char *h = realloc(P->hex, 2 * kn + 1);
            if (!h)
                return part_fail(P, 0);
            P->hex = h, P->hex_cap = 2 * kn + 1;
        }
        size_t len = 0;
        ordo_hex_encode(key, kn, P->hex, 2 * kn, &len);
        P->hex[len++] = '\n';
        return out_write(P, P->hex, len);
    }
    return out_write(P, row, n) || ((!n || row[n - 1] != '\n') && out_write(P, "\n", 1)) ? -1
                                                                                          : 0;
}

/* p's n bytes into *buf (grown, without exiting: a range's thread); 0,
 * or -1 out of memory. */
static int copy_into(uint8_t **buf, size_t *len, size_t *cap, const uint8_t *p, size_t n)
{
    if (*cap < n || !*buf) {
        uint8_t *b = realloc(*buf, n > 64 ? 2 * n : 64);
        if (!b)
            return -1;
        *buf = b, *cap = n > 64 ? 2 * n : 64;
    }
    if (n)
        memcpy(*buf, p, n);
    *len = n;
    return 0;
}

/* Where seq says a row is: "FILE:LINE". */
static const char *seq_where(const sorter *S, uint64_t seq, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s:%llu", S->names[seq >> SEQ_LINE_BITS],
             (unsigned long long)(seq & SEQ_LINE_MASK));
    return buf;
}

/* The merge's rows of one range, in key order: the duplicate policy, then
 * the range's output. */
static ordo_status emit(void *ctx, const uint8_t *key, size_t kn, const uint8_t *row, size_t n,
                        uint64_t seq, ordo_error *err)
{
    (void)err;
    part *P = ctx;
    if (g_signal)
        return ORDO_ERR_INTERRUPTED;
    int same = P->have_prev && !ordo_compare(P->prev, P->prev_len, key, kn), rc = 0;
    switch (P->S->o->dup) {
    case DUP_KEEP:
        return put_row(P, key, kn, row, n) ? ORDO_ERR_IO : ORDO_OK;
    case DUP_ERROR:
        if (same) {
            char a[1200], b[1200];
            snprintf(P->why, sizeof P->why,
                     "%s: duplicate key: the same key as %s (--on-duplicate keep|first|last "
                     "writes them)",
                     seq_where(P->S, seq, a, sizeof a), seq_where(P->S, P->prev_seq, b, sizeof b));
            P->failed = P->bad_row = 1;
            return ORDO_ERR_DUPLICATE_KEY;
        }
        rc = put_row(P, key, kn, row, n);
        break;
    case DUP_FIRST:
        if (!same)
            rc = put_row(P, key, kn, row, n);
        break;
    case DUP_LAST:
        if (P->have_prev && !same)
            rc = put_row(P, P->held_key, P->held_key_len, P->held, P->held_len);
        if (!rc && (copy_into(&P->held, &P->held_len, &P->held_cap, row, n) ||
                    copy_into(&P->held_key, &P->held_key_len, &P->held_key_cap, key, kn)))
            rc = part_fail(P, 0);
        break;
    }
    if (!rc && !same) { /* equal keys: the group's first stays the one named */
        if (copy_into(&P->prev, &P->prev_len, &P->prev_cap, key, kn))
            rc = part_fail(P, 0);
        P->prev_seq = seq;
    }
    P->have_prev = 1;
    return rc ? ORDO_ERR_IO : ORDO_OK;
}

/* The encoder's error: a bad header or row (status 2), else the machine's. */
static void input_fail(const char *name, const ordo_error *e) __attribute__((noreturn));
static void input_fail(const char *name, const ordo_error *e)
{
    check_signal();
    if (e->status == ORDO_ERR_OUT_OF_MEMORY)
        sort_fail("out of memory");
    if (e->status == ORDO_ERR_IO)
        sort_fail("%s: %s", name, e->message);
    sort_fail_at("%s", cli_where(e));
}

static void lib_fail(const ordo_error *e) __attribute__((noreturn));
static void lib_fail(const ordo_error *e)
{
    check_signal();
    if (e->status == ORDO_ERR_NO_ROOM)
        sort_fail("%s (--memory)", e->message);
    sort_fail("%s", e->message);
}

/* One input's rows into the run writer. */
static void read_input(sorter *S, size_t index, int fd)
{
    const sort_options *o = S->o;
    ordo_error e;
    ordo_encoder_options eo = {0};
    eo.threads = (size_t)o->threads;
    eo.header = o->header;
    eo.raw = 1;
    eo.name = S->names[index];
    ordo_encoder *enc = NULL;
    ordo_status s = ordo_encoder_open(&S->table, o->key, S->fmt, &eo, &enc, &e);
    if (s == ORDO_ERR_OUT_OF_MEMORY)
        sort_fail("out of memory");
    if (s != ORDO_OK)
        sort_refuse("--key: %s", e.message);
    decomp *dc = NULL;
    int rfd = fd;
    char msg[600];
    if (!decomp_open(fd, S->names[index], &dc, &rfd, msg, sizeof msg))
        sort_refuse("%s", msg);
    if (ordo_encoder_input_fd(enc, rfd, &e) != ORDO_OK)
        sort_fail("%s", e.message);
    const ordo_encoder_batch *b;
    while ((s = ordo_encoder_next(enc, &b, &e)) == ORDO_OK && b) {
        if (b->bom && index == 0)
            S->bom = 1;
        if (b->header && !S->header) /* the first input's (an empty input has none) */
            S->header = cli_alloc(b->header_len ? b->header_len : 1),
            memcpy(S->header, b->header, b->header_len), S->header_len = b->header_len;
        for (size_t r = 0; r < b->rows; r++) {
            uint64_t seq = ((uint64_t)index << SEQ_LINE_BITS) | (b->lines[r] & SEQ_LINE_MASK);
            ordo_status a = ordo_run_writer_add(
                S->runs, b->keys + b->key_offsets[r], b->key_offsets[r + 1] - b->key_offsets[r],
                b->raw + b->raw_offsets[r], b->raw_offsets[r + 1] - b->raw_offsets[r], seq, &e);
            if (a != ORDO_OK)
                lib_fail(&e);
        }
        S->rows_in += b->rows;
        check_signal();
    }
    ordo_error copy = e;
    ordo_encoder_close(enc);
    if (dc) /* the decompressor's end: a reader that stopped early stops it too */
        close(rfd);
    /* damaged compressed data, whatever the rows read from it said */
    if (!decomp_finish(dc, msg, sizeof msg)) {
        check_signal();
        sort_fail_at("%s", msg);
    }
    if (s != ORDO_OK)
        input_fail(S->names[index], &copy);
}

/* ------------------------------------------------------------- options */

static void parse_size(void *dst, const char *what, const char *s)
{
    if (ordo_parse_size(s, (uint64_t *)dst) != ORDO_OK)
        cli_fail("sort: %s: expected a size such as 256M, 1.5G or 65536, got '%s'", what, s);
}

static void parse_threads(void *dst, const char *what, const char *s)
{
    (void)what;
    size_t n = strspn(s, "0123456789");
    int t = n && n <= 3 && !s[n] ? atoi(s) : -1;
    if (t < 1 || t > 256)
        cli_fail("sort: --threads: expected 1 to 256, got '%s'", s);
    *(int *)dst = t;
}

static const char *usage =
    "usage: ordo sort --schema SCHEMA --key \"COL [ASC|DESC] [NULLS FIRST|LAST], ...\"\n"
    "                 [--format ordered|packed|lexkey|lexkey-legacy] [--header] [--memory SIZE]\n"
    "                 [--threads N] [--on-duplicate keep|error|first|last] [-o FILE]\n"
    "                 [--keys-only] [--runs DIR] [FILE...|-]";

static void parse_args(int argc, char **argv, sort_options *o)
{
    memset(o, 0, sizeof *o);
    o->format = "ordered";
    const uint64_t dflt = ordo_run_memory_default();
    o->memory = dflt;
    o->threads = 1;
    const char *dup = "keep";
    const opt opts[] = {
        {"--schema", OPT_STRING, &o->schema, NULL},
        {"--key", OPT_STRING, &o->key, NULL},
        {"--format", OPT_STRING, &o->format, NULL},
        {"--on-duplicate", OPT_STRING, &dup, NULL},
        {"-o", OPT_STRING, &o->out, NULL},
        {"--runs", OPT_STRING, &o->runs, NULL},
        {"--memory", OPT_CALL, &o->memory, parse_size},
        {"--threads", OPT_CALL, &o->threads, parse_threads},
        {"--header", OPT_FLAG, &o->header, NULL},
        {"--keys-only", OPT_FLAG, &o->keys_only, NULL},
    };
    char help[1024];
    const opt_spec spec = {"sort", cli_memory_usage(help, sizeof help, usage, dflt), "unknown option", OPT_POS_NOT_DASH, 0, opts,
                           sizeof opts / sizeof opts[0]};
    o->inputs = cli_positional(argc);
    o->ninputs = cli_options(&spec, argc, argv, o->inputs);
    if (!o->schema || !o->key)
        cli_fail("sort: needs --schema and --key\n%s", usage);
    ordo_error e;
    ordo_dup_policy policy; /* the library's names, and "keep" (sort only) */
    if (!strcmp(dup, "keep"))
        o->dup = DUP_KEEP;
    else if (ordo_dup_policy_parse(dup, &policy, &e) != ORDO_OK)
        cli_fail("sort: --on-duplicate: expected keep, error, first or last, got '%s'", dup);
    else
        o->dup = policy == ORDO_DUP_ERROR ? DUP_ERROR : policy == ORDO_DUP_FIRST ? DUP_FIRST
                                                                                 : DUP_LAST;
    o->fmt = cli_format("sort", o->format);
    if (o->memory < (1u << 20))
        cli_fail("sort: --memory: at least 1M");
    o->memory_default = o->memory == dflt;
    if (o->out && !*o->out)
        cli_fail("sort: -o: an empty name");
    if ((unsigned)o->ninputs > MAX_INPUTS)
        cli_fail("sort: more than %u inputs", MAX_INPUTS);
}

/* ----------------------------------------------------------------- main */

/* The folder the output's name is in ("." for a bare name). */
static void parent_of(const char *path, char *dir, size_t cap)
{
    snprintf(dir, cap, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, cap, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
}

/* The temporary folder: next to -o's file, else in $TMPDIR (or /tmp). */
static void make_tmp(const sort_options *o)
{
    char dir[4096];
    const char *t = getenv("TMPDIR");
    if (o->out)
        parent_of(o->out, dir, sizeof dir);
    else
        snprintf(dir, sizeof dir, "%s", t && *t ? t : "/tmp");
    if ((size_t)snprintf(g_tmp, sizeof g_tmp, "%s/.ordo-sort-XXXXXX", dir) >= sizeof g_tmp)
        sort_refuse("the output's folder name is too long");
    if (!mkdtemp(g_tmp))
        sort_refuse("cannot make a temporary folder in '%s': %s", dir, strerror(errno));
    g_tmp_fd = open(g_tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (g_tmp_fd < 0) {
        int err = errno;
        rmdir(g_tmp);
        sort_fail("cannot open the temporary folder '%s': %s", g_tmp, strerror(err));
    }
}

/* -o is never an input: the same device and inode as one (through links). */
static void check_output(const sort_options *o, const int *fds, int n)
{
    struct stat st;
    if (!o->out || stat(o->out, &st))
        return;
    if (S_ISDIR(st.st_mode))
        sort_refuse("-o: '%s' is a folder", o->out);
    for (int i = 0; i < n; i++) {
        struct stat in;
        if (!fstat(fds[i], &in) && in.st_dev == st.st_dev && in.st_ino == st.st_ino &&
            !S_ISCHR(st.st_mode))
            sort_refuse("-o: '%s' is also an input: an output is never an input", o->out);
    }
}

/* -o: a new file in the temporary folder, renamed over the output at the end. */
static void open_output(sorter *S)
{
    if (!S->o->out) {
        S->out = stdout;
        g_stdout_used = 1;
        return;
    }
    size_t n = strlen(g_tmp) + 16;
    S->out_tmp = cli_alloc(n);
    snprintf(S->out_tmp, n, "%s/output", g_tmp);
    int fd = open(S->out_tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 || !(S->out = fdopen(fd, "w")))
        sort_fail("cannot create '%s': %s", S->out_tmp, strerror(errno));
}

/* A range's own file in the temporary folder (ranges after the first). */
static void open_part(part *P, size_t i)
{
    size_t n = strlen(g_tmp) + 32;
    P->path = cli_alloc(n);
    snprintf(P->path, n, "%s/part-%zu", g_tmp, i);
    int fd = open(P->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0 && fd <= 2) { /* standard output closed: never written through as a range's */
        int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        close(fd);
        fd = moved;
    }
    if (fd < 0 || !(P->out = fdopen(fd, "w+")))
        sort_fail("cannot create '%s': %s", P->path, strerror(errno));
}

/* Appends a range's file to the output, in the kernel where it can
 * (copy_file_range), else through a buffer (standard output a pipe). */
static void append_part(sorter *S, part *P)
{
    const char *name = S->o->out ? S->o->out : "standard output";
    if (fflush(P->out))
        sort_fail("cannot write '%s': %s", P->path, strerror(errno));
    if (fflush(S->out)) {
        check_signal();
        sort_fail("cannot write %s: %s", name, strerror(errno));
    }
    int in = fileno(P->out), out = fileno(S->out);
    off_t at = 0, end = lseek(in, 0, SEEK_END);
    if (end < 0)
        sort_fail("cannot read '%s': %s", P->path, strerror(errno));
    while (at < end && copy_file_range(in, &at, out, NULL, (size_t)(end - at), 0) > 0)
        ;
    static char buf[1 << 20];
    while (at < end) { /* what copy_file_range would not copy (a pipe) */
        ssize_t got = pread(in, buf, sizeof buf, at);
        if (got <= 0)
            sort_fail("cannot read '%s': %s", P->path, got ? strerror(errno) : "it shrank");
        for (ssize_t put = 0, w; put < got; put += w)
            if ((w = write(out, buf + put, (size_t)(got - put))) < 0) {
                check_signal();
                sort_fail("cannot write %s: %s", name, strerror(errno));
            }
        at += got;
    }
}

static void finish_output(sorter *S)
{
    if (S->out == stdout)
        return;
    errno = 0;
    int bad = fflush(S->out) != 0 || ferror(S->out) || fsync(fileno(S->out)) != 0;
    bad |= fclose(S->out) != 0;
    S->out = NULL;
    if (bad)
        sort_fail("cannot write '%s': %s", S->o->out, strerror(errno ? errno : EIO));
    check_signal();
    if (rename(S->out_tmp, S->o->out))
        sort_fail("cannot rename the output into place as '%s': %s", S->o->out, strerror(errno));
}

static void setup(sorter *S)
{
    const sort_options *o = S->o;
    ordo_error e;
    S->fmt = o->fmt;
    if (ordo_schema_parse(o->schema, ORDO_FORMAT_ORDERED, &S->table, &e) != ORDO_OK)
        cli_fail("sort: --schema: %s", e.message);
    for (size_t c = 0; c < S->table.ncols; c++)
        if (S->table.cols[c].order_given)
            cli_fail("sort: --schema: column '%s': orders belong in --key", S->table.cols[c].name);
    /* the key spec checked before any input is read */
    ordo_schema key;
    if (ordo_schema_key(&S->table, o->key, S->fmt, &key, &e) != ORDO_OK)
        cli_fail("sort: --key: %s", e.message);
    ordo_schema_free(&key);
    ordo_status impl;
    ordo_impl_name(&impl);
    if (impl != ORDO_OK)
        cli_fail("sort: ORDO_IMPL: %s", ordo_status_message(impl));
}

int cmd_sort(int argc, char **argv)
{
    sort_options o;
    parse_args(argc, argv, &o);
    static char *stdin_only[] = {"-"};
    char **inputs = o.ninputs ? o.inputs : stdin_only;
    int n = o.ninputs ? o.ninputs : 1;
    sorter *S = cli_alloc(sizeof *S);
    memset(S, 0, sizeof *S);
    S->o = &o;
    setup(S);
    int *fds = cli_alloc((size_t)n * sizeof *fds);
    S->names = cli_alloc((size_t)n * sizeof *S->names);
    for (int i = 0; i < n; i++) {
        int is_stdin = !strcmp(inputs[i], "-");
        fds[i] = is_stdin ? 0 : open(inputs[i], O_RDONLY | O_CLOEXEC);
        if (fds[i] < 0)
            cli_fail("sort: cannot open '%s': %s", inputs[i], strerror(errno));
        S->names[i] = is_stdin ? "<stdin>" : inputs[i];
    }
    check_output(&o, fds, n);
    struct stat rs;
    if (o.runs && (stat(o.runs, &rs) || !S_ISDIR(rs.st_mode)))
        sort_refuse("--runs: '%s' is not a folder (name an existing one)", o.runs);

    /* A full disk fails a write instead of killing the process; signals end
     * the sort through the same cleanup as an error (no SA_RESTART: a
     * blocked read or write returns). */
    signal(SIGXFSZ, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGPIPE, &sa, NULL); /* (the write fails with EPIPE: check_signal) */
    atexit(cleanup);
    make_tmp(&o);

    ordo_error e;
    /* (0: the writer's default, which it shrinks when the system will not reserve it) */
    ordo_run_options ro = {o.runs ? o.runs : g_tmp, NULL, o.memory_default ? 0 : o.memory};
    if (ordo_run_writer_open(&ro, &S->runs, &e) != ORDO_OK)
        lib_fail(&e);
    for (int i = 0; i < n; i++) {
        read_input(S, (size_t)i, fds[i]);
        if (fds[i] > 0)
            close(fds[i]);
    }
    ordo_runs *runs = NULL;
    if (o.runs) { /* every run a file that stays, the last one too */
        if (ordo_run_writer_finish(S->runs, &e) != ORDO_OK)
            lib_fail(&e);
        size_t k = ordo_run_writer_files(S->runs);
        const char **paths = cli_alloc((k ? k : 1) * sizeof *paths);
        for (size_t i = 0; i < k; i++)
            paths[i] = ordo_run_writer_file(S->runs, i);
        if (ordo_runs_open(paths, k, &runs, &e) != ORDO_OK)
            lib_fail(&e);
        free(paths);
    } else if (ordo_run_writer_runs(S->runs, &runs, &e) != ORDO_OK) {
        lib_fail(&e);
    }
    check_signal();
    open_output(S);
    /* key ranges merged at once, one a thread, when every row is in memory
     * (fewer when they hold few keys: ordo_runs_merge_split_to) */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t nparts = (size_t)(o.threads < cpus ? o.threads : cpus);
    if (o.runs || ordo_run_writer_files(S->runs))
        nparts = 1;
    nparts = nparts < 1 ? 1 : nparts > PARTS_MAX ? PARTS_MAX : nparts;
    part *parts = cli_alloc(nparts * sizeof *parts);
    void **ctxs = cli_alloc(nparts * sizeof *ctxs);
    memset(parts, 0, nparts * sizeof *parts);
    for (size_t i = 0; i < nparts; i++) {
        parts[i].S = S, ctxs[i] = &parts[i];
        if (i)
            open_part(&parts[i], i);
    }
    parts[0].out = S->out;
    if (S->bom && !o.keys_only)
        out_write(&parts[0], "\xef\xbb\xbf", 3);
    if (o.header && S->header && !o.keys_only) {
        out_write(&parts[0], S->header, S->header_len);
        if (!S->header_len || S->header[S->header_len - 1] != '\n')
            out_write(&parts[0], "\n", 1);
    }
    part_check(&parts[0]);
    ordo_merge_options mo = {0};
    mo.tmp_dir = g_tmp;
    mo.memory = o.memory;
    mo.cancel = &g_signal;
    ordo_status ms = ordo_runs_merge_split_to(runs, &mo, emit, ctxs, nparts, &e);
    for (size_t i = 0; i < nparts; i++) /* the first failure in key order */
        part_check(&parts[i]);
    if (ms != ORDO_OK)
        lib_fail(&e);
    for (size_t i = 0; i < nparts; i++) {
        part *P = &parts[i];
        if (o.dup == DUP_LAST && P->have_prev)
            put_row(P, P->held_key, P->held_key_len, P->held, P->held_len);
        part_check(P);
        if (i) {
            append_part(S, P);
            fclose(P->out);
            unlinkat(g_tmp_fd, strrchr(P->path, '/') + 1, 0);
        }
        free(P->prev), free(P->held), free(P->held_key), free(P->path), free(P->hex);
    }
    free(parts), free(ctxs);
    ordo_runs_close(runs);
    ordo_run_writer_close(S->runs);
    check_signal();
    finish_output(S);
    cleanup();
    ordo_schema_free(&S->table);
    free(S->header), free(S->out_tmp);
    free(S->names), free(fds), free(o.inputs);
    free(S);
    return 0;
}
