#!/usr/bin/env python3
"""A model of not-run-persistent-exchange.patch's tagged exchange, run under random schedules: B blocks, each owning
some words of h; step s (from 1) reads every block's words in buffer (s - 1) % 2, waiting until each carries tag s,
then (after its block barrier) writes its own words into buffer s % 2 with tag s + 1. Step 0 reads the initial h
elsewhere (the state), so buffers start all tag 0. A schedule interleaves single word reads and writes of all
blocks at random (a block's reads in any order, as its threads issue them; its writes only after all its reads, as
the kernel's barrier orders them).

Checked for every schedule: no read ever sees a tag above the one it waits for (a buffer overwritten before a slow
block read it: the wrong step's h), every value read is the one its writer computed for that step, and every block
finishes (no wait forever). Also checks that the model catches the mistakes it should: a single buffer (reuse one
step too early) and writes issued before the block's reads complete are found to read wrong steps.

  python3 exchange_protocol_check.py        exit 1 on a finding
"""
import random
import sys


def run(blocks, steps, seed, buffers=2, write_before_reads_done=False):
    """One random schedule; returns None or a description of what went wrong."""
    rng = random.Random(seed)
    words = {(b, w): (0, None) for b in range(buffers) for w in range(blocks)}  # (buffer, owner) -> (tag, value)
    state = []
    for b in range(blocks):
        state.append({"step": 0, "pending": set(range(blocks)), "written": False, "seen": []})
    done = 0
    for _ in range(blocks * steps * (blocks + 2) * 50):
        live = [b for b in range(blocks) if state[b]["step"] < steps]
        if not live:
            return None
        b = rng.choice(live)
        st = state[b]
        s = st["step"]
        if s > 0 and st["pending"]:
            # A read of one producer's word (the thread spins: a read of the wrong tag just retries later).
            owner = rng.choice(sorted(st["pending"]))
            tag, value = words[((s - 1) % buffers, owner)]
            if tag > s:
                return "block %d step %d read block %d's word with tag %d (overwritten)" % (b, s, owner, tag)
            if tag == s:
                if value != ("h", owner, s - 1):
                    return "block %d step %d read %s from block %d" % (b, s, value, owner)
                st["pending"].discard(owner)
            if not write_before_reads_done:
                continue
        if write_before_reads_done or s == 0 or not st["pending"]:
            # The block's cell writes its word for step s, tag s + 1, then moves on.
            if not st["written"]:
                words[(s % buffers, b)] = (s + 1, ("h", b, s))
                st["written"] = True
            if s == 0 or not st["pending"]:
                st["step"] += 1
                st["pending"] = set(range(blocks))
                st["written"] = False
    return "no progress (a wait forever): steps %s" % [x["step"] for x in state]


def main():
    findings = []
    for blocks in (2, 3, 5, 8):
        for seed in range(400):
            why = run(blocks, 7, seed)
            if why:
                findings.append("two buffers, %d blocks, seed %d: %s" % (blocks, seed, why))
                break
    # The model must see the mistakes: one buffer, and a block writing before its reads are done.
    caught_one = any(run(3, 7, seed, buffers=1) for seed in range(400))
    caught_early = any(run(3, 7, seed, write_before_reads_done=True) for seed in range(400))
    if not caught_one:
        findings.append("the model did not catch a single buffer")
    if not caught_early:
        findings.append("the model did not catch writes before the block's reads")
    for f in findings:
        print("exchange_protocol_check: " + f)
    print("exchange_protocol_check: %s (1600 schedules of 2-8 blocks over 7 steps; one buffer caught: %s; early "
          "writes caught: %s)" % ("FAILED" if findings else "passed", caught_one, caught_early))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
