#!/usr/bin/env python3
"""Joins run.sh's files into the tables of README.md: per problem and direction the fastest run over all
rounds of LibreDNN (librednn-bench --host), of oneDNN called directly and of LibreDNN's own solvers, the
reference's single run, and the ratios. Usage: ratios.py OUT_DIR"""
import csv, glob, math, sys
from collections import defaultdict

out = sys.argv[1]
DIRS = ["fwd", "bwd_data", "bwd_filter"]


def bench_csv(paths):
    best, choice, count = {}, {}, {}
    for path in paths:
        for row in csv.DictReader(open(path)):
            if row["lib_status"] != "ok":
                continue
            key = (row["group"], row["name"])
            ms = float(row["lib_min_ms"])
            best[key] = min(best.get(key, ms), ms)
            choice[key] = row["lib_choice"]
            count[key] = int(row["count"])
    return best, choice, count


def baseline_tsv(paths):
    best, impl = {}, {}
    for path in paths:
        for line in open(path):
            if line.startswith("#") or line.startswith("dir\t"):
                continue
            d, name, count, ms, median, gflops, implementation = line.rstrip("\n").split("\t")
            if ms == "-":
                continue
            key = (d, name)
            best[key] = min(best.get(key, float(ms)), float(ms))
            impl[key] = implementation
    return best, impl


lib, choice, count = bench_csv(sorted(glob.glob(f"{out}/librednn-*.csv")))
own, own_choice, _ = bench_csv(glob.glob(f"{out}/own.csv"))
onednn, impl = baseline_tsv(sorted(glob.glob(f"{out}/onednn-*.tsv")))
ref, _ = baseline_tsv(glob.glob(f"{out}/reference.tsv"))


def fmt(value, digits=3):
    return "-" if value is None else f"{value:.{digits}g}" if value < 100 else f"{value:.0f}"


for d in DIRS:
    keys = [k for k in lib if k[0] == d]
    print(f"\n### {d}\n")
    print("| problem | count | reference ms | own ms | LibreDNN ms | oneDNN direct ms | LibreDNN / oneDNN | reference / LibreDNN | oneDNN implementation |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    totals = defaultdict(float)
    ratios, speedups = [], []
    for k in keys:
        r, o, l, n = ref.get(k), own.get(k), lib[k], onednn.get(k)
        ratio = l / n if n else None
        speed = r / l if r else None
        if ratio:
            ratios.append(ratio)
        if speed:
            speedups.append(speed)
        c = count[k]
        for name, value in (("ref", r), ("own", o), ("lib", l), ("onednn", n)):
            if value is not None:
                totals[name] += c * value
        print(f"| {k[1]} | {c} | {fmt(r)} | {fmt(o)} | {fmt(l)} | {fmt(n)} | {fmt(ratio, 2)} | {fmt(speed)} | {impl.get(k, '-')} |")
    geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None
    print(f"| **whole set** (count-weighted ms) | | {fmt(totals['ref'])} | {fmt(totals['own'])} | {fmt(totals['lib'])} | "
          f"{fmt(totals['onednn'])} | {fmt(totals['lib'] / totals['onednn'], 2) if totals['onednn'] else '-'} | "
          f"{fmt(totals['ref'] / totals['lib']) if totals['ref'] else '-'} | |")
    print(f"\n{d}: LibreDNN / oneDNN per problem: geometric mean {fmt(geo(ratios), 3)}, worst {fmt(max(ratios), 3) if ratios else '-'}; "
          f"reference / LibreDNN: geometric mean {fmt(geo(speedups))}, least {fmt(min(speedups)) if speedups else '-'}")
