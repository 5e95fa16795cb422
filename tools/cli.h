/* Shared helpers of the ordo tool's commands. */
#ifndef ORDO_CLI_H
#define ORDO_CLI_H

#include "ordo.h"
#include "ordo_ingest.h"
#include "options.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* Exit status of every usage or input error. */
#define CLI_EXIT_BAD_INPUT 2
/* Exit status of a failure of the machine: out of memory, a write error on
 * standard output. */
#define CLI_EXIT_MACHINE 1

/* Prints "ordo: <message>" on stderr and exits with status 2 (1 when
 * standard output, flushed first, had a write error: both are reported). */
void cli_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* The same without the "ordo: " prefix, for "FILE:LINE:COLUMN: message". */
void cli_fail_plain(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* Flushes standard output; a write error (now or earlier) prints "ordo: write
 * error on standard output: REASON" and exits with status 1. The one rule
 * for every command: main calls it when a command returns. */
void cli_flush_stdout(void);
/* The same message and status after a failed write; uses errno. */
void cli_write_error(void) __attribute__((noreturn));
/* Allocates or exits with a message (the tool, unlike the library, may allocate). */
void *cli_alloc(size_t n);
/* p grown (doubling *cap, at least min_cap) to hold need bytes; exits when
 * out of memory. */
void *cli_grow(void *p, size_t *cap, size_t need, size_t min_cap);
/* Decodes a key argument of option `what`, hex or its JSON form ("0a1b",
 * null), or fails naming it. *out is malloc'd (never NULL); *len its length. */
void cli_hex_arg(const char *what, const char *text, uint8_t **out, size_t *len);
/* Writes the key as lowercase hex, then `end` (a newline or a space). */
void cli_print_hex(const void *key, size_t n, char end);
/* Writes the key as lowercase hex, or with json as its JSON form ("0a1b";
 * "" for the empty key), then the text `end`. */
void cli_print_key(const void *key, size_t n, int json, const char *end);
/* --output of a command printing keys: 1 for json, 0 for hex; anything
 * else fails naming cmd. */
int cli_output_json(const char *cmd, const char *output);
/* "ordo: out of memory" and exit status 1. */
void cli_out_of_memory(void) __attribute__((noreturn));
/* opt_parse, or the command's message about its arguments and exit status
 * 2 (cli_fail). */
int cli_options(const opt_spec *s, int argc, char **argv, char **pos);
/* The tool's usage (ordo.c): every command's synopsis. */
extern const char cli_usage[];
/* A command's --help on stdout, exit status 0: its usage, or (NULL) its
 * lines of the tool's. */
void cli_help(const char *cmd, const char *usage) __attribute__((noreturn));
/* Of the n names, the one a mistyped word most likely meant (at most two
 * edits away, and fewer than its length), or NULL. */
const char *cli_nearest(const char *word, const char *const *names, size_t n);
/* A --tag value: 0 to 254 in one to three decimal digits, nothing else
 * (atoi and strtoul also take spaces and signs), or fails with "CMD: OPTION:
 * expected 0 to 254, got 'VALUE'". */
int cli_tag(const char *cmd, const char *option, const char *value);
/* A command's usage and what --memory is by default here (dflt, the run
 * writer's), in buf. */
const char *cli_memory_usage(char *buf, size_t cap, const char *usage, uint64_t dflt);
/* The format named by --format; the library's message otherwise. */
ordo_format cli_format(const char *cmd, const char *name);
/* Room for the positional arguments of argc arguments (cli_alloc). */
char **cli_positional(int argc);
/* An error of the libraries as "FILE:LINE:COLUMN: message" (without the
 * parts it lacks); a static buffer. */
const char *cli_where(const ordo_error *e);

/* ordo bench --sweep (tools/cmd_bench_sweep.c): cmd_bench once per size,
 * 64 rows to `rows` in steps of 4x, --batch capped at `batch` (0: none). */
int cli_bench_sweep(int argc, char **argv, size_t rows, size_t batch);

int cmd_encode(int argc, char **argv);
int cmd_pk(int argc, char **argv);
int cmd_range(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
/* ordo encode --schema: CSV from path ("-" = stdin) to keys on stdout;
 * threads > 1 parses and encodes in that many workers; a row not ended
 * after max_row bytes is an error. */
int encode_csv(const char *format, const char *schema, const char *key, int header,
               const char *output, const char *path, int threads, size_t max_row);
int cmd_load(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_sort(int argc, char **argv);
int cmd_tables(int argc, char **argv);

/* In a variadic function whose last named parameter is fmt: the message
 * formatted into a buffer of its own, then end(code, plain, msg), which does
 * not return (the commands' fail/refuse helpers). */
#define CLI_END_WITH(end, code, plain)                                                             \
    do {                                                                                           \
        char msg[4096];                                                                            \
        va_list ap;                                                                                \
        va_start(ap, fmt);                                                                         \
        vsnprintf(msg, sizeof msg, fmt, ap);                                                       \
        va_end(ap);                                                                                \
        end(code, plain, msg);                                                                     \
    } while (0)

#endif
