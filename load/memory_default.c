/* The run writer's default memory budget, from the machine and the
 * process's limits (ordo_run_memory_default). */
#include "load_internal.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The lowest memory limit of the cgroup this process is in and its
 * ancestors (v2 memory.max, v1 memory.limit_in_bytes), from
 * /proc/self/cgroup; UINT64_MAX for none found. */
static uint64_t cgroup_limit(void)
{
    uint64_t lim = UINT64_MAX;
    FILE *f = fopen("/proc/self/cgroup", "re");
    char line[4096];
    while (f && fgets(line, sizeof line, f)) {
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c1 = *c2 = 0;
        c2[1 + strcspn(c2 + 1, "\n")] = 0;
        int v2 = !c1[1], v1 = !v2 && strstr(c1 + 1, "memory") != NULL;
        if (!v1 && !v2)
            continue;
        char path[4200];
        for (char *dir = c2 + 1;;) { /* the cgroup, then each parent up to the root */
            snprintf(path, sizeof path, "/sys/fs/cgroup%s%s/%s", v1 ? "/memory" : "",
                     strcmp(dir, "/") ? dir : "", v1 ? "memory.limit_in_bytes" : "memory.max");
            FILE *m = fopen(path, "re");
            unsigned long long n;
            if (m && fscanf(m, "%llu", &n) == 1 && n < lim) /* "max": no limit */
                lim = n;
            if (m)
                fclose(m);
            char *slash = strrchr(dir, '/');
            if (!slash || slash == dir)
                break;
            *slash = 0;
        }
    }
    if (f)
        fclose(f);
    return lim;
}

/* As GNU sort and DuckDB size their buffers by the machine: a file that
 * fits sorts in memory. (ordo_load.h says the rule.) */
uint64_t ordo_run_memory_default(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t total = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
    uint64_t cg = cgroup_limit();
    total = cg < total ? cg : total;
    const int limits[] = {RLIMIT_AS, RLIMIT_DATA};
    for (size_t i = 0; i < 2; i++) {
        struct rlimit rl;
        if (!getrlimit(limits[i], &rl) && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 2 < total)
            total = (uint64_t)rl.rlim_cur / 2;
    }
    uint64_t floor = 256ull << 20, m = total / 4;
    m = m < (uint64_t)(SIZE_MAX / 8) ? m : (uint64_t)(SIZE_MAX / 8);
    return m > floor ? m : floor;
}
