/* The ordo tool: every SPEC vector through `ordo encode`, the key helpers,
 * and the bad-argument contract (message on stderr, status 2, no stdout). */
#include "ordo_test.h"
#include "tool_run.h"

#define TOOL ORDO_TOOL_PATH

static void expect_out(const char *const *argv, const char *want)
{
    tool_result r;
    tool_run(TOOL, argv, NULL, &r);
    if (r.status != 0 || strcmp(r.out, want) != 0)
        fail_msg("ordo %s %s: status %d\n  out  '%s'\n  want '%s'\n  err  '%s'", argv[1],
                 argv[2] ? argv[2] : "", r.status, r.out, want, r.err);
}

static void expect_fail(const char *const *argv, const char *needle)
{
    tool_result r;
    tool_run(TOOL, argv, NULL, &r);
    if (r.status != 2 || r.out[0] != 0 || !strstr(r.err, needle))
        fail_msg("ordo %s %s: status %d, out '%s', err '%s' (wanted status 2 and '%s')", argv[1],
                 argv[2] ? argv[2] : "", r.status, r.out, r.err, needle);
}

#define ENC(part, want) expect_out((const char *const[]){"ordo", "encode", part, NULL}, want "\n")
#define LEG(part, want)                                                                     \
    expect_out((const char *const[]){"ordo", "encode", "--format", "lexkey-legacy", part,   \
                                     NULL},                                                 \
               want "\n")

static void spec_vectors(void **state)
{
    (void)state;
    ENC("string:hello", "68656c6c6f");
    ENC("uuid:550e8400-e29b-41d4-a716-446655440000", "550e8400e29b41d4a716446655440000");
    ENC("int64:123", "800000000000007b");
    ENC("int64:-123", "7fffffffffffff85");
    ENC("int32:-123", "7fffffffffffff85");
    ENC("uint8:255", "00000000000000ff");
    ENC("uint16:123", "000000000000007b");
    ENC("uint32:123", "000000000000007b");
    ENC("uint64:123", "000000000000007b");
    ENC("float32:3.14", "c0091eb860000000");
    ENC("float32:-3.14", "3ff6e1479fffffff");
    ENC("float64:3.14", "c0091eb851eb851f");
    ENC("float64:nan", "7ff8000000000001");
    ENC("bool:false", "00");
    ENC("bool:true", "01");
    ENC("time:1970-01-01T00:00:00Z", "8000000000000000");
    ENC("time:2023-11-14T22:13:20Z", "97979cfe362a0000");
    ENC("duration:42", "800000000000002a");
    ENC("nil", "00");
    ENC("end", "ff");
    expect_out((const char *const[]){"ordo", "encode", "string:foo", "int:42", "bool:true", NULL},
               "666f6f00800000000000002a0001\n");
    LEG("int32:-123", "7fffff85");
    LEG("int16:-123", "7f85");
    LEG("uint8:255", "ff");
    LEG("uint16:123", "007b");
    LEG("uint32:123", "0000007b");
    LEG("float32:3.14", "c048f5c3");
    LEG("float32:-3.14", "3fb70a3c");
    expect_out((const char *const[]){"ordo", "pk", "--partition", "706172746974696f6e", "--row",
                                     "726f77", NULL},
               "706172746974696f6e00726f77\n");
    expect_out((const char *const[]){"ordo", "pk", "--split", "706172746974696f6e00726f77", NULL},
               "706172746974696f6e 726f77\n");
    expect_out((const char *const[]){"ordo", "range", "--partition", "70617274", "--lower",
                                     "7374617274", "--upper", "656e64", NULL},
               "70617274007374617274 7061727400656e64ff\n");
    expect_out((const char *const[]){"ordo", "range", "--partition", "70617274", NULL},
               "7061727400 70617274ff\n");
}

static void other_forms(void **state)
{
    (void)state;
    ENC("float64:-0", "0000000000000000");
    ENC("float64:inf", "fff0000000000000");
    ENC("float64:-inf", "000fffffffffffff");
    ENC("float64:1e0", "bff0000000000000");
    ENC("float32:nan", "7ff8000000000001");
    LEG("float32:nan", "7fc00001");
    LEG("int8:-123", "05");
    ENC("int8:-128", "7fffffffffffff80");
    ENC("bytes:00FF", "00ff");
    ENC("string:", "");
    ENC("time:2023-11-15T03:43:20+05:30", "97979cfe362a0000");
    ENC("time:1970-01-01T00:00:00.000000001Z", "8000000000000001");
    ENC("uint64:18446744073709551615", "ffffffffffffffff");
    ENC("int64:-9223372036854775808", "0000000000000000");
    expect_out((const char *const[]){"ordo", "encode", "--first", "string:a", NULL}, "6100\n");
    expect_out((const char *const[]){"ordo", "encode", "--last", "string:a", "nil", NULL},
               "610000ff\n");
    expect_out((const char *const[]){"ordo", "encode", "--", "string:--x", NULL}, "2d2d78\n");
    tool_result r;
    tool_run(TOOL, (const char *const[]){"ordo", "version", NULL}, NULL, &r);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, ORDO_VERSION_STRING));
    assert_non_null(strstr(r.out, "implementation: "));
    assert_non_null(strstr(r.out, "cpu features:"));
}

