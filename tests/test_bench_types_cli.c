/* `ordo bench` over data shaped like users' data: a schema with every type
 * a format accepts (dates and times in PostgreSQL's ranges, valid inet,
 * numeric, records, ranges and arrays), with and without NULLs, exits 0
 * with every implementation's keys identical to the scalar reference's
 * (ordo bench checks before timing, and fails naming the row and column
 * otherwise), and lists every implementation, however many. */
#include "ordo_test.h"
#include "tool_run.h"

#define TOOL ORDO_TOOL_PATH

/* Every type of the ordered format, nested ones included. */
static const char *ordered_schema =
    "b boolean, i1 tinyint, i2 smallint, i4 integer, i8 bigint, h hugeint, u1 utinyint, "
    "u2 usmallint, u4 uinteger, u8 ubigint, r real, d double precision, n numeric, t text, "
    "c char(4), y bytea, id uuid, dt date, tm time, tz timetz, ts timestamp, tt timestamptz, "
    "iv interval, ip inet, net cidr, m macaddr, m8 macaddr8, l pg_lsn, e enum('lo','mid','hi'), "
    "bt bit(8), vb varbit, rec record(a int, s text, w date, x numeric, v int[], q record(z inet)), "
    "r4 int4range, r8 int8range, rn numrange, rd daterange, rs tsrange, rt tstzrange, "
    "ai integer[], at text[], az timestamptz[], an numeric[], ab boolean[] DESC";

/* Every fixed-width type (the packed format's). */
static const char *packed_schema =
    "b boolean, i1 tinyint, i2 smallint, i4 integer, i8 bigint DESC, h hugeint, u1 utinyint, "
    "u2 usmallint, u4 uinteger, u8 ubigint, r real, d double precision, id uuid, dt date, "
    "tm time, tz timetz, ts timestamp, tt timestamptz DESC, iv interval, m macaddr, m8 macaddr8, "
    "l pg_lsn, e enum('lo','mid','hi')";

/* Every type of the LexKey format. */
static const char *lexkey_schema =
    "b boolean, i1 tinyint, i2 smallint, i4 integer, i8 bigint, u1 utinyint, u2 usmallint, "
    "u4 uinteger, u8 ubigint, r real, d double precision, t text, y bytea, id uuid, dt date, "
    "ts timestamp, tt timestamptz";

/* A line of r's output starting with name and a space. */
static int lists(const tool_result *r, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = r->out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (!strncmp(p, name, n) && p[n] == ' ')
            return 1;
    return 0;
}

/* The key bytes an output reports. */
static unsigned long long key_bytes(const tool_result *r)
{
    const char *p = strstr(r->out, "key bytes: ");
    if (!p)
        fail_msg("no key bytes in '%s'", r->out);
    return strtoull(p + 11, NULL, 10);
}

static void bench(const char *format, const char *schema, const char *nulls, const char *impls,
                  tool_result *r)
{
    const char *argv[16] = {"ordo", "bench", "--format", format, "--schema", schema, "--rows", "300"};
    int n = 8;
    if (nulls)
        argv[n++] = "--nulls", argv[n++] = nulls;
    if (impls)
        argv[n++] = "--impl", argv[n++] = impls;
    argv[n] = NULL;
    tool_run(TOOL, argv, NULL, r);
    if (r->status != 0)
        fail_msg("--format %s --nulls %s: status %d, err '%s'", format, nulls ? nulls : "-", r->status,
                 r->err);
    if (strstr(r->err, "differ"))
        fail_msg("--format %s: '%s'", format, r->err);
}

/* Every implementation this CPU runs is listed (each passed the identity
 * check to be timed), and memcpy. */
static void every_impl_listed(const tool_result *r)
{
    const char *name;
    ordo_status st;
    for (size_t i = 0; (name = ordo_impl_at(i, &st)) != NULL; i++)
        if (st == ORDO_OK && !lists(r, name))
            fail_msg("%s not listed in '%s'", name, r->out);
    assert_true(lists(r, "memcpy"));
}

static void every_type_ordered(void **state)
{
    (void)state;
    static tool_result r, rn;
    bench("ordered", ordered_schema, NULL, NULL, &r);
    every_impl_listed(&r);
    bench("ordered", ordered_schema, "0.3", "scalar,portable", &rn);
    assert_true(lists(&rn, "portable"));
    /* NULLs are presence bytes alone: the keys get shorter */
    assert_true(key_bytes(&rn) < key_bytes(&r));
}

static void every_type_packed(void **state)
{
    (void)state;
    static tool_result r, rn;
    bench("packed", packed_schema, NULL, NULL, &r);
    every_impl_listed(&r);
    /* packed keys are NOT NULL: --nulls leaves them whole */
    bench("packed", packed_schema, "0.5", "scalar,portable", &rn);
    assert_int_equal(key_bytes(&rn), key_bytes(&r));
}

static void every_type_lexkey(void **state)
{
    (void)state;
    static tool_result r, r0, rn;
    bench("lexkey", lexkey_schema, NULL, "scalar,portable", &r);
    /* --nulls 0 is a run without the option: the same values */
    bench("lexkey", lexkey_schema, "0", "scalar,portable", &r0);
    assert_int_equal(key_bytes(&r0), key_bytes(&r));
    bench("lexkey", lexkey_schema, "0.5", "scalar,portable", &rn);
    assert_true(key_bytes(&rn) < key_bytes(&r));
}

/* More names than there used to be room for (7): all are run and listed. */
static void long_impl_list(void **state)
{
    (void)state;
    static tool_result r;
    bench("lexkey", "a bigint", NULL, "scalar,portable,scalar,portable,scalar,portable,scalar,portable,scalar",
          &r);
    size_t lines = 0;
    for (const char *p = r.out; (p = strstr(p, "\nscalar ")) != NULL; p++)
        lines++;
    for (const char *p = r.out; (p = strstr(p, "\nportable ")) != NULL; p++)
        lines++;
    assert_int_equal(lines, 9);
    assert_true(lists(&r, "memcpy"));
}

static void bad_fraction(void **state)
{
    (void)state;
    static tool_result r;
    const char *bad[] = {"1.5", "-0.1", "x", ""};
    for (size_t i = 0; i < 4; i++) {
        tool_run(TOOL,
                 (const char *const[]){"ordo", "bench", "--schema", "a int", "--rows", "10", "--nulls",
                                       bad[i], NULL},
                 NULL, &r);
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, "--nulls"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_type_ordered), cmocka_unit_test(every_type_packed),
        cmocka_unit_test(every_type_lexkey),  cmocka_unit_test(long_impl_list),
        cmocka_unit_test(bad_fraction),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
