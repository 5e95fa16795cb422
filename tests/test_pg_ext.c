/* The PostgreSQL extension (pg/) against a real server: a throwaway
 * cluster (pg_server.h) whose server finds the built ordo.so, ordo.control
 * and ordo--*.sql without installing anything outside its directory.
 *
 * For random rows of every supported type (NULLs, extremes and ties
 * included) in all four orders: ORDER BY ordo_key(...) ranks every row as
 * ORDER BY the value does (so equal values give equal keys and no others),
 * and the keys are byte for byte what `ordo encode --format ordered
 * --schema ... --key ...` makes of the same rows exported with COPY as CSV,
 * and (with the Python package built) what ordo.encode_keys makes of them
 * (one interpreter for all, at the end). Also several values at once,
 * VARIADIC arrays, collations, errors, a prefix query on an expression
 * index, and docs/postgres.md's check of a mirror. The server is stopped
 * even on failure. */
#include "ordo_test.h"

#include "pg_server.h"

#include <unistd.h>

#define TOOL ORDO_TOOL_PATH

static pg_server srv;
static const char *const dir = srv.dir;
static uint64_t seed;

static int start_server(void **state)
{
    (void)state;
    seed = t_seed();
    const pg_server_options o = {
        .bindir = ORDO_PG_BINDIR,
        .settings = "-c TimeZone=UTC -c jit=off",
        .module = ORDO_PG_MODULE,
        .ext_dir = ORDO_PG_SRC,
        .pkglibdir = ORDO_PG_PKGLIBDIR,
        .sharedir = ORDO_PG_SHAREDIR,
    };
    printf("# module %s\n", ORDO_PG_MODULE);
    return pg_server_start(&srv, "pgext", &o);
}

static int stop_server(void **state)
{
    (void)state;
    pg_server_stop(&srv);
    return 0;
}

/* sql in database postgres (pg_psql) */
static int psql(const char *sql, const char *out_file) { return pg_psql(&srv, "postgres", sql, out_file); }

#define must_psql(sql, out)                                       \
    do {                                                          \
        if (psql((sql), (out)) != 0) {                            \
            pg_psql_show_error(&srv);                             \
            fail_msg("psql failed: %.300s", (sql));               \
        }                                                         \
    } while (0)

/* The first line of a file, as a number. */
static long first_number(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[64] = "";
    if (!f || !fgets(line, sizeof line, f))
        fail_msg("no output in %s", path);
    fclose(f);
    return strtol(line, NULL, 10);
}

static const char *orders[] = {"ASC", "DESC", "ASC NULLS FIRST", "DESC NULLS LAST"};

#ifdef ORDO_PG_PYTHON
/* The cases for ordo.encode_keys, all run by one interpreter at the end
 * (python_encode_keys): value n's rows are DIR/py/n.csv, and in order i
 * the server's keys of them DIR/py/n-i.got, the Python package's
 * DIR/py/n-i.py; DIR/py/cases.tsv lists them for tests/pg_encode_keys.py. */
typedef struct py_entry {
    char *label; /* "expr order" */
    size_t n;    /* the value's number */
    int i;       /* the order's */
} py_entry;
static py_entry *py_cases;
static size_t py_ncases, py_cap, py_nvalues;

/* Adds order i of the value check_value_in has just exported to
 * DIR/rows.csv and keyed into DIR/keys<i>.txt. */
static void py_case(const char *expr, const char *schema_type, int i)
{
    if (i == 0) {
        if (t_sh("mkdir -p '%s/py' && cp '%s/rows.csv' '%s/py/%zu.csv'", dir, dir, dir,
                 py_nvalues) != 0)
            fail_msg("could not keep the rows of %s for ordo.encode_keys", expr);
        py_nvalues++;
    }
    size_t n = py_nvalues - 1;
    /* the schema goes through the shell's double quotes, as to `ordo encode` */
    if (t_sh("cp '%s/keys%d.txt' '%s/py/%zu-%d.got' && printf '%%s\\t%%s\\t%%s\\t%%s\\n' "
             "'%s/py/%zu.csv' \"c %s\" 'c %s' '%s/py/%zu-%d.py' >> '%s/py/cases.tsv'",
             dir, i, dir, n, i, dir, n, schema_type, orders[i], dir, n, i, dir) != 0)
        fail_msg("could not list %s for ordo.encode_keys", expr);
    if (py_ncases == py_cap) {
        py_cap = py_cap ? 2 * py_cap : 256;
        py_cases = realloc(py_cases, py_cap * sizeof *py_cases);
        assert_non_null(py_cases);
    }
    size_t len = strlen(expr) + strlen(orders[i]) + 2;
    py_entry *e = &py_cases[py_ncases++];
    e->n = n, e->i = i;
    e->label = malloc(len);
    assert_non_null(e->label);
    snprintf(e->label, len, "%s %s", expr, orders[i]);
}
#endif

/* A value of a column, `expr`, over table `table`: in every order, the ranks
 * of ORDER BY ordo_key('O', expr) are those of ORDER BY expr O, and the keys
 * are `ordo encode`'s of the rows as CSV under schema "c <schema_type>".
 * In database db. */