#define BAD(needle, ...) expect_fail((const char *const[]){"ordo", __VA_ARGS__, NULL}, needle)

static void bad_arguments(void **state)
{
    (void)state;
    BAD("int8:128", "encode", "int8:128");
    BAD("int8:-129", "encode", "int8:-129");
    BAD("uint8:-1", "encode", "uint8:-1");
    BAD("uint64:18446744073709551616", "encode", "uint64:18446744073709551616");
    BAD("int64:9223372036854775808", "encode", "int64:9223372036854775808");
    BAD("int32:12x", "encode", "int32:12x");
    BAD("int32: 1", "encode", "int32: 1");
    BAD("int32:", "encode", "int32:");
    BAD("float64:1e400", "encode", "float64:1e400");
    BAD("float32:1e39", "encode", "float32:1e39");
    BAD("float64:0x1p3", "encode", "float64:0x1p3");
    BAD("float64:1.5z", "encode", "float64:1.5z");
    BAD("bool:yes", "encode", "bool:yes");
    BAD("uuid:xyz", "encode", "uuid:xyz");
    BAD("bytes part", "encode", "bytes:abc");
    BAD("bytes part", "encode", "bytes:0x00");
    BAD("time:2300-01-01T00:00:00Z", "encode", "time:2300-01-01T00:00:00Z");
    BAD("time:2023-11-14", "encode", "time:2023-11-14");
    BAD("duration:1.5", "encode", "duration:1.5");
    BAD("unknown type 'int128'", "encode", "int128:1");
    BAD("hello", "encode", "hello");
    BAD("no parts", "encode");
    BAD("no parts", "encode", "--first");
    BAD("cannot be combined", "encode", "--first", "--last", "nil");
    BAD("unknown format", "encode", "--format", "ordered2", "nil");
    BAD("--format", "encode", "--format");
    BAD("--bogus", "encode", "--bogus", "nil");
}

static void bad_key_helpers(void **state)
{
    (void)state;
    BAD("primary key has no 00 separator", "pk", "--split", "6162");
    BAD("empty partition", "pk", "--split", "006162");
    BAD("empty partition", "pk", "--split", "616200");
    BAD("empty partition", "pk", "--partition", "", "--row", "61");
    BAD("invalid hex character at offset 1", "pk", "--partition", "0x61", "--row", "61");
    BAD("odd number of hex digits", "pk", "--partition", "616", "--row", "61");
    BAD("--row HEX", "pk", "--partition", "61");
    BAD("--partition HEX", "range", "--lower", "61");
    BAD("--upper", "range", "--partition", "61", "--upper", "zz");
    BAD("unknown command", "frobnicate");
    expect_fail((const char *const[]){"ordo", NULL}, "missing command");
}

/* Issue #17 item 4: the LexKey JSON form of a key ("hex"; "" for the empty
 * key) as --output json, one JSON value per line, and accepted wherever a
 * hex key is ("0a1b" or null). The hex output is unchanged (spec_vectors). */
static void json_forms(void **state)
{
    (void)state;
    expect_out((const char *const[]){"ordo", "encode", "--output", "json", "string:foo", "int:42",
                                     "bool:true", NULL},
               "\"666f6f00800000000000002a0001\"\n");
    expect_out((const char *const[]){"ordo", "encode", "--output=json", "string:", NULL}, "\"\"\n");
    expect_out((const char *const[]){"ordo", "encode", "--output", "hex", "nil", NULL}, "00\n");
    expect_out((const char *const[]){"ordo", "pk", "--output", "json", "--partition",
                                     "706172746974696f6e", "--row", "726f77", NULL},
               "\"706172746974696f6e00726f77\"\n");
    expect_out((const char *const[]){"ordo", "pk", "--output", "json", "--split",
                                     "706172746974696f6e00726f77", NULL},
               "{\"partition\": \"706172746974696f6e\", \"row\": \"726f77\"}\n");
    expect_out((const char *const[]){"ordo", "range", "--output", "json", "--partition", "70617274",
                                     "--lower", "7374617274", "--upper", "656e64", NULL},
               "{\"lower\": \"70617274007374617274\", \"upper\": \"7061727400656e64ff\"}\n");
    /* JSON in: a string (either case, JSON whitespace around it) or null */
    expect_out((const char *const[]){"ordo", "pk", "--split", "\"706172746974696F6E00726F77\"",
                                     NULL},
               "706172746974696f6e 726f77\n");
    expect_out((const char *const[]){"ordo", "range", "--partition", " \"70617274\" ", "--lower",
                                     "null", "--upper", "\"\"", NULL},
               "7061727400 70617274ff\n");
    expect_out((const char *const[]){"ordo", "decode", "--schema", "a int", "\"0080000001\"", NULL},
               "1\n");
    tool_result r;
    tool_run(TOOL, (const char *const[]){"ordo", "encode", "--output", "json", "--schema",
                                         "id bigint, name text", "-", NULL},
             "1,hello\n2,\"\"\n", &r);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "\"80000000000000010068656c6c6f\"\n\"800000000000000200\"\n");
    tool_run(TOOL, (const char *const[]){"ordo", "decode", "--format", "lexkey", "--schema",
                                         "id bigint, name text", "-", NULL},
             r.out, &r);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "1,hello\n2,\"\"\n");
    BAD("not a JSON string of hex digits or null", "pk", "--split", "\"0x00\"");
    BAD("not a JSON string of hex digits or null", "pk", "--split", "\"6100");
    BAD("odd number of hex digits", "range", "--partition", "\"616\"");
    BAD("expected hex or json, got 'raw'", "pk", "--output", "raw", "--split", "610062");
    BAD("--output raw", "encode", "--output", "raw", "nil");
    BAD("expected hex, json or raw", "encode", "--output", "xml", "--schema", "a int", "-");
}

