/* The ordo tool's option parser (tools/options.c) on its own: the table's
 * kinds, the positional arguments, and each command's wording of errors. */
#include "ordo_test.h"

#include "options.h"

static char calls[256];

/* An OPT_CALL conversion: records "NAME=VALUE;" in the order of the calls. */
static void record(void *dst, const char *name, const char *value)
{
    ++*(int *)dst;
    size_t n = strlen(calls);
    snprintf(calls + n, sizeof calls - n, "%s=%s;", name, value);
}

typedef struct parsed {
    const char *s1, *s2;
    int f1, f2, called;
} parsed;

/* Parses the NULL-ended arguments (argv[0] is the command) with spec's
 * flags, positional rule and wording; returns the count or -1 with
 * *message (malloc'd) set. */
static int parse(opt_positional positional, unsigned flags, const char *usage, const char **args,
                 parsed *p, char **pos, char **message)
{
    memset(p, 0, sizeof *p);
    calls[0] = 0;
    const opt opts[] = {
        {"--s1", OPT_STRING, &p->s1, NULL}, {"--s2", OPT_STRING, &p->s2, NULL},
        {"--f1", OPT_FLAG, &p->f1, NULL},   {"--f2", OPT_FLAG, &p->f2, NULL},
        {"--c", OPT_CALL, &p->called, record},
    };
    const opt_spec spec = {"cmd", usage, positional == OPT_POS_NONE ? "unknown argument"
                                                                      : "unknown option",
                           positional, flags, opts, sizeof opts / sizeof opts[0]};
    int argc = 0;
    while (args[argc])
        argc++;
    opt_error err;
    int n = opt_parse(&spec, argc, (char **)args, pos, &err);
    *message = NULL;
    if (n < 0) {
        assert_int_not_equal(err.kind, OPT_ERR_NONE);
        *message = opt_message(&spec, &err);
        assert_non_null(*message);
    } else {
        assert_int_equal(err.kind, OPT_ERR_NONE);
    }
    return n;
}

/* Expects parsing to fail with exactly the message `want`. */
static void fails(opt_positional positional, unsigned flags, const char *usage, const char **args,
                  const char *want)
{
    parsed p;
    char *pos[16], *message;
    assert_int_equal(parse(positional, flags, usage, args, &p, pos, &message), -1);
    assert_string_equal(message, want);
    free(message);
}

static void kinds_and_positionals(void **state)
{
    (void)state;
    parsed p;
    char *pos[16], *m;
    const char *a[] = {"cmd", "x", "--s1", "one", "-", "--f2", "--c", "7", "-y",
                       "--s1", "--f1", "--c", "8", "", NULL};
    assert_int_equal(parse(OPT_POS_NOT_LONG, 0, NULL, a, &p, pos, &m), 4);
    assert_string_equal(pos[0], "x");
    assert_string_equal(pos[1], "-");
    assert_string_equal(pos[2], "-y");
    assert_string_equal(pos[3], "");
    assert_string_equal(p.s1, "--f1"); /* the last one wins; a value may start with "--" */
    assert_null(p.s2);
    assert_int_equal(p.f1, 0);
    assert_int_equal(p.f2, 1);
    assert_int_equal(p.called, 2);
    assert_string_equal(calls, "--c=7;--c=8;");

    /* OPT_POS_NOT_DASH: "-" and "" are positional, "-y" is not */
    const char *b[] = {"cmd", "-", "", "in.csv", NULL};
    assert_int_equal(parse(OPT_POS_NOT_DASH, 0, NULL, b, &p, pos, &m), 3);
    assert_string_equal(pos[2], "in.csv");
    const char *c[] = {"cmd", "-y", NULL};
    fails(OPT_POS_NOT_DASH, 0, "usage: cmd", c, "cmd: unknown option '-y'\nusage: cmd");

    /* OPT_POS_NONE: every other argument is unknown */
    const char *d[] = {"cmd", "--f1", "x", NULL};
    fails(OPT_POS_NONE, 0, NULL, d, "cmd: unknown argument 'x'");
    const char *e[] = {"cmd", NULL};
    assert_int_equal(parse(OPT_POS_NONE, 0, NULL, e, &p, NULL, &m), 0);
}

