#!/usr/bin/env bash
# Runs librednn-bench on each problem string of a file (one a line, '#' comments) against two
# libraries in the same run, in perf mode, and in check mode; writes NAME.txt, NAME.json, NAME.md.
# Exits non-zero when either run of librednn-bench does.
#   tools/bench/compare_problems.sh BENCH LIB VS PROBLEMS OUTDIR NAME
set -uo pipefail
bench=$1 lib=$2 vs=$3 problems=$4 out=$5 name=$6
mkdir -p "$out"
mapfile -t list < <(grep -v '^#' "$problems" | grep -v '^ *$')
args=()
for p in "${list[@]}"; do args+=(--problem "$p"); done
"$bench" --lib "$lib" --vs "$vs" --runs "${RUNS:-30}" "${args[@]}" --json "$out/$name.json" --markdown "$out/$name.md" \
    >"$out/$name.txt" 2>&1
perf_rc=$?
"$bench" --check --lib "$lib" --vs "$vs" "${args[@]}" >"$out/$name-check.txt" 2>&1
check_rc=$?
echo "compare: perf rc=$perf_rc, check rc=$check_rc"
[ $perf_rc -eq 0 ] && [ $check_rc -eq 0 ]