/* encode --schema --key: the keys of the key spec's columns (as load takes
 * it), the same as a schema of those columns alone in that order; every
 * column is still checked. */
static void encode_key_spec(void **state)
{
    (void)state;
    tool_result a, b;
    tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", "ordered", "--schema",
                                         "id bigint, name text, s double precision", "--key",
                                         "name DESC NULLS LAST, id", "-", NULL},
             "1,b,2.5\n2,,1\n3,a,-0\n", &a);
    assert_int_equal(a.status, 0);
    tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", "ordered", "--schema",
                                         "name text DESC NULLS LAST, id bigint", "-", NULL},
             "b,1\n,2\na,3\n", &b);
    assert_int_equal(b.status, 0);
    assert_string_equal(a.out, b.out);
    tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", "ordered", "--schema",
                                         "id bigint, name text, s double precision", "--key", "id",
                                         "-", NULL},
             "1,b,2.5\n2,a,x\n", &a);
    assert_int_not_equal(a.status, 0);
    assert_non_null(strstr(a.err, "<stdin>:2:"));
    BAD("'nope' is not a column", "encode", "--schema", "a int", "--key", "nope", "-");
    BAD("--key", "encode", "--key", "a", "int:1");
}

/* Issue #17 item 3: LexKey keys decoded by a schema, where it splits them;
 * refused with a reason where it cannot. */
static void lexkey_decode(void **state)
{
    (void)state;
    static const char schema[] =
        "t text, b boolean, i1 tinyint, i2 smallint, i4 integer, i8 bigint, u1 utinyint, "
        "u2 usmallint, u4 uinteger, u8 ubigint, r real, d double precision, u uuid, "
        "ts timestamptz, tn timestamp, dt date, y bytea";
    static const char row[] =
        "hello,t,-1,-300,70000,-5,255,65535,4294967295,18446744073709551615,1.5,-0.25,"
        "550e8400-e29b-41d4-a716-446655440000,2023-11-14 22:13:20.123456789+00,"
        "2000-01-01 00:00:01,1999-12-31,\\x00ff00\n";
    static const char *const formats[] = {"lexkey", "lexkey-legacy"};
    for (int f = 0; f < 2; f++) {
        tool_result r, d, again;
        tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", formats[f], "--schema",
                                             schema, "-", NULL},
                 row, &r);
        assert_int_equal(r.status, 0);
        tool_run(TOOL, (const char *const[]){"ordo", "decode", "--format", formats[f], "--schema",
                                             schema, "-", NULL},
                 r.out, &d);
        if (d.status != 0)
            fail_msg("decode %s: %s", formats[f], d.err);
        /* the text loads again to the same key */
        tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", formats[f], "--schema",
                                             schema, "-", NULL},
                 d.out, &again);
        assert_int_equal(again.status, 0);
        assert_string_equal(again.out, r.out);
        assert_non_null(strstr(d.out, "hello,t,-1,-300,70000,-5,255,65535,4294967295,"));
        assert_non_null(strstr(d.out, ",2023-11-14 22:13:20.123456789+00,2000-01-01 00:00:01,"
                                      "1999-12-31,\\x00ff00\n"));
    }
    /* inspect: offsets after the separators, no orders */
    expect_out((const char *const[]){"ordo", "inspect", "--format", "lexkey-legacy", "--schema",
                                     "a smallint, b text", "7f85006162", NULL},
               "field name             type             order             offset  bytes  value\n"
               "1     a                smallint         -                      0      2  7f85  -123\n"
               "2     b                text             -                      3      2  6162  'ab'\n");
    /* NULLs, where the rest of the key settles them */
    expect_out((const char *const[]){"ordo", "decode", "--format", "lexkey", "--schema",
                                     "a bigint, b text", "000061", NULL},
               ",a\n");
    expect_out((const char *const[]){"ordo", "decode", "--format", "lexkey", "--schema",
                                     "a bigint, b bigint", "00008000000000000001", NULL},
               ",1\n");
    /* refusals: a part both NULL and a value explain; a key that does not split */
    BAD("key 1, column 'b' at byte 9: cannot split the key here: a NULL (the nil byte 00) and a "
        "value both fit",
        "decode", "--format", "lexkey", "--schema", "a bigint, b text", "80000000000000020000");
    BAD("column 'a' at byte 0: cannot split", "decode", "--format", "lexkey", "--schema",
        "a ubigint, b text", "000000000000007b0078");
    /* the ends of the nanosecond range; a text that starts with a BOM is
     * quoted, so that the CSV reader keeps it (found by fuzz_lexkey_text) */
    expect_out((const char *const[]){"ordo", "decode", "--format", "lexkey", "--schema",
                                     "t timestamptz, u timestamp",
                                     "000000000000000000ffffffffffffffff", NULL},
               "1677-09-21 00:12:43.145224192+00,2262-04-11 23:47:16.854775807\n");
    tool_result e;
    tool_run(TOOL, (const char *const[]){"ordo", "encode", "--schema", "t timestamptz, u timestamp",
                                         "-", NULL},
             "1677-09-21 00:12:43.145224192+00,2262-04-11 23:47:16.854775807\n", &e);
    assert_int_equal(e.status, 0);
    assert_string_equal(e.out, "000000000000000000ffffffffffffffff\n");
    tool_run(TOOL, (const char *const[]){"ordo", "encode", "--schema", "t text", "-", NULL},
             "\"\xef\xbb\xbf" "a\"\n", &e);
    assert_string_equal(e.out, "efbbbf61\n");
    expect_out((const char *const[]){"ordo", "decode", "--format", "lexkey", "--schema", "t text",
                                     "efbbbf61", NULL},
               "\"\xef\xbb\xbf" "a\"\n");
    /* the caller knows there are no NULLs: every part a value */
    expect_out((const char *const[]){"ordo", "decode", "--no-nulls", "--format", "lexkey",
                                     "--schema", "a ubigint, b text", "000000000000007b0078", NULL},
               "123,x\n");
    expect_out((const char *const[]){"ordo", "decode", "--no-nulls", "--format", "lexkey",
                                     "--schema", "a boolean", "00", NULL},
               "f\n");
    BAD("column 'a' at byte 0: the key does not split", "decode", "--no-nulls", "--format",
        "lexkey", "--schema", "a bigint, b text", "000061");
    BAD("--no-nulls applies to the LexKey formats", "decode", "--no-nulls", "--schema", "a int",
        "0080000001");
    BAD("key 1, column 'b' at byte 3: the key does not split by the schema here", "decode",
        "--format", "lexkey", "--schema", "a text, b integer", "61620080");
    BAD("column 'b' at byte 2: the key does not split", "inspect", "--format", "lexkey",
        "--schema", "a text, b integer", "6100620080000000000000010000");
    BAD("unknown format 'columnar' (ordered, packed, lexkey, lexkey-legacy)", "decode", "--format",
        "columnar", "--schema", "a int", "00");
    BAD("--schema: column 'n'", "decode", "--format", "lexkey", "--schema", "n numeric", "00");
}

