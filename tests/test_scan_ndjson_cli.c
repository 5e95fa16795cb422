/* ordo scan --output ndjson: every line parsed back as JSON (a parser of
 * its own here) and checked value by value against the values the test
 * generated: NULL, booleans in PostgreSQL's spellings, integers (hugeint's
 * extremes too), floats read back exactly in the fewest digits trial
 * printing finds, NaN and the infinities, text with quotes, backslashes,
 * control characters and UTF-8, bytea as \x hex, the rest as their text;
 * and --output csv stays byte for byte the default's output. */
#include "ordo_test.h"

#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "load_run.h"

#define SCHEMA                                                                                     \
    "id integer, b boolean, s smallint, big bigint, h hugeint, r real, d double precision, "      \
    "n numeric, t text, y bytea, dt date, a integer[], u uuid"
#define NCOLS 13
static const char *const names[NCOLS] = {"id", "b", "s", "big", "h", "r", "d",
                                         "n",  "t", "y", "dt", "a", "u"};

/* ------------------------------------------------------ a JSON reader */

typedef struct jvalue {
    char kind; /* 'n' null, 't' true, 'f' false, '#' number, 's' string */
    char text[512]; /* a number's text, a string decoded (UTF-8) */
    size_t len;
} jvalue;

static void put_utf8(jvalue *v, unsigned c)
{
    if (c < 0x80) {
        v->text[v->len++] = (char)c;
    } else if (c < 0x800) {
        v->text[v->len++] = (char)(0xc0 | c >> 6);
        v->text[v->len++] = (char)(0x80 | (c & 63));
    } else if (c < 0x10000) {
        v->text[v->len++] = (char)(0xe0 | c >> 12);
        v->text[v->len++] = (char)(0x80 | (c >> 6 & 63));
        v->text[v->len++] = (char)(0x80 | (c & 63));
    } else {
        v->text[v->len++] = (char)(0xf0 | c >> 18);
        v->text[v->len++] = (char)(0x80 | (c >> 12 & 63));
        v->text[v->len++] = (char)(0x80 | (c >> 6 & 63));
        v->text[v->len++] = (char)(0x80 | (c & 63));
    }
}

static unsigned hex4(const char **p)
{
    unsigned c = 0;
    for (int i = 0; i < 4; i++, (*p)++) {
        char h = **p;
        assert_true(isxdigit((unsigned char)h));
        c = c * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 32) - 'a' + 10);
    }
    return c;
}

/* A JSON string at *p (its quote) into v; strict: raw control characters
 * are refused. */
static void read_string(const char **p, jvalue *v)
{
    assert_int_equal(**p, '"');
    (*p)++;
    v->kind = 's', v->len = 0;
    while (**p != '"') {
        unsigned char c = (unsigned char)*(*p)++;
        assert_true(c >= 0x20); /* JSON forbids them raw */
        assert_true(v->len + 4 < sizeof v->text);
        if (c != '\\') {
            v->text[v->len++] = (char)c;
            continue;
        }
        char e = *(*p)++;
        switch (e) {
        case '"': case '\\': case '/': v->text[v->len++] = e; break;
        case 'n': v->text[v->len++] = '\n'; break;
        case 't': v->text[v->len++] = '\t'; break;
        case 'r': v->text[v->len++] = '\r'; break;
        case 'b': v->text[v->len++] = '\b'; break;
        case 'f': v->text[v->len++] = '\f'; break;
        case 'u': {
            unsigned u = hex4(p);
            if (u >= 0xd800 && u < 0xdc00) {
                assert_true((*p)[0] == '\\' && (*p)[1] == 'u');
                *p += 2;
                u = 0x10000 + ((u - 0xd800) << 10) + (hex4(p) - 0xdc00);
            }
            put_utf8(v, u);
            break;
        }
        default: fail_msg("bad escape \\%c", e);
        }
    }
    (*p)++;
    v->text[v->len] = 0;
}

/* JSON's number grammar, strictly. */
static void read_number(const char **p, jvalue *v)
{
    const char *s = *p;
    if (*s == '-')
        s++;
    if (*s == '0')
        s++;
    else {
        assert_true(*s >= '1' && *s <= '9');
        while (isdigit((unsigned char)*s))
            s++;
    }
    if (*s == '.') {
        s++;
        assert_true(isdigit((unsigned char)*s));
        while (isdigit((unsigned char)*s))
            s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        assert_true(isdigit((unsigned char)*s));
        while (isdigit((unsigned char)*s))
            s++;
    }
    v->kind = '#';
    v->len = (size_t)(s - *p);
    assert_true(v->len < sizeof v->text);
    memcpy(v->text, *p, v->len);
    v->text[v->len] = 0;
    *p = s;
}

