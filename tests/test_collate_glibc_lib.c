/* libc collations in strcoll_l's order (SPEC.md §17.3, §17.5): for every
 * pair of a corpus with spaces, punctuation, hyphens and apostrophes at
 * every position, sign(memcmp) of ordo's sort keys is the sign of
 * strcoll_l, and of the whole keys PostgreSQL's varstr_cmp (strcoll_l,
 * then strcmp). Under C.utf8, en_US.utf8, de_DE.utf8 and sv_SE.utf8 (which
 * must be installed) with the whole corpus, and under every other UTF-8
 * locale `locale -a` lists with part of it. Then the tables ordo refuses. */
#define _GNU_SOURCE
#include <locale.h>

#include "collate.h"
#include "collate_strings.h"
#include "ordo_test.h"

#ifdef ORDO_TEST_EMULATED /* qemu-user: strcoll_l emulated is slow */
#define NFULL 800
#define NSAMPLE 100
#else
#define NFULL 2400
#define NSAMPLE 300
#endif
#define KCAP 1024

static int sign(int v) { return (v > 0) - (v < 0); }

static char corpus[NFULL][COLL_GEN_LEN];
static uint8_t sk[NFULL][KCAP], fk[NFULL][KCAP + COLL_GEN_LEN + 8];
static size_t skn[NFULL], fkn[NFULL];

static int memsign(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    int r = memcmp(a, b, na < nb ? na : nb);
    return r ? sign(r) : (na > nb) - (na < nb);
}

/* Pairs of strs[0..n) (a stride through the corpus) under locale name;
 * the disagreements found (failing after the first few are printed). */
static void check_locale(const char *name, size_t n, size_t stride)
{
    locale_t loc = newlocale(LC_COLLATE_MASK | LC_CTYPE_MASK, name, (locale_t)0);
    if (!loc)
        fail_msg("%s: not installed (Debian's locales-all)", name);
    ordo_collator *c;
    ordo_status st = ordo_collator_open(name, &c);
    if (st != ORDO_OK)
        fail_msg("%s: %s", name, ordo_status_name(st));
    for (size_t i = 0; i < n; i++) {
        const char *s = corpus[i * stride];
        assert_status(ordo_collator_sort_key(c, s, strlen(s), sk[i], KCAP, &skn[i]), ORDO_OK);
        assert_null(memchr(sk[i], 0, skn[i]));
        ordo_key k;
        ordo_key_init(&k, fk[i], sizeof fk[i], 0);
        assert_status(ordo_key_text_collated(&k, ORDO_ASC_NULLS_LAST, c, s, strlen(s)), ORDO_OK);
        assert_status(ordo_key_finish(&k, &fkn[i]), ORDO_OK);
    }
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            const char *a = corpus[i * stride], *b = corpus[j * stride];
            int coll = sign(strcoll_l(a, b, loc));
            int key = memsign(sk[i], skn[i], sk[j], skn[j]);
            int pg = coll ? coll : sign(strcmp(a, b));
            int full = memsign(fk[i], fkn[i], fk[j], fkn[j]);
            if (key != coll || full != pg) {
                if (bad++ < 5)
                    fprintf(stderr, "%s: '%s' vs '%s': strcoll_l %d, sort keys %d; "
                            "varstr_cmp %d, keys %d\n", name, a, b, coll, key, pg, full);
            }
        }
    ordo_collator_close(c);
    freelocale(loc);
    if (bad)
        fail_msg("%s: %zu of %zu pairs out of strcoll_l's order", name, bad, n * n);
}

static int setup(void **state)
{
    (void)state;
    size_t n = coll_gen_strings(corpus, NFULL, 24);
    return n == NFULL ? 0 : -1;
}