/* encode -> decode --no-nulls -> encode of random values, both widths: the
 * same keys. Text holds no 00 (it is not the last column); the last column,
 * bytea, holds anything. */
static void lexkey_random_round_trip(void **state)
{
    (void)state;
    static const char schema[] = "a bigint, b integer, c smallint, d tinyint, e ubigint, "
                                 "f uinteger, g double precision, h real, i boolean, j uuid, "
                                 "k text, l bytea";
    static const char *const formats[] = {"lexkey", "lexkey-legacy"};
    uint64_t seed = t_seed() ^ 0x17;
    static char csv[6000];
    for (int run = 0; run < 16; run++) {
        size_t at = 0;
        for (int row = 0; row < 12; row++) {
            uint64_t x = t_rand(&seed), y = t_rand(&seed);
            double g;
            memcpy(&g, &y, 8);
            float h = (float)(int32_t)x / 3.0f;
            char gt[40], ht[40];
            if (g != g || (y & 7) == 0)
                snprintf(gt, sizeof gt, "%s", (y & 8) ? "NaN" : (y & 16) ? "-Infinity" : "-0");
            else
                snprintf(gt, sizeof gt, "%.17g", g);
            snprintf(ht, sizeof ht, "%.9g", h);
            at += (size_t)snprintf(csv + at, sizeof csv - at,
                                   "%lld,%d,%d,%d,%llu,%u,%s,%s,%s,%08x-0000-4000-8000-%012llx,\"",
                                   (long long)x, (int32_t)y, (int16_t)x, (int8_t)y,
                                   (unsigned long long)(x >> (y % 64)), (uint32_t)(x >> 7), gt, ht,
                                   (x & 1) ? "t" : "f", (unsigned)y,
                                   (unsigned long long)(x & 0xffffffffffffULL));
            for (uint64_t k = 0, n = t_rand(&seed) % 6; k < n; k++) {
                char ch = " ,\"ab\n"[t_rand(&seed) % 6];
                csv[at++] = ch;
                if (ch == '"')
                    csv[at++] = '"';
            }
            at += (size_t)snprintf(csv + at, sizeof csv - at, "\",\\x%02x00%02x\n",
                                   (unsigned)(x & 0xff), (unsigned)(y & 0xff));
        }
        const char *f = formats[run & 1];
        tool_result k1, d, k2;
        tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", f, "--schema", schema,
                                             "-", NULL},
                 csv, &k1);
        if (k1.status != 0)
            fail_msg("encode %s: %s\n%s", f, k1.err, csv);
        tool_run(TOOL, (const char *const[]){"ordo", "decode", "--no-nulls", "--format", f,
                                             "--schema", schema, "-", NULL},
                 k1.out, &d);
        if (d.status != 0)
            fail_msg("decode %s: %s", f, d.err);
        tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", f, "--schema", schema,
                                             "-", NULL},
                 d.out, &k2);
        if (k2.status != 0 || strcmp(k1.out, k2.out) != 0)
            fail_msg("%s: decode -> encode changed the keys\n%s\n%s\n%s", f, d.out, k1.out,
                     k2.out);
    }
}