static void check_value_in(const char *db, const char *table, const char *expr,
                           const char *schema_type)
{
    char sql[8192];
    int o = snprintf(sql, sizeof sql, "\\copy (SELECT %s FROM %s ORDER BY id) TO '%s/rows.csv' (FORMAT csv)\n",
                     expr, table, dir);
    for (int i = 0; i < 4; i++)
        o += snprintf(sql + o, sizeof sql - (size_t)o,
                      "\\copy (SELECT count(*) FROM (SELECT rank() OVER (ORDER BY %s %s) a, "
                      "rank() OVER (ORDER BY ordo_key('%s', %s)) b FROM %s) s WHERE a <> b) TO "
                      "'%s/mismatch%d.txt'\n"
                      "\\copy (SELECT encode(ordo_key('%s', %s), 'hex') FROM %s ORDER BY id) TO "
                      "'%s/keys%d.txt'\n",
                      expr, orders[i], orders[i], expr, table, dir, i, orders[i], expr, table, dir,
                      i);
    if (pg_psql(&srv, db, sql, NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("psql failed for %s", expr);
    }
    for (int i = 0; i < 4; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/mismatch%d.txt", dir, i);
        long bad = first_number(path);
        if (bad) {
            snprintf(sql, sizeof sql,
                     "SELECT id, v, a, b, encode(k, 'hex') FROM (SELECT id, %s AS v, ordo_key('%s', %s) AS k, "
                     "rank() OVER (ORDER BY %s %s) a, rank() OVER (ORDER BY ordo_key('%s', %s)) b "
                     "FROM %s) s WHERE a <> b ORDER BY a LIMIT 10;\n",
                     expr, orders[i], expr, expr, orders[i], orders[i], expr, table);
            snprintf(path, sizeof path, "%s/bad.txt", dir);
            if (pg_psql(&srv, db, sql, path) == 0)
                t_sh("cat '%s' >&2", path);
            fail_msg("%s %s: %ld rows rank differently under ORDER BY ordo_key(...)", expr,
                     orders[i], bad);
        }
        /* the schema goes to the shell in double quotes */
        if (t_sh("'%s' encode --format ordered --schema \"c %s\" --key 'c %s' '%s/rows.csv' > "
                 "'%s/want%d.txt' 2> '%s/ordo.err'",
                 TOOL, schema_type, orders[i], dir, dir, i, dir) != 0) {
            t_sh("cat '%s/ordo.err' >&2", dir);
            fail_msg("ordo encode failed for %s (%s)", expr, schema_type);
        }
        if (t_sh("cmp -s '%s/want%d.txt' '%s/keys%d.txt'", dir, i, dir, i) != 0) {
            t_sh("paste -d ' ' '%s/rows.csv' '%s/want%d.txt' '%s/keys%d.txt' | "
                 "awk '$2 != $3' | head -5 >&2", dir, dir, i, dir, i);
            fail_msg("%s %s: ordo_key's bytes differ from ordo encode's (row, want, got above)",
                     expr, orders[i]);
        }
#ifdef ORDO_PG_PYTHON
        py_case(expr, schema_type, i);
#endif
    }
}

static void check_value(const char *expr, const char *schema_type)
{
    check_value_in("postgres", "t", expr, schema_type);
}

/* NULL one time in ten, else expr. */
#define SOMETIMES_NULL(expr) "CASE WHEN random() < 0.1 THEN NULL ELSE " expr " END"
/* Random text of 0..5 characters from a small alphabet (ties, case,
 * accents, spaces, punctuation); correlated with g so it runs per row. */
#define RANDOM_TEXT_OF(alphabet, n)                                                         \
    "(SELECT coalesce(string_agg(substr('" alphabet "', "                                   \
    "(floor(random() * " #n ") + 1)::int, 1), ''), '') FROM generate_series(1, (floor(random() * 6) + g * 0)::int))"
#define RANDOM_TEXT RANDOM_TEXT_OF("aAbBzZ \xc3\xa9\xc3\x89" "e-_0\xc3\xb1", 15)
/* An array of 0..3 elements, one in ten NULL (never NULL itself). */
#define RANDOM_ARRAY(elem, type)                                                            \
    "coalesce((SELECT array_agg(CASE WHEN random() < 0.1 THEN NULL ELSE " elem " END) "     \
    "FROM generate_series(1, (floor(random() * 4) + g * 0)::int)), '{}'::" type "[])"
/* A range of every shape: bounded, unbounded on either side, each bound
 * inclusive or not, and empty (equal bounds, one exclusive). */
#define RANDOM_RANGE(fn, lo, hi)                                                            \
    fn "(CASE WHEN random() < 0.15 THEN NULL ELSE " lo " END, CASE WHEN random() < 0.15 "   \
    "THEN NULL ELSE " hi " END, (ARRAY['[)', '(]', '[]', '()'])[floor(random() * 4)::int + 1])"

static void fill_table(void)
{
    /* Pieces (each under C's string limit) of one script; SEED is set below. */
    static const char *pieces[] = {
        "CREATE EXTENSION ordo;\n",
        "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');\n",
        "ALTER TYPE mood ADD VALUE 'meh' BEFORE 'ok';\n", /* sort order is not OID order */
        "SELECT setseed(@SEED@);\n",
        "CREATE TYPE pair AS (a int, b text);\n",
        "CREATE TYPE cpair AS (a int, b text COLLATE \"sv-SE-x-icu\");\n",
        "CREATE TABLE t AS SELECT g AS id,\n",
        SOMETIMES_NULL("random() < 0.5") " AS b,\n",
        SOMETIMES_NULL("CASE WHEN random() < 0.5 THEN floor(random() * 7 - 3) ELSE floor(random() * 65536 - 32768) END::int2") " AS i2,\n",
        SOMETIMES_NULL("CASE WHEN random() < 0.5 THEN floor(random() * 7 - 3) ELSE floor(random() * 4294967296 - 2147483648) END::int4") " AS i4,\n",
        SOMETIMES_NULL("CASE WHEN random() < 0.5 THEN floor(random() * 7 - 3)::int8 ELSE ((random() - 0.5) * 1.8e19)::numeric::int8 END") " AS i8,\n",
        SOMETIMES_NULL("((random() - 0.5) * 10 ^ floor(random() * 20 - 10))::real") " AS f4,\n",
        SOMETIMES_NULL("(random() - 0.5) * 10 ^ floor(random() * 600 - 300)") " AS f8,\n",
        SOMETIMES_NULL("round(((random() - 0.5) * 10 ^ floor(random() * 30 - 10))::numeric, floor(random() * 12)::int)") " AS n,\n",
        SOMETIMES_NULL(RANDOM_TEXT) " AS t,\n",
        SOMETIMES_NULL(RANDOM_TEXT "::varchar(4)") " AS vc,\n",
        SOMETIMES_NULL("(" RANDOM_TEXT " || repeat(' ', floor(random() * 3)::int))::char(4)") " AS bp,\n",
        SOMETIMES_NULL("decode(substr(md5(random()::text), 1, (floor(random() * 5) * 2)::int), 'hex')") " AS by,\n",
        SOMETIMES_NULL("md5(floor(random() * 50)::text)::uuid") " AS u,\n",
        SOMETIMES_NULL("'2000-01-01'::date + floor((random() - 0.5) * 2e6)::int") " AS d,\n",
        SOMETIMES_NULL("'00:00'::time + random() * interval '24 hours'") " AS tm,\n",
        SOMETIMES_NULL("(('00:00'::time + floor(random() * 48) * interval '30 minutes')::text || "
                       "CASE WHEN random() < 0.5 THEN '+' ELSE '-' END || floor(random() * 15)::text || ':' || "
                       "lpad((floor(random() * 4) * 15)::text, 2, '0'))::timetz") " AS ttz,\n",
        SOMETIMES_NULL("'2000-01-01'::timestamp + (random() - 0.5) * interval '400000 days'") " AS ts,\n",
        SOMETIMES_NULL("'2000-01-01'::timestamptz + (random() - 0.5) * interval '400000 days'") " AS tstz,\n",
        SOMETIMES_NULL("make_interval(months => floor((random() - 0.5) * 30)::int, days => floor((random() - 0.5) * 60)::int, "
                       "secs => floor((random() - 0.5) * 1e7) / 100)") " AS iv,\n",
        SOMETIMES_NULL("CASE WHEN random() < 0.5 THEN (floor(random() * 256)::text || '.' || floor(random() * 4)::text || '.' || "
                       "floor(random() * 256)::text || '.' || floor(random() * 256)::text || '/' || floor(random() * 33)::text)::inet "
                       "ELSE (regexp_replace(md5(random()::text), '(....)(?!$)', '\\1:', 'g') || '/' || floor(random() * 129)::text)::inet END") " AS ip,\n",
        SOMETIMES_NULL("network(CASE WHEN random() < 0.5 THEN (floor(random() * 256)::text || '.1.2.3/' || floor(random() * 33)::text)::inet "
                       "ELSE (regexp_replace(md5(random()::text), '(....)(?!$)', '\\1:', 'g') || '/' || floor(random() * 129)::text)::inet END)") " AS cd,\n",
        SOMETIMES_NULL("substr(md5(floor(random() * 100)::text), 1, 12)::macaddr") " AS mac,\n",
        SOMETIMES_NULL("substr(md5(floor(random() * 100)::text), 1, 16)::macaddr8") " AS mac8,\n",
        SOMETIMES_NULL("substr((('x' || md5(random()::text))::bit(64))::text, 1, floor(random() * 12)::int)::varbit") " AS bits,\n",
        SOMETIMES_NULL("(to_hex(floor(random() * 3)::int) || '/' || to_hex(floor(random() * 4294967296)::int8))::pg_lsn") " AS lsn,\n",
        SOMETIMES_NULL("(ARRAY['sad', 'meh', 'ok', 'happy'])[floor(random() * 4)::int + 1]::mood") " AS e,\n",
        /* records, arrays and ranges: NULL members, empty ones, ties */
        SOMETIMES_NULL("ROW(" SOMETIMES_NULL("floor(random() * 3)::int") ", " SOMETIMES_NULL("substr('aAb', (floor(random() * 4) + 1)::int, 1)") ")::pair") " AS r,\n",
        SOMETIMES_NULL("ROW(" SOMETIMES_NULL("floor(random() * 3)::int") ", " SOMETIMES_NULL("substr('aA\xc3\xa4" "b', (floor(random() * 5) + 1)::int, 1)") ")::cpair") " AS rc,\n",
        SOMETIMES_NULL(RANDOM_ARRAY("floor(random() * 4)::int", "int")) " AS ai,\n",
        SOMETIMES_NULL(RANDOM_ARRAY("substr('a bB', (floor(random() * 5) + 1)::int, 2)", "text")) " AS at,\n",
        SOMETIMES_NULL(RANDOM_ARRAY("(ARRAY['sad', 'meh', 'ok', 'happy'])[floor(random() * 4)::int + 1]::mood", "mood")) " AS ae,\n",
        SOMETIMES_NULL(RANDOM_ARRAY("ROW(floor(random() * 2)::int, 'x')::pair", "pair")) " AS ar,\n",
        SOMETIMES_NULL(RANDOM_RANGE("int4range", "floor(random() * 10)::int", "floor(random() * 10)::int + 10")) " AS r4,\n",
        SOMETIMES_NULL(RANDOM_RANGE("int8range", "floor(random() * 10)::int8", "floor(random() * 10)::int8 + 10")) " AS r8,\n",
        SOMETIMES_NULL(RANDOM_RANGE("numrange", "round(random()::numeric * 10, 1)", "round(random()::numeric * 10, 1) + 10")) " AS rn,\n",
        SOMETIMES_NULL(RANDOM_RANGE("daterange", "'2000-01-01'::date + floor(random() * 10)::int", "'2000-01-10'::date + floor(random() * 10)::int")) " AS rd,\n",
        SOMETIMES_NULL(RANDOM_RANGE("tsrange", "'2000-01-01'::timestamp + floor(random() * 10) * interval '1 hour'", "'2000-01-02'::timestamp + floor(random() * 10) * interval '1 hour'")) " AS rts,\n",
        SOMETIMES_NULL(RANDOM_RANGE("tstzrange", "'2000-01-01'::timestamptz + floor(random() * 10) * interval '1 hour'", "'2000-01-02'::timestamptz + floor(random() * 10) * interval '1 hour'")) " AS rtz\n",
        "FROM generate_series(1, 700) g;\n",
        /* the extremes, each twice (ties), the other columns NULL */
        "INSERT INTO t (id, f4) SELECT 1000 + row_number() OVER (), v FROM unnest('{NaN,Infinity,-Infinity,0,-0,1e-45,3.4e38,NaN,Infinity,-Infinity,0,-0}'::real[]) v;\n",
        "INSERT INTO t (id, f8) SELECT 1100 + row_number() OVER (), v FROM unnest('{NaN,Infinity,-Infinity,0,-0,5e-324,1.7e308,NaN,-Infinity,-0}'::float8[]) v;\n",
        "INSERT INTO t (id, i2, i4, i8) VALUES (1200, -32768, -2147483648, -9223372036854775808), (1201, 32767, 2147483647, 9223372036854775807), "
        "(1202, -32768, -2147483648, -9223372036854775808), (1203, 32767, 2147483647, 9223372036854775807);\n",
        "INSERT INTO t (id, n) SELECT 1300 + row_number() OVER (), v FROM unnest('{NaN,Infinity,-Infinity,0,-0,0.000,1,1.0,1.00,-1.5,-1.50,1e-30,9.99e130,NaN,Infinity}'::numeric[]) v;\n",
        "INSERT INTO t (id, t, vc, bp, by) VALUES (1400, '', '', '', '\\x'), (1401, '', '', ' ', '\\x00'), (1402, 'a', 'a', 'a  ', '\\x0000'), "
        "(1403, 'a ', 'a ', 'a', '\\x00ff'), (1404, 'A', 'A', 'A', '\\xff'), (1405, '\xc3\xa9', '\xc3\xa9', '\xc3\xa9', '\\xffff');\n",
        "INSERT INTO t (id, d, ts, tstz) VALUES (1500, 'infinity', 'infinity', 'infinity'), (1501, '-infinity', '-infinity', '-infinity'), "
        "(1502, '4714-11-24 BC', '4714-11-24 00:00 BC', '4714-11-24 00:00 BC'), (1503, '5874897-12-31', '294276-12-31 23:59:59.999999', '294276-12-31 23:59:59.999999'), "
        "(1504, 'infinity', 'infinity', 'infinity');\n",
        "INSERT INTO t (id, tm, ttz) VALUES (1600, '24:00:00', '24:00:00+15:59'), (1601, '00:00', '00:00-15:59'), (1602, '23:59:59.999999', '12:00+01'), "
        "(1603, '24:00:00', '11:00+00');\n",
        "INSERT INTO t (id, iv) SELECT 1700 + row_number() OVER (), v FROM unnest('{1 mon,30 days,720 hours,-1 mon,0,infinity,-infinity,1 mon 1 day,31 days}'::text[]) v0, "
        "LATERAL (SELECT CASE v0 WHEN 'infinity' THEN interval '178000000 years' WHEN '-infinity' THEN interval '-178000000 years' ELSE v0::interval END) x(v);\n",
        "INSERT INTO t (id, ip, cd, mac, mac8, bits, lsn) VALUES (1800, '0.0.0.0/0', '0.0.0.0/0', '00:00:00:00:00:00', '00:00:00:00:00:00:00:00', B'', '0/0'), "
        "(1801, '255.255.255.255', '255.255.255.255/32', 'ff:ff:ff:ff:ff:ff', 'ff:ff:ff:ff:ff:ff:ff:ff', B'1111', 'FFFFFFFF/FFFFFFFF'), "
        "(1802, '::/0', '::/0', '00:00:00:00:00:01', '00:00:00:00:00:00:00:01', B'0', '0/1'), "
        "(1803, 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128', 'ff:ff:ff:ff:ff:ff', 'ff:ff:ff:ff:ff:ff:ff:ff', B'00', 'FFFFFFFF/FFFFFFFF'), "
        "(1804, '10.0.0.1/8', '10.0.0.0/8', '01:02:03:04:05:06', '01:02:03:04:05:06:07:08', B'1', '1/0');\n",
        "CREATE TABLE t2 AS SELECT * FROM t;\n",
    };
    size_t cap = 1 << 16, o = 0;
    char *sql = malloc(cap);
    assert_non_null(sql);
    char seed_text[32];
    snprintf(seed_text, sizeof seed_text, "%f", (double)(seed % 1000000) / 1000000.0);
    for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++) {
        const char *p = pieces[i], *at = strstr(p, "@SEED@");
        size_t n = at ? (size_t)(at - p) : strlen(p);
        assert_true(o + n + strlen(p) + sizeof seed_text < cap);
        memcpy(sql + o, p, n), o += n;
        if (at) {
            o += (size_t)sprintf(sql + o, "%s%s", seed_text, at + 6);
        }
    }
    sql[o] = 0;
    must_psql(sql, NULL);
    free(sql);
}

