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


def i(value):
    """The byte Bytes::integer() reads as `value` (0 to 39)."""
    assert 0 <= value < 40
    return value if value <= 8 else 200 + value


def tensor3d(index, d0, d1, d2, dtype=FLOAT):
    """A packed 3-d tensor through cudnnSetTensorNdDescriptor (step 0)."""
    return step(0, index, dtype, 3, i(d0), i(d1), i(d2), i(d1 * d2), i(d2), 1)


LSTM, GRU = 2, 3


def rnn_v8(cell, bias, bidirectional, skip_input, input_size, hidden, proj, layers, padded=1):
    """cudnnSetRNNDescriptor_v8 (step 32, what 0): STANDARD, float data and math, no dropout."""
    return step(32, 0, 0, cell, bias, bidirectional, skip_input, FLOAT, FLOAT, 0, i(input_size), i(hidden), i(proj),
                i(layers), 0, padded)


def rnn_data(index, layout, max_seq, lengths, vector, dtype=FLOAT):
    """cudnnSetRNNDataDescriptor (step 33): each length tag keeps the last length (0) or takes one off (130)."""
    tags, last = [], max_seq
    for length in lengths:
        assert length in (last, last - 1)
        tags.append(0 if length == last else 130)
        last = length
    return step(33, index, dtype, layout, i(max_seq), i(len(lengths)), i(vector), *tags, 1)


def rnn_steps(index, batches, width, dtype=FLOAT):
    """The legacy step descriptors (step 36): {batch_t, width, 1} for each t."""
    tags, last = [], batches[0]
    for batch in batches:
        assert batch in (last, last - 1)
        tags.append(0 if batch == last else 130)
        last = batch
    return step(36, index, len(batches) - 1, dtype, i(width), i(batches[0]), *tags)


CONST_PACK, VARIANT_PACK, PLAN = 0, 1, 2
CONV_BNSTATS, WGRAD, BN_FINALIZE_TRAINING, BN_FINALIZE_INFERENCE, CONV_SCALE_BIAS_ADD_ACT = 0, 1, 2, 3, 4


def fused_objects(slot, ops):
    """A constant pack, a plan and a variant pack for `ops` in `slot` (step 48)."""
    return step(48, CONST_PACK, slot, ops) + step(48, PLAN, slot, ops) + step(48, VARIANT_PACK, slot, ops)


def fused_recipe(slot, optional, x_or_params, y_or_eq, eq_or_stats, stats_or_source, derive, sixteen=0, f=0):
    """Step 53: the pack in `slot` set up for its fusion from tensors 0-3 and filter f."""
    return step(53, slot, optional, sixteen, derive, x_or_params, y_or_eq, eq_or_stats, stats_or_source, f)