static void required_locales(void **state)
{
    (void)state;
    static const char *const names[] = {"C.utf8", "en_US.utf8", "de_DE.utf8", "sv_SE.utf8"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        check_locale(names[i], NFULL, 1);
}

/* Every other installed UTF-8 locale, on every eighth string. */
static void installed_locales(void **state)
{
    (void)state;
    FILE *p = popen("locale -a", "r");
    assert_non_null(p);
    char name[128];
    size_t ran = 0;
    while (fgets(name, sizeof name, p)) {
        name[strcspn(name, "\n")] = 0;
        if (!strstr(name, ".utf8") || !strcmp(name, "C.utf8"))
            continue;
        check_locale(name, NSAMPLE, NFULL / NSAMPLE);
        ran++;
    }
    pclose(p);
    fprintf(stderr, "installed_locales: %zu UTF-8 locales\n", ran);
    assert_true(ran >= 3); /* en_US, de_DE, sv_SE at least */
}

/* Hand-made tables, laid out as glibc's locale data: rule sets, the table
 * of first bytes, weights, extra, indirect. Every byte maps to weight
 * entry 0 (rule set 0) except 'b' (entry 4) and 'c' (rule set 1). */
typedef struct fake {
    _Alignas(int32_t) uint8_t mem[2048];
    size_t rules, table, weights, extra, indirect, end;
} fake;

static void fake_tables(fake *f, const uint8_t *rows, size_t nrows, uint8_t wa, uint8_t wb)
{
    memset(f, 0, sizeof *f);
    f->rules = 0;
    memcpy(f->mem, rows, nrows * 2);
    f->table = (nrows * 2 + 3) / 4 * 4;
    f->weights = f->table + 256 * 4;
    int32_t *t = (int32_t *)(void *)(f->mem + f->table);
    for (int i = 0; i < 256; i++)
        t[i] = 0;
    t['b'] = 4;
    t['c'] = (int32_t)(1u << 24); /* entry 0, rule set 1 */
    uint8_t *w = f->mem + f->weights;
    /* entry 0: one weight per level; entry 4: likewise */
    w[0] = 1, w[1] = wa, w[2] = 1, w[3] = 2;
    w[4] = 1, w[5] = wb, w[6] = 1, w[7] = 3;
    f->extra = f->weights + 8;
    f->indirect = f->extra + 4;
    f->end = f->indirect + 4;
}

static ordo_status fake_init(fake *f, ordo__glibc_coll *g)
{
    return ordo__glibc_coll_init(g, 2, f->mem + f->rules, f->mem + f->table, f->mem + f->weights,
                                 f->mem + f->extra, f->mem + f->indirect, f->mem + f->end);
}

static void refused_tables(void **state)
{
    (void)state;
    fake f;
    ordo__glibc_coll g;
    uint8_t key[64];
    size_t len;
    /* two rule sets agreeing on positions: keys as strcoll_l compares */
    static const uint8_t agree[] = {1, 5, 2, 5};
    fake_tables(&f, agree, 2, 0x10, 0x20);
    assert_status(fake_init(&f, &g), ORDO_OK);
    assert_status(ordo__glibc_key(&g, (const uint8_t *)"ab", 2, key, sizeof key, &len), ORDO_OK);
    /* level 0: 10 20; 01; level 1 (position): 02 02 01, 02 03 01 */
    static const uint8_t want[] = {0x10, 0x20, 0x01, 0x02, 0x02, 0x01, 0x02, 0x03, 0x01};
    assert_int_equal(len, sizeof want);
    assert_memory_equal(key, want, sizeof want);
    /* too small: the size, nothing past cap */
    memset(key, 0xaa, sizeof key);
    assert_status(ordo__glibc_key(&g, (const uint8_t *)"ab", 2, key, 3, &len),
                  ORDO_ERR_DST_TOO_SMALL);
    assert_int_equal(len, sizeof want);
    assert_int_equal(key[3], 0xaa);
    /* rule sets that disagree on positions: strcoll_l would take the first
     * string's, which no key can follow */
    static const uint8_t disagree[] = {1, 5, 1, 1};
    fake_tables(&f, disagree, 2, 0x10, 0x20);
    assert_status(fake_init(&f, &g), ORDO_ERR_UNSUPPORTED_COLLATION);
    /* a weight byte 01 (the key's separator) */
    fake_tables(&f, agree, 1, 0x01, 0x20);
    assert_status(fake_init(&f, &g), ORDO_OK);
    assert_status(ordo__glibc_key(&g, (const uint8_t *)"a", 1, key, sizeof key, &len),
                  ORDO_ERR_UNSUPPORTED_COLLATION);
    /* a rule set past the ones there are ('c': rule set 1 of 1) */
    fake_tables(&f, agree, 1, 0x10, 0x20);
    assert_status(fake_init(&f, &g), ORDO_OK);
    assert_status(ordo__glibc_key(&g, (const uint8_t *)"c", 1, key, sizeof key, &len),
                  ORDO_ERR_UNSUPPORTED_COLLATION);
    /* an entry outside the weights; an extra-table list outside it */
    fake_tables(&f, agree, 2, 0x10, 0x20);
    ((int32_t *)(void *)(f.mem + f.table))['x'] = 400;
    ((int32_t *)(void *)(f.mem + f.table))['y'] = -400;
    assert_status(fake_init(&f, &g), ORDO_OK);
    assert_status(ordo__glibc_key(&g, (const uint8_t *)"x", 1, key, sizeof key, &len),
                  ORDO_ERR_UNSUPPORTED_COLLATION);
    assert_status(ordo__glibc_key(&g, (const uint8_t *)"y", 1, key, sizeof key, &len),
                  ORDO_ERR_UNSUPPORTED_COLLATION);
    /* tables out of order, more levels than ordo reads */
    assert_status(ordo__glibc_coll_init(&g, 2, f.mem + f.table, f.mem + f.rules, f.mem + f.weights,
                                        f.mem + f.extra, f.mem + f.indirect, f.mem + f.end),
                  ORDO_ERR_UNSUPPORTED_COLLATION);
    assert_status(ordo__glibc_coll_init(&g, ORDO_GLIBC_LEVELS_MAX + 1, f.mem + f.rules,
                                        f.mem + f.table, f.mem + f.weights, f.mem + f.extra,
                                        f.mem + f.indirect, f.mem + f.end),
                  ORDO_ERR_UNSUPPORTED_COLLATION);
    /* no levels: strcmp order, the key is the text */
    assert_status(ordo__glibc_coll_init(&g, 0, NULL, NULL, NULL, NULL, NULL, NULL), ORDO_OK);
    assert_status(ordo__glibc_key(&g, (const uint8_t *)"b\xc3\xa9", 3, key, sizeof key, &len),
                  ORDO_OK);
    assert_int_equal(len, 3);
    assert_memory_equal(key, "b\xc3\xa9", 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(required_locales),
        cmocka_unit_test(installed_locales),
        cmocka_unit_test(refused_tables),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
