/* Collated text (SPEC.md §17) against references: any bytes, split into
 * strings, under a libc and two ICU collations. Each string's key from the
 * row API matches its size helper and reads back to the string (or is
 * refused as invalid UTF-8, like PostgreSQL); a batch of them equals the
 * rows, with its sort keys computed once (ordo_sort_keys_compute) too; and
 * for every pair, memcmp of the keys orders as strcoll_l (libc) or
 * ucol_strcollUTF8 (ICU), with PostgreSQL's byte tie-break. */
#define _GNU_SOURCE
#include "fuzz_util.h"

#include <locale.h>

#ifdef ORDO_WITH_ICU
#include <unicode/ucol.h>
#endif

#define MAXS 8
#define CAP 4096

typedef struct coll {
    const char *name;
    ordo_collator *c;
    locale_t loc;
#ifdef ORDO_WITH_ICU
    UCollator *u;
#endif
} coll;

static coll colls[3] = {{.name = "sv_SE.utf8"}, {.name = "und-x-icu"}, {.name = "de-DE-u-co-phonebk-x-icu"}};
static size_t ncolls;

static void open_once(void)
{
    if (ncolls)
        return;
    for (size_t i = 0; i < 3; i++) {
        coll *c = &colls[ncolls];
        *c = colls[i];
        ordo_status s = ordo_collator_open(c->name, &c->c);
        if (s == ORDO_ERR_NO_ICU)
            continue;
        CHECK(s == ORDO_OK);
        if (i == 0) {
            c->loc = newlocale(LC_COLLATE_MASK | LC_CTYPE_MASK, c->name, (locale_t)0);
            CHECK(c->loc);
        }
#ifdef ORDO_WITH_ICU
        if (i > 0) {
            UErrorCode st = U_ZERO_ERROR;
            c->u = ucol_open(i == 1 ? "und" : "de-DE-u-co-phonebk", &st);
            CHECK(!U_FAILURE(st));
        }
#endif
        ncolls++;
    }
}

static int sign(int v) { return (v > 0) - (v < 0); }

/* PostgreSQL's varstr_cmp under libc: strcoll_l, then the bytes. */
static int libc_reference(const coll *c, const char *a, const char *b)
{
    int r = strcoll_l(a, b, c->loc);
    return r ? sign(r) : sign(strcmp(a, b));
}

