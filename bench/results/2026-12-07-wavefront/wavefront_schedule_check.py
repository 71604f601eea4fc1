#!/usr/bin/env python3
"""A model of the wavefront kernel's schedule (src/cuda/rnn/rnn_wavefront.cu), checked against the layer-by-layer
recurrence on symbolic values. Each layer's h lives in two buffers (step s reads buffer s % 2, writes the other; a
sequence without step s copies its h across); wave w runs step w - l of layer l; the products of wave w read, for
every layer j with a step w - j in 0 .. steps, buffer (w - j) % 2 of layer j (its R for its own step, and the next
layer's W for that layer's step w - j - 1), before any cell of the wave writes; the grid barrier ends the wave.
The check: every computed h(l, t) is cell(h(l, t - 1), input(l, t)) where input(0, t) = x(t) and input(l, t) =
h(l - 1, t), for random layer counts, lengths and batches with shorter sequences; hy is the last h of each sequence.
Prints "ok" and exits 0, or the first mismatch and exits 1."""
import random
import sys


def reference(L, T, lengths):
    hy, ys = {}, {}
    for n, length in enumerate(lengths):
        below = [("x", t, n) for t in range(length)]
        for l in range(L):
            h = ("hx", l, n)
            outs = []
            for t in range(length):
                h = ("cell", l, h, below[t])
                outs.append(h)
            hy[(l, n)] = h
            below = outs
        for t in range(length):
            ys[(t, n)] = below[t]
    return hy, ys


def wavefront(L, T, lengths):
    N = len(lengths)
    buf = {(l, k, n): ("hx", l, n) if k == 0 else ("garbage", l, k, n) for l in range(L) for k in range(2) for n in range(N)}
    ys = {}
    for w in range(T + L - 1):
        # products: what each layer's h vector is this wave (read before any write)
        vec = {}
        for j in range(L):
            sj = w - j
            if 0 <= sj <= T:
                for n in range(N):
                    vec[(j, n)] = buf[(j, sj % 2, n)]
        writes = []
        for l in range(L):
            s = w - l
            if not (0 <= s < T):
                continue
            for n in range(N):
                h_before = buf[(l, s % 2, n)]
                if s >= lengths[n]:
                    writes.append(((l, (s + 1) % 2, n), h_before))
                    continue
                pre = vec[(l, n)]  # R_l times layer l's vector
                assert pre == h_before, "R h and h before the step differ"
                x = ("x", s, n) if l == 0 else vec[(l - 1, n)]  # W_l times layer l-1's vector
                value = ("cell", l, h_before, x)
                writes.append(((l, (s + 1) % 2, n), value))
                if l == L - 1:
                    ys[(s, n)] = value
        for key, value in writes:
            buf[key] = value
    hy = {(l, n): buf[(l, T % 2, n)] for l in range(L) for n in range(N)}
    return hy, ys


def main():
    rng = random.Random(7)
    for trial in range(3000):
        L = rng.randint(2, 4)
        T = rng.randint(1, 9)
        N = rng.randint(1, 5)
        lengths = [rng.choice([T, T, rng.randint(0, T)]) for _ in range(N)]
        want = reference(L, T, lengths)
        got = wavefront(L, T, lengths)
        if got != want:
            print(f"mismatch: L {L} T {T} lengths {lengths}")
            for part, (a, b) in enumerate(zip(got, want)):
                for k in sorted(b):
                    if a.get(k) != b[k]:
                        print(" ", ["hy", "y"][part], k, "got", a.get(k), "want", b[k])
                        break
            return 1
    print("ok: 3000 random networks, the wavefront's h and y equal the layer-by-layer recurrence's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
