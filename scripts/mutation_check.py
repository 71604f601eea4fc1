#!/usr/bin/env python3
"""The mutation check: proves the tests catch deliberate mistakes.

Each file in tests/mutations/*.patch is one small mistake: a header, then a unified diff against the
tree. The header names the tests that must catch it:

    Mutation: long ADD reductions skip every 4th element
    Tests: ReduceTensor.*            (a GoogleTest filter)
    Binary: librednn_op_tests        (optional; librednn_op_tests or librednn_unit_tests)

The script copies the working tree (tracked and untracked files git does not ignore) into a scratch
folder, builds the host backend there (no CUDA), checks that the named tests pass on the unmutated
tree, then for each mutation applies it, rebuilds, runs its tests once per seed (LIBREDNN_TEST_SEED)
and reverts it. A mutation is caught when its tests fail (or hang past the time limit) under every
seed; it survives when they pass under any. Exit status 0 only when every mutation is caught.

    scripts/mutation_check.py                      # all of them
    scripts/mutation_check.py reduce_skip_every_fourth   # some, by file name without .patch
Environment: LIBREDNN_MUTATION_SEEDS (default "1 2 3"), LIBREDNN_MUTATION_DIR (default build-mutation/),
LIBREDNN_JOBS.
"""

import concurrent.futures
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTATIONS = ROOT / "tests" / "mutations"
SCRATCH = Path(os.environ.get("LIBREDNN_MUTATION_DIR", ROOT / "build-mutation"))
SOURCE = SCRATCH / "src"
BUILD = SCRATCH / "build"
SEEDS = os.environ.get("LIBREDNN_MUTATION_SEEDS", "1 2 3").split()
JOBS = os.environ.get("LIBREDNN_JOBS", str(os.cpu_count() or 2))
TEST_TIMEOUT_S = 300
LIBRARIES = ["cudnn", "cudnn_ops_infer", "cudnn_ops_train", "cudnn_cnn_infer", "cudnn_cnn_train", "cudnn_adv_infer",
             "cudnn_adv_train"]
BINARIES = ["librednn_op_tests", "librednn_unit_tests"]


class Mutation:
    def __init__(self, path):
        self.path = path
        self.name = path.stem
        text = path.read_text()
        header = text.split("\ndiff ", 1)[0] if not text.startswith("diff ") else ""
        fields = dict(re.findall(r"^(\w+):\s*(.+?)\s*$", header, re.M))
        self.what = fields.get("Mutation", "")
        self.tests = fields.get("Tests", "")
        self.binary = fields.get("Binary", "librednn_op_tests")
        if not self.what or not self.tests:
            raise SystemExit(f"{path}: the header needs 'Mutation:' and 'Tests:' lines")
        if self.binary not in ("librednn_op_tests", "librednn_unit_tests"):
            raise SystemExit(f"{path}: Binary must be librednn_op_tests or librednn_unit_tests")


def log(message):
    print(message, flush=True)


