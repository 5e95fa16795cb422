/* The tests' throwaway PostgreSQL server (pg_server.h). With an extension,
 * the server is a copy of PostgreSQL's in a private tree that has it
 * (tests/pg_private_tree.sh). */
#include "pg_server.h"

#include "ordo_test.h"

#include <unistd.h>

/* As the server's owner: root may not run PostgreSQL. */
static const char *as_owner(void) { return geteuid() == 0 ? "runuser -u postgres -- " : ""; }

static int find_bindir(pg_server *s, const char *given)
{
    if (given) {
        snprintf(s->bindir, sizeof s->bindir, "%s", given);
        return 0;
    }
    FILE *p = popen("ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1", "r");
    int found = p && fgets(s->bindir, sizeof s->bindir, p);
    if (p)
        pclose(p);
    if (!found) {
        fprintf(stderr, "PostgreSQL's server binaries are missing (Debian package postgresql)\n");
        return -1;
    }
    s->bindir[strcspn(s->bindir, "\n")] = 0;
    return 0;
}

/* The private tree DIR/pg with the extension (tests/pg_private_tree.sh,
 * also bench/pg_ext.sh's); s->postgres its server. */
static int private_tree(pg_server *s, const pg_server_options *o)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' '%s' '%s' '%s' '%s'", ORDO_PG_PRIVATE_TREE, s->dir,
             s->bindir, o->pkglibdir, o->sharedir, o->module, o->ext_dir);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    int got = fgets(s->postgres, sizeof s->postgres, p) != NULL;
    if (pclose(p) != 0 || !got)
        return -1;
    s->postgres[strcspn(s->postgres, "\n")] = 0;
    return 0;
}

int pg_server_start(pg_server *s, const char *name, const pg_server_options *o)
{
    static const pg_server_options none = {0};
    if (!o)
        o = &none;
    memset(s, 0, sizeof *s);
    snprintf(s->dir, sizeof s->dir, "/tmp/ordo-%s-XXXXXX", name);
    if (find_bindir(s, o->bindir) != 0)
        return -1;
    if (!mkdtemp(s->dir)) {
        perror(s->dir);
        return -1;
    }
    snprintf(s->postgres, sizeof s->postgres, "%s/postgres", s->bindir);
    if (o->module && private_tree(s, o) != 0) {
        fprintf(stderr, "could not lay out the server's tree with %s\n", o->module);
        goto fail;
    }
    if (geteuid() == 0 && t_sh("chown -R postgres '%s'", s->dir) != 0)
        goto fail;
    if (t_sh("%s'%s/initdb' -D '%s/data' -A trust -U ordo -E UTF8 --locale=C --no-sync > "
             "'%s/initdb.log' 2>&1",
             as_owner(), s->bindir, s->dir, s->dir) != 0) {
        t_sh("cat '%s/initdb.log' >&2", s->dir);
        goto fail;
    }
    if (t_sh("%s'%s/pg_ctl' -D '%s/data' -p '%s' -l '%s/server.log' -w "
             "-o \"-k %s -c listen_addresses='' -F %s\" start > /dev/null",
             as_owner(), s->bindir, s->dir, s->postgres, s->dir, s->dir,
             o->settings ? o->settings : "") != 0) {
        t_sh("cat '%s/server.log' >&2", s->dir);
        goto fail;
    }
    s->up = 1;
    return 0;
fail:
    pg_server_stop(s);
    return -1;
}

void pg_server_stop(pg_server *s)
{
    if (!s->dir[0] || strstr(s->dir, "XXXXXX")) /* never made */
        return;
    char pid[512];
    snprintf(pid, sizeof pid, "%s/data/postmaster.pid", s->dir);
    if (s->up || access(pid, F_OK) == 0)
        t_sh("%s'%s/pg_ctl' -D '%s/data' -m immediate stop > /dev/null 2>&1", as_owner(),
             s->bindir, s->dir);
    s->up = 0;
    t_sh("rm -rf '%s'", s->dir);
}

int pg_psql(const pg_server *s, const char *db, const char *sql, const char *out_file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/q.sql", s->dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(sql, f);
    if (fclose(f) != 0)
        return -1;
    return t_sh("'%s/psql' -X -q -v ON_ERROR_STOP=1 -h '%s' -U ordo -d '%s' -f '%s' > '%s' 2> "
                "'%s/psql.err'",
                s->bindir, s->dir, db, path, out_file ? out_file : "/dev/null", s->dir);
}

void pg_psql_show_error(const pg_server *s) { t_sh("cat '%s/psql.err' >&2", s->dir); }