/* One line: an object whose keys are names[0..NCOLS) in order. */
static const char *read_object(const char *p, jvalue *vals)
{
    assert_int_equal(*p++, '{');
    for (int i = 0; i < NCOLS; i++) {
        if (i)
            assert_int_equal(*p++, ',');
        jvalue key;
        read_string(&p, &key);
        assert_string_equal(key.text, names[i]);
        assert_int_equal(*p++, ':');
        jvalue *v = &vals[i];
        if (!strncmp(p, "null", 4))
            v->kind = 'n', p += 4;
        else if (!strncmp(p, "true", 4))
            v->kind = 't', p += 4;
        else if (!strncmp(p, "false", 5))
            v->kind = 'f', p += 5;
        else if (*p == '"')
            read_string(&p, v);
        else
            read_number(&p, v);
    }
    assert_int_equal(*p++, '}');
    assert_int_equal(*p++, '\n');
    return p;
}

/* ------------------------------------------------------------ the rows */

typedef struct row {
    int id;
    int nulls;      /* bit c: column c is NULL */
    int b;          /* the boolean */
    char b_text[8]; /* as written */
    int s;
    long long big;
    char h[48]; /* hugeint: its decimal */
    float r;
    double d;
    char n[32];   /* numeric: its text */
    char t[64];   /* the text's bytes */
    uint8_t y[8]; /* bytea */
    size_t ny;
    char dt[16], a[24], u[40];
} row;

static const char *const texts[] = {"plain", "quote \" and \\ backslash", "tab\tnl\ncr\r",
                                    "ctl \x01\x1f end", "utf8 \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
                                    "", "comma, here", "NULL"};

static void make_row(row *w, int i, uint64_t *seed)
{
    static const char *const t_true[] = {"t", "true", "yes", "on", "1", "TRUE"},
                             *const t_false[] = {"f", "false", "no", "off", "0", "False"};
    static const double specials[] = {NAN, INFINITY, -INFINITY, -0.0, 0.1, 1e-320, 1e300,
                                      5e-324, 123456789.125};
    memset(w, 0, sizeof *w);
    uint64_t r = t_rand(seed);
    w->id = i;
    w->nulls = i % 9 == 4 ? ~1 : (int)(r & 0x1ffe & (r >> 13)); /* never the key */
    w->b = (int)(r >> 3) & 1;
    snprintf(w->b_text, sizeof w->b_text, "%s", (w->b ? t_true : t_false)[(r >> 4) % 6]);
    w->s = (int)((r >> 8) % 65536) - 32768;
    w->big = i % 5 == 0 ? INT64_MIN : i % 5 == 1 ? INT64_MAX : (long long)t_rand(seed);
    if (i % 4 == 0)
        snprintf(w->h, sizeof w->h, "-170141183460469231731687303715884105728");
    else if (i % 4 == 1)
        snprintf(w->h, sizeof w->h, "170141183460469231731687303715884105727");
    else
        snprintf(w->h, sizeof w->h, "%lld%09u", (long long)(int32_t)t_rand(seed) | 1,
                 (unsigned)(t_rand(seed) % 1000000000));
    uint64_t bits = t_rand(seed);
    memcpy(&w->d, &bits, 8);
    if (isnan(w->d) || i % 3 == 0)
        w->d = specials[(size_t)i / 3 % (sizeof specials / sizeof specials[0])];
    uint32_t fb = (uint32_t)t_rand(seed);
    memcpy(&w->r, &fb, 4);
    if (isnan(w->r) || i % 4 == 2)
        w->r = i % 8 == 2 ? NAN : (float)specials[(size_t)i / 4 % 9];
    snprintf(w->n, sizeof w->n, "%s%u.%03u", r & 1 ? "-" : "", (unsigned)(r >> 20) % 1000,
             (unsigned)(r >> 40) % 1000);
    snprintf(w->t, sizeof w->t, "%s", texts[(size_t)i % (sizeof texts / sizeof texts[0])]);
    w->ny = (size_t)(r >> 50) % 6;
    for (size_t k = 0; k < w->ny; k++)
        w->y[k] = (uint8_t)t_rand(seed);
    snprintf(w->dt, sizeof w->dt, "%04d-%02d-%02d", 1900 + i % 200, 1 + i % 12, 1 + i % 28);
    snprintf(w->a, sizeof w->a, "{%d,%d}", i, -i);
    snprintf(w->u, sizeof w->u, "%08x-0000-4000-8000-%012llx", (unsigned)r,
             (unsigned long long)(r >> 16));
}

