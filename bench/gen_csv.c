/* Deterministic CSV rows for bench/csv_vs_duckdb.sh, in the form PostgreSQL's
 * COPY ... TO STDOUT (FORMAT csv) writes them: comma, double quotes only where
 * needed ("" for a quote inside), an unquoted empty field for NULL, booleans
 * as t/f, no header.
 *
 *   gen_csv [--long] numeric|mixed ROWS [SEED] > FILE
 *
 * numeric: a bigint, b double precision, c integer
 * mixed:   name text, id bigint, active boolean, uid uuid,
 *          score double precision, city text
 *
 * Every column is NULL in about 1% of the rows. bigint: 90% uniform over the
 * whole int64 range, 10% in -1000..1000; integer: uniform over int32; double:
 * 1-15 significant digits, decimal exponent mostly -4..9 (fixed notation),
 * 15% anywhere in -300..300 (mostly exponent notation), written exactly as
 * PostgreSQL 12+ writes it (shortest round trip: exponent form when the
 * exponent is below -4 or at least 15); name: 5-20 ASCII letters, 3% quoted
 * with a comma or a doubled quote inside; uuid: random version 4, lowercase;
 * city: one of 200 names (some with a space).
 *
 * --long: long numbers, as users' tables have them: bigint uniform over the
 * whole int64 range (19 digits in 90% of the rows), double the double nearest
 * 17 random significant digits, written in its shortest round-trip form (15-17
 * significant digits, as PostgreSQL 12+ and Python's repr write it), with the
 * same exponents as above; integer and the other columns as without it.
 *
 * Built by the script with the system C compiler; standalone, C11. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static uint32_t below(uint32_t n) /* 0..n-1 (bias negligible here) */
{
    return (uint32_t)(((rnd() >> 32) * (uint64_t)n) >> 32);
}

static int chance(unsigned per_mille) { return below(1000) < per_mille; }

static char outbuf[1 << 20];
static size_t outlen;

static void flush_out(void)
{
    if (outlen && fwrite(outbuf, 1, outlen, stdout) != outlen) {
        perror("gen_csv: write");
        exit(1);
    }
    outlen = 0;
}

static void put(const char *s, size_t n)
{
    if (outlen + n > sizeof outbuf)
        flush_out();
    memcpy(outbuf + outlen, s, n);
    outlen += n;
}

static void putc1(char c)
{
    if (outlen == sizeof outbuf)
        flush_out();
    outbuf[outlen++] = c;
}

static void put_i64(int64_t v)
{
    char t[24];
    int n = snprintf(t, sizeof t, "%" PRId64, v);
    put(t, (size_t)n);
}

static void put_bigint(void)
{
    if (chance(10))
        return; /* NULL */
    if (chance(100))
        put_i64((int64_t)below(2001) - 1000);
    else
        put_i64((int64_t)rnd());
}

static void put_bigint_long(void)
{
    if (chance(10))
        return;
    put_i64((int64_t)rnd());
}

static void put_integer(void)
{
    if (chance(10))
        return;
    put_i64((int32_t)(uint32_t)rnd());
}

/* d significant digits dg[0..d) (the last one nonzero, so exactly d),
 * decimal exponent x: the value D[0].D[1..] * 10^x, written as PostgreSQL 12+
 * writes a double (exponent form when x < -4 or x >= 15). */