/* Every type: the value's expression over t, its type in ordo's schemas
 * (for the shell: \\" inside), and in PostgreSQL (NULL: none to name). */
static const struct {
    const char *expr, *schema_type, *pg_type;
} values[] = {
    {"b", "boolean", "boolean"},
    {"i2", "smallint", "smallint"},
    {"i4", "integer", "integer"},
    {"i8", "bigint", "bigint"},
    {"f4", "real", "real"},
    {"f8", "double precision", "double precision"},
    {"n", "numeric", "numeric"},
    {"t", "text", "text"}, /* the database's collation: C */
    {"vc", "varchar", "varchar(4)"},
    {"bp", "char", "char(4)"},
    {"by", "bytea", "bytea"},
    {"u", "uuid", "uuid"},
    {"d", "date", "date"},
    {"tm", "time", "time"},
    {"ttz", "timetz", "timetz"},
    {"ts", "timestamp", "timestamp"},
    {"tstz", "timestamptz", "timestamptz"},
    {"iv", "interval", "interval"},
    {"ip", "inet", "inet"},
    {"cd", "cidr", "cidr"},
    {"mac", "macaddr", "macaddr"},
    {"mac8", "macaddr8", "macaddr8"},
    {"bits", "bit varying", "varbit"},
    {"lsn", "pg_lsn", "pg_lsn"},
    {"e", "enum('sad', 'meh', 'ok', 'happy')", "mood"},
    {"r", "record(a integer, b text)", "pair"},
    {"rc", "record(a integer, b text COLLATE \\\"sv-SE-x-icu\\\")", "cpair"},
    {"ai", "integer[]", "int[]"},
    {"at", "text[]", "text[]"},
    {"ae", "enum('sad', 'meh', 'ok', 'happy')[]", "mood[]"},
    {"ar", "record(a integer, b text)[]", "pair[]"},
    {"r4", "int4range", "int4range"},
    {"r8", "int8range", "int8range"},
    {"rn", "numrange", "numrange"},
    {"rd", "daterange", "daterange"},
    {"rts", "tsrange", "tsrange"},
    {"rtz", "tstzrange", "tstzrange"},
    {"ROW(i2, t)", "record(f1 smallint, f2 text)", NULL}, /* an anonymous record */
};