/* Issue #17 item 2: packed keys through encode --schema, decode, inspect
 * and bench; NULLs and variable types refused with the column named. */
static void packed_tool(void **state)
{
    (void)state;
    const char *schema = "tag smallint, id ubigint, ver ubigint desc, ok boolean, d date";
    const char *csv = "7,42,5,t,2000-01-02\n";
    const char *key = "8007000000000000002afffffffffffffffa0180000001";
    tool_result r;
    tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", "packed", "--schema",
                                         schema, NULL},
             csv, &r);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "8007000000000000002afffffffffffffffa0180000001\n");
    expect_out((const char *const[]){"ordo", "decode", "--format", "packed", "--schema", schema,
                                     key, NULL},
               csv);
    tool_run(TOOL, (const char *const[]){"ordo", "inspect", "--format", "packed", "--schema",
                                         schema, key, NULL},
             NULL, &r);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "3     ver              ubigint          DESC                  10 "
                                  "     8  fffffffffffffffa  5\n"));
    assert_non_null(strstr(r.out, "5     d                date             ASC                   19 "
                                  "     4  80000001  2000-01-02\n"));
    tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", "packed", "--schema",
                                         schema, NULL},
             "7,42,,t,2000-01-02\n", &r);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "<stdin>:1:6: column 'ver' (ubigint): NULL in a packed key"));
    BAD("column 'n': the packed format holds fixed-width types only, not text", "encode",
        "--format", "packed", "--schema", "a integer, n text", "/dev/null");
    /* with --key, only the key's columns need fit (the table read as ordo load
     * and ordo sort read it): a packed key beside a text column */
    tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", "packed", "--schema",
                                         "a integer, n text", "--key", "a DESC", NULL},
             "5,x\n", &r);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "7ffffffa\n");
    BAD("--key: column 'n': the packed format holds fixed-width types only, not text", "encode",
        "--format", "packed", "--schema", "a integer, n text", "--key", "a, n", "/dev/null");
    BAD("decode: key 1, column 'd' at byte 19: malformed key", "decode", "--format", "packed",
        "--schema", schema, "8007000000000000002afffffffffffffffa01800000");
    BAD("bytes left after the last column", "decode", "--format", "packed", "--schema", schema,
        "8007000000000000002afffffffffffffffa018000000100");
    BAD("--no-nulls applies to the LexKey formats", "decode", "--format", "packed", "--no-nulls",
        "--schema", schema, key);
    BAD("for PART arguments", "encode", "--format", "packed", "int64:1");
    tool_run(TOOL, (const char *const[]){"ordo", "bench", "--format", "packed", "--schema",
                                         "a ubigint, b bigint desc, c double precision, d uuid",
                                         "--rows", "1000", NULL},
             NULL, &r);
    assert_int_equal(r.status, 0);
}

/* Issue #17 item 6: bench names every format it accepts. */
static void bench_formats(void **state)
{
    (void)state;
    BAD("bench: --format: unknown format 'x' (ordered, packed, lexkey, lexkey-legacy)", "bench", "--schema", "a int",
        "--rows", "1", "--format", "x");
}

/* Issue #13 item 9: one rule for every command: a write error on standard
 * output is exit status 1 with "ordo: write error on standard output: ..."
 * on stderr, also when the command stops at bad input (both are reported). */
static void expect_write_error(const char *const *argv, const char *stdin_text, const char *also)
{
    tool_result r;
    tool_run_to(TOOL, argv, stdin_text, "/dev/full", &r);
    if (r.status != 1 || !strstr(r.err, "ordo: write error on standard output: ") ||
        (also && !strstr(r.err, also)))
        fail_msg("ordo %s %s > /dev/full: status %d, err '%s' (wanted status 1, a write error%s%s)",
                 argv[1], argv[2] ? argv[2] : "", r.status, r.err, also ? " and " : "",
                 also ? also : "");
}

#define FULL(...) expect_write_error((const char *const[]){"ordo", __VA_ARGS__, NULL}, NULL, NULL)

