#!/bin/sh
# ordo sort's default --memory is a quarter of the memory the process may
# use (the machine's; its cgroup's or an ancestor's limit, or half an
# address-space or data limit, when lower), at least 256M: `ordo sort
# --help` says what it is here, and it must be that figure, computed here
# from getconf, /proc/self/cgroup and the limits; under a 1 GB address-space limit it shrinks to 256M and sorts,
# where a budget the limit cannot hold is refused as such (so the limit is
# real). Not in the sanitizer build: ASan's shadow memory needs more address
# space than the limit leaves.
# usage: test_sort_memory_cli.sh ORDO
set -u
tool=$1
work=$(mktemp -d /tmp/ordo-sort-memory-XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
said() { "$tool" sort --help | sed -n 's/.*--memory by default: \([0-9]*\)M here.*/\1/p'; }
lower() { case $1 in ''|*[!0-9]*) ;; *) [ "$1" -lt "$total" ] && total=$1 ;; esac; }
total=$(( $(getconf _PHYS_PAGES) * $(getconf PAGE_SIZE) ))
# the cgroup's limit and its ancestors' (v2 memory.max, v1 memory.limit_in_bytes)
while IFS=: read -r _ ctl dir; do
    case $ctl in
        '') sub= file=memory.max ;;
        *memory*) sub=/memory file=memory.limit_in_bytes ;;
        *) continue ;;
    esac
    while :; do
        [ "$dir" = / ] && d= || d=$dir
        lower "$(cat "/sys/fs/cgroup$sub$d/$file" 2>/dev/null)"
        case $dir in /*/*) dir=${dir%/*} ;; *) break ;; esac
    done
done < /proc/self/cgroup
for lim in "$(ulimit -v)" "$(ulimit -d)"; do
    case $lim in ''|*[!0-9]*) ;; *) lower $((lim * 1024 / 2)) ;; esac
done
want=$((total / 4 >> 20))
[ "$want" -lt 256 ] && want=256
got=$(said)
[ "$got" = "$want" ] || { echo "ordo sort --help says ${got}M, the rule gives ${want}M"; fail=1; }
hard=$(ulimit -H -v)
if [ "$hard" != unlimited ] && [ "$hard" -lt 1000000 ]; then
    echo "note: the hard address-space limit (${hard} kB) is below 1 GB: the limit cases not run"
    [ $fail -eq 0 ] && echo "ok: ${want}M"
    exit $fail
fi
got=$(ulimit -v 1000000 && said)
[ "$got" = 256 ] || { echo "under a 1 GB limit: ${got}M, not 256M"; fail=1; }
printf '3,c\n1,a\n2,b\n' > "$work/in.csv"
printf '1,a\n2,b\n3,c\n' > "$work/want.csv"
(ulimit -v 1000000 && "$tool" sort --schema "a bigint, b text" --key a -o "$work/out.csv" \
    "$work/in.csv") > "$work/err" 2>&1 || { echo "default budget under 1 GB:"; cat "$work/err"; fail=1; }
cmp -s "$work/out.csv" "$work/want.csv" || { echo "wrong order"; fail=1; }
if (ulimit -v 1000000 && "$tool" sort --schema "a bigint, b text" --key a --memory 2G \
    -o "$work/out2.csv" "$work/in.csv") > "$work/err" 2>&1; then
    echo "--memory 2G under a 1 GB limit was not refused"; fail=1
fi
grep -q "cannot allocate the memory budget" "$work/err" || { echo "no budget error:"; cat "$work/err"; fail=1; }
[ -e "$work/out2.csv" ] && { echo "a refused sort left its output"; fail=1; }
[ $fail -eq 0 ] && echo "ok: ${want}M"
exit $fail