static void put_decimal(const char *dg, int d, int x, int neg)
{
    char t[400];
    int n = 0;
    if (neg)
        t[n++] = '-';
    if (x < -4 || x >= 15) {
        t[n++] = dg[0];
        if (d > 1) {
            t[n++] = '.';
            memcpy(t + n, dg + 1, (size_t)d - 1);
            n += d - 1;
        }
        n += snprintf(t + n, sizeof t - (size_t)n, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
    } else if (x < 0) {
        t[n++] = '0';
        t[n++] = '.';
        for (int i = 0; i < -x - 1; i++)
            t[n++] = '0';
        memcpy(t + n, dg, (size_t)d);
        n += d;
    } else if (x >= d - 1) {
        memcpy(t + n, dg, (size_t)d);
        n += d;
        for (int i = 0; i < x - (d - 1); i++)
            t[n++] = '0';
    } else {
        memcpy(t + n, dg, (size_t)x + 1);
        n += x + 1;
        t[n++] = '.';
        memcpy(t + n, dg + x + 1, (size_t)(d - x - 1));
        n += d - x - 1;
    }
    put(t, (size_t)n);
}

/* The decimal exponent of a double: mostly -4..9 (fixed notation), 15%
 * anywhere in -300..300 (mostly exponent notation). */
static int double_exponent(void) { return chance(150) ? (int)below(601) - 300 : (int)below(14) - 4; }

/* With d <= 15 (DBL_DIG) significant digits the digit string is the shortest
 * round trip of the double it denotes, so this is PostgreSQL's own output for
 * that double. */
static void put_double(void)
{
    if (chance(10))
        return;
    char dg[16];
    int d = 1 + (int)below(15);
    for (int i = 0; i < d; i++)
        dg[i] = (char)('0' + (i == 0 || i == d - 1 ? 1 + below(9) : below(10)));
    int x = double_exponent();
    put_decimal(dg, d, x, chance(500));
}

/* --long: the double nearest 17 random significant digits, written in its
 * shortest round-trip form (15-17 digits nearly always), as PostgreSQL 12+
 * and Python's repr write it. */
static void put_double_long(void)
{
    if (chance(10))
        return;
    char t[64], dg[20];
    int n = 0;
    t[n++] = (char)('1' + below(9));
    t[n++] = '.';
    for (int i = 0; i < 16; i++)
        t[n++] = (char)('0' + below(10));
    snprintf(t + n, sizeof t - (size_t)n, "e%d", double_exponent());
    double v = strtod(t, NULL);
    /* the fewest digits that read back as v: try 15, then fewer or more */
    int p = 15;
    snprintf(t, sizeof t, "%.*e", p - 1, v);
    if (strtod(t, NULL) == v) {
        while (p > 1) {
            char u[64];
            snprintf(u, sizeof u, "%.*e", p - 2, v);
            if (strtod(u, NULL) != v)
                break;
            memcpy(t, u, sizeof u);
            p--;
        }
    } else {
        do
            snprintf(t, sizeof t, "%.*e", p++, v);
        while (strtod(t, NULL) != v);
    }
    /* t is D[.DDD]e[+-]XX with p significant digits */
    int d = 0;
    const char *c = t;
    for (; *c != 'e'; c++)
        if (*c != '.')
            dg[d++] = *c;
    while (d > 1 && dg[d - 1] == '0') /* (a shortest form ends in a nonzero digit) */
        d--;
    put_decimal(dg, d, atoi(c + 1), chance(500));
}

static void put_name(void)
{
    if (chance(10))
        return;
    char t[48];
    int len = 5 + (int)below(16), n = 0;
    for (int i = 0; i < len; i++)
        t[n++] = (char)((i == 0 ? 'A' : 'a') + below(26));
    if (!chance(30)) {
        put(t, (size_t)n);
        return;
    }
    /* quoted: "Last, First" or an apostrophe written as a quote, O"Brien */
    int at = 1 + (int)below((uint32_t)len - 1);
    putc1('"');
    put(t, (size_t)at);
    if (chance(500))
        put(", ", 2);
    else
        put("\"\"", 2);
    put(t + at, (size_t)(len - at));
    putc1('"');
}

static void put_bool(void)
{
    if (chance(10))
        return;
    putc1(chance(500) ? 't' : 'f');
}

static void put_uuid(void)
{
    if (chance(10))
        return;
    static const char hex[] = "0123456789abcdef";
    uint64_t hi = rnd(), lo = rnd();
    hi = (hi & ~0xf000ull) | 0x4000ull;                  /* version 4 */
    lo = (lo & ~(3ull << 62)) | (2ull << 62);             /* RFC 4122 variant */
    char t[36];
    int n = 0;
    for (int i = 0; i < 32; i++) {
        if (i == 8 || i == 12 || i == 16 || i == 20)
            t[n++] = '-';
        uint64_t w = i < 16 ? hi : lo;
        t[n++] = hex[(w >> (60 - 4 * (i % 16))) & 15];
    }
    put(t, 36);
}

static const char *const cities[] = {
    "Tokyo", "Delhi", "Shanghai", "Sao Paulo", "Mexico City", "Cairo", "Mumbai", "Beijing",
    "Dhaka", "Osaka", "New York", "Karachi", "Buenos Aires", "Chongqing", "Istanbul", "Kolkata",
    "Manila", "Lagos", "Rio de Janeiro", "Tianjin", "Kinshasa", "Guangzhou", "Los Angeles",
    "Moscow", "Shenzhen", "Lahore", "Bangalore", "Paris", "Bogota", "Jakarta", "Chennai", "Lima",
    "Bangkok", "Seoul", "Nagoya", "Hyderabad", "London", "Tehran", "Chicago", "Chengdu",
    "Nanjing", "Wuhan", "Ho Chi Minh City", "Luanda", "Ahmedabad", "Kuala Lumpur", "Xian",
    "Hong Kong", "Dongguan", "Hangzhou", "Foshan", "Shenyang", "Riyadh", "Baghdad", "Santiago",
    "Surat", "Madrid", "Suzhou", "Pune", "Harbin", "Houston", "Dallas", "Toronto",
    "Dar es Salaam", "Miami", "Belo Horizonte", "Singapore", "Philadelphia", "Atlanta",
    "Fukuoka", "Khartoum", "Barcelona", "Johannesburg", "Saint Petersburg", "Qingdao", "Dalian",
    "Washington", "Yangon", "Alexandria", "Jinan", "Guadalajara", "Abidjan", "Ankara", "Chittagong",
    "Melbourne", "Sydney", "Monterrey", "Nairobi", "Hanoi", "Brasilia", "Cape Town", "Jeddah",
    "Kabul", "Rome", "Berlin", "Athens", "Lisbon", "Vienna", "Prague", "Budapest", "Warsaw",
    "Bucharest", "Hamburg", "Munich", "Milan", "Naples", "Turin", "Kyiv", "Minsk", "Belgrade",
    "Sofia", "Zagreb", "Stockholm", "Oslo", "Copenhagen", "Helsinki", "Dublin", "Amsterdam",
    "Rotterdam", "Brussels", "Antwerp", "Zurich", "Geneva", "Lyon", "Marseille", "Toulouse",
    "Porto", "Valencia", "Seville", "Manchester", "Birmingham", "Glasgow", "Edinburgh", "Leeds",
    "Liverpool", "Boston", "Seattle", "San Francisco", "San Diego", "Denver", "Phoenix",
    "Detroit", "Minneapolis", "Montreal", "Vancouver", "Calgary", "Ottawa", "Havana",
    "Santo Domingo", "Panama City", "San Jose", "Quito", "Caracas", "Montevideo", "Asuncion",
    "La Paz", "Medellin", "Cali", "Recife", "Fortaleza", "Salvador", "Curitiba", "Porto Alegre",
    "Manaus", "Casablanca", "Algiers", "Tunis", "Tripoli", "Accra", "Dakar", "Addis Ababa",
    "Kampala", "Kigali", "Lusaka", "Harare", "Maputo", "Durban", "Antananarivo", "Doha", "Dubai",
    "Abu Dhabi", "Muscat", "Kuwait City", "Amman", "Beirut", "Damascus", "Jerusalem", "Baku",
    "Tbilisi", "Yerevan", "Tashkent", "Almaty", "Bishkek", "Ulaanbaatar", "Taipei", "Kaohsiung",
    "Busan", "Sapporo", "Kyoto", "Yokohama", "Perth", "Brisbane", "Adelaide", "Auckland",
    "Wellington", "Colombo", "Kathmandu", "Thimphu", "Phnom Penh", "Vientiane",
};

static void put_city(void)
{
    if (chance(10))
        return;
    const char *c = cities[below((uint32_t)(sizeof cities / sizeof *cities))];
    put(c, strlen(c));
}

int main(int argc, char **argv)
{
    int lng = argc > 1 && !strcmp(argv[1], "--long");
    argc -= lng;
    argv += lng;
    if (argc < 3 || argc > 4 || (strcmp(argv[1], "numeric") && strcmp(argv[1], "mixed"))) {
        fprintf(stderr, "usage: gen_csv [--long] numeric|mixed ROWS [SEED]\n"
                        "  --long: bigints over all of int64, doubles with 15-17 significant digits\n");
        return 2;
    }
    char *end;
    unsigned long long rows = strtoull(argv[2], &end, 10);
    if (*end || end == argv[2]) {
        fprintf(stderr, "gen_csv: bad ROWS '%s'\n", argv[2]);
        return 2;
    }
    rng_state = argc == 4 ? strtoull(argv[3], NULL, 10) : 20261201u;
    int mixed = !strcmp(argv[1], "mixed");
    void (*bigint)(void) = lng ? put_bigint_long : put_bigint;
    void (*dbl)(void) = lng ? put_double_long : put_double;
    for (unsigned long long r = 0; r < rows; r++) {
        if (mixed) {
            put_name();
            putc1(',');
            bigint();
            putc1(',');
            put_bool();
            putc1(',');
            put_uuid();
            putc1(',');
            dbl();
            putc1(',');
            put_city();
        } else {
            bigint();
            putc1(',');
            dbl();
            putc1(',');
            put_integer();
        }
        putc1('\n');
    }
    flush_out();
    if (fflush(stdout)) {
        perror("gen_csv: write");
        return 1;
    }
    return 0;
}