static void stdout_write_errors(void **state)
{
    (void)state;
    FULL("version");
    FULL("help");
    FULL("encode", "int:1");
    FULL("pk", "--partition", "61", "--row", "62");
    FULL("pk", "--split", "610062");
    FULL("range", "--partition", "61");
    FULL("decode", "--schema", "a int", "0080000001");
    FULL("inspect", "--schema", "a int", "0080000001");
    FULL("bench", "--schema", "a int", "--rows", "10");
    FULL("bench", "--schema", "a int", "--rows", "10", "--json");
    static const char *const threads[] = {"1", "3"};
    for (int t = 0; t < 2; t++) {
        expect_write_error((const char *const[]){"ordo", "encode", "--threads", threads[t], "--schema", "a int", "-", NULL}, "1\n2\n", NULL);
        expect_write_error((const char *const[]){"ordo", "encode", "--threads", threads[t], "--output", "raw", "--format", "ordered", "--schema", "a int", "-", NULL}, "1\n2\n", NULL);
        /* rows before a bad one were lost: both messages, status 1 */
        expect_write_error((const char *const[]){"ordo", "encode", "--threads", threads[t], "--schema", "a int", "-", NULL}, "1\n2\nx\n", "<stdin>:3:1: column 'a' (integer): expected an integer: 'x'");
    }
    expect_write_error((const char *const[]){"ordo", "decode", "--schema", "a int", "-", NULL}, "0080000001\n02\n", "ordo: decode: key 2, column 'a' at byte 0: malformed key");
    /* bad arguments print nothing on stdout: still status 2 */
    tool_result r;
    tool_run_to(TOOL, (const char *const[]){"ordo", "encode", "int8:300", NULL}, NULL, "/dev/full", &r);
    assert_int_equal(r.status, 2);
    assert_null(strstr(r.err, "write error"));
}

/* Issue #13 item 8: nothing of a bad key on stdout; the keys before it are
 * printed whole. */
static void bad_key_prints_nothing(void **state)
{
    (void)state;
    tool_result r;
    tool_run(TOOL, (const char *const[]){"ordo", "decode", "--schema", "id bigint DESC, name text", "017fffffffffffffd5", NULL}, NULL, &r);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "ordo: decode: key 1, column 'name' at byte 9: malformed key\n");
    tool_run(TOOL, (const char *const[]){"ordo", "inspect", "--schema", "id bigint DESC, name text", "017fffffffffffffd5", NULL}, NULL, &r);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "ordo: decode: key 1, column 'name' at byte 9: malformed key\n");
    /* bytes left over: the columns read fine, still nothing */
    tool_run(TOOL, (const char *const[]){"ordo", "decode", "--schema", "a int", "008000000100", NULL}, NULL, &r);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "ordo: decode: key 1: 1 bytes left after the last column (schema mismatch)\n");
    tool_run(TOOL, (const char *const[]){"ordo", "inspect", "--schema", "a int", "008000000100", NULL}, NULL, &r);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    /* the keys before the bad one are printed, and the run stops there */
    tool_run(TOOL, (const char *const[]){"ordo", "decode", "--schema", "a int, b text", "-", NULL},
             "008000000100780000\n00800000020079\n0080000003007a0000\n", &r);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "1,x\n");
    assert_string_equal(r.err, "ordo: decode: key 2, column 'b' at byte 5: malformed key\n");
}

/* #16: collated text through the tool: keys in the collation's order, decode
 * gives the text back, inspect names the collation, bad schemas and text
 * are refused with their reasons. (libc sv_SE.utf8: needs no ICU.) */
/* One CSV line's keys (ordered format, hex) or NULL when refused; into out. */
static const char *keys_of(const char *schema, const char *csv, char *out, size_t cap)
{
    tool_result r;
    tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", "ordered", "--schema",
                                         schema, NULL},
             csv, &r);
    size_t n = strlen(r.out);
    if (r.status != 0 || n >= cap)
        return NULL;
    memcpy(out, r.out, n + 1);
    return out;
}

/* White space around a field: skipped where PostgreSQL's input function
 * skips it (the same key as without it; test_postgres checks the order),
 * refused where it refuses it; all white space is no value. */
static void padded_fields(void **state)
{
    (void)state;
    static const char *const same[][3] = {
        {"integer", "\" 12 \"", "12"},      {"bigint", "\"\t-5\"", "-5"},
        {"smallint", "\"3 \"", "3"},        {"hugeint", "\" 5\"", "5"},
        {"utinyint", "\" 5 \"", "5"},       {"boolean", "\" yes \"", "t"},
        {"real", "\" 1.5\"", "1.5"},        {"double precision", "\"1.5\f\"", "1.5"},
        {"numeric", "\" 7.50 \"", "7.50"},  {"numeric", "\" NaN\"", "NaN"},
        {"date", "\" 2020-01-01 \"", "2020-01-01"},
        {"timestamp", "\" 2020-01-01 10:00 \"", "2020-01-01 10:00"},
        {"timestamptz", "\"2020-01-01 10:00+02 \"", "2020-01-01 10:00+02"},
        {"time", "\" 10:00\"", "10:00"},    {"timetz", "\"10:00+02 \"", "10:00+02"},
        {"interval", "\" 1 day \"", "1 day"}, {"macaddr", "\" 08:00:2b:01:02:03\"", "08:00:2b:01:02:03"},
        {"int4range", "\" [1,2) \"", "\"[1,2)\""}, {"integer[]", "\" {1,2} \"", "\"{1,2}\""},
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        char a[256], b[256], schema[64], pa[64], pb[64];
        snprintf(schema, sizeof schema, "v %s", same[i][0]);
        snprintf(pa, sizeof pa, "%s\n", same[i][1]);
        snprintf(pb, sizeof pb, "%s\n", same[i][2]);
        const char *ka = keys_of(schema, pa, a, sizeof a), *kb = keys_of(schema, pb, b, sizeof b);
        if (!ka || !kb || strcmp(ka, kb))
            fail_msg("%s: '%s' gives %s, '%s' gives %s", same[i][0], same[i][1], ka ? ka : "an error",
                     same[i][2], kb ? kb : "an error");
    }
    static const char *const refused[][2] = {
        {"uuid", "\" 00000000-0000-0000-0000-000000000001\""},
        {"inet", "\"1.2.3.4 \""},          {"bit(3)", "\" 101\""},
        {"enum('a', 'b')", "\" a\""},        {"pg_lsn", "\" 0/16\""},
        {"integer", "\"   \""},            {"boolean", "\"\t\""},
        {"numeric", "\" 1 2\""},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char out[256], schema[64], csv[64];
        snprintf(schema, sizeof schema, "v %s", refused[i][0]);
        snprintf(csv, sizeof csv, "%s\n", refused[i][1]);
        if (keys_of(schema, csv, out, sizeof out))
            fail_msg("%s: '%s' was accepted (%s)", refused[i][0], refused[i][1], out);
    }
}

