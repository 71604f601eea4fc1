#!/usr/bin/env python3
# Control-flow model of the strips kernels (rows only): old (main) against new (patch), every strip start,
# row count and input height that can occur. Folds record (input row, tap row); stores record what they used.
kStrip = 8

def fwd_old(srow, out_h, in_h):
    rows = min(kStrip, out_h - srow)
    acc = {0: [], 1: []}
    out = []
    acc[0] = []
    if srow > 0:
        acc[0].append(2 * srow - 1)
    for k in range(kStrip):
        if k >= rows: break
        oh = srow + k; slot = k & 1
        acc[slot].append(2 * oh)
        if k + 1 < rows: acc[slot ^ 1] = []
        if 2 * oh + 1 < in_h:
            acc[slot].append(2 * oh + 1)
            if k + 1 < rows: acc[slot ^ 1].append(2 * oh + 1)
        out.append((oh, tuple(acc[slot])))
    return out

def fwd_new(srow, out_h, in_h):
    rows = min(kStrip, out_h - srow)
    kRows, kAhead = 2 * kStrip + 1, 2
    row_of = lambda j: 2 * srow - 1 + j
    present = lambda j: j <= 2 * rows and 0 <= row_of(j) < in_h
    ring = [None] * 3
    for j in range(kAhead):
        if present(j): ring[j] = row_of(j)
    acc = {0: [], 1: []}
    out = []
    for j in range(kRows):
        if j > 2 * rows: break
        if j + kAhead < kRows and present(j + kAhead): ring[(j + kAhead) % 3] = row_of(j + kAhead)
        inrow = ring[j % 3]
        here = present(j)
        if here: assert inrow == row_of(j), (srow, j)
        if j == 0:
            if here: acc[0].append(inrow)
            continue
        k = (j - 1) // 2; slot = k & 1
        if j % 2 == 1:
            if here: acc[slot].append(inrow)
            if k + 1 < rows: acc[slot ^ 1] = []
            continue
        if here:
            acc[slot].append(inrow)
            if k + 1 < rows: acc[slot ^ 1].append(inrow)
        out.append((srow + k, tuple(acc[slot])))
    return out

def bwd_old(srow, out_h, in_h):
    rows = min(kStrip, out_h - srow)
    maxima = {0: [], 1: []}; g = {0: None, 1: None}
    writes = []
    def reset(slot): maxima[slot] = []; g[slot] = 'zero'
    reset(0)
    if srow > 0: maxima[0].append((2 * srow - 1, 0))
    for k in range(kStrip + 1):
        if k > rows: break
        oh = srow + k; slot = k & 1
        if oh < out_h:
            maxima[slot].append((2 * oh, 1))
            if 2 * oh + 1 < in_h: maxima[slot].append((2 * oh + 1, 2))
            g[slot] = ('dy', oh)
            masked = False
        else:
            masked = True
            maxima[slot] = maxima[slot] + ['masked']
        if k > 0:
            writes.append((oh - 1, tuple(maxima[slot ^ 1]), g[slot ^ 1], tuple(maxima[slot]), g[slot] if not masked else 'masked'))
        if k < rows:
            reset(slot ^ 1)
            if 2 * oh + 1 < in_h: maxima[slot ^ 1].append((2 * oh + 1, 0))
    return writes

def bwd_new(srow, out_h, in_h):
    rows = min(kStrip, out_h - srow)
    kRows, kAhead = 2 * kStrip + 3, 2
    row_of = lambda j: 2 * srow - 1 + j
    present = lambda j: j <= 2 * rows + 2 and 0 <= row_of(j) < in_h
    ring = [None] * 3
    maxima = {0: [], 1: []}; g = {0: 'zero', 1: 'zero'}
    writes = []
    def reset(slot): maxima[slot] = []
    def fetch_dy(k):
        if k <= rows and srow + k < out_h: g[k & 1] = ('dy', srow + k)
    for j in range(kAhead):
        if present(j): ring[j] = row_of(j)
    fetch_dy(0)
    reset(0)
    for j in range(kRows):
        if j > 2 * rows + 2: break
        if j + kAhead < kRows and present(j + kAhead): ring[(j + kAhead) % 3] = row_of(j + kAhead)
        inrow = ring[j % 3]; here = present(j)
        if here: assert inrow == row_of(j)
        if j == 0:
            if here: maxima[0].append((inrow, 0))
            continue
        k = (j - 1) // 2; slot = k & 1; oh = srow + k
        if j % 2 == 1:
            if here: maxima[slot].append((inrow, 1))
            continue
        if here: maxima[slot].append((inrow, 2))
        masked = oh >= out_h
        if masked: maxima[slot] = maxima[slot] + ['masked']
        if k > 0:
            writes.append((oh - 1, tuple(maxima[slot ^ 1]), g[slot ^ 1], tuple(maxima[slot]), g[slot] if not masked else 'masked'))
        fetch_dy(k + 1)
        if k < rows:
            reset(slot ^ 1)
            if here: maxima[slot ^ 1].append((inrow, 0))
    return writes

bad = 0; cases = 0
for in_h in range(1, 60):
    out_h = (in_h - 1) // 2 + 1
    for srow in range(0, out_h, kStrip):
        cases += 1
        a, b = fwd_old(srow, out_h, in_h), fwd_new(srow, out_h, in_h)
        if a != b:
            bad += 1; print('fwd', in_h, srow, a, b); break
        a, b = bwd_old(srow, out_h, in_h), bwd_new(srow, out_h, in_h)
        if a != b:
            bad += 1; print('bwd', in_h, srow); print(a); print(b); break
    if bad: break
print(cases, 'cases,', bad, 'mismatches')