static void every_type_every_order(void **state)
{
    (void)state;
    fill_table();
    for (size_t i = 0; i < sizeof values / sizeof *values; i++)
        check_value(values[i].expr, values[i].schema_type);
}

/* COLLATE in the call chooses the collation, as in ORDER BY: libc and ICU
 * ones, and "default" (the database's: C here, ICU in a second database). */
static void collations(void **state)
{
    (void)state;
    static const char *names[] = {"C", "POSIX", "en_US.utf8", "sv_SE.utf8", "und-x-icu",
                                  "de-DE-x-icu", "sv-SE-x-icu"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char expr[128], schema[128];
        snprintf(expr, sizeof expr, "t COLLATE \"%s\"", names[i]);
        snprintf(schema, sizeof schema, "text COLLATE \\\"%s\\\"", names[i]);
        check_value(expr, schema);
        snprintf(expr, sizeof expr, "bp COLLATE \"%s\"", names[i]);
        snprintf(schema, sizeof schema, "char COLLATE \\\"%s\\\"", names[i]);
        check_value(expr, schema);
    }
    /* An ICU collation made with a locale ID rather than a language tag */
    must_psql("CREATE COLLATION de_id (provider = icu, locale = 'de_DE');\n"
              "CREATE COLLATION de_pb (provider = icu, locale = 'de_DE@collation=phonebook');\n",
              NULL);
    check_value("t COLLATE de_id", "text COLLATE \\\"de-DE-x-icu\\\"");
    /* where the phonebook order is not the plain one: \xc3\xa4 sorts as ae */
    must_psql("CREATE TABLE umlaut AS SELECT id, t FROM (VALUES (1, 'ad'), (2, '\xc3\xa4'), (3, 'ae'), "
              "(4, 'af'), (5, 'a'), (6, '\xc3\xa4" "b'), (7, 'aeb'), (8, NULL)) v(id, t);\n",
              NULL);
    check_value_in("postgres", "umlaut", "t COLLATE de_pb",
                   "text COLLATE \\\"de-DE-u-co-phonebk-x-icu\\\"");
    /* A column's own collation, and a database whose default is ICU's. */
    must_psql("CREATE TABLE tc AS SELECT id, t COLLATE \"sv-SE-x-icu\" AS t FROM t;\n"
              "CREATE DATABASE icu TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'sv-SE' "
              "LOCALE 'C';\n",
              NULL);
    check_value_in("postgres", "tc", "t", "text COLLATE \\\"sv-SE-x-icu\\\"");
    if (pg_psql(&srv, "icu",
                "CREATE EXTENSION ordo;\n"
                "CREATE TABLE t (id int, t text);\n"
                "INSERT INTO t SELECT id, t FROM (VALUES (1, 'a'), (2, 'B'), (3, 'b'), (4, '\xc3\xa4'), "
                "(5, 'z'), (6, NULL), (7, 'A'), (8, 'b'), (9, 'ab'), (10, '')) v(id, t);\n",
                NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("could not fill the ICU database");
    }
    check_value_in("icu", "t", "t", "text COLLATE \\\"sv-SE-x-icu\\\"");
    /* and one whose default is a libc locale */
    if (pg_psql(&srv, "postgres", "CREATE DATABASE libc TEMPLATE template0 LOCALE 'sv_SE.utf8';\n", NULL) != 0 ||
        pg_psql(&srv, "libc",
                "CREATE EXTENSION ordo;\n"
                "CREATE TABLE t (id int, t text);\n"
                "INSERT INTO t SELECT id, t FROM (VALUES (1, 'a'), (2, 'B'), (3, 'b'), (4, '\xc3\xa4'), "
                "(5, 'z'), (6, NULL), (7, 'A'), (8, 'b'), (9, 'ab'), (10, ''), (11, '\xc3\xa5')) v(id, t);\n",
                NULL) != 0) {
        pg_psql_show_error(&srv);
        fail_msg("could not fill the libc database");
    }
    check_value_in("libc", "t", "t", "text COLLATE \\\"sv_SE.utf8\\\"");

    check_value_in("icu", "t", "t COLLATE \"default\"", "text COLLATE \\\"sv-SE-x-icu\\\"");
}

/* Values PostgreSQL keeps out of line or compressed (TOAST): read in
 * place once detoasted, with the same bytes. */
static void toasted(void **state)
{
    (void)state;
    must_psql("CREATE TABLE big (id int, t text, by bytea, ai int[], tc text);\n"
              "ALTER TABLE big ALTER COLUMN t SET STORAGE EXTERNAL;\n" /* out of line, uncompressed */
              "INSERT INTO big SELECT g, s, convert_to(s, 'UTF8'), "
              "(SELECT array_agg(x) FROM generate_series(1, length(s) / 4) x), repeat('ab', g * 3000) "
              "FROM generate_series(0, 12) g, "
              "LATERAL (SELECT coalesce(string_agg(md5((g * 1000 + i)::text), ''), '') AS s "
              "FROM generate_series(1, g * g * 60) i) x;\n",
              NULL);
    check_value_in("postgres", "big", "t", "text");
    check_value_in("postgres", "big", "by", "bytea");
    check_value_in("postgres", "big", "ai", "integer[]");
    check_value_in("postgres", "big", "tc", "text"); /* compressed inline */
    check_value_in("postgres", "big", "tc COLLATE \"und-x-icu\"", "text COLLATE \\\"und-x-icu\\\"");
}

/* Several values in one key: the spec's orders by position, against
 * `ordo encode --key` naming the columns in another order than the
 * schema's. */
static void several_values(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *key;
    } cases[] = {
        {"", "b ASC, a ASC, c ASC"},
        {"DESC, ASC NULLS FIRST, desc nulls last", "b DESC, a ASC NULLS FIRST, c DESC NULLS LAST"},
        {"  asc nulls first ,DESC  ,  ASC", "b ASC NULLS FIRST, a DESC, c ASC"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char sql[2048];
        snprintf(sql, sizeof sql,
                 "\\copy (SELECT i4, t, n FROM t WHERE id <= 700 ORDER BY id) TO '%s/rows.csv' (FORMAT csv)\n"
                 "\\copy (SELECT encode(ordo_key('%s', t, i4, n), 'hex') FROM t WHERE id <= 700 ORDER BY id) TO '%s/keys.txt'\n",
                 dir, cases[i].spec, dir);
        must_psql(sql, NULL);
        if (t_sh("'%s' encode --format ordered --schema 'a integer, b text, c numeric' --key '%s' "
                 "'%s/rows.csv' > '%s/want.txt' 2> '%s/ordo.err'",
                 TOOL, cases[i].key, dir, dir, dir) != 0) {
            t_sh("cat '%s/ordo.err' >&2", dir);
            fail_msg("ordo encode failed");
        }
        if (t_sh("cmp -s '%s/want.txt' '%s/keys.txt'", dir, dir) != 0)
            fail_msg("spec '%s': ordo_key's bytes differ from ordo encode --key '%s'", cases[i].spec,
                     cases[i].key);
    }
    /* and the order of the whole, ties included */
    char out[512];
    snprintf(out, sizeof out, "%s/mismatch.txt", dir);
    must_psql("COPY (SELECT count(*) FROM (SELECT rank() OVER (ORDER BY i2 DESC, t ASC NULLS FIRST, b) r1, "
              "rank() OVER (ORDER BY ordo_key('DESC, ASC NULLS FIRST, ASC', i2, t, b)) r2 FROM t) s "
              "WHERE r1 <> r2) TO STDOUT;\n",
              out);
    assert_int_equal(first_number(out), 0);
}

/* ordo_key(row, spec): the row's columns as the values (a dropped column
 * is no value), for a table's rows and anonymous ones; domains are their
 * base types. Specs that change from row to row, in both forms. */
static void whole_rows(void **state)
{
    (void)state;
    char out[512];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    must_psql("CREATE TABLE w AS SELECT i4 AS a, 1 AS dropme, t AS b, n AS c FROM t;\n"
              "ALTER TABLE w DROP COLUMN dropme;\n"
              "CREATE DOMAIN posint AS int CHECK (VALUE > 0);\n"
              "COPY (SELECT (SELECT count(*) FROM w WHERE ordo_key(w, 'DESC, ASC, ASC NULLS FIRST') "
              "IS DISTINCT FROM ordo_key('DESC, ASC, ASC NULLS FIRST', a, b, c)) "
              "+ (SELECT count(*) FROM w WHERE ordo_key(w, '') IS DISTINCT FROM ordo_key('', a, b, c)) "
              /* a spec that changes from row to row (not a constant: parsed again) */
              "+ (SELECT count(*) FROM w WHERE ordo_key(w, (CASE WHEN a > 0 THEN 'DESC, ASC, ASC' ELSE "
              "'ASC, DESC NULLS LAST, DESC' END)::cstring) IS DISTINCT FROM ordo_key(CASE WHEN a > 0 THEN "
              "'DESC, ASC, ASC' ELSE 'ASC, DESC NULLS LAST, DESC' END, a, b, c)) "
              "+ (SELECT count(*) FROM w WHERE ordo_key(CASE WHEN a > 0 THEN 'DESC' ELSE 'ASC' END, a) "
              "IS DISTINCT FROM CASE WHEN a > 0 THEN ordo_key('DESC', a) ELSE ordo_key('ASC', a) END) "
              "+ (SELECT count(*) FROM w WHERE ordo_key(ROW(a, b), 'DESC, ASC') IS DISTINCT FROM ordo_key('DESC, ASC', a, b)) "
              "+ (SELECT count(*) FROM w WHERE a > 0 AND ordo_key('DESC', a::posint) IS DISTINCT FROM ordo_key('DESC', a)), "
              "(SELECT count(*) FROM w), ordo_key(NULL::w, '') IS NULL) TO STDOUT;\n",
              out);
    FILE *f = fopen(out, "r");
    long bad = -1, n = 0;
    char null_key = 0;
    assert_non_null(f);
    assert_int_equal(fscanf(f, "%ld %ld %c", &bad, &n, &null_key), 3);
    fclose(f);
    assert_int_equal(bad, 0);
    assert_true(n > 700);
    assert_int_equal(null_key, 't');
}

/* ordo_key(spec, VARIADIC array) and ordo_lexkey(VARIADIC array): the
 * elements are the values, the same bytes as passed one by one; arrays of
 * every length in one call site (each its own spec), NULL elements, the
 * array's collation, records, and more elements than a call has arguments
 * (an ordered key of several values is their keys one after the other). */
static void variadic_arrays(void **state)
{
    (void)state;
    char out[512];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    must_psql("CREATE TABLE va AS SELECT id, i4, i8, t, n, r, d, b, ai || i4 AS x FROM t WHERE id <= 700;\n"
              "COPY (SELECT "
              "(SELECT count(*) FROM va WHERE ordo_key('DESC, ASC NULLS FIRST, ASC', VARIADIC ARRAY[i4, i4 + 1, NULL]) "
              "IS DISTINCT FROM ordo_key('DESC, ASC NULLS FIRST, ASC', i4, i4 + 1, NULL::int)), "
              "(SELECT count(*) FROM va WHERE ordo_key('DESC, ASC', VARIADIC ARRAY[t COLLATE \"sv-SE-x-icu\", 'x']) "
              "IS DISTINCT FROM ordo_key('DESC, ASC', t COLLATE \"sv-SE-x-icu\", 'x'::text COLLATE \"sv-SE-x-icu\")), "
              "(SELECT count(*) FROM va WHERE ordo_key('', VARIADIC ARRAY[n, -n]) IS DISTINCT FROM ordo_key('', n, -n)), "
              "(SELECT count(*) FROM va WHERE ordo_key('ASC, DESC', VARIADIC ARRAY[r, r]) IS DISTINCT FROM ordo_key('ASC, DESC', r, r)), "
              /* x: 1 to 4 elements, a spec for each length */
              "(SELECT count(*) FROM (SELECT x, ltrim(repeat(', DESC', cardinality(x)), ', ') AS s FROM va WHERE x IS NOT NULL) v "
              "WHERE ordo_key(s, VARIADIC x) IS DISTINCT FROM CASE cardinality(x) "
              "WHEN 1 THEN ordo_key(s, x[1]) WHEN 2 THEN ordo_key(s, x[1], x[2]) "
              "WHEN 3 THEN ordo_key(s, x[1], x[2], x[3]) ELSE ordo_key(s, x[1], x[2], x[3], x[4]) END), "
              "(SELECT count(*) FROM va WHERE x IS NOT NULL AND ordo_lexkey(VARIADIC x) IS DISTINCT FROM CASE cardinality(x) "
              "WHEN 1 THEN ordo_lexkey(x[1]) WHEN 2 THEN ordo_lexkey(x[1], x[2]) "
              "WHEN 3 THEN ordo_lexkey(x[1], x[2], x[3]) ELSE ordo_lexkey(x[1], x[2], x[3], x[4]) END), "
              "(SELECT count(*) FROM va WHERE ordo_lexkey(VARIADIC ARRAY[i8, NULL, i8]) IS DISTINCT FROM ordo_lexkey(i8, NULL::int8, i8)), "
              "(SELECT count(*) FROM va WHERE ordo_lexkey(VARIADIC ARRAY[t, 'x']) IS DISTINCT FROM ordo_lexkey(t, 'x'::text)), "
              "(SELECT count(*) FROM va WHERE coalesce(d BETWEEN '1700-01-01' AND '2200-01-01', true) AND "
              "ordo_lexkey(VARIADIC ARRAY[d]) IS DISTINCT FROM ordo_lexkey(d)), "
              "(SELECT count(*) FROM va WHERE ordo_lexkey(VARIADIC ARRAY[b, NOT b]) IS DISTINCT FROM ordo_lexkey(b, NOT b)), "
              "(SELECT ordo_key('', VARIADIC array_agg(g ORDER BY g)) = string_agg(ordo_key('', g), '' ORDER BY g) "
              "FROM generate_series(1, 300) g), "
              "(SELECT count(*) FROM va WHERE x IS NOT NULL)) TO STDOUT;\n",
              out);
    FILE *f = fopen(out, "r");
    long bad[10], n = 0;
    char long_one = 0;
    assert_non_null(f);
    assert_int_equal(fscanf(f, "%ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %c %ld", &bad[0], &bad[1],
                            &bad[2], &bad[3], &bad[4], &bad[5], &bad[6], &bad[7], &bad[8], &bad[9],
                            &long_one, &n),
                     12);
    fclose(f);
    for (int i = 0; i < 10; i++)
        if (bad[i])
            fail_msg("comparison %d: %ld keys of VARIADIC arrays differ from the values passed one by one",
                     i + 1, bad[i]);
    assert_int_equal(long_one, 't');
    assert_true(n > 500); /* x is NULL only where ai or i4 is */
}

/* s (with the shell's \" for ") inside a SQL string literal: " back, '
 * doubled. */
static void sql_quoted(const char *s, char *out, size_t cap)
{
    size_t o = 0;
    for (; *s && o + 2 < cap; s++) {
        if (s[0] == '\\' && s[1] == '"')
            continue;
        if (*s == '\'')
            out[o++] = '\'';
        out[o++] = *s;
    }
    out[o] = 0;
}

/* ordo_decode gives every value back, equal to the original, in every
 * order. */
static void decode_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
        if (!values[i].pg_type)
            continue;
        char type[256], sql[8192], out[512];
        sql_quoted(values[i].schema_type, type, sizeof type);
        int o = snprintf(sql, sizeof sql, "COPY (SELECT 0");
        for (int k = 0; k < 4; k++)
            o += snprintf(sql + o, sizeof sql - (size_t)o,
                          " + (SELECT count(*) FROM t, ordo_decode(ordo_key('%s', %s), 'c %s %s') "
                          "AS x(c %s) WHERE x.c IS DISTINCT FROM t.%s)",
                          orders[k], values[i].expr, type, orders[k], values[i].pg_type,
                          values[i].expr);
        snprintf(sql + o, sizeof sql - (size_t)o, ") TO STDOUT;\n");
        snprintf(out, sizeof out, "%s/out.txt", dir);
        must_psql(sql, out);
        long bad = first_number(out);
        if (bad)
            fail_msg("%s: %ld values decode to another value", values[i].expr, bad);
    }
    /* several columns, and ordo_inspect as `ordo inspect` prints it */
    char out[512], want[512];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(want, sizeof want, "%s/want.txt", dir);
    must_psql("COPY (SELECT count(*) FROM t, ordo_decode(ordo_key('DESC, ASC NULLS FIRST', i4, t), "
              "'a integer DESC, b text NULLS FIRST') AS x(a integer, b text) "
              "WHERE (x.a, x.b) IS DISTINCT FROM (t.i4, t.t)) TO STDOUT;\n",
              out);
    assert_int_equal(first_number(out), 0);
    must_psql("\\pset format unaligned\n\\pset tuples_only on\n"
              "SELECT ordo_inspect(ordo_key('DESC, ASC', 980::float8, 'x y'::text COLLATE \"sv-SE-x-icu\"), "
              "'score double precision DESC, name text COLLATE \"sv-SE-x-icu\"');\n",
              out);
    must_psql("\\pset format unaligned\n\\pset tuples_only on\n"
              "SELECT encode(ordo_key('DESC, ASC', 980::float8, 'x y'::text COLLATE \"sv-SE-x-icu\"), 'hex');\n",
              want);
    assert_int_equal(t_sh("'%s' inspect --format ordered --schema 'score double precision DESC, "
                          "name text COLLATE \"sv-SE-x-icu\"' \"$(cat '%s')\" > '%s.tool' && sed -i '$ d' '%s' && "
                          "test \"$(wc -l < '%s')\" -eq 4 && cmp '%s' '%s.tool'",
                          TOOL, want, want, out, out, out, want),
                     0);
}

