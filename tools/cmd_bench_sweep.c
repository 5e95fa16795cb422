/* ordo bench --sweep: the same benchmark at growing sizes, for throughput
 * plots (bench/plot.sh). Each size is one ordinary `ordo bench` run of its
 * own (--rows SIZE, the other options as given), so each prints exactly what
 * that run prints: a text block, or with --json one JSON object on a line of
 * its own (JSON lines: one series point per line). --batch B caps each
 * size's batch at B; without it a size is encoded in one batch. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* The sizes: 64 rows, then 4x each step, then `rows` itself (64 ... rows). */
static size_t next_size(size_t at, size_t rows)
{
    if (at >= rows)
        return 0;
    size_t n = at ? at * 4 : 64;
    return n < rows ? n : rows;
}

/* 1 when a is the option (as "--name VALUE", which takes the next argument
 * too: *skip = 1, or "--name=VALUE"). */
static int is_opt(const char *a, const char *name, int *skip)
{
    size_t n = strlen(name);
    if (strncmp(a, name, n))
        return 0;
    if (!a[n]) {
        *skip = 1;
        return 1;
    }
    return a[n] == '=';
}

int cli_bench_sweep(int argc, char **argv, size_t rows, size_t batch)
{
    /* argv without --sweep, --rows and --batch, then those two per size */
    char **av = cli_alloc(sizeof(char *) * ((size_t)argc + 6));
    int n = 0;
    for (int i = 0; i < argc; i++) {
        int skip = 0;
        if (i > 0 && !strcmp(argv[i], "--sweep"))
            continue;
        if (i > 0 && (is_opt(argv[i], "--rows", &skip) || is_opt(argv[i], "--batch", &skip))) {
            i += skip;
            continue;
        }
        av[n++] = argv[i];
    }
    int json = 0;
    for (int i = 1; i < argc; i++)
        json |= !strcmp(argv[i], "--json");
    char size_text[32], batch_text[32];
    for (size_t at = next_size(0, rows); at; at = next_size(at, rows)) {
        int m = n;
        snprintf(size_text, sizeof size_text, "%zu", at);
        snprintf(batch_text, sizeof batch_text, "%zu", batch && batch < at ? batch : at);
        av[m++] = "--rows";
        av[m++] = size_text;
        av[m++] = "--batch";
        av[m++] = batch_text;
        av[m] = NULL;
        if (at > 64 && !json)
            printf("\n"); /* text blocks apart; nothing between JSON lines */
        int rc = cmd_bench(m, av);
        if (rc)
            return rc;
        fflush(stdout);
    }
    free(av);
    return 0;
}
