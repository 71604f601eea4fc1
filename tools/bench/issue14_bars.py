#!/usr/bin/env python3
"""Issue 14's bars from librednn-bench JSON results (--json): for each batch-norm or pooling problem, LibreDNN's
and the other library's median times, their ratio, and the rate of the bytes issue 14 counts for the operation as a
share of the machine's copy bandwidth (default 4150 GB/s, the H200's measured device-to-device copy,
docs/KERNELS.md; --copy-gbps to change it). Issue 14 counts what a two-pass algorithm must move:
  batch norm   training forward: x twice and y (3 tensors); backward: x and dy twice and dx (5); inference: x, y (2)
  pooling      forward: x and y; max backward: x, y and dy read and dx written; average backward: dy and dx
(librednn-bench's own byte count reads each tensor once, and leaves y out of max pooling's backward). A row meets the
bar where LibreDNN takes no longer than the other library and reaches 80% of the copy; a tensor set that fits the
GPU's L2 (the JSON's cache_bytes) is marked, since its rate may pass 100%.

With --copies COPIES.json (librednn-bench's JSON of op=copy problems, as tools/bench/issue14_results.sh runs them:
one a layer's x, same dtype and dims) the table adds what a copy of the layer's x reached on the machine (its bytes
read and written over its time) and the row's rate as a share of it: how far a layer is from what a copy of its
own size reaches, which a small tensor's copy may not be the large copy's. The bar itself stays the issue's.

With --copy-from COPY.json (librednn-bench's JSON of one op=copy problem, the large copy issue14_results.sh times
beside the set) the bar is 80% of the rate that copy reached, not the H200's 4150 GB/s: the issue's "measured copy
bandwidth" on whatever GPU the results came from (on an H100 the fixed figure is out of reach by construction).

  tools/bench/issue14_bars.py RESULT.json... [--copy-gbps G | --copy-from COPY.json] [--copies COPIES.json]
                                                                   a Markdown table on stdout
  tools/bench/issue14_bars.py --copy-problems RESULT.json...       the op=copy problems --copies wants, a line each
  tools/bench/issue14_bars.py --self-test                          checks the byte counts above; exit 1 on a mistake
"""
import json
import math
import sys

ELEMENT_BYTES = {"float": 4, "half": 2, "bfloat16": 2, "double": 8, "int8": 1}
BAR_SHARE = 0.80


def fields(problem):
    """The problem string's key=value fields."""
    out = {}
    for token in problem.split():
        if "=" in token:
            key, value = token.split("=", 1)
            out[key] = value
    return out


def elements(dims):
    return math.prod(int(d) for d in dims.split("x"))


def layout(f):
    """nhwc where x's channel stride is 1, else nchw (the bench's packed layouts)."""
    strides = f.get("xstrides", "")
    parts = strides.split("x") if strides else []
    return "nhwc" if len(parts) == 4 and parts[1] == "1" else "nchw"


def x_bytes(f):
    """The bytes of the problem's x (its dtype and dims), None without them."""
    size = ELEMENT_BYTES.get(f.get("dtype", ""))
    return elements(f["dims"]) * size if size is not None and "dims" in f else None


def issue_bytes(problem):
    """Bytes issue 14 counts for the problem, and a short name of the operation; (None, why) where it does not."""
    f = fields(problem)
    x = x_bytes(f)
    if x is None:
        return None, "no dtype or dims"
    size = ELEMENT_BYTES[f["dtype"]]
    if f.get("op") == "bn":
        phase = f.get("phase", "")
        tensors = {"train_fwd": 3, "bwd": 5, "inference": 2}.get(phase)
        if tensors is None:
            return None, "batch-norm phase " + phase
        return tensors * x, "bn " + phase
    if f.get("op") == "pool":
        if "ydims" not in f:
            return None, "pooling without ydims"
        y = elements(f["ydims"]) * size
        mode, direction = f.get("mode", ""), f.get("dir", "")
        if direction == "fwd":
            return x + y, "pool " + mode + " fwd"
        if direction == "bwd":
            return (2 * x + 2 * y if mode.startswith("max") else x + y), "pool " + mode + " bwd"
        return None, "pooling direction " + direction
    return None, "not batch norm or pooling"


def copy_rates(copies_file):
    """{(dtype, dims): GB/s} of the op=copy problems in a librednn-bench JSON: 2 x the tensor's bytes over the
    median time (a copy reads and writes the tensor)."""
    with open(copies_file) as handle:
        data = json.load(handle)
    rates = {}
    for r in data.get("results", []):
        f = fields(r.get("problem", ""))
        lib = r.get("lib") or {}
        x = x_bytes(f)
        if f.get("op") != "copy" or lib.get("status") != "ok" or x is None:
            continue
        rates[(f["dtype"], f["dims"])] = 2 * x / (lib["median_ms"] * 1e-3) / 1e9
    return rates