static void collated_tool(void **state)
{
    (void)state;
    const char *schema = "name text COLLATE \"sv_SE.utf8\" DESC, n integer";
    tool_result r;
    tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", "ordered", "--schema",
                                         schema, NULL},
             "zed,1\nb\xc3\xa4r,2\nBaz,3\n", &r);
    assert_int_equal(r.status, 0);
    char keys[3][256];
    assert_int_equal(sscanf(r.out, "%255s %255s %255s", keys[0], keys[1], keys[2]), 3);
    /* DESC in Swedish: zed > bär > Baz */
    assert_true(strcmp(keys[0], keys[1]) < 0 && strcmp(keys[1], keys[2]) < 0);
    expect_out((const char *const[]){"ordo", "decode", "--format", "ordered", "--schema", schema,
                                     keys[1], NULL},
               "b\xc3\xa4r,2\n");
    tool_run(TOOL, (const char *const[]){"ordo", "inspect", "--format", "ordered", "--schema",
                                         schema, keys[1], NULL},
             NULL, &r);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "1     name             text COLLATE \"sv_SE.utf8\" DESC NULLS FIRST"));
    assert_non_null(strstr(r.out, "'b\xc3\xa4r'\n"));
    assert_non_null(strstr(r.out, "collation \"sv_SE.utf8\": libc, version "));
    expect_fail((const char *const[]){"ordo", "encode", "--format", "ordered", "--schema",
                                      "v text COLLATE \"xx_YY.utf8\"", NULL},
                "column 'v': collation \"xx_YY.utf8\": unknown collation");
    expect_fail((const char *const[]){"ordo", "encode", "--format", "lexkey", "--schema",
                                      "v text COLLATE \"sv_SE.utf8\"", NULL},
                "needs the ordered format");
    expect_fail((const char *const[]){"ordo", "encode", "--format", "ordered", "--schema",
                                      "v integer COLLATE \"sv_SE.utf8\"", NULL},
                "COLLATE applies to text, varchar and char, not integer");
    expect_fail((const char *const[]){"ordo", "encode", "--format", "ordered", "--schema",
                                      "v text COLLATE", NULL},
                "COLLATE without a collation name");
    /* text[] COLLATE: the elements are collated (PostgreSQL's grammar) */
    const char *arr = "v varchar[] COLLATE \"sv_SE.utf8\" DESC";
    tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", "ordered", "--schema", arr,
                                         NULL},
             "\"{zed,a}\"\n\"{b\xc3\xa4r}\"\n{Baz}\n", &r);
    assert_int_equal(r.status, 0);
    assert_int_equal(sscanf(r.out, "%255s %255s %255s", keys[0], keys[1], keys[2]), 3);
    assert_true(strcmp(keys[0], keys[1]) < 0 && strcmp(keys[1], keys[2]) < 0);
    expect_out((const char *const[]){"ordo", "decode", "--format", "ordered", "--schema", arr,
                                     keys[0], NULL},
               "\"{zed,a}\"\n");
    tool_run(TOOL, (const char *const[]){"ordo", "inspect", "--format", "ordered", "--schema",
                                         arr, keys[1], NULL},
             NULL, &r);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "text[] COLLATE \"sv_SE.utf8\" DESC NULLS FIRST"));
    assert_non_null(strstr(r.out, "collation \"sv_SE.utf8\": libc, version "));
    expect_fail((const char *const[]){"ordo", "encode", "--format", "ordered", "--schema",
                                      "v integer[] COLLATE \"sv_SE.utf8\"", NULL},
                "COLLATE applies to text, varchar and char, not integer[]");
    expect_fail((const char *const[]){"ordo", "encode", "--format", "lexkey", "--schema",
                                      "v text[] COLLATE \"sv_SE.utf8\"", NULL},
                "column 'v'");
    tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", "ordered", "--schema",
                                         "v text COLLATE \"sv_SE.utf8\"", NULL},
             "ok\nb\xff" "d\n", &r);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "invalid byte sequence for encoding UTF8"));
    /* "C" is byte order: the plain text key */
    tool_run(TOOL, (const char *const[]){"ordo", "encode", "--format", "ordered", "--schema",
                                         "v text COLLATE \"C\" DESC", NULL},
             "ab\n", &r);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "019e9dffff\n");
}

