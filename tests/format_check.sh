#!/usr/bin/env bash
# The code follows .clang-format (clang-format 14; other versions lay code out differently, so the
# check is skipped with them). Generated files (*.gen.*) are left as the generator writes them.
set -euo pipefail
cd "$1"
if ! command -v clang-format >/dev/null || ! clang-format --version | grep -q 'version 14\.'; then
    echo "format check skipped: needs clang-format 14"
    exit 77
fi
files=$(git ls-files 2>/dev/null -- 'src/*.cpp' 'src/*.hpp' 'src/*.cu' 'src/*.cuh' 'tools/*.cpp' 'tools/*.hpp' \
    'tests/*.cpp' 'tests/*.hpp' 'tests/*.c' 'examples/*.c' 'examples/*.cpp' | grep -v '\.gen\.' || true)
[ -n "$files" ] || { echo "format check skipped: not a git checkout"; exit 77; }
# shellcheck disable=SC2086
clang-format --dry-run -Werror $files
echo "format check: $(wc -w <<<"$files") files follow .clang-format"
