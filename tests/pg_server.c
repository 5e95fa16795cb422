/* The tests' throwaway PostgreSQL server (pg_server.h). With an extension,
 * the server is a copy of PostgreSQL's in a private tree laid out as the
 * real one: PostgreSQL finds $libdir and its share directory relative to
 * its executable, so the tree's lib/ and share/ (links to the real files,
 * plus the extension's) give it the extension without installing anything
 * outside the temporary directory. */
#include "pg_server.h"

#include "ordo_test.h"

#include <unistd.h>

/* As the server's owner: root may not run PostgreSQL. */
static const char *as_owner(void) { return geteuid() == 0 ? "runuser -u postgres -- " : ""; }

/* The length of the longest common prefix of a, b and c that ends in '/'. */
static size_t common_dir(const char *a, const char *b, const char *c)
{
    size_t i = 0, cut = 0;
    while (a[i] && a[i] == b[i] && a[i] == c[i]) {
        if (a[i] == '/')
            cut = i + 1;
        i++;
    }
    return cut;
}

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

/* The private tree DIR/pg with the extension; s->postgres its server. */
static int private_tree(pg_server *s, const pg_server_options *o)
{
    const char *bin = s->bindir, *lib = o->pkglibdir, *share = o->sharedir;
    size_t cut = common_dir(bin, lib, share);
    snprintf(s->postgres, sizeof s->postgres, "%s/pg/%s/postgres", s->dir, bin + cut);
    return t_sh("set -e; P='%s/pg'; B=\"$P/%s\"; L=\"$P/%s\"; S=\"$P/%s\"\n"
                "mkdir -p \"$B\" \"$L\" \"$S/extension\"\n"
                "cp '%s/postgres' \"$B/\"\n"
                "for f in '%s'/*; do ln -s \"$f\" \"$L/\"; done\n"
                "for f in '%s'/*; do [ \"${f##*/}\" = extension ] || ln -s \"$f\" \"$S/\"; done\n"
                "for f in '%s'/extension/*; do ln -s \"$f\" \"$S/extension/\"; done\n"
                "M='%s'; M=\"${M##*/}\"\n"
                "for c in '%s'/*.control; do n=\"${c##*/}\"; n=\"${n%%.control}\"\n"
                "  rm -f \"$S/extension/$n.control\" \"$S/extension/$n\"--*.sql; done\n"
                "rm -f \"$L/$M\"; cp '%s' \"$L/$M\"\n"
                "cp '%s'/*.control '%s'/*--*.sql \"$S/extension/\"\n",
                s->dir, bin + cut, lib + cut, share + cut, bin, lib, share, share, o->module,
                o->ext_dir, o->module, o->ext_dir, o->ext_dir);
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