/* ordo_lexkey against `ordo encode --format lexkey`, value by value and
 * several at once. Times only where LexKey's int64 nanoseconds reach. */
static void lexkey(void **state)
{
    (void)state;
    static const struct {
        const char *expr, *schema_type;
    } lex[] = {
        {"b", "boolean"}, {"i2", "smallint"}, {"i4", "integer"}, {"i8", "bigint"},
        {"f4", "real"},   {"f8", "double precision"}, {"t", "text"}, {"vc", "varchar"},
        {"bp", "char"},   {"by", "bytea"}, {"u", "uuid"}, {"d", "date"},
        {"ts", "timestamp"}, {"tstz", "timestamptz"},
        {"i4, t, b", "a integer, b text, c boolean"},
    };
    const char *in_range = "coalesce(d BETWEEN '1700-01-01' AND '2200-01-01', true) AND "
                           "coalesce(ts BETWEEN '1700-01-01' AND '2200-01-01', true) AND "
                           "coalesce(tstz BETWEEN '1700-01-01' AND '2200-01-01', true)";
    for (size_t i = 0; i < sizeof lex / sizeof *lex; i++) {
        char sql[2048], schema[256];
        snprintf(sql, sizeof sql,
                 "\\copy (SELECT %s FROM t WHERE %s ORDER BY id) TO '%s/rows.csv' (FORMAT csv)\n"
                 "\\copy (SELECT encode(ordo_lexkey(%s), 'hex') FROM t WHERE %s ORDER BY id) TO '%s/keys.txt'\n",
                 lex[i].expr, in_range, dir, lex[i].expr, in_range, dir);
        must_psql(sql, NULL);
        if (strchr(lex[i].schema_type, ','))
            snprintf(schema, sizeof schema, "%s", lex[i].schema_type);
        else
            snprintf(schema, sizeof schema, "c %s", lex[i].schema_type);
        if (t_sh("'%s' encode --format lexkey --schema '%s' '%s/rows.csv' > '%s/want.txt' 2> '%s/ordo.err'",
                 TOOL, schema, dir, dir, dir) != 0) {
            t_sh("cat '%s/ordo.err' >&2", dir);
            fail_msg("ordo encode --format lexkey failed for %s", lex[i].expr);
        }
        if (t_sh("cmp -s '%s/want.txt' '%s/keys.txt'", dir, dir) != 0)
            fail_msg("%s: ordo_lexkey's bytes differ from ordo encode --format lexkey's", lex[i].expr);
    }
}

