/* ordo_key_argsort: row ids ordered by their keys, an MSD radix sort over
 * the key bytes (docs/sort.md). Each entry holds the key's place and its
 * row id together, so that a pass moves one buffer; ranges that share a
 * prefix skip it in one step; small ranges are insertion sorted. Stable:
 * every pass scatters in order, and entries of equal keys never reorder. */
#include "load_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct entry {
    const uint8_t *key;
    size_t len;
    uint64_t id;
} entry;

typedef struct task {
    size_t at, n, depth;
} task;

/* Ranges this small are insertion sorted: fewer moves than a 257-bucket pass. */
#define SMALL 32

/* a before b, both agreeing on their first depth bytes: memcmp order, a
 * key before every longer key it is a prefix of. */
static int entry_less(const entry *a, const entry *b, size_t depth)
{
    size_t an = a->len - depth, bn = b->len - depth, m = an < bn ? an : bn;
    int c = m ? memcmp(a->key + depth, b->key + depth, m) : 0;
    return c ? c < 0 : an < bn;
}

/* Stable: an entry moves only past ones strictly greater. */
static void insertion_sort(entry *a, size_t n, size_t depth)
{
    for (size_t i = 1; i < n; i++) {
        entry x = a[i];
        size_t j = i;
        while (j > 0 && entry_less(&x, &a[j - 1], depth)) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

/* The bytes past depth that every key of a[0..n) shares. */
static size_t common_prefix(const entry *a, size_t n, size_t depth)
{
    size_t m = a[0].len - depth;
    const uint8_t *k0 = a[0].key + depth;
    for (size_t i = 1; i < n && m; i++) {
        size_t lim = a[i].len - depth < m ? a[i].len - depth : m;
        const uint8_t *k = a[i].key + depth;
        size_t j = 0;
        while (j < lim && k[j] == k0[j])
            j++;
        m = j;
    }
    return m;
}

static int push(task **stack, size_t *top, size_t *cap, task t)
{
    if (*top == *cap) {
        task *grown = realloc(*stack, 2 * *cap * sizeof **stack);
        if (!grown)
            return 0;
        *stack = grown, *cap *= 2;
    }
    (*stack)[(*top)++] = t;
    return 1;
}

/* Sorts a[0..n) (t: scratch of n entries); 0 when out of memory. The work
 * list is explicit, not recursion: shared prefixes of any length cannot
 * exhaust the call stack. */
static int msd_sort(entry *a, entry *t, size_t n)
{
    size_t cap = 64, top = 0;
    task *stack = malloc(cap * sizeof *stack);
    if (!stack)
        return 0;
    stack[top++] = (task){0, n, 0};
    while (top) {
        task k = stack[--top];
        entry *r = a + k.at, *s = t + k.at;
        if (k.n <= SMALL) {
            insertion_sort(r, k.n, k.depth);
            continue;
        }
        size_t depth = k.depth + common_prefix(r, k.n, k.depth);
        /* bucket 0: keys that end at depth (all equal, so first, in order);
         * 1 + b: keys whose byte at depth is b */
        size_t count[257] = {0}, pos[257];
        for (size_t i = 0; i < k.n; i++)
            count[r[i].len > depth ? 1 + r[i].key[depth] : 0]++;
        size_t sum = 0;
        for (int b = 0; b < 257; b++)
            pos[b] = sum, sum += count[b];
        for (size_t i = 0; i < k.n; i++)
            s[pos[r[i].len > depth ? 1 + r[i].key[depth] : 0]++] = r[i];
        memcpy(r, s, k.n * sizeof *r);
        for (size_t b = 1, at = count[0]; b < 257; at += count[b], b++)
            if (count[b] > 1 &&
                !push(&stack, &top, &cap, (task){k.at + at, count[b], depth + 1})) {
                free(stack);
                return 0;
            }
    }
    free(stack);
    return 1;
}

ordo_status ordo_key_argsort(const uint8_t *keys, const size_t *offsets, size_t n, uint64_t *ids,
                             ordo_error *err)
{
    if (n == 0)
        return ORDO_OK;
    if (!offsets || !ids || (!keys && offsets[n] != offsets[0]))
        return ordo__load_fail(err, ORDO_ERR_NULL_ARG, 0, "no keys, offsets or ids");
    if (n > SIZE_MAX / (2 * sizeof(entry)))
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    for (size_t i = 0; i < n; i++)
        if (offsets[i + 1] < offsets[i])
            return ordo__load_fail(err, ORDO_ERR_INVALID_ARG, 0,
                                   "key offsets decrease at row %zu", i);
    entry *a = malloc(2 * n * sizeof *a);
    if (!a)
        return ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
    for (size_t i = 0; i < n; i++)
        a[i] = (entry){keys ? keys + offsets[i] : NULL, offsets[i + 1] - offsets[i], i};
    int ok = msd_sort(a, a + n, n);
    if (ok)
        for (size_t i = 0; i < n; i++)
            ids[i] = a[i].id;
    free(a);
    return ok ? ORDO_OK : ordo__load_fail(err, ORDO_ERR_OUT_OF_MEMORY, 0, "out of memory");
}
