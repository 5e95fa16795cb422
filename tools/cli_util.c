#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_fail(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("ordo: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(CLI_EXIT_BAD_INPUT);
}

void cli_fail_plain(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(CLI_EXIT_BAD_INPUT);
}

void *cli_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("ordo: out of memory\n", stderr);
        exit(1);
    }
    return p;
}

void *cli_grow(void *p, size_t *cap, size_t need, size_t min_cap)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : min_cap;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c);
    if (!q) { /* a failure of the machine, as in cli_alloc */
        fputs("ordo: out of memory\n", stderr);
        exit(1);
    }
    *cap = c;
    return q;
}

void cli_hex_arg(const char *what, const char *text, uint8_t **out, size_t *len)
{
    size_t n = strlen(text), pos = 0;
    *out = cli_alloc(n / 2 + 1);
    ordo_status s = ordo_hex_decode(text, n, *out, n / 2 + 1, len, &pos);
    if (s == ORDO_ERR_BAD_HEX_CHAR)
        cli_fail("%s: invalid hex character at offset %zu in '%s'", what, pos, text);
    if (s != ORDO_OK)
        cli_fail("%s: %s in '%s'", what, ordo_status_message(s), text);
}

void cli_print_hex(const void *key, size_t n, char end)
{
    char *text = cli_alloc(2 * n + 1);
    size_t len = 0;
    ordo_hex_encode(key, n, text, 2 * n, &len);
    text[len] = end;
    fwrite(text, 1, len + 1, stdout);
    free(text);
}