/* Statement sql fails with a message holding want. */
static void fails_with(const char *sql, const char *want)
{
    if (psql(sql, NULL) == 0)
        fail_msg("no error for: %s", sql);
    char path[512], msg[4096];
    snprintf(path, sizeof path, "%s/psql.err", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(msg, 1, sizeof msg - 1, f);
    fclose(f);
    msg[n] = 0;
    if (!strstr(msg, want))
        fail_msg("for %s: the error does not say '%s':\n%s", sql, want, msg);
}

static void errors(void **state)
{
    (void)state;
    fails_with("SELECT ordo_key('DESX', 1);", "bad key spec 'DESX': item 1 ('DESX'): expected [ASC|DESC] [NULLS FIRST|NULLS LAST], not 'desx'");
    fails_with("SELECT ordo_key('ASC NULLS', 1);", "NULLS must be followed by FIRST or LAST");
    fails_with("SELECT ordo_key('ASC NULLS FIRST LAST', 1);", "not 'last'");
    fails_with("SELECT ordo_key('ASC,', 1);", "item 2 is empty");
    fails_with("SELECT ordo_key('ASC, DESC', 1);", "1 value but more orders than that");
    fails_with("SELECT ordo_key('ASC', 1, 2);", "2 values but 1 order");
    fails_with("SELECT ordo_key(NULL, 1);", "the key spec is NULL");
    fails_with("SELECT ordo_key('', point '(1,2)');", "value 1 has type point, which ordo does not encode");
    fails_with("SELECT ordo_key('', 1, '{}'::json);", "value 2 has type json, which ordo does not encode");
    fails_with("SELECT ordo_key('', 'abc');", "value 1 has type unknown");
    fails_with("SELECT ordo_key('', VARIADIC NULL::int[]);", "ordo_key: the VARIADIC array is NULL");
    fails_with("SELECT ordo_key('', VARIADIC '{}'::int[]);", "ordo_key: the VARIADIC array is empty");
    fails_with("SELECT ordo_key('', VARIADIC ARRAY[[1, 2], [3, 4]]);",
               "ordo_key: the VARIADIC array has 2 dimensions (one only)");
    fails_with("SELECT ordo_key('ASC', VARIADIC ARRAY[1, 2]);", "2 values but 1 order");
    fails_with("SELECT ordo_key('', VARIADIC ARRAY[point(1, 2)]);", "ordo_key: value 1 has type point");
    fails_with("SELECT ordo_key('', VARIADIC ARRAY['a', repeat('x', 9000)] COLLATE \"sv_SE.utf8\");",
               "ordo_key: value 2 (text): ");
    fails_with("SELECT ordo_lexkey(VARIADIC NULL::int[]);", "ordo_lexkey: the VARIADIC array is NULL");
    fails_with("SELECT ordo_lexkey(VARIADIC '{}'::text[]);", "ordo_lexkey: the VARIADIC array is empty");
    fails_with("SELECT ordo_lexkey(VARIADIC '{{1},{2}}'::int[]);",
               "ordo_lexkey: the VARIADIC array has 2 dimensions (one only)");
    fails_with("SELECT ordo_lexkey(VARIADIC ARRAY[1.5]);",
               "ordo_lexkey: value 1 has type numeric, which the LexKey format cannot hold");
    fails_with("SELECT ordo_lexkey(VARIADIC ARRAY['2000-01-01', 'infinity']::date[]);",
               "ordo_lexkey: value 2 (date): ");
    fails_with("CREATE COLLATION IF NOT EXISTS ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);\n"
               "SELECT ordo_key('', 'a'::text COLLATE ci);",
               "nondeterministic collation \"ci\"");
    fails_with("SELECT ordo_key(w, 'DESC') FROM w;", "3 values but 1 order");
    fails_with("SELECT ordo_key('', ARRAY[[1, 2], [3, 4]]);", "arrays of 2 dimensions are not supported");
    fails_with("SELECT ordo_key('', '[0:1]={1,2}'::int[]);", "arrays whose lower bound is not 1");
    fails_with("CREATE TYPE floatrange AS RANGE (subtype = float8);\n"
               "SELECT ordo_key('', floatrange(1, 2));",
               "value 1 has type floatrange, which ordo does not encode (of the ranges, only the built-in ones)");
    fails_with("SELECT ordo_key('', int4multirange());", "value 1 has type int4multirange");
    fails_with("CREATE TYPE pp AS (p point);\n"
               "SELECT ordo_key('', 1, ROW(point(1, 2))::pp);", "value 2 has type point");
    fails_with("SELECT ordo_key('', ARRAY[point(1, 2)]);", "value 1 has type point");
    fails_with("SELECT ordo_lexkey(1.5::numeric);", "ordo_lexkey: value 1 has type numeric, which the LexKey format cannot hold");
    fails_with("SELECT ordo_lexkey('infinity'::date);", "ordo_lexkey: value 1 (date): ");
    fails_with("SELECT ordo_lexkey('1500-01-01'::timestamp);", "ordo_lexkey: value 1 (timestamp without time zone): ");
    fails_with("SELECT * FROM ordo_decode('\\x00', 'a nosuchtype') AS x(a int);", "ordo_decode: bad schema 'a nosuchtype': column 'a': unknown type 'nosuchtype'");
    fails_with("SELECT * FROM ordo_decode(ordo_key('', 1), 'a integer') AS x(a int, b int);", "the schema has 1 columns but the result 2");
    fails_with("SELECT * FROM ordo_decode(ordo_key('', 1, 2), 'a integer') AS x(a int);", "ordo_decode: 5 bytes left after the last column");
    fails_with("SELECT * FROM ordo_decode('\\x05', 'a integer') AS x(a int);", "ordo_decode: column 'a' at byte 0: ");
    fails_with("SELECT ordo_inspect('\\x0080', 'a integer');", "ordo_inspect: column 'a' at byte 0: ");
    /* a collation whose recorded version is not the one ordo's ICU reports */
    fails_with("CREATE COLLATION vtest (provider = icu, locale = 'fr-FR');\n"
               "UPDATE pg_collation SET collversion = '0.0' WHERE collname = 'vtest';\n"
               "SELECT ordo_key('', 'a'::text COLLATE vtest);",
               "collation \"fr-FR-x-icu\" has version 0.0 in the database, but ordo's collator has version");
    fails_with("SELECT ordo_prefix_upper_bound('\\xffff');", "ordo_prefix_upper_bound:");
    fails_with("SELECT ordo_prefix_upper_bound('\\x');", "ordo_prefix_upper_bound:");
    char out[512];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    must_psql("COPY (SELECT ordo_prefix_upper_bound('\\x0102ff'), ordo_prefix_upper_bound('\\x01'), "
              "ordo_key('', NULL::int) IS NULL, length(ordo_key('', NULL::int, NULL::text))) TO STDOUT;\n",
              out);
    assert_int_equal(t_sh("printf '\\\\\\\\x0103\\t\\\\\\\\x02\\tf\\t2\\n' | cmp -s - '%s'", out), 0);
}

/* An expression index on ordo_key(...) serves a prefix query: the rows
 * whose first value is given, between the prefix and its upper bound. */
static void prefix_index(void **state)
{
    (void)state;
    char out[512];
    snprintf(out, sizeof out, "%s/plan.txt", dir);
    must_psql("CREATE INDEX t2_key ON t2 (ordo_key('DESC, ASC', i2, t));\n"
              "ANALYZE t2;\n"
              "SET enable_seqscan = off;\n"
              "EXPLAIN (COSTS OFF) SELECT id FROM t2 WHERE ordo_key('DESC, ASC', i2, t) >= ordo_key('DESC', 1::int2) "
              "AND ordo_key('DESC, ASC', i2, t) < ordo_prefix_upper_bound(ordo_key('DESC', 1::int2));\n",
              out);
    if (t_sh("grep -q 't2_key' '%s'", out) != 0) {
        t_sh("cat '%s' >&2", out);
        fail_msg("the prefix query does not use the expression index");
    }
    snprintf(out, sizeof out, "%s/count.txt", dir);
    must_psql("SET enable_seqscan = off;\n"
              "COPY (SELECT (SELECT count(*) FROM t2 WHERE ordo_key('DESC, ASC', i2, t) >= ordo_key('DESC', 1::int2) "
              "AND ordo_key('DESC, ASC', i2, t) < ordo_prefix_upper_bound(ordo_key('DESC', 1::int2))) "
              "- (SELECT count(*) FROM t2 WHERE i2 = 1), (SELECT count(*) FROM t2 WHERE i2 = 1)) TO STDOUT;\n",
              out);
    FILE *f = fopen(out, "r");
    long diff = -1, n = 0;
    assert_non_null(f);
    assert_int_equal(fscanf(f, "%ld %ld", &diff, &n), 2);
    fclose(f);
    assert_int_equal(diff, 0);
    assert_true(n > 0); /* the random rows have ties on small values */
}

#ifdef ORDO_WITH_ROCKSDB
/* The fenced block of docs/postgres.md whose first line starts with
 * marker, into a malloc'd string. */
static char *doc_block(const char *marker)
{
    FILE *f = fopen(ORDO_PG_DOCS, "r");
    assert_non_null(f);
    char line[4096], *out = NULL;
    size_t len = 0;
    int in = 0, first = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "```", 3)) {
            if (in && out)
                break;
            in = !in, first = in;
            continue;
        }
        if (in && first && !strncmp(line, marker, strlen(marker)))
            out = calloc(1, 1 << 16);
        first = 0;
        if (in && out) {
            assert_true(len + strlen(line) < 1 << 16);
            memcpy(out + len, line, strlen(line) + 1), len += strlen(line);
        }
    }
    fclose(f);
    if (!out)
        fail_msg("%s has no block that starts with '%s'", ORDO_PG_DOCS, marker);
    return out;
}