def sync_tree():
    """Copies the tree into SOURCE, touching only files whose content changed (the build stays
    incremental between runs: a copied file gets a fresh time stamp, an unchanged one keeps its own)."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                            capture_output=True).stdout.decode().split("\0")
    wanted = {name for name in listed if name and (ROOT / name).is_file()}
    for name in wanted:
        source, target = ROOT / name, SOURCE / name
        if target.is_file() and filecmp.cmp(source, target, shallow=False):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        shutil.copymode(source, target)
    for path in SOURCE.rglob("*"):
        if path.is_file() and str(path.relative_to(SOURCE)) not in wanted:
            path.unlink()


def build(binaries=BINARIES):
    # -O1: every mutation recompiles the file it touches and again when it is reverted; -O1 halves that
    # compile time on CI's two cores, and the tests it runs are small. Each build relinks the seven libraries
    # and the test binary: LLVM's linker, where installed, takes about a third of the time of GNU ld's for them.
    if not (BUILD / "CMakeCache.txt").exists():
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        linker = []
        if shutil.which("ld.lld"):
            linker = ["-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld", "-DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld"]
        subprocess.run(["cmake", "-S", str(SOURCE), "-B", str(BUILD), *generator, *linker, "-DLIBREDNN_CUDA=OFF",
                        "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG",
                        "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG", "-DLIBREDNN_DOCTOR=OFF", "-DLIBREDNN_WERROR=OFF"],
                       check=True, capture_output=True)
    targets = [arg for target in LIBRARIES + list(binaries) for arg in ("--target", target)]
    result = subprocess.run(["cmake", "--build", str(BUILD), "-j", JOBS, *targets], capture_output=True, text=True)
    return result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


def run_tests(mutation, seed):
    """'pass', 'fail' or 'hang', and the number of tests that ran. Each run has a temporary folder of its own
    (GoogleTest's TempDir), so that runs side by side do not share files."""
    binary = BUILD / "tests" / mutation.binary
    with tempfile.TemporaryDirectory(prefix=f"mutation-seed{seed}-") as scratch:
        env = dict(os.environ, LIBREDNN_TEST_SEED=seed, TEST_TMPDIR=scratch + "/")
        env.pop("LIBREDNN_OP_TEST_BACKEND", None)
        env.pop("GTEST_OUTPUT", None)
        try:
            result = subprocess.run([str(binary), f"--gtest_filter={mutation.tests}"], env=env, capture_output=True,
                                    text=True, timeout=TEST_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return "hang", 0
    ran = re.search(r"(\d+) tests? from \d+ test suites? ran", result.stdout)
    return ("pass" if result.returncode == 0 else "fail"), int(ran.group(1)) if ran else 0


def run_seeds(mutation):
    """run_tests under each seed, LIBREDNN_JOBS processes at a time (each test binary runs on one core but for
    the host solvers' large problems): the outcomes in SEEDS' order. A run that hangs is run again alone, so
    that a run slowed by its neighbours is not taken for a hang (a hang counts as caught)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, int(JOBS))) as pool:
        outcomes = list(pool.map(lambda seed: run_tests(mutation, seed), SEEDS))
    return [run_tests(mutation, seed) if outcome[0] == "hang" else outcome for seed, outcome in zip(SEEDS, outcomes)]


def patch(mutation, reverse=False):
    args = ["patch", "-p1", "--forward", "--silent", "--no-backup-if-mismatch", "-d", str(SOURCE)]
    if reverse:
        args.append("--reverse")
    result = subprocess.run(args, input=mutation.path.read_text(), text=True, capture_output=True)
    return result.returncode == 0, result.stdout + result.stderr


def main(names):
    paths = sorted(MUTATIONS.glob("*.patch"))
    if names:
        paths = [p for p in paths if p.stem in names]
        missing = set(names) - {p.stem for p in paths}
        if missing:
            raise SystemExit(f"no such mutation: {', '.join(sorted(missing))}")
    mutations = [Mutation(p) for p in paths]
    if not mutations:
        raise SystemExit("no mutations in tests/mutations/")
    started = time.time()
    SOURCE.mkdir(parents=True, exist_ok=True)
    sync_tree()
    ok, output = build()
    if not ok:
        log(output)
        raise SystemExit("mutation check: the unmutated tree does not build")

    # The tests must pass before any mutation: a test that fails anyway proves nothing.
    problems = []
    for key in sorted({(m.binary, m.tests) for m in mutations}):
        probe = next(m for m in mutations if (m.binary, m.tests) == key)
        for seed, (outcome, ran) in zip(SEEDS, run_seeds(probe)):
            if outcome != "pass" or ran == 0:
                problems.append(f"{key[0]} --gtest_filter={key[1]} with seed {seed}: {outcome}, {ran} tests ran "
                                "on the unmutated tree")
    if problems:
        raise SystemExit("mutation check: the tests must pass unmutated first:\n  " + "\n  ".join(problems))

    prepared = time.time()
    build_s = test_s = 0.0
    results = []
    for mutation in mutations:
        applied, output = patch(mutation)
        if not applied:
            results.append((mutation, "does not apply", output.strip().splitlines()[-1:] or [""]))
            continue
        try:
            clock = time.time()
            built, output = build([mutation.binary])
            build_s += time.time() - clock
            if not built:
                results.append((mutation, "does not build", [output.strip().splitlines()[-1]]))
                continue
            clock = time.time()
            outcomes = [outcome for outcome, _ in run_seeds(mutation)]
            test_s += time.time() - clock
            survived = [seed for seed, outcome in zip(SEEDS, outcomes) if outcome == "pass"]
            verdict = "SURVIVED" if survived else "caught"
            detail = [f"seed {s}: {o}" for s, o in zip(SEEDS, outcomes)]
            results.append((mutation, verdict, detail))
            log(f"  {verdict:8} {mutation.name} ({', '.join(detail)})")
        finally:
            reverted, output = patch(mutation, reverse=True)
            if not reverted:
                raise SystemExit(f"mutation check: could not revert {mutation.name}: {output}")

    log(f"\nmutation check: {len(mutations)} mutations, seeds {' '.join(SEEDS)}, {time.time() - started:.0f} s "
        f"(first build and unmutated runs {prepared - started:.0f} s, rebuilds {build_s:.0f} s, mutated runs {test_s:.0f} s)")
    failed = 0
    for mutation, verdict, detail in results:
        if verdict != "caught":
            failed += 1
        log(f"  {verdict:14} {mutation.name:40} {mutation.what} [{mutation.tests}]")
        if verdict != "caught":
            for line in detail:
                log(f"                 {line}")
    if failed:
        log(f"mutation check FAILED: {failed} of {len(mutations)} mutations not caught")
        return 1
    log(f"mutation check passed: all {len(mutations)} mutations caught under every seed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