def measured_copy(copy_file):
    """The GB/s of the one op=copy problem in a librednn-bench JSON (copy_rates' rate); None without exactly one."""
    rates = copy_rates(copy_file)
    return next(iter(rates.values())) if len(rates) == 1 else None


def copy_problems(files):
    """op=copy problem strings, one for each distinct x (dtype and dims) among the result files' batch-norm and
    pooling problems, in order of appearance: what --copies reads back, timed."""
    out = []
    for path in files:
        with open(path) as handle:
            for r in json.load(handle).get("results", []):
                f = fields(r.get("problem", ""))
                problem = "op=copy dtype=%s dims=%s" % (f.get("dtype"), f.get("dims"))
                if issue_bytes(r.get("problem", ""))[0] is not None and problem not in out:
                    out.append(problem)
    return out


def rows(result_file, copy_gbps):
    with open(result_file) as handle:
        data = json.load(handle)
    cache = (data.get("device") or {}).get("cache_bytes", 0)
    for r in data.get("results", []):
        count, what = issue_bytes(r.get("problem", ""))
        if count is None:
            continue
        lib, vs = r.get("lib") or {}, r.get("vs") or {}
        f = fields(r["problem"])
        key = (f.get("dtype", ""), f.get("dims", ""))  # copy_rates' key: a copy of x
        if lib.get("status") != "ok":
            yield r["name"], what, None, None, None, None, False, "LibreDNN: " + lib.get("status", "none"), key
            continue
        ours = lib["median_ms"] * 1e3
        theirs = vs["median_ms"] * 1e3 if vs.get("status") == "ok" else None
        gbps = count / (ours * 1e-6) / 1e9
        share = gbps / copy_gbps
        fits = cache > 0 and r.get("bytes", 0) <= cache
        met = share >= BAR_SHARE and (theirs is None or ours <= theirs)
        note = (f.get("dtype", "") + " " + layout(f)) + (", fits L2" if fits else "")
        yield r["name"], what, ours, theirs, gbps, share, met, note, key


def table(files, copy_gbps, copies=None):
    """The bar table; `copies`: copy_rates' {(dtype, dims): GB/s}, adding the same-size copy's columns."""
    head = "| layer | operation | LibreDNN us | other us | ratio | issue GB/s | % of copy | bar | note |"
    rule = "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |"
    if copies is not None:
        head += " x's copy GB/s | % of it |"
        rule += " ---: | ---: |"
    lines = [head, rule]
    met_count = total = 0
    for path in files:
        for name, what, ours, theirs, gbps, share, met, note, key in rows(path, copy_gbps):
            total += 1
            met_count += met
            same = copies.get(key) if copies is not None else None
            tail = ""
            if copies is not None:
                tail = " %s | %s |" % ("%.0f" % same if same else "", "%.0f%%" % (100 * gbps / same)
                                       if same and gbps else "")
            if ours is None:
                lines.append("| %s | %s | | | | | | no | %s |%s" % (name, what, note, tail))
                continue
            ratio = "%.2f" % (ours / theirs) if theirs else ""
            lines.append("| %s | %s | %.1f | %s | %s | %.0f | %.0f%% | %s | %s |%s" %
                         (name, what, ours, "%.1f" % theirs if theirs else "", ratio, gbps, 100 * share,
                          "yes" if met else "**no**", note, tail))
    lines.append("")
    lines.append("%d of %d rows meet the bar (no slower than the other library, at least %.0f%% of %.0f GB/s)." %
                 (met_count, total, 100 * BAR_SHARE, copy_gbps))
    return "\n".join(lines)