/* docs/postgres.md's check of a mirror, its two blocks run as written: the
 * export by psql (in the folder the files go to), then the shell block
 * with the built tool first on PATH. A mirror of all the rows passes; one
 * that lacks a row fails, naming it. */
static void mirror(void **state)
{
    (void)state;
    must_psql("CREATE TABLE scores AS SELECT g::bigint AS player_id, CASE WHEN g % 23 = 0 THEN NULL "
              "WHEN g % 97 = 0 THEN 'NaN' WHEN g % 89 = 0 THEN '-0' ELSE floor(random() * 40) * 10 END::float8 AS score, "
              "'p' || g || CASE WHEN g % 7 = 0 THEN ', \"the ' || g || '\"' ELSE '' END AS name "
              "FROM generate_series(1, 2000) g;\n",
              NULL);
    char *sql = doc_block("-- export:"), *sh = doc_block("# check:");
    char path[512], cwd[4096], out[512];
    snprintf(path, sizeof path, "%s/check.sh", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(sh, f);
    fclose(f);
    free(sh);
    assert_int_equal(t_sh("mkdir '%s/all' '%s/lack'", dir, dir), 0);
    snprintf(path, sizeof path, "%s/all", dir);
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(path), 0); /* psql's \copy writes where it runs */
    int rc = psql(sql, NULL);
    assert_int_equal(chdir(cwd), 0);
    free(sql);
    if (rc != 0) {
        pg_psql_show_error(&srv);
        fail_msg("docs/postgres.md's export failed");
    }
    const char *run = "cd '%s/%s' && PATH=\"$(dirname '%s'):$PATH\" bash -euo pipefail '%s/check.sh' > "
                      "'%s/check.out' 2> '%s/check.err'";
    snprintf(out, sizeof out, "%s/check.out", dir);
    if (t_sh(run, dir, "all", TOOL, dir, dir, dir) != 0) {
        t_sh("cat '%s' '%s/check.err' >&2", out, dir);
        fail_msg("docs/postgres.md's check of a mirror failed for a mirror of every row");
    }
    assert_int_equal(t_sh("grep -qx \"mirror: 2000 keys, all PostgreSQL's\" '%s'", out), 0);
    /* the same keys, a mirror without player 7 (no name holds a line break) */
    assert_int_equal(t_sh("cp '%s/all/pg-keys.txt' '%s/lack/' && grep -v '^7,' '%s/all/scores.csv' > "
                          "'%s/lack/scores.csv'",
                          dir, dir, dir, dir),
                     0);
    assert_int_equal(t_sh(run, dir, "lack", TOOL, dir, dir, dir), 1);
    if (t_sh("test \"$(grep -c '^[<>] ' '%s')\" -eq 1 && grep -qx '< .*,7' '%s'", out, out) != 0) {
        t_sh("cat '%s' '%s/check.err' >&2", out, dir);
        fail_msg("the check of a mirror without row 7 does not name it alone (its output above)");
    }
}
#endif

