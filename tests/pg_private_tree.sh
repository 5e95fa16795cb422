#!/bin/sh
# A private tree for a throwaway PostgreSQL server that has an extension
# without installing it: PostgreSQL finds $libdir and its share directory
# relative to its executable, so a copy of the server in DIR/pg, laid out as
# the real tree (links to the real lib/ and share/ files, plus the
# extension's module, .control and .sql files), loads the extension from
# there. Used by tests/pg_server.c and bench/pg_ext.sh.
#
#   pg_private_tree.sh DIR BINDIR PKGLIBDIR SHAREDIR MODULE EXTDIR
#
# BINDIR, PKGLIBDIR, SHAREDIR: pg_config --bindir, --pkglibdir, --sharedir;
# MODULE: the built module (its file name is kept); EXTDIR: the directory
# of the extension's .control and --*.sql files. Prints the path of the
# server's executable in the tree.
set -eu
[ $# -eq 6 ] || { echo "usage: $0 DIR BINDIR PKGLIBDIR SHAREDIR MODULE EXTDIR" >&2; exit 2; }
dir=$1 bin=$2 lib=$3 share=$4 module=$5 ext=$6
# The three directories past the directories they share, under DIR/pg.
common=/
set -f; ifs=$IFS; IFS=/
for part in ${bin#/}; do
    case $lib/ in "$common$part"/*) ;; *) break ;; esac
    case $share/ in "$common$part"/*) ;; *) break ;; esac
    common=$common$part/
done
IFS=$ifs; set +f
B=$dir/pg/${bin#"$common"} L=$dir/pg/${lib#"$common"} S=$dir/pg/${share#"$common"}
mkdir -p "$B" "$L" "$S/extension"
cp "$bin/postgres" "$B/"
for f in "$lib"/*; do ln -s "$f" "$L/"; done
for f in "$share"/*; do [ "${f##*/}" = extension ] || ln -s "$f" "$S/"; done
for f in "$share"/extension/*; do ln -s "$f" "$S/extension/"; done
# this build's extension, not an installed one
for c in "$ext"/*.control; do
    n=${c##*/}; n=${n%.control}
    rm -f "$S/extension/$n.control" "$S/extension/$n"--*.sql
done
m=${module##*/}
rm -f "$L/$m"
cp "$module" "$L/$m"
cp "$ext"/*.control "$ext"/*--*.sql "$S/extension/"
echo "$B/postgres"
