/* Ranges and arrays through the tool: PostgreSQL's text forms in (every
 * spelling range_in and array_in take for one dimension) and out (as
 * range_out and array_out write them), keys equal to the row API's,
 * inside records, and the messages for bad text and bad schemas. */
#include "ordo_test.h"
#include "tool_run.h"

#define TOOL ORDO_TOOL_PATH

static void run(const char *cmd, const char *schema, const char *in, tool_result *r)
{
    tool_run(TOOL, (const char *const[]){"ordo", cmd, "--format", "ordered", "--schema", schema, "-", NULL},
             in, r);
}

/* Text in, text out: the second column is what PostgreSQL prints. */
static void text_forms(void **state)
{
    (void)state;
    static const char *const cases[][3] = {
        {"int4range", "\"[1,5]\"", "\"[1,6)\""},
        {"int4range", "\"(0,5)\"", "\"[1,5)\""},
        {"int4range", "\" [ 1 , 5 ) \"", "\"[1,5)\""},
        {"int4range", "EMPTY", "empty"},
        {"int4range", "\"(1,2)\"", "empty"},
        {"int4range", "\"[,5]\"", "\"(,6)\""},
        {"int4range", "\"(,)\"", "\"(,)\""},
        {"int4range", "\"[\"\"3\"\",)\"", "\"[3,)\""},
        {"int8range", "\"(-9223372036854775808,0]\"", "\"[-9223372036854775807,1)\""},
        {"numrange", "\"(1.50,2]\"", "\"(1.5,2]\""},
        {"numrange", "\"[1,1]\"", "\"[1,1]\""},
        {"numrange", "\"[1,1)\"", "empty"},
        {"daterange", "\"[2020-01-01,2020-01-01]\"", "\"[2020-01-01,2020-01-02)\""},
        {"daterange", "\"[-infinity,infinity]\"", "\"[-infinity,infinity]\""},
        {"tsrange", "\"[2020-01-01 10:00:00,)\"", "\"[\"\"2020-01-01 10:00:00\"\",)\""},
        {"tstzrange", "\"(,\"\"2020-01-01 00:00:00+00\"\"]\"", "\"(,\"\"2020-01-01 00:00:00+00\"\"]\""},
        {"integer[]", "\"{1,NULL,3}\"", "\"{1,NULL,3}\""},
        {"integer[]", "\"{ 1 , null }\"", "\"{1,NULL}\""},
        {"integer[]", "{}", "{}"},
        {"int[3]", "{7}", "{7}"},
        {"integer array", "{7}", "{7}"},
        {"text[]", "\"{\"\"a b\"\",c,\"\"NULL\"\",NULL,\"\"\"\",\"\"x\\\"\"y\"\",a\\,b,\"\"{}\"\"}\"",
         "\"{\"\"a b\"\",c,\"\"NULL\"\",NULL,\"\"\"\",\"\"x\\\"\"y\"\",\"\"a,b\"\",\"\"{}\"\"}\""},
        {"bytea[]", "\"{\"\"\\\\x00ff\"\"}\"", "\"{\"\"\\\\x00ff\"\"}\""},
        {"uuid[]", "{550e8400-e29b-41d4-a716-446655440000}", "{550e8400-e29b-41d4-a716-446655440000}"},
        {"double precision[]", "\"{NaN,-Infinity,1.5}\"", "\"{NaN,-Infinity,1.5}\""},
        {"numeric(10,2)[]", "\"{1.50,-0}\"", "\"{1.5,0}\""},
        {"record(r int4range, a text[])", "\"(\"\"[1,2]\"\",\"\"{x,\"\"\"\"y\\\\\"\"\"\"z\"\"\"\"}\"\")\"",
         "\"(\"\"[1,3)\"\",\"\"{x,\"\"\"\"y\\\\\"\"\"\"z\"\"\"\"}\"\")\""},
        /* arrays of enums, records and ranges (array_out quotes each
         * record and range but empty) */
        {"enum('sad','ok','a b')[]", "\"{ok,NULL,\"\"a b\"\",sad}\"", "\"{ok,NULL,\"\"a b\"\",sad}\""},
        {"enum('sad','ok')[]", "{}", "{}"},
        {"record(a integer, b text)[]", "\"{\"\"(1,a)\"\",\"\"(2,)\"\",NULL,\"\"(,)\"\"}\"",
         "\"{\"\"(1,a)\"\",\"\"(2,)\"\",NULL,\"\"(,)\"\"}\""},
        {"record(a integer)[]", "\"{(3), \"\"()\"\"}\"", "\"{(3),()}\""},
        {"int4range[]", "\"{\"\"[1,5]\"\",EMPTY,NULL,\"\"(,)\"\"}\"", "\"{\"\"[1,6)\"\",empty,NULL,\"\"(,)\"\"}\""},
        {"daterange[]", "{}", "{}"},
        {"record(a int4range[])", "\"(\"\"{\"\"\"\"[1,2]\"\"\"\"}\"\")\"",
         "\"(\"\"{\"\"\"\"[1,3)\"\"\"\"}\"\")\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char schema[128], in[256], want[256];
        for (int o = 0; o < 2; o++) {
            snprintf(schema, sizeof schema, "v %s%s", cases[i][0], o ? " DESC" : "");
            snprintf(in, sizeof in, "%s\n", cases[i][1]);
            snprintf(want, sizeof want, "%s\n", cases[i][2]);
            tool_result r;
            run("encode", schema, in, &r);
            if (r.status != 0)
                fail_msg("%s %s: %s", cases[i][0], cases[i][1], r.err);
            static char keys[sizeof r.out];
            memcpy(keys, r.out, sizeof keys);
            run("decode", schema, keys, &r);
            assert_int_equal(r.status, 0);
            if (strcmp(r.out, want))
                fail_msg("%s %s: decoded '%s', want '%s'", cases[i][0], cases[i][1], r.out, want);
            /* what decode writes encodes to the same key */
            run("encode", schema, r.out, &r);
            assert_int_equal(r.status, 0);
            assert_string_equal(r.out, keys);
        }
    }
}

/* The tool's keys are the row API's. */
static void same_as_row_api(void **state)
{
    (void)state;
    tool_result r;
    run("encode", "a int4range DESC, b text[], c integer NULLS FIRST", "\"[1,5)\",\"{x,NULL}\",\n", &r);
    assert_int_equal(r.status, 0);
    uint8_t buf[512];
    ordo_key k;
    ordo_key_init(&k, buf, sizeof buf, 0);
    ordo_key_range_begin(&k, ORDO_DESC_NULLS_FIRST, ORDO_TYPE_INT32, ORDO_RANGE_LOWER_INC);
    ordo_key_int32(&k, ORDO_ASC_NULLS_LAST, 1);
    ordo_key_int32(&k, ORDO_ASC_NULLS_LAST, 5);
    ordo_key_range_end(&k);
    ordo_key_array_begin(&k, ORDO_ASC_NULLS_LAST);
    ordo_key_text(&k, ORDO_ASC_NULLS_LAST, "x", 1);
    ordo_key_null(&k, ORDO_ASC_NULLS_LAST);
    ordo_key_array_end(&k);
    ordo_key_null(&k, ORDO_ASC_NULLS_FIRST);
    size_t n;
    assert_status(ordo_key_finish(&k, &n), ORDO_OK);
    char hex[1100];
    t_hex(buf, n, hex);
    strcat(hex, "\n");
    assert_string_equal(r.out, hex);
}

/* inspect shows an array of enums, records or ranges as its SQL literal. */
static void inspect_elements(void **state)
{
    (void)state;
    static const char *const cases[][3] = {
        {"enum('a', 'b c')[]", "\"{\"\"b c\"\",NULL,a}\"", "'{\"b c\",NULL,a}'"},
        {"record(a integer, b text)[]", "\"{\"\"(1,it's)\"\",NULL}\"", "'{\"(1,it''s)\",NULL}'"},
        {"daterange[]", "\"{\"\"[2020-01-01,2020-01-01]\"\",empty}\"", "'{\"[2020-01-01,2020-01-02)\",empty}'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char schema[128], in[256];
        static char hex[sizeof((tool_result *)0)->out];
        snprintf(schema, sizeof schema, "v %s DESC", cases[i][0]);
        snprintf(in, sizeof in, "%s\n", cases[i][1]);
        tool_result r;
        run("encode", schema, in, &r);
        assert_int_equal(r.status, 0);
        snprintf(hex, sizeof hex, "%s", r.out);
        hex[strcspn(hex, "\n")] = 0;
        tool_run(TOOL, (const char *const[]){"ordo", "inspect", "--format", "ordered", "--schema", schema, hex, NULL},
                 "", &r);
        assert_int_equal(r.status, 0);
        if (!strstr(r.out, cases[i][2]) || !strstr(r.out, "DESC NULLS FIRST"))
            fail_msg("%s: inspect printed '%s', want '%s'", cases[i][0], r.out, cases[i][2]);
    }
}

static void bad_text(void **state)
{
    (void)state;
    static const char *const bad[][3] = {
        {"int4range", "\"[5,1)\"", "range lower bound must be less than or equal to range upper bound"},
        {"int4range", "\"[1,2147483647]\"", "a bound steps out of its type's range"},
        {"int4range", "\"[1,5\"", "without its closing"},
        {"int4range", "\"[1\"", "without its comma"},
        {"int4range", "\"[1,5) x\"", "text after the range's closing bracket"},
        {"int4range", "5", "expected a range"},
        {"int4range", "\"[a,5)\"", "bound 1 (integer)"},
        {"integer[]", "\"{1,,2}\"", "an empty array element"},
        {"integer[]", "\"{{1}}\"", "multidimensional arrays are not supported"},
        {"integer[]", "\"[0:1]={1,2}\"", "array dimensions"},
        {"integer[]", "\"{1,x}\"", "element 2 (integer)"},
        {"integer[]", "1", "expected an array"},
        {"text[]", "\"{\"\"a}\"", "a malformed array element"},
        {"enum('a','b')[]", "\"{a,c}\"", "element 2 (enum)"},
        {"record(a int)[]", "\"{(x)}\"", "element 1 (record)"},
        {"int4range[]", "\"{[1,5)}\"", "element 1 (int4range)"},
        {"int4range[]", "\"{\"\"[5,1)\"\"}\"", "element 1 (int4range)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char schema[64], in[64];
        snprintf(schema, sizeof schema, "v %s", bad[i][0]);
        snprintf(in, sizeof in, "%s\n", bad[i][1]);
        tool_result r;
        run("encode", schema, in, &r);
        assert_int_equal(r.status, 2);
        if (!strstr(r.err, bad[i][2]))
            fail_msg("%s %s: got '%s', want '%s'", bad[i][0], bad[i][1], r.err, bad[i][2]);
    }
    static const char *const schemas[][3] = {
        {"lexkey", "v int4range", "cannot hold type int4range"},
        {"lexkey", "v integer[]", "cannot hold type integer[]"},
        {"packed", "v integer[]", "fixed-width types only"},
        {"ordered", "v []", "missing type"},
        {"lexkey", "v int4range[]", "cannot hold type int4range[]"},
        {"packed", "v enum('a')[]", "fixed-width types only"},
        {"ordered", "v record(a int)[] x", "after the record's fields"},
        {"ordered", "v int4range[][]", "unknown type"},
        {"ordered",
         "v record(a record(a record(a record(a record(a record(a record(a int4range[])[])[])[])[])[])[])[]",
         "arrays and ranges nest deeper than 8"},
    };
    for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; i++) {
        tool_result r;
        tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", schemas[i][0], "--schema", schemas[i][1], "-", NULL}, "", &r);
        assert_int_equal(r.status, 2);
        if (!strstr(r.err, schemas[i][2]))
            fail_msg("%s: got '%s', want '%s'", schemas[i][1], r.err, schemas[i][2]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_forms),
        cmocka_unit_test(same_as_row_api),
        cmocka_unit_test(inspect_elements),
        cmocka_unit_test(bad_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