#ifdef ORDO_PG_PYTHON
/* The Python package's ordo.encode_keys of every value's rows in every
 * order that the tests above keyed: one interpreter for all of them
 * (tests/pg_encode_keys.py), in the Python tests' environment. */
static void python_encode_keys(void **state)
{
    (void)state;
    if (!py_ncases)
        fail_msg("no values were keyed for ordo.encode_keys to compare (the tests above failed)");
    int rc = t_sh("env %s PYTHONPATH='%s' PYTHONDONTWRITEBYTECODE=1 '%s' '%s' < '%s/py/cases.tsv' "
                  "2> '%s/py.err'",
                  ORDO_PG_PYTHON_ENV, ORDO_PG_PYTHONPATH, ORDO_PG_PYTHON, ORDO_PG_ENCODE_KEYS, dir,
                  dir);
    if (rc != 0)
        t_sh("cat '%s/py.err' >&2", dir);
    size_t bad = 0, first = 0;
    for (size_t c = 0; c < py_ncases; c++) {
        const py_entry *e = &py_cases[c];
        if (t_sh("cmp -s '%s/py/%zu-%d.py' '%s/py/%zu-%d.got'", dir, e->n, e->i, dir, e->n, e->i) ==
            0)
            continue;
        if (!bad++)
            first = c;
        fprintf(stderr, "%s: ordo_key's bytes differ from ordo.encode_keys's (row, want, got):\n",
                e->label);
        t_sh("paste -d ' ' '%s/py/%zu.csv' '%s/py/%zu-%d.py' '%s/py/%zu-%d.got' 2> /dev/null | "
             "awk '$2 != $3' | head -5 >&2",
             dir, e->n, dir, e->n, e->i, dir, e->n, e->i);
    }
    size_t n = py_ncases;
    char label[512];
    snprintf(label, sizeof label, "%s", bad ? py_cases[first].label : "");
    for (size_t c = 0; c < py_ncases; c++)
        free(py_cases[c].label);
    free(py_cases);
    py_cases = NULL, py_ncases = py_cap = 0;
    if (rc != 0)
        fail_msg("tests/pg_encode_keys.py failed (exit status %d; its errors above)", rc);
    if (bad)
        fail_msg("%zu of %zu values and orders differ from ordo.encode_keys's, the first: %s", bad,
                 n, label);
    printf("# ordo.encode_keys: %zu values and orders in one interpreter\n", n);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_type_every_order),
        cmocka_unit_test(collations),
        cmocka_unit_test(toasted),
        cmocka_unit_test(several_values),
        cmocka_unit_test(whole_rows),
        cmocka_unit_test(variadic_arrays),
        cmocka_unit_test(decode_round_trip),
        cmocka_unit_test(lexkey),
        cmocka_unit_test(errors),
        cmocka_unit_test(prefix_index),
#ifdef ORDO_WITH_ROCKSDB
        cmocka_unit_test(mirror),
#endif
#ifdef ORDO_PG_PYTHON
        cmocka_unit_test(python_encode_keys), /* last: it checks what the others keyed */
#endif
    };
    return cmocka_run_group_tests(tests, start_server, stop_server);
}
