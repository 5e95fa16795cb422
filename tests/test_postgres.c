/* The ordered format against a real PostgreSQL: a throwaway server in a
 * temporary directory (Unix socket only) fills tables with random values
 * of every supported type, NULLs and extremes included; for every type in
 * all four orders (and a multi-column schema) the rows are exported with
 * COPY CSV in random order, encoded by `ordo encode --format ordered`,
 * sorted with memcmp, and must come out in exactly PostgreSQL's ORDER BY
 * order (a unique id breaks ties). The server is stopped even on failure. */
#include "collate_strings.h"
#include "ordo_test.h"

#include "pg_server.h"

#define TOOL ORDO_TOOL_PATH

static pg_server srv;
static const char *const dir = srv.dir;

static int start_server(void **state)
{
    (void)state;
    return pg_server_start(&srv, "pg", NULL);
}

static int stop_server(void **state)
{
    (void)state;
    pg_server_stop(&srv);
    return 0;
}

static int psql(const char *sql, const char *out_file)
{
    return pg_psql(&srv, "postgres", sql, out_file);
}

/* Reads whole lines of a file into a NULL-terminated array. */
static char **lines(const char *path, size_t *n)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t cap = 1024;
    char **v = malloc(cap * sizeof *v), buf[8192];
    *n = 0;
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\n")] = 0;
        if (*n + 1 >= cap)
            v = realloc(v, (cap *= 2) * sizeof *v);
        v[(*n)++] = strdup(buf);
    }
    v[*n] = NULL;
    fclose(f);
    return v;
}

