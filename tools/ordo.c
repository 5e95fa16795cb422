/* The ordo command-line tool: command dispatch and usage. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

const char cli_usage[] =
    "usage: ordo COMMAND [ARGS]\n"
    "\n"
    "  encode [--format lexkey|lexkey-legacy] [--first|--last] [--output hex|json] PART...\n"
    "      PART is TYPE:VALUE (string bytes uuid bool int int8 int16 int32 int64\n"
    "      uint8 uint16 uint32 uint64 float32 float64 time duration) or nil, end\n"
    "  encode --format lexkey|lexkey-legacy|ordered|packed --schema SCHEMA [--header]\n"
    "         [--key SPEC] [--output hex|json|raw] [--threads N] [--max-row-bytes N] [FILE|-]\n"
    "      CSV as PostgreSQL's COPY (FORMAT csv) writes it, one key per row (of the --key\n"
    "      columns, as load takes it; default every column in order)\n"
    "  decode [--format ordered|packed|lexkey|lexkey-legacy] --schema SCHEMA [--no-nulls]\n"
    "         [KEY...|-]                   keys back to CSV rows\n"
    "  decode --db DIR [--tag N] [--no-nulls] [KEY...|-]\n"
    "                                      the same by the schema, key and format of the table\n"
    "                                      loaded there (KEY without the tag byte)\n"
    "  inspect [--format F] --schema SCHEMA [--no-nulls] KEY\n"
    "  inspect --db DIR [--tag N] [--no-nulls] KEY\n"
    "                                      a key, field by field\n"
    "  pk --partition KEY --row KEY [--output hex|json]\n"
    "                                      print the primary key\n"
    "  pk --split KEY [--output hex|json]  print \"PARTITION_HEX ROW_HEX\"\n"
    "  range --partition KEY [--lower KEY] [--upper KEY] [--output hex|json]\n"
    "                                      print \"LOWER_HEX UPPER_HEX\"\n"
    "      KEY is hex or its JSON form (\"0a1b\", null)\n"
    "  bench --schema SCHEMA --rows N [--format F] [--batch B] [--impl LIST] [--json]\n"
    "                                      encode N generated rows with each implementation\n"
    "  bench ... --sweep                   the same at 64, 256, 1024, ... rows up to N, one run each\n"
    "                                      (with --json one line each: the series bench/plot.sh charts)\n"
    "  bench ... --nulls F                 that fraction (0..1) of the values NULL (not in packed keys)\n"
    "  load --db DIR --schema SCHEMA --key \"COL [ASC|DESC] [NULLS FIRST|LAST], ...\"\n"
    "       [--format ordered|packed|lexkey|lexkey-legacy] [--tag N] [--memory SIZE]\n"
    "       [--on-duplicate error|first|last] [--header] [--rejects FILE] [--quiet]\n"
    "       [--sst-size SIZE] [--via sst|writebatch] [FILE|-]\n"
    "                                      sort CSV rows by key into the RocksDB at DIR\n"
    "  sort --schema SCHEMA --key \"COL [ASC|DESC] [NULLS FIRST|LAST], ...\"\n"
    "       [--format ordered|packed|lexkey|lexkey-legacy] [--header] [--memory SIZE] [--threads N]\n"
    "       [--on-duplicate keep|error|first|last] [-o FILE] [--keys-only] [--runs DIR]\n"
    "       [FILE...|-]                    CSV rows, unchanged, in the key's order\n"
    "  scan --db DIR [--tag N] [--prefix CSV] [--from CSV] [--to CSV] [--reverse]\n"
    "       [--limit N] [--columns LIST] [--header] [--output csv|ndjson]\n"
    "       [--accept-collation-version]   rows of a loaded table as CSV or NDJSON, in key order\n"
    "  tables --db DIR [--header]          the tables of a database, one line each:\n"
    "                                      TAG FORMAT ROWS BYTES SCHEMA KEY, tab-separated\n"
    "  version                             version, SIMD implementation, CPU features\n"
    "  help [COMMAND]                      this, or a command's options (also COMMAND --help)\n";

static int run(int argc, char **argv);

/* help CMD is CMD --help. */
static int cmd_help(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        fputs(cli_usage, stdout);
        return 0;
    }
    char *args[] = {argv[0], argv[1], "--help", NULL};
    return run(3, args);
}

#ifndef ORDO_WITH_ROCKSDB
static int cmd_no_rocksdb(int argc, char **argv)
{
    (void)argc;
    cli_fail("%s: this ordo was built without RocksDB (-DORDO_WITH_ROCKSDB=OFF)", argv[0]);
}
#define cmd_load cmd_no_rocksdb
#define cmd_scan cmd_no_rocksdb
#define cmd_sort cmd_no_rocksdb
#define cmd_tables cmd_no_rocksdb
#endif

/* Each command gets its name as argv[0]. */
static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"help", cmd_help},       {"--help", cmd_help},       {"-h", cmd_help},
    {"encode", cmd_encode},   {"pk", cmd_pk},             {"range", cmd_range},
    {"decode", cmd_decode},   {"inspect", cmd_inspect},   {"bench", cmd_bench},
    {"load", cmd_load},       {"scan", cmd_scan},         {"sort", cmd_sort},
    {"tables", cmd_tables},
    {"version", cmd_version}, {"--version", cmd_version}, {"-V", cmd_version},
};

static int run(int argc, char **argv)
{
    enum { N = sizeof commands / sizeof commands[0] };
    const char *names[N];
    for (size_t i = 0; i < N; i++) {
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
        names[i] = commands[i].name;
    }
    const char *near = cli_nearest(argv[1], names, N);
    if (near)
        cli_fail("unknown command '%s' (did you mean '%s'?)", argv[1], near);
    cli_fail("unknown command '%s'\n%s", argv[1], cli_usage);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        cli_fail("missing command\n%s", cli_usage);
    int rc = run(argc, argv);
    /* One rule for every command: what it printed must reach stdout, else
     * status 1 (exit() would flush and drop the error). */
    cli_flush_stdout();
    return rc;
}