def fused_execute(slot, fault=0, seed=1, space=0, faulty=None, count=0, factor=3, epsilon=4):
    """Step 54: plan and variant pack of `slot`; count tag 0-223 gives 1 + tag % 64; reals by tag (3: 0.5,
    4: 1e-5)."""
    extra = [] if faulty is None else [faulty]
    return step(54, slot, slot, fault, seed, space, 0, *extra, count, factor, epsilon)


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
    # LSTM with the recurrent projection (input 3, hidden 4, proj 3, 2 layers), x and y 3 steps x 2 sequences
    # (lengths 3, 2; padding fill given); hx, cx {2, 2, 3} / {2, 2, 4}. Weight params of layer 1's
    # projection, inference with every state, then training, backward data and backward weights (ADD).
    "rnn_v8_lstm_projection": rnn_v8(LSTM, 2, 0, 0, 3, 4, 3, 2) + rnn_data(0, 0, 3, [3, 2], 3)
    + rnn_data(1, 0, 3, [3, 2], 3) + tensor3d(2, 2, 2, 3) + tensor3d(3, 2, 2, 4) + step(34, 1, 0, 1, 8, 0, 1)
    + step(35, 0, 0, 2, 3, 0x0F, 1) + step(35, 1, 2, 3, 0xFF, 1, 0),
    # A bidirectional GRU with skip input and the input bias only (input = hidden = 4), packed layout.
    "rnn_v8_gru_bidirectional": rnn_v8(GRU, 1, 1, 1, 4, 4, 4, 1) + rnn_data(0, 1, 3, [3, 2], 4)
    + rnn_data(1, 1, 3, [3, 2], 8) + tensor3d(2, 2, 2, 4) + step(34, 0, 0, 0, 3, 0, 1)
    + step(35, 1, 2, 2, 0x55, 1, 1),
    # The legacy API: a v6 LSTM (hidden 4, 1 layer), steps x {2,3,1} {2,3,1} {1,3,1} and y of width 4, w a
    # {36, 4, 1} filter (144 floats: cudnnGetRNNParamsSize); the sizes and a LinLayer matrix, inference,
    # then training, backward data and backward weights.
    "rnn_legacy_lstm": step(32, 1, i(4), 1, 0, 0, 0, LSTM, 0, FLOAT) + rnn_steps(0, [2, 2, 1], 3)
    + rnn_steps(1, [2, 2, 1], 4) + tensor3d(2, 1, 2, 4) + tensor3d(3, 1, 2, 4)
    + step(2, 0, FLOAT, NCHW, 3, i(36), 4, 1) + step(37, 2, FLOAT, 0, 0, 5, 1) + step(38, 2, 0, 0, 2, 3, 0x0F)
    + step(38, 2, 1, 0, 2, 3, 0xFF),
    # The Ex calls on the same network with RNN data descriptors (3 steps, lengths 3, 2).
    "rnn_legacy_ex": step(32, 1, i(4), 1, 0, 0, 0, LSTM, 0, FLOAT) + rnn_data(0, 0, 3, [3, 2], 3)
    + rnn_data(1, 0, 3, [3, 2], 4) + tensor3d(2, 1, 2, 4) + tensor3d(3, 1, 2, 4)
    + step(2, 0, FLOAT, NCHW, 3, i(36), 4, 1) + step(39, 0, 0, 2, 3, 0x0F, 1) + step(39, 1, 0, 2, 3, 0xFF, 1),
    # CTC loss over probs [5, 2, 4] (softmax normalisation): labels {1, 2} and {2, 2}, every input length 5,
    # with gradients; the host-array call.
    "ctc_loss": tensor3d(0, 5, 2, 4) + tensor3d(1, 5, 2, 4) + step(40, FLOAT, 1, 1, 0)
    + step(41, 0, 1, 2, 1, 2, 1, 0, 1, 1, 1, 0, 0, 1),
    # The same through cudnnCTCLoss_v8, the descriptor's maxLabelLength 4.
    "ctc_loss_v8": tensor3d(0, 5, 2, 4) + tensor3d(1, 5, 2, 4) + step(40, FLOAT, 2, 1, 0, 4)
    + step(41, 0, 1, 2, 1, 2, 1, 0, 1, 1, 1, 0, 1, 1),
    # CONV_BNSTATS: x 2x4x5x5, y 2x8x5x5, w 8x4x3x3, pad 1, ReLU; eqScale/eqBias and ySum/ySqSum descriptors
    # derived (tensors 2, 3), every optional part on. Made, then run with the workspace the plan asks for,
    # with one byte less (refused) and with x one byte off its alignment (refused).
    "fused_conv_bnstats": tensor4d(0, 2, 4, 5, 5) + tensor4d(1, 2, 8, 5, 5) + filter4d(0, 8, 4, 3, 3) + conv2d(1, 1)
    + step(5, 1, 0, 0) + fused_objects(0, CONV_BNSTATS) + fused_recipe(0, 0x1F, 0, 1, 2, 3, 3) + step(52, 0, 0, 0)
    + fused_execute(0) + fused_execute(0, space=193) + fused_execute(0, fault=226, faulty=0),
    # CONV_BNSTATS as frameworks drive it: half NHWC x, w and y (2x8x4x4, w 8x8x3x3), float per-channel
    # descriptors derived from x and y, 16-byte placeholders.
    "fused_conv_bnstats_half_nhwc": tensor4d(0, 2, 8, 4, 4, HALF, NHWC) + tensor4d(1, 2, 8, 4, 4, HALF, NHWC)
    + step(2, 0, HALF, NHWC, 4, 8, 8, 3, 3) + conv2d(1, 1) + step(5, 1, 0, 0) + fused_objects(0, CONV_BNSTATS)
    + fused_recipe(0, 0x1F, 0, 1, 2, 3, 3, sixteen=0xFF) + step(52, 0, 0, 0) + fused_execute(0),
    # WGRAD on the same shapes (dy 2x8x5x5, dw 8x4x3x3): scale, bias and ReLU, 16-byte placeholders.
    "fused_wgrad": tensor4d(0, 2, 4, 5, 5) + tensor4d(1, 2, 8, 5, 5) + filter4d(1, 8, 4, 3, 3) + conv2d(1, 1)
    + step(5, 1, 0, 0) + fused_objects(1, WGRAD) + fused_recipe(1, 0x13, 0, 1, 2, 3, 1, sixteen=0xFF, f=1)
    + step(52, 1, 1, 0) + fused_execute(1),
    # The finalizations over 4 channels: parameters, eqScale/eqBias and the sums derived from x 2x4x5x5
    # (tensors 1-3 from 0), SPATIAL; training with saved and running statistics (M = 50, factor 0.5).
    "fused_bn_finalize_training": tensor4d(0, 2, 4, 5, 5) + fused_objects(0, BN_FINALIZE_TRAINING)
    + fused_recipe(0, 0x0F, 1, 2, 3, 0, 7) + step(52, 0, 0, 0) + fused_execute(0, count=49),
    "fused_bn_finalize_inference": tensor4d(0, 2, 4, 5, 5) + fused_objects(1, BN_FINALIZE_INFERENCE)
    + fused_recipe(1, 0, 1, 2, 3, 0, 7) + step(52, 1, 1, 0) + fused_execute(1),
    # CONV_BNSTATS label by label (step 49: x, its placeholder 16-byte aligned, the convolution, w, y and their
    # placeholders), read back (step 50), a variant scalar set and read (step 51), made and run; then a
    # reserved fusion, which the plan refuses.
    "fused_by_label": tensor4d(0, 1, 2, 5, 5) + tensor4d(1, 1, 3, 5, 5) + filter4d(0, 3, 2, 3, 3) + conv2d(1, 1)
    + fused_objects(0, CONV_BNSTATS) + step(49, 0, 0, 0) + step(49, 0, 1, 2) + step(49, 0, 7, 0) + step(49, 0, 8, 0)
    + step(49, 0, 9, 1) + step(49, 0, 12, 1) + step(49, 0, 13, 1) + step(50, 0, 0, 0) + step(50, 0, 2, 0)
    + step(50, 0, 13, 0) + step(51, 0, 161, 0, 5) + step(51, 0, 161, 1) + step(52, 0, 0, 0) + fused_execute(0)
    + fused_objects(1, CONV_SCALE_BIAS_ADD_ACT) + fused_recipe(1, 0, 0, 1, 2, 3, 0) + step(52, 1, 1, 0),
    # Buffers off their alignment (step 55: the next step's buffers 1, 2, 4 or 8 bytes off): a double divisive
    # normalisation 4 bytes off (refused: x), a half GEMM convolution 2 bytes off (data aligned for half, the
    # workspace not: refused), then the same convolution aligned.
    "misaligned_buffers": tensor4d(0, 1, 3, 2, 2, DOUBLE, wide=1) + tensor4d(1, 1, 3, 2, 2, DOUBLE, wide=1)
    + step(6, 5, 11, 9, 5) + step(55, 2) + step(29, 0, 1, 0, 1, 1, 1, wide=1) + tensor4d(0, 1, 2, 4, 4, HALF)
    + tensor4d(1, 1, 2, 4, 4, HALF) + filter4d(0, 2, 2, 3, 3, HALF) + conv2d(1, 1) + step(55, 1)
    + step(13, 0, 1, 0, 2, 0) + step(13, 0, 1, 0, 2, 0),
    # cudnnConvolutionBiasActivationForward (x 1x2x5x5, y 1x3x5x5 also z, bias 1x3x1x1, ReLU, IMPLICIT_PRECOMP_GEMM,
    # alpha2 1); then the bias gradient, cudnnIm2Col, cudnnReorderFilterAndBias and the folded descriptors.
    "conv_bias_activation_and_others": tensor4d(0, 1, 2, 5, 5) + tensor4d(1, 1, 3, 5, 5) + tensor4d(3, 1, 3, 1, 1)
    + filter4d(0, 3, 2, 3, 3) + conv2d(1, 1) + step(5, 1, 0, 0) + step(42, 0, 1, 1, 3, 0, 1, 1, 1)
    + step(43, 0, 1, 3) + step(43, 1, 0, 0) + step(43, 2, 0, 0, 1) + step(43, 3, 0, 1, 0, 0),
    # Find and FindEx: forward Ex (a 1 KiB workspace), backward data allocating, backward filter Ex.
    "conv_find": tensor4d(0, 1, 2, 5, 5) + tensor4d(1, 1, 3, 5, 5) + filter4d(0, 3, 2, 3, 3) + conv2d(1, 1)
    + step(44, 0, 1, 0, 0, 9, 1, 64) + step(44, 0, 1, 0, 1, 6, 0, 0) + step(44, 0, 1, 0, 2, 7, 1, 200),
    # The Ex batch norm with BN_ADD_ACTIVATION (ReLU; x, y, z 2x3x2x2, parameters derived SPATIAL; epsilon 1e-5,
    # factor 0.5): training, backward; then the normalization API, PER_CHANNEL: inference, training, backward.
    "batch_norm_ex_and_normalization": tensor4d(0, 2, 3, 2, 2) + tensor4d(1, 2, 3, 2, 2) + tensor4d(2, 2, 3, 2, 2)
    + step(5, 1, 0, 0) + step(45, 0, 1, 2, 3, 0, 1, 1, 4, 3, 2, 0, 0) + step(45, 0, 1, 2, 3, 1, 1, 1, 4, 3, 2, 0, 0)
    + step(45, 0, 1, 2, 3, 2, 1, 1, 4, 3, 0, 0, 0) + step(45, 0, 1, 2, 3, 3, 1, 1, 4, 3, 0, 0, 0)
    + step(45, 0, 1, 2, 3, 4, 1, 1, 4, 3, 0, 0, 0),
    # A transform descriptor (4 dims, no padding, fold 1, to NHWC): the destination's size, cudnnTransformTensorEx
    # NCHW -> NHWC (2x3x2x2), cudnnTransformFilter KCRS -> KRSC (3x2x3x3).
    "transform_ex": tensor4d(0, 2, 3, 2, 2) + tensor4d(2, 2, 3, 2, 2, fmt=NHWC) + filter4d(0, 3, 2, 3, 3)
    + step(2, 1, FLOAT, NHWC, 4, 3, 2, 3, 3) + step(46, 4, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, NHWC, 0, 0, 0, 2)
    + step(46, 4, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, NHWC, 0, 1, 0, 2)
    + step(46, 4, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, NHWC, 0, 2, 0, 1),
}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in SEEDS.items():
        (OUT / name).write_bytes(data)
    print(f"wrote {len(SEEDS)} seeds to {OUT}")


if __name__ == "__main__":
    main()
