#!/usr/bin/env python3
"""Each kernel's time from Nsight Compute's CSV (`ncu --metrics gpu__time_duration.sum --csv --page raw ...`):
the kernels in order of first launch, their launches and summed time, and the total. `--page raw` writes every
metric as a column (a grep for the metric's cell finds none of it); this reads the table by its header.

  tools/bench/ncu_kernel_times.py NCU.csv[.gz]...   a table a file on stdout; exit 1 where a file holds no kernel table
  tools/bench/ncu_kernel_times.py --self-test       checks the reading on a small CSV; exit 1 on a mistake
"""
import collections
import csv
import gzip
import io
import sys

METRIC = "gpu__time_duration.sum"


def kernel_times(text, width=90):
    """[(kernel name, launches, ns)] in order of first launch, or None without a table holding the metric."""
    rows = [r for r in csv.reader(io.StringIO(text)) if len(r) > 5]
    head = next((r for r in rows if "Kernel Name" in r and METRIC in r), None)
    if head is None:
        return None
    name, duration = head.index("Kernel Name"), head.index(METRIC)
    sums, count = collections.OrderedDict(), collections.Counter()
    for r in rows[rows.index(head) + 1:]:
        try:
            ns = float(r[duration].replace(",", ""))
        except (ValueError, IndexError):
            continue  # the units row, or a row without the metric
        key = r[name][:width]
        sums[key] = sums.get(key, 0.0) + ns
        count[key] += 1
    return [(k, count[k], ns) for k, ns in sums.items()]


def table(path, times):
    lines = ["%s: %d launches, %.1f us in all" % (path, sum(c for _, c, _ in times), sum(ns for _, _, ns in times) / 1e3)]
    lines += ["%6d launches %10.1f us  %s" % (c, ns / 1e3, k) for k, c, ns in times]
    return "\n".join(lines)


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", errors="replace") as handle:
        return handle.read()


def self_test():
    text = ('==PROF== Connected\nlibrednn-bench perf\n'
            '"ID","Kernel Name","Grid Size","Device","CC","gpu__time_duration.sum"\n'
            '"","","","","","ns"\n'
            '"0","stats_kernel","(1, 396, 1)","0","9.0","28,608"\n'
            '"1","merge_kernel","(128, 1, 1)","0","9.0","6,784"\n'
            '"2","stats_kernel","(1, 396, 1)","0","9.0","28,224"\n')
    got = kernel_times(text)
    want = [("stats_kernel", 2, 56832.0), ("merge_kernel", 1, 6784.0)]
    failures = [] if got == want else ["kernel_times: %s, want %s" % (got, want)]
    if kernel_times("no table here\n") is not None:
        failures.append("a file without the table: want None")
    if "3 launches, 63.6 us in all" not in table("f", want):
        failures.append("table: " + table("f", want))
    print("ncu_kernel_times self-test: %s" % ("FAILED\n" + "\n".join(failures) if failures else "passed"))
    return 1 if failures else 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    status = 0
    for path in argv:
        times = kernel_times(read(path))
        if times is None:
            print("%s: no kernel table with %s" % (path, METRIC))
            status = 1
            continue
        print(table(path, times))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
