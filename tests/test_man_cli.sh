#!/bin/sh
# The manual page (docs/ordo.1) renders without a warning, has a subsection
# ("ordo COMMAND") for every command of the tool's own list (`ordo help`)
# and none other, and names there every option that `ordo COMMAND --help`
# prints: a command or option added without its manual entry fails here.
# docs/cli.md (MD) likewise: its synopsis (the first text block) has lines
# "ordo COMMAND ..." for every command, naming each of its options.
# usage: test_man_cli.sh ORDO PAGE MD
set -u
tool=$1 page=$2 md=$3
work=$(mktemp -d /tmp/ordo-man-XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
command -v man >/dev/null || { echo "man not found (Debian: man-db, groff-base; scripts/deps.sh)"; exit 1; }
# LC_ALL=C: plain ASCII text, whatever the locale
if ! MANWIDTH=80 LC_ALL=C man --warnings -l "$page" > "$work/page.txt" 2> "$work/warnings.txt"; then
    echo "man -l $page failed:"; cat "$work/warnings.txt"; exit 1
fi
if [ -s "$work/warnings.txt" ]; then
    echo "man --warnings -l $page warns:"; cat "$work/warnings.txt"; fail=1
fi
grep -q '^COMMANDS' "$work/page.txt" || { echo "no COMMANDS section"; exit 1; }
# the tool's commands: the first words of the usage's command lines
"$tool" help > "$work/usage.txt" || { echo "ordo help failed"; exit 1; }
commands=$(sed -n 's/^  \([a-z][a-z]*\).*/\1/p' "$work/usage.txt" | sort -u)
[ -n "$commands" ] || { echo "no commands in ordo help"; exit 1; }
sections=$(sed -n 's/^   ordo \([a-z][a-z]*\)$/\1/p' "$work/page.txt" | sort -u)
for s in $sections; do
    echo "$commands" | grep -qx "$s" || { echo "the page has a section for '$s', which is no command"; fail=1; }
done
for c in $commands; do
    # the lines of the command's subsection, up to the next one or section
    awk -v head="   ordo $c" '
        $0 == head { on = 1; next }
        on && (/^   ordo [a-z]+$/ || /^[A-Z]/) { exit }
        on { print }' "$work/page.txt" > "$work/$c.txt"
    if [ ! -s "$work/$c.txt" ]; then
        echo "command '$c' has no section 'ordo $c' in the page"; fail=1; continue
    fi
    [ "$c" = help ] && continue # its --help is the whole usage
    if ! "$tool" "$c" --help > "$work/$c.help" 2>&1; then
        if grep -q 'built without RocksDB' "$work/$c.help"; then
            echo "note: options of '$c' not checked: this ordo has no RocksDB"; continue
        fi
        echo "ordo $c --help failed:"; cat "$work/$c.help"; fail=1; continue
    fi
    # the command's synopsis lines in MD: "ordo COMMAND ..." and their continuations
    awk -v c="ordo $c" '
        /^```text/ && !done { inb = 1; next }
        inb && /^```/ { inb = 0; done = 1; next }
        inb && /^ordo / { on = index($0 " ", c " ") == 1 }
        inb && on { print }' "$md" > "$work/$c.md"
    [ -s "$work/$c.md" ] || { echo "command '$c' has no synopsis line in $md"; fail=1; }
    for o in $(grep -oE '(^|[][ |(])--?[a-z][a-z-]*' "$work/$c.help" | sed -E 's/^[][ |(]//' | sort -u); do
        grep -qE -- "(^|[^a-z-])$o([^a-z-]|\$)" "$work/$c.txt" ||
            { echo "option $o of '$c' (ordo $c --help) is not in the page's section 'ordo $c'"; fail=1; }
        grep -qE -- "(^|[^a-z-])$o([^a-z-]|\$)" "$work/$c.md" ||
            { echo "option $o of '$c' (ordo $c --help) is not in its synopsis in $md"; fail=1; }
    done
done
[ $fail -eq 0 ] && echo "ok: $(echo $commands | wc -w) commands"
exit $fail