def self_test():
    failures = []

    def quiet_main(argv):  # main's exit status, its table or message not printed
        import contextlib
        import io
        with contextlib.redirect_stdout(io.StringIO()):
            return main(argv)

    def expect(problem, want):
        got, _ = issue_bytes(problem)
        if got != want:
            failures.append("%s: %s bytes, want %s" % (problem, got, want))

    x = 2 * 3 * 4 * 5
    expect("op=bn mode=spatial phase=train_fwd dtype=float dims=2x3x4x5", 3 * 4 * x)
    expect("op=bn mode=spatial phase=bwd dtype=half dims=2x3x4x5", 5 * 2 * x)
    expect("op=bn mode=spatial phase=inference dtype=float dims=2x3x4x5", 2 * 4 * x)
    expect("op=pool dir=fwd mode=max dtype=half dims=2x3x4x4 ydims=2x3x2x2", 2 * (96 + 24))
    expect("op=pool dir=bwd mode=max dtype=float dims=2x3x4x4 ydims=2x3x2x2", 4 * (2 * 96 + 2 * 24))
    expect("op=pool dir=bwd mode=avg_incl dtype=float dims=2x3x4x4 ydims=2x3x1x1", 4 * (96 + 6))
    expect("op=softmax dtype=float dims=2x3x4x5", None)
    if layout(fields("dims=1x2x3x4 xstrides=24x1x8x2")) != "nhwc" or layout(fields("xstrides=24x12x4x1")) != "nchw":
        failures.append("layout")
    # A copy of a 1000-float x in 1 us: 8 GB/s; a training forward over it (12000 bytes) in 2 us: 6 GB/s, 75% of it.
    import os
    import tempfile
    with tempfile.TemporaryDirectory() as scratch:
        copies, result = os.path.join(scratch, "copies.json"), os.path.join(scratch, "bn.json")
        ok = {"status": "ok", "median_ms": 0.001}
        with open(copies, "w") as handle:
            json.dump({"results": [{"name": "c", "problem": "op=copy dtype=float dims=10x100", "lib": ok}]}, handle)
        with open(result, "w") as handle:
            json.dump({"results": [{"name": "l", "problem": "op=bn mode=spatial phase=train_fwd dtype=float dims=10x100",
                                    "lib": {"status": "ok", "median_ms": 0.002}}]}, handle)
        if copy_problems([result, result]) != ["op=copy dtype=float dims=10x100"]:
            failures.append("copy_problems: %s" % copy_problems([result, result]))
        rates = copy_rates(copies)
        if abs(rates.get(("float", "10x100"), 0) - 8.0) > 1e-9:
            failures.append("copy_rates: %s, want 8 GB/s for float 10x100" % rates)
        text = table([result], 4150.0, rates)
        if "| 8 | 75% |" not in text:
            failures.append("table with copies:\n" + text)
        # The bar from the measured copy: 6 GB/s is 75% of 8 (below the bar); a copy of 7 GB/s puts it at 86%.
        if measured_copy(copies) is None or abs(measured_copy(copies) - 8.0) > 1e-9:
            failures.append("measured_copy: %s, want 8" % measured_copy(copies))
        if quiet_main([result, "--copy-from", copies]) != 0:
            failures.append("--copy-from: exit status")
        with open(copies, "w") as handle:
            json.dump({"results": [{"name": "c", "problem": "op=copy dtype=float dims=10x100",
                                    "lib": {"status": "ok", "median_ms": 8.0 / 7.0 * 1e-3}}]}, handle)
        text = table([result], measured_copy(copies))
        if "| 86% | yes |" not in text or "of 7 GB/s" not in text:
            failures.append("table on a measured copy of 7 GB/s:\n" + text)
        with open(copies, "w") as handle:
            json.dump({"results": []}, handle)
        if quiet_main([result, "--copy-from", copies]) != 2:
            failures.append("--copy-from a JSON without a copy: want exit status 2")
    for line in failures:
        print("issue14_bars self-test: " + line)
    print("issue14_bars self-test: %s" % ("FAILED" if failures else "passed"))
    return 1 if failures else 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if argv in (["--help"], ["-h"]):
        print(__doc__.strip())
        return 0
    if argv[:1] == ["--copy-problems"]:
        print("\n".join(copy_problems(argv[1:])))
        return 0
    copy_gbps, files, copies = 4150.0, [], None
    i = 0
    while i < len(argv):
        if argv[i] == "--copy-gbps" and i + 1 < len(argv):
            copy_gbps = float(argv[i + 1])
            i += 2
            continue
        if argv[i] == "--copy-from" and i + 1 < len(argv):
            copy_gbps = measured_copy(argv[i + 1])
            if copy_gbps is None:
                print("issue14_bars: %s holds no single successful op=copy result" % argv[i + 1])
                return 2
            i += 2
            continue
        if argv[i] == "--copies" and i + 1 < len(argv):
            copies = copy_rates(argv[i + 1])
            i += 2
            continue
        if argv[i].startswith("-"):
            print("issue14_bars: unknown option %s (--help says how to call it)" % argv[i])
            return 2
        files.append(argv[i])
        i += 1
    if not files:
        print(__doc__.strip())
        return 2
    print(table(files, copy_gbps, copies))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
