#!/usr/bin/env bash
# The baseline runs of issue 3 (for bench/results/): one cuDNN on ResNet-50's convolutions and its other
# operations, one librednn-bench run per configuration, each writing NAME.json, NAME.md, NAME.txt (the
# table) and NAME.err into OUTDIR, plus machine.txt.
#
#   tools/bench/baseline.sh BENCH LIB OUTDIR TARGET...
#
# TARGET is conv/N/CONFIG or ops/N/CONFIG:
#   conv: resnet50-conv.tsv in three directions, algorithm from cudnnFind*AlgorithmEx (as the anchors of
#         ../shared/GPU.md were measured); CONFIG half-nhwc or bfloat16-nhwc (tensor-op math),
#         float-nchw-tf32 (default math: TF32 allowed) or float-nchw-fma (strict fp32), or
#         half-nhwc-heuristic (the heuristic's first choice instead of the search).
#   ops:  resnet50-ops.tsv for inference, training forward and backward; CONFIG half-nhwc or float-nchw.
# RUNS (default 30) sets the timed runs per problem.
set -uo pipefail
if [ $# -lt 4 ]; then
    sed -n '2,17p' "$0"
    exit 2
fi
bench=$1
lib=$2
out=$3
shift 3
sets="$(cd "$(dirname "$0")/../../bench/sets" && pwd)"
runs=${RUNS:-30}
mkdir -p "$out"
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader 2>/dev/null
    git -C "$(dirname "$0")" rev-parse HEAD 2>/dev/null
    echo "lib: $lib"
} >>"$out/machine.txt"

status=0
for target in "$@"; do
    IFS=/ read -r kind n config <<<"$target"
    case "$kind/$config" in
        conv/half-nhwc) options=(--dtype half --layout nhwc --math tensor_op --find) ;;
        conv/half-nhwc-heuristic) options=(--dtype half --layout nhwc --math tensor_op) ;;
        conv/bfloat16-nhwc) options=(--dtype bfloat16 --layout nhwc --math tensor_op --find) ;;
        conv/float-nchw-tf32) options=(--dtype float --layout nchw --math default --find) ;;
        conv/float-nchw-fma) options=(--dtype float --layout nchw --math fma --find) ;;
        ops/half-nhwc) options=(--dtype half --layout nhwc) ;;
        ops/float-nchw) options=(--dtype float --layout nchw) ;;
        *)
            echo "baseline: unknown target '$target' (see the comment at the top of $0)"
            status=2
            continue
            ;;
    esac
    if [ "$kind" = conv ]; then
        options+=(--set "$sets/resnet50-conv.tsv" --dir fwd,bwd_data,bwd_filter)
    else
        options+=(--set "$sets/resnet50-ops.tsv" --dir inference,fwd,bwd)
    fi
    name="resnet50-$kind-$config-n$n"
    start=$SECONDS
    "$bench" --lib "$lib" --n "$n" --runs "$runs" "${options[@]}" --json "$out/$name.json" \
        --markdown "$out/$name.md" >"$out/$name.txt" 2>"$out/$name.err"
    rc=$?
    [ $rc -eq 0 ] || status=$rc
    echo "== $name: exit $rc after $((SECONDS - start)) s"
    sed -n '/^summary per direction/,$p' "$out/$name.txt"
    head -5 "$out/$name.err"
done
exit $status
