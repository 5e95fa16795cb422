#!/bin/sh
# The C snippets of README.md, as written, compile against the source
# include/ alone (no generated header, nothing of a build) with warnings as
# errors, and link against the built libraries; a snippet that prints
# what its printf line's comment says is run and must print it.
# usage: test_readme_snippets_lib.sh README INCLUDE_DIR BUILD_DIR CC
set -u
readme=$1 include=$2 build=$3 cc=$4
work=$(mktemp -d /tmp/ordo-readme-XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
# each ```c block into work/N.c
awk -v dir="$work" '
    /^```c$/ { n++; on = 1; next }
    /^```$/ { on = 0 }
    on { print > (dir "/" n ".snippet") }
    END { print n + 0 > (dir "/count") }' "$readme"
count=$(cat "$work/count")
[ "$count" -gt 0 ] || { echo "no C snippets in $readme"; exit 1; }
i=1
while [ $i -le "$count" ]; do
    s=$work/$i.snippet
    {
        echo '#include <stdbool.h>'
        echo '#include <stdio.h>'
        grep '^#include' "$s"
        # what the snippets leave to the reader
        echo '__attribute__((unused)) static void use(const void *k, size_t n, unsigned long long line)'
        echo '{ (void)k, (void)n, (void)line; }'
        echo 'int main(void) {'
        grep -v '^#include' "$s"
        echo 'return 0; }'
    } > "$work/$i.c"
    # only the source include/: the headers must be complete as they are
    if ! "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -I "$include" "$work/$i.c" \
            -o "$work/$i" -L "$build" -lordo_table -lordo_ingest -lordo > "$work/$i.log" 2>&1; then
        echo "README snippet $i does not build:"; cat "$work/$i.log"; sed 's/^/  | /' "$s"; fail=1
    else
        want=$(sed -n 's|.*printf(.*/\* \(.*\) \*/$|\1|p' "$s")
        if [ -n "$want" ]; then
            got=$(LD_LIBRARY_PATH=$build "$work/$i")
            [ "$got" = "$want" ] || { echo "README snippet $i printed '$got', its comment says '$want'"; fail=1; }
        fi
    fi
    i=$((i + 1))
done
[ $fail -eq 0 ] && echo "ok: $count snippets"
exit $fail