static void csv_text(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* The value written as the loader reads it: floats at 17 digits (9 for
 * real), so that the shortest text is the scan's to find. */
static void write_row(FILE *f, const row *w)
{
    for (int c = 0; c < NCOLS; c++) {
        if (c)
            fputc(',', f);
        if (w->nulls >> c & 1)
            continue;
        switch (c) {
        case 0: fprintf(f, "%d", w->id); break;
        case 1: fprintf(f, " %s ", w->b_text); break;
        case 2: fprintf(f, "%+d", w->s); break;
        case 3: fprintf(f, "%lld", w->big); break;
        case 4: fprintf(f, "%s", w->h); break;
        case 5:
            if (isnan(w->r))
                fputs("NaN", f);
            else if (isinf(w->r))
                fputs(w->r > 0 ? "inf" : "-Infinity", f);
            else
                fprintf(f, "%.9g", (double)w->r);
            break;
        case 6:
            if (isnan(w->d))
                fputs("nan", f);
            else if (isinf(w->d))
                fputs(w->d > 0 ? "Infinity" : "-inf", f);
            else
                fprintf(f, "%.17g", w->d);
            break;
        case 7: fprintf(f, "%s", w->n); break;
        case 8: csv_text(f, w->t); break;
        case 9:
            fputs("\\x", f);
            for (size_t k = 0; k < w->ny; k++)
                fprintf(f, "%02X", w->y[k]); /* upper case in, lower case out */
            break;
        case 10: fprintf(f, "%s", w->dt); break;
        case 11: csv_text(f, w->a); break;
        case 12: fprintf(f, "%s", w->u); break;
        }
    }
    fputc('\n', f);
}

/* The fewest significant digits that read back as d (f: as a float), by
 * trial printing. */
static int shortest(double d, int is_float)
{
    char out[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(out, sizeof out, "%.*g", prec, d);
        if (is_float ? strtof(out, NULL) == (float)d : strtod(out, NULL) == d)
            return prec;
    }
    return 17;
}

/* The significant digits of a decimal's text ("-0.00120e5": 2; "871580": 5). */
static int sig_digits(const char *s)
{
    char d[64];
    int n = 0;
    for (; *s && *s != 'e' && *s != 'E'; s++)
        if (isdigit((unsigned char)*s) && (n || *s != '0') && n < 63)
            d[n++] = *s;
    while (n > 1 && d[n - 1] == '0')
        n--;
    return n ? n : 1;
}

static void check_float(const jvalue *v, double want, int is_float, int id)
{
    if (isnan(want) || isinf(want)) {
        const char *s = isnan(want) ? "NaN" : want > 0 ? "Infinity" : "-Infinity";
        if (v->kind != 's' || strcmp(v->text, s))
            fail_msg("row %d: %s, got %c '%s'", id, s, v->kind, v->text);
        return;
    }
    int digits = shortest(want, is_float);
    if (v->kind != '#' || sig_digits(v->text) != digits)
        fail_msg("row %d: wanted %.17g in %d digits, got %c '%s'", id, want, digits, v->kind,
                 v->text);
    double back = strtod(v->text, NULL);
    assert_true(is_float ? (float)back == (float)want : back == want);
    assert_true(signbit(back) == signbit(want));
}

static const char *g_line; /* the line being checked, for the messages */

static void check_string(const jvalue *v, const char *want, int id, int c)
{
    if (v->kind != 's' || strcmp(v->text, want))
        fail_msg("row %d column %s: wanted \"%s\", got %c '%s'", id, names[c], want, v->kind,
                 v->text);
}

static void check_row(const row *w, const jvalue *v)
{
    char t[64];
    for (int c = 0; c < NCOLS; c++) {
        if (w->nulls >> c & 1) {
            if (v[c].kind != 'n')
                fail_msg("row %d column %s: wanted null, got %c '%s' in %.*s", w->id, names[c],
                         v[c].kind, v[c].text, (int)strcspn(g_line, "\n"), g_line);
            continue;
        }
        switch (c) {
        case 0: snprintf(t, sizeof t, "%d", w->id); break;
        case 1:
            if (v[c].kind != (w->b ? 't' : 'f'))
                fail_msg("row %d: '%s' is %s, got %c", w->id, w->b_text, w->b ? "true" : "false",
                         v[c].kind);
            continue;
        case 2: snprintf(t, sizeof t, "%d", w->s); break;
        case 3: snprintf(t, sizeof t, "%lld", w->big); break;
        case 4: snprintf(t, sizeof t, "%s", w->h); break;
        case 5: check_float(&v[c], (double)w->r, 1, w->id); continue;
        case 6: check_float(&v[c], w->d, 0, w->id); continue;
        case 7: check_string(&v[c], w->n, w->id, c); continue;
        case 8: check_string(&v[c], w->t, w->id, c); continue;
        case 9: {
            char hex[32] = "\\x";
            for (size_t k = 0; k < w->ny; k++)
                snprintf(hex + 2 + 2 * k, 3, "%02x", w->y[k]);
            check_string(&v[c], hex, w->id, c);
            continue;
        }
        case 10: check_string(&v[c], w->dt, w->id, c); continue;
        case 11: check_string(&v[c], w->a, w->id, c); continue;
        case 12: check_string(&v[c], w->u, w->id, c); continue;
        }
        if (v[c].kind != '#' || strcmp(v[c].text, t))
            fail_msg("row %d column %s: wanted %s, got %c '%s'", w->id, names[c], t, v[c].kind,
                     v[c].text);
    }
}

static void test_ndjson(void **state)
{
    (void)state;
    enum { ROWS = 600 };
    uint64_t seed = t_seed();
    row *rows = calloc(ROWS, sizeof *rows);
    assert_non_null(rows);
    char csv[300], db[300];
    path_in(csv, sizeof csv, "values.csv");
    FILE *f = fopen(csv, "wb");
    assert_non_null(f);
    for (int i = 0; i < ROWS; i++) {
        make_row(&rows[i], i, &seed);
        write_row(f, &rows[i]);
    }
    fclose(f);
    /* the key decoded (ordered), or every column from the value (LexKey: native widths too) */
    static const char *const formats[] = {"ordered", "lexkey", "lexkey-legacy"};
    for (int fmt = 0; fmt < 3; fmt++) {
        snprintf(db, sizeof db, "%s/db-json-%d", g_dir, fmt);
        run r;
        ordo(&r, NULL, "load", "--db", db, "--format", formats[fmt], "--schema",
             fmt ? "id integer, b boolean, s smallint, big bigint, h text, r real, d double "
                   "precision, n text, t text, y bytea, dt date, a text, u uuid"
                 : SCHEMA,
             "--key", "id", csv, NULL);
        if (r.status)
            fail_msg("load: %s", r.err);
        run_free(&r);
        ordo(&r, NULL, "scan", "--db", db, "--output", "ndjson", NULL);
        if (r.status)
            fail_msg("scan: %s", r.err);
        const char *p = r.out;
        for (int i = 0; i < ROWS; i++) {
            jvalue v[NCOLS];
            g_line = p;
            p = read_object(p, v);
            if (fmt && !(rows[i].nulls >> 4 & 1)) { /* h is text here: the same digits */
                check_string(&v[4], rows[i].h, i, 4);
                v[4].kind = '#';
                snprintf(v[4].text, sizeof v[4].text, "%s", rows[i].h);
            }
            check_row(&rows[i], v);
        }
        assert_int_equal(*p, 0);
        run_free(&r);
        /* --columns and --limit, as for CSV */
        ordo(&r, NULL, "scan", "--db", db, "--output", "ndjson", "--columns", "t,id", "--limit",
             "1", NULL);
        assert_int_equal(r.status, 0);
        char want[200];
        snprintf(want, sizeof want, rows[0].nulls >> 8 & 1 ? "{\"t\":null,\"id\":0}\n"
                                                           : "{\"t\":\"%s\",\"id\":0}\n",
                 texts[0]);
        assert_text_equal(r.out, want);
        run_free(&r);
        /* csv stays the default, byte for byte */
        run a, b;
        ordo(&a, NULL, "scan", "--db", db, NULL);
        ordo(&b, NULL, "scan", "--db", db, "--output", "csv", NULL);
        assert_int_equal(a.status, 0);
        assert_true(a.out_len > ROWS * 20);
        assert_text_equal(b.out, a.out);
        run_free(&a), run_free(&b);
    }
    free(rows);
    run r;
    ordo(&r, NULL, "scan", "--db", db, "--output", "json", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--output: expected csv or ndjson, got 'json'"));
    run_free(&r);
    ordo(&r, NULL, "scan", "--db", db, "--output", "ndjson", "--header", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--header is for --output csv"));
    run_free(&r);
    ordo(&r, NULL, "scan", "--help", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "--output csv|ndjson"));
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_ndjson)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