/* --help and -h for every command (stdout, status 0, its own synopsis),
 * help COMMAND the same, -V as version, and a did-you-mean for a mistyped
 * command or option. */
static void help_and_typos(void **state)
{
    (void)state;
    const char *cmds[] = {"encode", "decode", "inspect", "pk", "range", "bench", "version",
#ifdef ORDO_WITH_ROCKSDB
                          "load", "scan", "sort", "tables"
#endif
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        tool_result r, h, help;
        char synopsis[64];
        snprintf(synopsis, sizeof synopsis, "ordo %s ", cmds[i]);
        tool_run(TOOL, (const char *const[]){"ordo", cmds[i], "--help", NULL}, NULL, &r);
        if (r.status != 0 || strncmp(r.out, "usage:", 6) || !strstr(r.out, synopsis) || r.err[0])
            fail_msg("ordo %s --help: status %d, out '%s', err '%s'", cmds[i], r.status, r.out,
                     r.err);
        for (size_t j = 0; j < sizeof cmds / sizeof cmds[0]; j++) { /* only its own */
            char other[64];
            snprintf(other, sizeof other, "ordo %s ", cmds[j]);
            if (j != i && strstr(r.out, other))
                fail_msg("ordo %s --help names %s", cmds[i], cmds[j]);
        }
        /* the commands that sort say their default budget here, one way */
        int sorts = !strcmp(cmds[i], "load") || !strcmp(cmds[i], "sort");
        assert_int_equal(strstr(r.out, "(--memory by default: ") != NULL, sorts);
        tool_run(TOOL, (const char *const[]){"ordo", cmds[i], "-h", NULL}, NULL, &h);
        tool_run(TOOL, (const char *const[]){"ordo", "help", cmds[i], NULL}, NULL, &help);
        assert_int_equal(h.status, 0);
        assert_string_equal(h.out, r.out);
        assert_int_equal(help.status, 0);
        assert_string_equal(help.out, r.out);
    }
    /* help after other options too */
    tool_result r, v;
    tool_run(TOOL, (const char *const[]){"ordo", "decode", "--schema", "a int", "--help", NULL}, NULL,
             &r);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "ordo decode "));
    tool_run(TOOL, (const char *const[]){"ordo", "-V", NULL}, NULL, &r);
    tool_run(TOOL, (const char *const[]){"ordo", "version", NULL}, NULL, &v);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, v.out);
    assert_int_equal(strncmp(r.out, "ordo ", 5), 0);
    tool_run(TOOL, (const char *const[]){"ordo", "--version", NULL}, NULL, &r);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, v.out);
    /* the global usage, on stdout, exit 0, however it is asked for */
    const char *global[][3] = {{"--help"}, {"-h"}, {"help"}, {"help", "--help"}, {"help", "-h"}};
    for (size_t i = 0; i < sizeof global / sizeof global[0]; i++) {
        const char *argv[4] = {"ordo", global[i][0], global[i][1], NULL};
        tool_run(TOOL, argv, NULL, &r);
        if (r.status != 0 || strncmp(r.out, "usage: ordo COMMAND", 19) || r.err[0])
            fail_msg("ordo %s %s: status %d, out '%.40s', err '%s'", global[i][0],
                     global[i][1] ? global[i][1] : "", r.status, r.out, r.err);
    }
    BAD("unknown command 'decod' (did you mean 'decode'?)", "decod");
    BAD("unknown command 'ecnode' (did you mean 'encode'?)", "ecnode");
    BAD("unknown option '--shcema' (did you mean '--schema'?)", "decode", "--shcema", "a int");
    BAD("unknown argument '--partiton' (did you mean '--partition'?)", "pk", "--partiton", "61");
    tool_run(TOOL, (const char *const[]){"ordo", "frobnicate", NULL}, NULL, &r);
    assert_null(strstr(r.err, "did you mean")); /* nothing near: the usage instead */
    assert_non_null(strstr(r.err, "usage: ordo COMMAND"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spec_vectors),
        cmocka_unit_test(other_forms),
        cmocka_unit_test(bad_arguments),
        cmocka_unit_test(help_and_typos),
        cmocka_unit_test(bad_key_helpers),
        cmocka_unit_test(stdout_write_errors),
        cmocka_unit_test(bad_key_prints_nothing),
        cmocka_unit_test(json_forms),
        cmocka_unit_test(encode_key_spec),
        cmocka_unit_test(lexkey_decode),
        cmocka_unit_test(lexkey_random_round_trip),
        cmocka_unit_test(bench_formats),
        cmocka_unit_test(packed_tool),
        cmocka_unit_test(collated_tool),
        cmocka_unit_test(padded_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