/* PostgreSQL's varstr_cmp under ICU for two valid strings (no 00). */
static int reference(const coll *c, const char *a, const char *b)
{
    int r = 0;
#ifdef ORDO_WITH_ICU
    UErrorCode st = U_ZERO_ERROR;
    r = ucol_strcollUTF8(c->u, a, -1, b, -1, &st);
    CHECK(!U_FAILURE(st));
#else
    (void)c;
#endif
    return r ? sign(r) : sign(strcmp(a, b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    open_once();
    bytes in = {data, size};
    uint8_t order = take8(&in) & 3;
    coll *c = &colls[take8(&in) % ncolls];
    /* strings: split at ff bytes */
    static char str[MAXS][256];
    size_t len[MAXS], ns = 0;
    while (ns < MAXS && in.n) {
        size_t n = 0;
        while (in.n && n < 255) {
            uint8_t b = take8(&in);
            if (b == 0xff)
                break;
            str[ns][n++] = (char)b;
        }
        str[ns][n] = 0;
        len[ns++] = n;
    }
    static uint8_t key[MAXS][CAP];
    size_t klen[MAXS];
    int valid[MAXS];
    for (size_t i = 0; i < ns; i++) {
        ordo_key k;
        size_t size = 0;
        ordo_key_init(&k, key[i], CAP, 0);
        ordo_status s = ordo_key_text_collated(&k, (ordo_order)order, c->c, str[i], len[i]);
        ordo_status z = ordo_key_text_collated_size(c->c, str[i], len[i], &size);
        CHECK(s == z);
        valid[i] = s == ORDO_OK;
        if (!valid[i]) {
            CHECK(s == ORDO_ERR_INVALID_UTF8);
            continue;
        }
        CHECK(ordo_key_finish(&k, &klen[i]) == ORDO_OK);
        CHECK(klen[i] == size);
        ordo_key_reader r;
        char back[256];
        size_t n;
        bool null;
        ordo_key_reader_init(&r, key[i], klen[i]);
        CHECK(ordo_key_read_text_collated(&r, (ordo_order)order, back, sizeof back, &n, &null) ==
              ORDO_OK);
        CHECK(!null && n == len[i] && !memcmp(back, str[i], n));
        CHECK(ordo_key_reader_remaining(&r) == 0);
    }
    /* pairs against the reference */
    for (size_t i = 0; i < ns; i++)
        for (size_t j = 0; j < ns; j++) {
            if (!valid[i] || !valid[j])
                continue;
            int got = ordo_compare(key[i], klen[i], key[j], klen[j]);
            if (order >= ORDO_DESC_NULLS_FIRST)
                got = -got;
            /* libc: strcoll_l's order (not strxfrm_l's: SPEC.md 17.5);
             * ICU: ucol_strcollUTF8's */
            CHECK(got == (c->loc ? libc_reference(c, str[i], str[j])
                                 : reference(c, str[i], str[j])));
        }
    /* a batch of the valid strings gives the rows' keys */
    static char values[MAXS * 256];
    int64_t offs[MAXS + 1];
    size_t nv = 0, at = 0, want_total = 0;
    for (size_t i = 0; i < ns; i++) {
        if (!valid[i])
            continue;
        offs[nv++] = (int64_t)at;
        memcpy(values + at, str[i], len[i]);
        at += len[i];
        want_total += klen[i];
    }
    offs[nv] = (int64_t)at;
    if (!nv)
        return 0;
    ordo_column col = {.type = ORDO_TYPE_STRING, .values = values, .offsets = offs,
                       .offset_bits = 64, .order = order, .collator = c->c};
    size_t total, stride;
    CHECK(ordo_batch_size(ORDO_FORMAT_ORDERED, &col, 1, nv, &total, &stride, NULL) == ORDO_OK);
    CHECK(total == want_total);
    static uint8_t out[MAXS * CAP];
    size_t koffs[MAXS + 1];
    CHECK(ordo_batch_encode(ORDO_FORMAT_ORDERED, &col, 1, nv, out, total, koffs, NULL) == ORDO_OK);
    for (size_t i = 0, v = 0; i < ns; i++) {
        if (!valid[i])
            continue;
        CHECK(koffs[v + 1] - koffs[v] == klen[i]);
        CHECK(!memcmp(out + koffs[v], key[i], klen[i]));
        v++;
    }
    /* the same batch with its sort keys computed once, into scratch of a
     * size the input picks (the order byte's top bits): too small is a
     * status and the size needed, which then suffices */
    static uint8_t sk_bytes[MAXS * CAP], out2[MAXS * CAP];
    size_t sk_offs[MAXS + 1], need = 0, koffs2[MAXS + 1], total2;
    size_t cap = size ? (size_t)(data[0] >> 2) * 8 : sizeof sk_bytes;
    ordo_sort_keys sk;
    ordo_status st = ordo_sort_keys_compute(&col, nv, sk_bytes, cap, sk_offs, &sk, &need, NULL);
    CHECK(st == ORDO_OK || st == ORDO_ERR_DST_TOO_SMALL);
    CHECK((st == ORDO_OK) == (need <= cap));
    if (st != ORDO_OK) {
        CHECK(need <= sizeof sk_bytes);
        CHECK(ordo_sort_keys_compute(&col, nv, sk_bytes, need, sk_offs, &sk, &need, NULL) ==
              ORDO_OK);
    }
    col.sort_keys = &sk;
    CHECK(ordo_batch_size(ORDO_FORMAT_ORDERED, &col, 1, nv, &total2, NULL, NULL) == ORDO_OK);
    CHECK(total2 == total);
    CHECK(ordo_batch_encode(ORDO_FORMAT_ORDERED, &col, 1, nv, out2, total, koffs2, NULL) ==
          ORDO_OK);
    CHECK(!memcmp(koffs2, koffs, (nv + 1) * sizeof *koffs) && !memcmp(out2, out, total));
    /* keys of another row count are refused, nothing written */
    CHECK(ordo_batch_encode(ORDO_FORMAT_ORDERED, &col, 1, nv - 1, out2, total, koffs2, NULL) ==
          ORDO_ERR_INVALID_ARG);
    CHECK(!memcmp(out2, out, total));
    return 0;
}
