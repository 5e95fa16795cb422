#!/usr/bin/env bash
# Throughput charts (PNG) with gnuplot (Debian's gnuplot-nox; scripts/deps.sh)
# and nothing else but the shell and awk.
#
#   bench/plot.sh sweep OUT.png [TITLE] < SERIES.jsonl
#       SERIES: `ordo bench --sweep --json` (one JSON object a line, one line
#       per size). Rows/s of every implementation against the number of rows
#       encoded (log scales), memcpy of the same output bytes as the roof.
#   bench/plot.sh csv OUT.png [TITLE] < CSV_VS_DUCKDB_OUTPUT
#       The table bench/csv_vs_duckdb.sh prints: rows/s of DuckDB's sort key,
#       DuckDB's read_csv alone and ordo (default threads and one thread),
#       one group of bars per file.
#   bench/plot.sh csv-cpu OUT.png [TITLE] < CSV_VS_DUCKDB_OUTPUT
#       The same script's CPU-time lines: rows per CPU second of DuckDB's
#       sort key and of ordo --threads 1 (the steadier figure on a shared
#       machine).
#   bench/plot.sh sort OUT.png [TITLE] < SORT_SH_OUTPUT
#       The lines bench/sort.sh prints: seconds of ordo and each peer (DuckDB,
#       polars, pyarrow, GNU sort) per case, one group of bars per CSV file
#       and per Arrow table (log scale: GNU sort and pyarrow take 10-40x).
#   bench/plot.sh all [ORDO_BINARY] [MAX_ROWS] [CSV_VS_DUCKDB_OUTPUT]
#       Runs the sweeps (64 ... MAX_ROWS rows, default 10000000; ORDO_BINARY
#       defaults to build/ordo, a Release build) for the schemas below in the
#       lexkey and ordered formats and charts them into bench/plots/, series
#       kept beside as .jsonl; with the third argument also the CSV charts.
#
# The numbers are whatever the run measured on whatever else the machine was
# doing; the charts say where each implementation stands against memcpy in
# the same run, not absolute speeds.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "plot.sh: $*" >&2; exit 2; }
command -v gnuplot >/dev/null || die "needs gnuplot (Debian's gnuplot-nox: scripts/deps.sh)"