static void equals_form(void **state)
{
    (void)state;
    parsed p;
    char *pos[16], *m;
    const char *a[] = {"cmd", "--s1=a=b", "--s2=", "--c=9", NULL};
    assert_int_equal(parse(OPT_POS_NONE, OPT_EQUALS, NULL, a, &p, NULL, &m), 0);
    assert_string_equal(p.s1, "a=b");
    assert_string_equal(p.s2, "");
    assert_string_equal(calls, "--c=9;"); /* the option's name, not the argument */
    /* without OPT_EQUALS, or on a flag, or a longer name: unknown */
    const char *b[] = {"cmd", "--s1=a", NULL};
    fails(OPT_POS_NONE, 0, NULL, b, "cmd: unknown argument '--s1=a'");
    const char *c[] = {"cmd", "--f1=1", NULL};
    fails(OPT_POS_NOT_LONG, OPT_EQUALS, NULL, c, "cmd: unknown option '--f1=1'");
    const char *d[] = {"cmd", "--s1x", "v", NULL};
    fails(OPT_POS_NOT_LONG, OPT_EQUALS, NULL, d, "cmd: unknown option '--s1x'");
    const char *e[] = {"cmd", "--s", "v", NULL};
    fails(OPT_POS_NOT_LONG, OPT_EQUALS, NULL, e, "cmd: unknown option '--s'");
    (void)pos;
}

static void double_dash(void **state)
{
    (void)state;
    parsed p;
    char *pos[16], *m;
    const char *a[] = {"cmd", "--f1", "--", "--f2", "--", "x", NULL};
    assert_int_equal(parse(OPT_POS_NOT_LONG, OPT_DOUBLE_DASH, NULL, a, &p, pos, &m), 3);
    assert_string_equal(pos[0], "--f2");
    assert_string_equal(pos[1], "--");
    assert_string_equal(pos[2], "x");
    assert_int_equal(p.f1, 1);
    assert_int_equal(p.f2, 0);
    const char *b[] = {"cmd", "--", NULL};
    fails(OPT_POS_NOT_LONG, 0, NULL, b, "cmd: unknown option '--'");
}

static void missing_values(void **state)
{
    (void)state;
    const char *a[] = {"cmd", "--f1", "--s1", NULL};
    fails(OPT_POS_NONE, 0, NULL, a, "cmd: --s1 needs a value");
    fails(OPT_POS_NONE, 0, "usage: cmd --s1 X", a, "cmd: --s1 needs a value\nusage: cmd --s1 X");
    fails(OPT_POS_NONE, OPT_EQUALS | OPT_NEEDS_BARE, NULL, a, "--s1 needs a value");
    fails(OPT_POS_NOT_LONG, OPT_EQUALS | OPT_MISSING_UNKNOWN, NULL, a, "cmd: unknown option '--s1'");
    const char *b[] = {"cmd", "--c", NULL};
    fails(OPT_POS_NONE, 0, NULL, b, "cmd: --c needs a value");
    assert_string_equal(calls, "");
}

/* Parsing stops at the first bad argument: nothing after it is read. */
static void first_error_wins(void **state)
{
    (void)state;
    const char *a[] = {"cmd", "--c", "1", "--bad", "--c", "2", NULL};
    fails(OPT_POS_NONE, 0, NULL, a, "cmd: unknown argument '--bad'");
    assert_string_equal(calls, "--c=1;");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kinds_and_positionals), cmocka_unit_test(equals_form),
        cmocka_unit_test(double_dash),           cmocka_unit_test(missing_values),
        cmocka_unit_test(first_error_wins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
