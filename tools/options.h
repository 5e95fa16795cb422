/* One table-driven parser for the arguments of every command of the ordo
 * tool: a table of options (name, kind, destination), the positional
 * arguments collected, and the errors worded as each command words them. */
#ifndef ORDO_OPTIONS_H
#define ORDO_OPTIONS_H

#include <stddef.h>

typedef enum opt_kind {
    OPT_FLAG,   /* --name: *(int *)dst = 1 */
    OPT_STRING, /* --name VALUE: *(const char **)dst = VALUE */
    OPT_CALL,   /* --name VALUE: call(dst, name, VALUE), as it is read */
} opt_kind;

typedef struct opt {
    const char *name; /* with its dashes: "--db" */
    opt_kind kind;
    void *dst;
    /* OPT_CALL: converts the value into dst, or fails (cli_fail) */
    void (*call)(void *dst, const char *name, const char *value);
} opt;

/* Which arguments that are not options are positional; the others are
 * unknown. */
typedef enum opt_positional {
    OPT_POS_NONE,     /* none (pk, range, bench, scan) */
    OPT_POS_NOT_LONG, /* those not starting with "--" (encode, decode) */
    OPT_POS_NOT_DASH, /* "-" and those not starting with '-' (load) */
} opt_positional;

enum {
    OPT_EQUALS = 1u,          /* --name=VALUE as well as --name VALUE */
    OPT_DOUBLE_DASH = 2u,     /* "--" ends the options */
    OPT_MISSING_UNKNOWN = 4u, /* an option missing its value is unknown */
    OPT_NEEDS_BARE = 8u,      /* "--name needs a value", without the command */
};

typedef struct opt_spec {
    const char *cmd;     /* the command's name, which begins its messages */
    const char *usage;   /* NULL, or appended to the messages after a newline */
    const char *unknown; /* "unknown option" or "unknown argument" */
    opt_positional positional;
    unsigned flags; /* OPT_EQUALS ... */
    const opt *opts;
    size_t nopts;
} opt_spec;

/* OPT_ERR_HELP: --help (or -h where it is no positional), unless an option
 * has that name. */
typedef enum opt_error_kind {
    OPT_ERR_NONE,
    OPT_ERR_UNKNOWN,
    OPT_ERR_NEEDS_VALUE,
    OPT_ERR_HELP
} opt_error_kind;

typedef struct opt_error {
    opt_error_kind kind;
    const char *arg; /* the argument at fault */
} opt_error;

/* Parses argv[1 .. argc-1] by the table, in order (the last of an option
 * repeated wins); the positional arguments go to pos (room for argc
 * entries; NULL with OPT_POS_NONE). Returns their number, or -1 with *err
 * set at the first bad argument. */
int opt_parse(const opt_spec *s, int argc, char **argv, char **pos, opt_error *err);

/* The message of err as the command prints it (after "ordo: "): malloc'd,
 * NULL when out of memory. */
char *opt_message(const opt_spec *s, const opt_error *err);

#endif
