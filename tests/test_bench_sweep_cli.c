/* Issue #18 item 5: `ordo bench --sweep --json` is the series bench/plot.sh
 * charts: one well-formed JSON object per line, one line per size (64, 256,
 * 1024, ... up to --rows), each with the fields the plots read and a result
 * for every implementation asked for plus memcpy. The text form and
 * --batch are checked too, and that the options it adds leave a plain
 * `--json` run as it was (one line, no sweep). */
#include "ordo_test.h"
#include "tool_run.h"

#define TOOL ORDO_TOOL_PATH

/* A JSON value at *p (RFC 8259 grammar, enough to reject anything
 * malformed: objects, arrays, strings with escapes, numbers, literals);
 * 1 and *p past it, or 0. */
static void ws(const char **p)
{
    while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
        (*p)++;
}

static int value(const char **p);

static int string(const char **p)
{
    if (**p != '"')
        return 0;
    for ((*p)++; **p != '"'; (*p)++) {
        if ((unsigned char)**p < 0x20)
            return 0;
        if (**p == '\\') {
            (*p)++;
            if (!strchr("\"\\/bfnrtu", **p) || !**p)
                return 0;
        }
    }
    (*p)++;
    return 1;
}

static int number(const char **p)
{
    const char *s = *p;
    if (**p == '-')
        (*p)++;
    if (**p == '0')
        (*p)++;
    else if (**p >= '1' && **p <= '9')
        while (**p >= '0' && **p <= '9')
            (*p)++;
    else
        return 0;
    if (**p == '.') {
        (*p)++;
        if (**p < '0' || **p > '9')
            return 0;
        while (**p >= '0' && **p <= '9')
            (*p)++;
    }
    if (**p == 'e' || **p == 'E') {
        (*p)++;
        if (**p == '+' || **p == '-')
            (*p)++;
        if (**p < '0' || **p > '9')
            return 0;
        while (**p >= '0' && **p <= '9')
            (*p)++;
    }
    return *p > s;
}

static int value(const char **p)
{
    ws(p);
    if (**p == '{' || **p == '[') {
        char close = **p == '{' ? '}' : ']';
        int obj = **p == '{';
        (*p)++;
        ws(p);
        if (**p == close) {
            (*p)++;
            return 1;
        }
        for (;;) {
            if (obj) {
                ws(p);
                if (!string(p))
                    return 0;
                ws(p);
                if (*(*p)++ != ':')
                    return 0;
            }
            if (!value(p))
                return 0;
            ws(p);
            if (**p == close) {
                (*p)++;
                return 1;
            }
            if (*(*p)++ != ',')
                return 0;
        }
    }
    if (**p == '"')
        return string(p);
    for (const char *const *w = (const char *const[]){"true", "false", "null", NULL}; *w; w++)
        if (!strncmp(*p, *w, strlen(*w))) {
            *p += strlen(*w);
            return 1;
        }
    return number(p);
}

/* The number after "key": in line (a JSON object on one line); -1 if none. */
static double field(const char *line, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *at = strstr(line, pat);
    return at ? strtod(at + strlen(pat), NULL) : -1;
}

static void sweep_json(void **state)
{
    (void)state;
    tool_result r;
    tool_run(TOOL, (const char *const[]){"ordo", "bench", "--schema", "a bigint, s text", "--rows",
                                         "1000", "--sweep", "--json", "--impl", "scalar", NULL},
             NULL, &r);
    if (r.status != 0)
        fail_msg("status %d, err '%s'", r.status, r.err);
    static const double sizes[] = {64, 256, 1000};
    size_t lines = 0;
    for (char *line = r.out, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        assert_non_null(nl); /* every line ends */
        *nl = 0;
        const char *p = line;
        if (!value(&p) || (ws(&p), *p))
            fail_msg("line %zu is not one JSON value: '%s'", lines + 1, line);
        assert_true(line[0] == '{');
        assert_true(lines < 3);
        assert_true(field(line, "rows") == sizes[lines]);
        assert_true(field(line, "batch") == sizes[lines]);
        assert_true(field(line, "key_bytes") > 0);
        assert_non_null(strstr(line, "\"schema\": \"a bigint, s text\""));
        assert_non_null(strstr(line, "\"format\": \"lexkey\""));
        const char *sc = strstr(line, "{\"impl\": \"scalar\"");
        const char *mc = strstr(line, "{\"impl\": \"memcpy\"");
        assert_non_null(sc);
        assert_non_null(mc);
        assert_true(field(sc, "rows_per_s") > 0 && field(mc, "rows_per_s") > 0);
        assert_true(field(mc, "bytes_per_s") > 0);
        lines++;
    }
    assert_int_equal(lines, 3);
    /* malformed text is refused by the checker (it can fail) */
    const char *bad[] = {"{\"a\": 1,}", "{\"a\" 1}", "[1 2]", "{\"a\": 01}", "\"x", "{\"a\": -}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *p = bad[i];
        assert_false(value(&p) && (ws(&p), !*p));
    }
}

static void sweep_text_and_batch(void **state)
{
    (void)state;
    tool_result r;
    tool_run(TOOL, (const char *const[]){"ordo", "bench", "--schema", "a int", "--rows=300",
                                         "--batch=100", "--sweep", "--impl", "scalar", NULL},
             NULL, &r);
    assert_int_equal(r.status, 0);
    /* three blocks: 64 rows in one batch of 64, 256 and 300 in batches of 100 */
    assert_non_null(strstr(r.out, "rows: 64  batch: 64 "));
    assert_non_null(strstr(r.out, "\n\nschema: a int\nformat: lexkey  rows: 256  batch: 100 "));
    assert_non_null(strstr(r.out, "\n\nschema: a int\nformat: lexkey  rows: 300  batch: 100 "));
    /* without --sweep: one run, one line */
    tool_run(TOOL, (const char *const[]){"ordo", "bench", "--schema", "a int", "--rows", "300",
                                         "--json", "--impl", "scalar", NULL},
             NULL, &r);
    assert_int_equal(r.status, 0);
    char *nl = strchr(r.out, '\n');
    assert_non_null(nl);
    assert_true(nl[1] == 0);
    assert_true(field(r.out, "rows") == 300);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sweep_json),
        cmocka_unit_test(sweep_text_and_batch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
