/* The key spec of the PostgreSQL extension's ordo_key(spec, ...) (pg/spec.c):
 * one order per value, PostgreSQL's defaults, and a message for each kind of
 * bad spec. In-process, so the sanitizer build checks it too. */
#include "ordo_test.h"

#include "spec.h"

static int parse(const char *spec, size_t n, ordo_order *o, char *err)
{
    return ordo_pg_parse_spec(spec, strlen(spec), n, o, err, 256);
}

static void orders(void **state)
{
    (void)state;
    ordo_order o[4];
    char err[256];
    assert_true(parse("", 3, o, err));
    for (int i = 0; i < 3; i++)
        assert_int_equal(o[i], ORDO_ASC_NULLS_LAST);
    assert_true(parse(" \t\n", 2, o, err));
    assert_int_equal(o[1], ORDO_ASC_NULLS_LAST);
    assert_true(parse("DESC, asc nulls first,Desc Nulls Last,  ASC  ", 4, o, err));
    assert_int_equal(o[0], ORDO_DESC_NULLS_FIRST); /* PostgreSQL: DESC is NULLS FIRST */
    assert_int_equal(o[1], ORDO_ASC_NULLS_FIRST);
    assert_int_equal(o[2], ORDO_DESC_NULLS_LAST);
    assert_int_equal(o[3], ORDO_ASC_NULLS_LAST);
    assert_true(parse("NULLS FIRST, nulls last", 2, o, err)); /* the direction is optional */
    assert_int_equal(o[0], ORDO_ASC_NULLS_FIRST);
    assert_int_equal(o[1], ORDO_ASC_NULLS_LAST);
    /* no NUL needed: the length bounds the spec */
    assert_true(ordo_pg_parse_spec("DESCxyz", 4, 1, o, err, sizeof err));
    assert_int_equal(o[0], ORDO_DESC_NULLS_FIRST);
}

static void bad_specs(void **state)
{
    (void)state;
    static const struct {
        const char *spec;
        size_t n;
        const char *want;
    } cases[] = {
        {"DESX", 1, "item 1 ('DESX'): expected [ASC|DESC] [NULLS FIRST|NULLS LAST], not 'desx'"},
        {"ASC, DESC DESC", 2,
         "item 2 (' DESC DESC'): expected [ASC|DESC] [NULLS FIRST|NULLS LAST], not 'desc'"},
        {"ASC NULLS", 1, "item 1 ('ASC NULLS'): NULLS must be followed by FIRST or LAST"},
        {"ASC NULLS MIDDLE", 1, "NULLS must be followed by FIRST or LAST"},
        {"ASC NULLS FIRST LAST", 1, "not 'last'"},
        {"ASC,", 1, "item 2 is empty (write ASC for the default order)"},
        {",ASC", 2, "item 1 is empty"},
        {"ASC, DESC", 1, "1 value but more orders than that"},
        {"ASC", 2, "2 values but 1 order (give one per value, or none)"},
        {"ASC, ASC", 3, "3 values but 2 orders"},
        {"averyveryverylongword", 1, "not 'averyveryverylo'"}, /* a word is cut, never overrun */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ordo_order o[4];
        char err[256] = "";
        if (parse(cases[i].spec, cases[i].n, o, err))
            fail_msg("'%s' parsed", cases[i].spec);
        if (!strstr(err, cases[i].want))
            fail_msg("'%s': message '%s', want '%s'", cases[i].spec, err, cases[i].want);
    }
    /* a short message buffer is cut, never overrun */
    ordo_order o[1];
    char small[8];
    assert_false(ordo_pg_parse_spec("DESX", 4, 1, o, small, sizeof small));
    assert_int_equal(strlen(small), sizeof small - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(orders),
        cmocka_unit_test(bad_specs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