static void free_lines(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* "o.v1 IS NOT DISTINCT FROM b.v1 AND ..." for "v1, v2". */
static const char *table_equal_clause(const char *cols)
{
    static char out[512];
    char copy[256];
    snprintf(copy, sizeof copy, "%s", cols);
    out[0] = 0;
    for (char *t = strtok(copy, ", "); t; t = strtok(NULL, ", ")) {
        if (out[0])
            strcat(out, " AND ");
        strcat(out, "o.");
        strcat(out, t);
        strcat(out, " IS NOT DISTINCT FROM b.");
        strcat(out, t);
    }
    return out;
}

typedef struct keyed {
    const char *hex;
    long id;
} keyed;

static int by_key(const void *a, const void *b)
{
    /* lowercase hex compares like the bytes it spells; a shorter prefix first */
    return strcmp(((const keyed *)a)->hex, ((const keyed *)b)->hex);
}

/* check_order, with the rows ordo encodes read from given_csv (values,
 * then id) when it is not NULL instead of exported by COPY. */
static void check_order_of(const char *table, const char *cols, const char *schema,
                           const char *order_by, const char *tz, const char *given_csv)
{
    char sql[4096], csv[512], ids[512], keys[512];
    snprintf(csv, sizeof csv, "%s/rows.csv", dir);
    snprintf(ids, sizeof ids, "%s/ids.txt", dir);
    snprintf(keys, sizeof keys, "%s/keys.txt", dir);
    snprintf(sql, sizeof sql,
             "SET TimeZone = '%s';\n"
             "COPY (SELECT %s, id FROM %s ORDER BY md5(id::text)) TO STDOUT (FORMAT csv);\n",
             tz, cols, table);
    if (given_csv) /* the rows as they were loaded, in their own spelling */
        snprintf(csv, sizeof csv, "%s", given_csv);
    else
        assert_int_equal(psql(sql, csv), 0);
    snprintf(sql, sizeof sql, "COPY (SELECT id FROM %s ORDER BY %s, id) TO STDOUT;\n", table,
             order_by);
    assert_int_equal(psql(sql, ids), 0);
    char full_schema[1024];
    snprintf(full_schema, sizeof full_schema, "%s, id integer", schema);
    /* double quotes: enum labels in the schema are in single quotes */
    int rc = t_sh("'%s' encode --format ordered --schema \"%s\" '%s' > '%s' 2> '%s/ordo.err'", TOOL,
                full_schema, csv, keys, dir);
    if (rc != 0) {
        t_sh("cat '%s/ordo.err' >&2", dir);
        fail_msg("ordo encode failed for %s (%s)", table, schema);
    }
    size_t nrows, nkeys, nids;
    char **rows = lines(csv, &nrows), **k = lines(keys, &nkeys), **want = lines(ids, &nids);
    assert_int_equal(nrows, nkeys);
    assert_int_equal(nids, nkeys);
    keyed *kv = malloc(nkeys * sizeof *kv);
    for (size_t i = 0; i < nkeys; i++) {
        const char *last = strrchr(rows[i], ',');
        kv[i] = (keyed){k[i], strtol(last + 1, NULL, 10)};
    }
    qsort(kv, nkeys, sizeof *kv, by_key);
    for (size_t i = 0; i < nkeys; i++) {
        if (kv[i].id != strtol(want[i], NULL, 10))
            fail_msg("%s ORDER BY %s: position %zu is id %ld, PostgreSQL says %s (key %s)", table,
                     order_by, i, kv[i].id, want[i], kv[i].hex);
    }
    free(kv);
    free_lines(rows, nrows), free_lines(k, nkeys), free_lines(want, nids);

    /* Decoded back, loaded into PostgreSQL, every value is equal to its
     * original (in PostgreSQL's own equality). */
    char back[512];
    snprintf(back, sizeof back, "%s/back.csv", dir);
    rc = t_sh("'%s' decode --format ordered --schema \"%s\" < '%s' > '%s' 2> '%s/ordo.err'", TOOL,
            full_schema, keys, back, dir);
    if (rc != 0) {
        t_sh("cat '%s/ordo.err' >&2", dir);
        fail_msg("ordo decode failed for %s (%s)", table, schema);
    }
    char cmp[512];
    snprintf(cmp, sizeof cmp, "%s/cmp.txt", dir);
    snprintf(sql, sizeof sql,
             "CREATE TABLE back AS SELECT %s, id FROM %s WHERE false;\n"
             "\\copy back FROM '%s' (FORMAT csv)\n"
             "COPY (SELECT (SELECT count(*) FROM %s), count(*) FROM %s o JOIN back b USING (id) "
             "WHERE %s) TO STDOUT;\n"
             "DROP TABLE back;\n",
             cols, table, back, table, table, table_equal_clause(cols));
    if (psql(sql, cmp) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("could not load the decoded rows of %s", table);
    }
    size_t ncmp;
    char **c = lines(cmp, &ncmp);
    assert_int_equal(ncmp, 1);
    long all = 0, same = 0;
    sscanf(c[0], "%ld\t%ld", &all, &same);
    if (all != same)
        fail_msg("%s: %ld of %ld values come back equal from decode", table, same, all);
    free_lines(c, ncmp);
}

/* Table `table` has columns id and the value columns of `cols` ("v1, v2");
 * schema is ordo's ("v1 text DESC, v2 ..."); order_by the SQL ORDER BY. */
static void check_order(const char *table, const char *cols, const char *schema,
                        const char *order_by, const char *tz)
{
    check_order_of(table, cols, schema, order_by, tz, NULL);
}

typedef struct typed {
    const char *name;  /* SQL type */
    const char *gen;   /* random value expression */
    const char *extra; /* special values, as a VALUES list */
    const char *tz;
} typed;

static const typed types[] = {
    {"boolean", "random() < 0.5", "(true),(false)", "UTC"},
    {"smallint", "(random()*65535 - 32768)::int", "(-32768),(32767),(0),(-1)", "UTC"},
    {"integer", "(random()*4294967295 - 2147483648)::bigint", "(-2147483648),(2147483647),(0)", "UTC"},
    {"bigint", "((random()-0.5)*1.8e19)::numeric", "(-9223372036854775808),(9223372036854775807),(0),(-1),(1)", "UTC"},
    {"real", "((random()-0.5)*1e6)::real * (case when random()<0.2 then 1e-30 else 1 end)",
     "('NaN'),('Infinity'),('-Infinity'),('-0'),('0'),(1e-40),(-1e-40),(3.4e38),(-3.4e38)", "UTC"},
    {"double precision", "(random()-0.5)*10^(random()*600-300)",
     "('NaN'),('NaN'),('Infinity'),('-Infinity'),('-0'),('0'),(1e-310),(-1e-310),(1.7976931348623157e308)", "UTC"},
    {"text COLLATE \"C\"", "substr(md5(random()::text), 1, (random()*5)::int) || (case when random()<0.3 then 'é' else '' end)",
     "(''),('a'),('ab'),('a b'),('~'),('ÿ'),(E'\\x01'),(E'\\x7f')", "UTC"},
    {"bytea", "decode(substr(md5(random()::text), 1, (random()*6)::int*2), 'hex')",
     "('\\x'),('\\x00'),('\\x0000'),('\\x0001'),('\\x00ff'),('\\xff'),('\\xff00'),('\\x01')", "UTC"},
    {"uuid", "gen_random_uuid()", "('00000000-0000-0000-0000-000000000000'),('ffffffff-ffff-ffff-ffff-ffffffffffff')", "UTC"},
    {"date", "'2000-01-01'::date + (random()*4000000 - 2000000)::int",
     "('infinity'),('-infinity'),('4714-11-24 BC'),('0001-01-01 BC'),('0001-01-01'),('5874897-12-31')", "UTC"},
    {"time", "'00:00'::time + random() * interval '24 hours'", "('00:00'),('24:00:00'),('23:59:59.999999')", "UTC"},
    {"timestamp", "'2000-01-01'::timestamp + (random()-0.5) * interval '4000 years'",
     "('infinity'),('-infinity'),('4714-11-24 00:00 BC'),('294276-12-31 23:59:59.999999'),('2000-01-01')", "UTC"},
    {"timestamptz", "'2000-01-01'::timestamptz + (random()-0.5) * interval '300 years'",
     "('infinity'),('-infinity'),('1900-01-01 00:00 UTC'),('1937-06-30 23:00 UTC'),('2000-01-01 UTC')",
     "Europe/Amsterdam"},
    {"timestamptz", "'2000-01-01'::timestamptz + (random()-0.5) * interval '300 years'",
     "('4714-11-24 00:00 BC UTC'),('1900-01-01 UTC')", "Asia/Kolkata"},
    {"timetz", "(('00:00'::time + random() * interval '24 hours')::text || (array['+00', '+05:30', '-08', '+05:21:10', '-15:59:59', '+15:59'])[1 + (random()*5)::int])::timetz",
     "('00:00+00'),('24:00:00-15:59:59'),('00:00+15:59:59'),('12:00+01'),('11:00+00'),('13:00+02')", "UTC"},
    {"interval", "make_interval(0, (random()*40-20)::int, 0, (random()*80-40)::int, (random()*100-50)::int, 0, random()*100-50)",
     "('1 mon'),('30 days'),('-1 mon'),('0'),('720 hours'),('-1 years -2 mons +3 days -04:05:06.789')", "UTC"},
    {"inet", "case when random() < 0.5 then set_masklen('0.0.0.0'::inet + (random()*4294967295)::bigint, (random()*32)::int) "
             "else set_masklen(regexp_replace(substr(md5(random()::text), 1, 32), '(.{4})(?!$)', '\\1:', 'g')::inet, (random()*128)::int) end",
     "('0.0.0.0/0'),('255.255.255.255'),('::'),('::ffff:1.2.3.4'),('10.0.0.0/8'),('10.0.0.1/8'),('10.0.0.0/16'),('10.0.0.0'),('0.0.0.0')", "UTC"},
    {"cidr", "network(set_masklen('0.0.0.0'::inet + (random()*4294967295)::bigint, (random()*32)::int))::cidr",
     "('0.0.0.0/0'),('10.0.0.0/8'),('10.0.0.0/16'),('10.0.0.0/32'),('::/0'),('2001:db8::/32'),('::ffff:0.0.0.0/96')", "UTC"},
    {"macaddr", "substr(md5(random()::text), 1, 12)::macaddr", "('00:00:00:00:00:00'),('ff:ff:ff:ff:ff:ff')", "UTC"},
    {"macaddr8", "substr(md5(random()::text), 1, 16)::macaddr8", "('00:00:00:00:00:00:00:00'),('ff:ff:ff:ff:ff:ff:ff:ff')", "UTC"},
    {"pg_lsn", "'0/0'::pg_lsn + (random()*1e15)::numeric", "('0/0'),('FFFFFFFF/FFFFFFFF')", "UTC"},
    {"bit varying", "substr(((random()*4294967295)::bigint)::bit(32)::text, 1, (random()*12)::int)::varbit",
     "(''),('0'),('1'),('00000000'),('000000000'),('111111111'),('10000000')", "UTC"},
    {"bit(8)", "((random()*255)::int)::bit(8)", "('00000000'),('11111111')", "UTC"},
    {"numeric", "round(((random()-0.5) * 10^(random()*40-20))::numeric, (random()*30)::int)",
     "('NaN'),('Infinity'),('-Infinity'),(0),(0.000),(-0.0),(1),(1.0),(1.00),(10),(100),(-1),(-10),"
     "(0.1),(0.01),(-0.01),(123456789012345678901234567890.123456789),(1e-100),(-1e100),(9.99),(10.01)",
     "UTC"},
    /* ranges: small domains, so that bounds tie and inclusivity decides */
    {"int4range", "CASE WHEN random() < 0.08 THEN 'empty'::int4range ELSE int4range("
                  "CASE WHEN random() < 0.15 THEN NULL ELSE (random()*6)::int - 3 END, "
                  "CASE WHEN random() < 0.15 THEN NULL ELSE (random()*6)::int + 3 END, "
                  "(array['[)','(]','[]','()'])[1 + (random()*3)::int]) END",
     "('empty'),('(,)'),('[-2147483648,2147483646]'),('(,5)'),('[5,)'),('[3,3]'),('(3,4)'),('[-3,3)')", "UTC"},
    {"int8range", "int8range((random()*4)::int - 2 + CASE WHEN random() < 0.5 THEN ((random()-1)*9e18)::bigint ELSE 0 END, "
                  "(random()*4)::int + 2 + CASE WHEN random() < 0.5 THEN (random()*9e18)::bigint ELSE 0 END, "
                  "(array['[)','(]','[]','()'])[1 + (random()*3)::int])",
     "('empty'),('(,)'),('[-9223372036854775808,9223372036854775806]'),('(,0)'),('[0,)')", "UTC"},
    {"numrange", "numrange((array[NULL, -1.5, 0, 0.00, 1, 1.5])[1 + (random()*5)::int]::numeric, "
                 "(array[1.5, 1.50, 2, 10, NULL])[1 + (random()*4)::int]::numeric, "
                 "(array['[)','(]','[]','()'])[1 + (random()*3)::int])",
     "('empty'),('[1,1]'),('(,)'),('[1,NaN]'),('[NaN,NaN]'),('(-Infinity,Infinity)'),('[-Infinity,1)')", "UTC"},
    {"daterange", "daterange((array[NULL, '-infinity'::date, '2000-01-01', '2000-01-02', '2000-01-03'])[1 + (random()*4)::int], "
                  "(array['2000-01-03'::date, '2000-01-04', '2000-01-10', 'infinity', NULL])[1 + (random()*4)::int], "
                  "(array['[)','(]','[]','()'])[1 + (random()*3)::int])",
     "('empty'),('[-infinity,infinity]'),('(-infinity,infinity)'),('[-infinity,infinity)'),('(,)'),('[4714-11-24 BC,5874897-12-30]')", "UTC"},
    {"tsrange", "tsrange((array[NULL, '-infinity'::timestamp, '2000-01-01', '2000-01-01 00:00:00.000001', '2000-01-02'])[1 + (random()*4)::int], "
                "(array['2000-01-02'::timestamp, '2000-01-03', 'infinity', NULL])[1 + (random()*3)::int], "
                "(array['[)','(]','[]','()'])[1 + (random()*3)::int])",
     "('empty'),('[-infinity,infinity]'),('(,)'),('[2000-01-02,2000-01-02]')", "UTC"},
    {"tstzrange", "tstzrange((array[NULL, '-infinity'::timestamptz, '2000-01-01 UTC', '2000-01-01 00:00:00.000001 UTC', '2000-01-02 UTC'])[1 + (random()*4)::int], "
                  "(array['2000-01-02 UTC'::timestamptz, '2000-01-03 UTC', 'infinity', NULL])[1 + (random()*3)::int], "
                  "(array['[)','(]','[]','()'])[1 + (random()*3)::int])",
     "('empty'),('[-infinity,infinity]'),('(,)')", "Asia/Kolkata"},
    /* arrays: a NULL element above every value whatever the column's NULLS
     * placement, a shorter equal prefix first (the subquery refers to the
     * outer row, so it runs again for every row) */
    {"integer[]", "array(SELECT CASE WHEN random() < 0.2 THEN NULL ELSE (random()*3)::int - 1 END "
                  "FROM generate_series(1, (random()*3)::int + 0*generate_series) AS s(x))",
     "('{}'),('{NULL}'),('{NULL,NULL}'),('{-2147483648}'),('{2147483647,NULL}'),('{1,2,3,4}')", "UTC"},
    {"text[] COLLATE \"C\"", "array(SELECT (array['', 'a', 'a b', 'NULL', 'x\"y', 'back\\slash', '{}', ',', NULL, 'ab', 'é'])[1 + (random()*10)::int] "
                             "FROM generate_series(1, (random()*3)::int + 0*generate_series) AS s(x))",
     "('{}'),('{\"\"}'),('{\"\",\"\"}'),('{NULL}'),('{\"\\\\\"}')", "UTC"},
    {"uuid[]", "array(SELECT (array['00000000-0000-0000-0000-000000000000'::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff', gen_random_uuid(), NULL])[1 + (random()*3)::int] "
               "FROM generate_series(1, (random()*3)::int + 0*generate_series) AS s(x))",
     "('{}'),('{NULL}')", "UTC"},
    {"numeric[]", "array(SELECT (array[NULL, 'NaN'::numeric, '-Infinity', 0, 1.5, 1.50, -2, 1e20])[1 + (random()*7)::int] "
                  "FROM generate_series(1, (random()*3)::int + 0*generate_series) AS s(x))",
     "('{}'),('{0.000}'),('{Infinity}')", "UTC"},
    {"double precision[]", "array(SELECT (array[NULL, 'NaN'::float8, '-Infinity', '-0', 0, 1.5, 1e-310])[1 + (random()*6)::int] "
                           "FROM generate_series(1, (random()*3)::int + 0*generate_series) AS s(x))",
     "('{}'),('{Infinity}')", "UTC"},
    {"date[]", "array(SELECT (array[NULL, '-infinity'::date, '2000-01-01', '0044-03-15 BC', 'infinity'])[1 + (random()*4)::int] "
               "FROM generate_series(1, (random()*3)::int + 0*generate_series) AS s(x))",
     "('{}')", "UTC"},
    {"timestamptz[]", "array(SELECT (array[NULL, '-infinity'::timestamptz, '2000-01-01 UTC', '1900-01-01 UTC', 'infinity'])[1 + (random()*4)::int] "
                      "FROM generate_series(1, (random()*3)::int + 0*generate_series) AS s(x))",
     "('{}')", "Europe/Amsterdam"},
    {"bytea[]", "array(SELECT (array['\\x'::bytea, '\\x00', '\\x0001', '\\xff', NULL])[1 + (random()*4)::int] "
                "FROM generate_series(1, (random()*3)::int + 0*generate_series) AS s(x))",
     "('{}')", "UTC"},
    {"boolean[]", "array(SELECT (array[NULL, true, false])[1 + (random()*2)::int] "
                  "FROM generate_series(1, (random()*3)::int + 0*generate_series) AS s(x))",
     "('{}')", "UTC"},
    {"interval[]", "array(SELECT (array[NULL, '1 mon'::interval, '30 days', '-1 day', '0'])[1 + (random()*4)::int] "
                   "FROM generate_series(1, (random()*3)::int + 0*generate_series) AS s(x))",
     "('{}')", "UTC"},
    {"inet[]", "array(SELECT (array[NULL, '10.0.0.1/8'::inet, '10.0.0.0/8', '::1', '0.0.0.0/0'])[1 + (random()*4)::int] "
               "FROM generate_series(1, (random()*3)::int + 0*generate_series) AS s(x))",
     "('{}')", "UTC"},
};

static const char *orders[4] = {"ASC NULLS FIRST", "ASC NULLS LAST", "DESC NULLS FIRST",
                                "DESC NULLS LAST"};

static void every_type_every_order(void **state)
{
    (void)state;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        char sql[4096], table[32];
        snprintf(table, sizeof table, "t%zu", t);
        snprintf(sql, sizeof sql,
                 "CREATE TABLE %s (id serial, v %s);\n"
                 "INSERT INTO %s (v) SELECT %s FROM generate_series(1, 400);\n"
                 "INSERT INTO %s (v) VALUES %s, (NULL), (NULL);\n"
                 "INSERT INTO %s (v) SELECT v FROM %s WHERE id %% 50 = 0;\n", /* duplicates */
                 table, types[t].name, table, types[t].gen, table, types[t].extra, table, table);
        if (psql(sql, NULL) != 0) {
            pg_psql_show_error(&srv);
            fail_msg("could not fill %s", types[t].name);
        }
        /* ordo's schema spells the type without the collation */
        char type[64];
        snprintf(type, sizeof type, "%s", types[t].name);
        char *coll = strstr(type, " COLLATE");
        if (coll)
            *coll = 0;
        for (int o = 0; o < 4; o++) {
            char schema[256], order_by[128];
            snprintf(schema, sizeof schema, "v %s %s", type, orders[o]);
            snprintf(order_by, sizeof order_by, "v %s", orders[o]);
            check_order(table, "v", schema, order_by, types[t].tz);
        }
        /* PostgreSQL's defaults: ASC is NULLS LAST, DESC is NULLS FIRST */
        char schema[256];
        snprintf(schema, sizeof schema, "v %s DESC", type);
        check_order(table, "v", schema, "v DESC", types[t].tz);
        snprintf(schema, sizeof schema, "v %s", type);
        check_order(table, "v", schema, "v", types[t].tz);
    }
}

