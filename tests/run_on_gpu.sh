#!/usr/bin/env bash
# Runs a program that needs an NVIDIA GPU, or exits 77 (CTest's "skipped") where none is usable.
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "no GPU: SKIPPED"
    exit 77
fi
exec "$@"
