/* Range merges over run files, as Spark's plan "runs" does them: RUNS run
 * files of ROWS rows each (uniform 8-byte keys, 100-byte values), then the
 * load's R key ranges (even splits of the key space), each merged from
 * every run file into an SST writer. Prints the bytes the process read
 * (/proc/self/io rchar) and the wall time of the last range alone and of
 * all R ranges, next to the run files' size. Public API only, so the same
 * file builds against any ordo_load.
 *
 *   ordo_bench_runs DIR RUNS ROWS R        (DIR: an empty scratch folder)
 */
#define _POSIX_C_SOURCE 200809L
#include <ordo_load.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static unsigned long long rchar(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    char line[128];
    unsigned long long v = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "rchar: %llu", &v) == 1)
            break;
    if (f)
        fclose(f);
    return v;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void check(ordo_status s, const ordo_error *e)
{
    if (s != ORDO_OK) {
        fprintf(stderr, "bench_runs: %s\n", e->message);
        exit(1);
    }
}

static void split(uint64_t r, uint64_t i, uint8_t k[8])
{
    uint64_t v = UINT64_MAX / r * i;
    for (int j = 0; j < 8; j++)
        k[j] = (uint8_t)(v >> (56 - 8 * j));
}

/* Merges range i of r into a fresh SST writer; returns its rows. */
static uint64_t merge_range(ordo_runs *runs, const char *dir, uint64_t r, uint64_t i)
{
    uint8_t lo[8], hi[8];
    split(r, i, lo), split(r, i + 1, hi);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "sst%llu-", (unsigned long long)i);
    ordo_sst_options so = {dir, prefix, 0, 1, ORDO_DUP_LAST, 0};
    ordo_sst_writer *w;
    ordo_error e;
    check(ordo_sst_writer_open(&so, &w, &e), &e);
    ordo_merge_options mo = {0};
    if (i)
        mo.lo = lo, mo.lo_len = 8;
    if (i + 1 < r)
        mo.hi = hi, mo.hi_len = 8;
    check(ordo_runs_merge(runs, &mo, w, &e), &e);
    ordo_load_stats st;
    ordo_sst_writer_stats(w, &st);
    ordo_sst_writer_close(w); /* unfinished: its files go */
    return st.rows;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: ordo_bench_runs DIR RUNS ROWS R\n");
        return 2;
    }
    const char *dir = argv[1];
    size_t nruns = strtoull(argv[2], NULL, 10), rows = strtoull(argv[3], NULL, 10);
    uint64_t r = strtoull(argv[4], NULL, 10);
    if (!nruns || !r)
        return 2;
    char **paths = calloc(nruns, sizeof *paths);
    uint64_t seed = 0x9e3779b97f4a7c15u, bytes = 0;
    uint8_t key[8], val[100];
    memset(val, 'v', sizeof val);
    ordo_error e;
    for (size_t f = 0; f < nruns; f++) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "w%zu-", f);
        ordo_run_options ro = {dir, prefix, (uint64_t)rows * 160 + (2u << 20)};
        ordo_run_writer *w;
        check(ordo_run_writer_open(&ro, &w, &e), &e);
        for (size_t i = 0; i < rows; i++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            for (int j = 0; j < 8; j++)
                key[j] = (uint8_t)(seed >> (56 - 8 * j));
            check(ordo_run_writer_add(w, key, 8, val, sizeof val, f * rows + i, &e), &e);
        }
        check(ordo_run_writer_finish(w, &e), &e);
        if (ordo_run_writer_files(w) != 1) {
            fprintf(stderr, "bench_runs: a writer spilled more than one run\n");
            return 1;
        }
        paths[f] = strdup(ordo_run_writer_file(w, 0));
        struct stat st;
        if (stat(paths[f], &st) == 0)
            bytes += (uint64_t)st.st_size;
        ordo_run_writer_close(w);
    }
    ordo_runs *runs;
    check(ordo_runs_open((const char *const *)paths, nruns, &runs, &e), &e);
    unsigned long long b0 = rchar();
    double t0 = now();
    uint64_t got = merge_range(runs, dir, r, r - 1);
    double t_last = now() - t0;
    unsigned long long b_last = rchar() - b0;
    b0 = rchar(), t0 = now();
    uint64_t all = 0;
    for (uint64_t i = 0; i < r; i++)
        all += merge_range(runs, dir, r, i);
    double t_all = now() - t0;
    unsigned long long b_all = rchar() - b0;
    printf("runs %zu x %zu rows, run files %llu bytes, %llu ranges\n", nruns, rows,
           (unsigned long long)bytes, (unsigned long long)r);
    printf("last range: %llu rows, read %llu bytes (%.3f x the run files), %.3f s\n",
           (unsigned long long)got, b_last, (double)b_last / (double)bytes, t_last);
    printf("all ranges: %llu rows, read %llu bytes (%.3f x the run files), %.3f s\n",
           (unsigned long long)all, b_all, (double)b_all / (double)bytes, t_all);
    ordo_runs_close(runs);
    for (size_t f = 0; f < nruns; f++)
        free(paths[f]);
    free(paths);
    return all == (uint64_t)nruns * rows ? 0 : 1;
}
