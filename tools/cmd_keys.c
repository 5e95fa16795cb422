/* ordo pk, ordo range, ordo version. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_pk(int argc, char **argv)
{
    const char *part = NULL, *row = NULL, *split = NULL, *output = "hex";
    const opt opts[] = {
        {"--partition", OPT_STRING, &part, NULL},
        {"--row", OPT_STRING, &row, NULL},
        {"--split", OPT_STRING, &split, NULL},
        {"--output", OPT_STRING, &output, NULL},
    };
    const opt_spec spec = {"pk", NULL, "unknown argument", OPT_POS_NONE,
                           OPT_EQUALS | OPT_NEEDS_BARE, opts, sizeof opts / sizeof opts[0]};
    cli_options(&spec, argc, argv, NULL);
    int json = cli_output_json("pk", output);
    if (split) {
        if (part || row)
            cli_fail("pk: --split cannot be combined with --partition or --row");
        uint8_t *key;
        size_t len, plen, roff;
        cli_hex_arg("pk --split", split, &key, &len);
        ordo_status s = ordo_pk_split(key, len, &plen, &roff);
        if (s != ORDO_OK)
            cli_fail("pk --split: %s: '%s'", ordo_status_message(s), split);
        if (json) { /* one JSON value per line: the two halves by name */
            fputs("{\"partition\": ", stdout);
            cli_print_key(key, plen, 1, ", \"row\": ");
            cli_print_key(key + roff, len - roff, 1, "}\n");
        } else {
            cli_print_hex(key, plen, ' ');
            cli_print_hex(key + roff, len - roff, '\n');
        }
        free(key);
        return 0;
    }
    if (!part || !row)
        cli_fail("pk: needs --partition HEX and --row HEX, or --split HEX");
    uint8_t *p, *r;
    size_t plen, rlen, len;
    cli_hex_arg("pk --partition", part, &p, &plen);
    cli_hex_arg("pk --row", row, &r, &rlen);
    uint8_t *key = cli_alloc(plen + rlen + 1);
    ordo_status s = ordo_pk_encode(p, plen, r, rlen, key, plen + rlen + 1, &len);
    if (s != ORDO_OK)
        cli_fail("pk: %s", ordo_status_message(s));
    cli_print_key(key, len, json, "\n");
    free(p), free(r), free(key);
    return 0;
}

int cmd_range(int argc, char **argv)
{
    const char *part = NULL, *lo = "", *up = "", *output = "hex";
    const opt opts[] = {
        {"--partition", OPT_STRING, &part, NULL},
        {"--lower", OPT_STRING, &lo, NULL},
        {"--upper", OPT_STRING, &up, NULL},
        {"--output", OPT_STRING, &output, NULL},
    };
    const opt_spec spec = {"range", NULL, "unknown argument", OPT_POS_NONE,
                           OPT_EQUALS | OPT_NEEDS_BARE, opts, sizeof opts / sizeof opts[0]};
    cli_options(&spec, argc, argv, NULL);
    int json = cli_output_json("range", output);
    if (!part)
        cli_fail("range: needs --partition HEX");
    uint8_t *p, *l, *u;
    size_t plen, llen, ulen, n1, n2;
    cli_hex_arg("range --partition", part, &p, &plen);
    cli_hex_arg("range --lower", lo, &l, &llen);
    cli_hex_arg("range --upper", up, &u, &ulen);
    size_t cap = plen + llen + ulen + 2;
    uint8_t *lower = cli_alloc(cap), *upper = cli_alloc(cap);
    ordo_status s = ordo_range_lower(p, plen, l, llen, lower, cap, &n1);
    if (s == ORDO_OK)
        s = ordo_range_upper(p, plen, u, ulen, upper, cap, &n2);
    if (s != ORDO_OK)
        cli_fail("range: %s", ordo_status_message(s));
    if (json) { /* one JSON value per line: the two bounds by name */
        fputs("{\"lower\": ", stdout);
        cli_print_key(lower, n1, 1, ", \"upper\": ");
        cli_print_key(upper, n2, 1, "}\n");
    } else {
        cli_print_hex(lower, n1, ' ');
        cli_print_hex(upper, n2, '\n');
    }
    free(p), free(l), free(u), free(lower), free(upper);
    return 0;
}

int cmd_version(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
        cli_help("version", NULL);
    if (argc > 1)
        cli_fail("version takes no arguments");
    ordo_status s;
    const char *impl = ordo_impl_name(&s);
    unsigned f = ordo_cpu_features();
    printf("ordo %s\n", ordo_version());
    if (s != ORDO_OK)
        printf("implementation: none (ORDO_IMPL: %s)\n", ordo_status_message(s));
    else
        printf("implementation: %s\n", impl);
    printf("cpu features:%s%s%s%s%s\n", (f & ORDO_CPU_SSE41) ? " sse4.1" : "",
           (f & ORDO_CPU_AVX2) ? " avx2" : "", (f & ORDO_CPU_AVX512) ? " avx512" : "",
           (f & ORDO_CPU_NEON) ? " neon" : "", f ? "" : " none");
    return s == ORDO_OK ? 0 : CLI_EXIT_BAD_INPUT;
}