static void multi_column(void **state)
{
    (void)state;
    const char *sql =
        "CREATE TABLE m (id serial, a text COLLATE \"C\", b integer, c double precision, d date);\n"
        "INSERT INTO m (a, b, c, d) SELECT\n"
        "  (array['', 'a', 'ab', 'b', NULL])[1 + (random()*4)::int],\n"
        "  (array[-1, 0, 1, NULL])[1 + (random()*3)::int],\n"
        "  (array['NaN'::float8, '-Infinity', 0, 1.5, NULL])[1 + (random()*4)::int],\n"
        "  (array['infinity'::date, '2000-01-01', '0044-03-15 BC', NULL])[1 + (random()*3)::int]\n"
        "FROM generate_series(1, 600);\n";
    if (psql(sql, NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("could not fill the multi-column table");
    }
    check_order("m", "a, b, c, d",
                "a text DESC, b integer ASC NULLS FIRST, c double precision, d date DESC NULLS LAST",
                "a DESC, b ASC NULLS FIRST, c, d DESC NULLS LAST", "UTC");
    check_order("m", "d, c, b, a", "d date, c double precision DESC, b integer DESC, a text",
                "d, c DESC, b DESC, a", "UTC");
}

/* An enum sorts by its labels' declaration order, not by their text. */
static void enum_labels(void **state)
{
    (void)state;
    const char *sql =
        "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy', 'a,b', 'it''s', '');\n"
        "CREATE TABLE e (id serial, v mood);\n"
        "INSERT INTO e (v) SELECT (enum_range(NULL::mood))[1 + (random()*5)::int]\n"
        "  FROM generate_series(1, 300);\n"
        "INSERT INTO e (v) VALUES (NULL), (NULL);\n";
    if (psql(sql, NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("could not fill the enum table");
    }
    const char *type = "enum('sad', 'ok', 'happy', 'a,b', 'it''s', '')";
    for (int o = 0; o < 4; o++) {
        char schema[256], order_by[64];
        snprintf(schema, sizeof schema, "v %s %s", type, orders[o]);
        snprintf(order_by, sizeof order_by, "v %s", orders[o]);
        check_order("e", "v", schema, order_by, "UTC");
    }
}

/* Records (composite types) sort field by field, a NULL field above every
 * value; nested records too. */
static void records(void **state)
{
    (void)state;
    const char *sql =
        "CREATE TYPE pair AS (a integer, b text COLLATE \"C\");\n"
        "CREATE TYPE nest AS (p pair, d double precision);\n"
        "CREATE TABLE r (id serial, v pair);\n"
        "INSERT INTO r (v) SELECT CASE WHEN random() < 0.05 THEN NULL ELSE ROW(\n"
        "  CASE WHEN random() < 0.2 THEN NULL ELSE (random()*6)::int - 3 END,\n"
        "  (array['', 'a', 'a,b', 'q\"x', '(p)', ' s', 'back\\slash', 'ab', NULL])[1 + (random()*8)::int]\n"
        "  )::pair END FROM generate_series(1, 400);\n"
        "CREATE TABLE n (id serial, v nest);\n"
        "INSERT INTO n (v) SELECT CASE WHEN random() < 0.05 THEN NULL ELSE ROW(\n"
        "  CASE WHEN random() < 0.2 THEN NULL ELSE ROW((random()*3)::int, (array['x', '', NULL])[1 + (random()*2)::int])::pair END,\n"
        "  (array[NULL, 0, 1.5, 'NaN', '-Infinity'])[1 + (random()*4)::int]::float8\n"
        "  )::nest END FROM generate_series(1, 400);\n";
    if (psql(sql, NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("could not fill the record tables");
    }
    for (int o = 0; o < 4; o++) {
        char schema[256], order_by[64];
        snprintf(schema, sizeof schema, "v record(a integer, b text) %s", orders[o]);
        snprintf(order_by, sizeof order_by, "v %s", orders[o]);
        check_order("r", "v", schema, order_by, "UTC");
        snprintf(schema, sizeof schema,
                 "v record(p record(a integer, b text), d double precision) %s", orders[o]);
        check_order("n", "v", schema, order_by, "UTC");
    }
}

/* Ranges and arrays beside other columns, and inside records. */
static void nested_columns(void **state)
{
    (void)state;
    const char *sql =
        "CREATE TYPE rr AS (r int4range, a text[]);\n"
        "CREATE TABLE na (id serial, a int4range, b integer[], c text COLLATE \"C\", v rr);\n"
        "INSERT INTO na (a, b, c, v) SELECT\n"
        "  (array['empty'::int4range, '[1,3)', '[1,4)', '(,3)', NULL])[1 + (random()*4)::int],\n"
        "  CASE (random()*4)::int WHEN 0 THEN '{}'::int[] WHEN 1 THEN '{1}' WHEN 2 THEN '{1,NULL}'\n"
        "    WHEN 3 THEN '{NULL}' END,\n"
        "  (array['', 'a', NULL])[1 + (random()*2)::int],\n"
        "  CASE WHEN random() < 0.1 THEN NULL ELSE ROW(\n"
        "    (array['empty'::int4range, '[1,3)', '(,)', NULL])[1 + (random()*3)::int],\n"
        "    CASE (random()*4)::int WHEN 0 THEN '{}'::text[] WHEN 1 THEN '{a}' WHEN 2 THEN '{a,NULL}'\n"
        "      WHEN 3 THEN '{\"a b\"}' END)::rr END\n"
        "FROM generate_series(1, 500);\n";
    if (psql(sql, NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("could not fill the range and array table");
    }
    check_order("na", "a, b, c", "a int4range DESC, b integer[] ASC NULLS FIRST, c text",
                "a DESC, b ASC NULLS FIRST, c", "UTC");
    check_order("na", "b, a, c", "b integer[] DESC NULLS LAST, a int4range, c text DESC",
                "b DESC NULLS LAST, a, c DESC", "UTC");
    for (int o = 0; o < 4; o++) {
        char schema[256], order_by[64];
        snprintf(schema, sizeof schema, "v record(r int4range, a text[]) %s", orders[o]);
        snprintf(order_by, sizeof order_by, "v %s", orders[o]);
        check_order("na", "v", schema, order_by, "UTC");
    }
}

/* Times without seconds ('2020-01-01 10:00', '10:00'), as PostgreSQL
 * reads them, beside spellings with seconds: the same CSV loaded by
 * PostgreSQL and encoded by ordo sorts the same, in all four orders. */
static void time_spellings(void **state)
{
    (void)state;
    static const struct {
        const char *type, *words[10];
    } sp[] = {
        {"timestamp", {"2020-01-01 10:00", "2020-01-01 10:00:00", "2020-01-01 09:59:59.5", "2020-01-01 10:01",
                       "2020-01-01T10:00", "1999-12-31 23:59", "2020-01-01 24:00", "2020-01-01 00:00", ""}},
        {"timestamptz", {"2020-01-01 10:00+02", "2020-01-01 08:00Z", "2020-01-01 08:00:00+00",
                         "2020-01-01 10:00-01:30", "2020-01-01 07:59+00", "2020-01-01 08:00:00.5+00", ""}},
        {"time", {"10:00", "10:00:00", "09:59:59.999999", "24:00", "00:00", "23:59", ""}},
        {"timetz", {"10:00+02", "08:00+00", "10:00:00+02", "07:59-01", "08:00:00.1+00", ""}},
    };
    uint64_t seed = t_seed();
    for (size_t t = 0; t < sizeof sp / sizeof sp[0]; t++) {
        size_t nw = 0;
        while (sp[t].words[nw] && sp[t].words[nw][0])
            nw++;
        nw++; /* the empty word: NULL */
        char path[512], table[16];
        snprintf(path, sizeof path, "%s/times%zu.csv", dir, t);
        snprintf(table, sizeof table, "ts%zu", t);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        int id = 0;
        for (int rep = 0; rep < 8; rep++)
            for (size_t i = 0; i < nw; i++)
                fprintf(f, "%s,%d\n", sp[t].words[(i + t_rand(&seed)) % nw], ++id);
        fclose(f);
        char sql[1024];
        snprintf(sql, sizeof sql,
                 "SET TimeZone = 'UTC';\n"
                 "CREATE TABLE %s (id integer, v %s);\n"
                 "\\copy %s (v, id) FROM '%s' (FORMAT csv)\n",
                 table, sp[t].type, table, path);
        if (psql(sql, NULL) != 0) {
            pg_psql_show_error(&srv);
            fail_msg("PostgreSQL did not load the %s spellings", sp[t].type);
        }
        for (int o = 0; o < 4; o++) {
            char schema[128], order_by[64];
            snprintf(schema, sizeof schema, "v %s %s", sp[t].type, orders[o]);
            snprintf(order_by, sizeof order_by, "v %s", orders[o]);
            check_order_of(table, "v", schema, order_by, "UTC", path);
        }
    }
}

/* Arrays of enums, records and ranges: NULL elements, empty arrays, NULL
 * records beside records of NULLs, empty ranges; and such arrays inside a
 * record. */
static void element_arrays(void **state)
{
    (void)state;
    const char *sql =
        "CREATE TYPE mood2 AS ENUM ('sad', 'ok', 'happy', 'a b');\n"
        "CREATE TYPE pr AS (a integer, b text COLLATE \"C\");\n"
        "CREATE TYPE ar AS (x integer, rs pr[], gs int4range[]);\n"
        "CREATE TABLE ae (id serial, e mood2[], r pr[], g int4range[], d daterange[], n numrange[], v ar);\n"
        "INSERT INTO ae (e, r, g, d, n, v) SELECT\n"
        "  CASE WHEN random() < 0.05 THEN NULL ELSE array(SELECT CASE WHEN random() < 0.2 THEN NULL\n"
        "    ELSE (enum_range(NULL::mood2))[1 + (random()*3)::int] END\n"
        "    FROM generate_series(1, (random()*3)::int + 0*g) AS s(x)) END,\n"
        "  CASE WHEN random() < 0.05 THEN NULL ELSE array(SELECT CASE WHEN random() < 0.15 THEN NULL\n"
        "    ELSE ROW(CASE WHEN random() < 0.3 THEN NULL ELSE (random()*2)::int END,\n"
        "      (array['', 'a', 'a b', 'x\"y', NULL, NULL])[1 + (random()*5)::int])::pr END\n"
        "    FROM generate_series(1, (random()*3)::int + 0*g) AS s(x)) END,\n"
        "  CASE WHEN random() < 0.05 THEN NULL ELSE array(SELECT\n"
        "    (array['empty'::int4range, '[1,3)', '[1,4)', '(,3)', '(,)', '[2,)', NULL])[1 + (random()*6)::int]\n"
        "    FROM generate_series(1, (random()*3)::int + 0*g) AS s(x)) END,\n"
        "  array(SELECT (array['empty'::daterange, '[2000-01-01,2000-01-03)', '[-infinity,2000-01-01)',\n"
        "    '(,)', '[2000-01-01,infinity]', NULL])[1 + (random()*5)::int]\n"
        "    FROM generate_series(1, (random()*3)::int + 0*g) AS s(x)),\n"
        "  array(SELECT (array['empty'::numrange, '[1.5,2]', '(1.5,2]', '[1.5,2)', '(,)', '[NaN,NaN]', NULL])[1 + (random()*6)::int]\n"
        "    FROM generate_series(1, (random()*2)::int + 0*g) AS s(x)),\n"
        "  CASE WHEN random() < 0.05 THEN NULL ELSE ROW((random()*1)::int,\n"
        "    array(SELECT CASE WHEN random() < 0.2 THEN NULL ELSE ROW((random()*1)::int, NULL)::pr END\n"
        "      FROM generate_series(1, (random()*2)::int + 0*g) AS s(x)),\n"
        "    CASE WHEN random() < 0.2 THEN NULL ELSE array(SELECT\n"
        "      (array['empty'::int4range, '[1,3)', NULL])[1 + (random()*2)::int]\n"
        "      FROM generate_series(1, (random()*2)::int + 0*g) AS s(x)) END)::ar END\n"
        "FROM generate_series(1, 500) AS g;\n"
        "INSERT INTO ae (e, r, g) VALUES ('{}', '{}', '{}'), ('{NULL}', '{NULL}', '{NULL}'),\n"
        "  (NULL, '{\"(,)\"}', '{empty}'), (NULL, '{NULL,\"(,)\"}', '{empty,NULL}');\n";
    if (psql(sql, NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("could not fill the element array table");
    }
    static const char *const cols[][2] = {
        {"e", "enum('sad', 'ok', 'happy', 'a b')[]"},
        {"r", "record(a integer, b text)[]"},
        {"g", "int4range[]"},
        {"d", "daterange[]"},
        {"n", "numrange[]"},
        {"v", "record(x integer, rs record(a integer, b text)[], gs int4range[])"},
    };
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
        for (int o = 0; o < 4; o++) {
            char schema[256], order_by[64];
            snprintf(schema, sizeof schema, "%s %s %s", cols[c][0], cols[c][1], orders[o]);
            snprintf(order_by, sizeof order_by, "%s %s", cols[c][0], orders[o]);
            check_order("ae", cols[c][0], schema, order_by, "UTC");
        }
    }
    check_order("ae", "g, e, r",
                "g int4range[] DESC, e enum('sad', 'ok', 'happy', 'a b')[], "
                "r record(a integer, b text)[] DESC NULLS LAST",
                "g DESC, e, r DESC NULLS LAST", "UTC");
}

/* numeric's NaN and infinities in every spelling PostgreSQL accepts: the
 * same CSV loaded by PostgreSQL and encoded by ordo sorts the same, NaN above
 * every number, in all four orders. */
static void numeric_spellings(void **state)
{
    (void)state;
    static const char *const words[] = {"NaN", "nan", "NAN", "Infinity", "infinity", "+Infinity",
                                        "+INFINITY", "-Infinity", "-infinity", "inf", "INF",
                                        "+inf", "-inf", "-Inf", "0", "-1.5", "1e300", "-1e-300",
                                        "123456789.000000001", ""};
    char path[512];
    snprintf(path, sizeof path, "%s/spellings.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    uint64_t seed = t_seed();
    int id = 0;
    for (int rep = 0; rep < 10; rep++)
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
            fprintf(f, "%s,%d\n", words[(i + t_rand(&seed)) % (sizeof words / sizeof words[0])],
                    ++id);
    fclose(f);
    char sql[1024];
    snprintf(sql, sizeof sql,
             "CREATE TABLE sp (id integer, v numeric);\n"
             "\\copy sp (v, id) FROM '%s' (FORMAT csv)\n",
             path);
    if (psql(sql, NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("PostgreSQL did not load the numeric spellings");
    }
    for (int o = 0; o < 4; o++) {
        char schema[128], order_by[64];
        snprintf(schema, sizeof schema, "v numeric %s", orders[o]);
        snprintf(order_by, sizeof order_by, "v %s", orders[o]);
        check_order_of("sp", "v", schema, order_by, "UTC", path);
    }
}

/* One value as a CSV field, always quoted (an empty field would be NULL). */
static void csv_quoted(FILE *f, const char *v)
{
    fputc('"', f);
    for (; *v; v++) {
        if (*v == '"')
            fputc('"', f);
        fputc(*v, f);
    }
    fputc('"', f);
}

/* White space around a value, which PostgreSQL's input functions of these
 * types skip (and those of uuid, inet, bit and enums refuse: test_cli): the
 * same CSV, every field quoted, loaded by PostgreSQL and encoded by ordo,
 * sorts the same in all four orders. */
static void csv_quoted(FILE *f, const char *v);

static void padded_spellings(void **state)
{
    (void)state;
    static const struct {
        const char *type, *words[8];
    } sp[] = {
        {"integer", {" 12", "12 ", "\t-3\t", " 0 ", "7", ""}},
        {"bigint", {" -9223372036854775808 ", "9223372036854775807\v", " 1", ""}},
        {"smallint", {" -3", "  4  ", ""}},
        {"boolean", {" t ", "yes ", " off", "\tfalse", " 1", ""}},
        {"real", {" 1.5", "-2 ", " NaN ", " -Infinity", ""}},
        {"double precision", {"1.5 ", " -1e300", " 0.1 ", "\vInfinity", ""}},
        {"numeric", {" 7 ", " NaN", "-1.50 ", " 1e-5", "\f2", ""}},
        {"date", {" 2020-01-01 ", "1999-12-31 ", " infinity", ""}},
        {"timestamp", {" 2020-01-01 10:00 ", "2020-01-01 09:00\t", " -infinity", ""}},
        {"timestamptz", {" 2020-01-01 10:00+02 ", "2020-01-01 07:00Z ", ""}},
        {"time", {" 10:00 ", "09:59:59.5 ", " 24:00", ""}},
        {"timetz", {" 10:00+02 ", "08:00+00 ", ""}},
        {"interval", {" 1 day ", "-3 mons ", " 00:00:01", ""}},
        {"macaddr", {" 08:00:2b:01:02:03", "08:00:2b:01:02:04 ", ""}},
        {"macaddr8", {" 08:00:2b:01:02:03:04:05", "08:00:2b:01:02:03:04:06 ", ""}},
    };
    uint64_t seed = t_seed();
    for (size_t t = 0; t < sizeof sp / sizeof sp[0]; t++) {
        size_t nw = 0;
        while (sp[t].words[nw][0])
            nw++;
        nw++; /* the empty word: NULL */
        char path[512], table[16];
        snprintf(path, sizeof path, "%s/padded%zu.csv", dir, t);
        snprintf(table, sizeof table, "pad%zu", t);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        int id = 0;
        for (int rep = 0; rep < 6; rep++)
            for (size_t i = 0; i < nw; i++) {
                const char *w = sp[t].words[(i + t_rand(&seed)) % nw];
                if (*w)
                    csv_quoted(f, w);
                fprintf(f, ",%d\n", ++id);
            }
        fclose(f);
        char sql[1024];
        snprintf(sql, sizeof sql,
                 "SET TimeZone = 'UTC';\n"
                 "CREATE TABLE %s (id integer, v %s);\n"
                 "\\copy %s (v, id) FROM '%s' (FORMAT csv)\n",
                 table, sp[t].type, table, path);
        if (psql(sql, NULL) != 0) {
            pg_psql_show_error(&srv);
            fail_msg("PostgreSQL did not load the padded %s values", sp[t].type);
        }
        for (int o = 0; o < 4; o++) {
            char schema[128], order_by[64];
            snprintf(schema, sizeof schema, "v %s %s", sp[t].type, orders[o]);
            snprintf(order_by, sizeof order_by, "v %s", orders[o]);
            check_order_of(table, "v", schema, order_by, "UTC", path);
        }
    }
}

/* Collated text (#16): every test string, pairs of them, duplicates (equal
 * bytes) and NULLs, in PostgreSQL's ORDER BY under libc and ICU collations
 * in all four orders; then in a multi-column key and inside a record. The
 * strings that collate equal but differ in bytes (é and e + U+0301) test
 * PostgreSQL's tie-break. */
static void collations(void **state)
{
    (void)state;
    char path[512], sql[4096];
    snprintf(path, sizeof path, "%s/coll.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    uint64_t seed = t_seed();
    int id = 0;
    for (int rep = 0; rep < 2; rep++)
        for (size_t i = 0; i < COLL_NSTRINGS; i++) {
            csv_quoted(f, coll_strings[i]);
            fprintf(f, ",%d,%d\n", ++id, (int)(t_rand(&seed) % 3));
        }
    for (int i = 0; i < 400; i++) {
        char pair[128];
        snprintf(pair, sizeof pair, "%s%s", coll_strings[t_rand(&seed) % COLL_NSTRINGS],
                 coll_strings[t_rand(&seed) % COLL_NSTRINGS]);
        csv_quoted(f, pair);
        fprintf(f, ",%d,%d\n", ++id, (int)(t_rand(&seed) % 3));
    }
    fprintf(f, ",%d,1\n,%d,2\n", id + 1, id + 2); /* NULLs */
    fclose(f);
    /* PostgreSQL 15 imports libc locales (locale -a) and ICU's locales at
     * initdb; a tailoring by keyword is created here. */
    snprintf(sql, sizeof sql,
             "CREATE COLLATION IF NOT EXISTS \"de-DE-u-co-phonebk-x-icu\" "
             "(provider = icu, locale = 'de-DE-u-co-phonebk');\n"
             "CREATE TABLE ct (id integer, v text, n integer);\n"
             "\\copy ct (v, id, n) FROM '%s' (FORMAT csv)\n",
             path);
    if (psql(sql, NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("could not fill the collation table");
    }
    const char *names[16];
    size_t nnames = 0;
    for (size_t i = 0; i < sizeof coll_libc_names / sizeof *coll_libc_names; i++)
        names[nnames++] = coll_libc_names[i];
    for (size_t i = 0; i < sizeof coll_icu_names / sizeof *coll_icu_names; i++)
        names[nnames++] = coll_icu_names[i];
    for (size_t c = 0; c < nnames; c++) {
        for (int o = 0; o < 4; o++) {
            char schema[256], order_by[128];
            /* the schema goes to the shell in double quotes: \" */
            snprintf(schema, sizeof schema, "v text COLLATE \\\"%s\\\" %s", names[c], orders[o]);
            snprintf(order_by, sizeof order_by, "v COLLATE \"%s\" %s", names[c], orders[o]);
            check_order("ct", "v", schema, order_by, "UTC");
        }
    }
    /* Where glibc's strxfrm_l and strcoll_l disagree (SPEC.md 17.5): the
     * tricky strings, alone and in pairs; and the generated corpus of
     * spaces, punctuation, hyphens and apostrophes at every position. ordo
     * follows strcoll_l under libc as ICU's keys do under ICU. */
    snprintf(path, sizeof path, "%s/tricky.csv", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    id = 0;
    for (size_t i = 0; i < COLL_NTRICKY; i++)
        for (size_t j = 0; j <= COLL_NTRICKY; j++) {
            char pair[64];
            snprintf(pair, sizeof pair, "%s%s", coll_tricky_strings[i],
                     j < COLL_NTRICKY ? coll_tricky_strings[j] : "");
            csv_quoted(f, pair);
            fprintf(f, ",%d\n", ++id);
        }
    fclose(f);
    enum { NPUNCT = 1500 };
    static char punct[NPUNCT][COLL_GEN_LEN];
    assert_int_equal(coll_gen_strings(punct, NPUNCT, seed), NPUNCT);
    snprintf(path, sizeof path, "%s/punct.csv", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < NPUNCT; i++) {
        csv_quoted(f, punct[i]);
        fprintf(f, ",%zu\n", i + 1);
    }
    fclose(f);
    snprintf(sql, sizeof sql,
             "CREATE TABLE tricky (id integer, v text);\n"
             "\\copy tricky (v, id) FROM '%s/tricky.csv' (FORMAT csv)\n"
             "CREATE TABLE punct (id integer, v text);\n"
             "\\copy punct (v, id) FROM '%s/punct.csv' (FORMAT csv)\n",
             dir, dir);
    if (psql(sql, NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("could not fill the tricky tables");
    }
    for (size_t c = 0; c < nnames; c++)
        for (int o = 0; o < 4; o += 3) {
            char schema[256], order_by[128];
            snprintf(schema, sizeof schema, "v text COLLATE \\\"%s\\\" %s", names[c], orders[o]);
            snprintf(order_by, sizeof order_by, "v COLLATE \"%s\" %s", names[c], orders[o]);
            check_order("tricky", "v", schema, order_by, "UTC");
            check_order("punct", "v", schema, order_by, "UTC");
        }
    /* Multi-column: two collations and an integer between them. */
    check_order("ct", "n, v",
                "n integer DESC, v text COLLATE \\\"sv-SE-x-icu\\\" ASC NULLS FIRST",
                "n DESC, v COLLATE \"sv-SE-x-icu\" ASC NULLS FIRST", "UTC");
    check_order("ct", "v, n",
                "v varchar COLLATE \\\"en_US.utf8\\\" DESC NULLS LAST, n integer",
                "v COLLATE \"en_US.utf8\" DESC NULLS LAST, n", "UTC");
    /* char(n): trailing spaces do not count, then the collation */
    if (psql("CREATE TABLE cb AS SELECT id, v::char(6) AS v FROM ct;\n", NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("could not fill the char(n) table");
    }
    check_order("cb", "v", "v char(6) COLLATE \\\"sv-SE-x-icu\\\" DESC",
                "v COLLATE \"sv-SE-x-icu\" DESC", "UTC");
    check_order("cb", "v", "v char(6) COLLATE \\\"en_US.utf8\\\"", "v COLLATE \"en_US.utf8\"",
                "UTC");
    /* Arrays: text[] COLLATE "x" collates the elements (PostgreSQL's
     * grammar puts the clause after the array type). Each row's first
     * element is its ct value (so é and e + U+0301, equal under ICU, meet),
     * then another row's, sometimes a NULL; some arrays empty or NULL. */
    snprintf(sql, sizeof sql,
             "CREATE TABLE ca (id integer, v text[]);\n"
             "INSERT INTO ca SELECT id, CASE WHEN id %% 31 = 0 THEN NULL\n"
             "  WHEN id %% 31 = 1 THEN '{}'::text[]\n"
             "  WHEN id %% 7 = 2 THEN ARRAY[v]\n"
             "  ELSE ARRAY[v, (SELECT c2.v FROM ct c2 WHERE c2.id = (ct.id * 7) %% "
             "(SELECT max(id) FROM ct) + 1)]\n"
             "    || CASE WHEN id %% 5 = 0 THEN ARRAY[NULL::text] ELSE '{}' END END\n"
             "FROM ct;\n");
    if (psql(sql, NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("could not fill the collated array table");
    }
    static const char *const array_colls[] = {"en_US.utf8", "sv-SE-x-icu"};
    for (size_t c = 0; c < 2; c++)
        for (int o = 0; o < 4; o++) {
            char schema[256], order_by[128];
            snprintf(schema, sizeof schema, "v %s COLLATE \\\"%s\\\" %s",
                     o == 2 ? "varchar[]" : "text[]", array_colls[c], orders[o]);
            snprintf(order_by, sizeof order_by, "v COLLATE \"%s\" %s", array_colls[c], orders[o]);
            check_order("ca", "v", schema, order_by, "UTC");
        }
    /* In a record: the field's collation orders the record. */
    snprintf(sql, sizeof sql,
             "CREATE TYPE cpair AS (a text COLLATE \"de-DE-u-co-phonebk-x-icu\", b integer);\n"
             "CREATE TABLE cr (id integer, v cpair);\n"
             "INSERT INTO cr SELECT id, CASE WHEN id %% 37 = 0 THEN NULL ELSE ROW(v, n)::cpair END "
             "FROM ct;\n");
    if (psql(sql, NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("could not fill the collated record table");
    }
    for (int o = 0; o < 4; o++) {
        char schema[256], order_by[64];
        snprintf(schema, sizeof schema,
                 "v record(a text COLLATE \\\"de-DE-u-co-phonebk-x-icu\\\", b integer) %s",
                 orders[o]);
        snprintf(order_by, sizeof order_by, "v %s", orders[o]);
        check_order("cr", "v", schema, order_by, "UTC");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_type_every_order),
        cmocka_unit_test(multi_column),
        cmocka_unit_test(enum_labels),
        cmocka_unit_test(records),
        cmocka_unit_test(numeric_spellings),
        cmocka_unit_test(nested_columns),
        cmocka_unit_test(element_arrays),
        cmocka_unit_test(time_spellings),
        cmocka_unit_test(padded_spellings),
        cmocka_unit_test(collations),
    };
    return cmocka_run_group_tests(tests, start_server, stop_server);
}