# JSON lines of ordo bench --sweep --json to a table: rows, then rows/s per
# implementation (header line: "rows" and the implementation names).
sweep_table() {
    awk '
    function num(key, s,   m) {
        if (!match(s, "\"" key "\": [0-9.e+]+")) return ""
        m = substr(s, RSTART, RLENGTH); sub(/.*: /, "", m); return m
    }
    {
        rows = num("rows", $0)
        if (rows == "") { print "plot.sh: not a bench --json line: " $0 > "/dev/stderr"; exit 2 }
        n++; r[n] = rows
        rest = $0
        while (match(rest, /\{"impl": "[^"]*", "rows_per_s": [0-9.e+]+/)) {
            item = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
            name = item; sub(/^\{"impl": "/, "", name); sub(/".*/, "", name)
            v = item; sub(/.*"rows_per_s": /, "", v)
            if (!(name in seen)) { seen[name] = 1; order[++k] = name }
            val[n, name] = v
        }
        if (!schema && match($0, /"schema": "[^"]*"/)) { schema = substr($0, RSTART + 11, RLENGTH - 12) }
        if (!format && match($0, /"format": "[^"]*"/)) { format = substr($0, RSTART + 11, RLENGTH - 12) }
    }
    END {
        if (!n) { print "plot.sh: no series on standard input" > "/dev/stderr"; exit 2 }
        printf "# %s | %s\nrows", format, schema
        for (j = 1; j <= k; j++) printf " %s", order[j]
        printf "\n"
        for (i = 1; i <= n; i++) {
            printf "%s", r[i]
            for (j = 1; j <= k; j++) printf " %s", ((i, order[j]) in val) ? val[i, order[j]] : "NaN"
            printf "\n"
        }
    }'
}

plot_sweep() { # OUT TITLE, series on stdin
    local out=$1 title=${2:-} data
    data=$(mktemp /tmp/ordo-plot.XXXXXX)
    sweep_table >"$data"
    [ -n "$title" ] || title=$(sed -n '1s/^# //p' "$data")
    # one plot clause per column: memcpy (the roof) black and dashed
    local names plots="" i=2 name
    read -r -a names < <(sed -n 2p "$data")
    for name in "${names[@]:1}"; do
        [ -z "$plots" ] || plots+=", "
        if [ "$name" = memcpy ]; then
            plots+="\"$data\" using 1:$i skip 2 with linespoints lw 3 dt 2 lc rgb \"black\" pt 7 ps 0.6 title \"memcpy (roof)\""
        else
            plots+="\"$data\" using 1:$i skip 2 with linespoints lw 2 lc $((i - 1)) pt 7 ps 0.6 title \"$name\""
        fi
        i=$((i + 1))
    done
    gnuplot <<GP
set terminal pngcairo size 900,560 noenhanced font "DejaVu Sans,10"
set output "$out"
set title "$title"
set logscale xy
set xlabel "rows encoded (one batch each; 64 ... $(awk 'END { print $1 }' "$data"))"
set ylabel "rows/s"
set format x "%.0s%c"
set format y "%.0s%c"
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key outside right top
set datafile missing "NaN"
plot $plots
GP
    rm -f "$data"
}

# gnuplot's settings for a chart of clustered bars: OUT TITLE YLABEL.
bars_preamble() {
    cat <<GP
set terminal pngcairo size 900,520 noenhanced font "DejaVu Sans,10"
set output "$1"
set title "$2"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set ylabel "$3"
set format y "%.1s%c"
set grid ytics lc rgb "#dddddd"
set key outside bottom center horizontal
set yrange [0:*]
GP
}

plot_csv() { # OUT TITLE, csv_vs_duckdb.sh output on stdin
    local out=$1 title=${2:-"CSV to keys: ordo encode against DuckDB create_sort_key (rows/s, wall time)"} data
    data=$(mktemp /tmp/ordo-plot.XXXXXX)
    awk '
    /^schema +rows +file MB/ { on = 1; next }
    on && NF == 9 && $2 ~ /^[0-9]+$/ { print $1, $4, $5, $6, $7; got++ }
    on && NF != 9 { on = 0 }
    END { if (!got) { print "plot.sh: no csv_vs_duckdb.sh table on standard input" > "/dev/stderr"; exit 2 } }
    ' >"$data"
    { bars_preamble "$out" "$title" "rows/s"; cat <<GP
plot "$data" using 2:xtic(1) title "DuckDB create_sort_key (1 thread)" lc rgb "#d95f02", \
     "" using 3 title "DuckDB read_csv alone (1 thread)" lc rgb "#fdb462", \
     "" using 4 title "ordo encode (default threads)" lc rgb "#1b9e77", \
     "" using 5 title "ordo encode --threads 1" lc rgb "#7fc97f"
GP
    } | gnuplot
    rm -f "$data"
}

plot_csv_cpu() { # OUT TITLE, csv_vs_duckdb.sh output on stdin: its CPU-time lines
    local out=$1 title=${2:-"CSV to keys, one thread each, by CPU time (rows per CPU second)"} data
    data=$(mktemp /tmp/ordo-plot.XXXXXX)
    awk '
    /^cpu / { # the two numbers just before "rows/s)"
        n = 0
        for (i = 2; i <= NF; i++) if ($i == "rows/s)") { v = $(i - 1); gsub(/\(/, "", v); r[++n] = v }
        if (n == 2) { print $2, r[1], r[2]; got++ }
    }
    END { if (!got) { print "plot.sh: no CPU-time lines (cpu ...) on standard input" > "/dev/stderr"; exit 2 } }
    ' >"$data"
    { bars_preamble "$out" "$title" "rows / CPU second"; cat <<GP
plot "$data" using 2:xtic(1) title "DuckDB create_sort_key (1 thread)" lc rgb "#d95f02", \
     "" using 3 title "ordo encode --threads 1" lc rgb "#1b9e77"
GP
    } | gnuplot
    rm -f "$data"
}

plot_sort() { # OUT TITLE, bench/sort.sh output on stdin
    local out=$1 title=${2:-"ordo sort and ordo.sort_indices against their peers (seconds, best of 3; lower is better)"} data
    data=$(mktemp /tmp/ordo-plot.XXXXXX)
    awk '
    # "csv  10000000 rows  504 MiB  ordo 3.04 s  duckdb 3.57 s  gnu sort 23.48 s ..."
    $3 == "rows" && $6 == "ordo" && $2 >= 100000 {
        printf "%s-%sM %s %s NaN NaN %s\n", $1, $2 / 1000000, $7, $10, $14; got++
    }
    # "int64  ordo 0.300 s  pyarrow 1.905 s  polars 0.477 s  duckdb 0.330 s ..."
    $2 == "ordo" && $5 == "pyarrow" && $8 == "polars" && $11 == "duckdb" {
        printf "sort_indices-%s %s %s %s %s NaN\n", $1, $3, $12, $9, $6; got++
    }
    END { if (!got) { print "plot.sh: no bench/sort.sh lines on standard input" > "/dev/stderr"; exit 2 } }
    ' >"$data"
    { bars_preamble "$out" "$title" "seconds (log scale)"; cat <<GP
set logscale y
set yrange [0.05:*]
set format y "%g"
set datafile missing "NaN"
plot "$data" using 2:xtic(1) title "ordo" lc rgb "#1b9e77", \
     "" using 3 title "DuckDB" lc rgb "#d95f02", \
     "" using 4 title "polars" lc rgb "#7570b3", \
     "" using 5 title "pyarrow" lc rgb "#e7298a", \
     "" using 6 title "GNU sort" lc rgb "#666666"
GP
    } | gnuplot
    rm -f "$data"
}

plot_all() {
    local ordo=${1:-$here/build/ordo} max=${2:-10000000} csv=${3:-}
    [ -x "$ordo" ] || die "no tool at $ordo"
    local dir=$here/bench/plots
    mkdir -p "$dir"
    local -A schemas=(
        [bigint]="a bigint"
        [fixed]="a bigint, b double precision, c integer"
        [mixed]="a bigint, s text, d double precision"
    )
    for fmt in lexkey ordered; do
        for name in bigint fixed mixed; do
            echo "sweep: $fmt, ${schemas[$name]}" >&2
            "$ordo" bench --format "$fmt" --schema "${schemas[$name]}" --rows "$max" --sweep --json \
                >"$dir/sweep-$fmt-$name.jsonl"
            plot_sweep "$dir/sweep-$fmt-$name.png" \
                "ordo bench --format $fmt: ${schemas[$name]} (rows/s; memcpy of the same bytes dashed)" \
                <"$dir/sweep-$fmt-$name.jsonl"
        done
    done
    if [ -n "$csv" ]; then
        plot_csv "$dir/csv-vs-duckdb.png" <"$csv"
        plot_csv_cpu "$dir/csv-vs-duckdb-cpu.png" <"$csv"
    fi
}

case ${1:-} in
sweep) [ $# -ge 2 ] || die "usage: plot.sh sweep OUT.png [TITLE] < SERIES.jsonl"; plot_sweep "$2" "${3:-}" ;;
csv) [ $# -ge 2 ] || die "usage: plot.sh csv OUT.png [TITLE] < CSV_VS_DUCKDB_OUTPUT"; plot_csv "$2" "${3:-}" ;;
csv-cpu) [ $# -ge 2 ] || die "usage: plot.sh csv-cpu OUT.png [TITLE] < CSV_VS_DUCKDB_OUTPUT"; plot_csv_cpu "$2" "${3:-}" ;;
sort) [ $# -ge 2 ] || die "usage: plot.sh sort OUT.png [TITLE] < SORT_SH_OUTPUT"; plot_sort "$2" "${3:-}" ;;
all) shift; plot_all "$@" ;;
*) die "usage: plot.sh sweep|csv|csv-cpu|sort OUT.png [TITLE] < INPUT, or plot.sh all [ORDO] [MAX_ROWS] [CSV_OUTPUT]" ;;
esac
