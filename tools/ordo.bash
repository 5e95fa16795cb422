# bash completion for ordo: commands, each command's options, the values of
# the options that take a fixed set of them, folders and files where a path
# is expected. Installed as share/bash-completion/completions/ordo; needs
# nothing of the bash-completion package. tests/test_completion_cli.sh
# checks that every option of `ordo COMMAND --help` is here, and no other.

_ordo_commands="encode decode inspect pk range bench load sort scan tables version help"

# The options of command $1 (without --help, which every command takes).
_ordo_options()
{
    case $1 in
    encode) echo "--format --first --last --output --schema --header --key --threads --max-row-bytes" ;;
    decode | inspect) echo "--format --schema --no-nulls --db --tag" ;;
    pk) echo "--partition --row --split --output" ;;
    range) echo "--partition --lower --upper --output" ;;
    bench) echo "--schema --rows --format --batch --impl --json --sweep --nulls" ;;
    load) echo "--db --schema --key --format --tag --memory --on-duplicate --header --rejects --quiet --sst-size --via" ;;
    sort) echo "--schema --key --format --header --memory --threads --on-duplicate -o --keys-only --runs" ;;
    scan) echo "--db --tag --prefix --from --to --reverse --limit --columns --header --output --accept-collation-version" ;;
    tables) echo "--db --header" ;;
    esac
}

# COMPREPLY: the words of $1 that start with $2.
_ordo_words()
{
    mapfile -t COMPREPLY < <(compgen -W "$1" -- "$2")
}

# COMPREPLY: the folders (-d) or files (-f) that start with $2, as names.
_ordo_paths()
{
    compopt -o filenames 2>/dev/null
    mapfile -t COMPREPLY < <(compgen "$1" -- "$2")
}

_ordo()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev="" cmd=${COMP_WORDS[1]}
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    # --option=value: bash splits the word at the '='
    if [[ $cur == "=" ]]; then
        cur=""
    elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    fi
    COMPREPLY=()
    if ((COMP_CWORD == 1)); then
        _ordo_words "$_ordo_commands --help --version" "$cur"
        return 0
    fi
    case $cmd in
    encode | decode | inspect | pk | range | bench | load | sort | scan | tables | version) ;;
    help)
        ((COMP_CWORD == 2)) && _ordo_words "$_ordo_commands" "$cur"
        return 0
        ;;
    *) return 0 ;;
    esac
    # the value of the option before the cursor
    case $prev in
    --format)
        case $cmd in
        sort) _ordo_words "ordered lexkey lexkey-legacy" "$cur" ;;
        *) _ordo_words "ordered packed lexkey lexkey-legacy" "$cur" ;;
        esac
        return 0
        ;;
    --output)
        case $cmd in
        encode) _ordo_words "hex json raw" "$cur" ;;
        scan) _ordo_words "csv ndjson" "$cur" ;;
        *) _ordo_words "hex json" "$cur" ;;
        esac
        return 0
        ;;
    --on-duplicate)
        case $cmd in
        sort) _ordo_words "keep error first last" "$cur" ;;
        *) _ordo_words "error first last" "$cur" ;;
        esac
        return 0
        ;;
    --via)
        _ordo_words "sst writebatch" "$cur"
        return 0
        ;;
    --db | --runs)
        _ordo_paths -d "$cur"
        return 0
        ;;
    --rejects | -o)
        _ordo_paths -f "$cur"
        return 0
        ;;
    --schema | --key | --tag | --threads | --max-row-bytes | --partition | --row | --split | \
        --lower | --upper | --rows | --batch | --impl | --nulls | --memory | --sst-size | \
        --prefix | --from | --to | --limit | --columns)
        return 0 # a value of the user's own
        ;;
    esac
    if [[ $cur == -* ]]; then
        _ordo_words "$(_ordo_options "$cmd") --help" "$cur"
        return 0
    fi
    # the positional arguments: input files where a command reads them
    case $cmd in
    encode | load | sort) _ordo_paths -f "$cur" ;;
    esac
    return 0
}

complete -F _ordo ordo
