#!/usr/bin/env bash
# The bash completion (tools/ordo.bash), driven as bash drives it
# (COMP_WORDS, COMP_CWORD, then COMPREPLY): it completes the tool's commands
# (`ordo help`'s list) and, for each command, exactly the options that
# `ordo COMMAND --help` prints (and --help), so the two cannot drift; option
# values, folders and files where a path is expected.
# usage: test_completion_cli.sh ORDO SCRIPT
set -u
tool=$1 script=$2
# shellcheck source=/dev/null
source "$script" || { echo "cannot source $script"; exit 1; }
fail=0
work=$(mktemp -d /tmp/ordo-completion-XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT

# The completions of the last word after the others, one a line, sorted.
completions() {
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMPREPLY=()
    _ordo
    ((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}" | sort -u
}

expect() { # WANT (lines) WORDS...
    local want=$1 got
    shift
    got=$(completions "$@")
    if [[ $got != "$want" ]]; then
        echo "completing '$*': got"
        echo "$got" | sed 's/^/  /'
        echo "want"
        echo "$want" | sed 's/^/  /'
        fail=1
    fi
}

# the tool's commands: the first words of the usage's command lines
commands=$("$tool" help | sed -n 's/^  \([a-z][a-z]*\).*/\1/p' | sort -u)
[[ -n $commands ]] || { echo "no commands in ordo help"; exit 1; }
expect "$(printf '%s\n' $commands --help --version | sort -u)" ordo ""
expect "scan
sort" ordo s
expect "$commands" ordo help ""

for c in $commands; do
    [[ $c == help ]] && continue # its --help is the whole usage
    if ! help=$("$tool" "$c" --help 2>&1); then
        if [[ $help == *"built without RocksDB"* ]]; then
            echo "note: options of '$c' not checked: this ordo has no RocksDB"
            continue
        fi
        echo "ordo $c --help failed: $help"
        fail=1
        continue
    fi
    want=$( (grep -oE '(^|[][ |(])--?[a-z][a-z-]*' <<<"$help" | sed -E 's/^[][ |(]//'
             echo --help) | sort -u)
    expect "$want" ordo "$c" -
done

# option values, after a space or an '='
expect "lexkey
lexkey-legacy" ordo load --format l
expect "lexkey
lexkey-legacy
ordered
packed" ordo decode --format = ""
expect "ordered" ordo sort --format o
expect "hex
json
raw" ordo encode --output ""
expect "hex
json" ordo pk --output ""
expect "keep" ordo sort --on-duplicate k
expect "writebatch" ordo load --via w
expect "--accept-collation-version" ordo scan --acc
expect "" ordo scan --tag ""

# paths: folders for --db and --runs, files for -o, --rejects and inputs
mkdir "$work/db dir" "$work/runs"
: > "$work/in put.csv"
cd "$work" || exit 1
expect "db dir" ordo load --db "db"
expect "db dir
runs" ordo decode --db ""
expect "runs" ordo sort --runs r
expect "in put.csv" ordo sort -o in
expect "in put.csv" ordo load --rejects i
expect "in put.csv" ordo encode --schema "a int" i
expect "" ordo scan i

((fail == 0)) && echo "ok: $(wc -w <<<"$commands") commands"
exit $fail
