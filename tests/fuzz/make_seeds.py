#!/usr/bin/env python3
"""Writes the API fuzzer's seed corpus (tests/fuzz/corpus/api/): one short program per operation family
that sets valid descriptors and runs the operation, so that fuzzing starts from inputs that reach the
kernels. The byte layout follows step() in api_fuzzer.cpp: two scaling-width bytes, the operation byte,
then its arguments. Run it after changing that layout: python3 tests/fuzz/make_seeds.py"""
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE / "corpus" / "api"

FLOAT, HALF, DOUBLE = 0, 1, 2
NCHW, NHWC = 0, 1


def step(op, *args, wide=0):
    return bytes([wide, wide, op, *args])


def tensor4d(index, n, c, h, w, dtype=FLOAT, fmt=NCHW, wide=0):
    return step(1, index, fmt, dtype, n, c, h, w, wide=wide)


def filter4d(index, k, c, r, s, dtype=FLOAT):
    return step(2, index, dtype, NCHW, 4, k, c, r, s)


def conv2d(pad, stride, dilation=1, mode=1, dtype=FLOAT, groups=1, math=0):
    return step(3, 2, pad, pad, stride, stride, dilation, dilation, mode, dtype, groups, math)


def pool2d(window, pad, stride, mode=0, nan=0):
    return step(4, 2, window, window, pad, pad, stride, stride, mode, nan)


SEEDS = {
    "activation": tensor4d(0, 2, 3, 4, 4) + tensor4d(1, 2, 3, 4, 4) + step(5, 1, 0, 0) + step(9, 0, 1, 1)
    + step(9, 0, 1, 0),
    "softmax": tensor4d(0, 2, 5, 2, 2) + tensor4d(1, 2, 5, 2, 2) + step(10, 0, 1, 1, 1),
    "add_tensor": tensor4d(0, 1, 3, 1, 1) + tensor4d(1, 2, 3, 4, 4) + step(11, 0, 1),
    "pooling": tensor4d(0, 1, 2, 6, 6) + tensor4d(1, 1, 2, 3, 3) + pool2d(2, 0, 2) + step(12, 0, 1, 1)
    + step(12, 0, 1, 0),
    "convolution": tensor4d(0, 1, 2, 5, 5) + tensor4d(1, 1, 3, 5, 5) + filter4d(0, 3, 2, 3, 3) + conv2d(1, 1)
    + step(13, 0, 1, 0, 0, 0) + step(13, 0, 1, 0, 0, 1) + step(13, 0, 1, 0, 1, 2),
    "batch_norm": tensor4d(0, 2, 3, 2, 2) + tensor4d(1, 2, 3, 2, 2) + step(14, 0, 1, 2, 1, 1, 4, 0)
    + step(14, 0, 1, 2, 1, 1, 4, 1, 3) + step(14, 0, 1, 2, 1, 1, 4, 2, 1, 1),
    "lrn": tensor4d(0, 1, 7, 2, 2) + tensor4d(1, 1, 7, 2, 2) + step(6, 5, 11, 9, 5) + step(17, 0, 1, 1, 0)
    + step(17, 0, 1, 0, 0),
    "transform": tensor4d(0, 2, 3, 2, 2) + tensor4d(1, 2, 3, 2, 2, fmt=NHWC) + step(18, 0, 1),
    "set_scale": tensor4d(0, 2, 3, 2, 2) + step(19, 0, 1) + step(19, 0, 0),
    "op_tensor": tensor4d(0, 2, 3, 2, 2) + tensor4d(1, 1, 3, 1, 1) + tensor4d(2, 2, 3, 2, 2) + step(20, 0, FLOAT, 0)
    + step(21, 0, 1, 2),
    "reduce": tensor4d(0, 2, 3, 2, 2) + tensor4d(1, 1, 3, 1, 1) + step(22, 0, FLOAT, 0, 0, 0) + step(23, 0, 1),
    "half_nhwc_batch_norm": tensor4d(0, 2, 8, 2, 2, HALF, NHWC) + tensor4d(1, 2, 8, 2, 2, HALF, NHWC)
    + step(14, 0, 1, 2, 1, 1, 4, 1, 3),
    # p 0.5 (real tag 3), states of 64 bytes, seed 7; then forward (reserve as queried) and backward.
    "dropout": tensor4d(0, 2, 3, 4, 4) + tensor4d(1, 2, 3, 4, 4) + step(26, 3, 0, 7) + step(27, 0, 1, 1, 1, 1)
    + step(27, 0, 1, 1, 0),
    # Set 2x3x4x4 float (sampler, type, nbDims, dims), then grid forward/backward, sampler forward/backward.
    "spatial_tf": tensor4d(0, 2, 3, 5, 5) + tensor4d(1, 2, 3, 4, 4) + step(28, 0, 0, FLOAT, 4, 2, 3, 4, 4)
    + step(28, 1) + step(28, 2) + step(28, 3, 0, 1) + step(28, 4, 0, 1),
    # LRN n 5, alpha 1e-4, beta 0.75, k 2; forward with means, out of place; backward with dMeans.
    "divisive_norm": tensor4d(0, 2, 3, 5, 5) + tensor4d(1, 2, 3, 5, 5) + step(6, 5, 11, 9, 5)
    + step(29, 0, 1, 0, 1, 1, 1) + step(29, 0, 1, 0, 1, 0, 1),
    "double_convolution": tensor4d(0, 1, 2, 4, 4, DOUBLE, wide=1) + tensor4d(1, 1, 2, 4, 4, DOUBLE, wide=1)
    + filter4d(0, 2, 2, 3, 3, DOUBLE) + conv2d(1, 1, dtype=DOUBLE) + step(13, 0, 1, 0, 0, 0, wide=1),
}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in SEEDS.items():
        (OUT / name).write_bytes(data)
    print(f"wrote {len(SEEDS)} seeds to {OUT}")


if __name__ == "__main__":
    main()
