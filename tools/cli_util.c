#include "cli.h"

#include <ordo_load.h> /* ORDO_TAG_MAX, ordo_tag_valid (inline) */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 0 when everything written to stdout so far reached it, else the errno of
 * the failure (EIO when the stream only kept its error flag). */
static int stdout_error(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    return errno ? errno : EIO;
}

static void write_error(int e) __attribute__((noreturn));
static void write_error(int e)
{
    fprintf(stderr, "ordo: write error on standard output: %s\n", strerror(e));
    exit(CLI_EXIT_MACHINE);
}

void cli_write_error(void) { write_error(errno ? errno : EIO); }

void cli_flush_stdout(void)
{
    int e = stdout_error();
    if (e)
        write_error(e);
}

/* cli_fail's end, once its message is out: status 2, or the write error e
 * that stdout_error found before the message, reported too, whose status
 * wins: the output before the bad input did not all arrive. */
static void fail_exit(int e) __attribute__((noreturn));
static void fail_exit(int e)
{
    fputc('\n', stderr);
    if (e)
        write_error(e);
    exit(CLI_EXIT_BAD_INPUT);
}

/* stdout is flushed before the message so that what it holds comes first. */
void cli_fail(const char *fmt, ...)
{
    int e = stdout_error();
    va_list ap;
    fputs("ordo: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fail_exit(e);
}

void cli_fail_plain(const char *fmt, ...)
{
    int e = stdout_error();
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fail_exit(e);
}

void *cli_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("ordo: out of memory\n", stderr);
        exit(CLI_EXIT_MACHINE);
    }
    return p;
}

void *cli_grow(void *p, size_t *cap, size_t need, size_t min_cap)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : min_cap;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c);
    if (!q) { /* a failure of the machine, as in cli_alloc */
        fputs("ordo: out of memory\n", stderr);
        exit(CLI_EXIT_MACHINE);
    }
    *cap = c;
    return q;
}

/* A key argument is JSON (SPEC.md §9) when its first character other than
 * JSON whitespace is a quote, or when it is the word null: hex never holds
 * either, so both forms are accepted everywhere without an option. */
static int is_json_key(const char *text)
{
    while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
        text++;
    if (*text == '"')
        return 1;
    size_t n = strlen(text);
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\n' ||
                 text[n - 1] == '\r'))
        n--;
    return n == 4 && !memcmp(text, "null", 4);
}

void cli_hex_arg(const char *what, const char *text, uint8_t **out, size_t *len)
{
    size_t n = strlen(text), pos = 0;
    *out = cli_alloc(n / 2 + 1);
    if (is_json_key(text)) {
        ordo_status s = ordo_json_decode(text, n, *out, n / 2 + 1, len);
        if (s == ORDO_ERR_BAD_JSON)
            cli_fail("%s: not a JSON string of hex digits or null: '%s'", what, text);
        if (s != ORDO_OK)
            cli_fail("%s: %s in '%s'", what, ordo_status_message(s), text);
        return;
    }
    ordo_status s = ordo_hex_decode(text, n, *out, n / 2 + 1, len, &pos);
    if (s == ORDO_ERR_BAD_HEX_CHAR)
        cli_fail("%s: invalid hex character at offset %zu in '%s'", what, pos, text);
    if (s != ORDO_OK)
        cli_fail("%s: %s in '%s'", what, ordo_status_message(s), text);
}

void cli_print_hex(const void *key, size_t n, char end)
{
    char *text = cli_alloc(2 * n + 1);
    size_t len = 0;
    ordo_hex_encode(key, n, text, 2 * n, &len);
    text[len] = end;
    fwrite(text, 1, len + 1, stdout);
    free(text);
}

void cli_print_key(const void *key, size_t n, int json, const char *end)
{
    char *text = cli_alloc(2 * n + 2);
    size_t len = 0;
    if (json)
        ordo_json_encode(key, n, text, 2 * n + 2, &len);
    else
        ordo_hex_encode(key, n, text, 2 * n, &len);
    fwrite(text, 1, len, stdout);
    fputs(end, stdout);
    free(text);
}

int cli_output_json(const char *cmd, const char *output)
{
    if (!strcmp(output, "json"))
        return 1;
    if (strcmp(output, "hex"))
        cli_fail("%s: --output: expected hex or json, got '%s'", cmd, output);
    return 0;
}

void cli_out_of_memory(void)
{
    fputs("ordo: out of memory\n", stderr);
    exit(CLI_EXIT_MACHINE);
}

