/* A throwaway PostgreSQL server for the tests that compare with one
 * (test_postgres, test_sort_pg, test_pg_ext): a cluster made by initdb in a
 * temporary directory, trust authentication for user "ordo", encoding UTF8
 * and locale C, listening on a Unix socket in that directory only; psql
 * runs SQL against it. The directory goes when the server stops. */
#ifndef ORDO_TEST_PG_SERVER_H
#define ORDO_TEST_PG_SERVER_H

#include <stddef.h>

typedef struct pg_server_options {
    /* PostgreSQL's binaries; NULL: the newest /usr/lib/postgresql/N/bin */
    const char *bindir;
    /* more of the server's options ("-c TimeZone=UTC"); NULL: none */
    const char *settings;
    /* An extension to give the server without installing it anywhere:
     * the built module and the directory of its .control and .sql files
     * (NULL: none), and the server's own $libdir and share directory
     * (pg_config --pkglibdir, --sharedir). */
    const char *module, *ext_dir, *pkglibdir, *sharedir;
} pg_server_options;

typedef struct pg_server {
    char dir[64];        /* the temporary directory: the cluster, the socket, logs */
    char bindir[512];
    char postgres[1024]; /* the server's executable */
    int up;
} pg_server;

/* Starts a server in a new directory /tmp/ordo-NAME-XXXXXX; returns 0, or
 * -1 with the reason (and initdb's or the server's log) on stderr, having
 * cleaned up: cmocka does not tear down a group whose setup failed. */
int pg_server_start(pg_server *s, const char *name, const pg_server_options *o);

/* Stops the server (also one that did not answer in time: it may still
 * run) and removes its directory. */
void pg_server_stop(pg_server *s);

/* Runs the SQL script sql (psql's commands allowed, stopping at the first
 * error) in database db; its output to out_file (NULL: none), its errors
 * to DIR/psql.err. Returns psql's exit status. */
int pg_psql(const pg_server *s, const char *db, const char *sql, const char *out_file);

/* Prints DIR/psql.err to stderr: why the last pg_psql failed. */
void pg_psql_show_error(const pg_server *s);

#endif
