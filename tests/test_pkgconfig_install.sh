#!/bin/sh
# `cmake --install` into a scratch prefix, then, with pkg-config alone:
# every library links by `pkg-config --libs NAME` (the shared one, its own
# dependencies in its NEEDED entries) and by `pkg-config --static --libs
# NAME` (the archives, Requires.private and Libs.private complete); a
# program on ordo-table runs both ways (tests/consumer/pc_consumer.c). The
# shared libraries have their SONAME and export ordo_ symbols only. With
# the tool: the manual page and the bash completion are installed.
# usage: test_pkgconfig_install.sh CMAKE BUILD_DIR CC CONSUMER.c
set -u
cmake=$1 build=$2 cc=$3 consumer=$4
prefix=$(mktemp -d /tmp/ordo-pkgconfig-XXXXXX) || exit 1
trap 'rm -rf "$prefix"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$cmake" --install "$build" --prefix "$prefix" > "$prefix/install.log" 2>&1 ||
    { cat "$prefix/install.log"; exit 1; }
pc=$(find "$prefix" -name ordo.pc) && [ -n "$pc" ] || { echo "no ordo.pc installed"; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
libdir=$(pkg-config --variable=libdir ordo)
cflags="-std=c11 -Wall -Wextra -Wpedantic -Werror"

# one call into each library, through its own package
call_of() {
    case $1 in
    ordo) echo '#include <ordo.h>
int main(void) { return ordo_version()[0] == 0; }' ;;
    ordo-ingest) echo '#include <ordo_ingest.h>
int main(void) { return ordo_format_name(ORDO_FORMAT_ORDERED)[0] == 0; }' ;;
    ordo-load) echo '#include <ordo_load.h>
int main(void) { uint64_t n = 0; return ordo_parse_size("1M", &n) != ORDO_OK || n != 1048576; }' ;;
    ordo-table) echo '#include <ordo_table.h>
int main(void) { return ordo_table_phase_name(ORDO_TABLE_PHASE_SORT)[0] == 0; }' ;;
    esac
}
# `pkg-config --static --libs` with the ordo libraries as their archives
# (-l:libNAME.a): the linker would take the shared ones otherwise
static_libs() {
    pkg-config --static --libs "$1" | sed 's/-l\(ordo[a-z_]*\)/-l:lib\1.a/g'
}
# the NEEDED entries of a binary naming an ordo library
needed_ordo() {
    readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(libordo[^]]*\)\].*/\1/p'
}

packages="ordo ordo-ingest ordo-table"
[ -f "$PKG_CONFIG_PATH/ordo-load.pc" ] && packages="ordo ordo-ingest ordo-load ordo-table"
for p in $packages; do
    lib=lib$(echo "$p" | tr - _)
    # the libraries themselves: both kinds, the SONAME, ordo_ symbols only
    [ -f "$libdir/$lib.a" ] || bad "$libdir/$lib.a is not installed"
    [ -f "$libdir/$lib.so.0" ] || { bad "$libdir/$lib.so.0 is not installed"; continue; }
    soname=$(readelf -d "$libdir/$lib.so.0" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
    [ "$soname" = "$lib.so.0" ] || bad "$lib.so.0: SONAME '$soname'"
    others=$(nm -D --defined-only "$libdir/$lib.so.0" | awk '{print $3}' | grep -v '^ordo_[a-z0-9]' | head -5)
    [ -z "$others" ] || bad "$lib.so.0 exports symbols that are not ordo's API: $others"
    internal=$(nm -D --defined-only "$libdir/$lib.so.0" | awk '{print $3}' | grep '^ordo__' | head -5)
    [ -z "$internal" ] || bad "$lib.so.0 exports internal symbols: $internal"
    # linked by its package, shared and static
    call_of "$p" > "$prefix/$p.c"
    # shellcheck disable=SC2046
    if ! "$cc" $cflags "$prefix/$p.c" -o "$prefix/$p-shared" $(pkg-config --cflags --libs "$p") \
            > "$prefix/$p-shared.log" 2>&1; then
        bad "cc \$(pkg-config --cflags --libs $p) does not link:"; cat "$prefix/$p-shared.log"
    elif ! LD_LIBRARY_PATH=$libdir "$prefix/$p-shared"; then
        bad "$p, shared: the program fails"
    elif [ -z "$(needed_ordo "$prefix/$p-shared")" ]; then
        bad "$p, shared: linked no shared ordo library"
    fi
    # shellcheck disable=SC2046
    if ! "$cc" $cflags "$prefix/$p.c" -o "$prefix/$p-static" $(pkg-config --cflags "$p") \
            $(static_libs "$p") > "$prefix/$p-static.log" 2>&1; then
        bad "cc \$(pkg-config --cflags --libs --static $p) does not link:"; cat "$prefix/$p-static.log"
    elif ! "$prefix/$p-static"; then
        bad "$p, static: the program fails"
    elif [ -n "$(needed_ordo "$prefix/$p-static")" ]; then
        bad "$p, static: needs $(needed_ordo "$prefix/$p-static")"
    fi
done

# a program of every library: a table loaded and scanned (with RocksDB)
define="" want="2 columns
"
if [ -f "$PKG_CONFIG_PATH/ordo-load.pc" ]; then
    define=-DWITH_TABLE want='2 columns
2 rows
id,name
1,"a, z"
2,b
'
fi
for kind in shared static; do
    if [ $kind = shared ]; then
        libs=$(pkg-config --libs ordo-table)
    else
        libs=$(static_libs ordo-table)
    fi
    # shellcheck disable=SC2086
    if ! "$cc" $cflags $define "$consumer" -o "$prefix/consumer-$kind" \
            $(pkg-config --cflags ordo-table) $libs > "$prefix/consumer-$kind.log" 2>&1; then
        bad "consumer, $kind: does not build:"; cat "$prefix/consumer-$kind.log"; continue
    fi
    got=$(LD_LIBRARY_PATH=$libdir "$prefix/consumer-$kind" "$prefix/db-$kind"; echo x)
    [ "$got" = "${want}x" ] || bad "consumer, $kind: printed '$got', want '${want}x'"
done

# the tool's manual page and completion
if [ -x "$prefix/bin/ordo" ]; then
    [ -f "$prefix/share/man/man1/ordo.1" ] || bad "share/man/man1/ordo.1 is not installed"
    [ -f "$prefix/share/bash-completion/completions/ordo" ] ||
        bad "share/bash-completion/completions/ordo is not installed"
fi
[ $fail -eq 0 ] && echo "ok: $packages, shared and static"
exit $fail