const char *cli_where(const ordo_error *e)
{
    static char text[sizeof e->message + 1200];
    const char *file = e->file ? e->file : "<input>";
    if (e->line && e->column)
        snprintf(text, sizeof text, "%.1024s:%llu:%llu: %s", file, (unsigned long long)e->line,
                 (unsigned long long)e->column, e->message);
    else if (e->line)
        snprintf(text, sizeof text, "%.1024s:%llu: %s", file, (unsigned long long)e->line,
                 e->message);
    else
        snprintf(text, sizeof text, "%.1024s: %s", file, e->message);
    return text;
}

const char *cli_nearest(const char *word, const char *const *names, size_t n)
{
    enum { MAX = 64 };
    size_t wl = strlen(word), best = 3;
    const char *near = NULL;
    if (wl >= MAX)
        return NULL;
    for (size_t k = 0; k < n; k++) { /* Levenshtein distance, one row at a time */
        size_t nl = strlen(names[k]), row[MAX + 1];
        if (nl >= MAX)
            continue;
        for (size_t j = 0; j <= nl; j++)
            row[j] = j;
        for (size_t i = 1; i <= wl; i++) {
            size_t diag = row[0];
            row[0] = i;
            for (size_t j = 1; j <= nl; j++) {
                size_t up = row[j], d = diag + (word[i - 1] != names[k][j - 1]);
                if (up + 1 < d)
                    d = up + 1;
                if (row[j - 1] + 1 < d)
                    d = row[j - 1] + 1;
                row[j] = d, diag = up;
            }
        }
        if (row[nl] < best && row[nl] < wl) /* "x" is no typo of "-h" */
            best = row[nl], near = names[k];
    }
    return near;
}

void cli_help(const char *cmd, const char *usage)
{
    if (usage) {
        printf("%s\n", usage);
    } else {
        size_t n = strlen(cmd);
        int in = 0;
        fputs("usage:\n", stdout);
        for (const char *l = cli_usage; *l;) {
            const char *end = strchr(l, '\n');
            size_t len = end ? (size_t)(end - l) : strlen(l);
            if (len > 2 && l[0] == ' ' && l[1] == ' ' && l[2] != ' ') /* a command's first line */
                in = !strncmp(l + 2, cmd, n) && (l[2 + n] == ' ' || l[2 + n] == '\n');
            if (in && l[2] != ' ')
                printf("  ordo %.*s\n", (int)len - 2, l + 2);
            else if (in) /* a continuation: as far right as the first line went */
                printf("     %.*s\n", (int)len, l);
            l += len + (end != NULL);
        }
    }
    cli_flush_stdout();
    exit(0);
}

int cli_options(const opt_spec *s, int argc, char **argv, char **pos)
{
    opt_error err;
    int n = opt_parse(s, argc, argv, pos, &err);
    if (n >= 0)
        return n;
    if (err.kind == OPT_ERR_HELP)
        cli_help(s->cmd, s->usage);
    if (err.kind == OPT_ERR_UNKNOWN && err.arg[0] == '-') {
        const char *names[64];
        size_t k = 0;
        for (; k < s->nopts && k < 64; k++)
            names[k] = s->opts[k].name;
        const char *near = cli_nearest(err.arg, names, k);
        if (near)
            cli_fail("%s: %s '%s' (did you mean '%s'?)", s->cmd, s->unknown, err.arg, near);
    }
    static char *text; /* reachable until the exit */
    text = opt_message(s, &err);
    if (!text)
        cli_out_of_memory();
    cli_fail("%s", text);
}

int cli_tag(const char *cmd, const char *option, const char *value)
{
    size_t n = strspn(value, "0123456789");
    int tag = n && n <= 3 && !value[n] ? atoi(value) : ORDO_TAG_MAX + 1;
    if (!ordo_tag_valid(tag)) /* (digits: never ORDO_UNTAGGED) */
        cli_fail("%s: %s: expected 0 to 254, got '%s'", cmd, option, value);
    return tag;
}

const char *cli_memory_usage(char *buf, size_t cap, const char *usage, uint64_t dflt)
{
    snprintf(buf, cap, "%s\n  (--memory by default: %lluM here, a quarter of the memory this "
             "process may use, at least 256M)", usage, (unsigned long long)(dflt >> 20));
    return buf;
}

ordo_format cli_format(const char *cmd, const char *name)
{
    ordo_format f;
    ordo_error e;
    if (ordo_format_parse(name, &f, &e) != ORDO_OK)
        cli_fail("%s: --%s", cmd, e.message); /* "format: ..." */
    return f;
}

char **cli_positional(int argc) { return cli_alloc(sizeof(char *) * (size_t)(argc > 0 ? argc : 1)); }
