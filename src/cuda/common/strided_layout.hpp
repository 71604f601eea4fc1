// Iteration spaces over several strided operands: the dims a kernel walks (outer to inner), each
// operand's stride per dim in scalars, and the reshaping that makes them cheap to walk (dims of extent
// 1 dropped, dims ordered by one operand's strides, contiguous neighbours merged).
#pragma once

#include "ops/common/tensor_geometry.hpp"

#include <cstdint>

namespace librednn::cuda {

// Eight cuDNN dims plus two: vectorised channels split into up to three dims.
constexpr int kMaxLayoutDims = kMaxDims + 2;
constexpr int kMaxLayoutOperands = 4;

struct StridedLayout {
    int rank = 0;
    int operands = 0;
    int64_t extents[kMaxLayoutDims] = {};
    int64_t strides[kMaxLayoutOperands][kMaxLayoutDims] = {};  // 0 where an operand broadcasts

    int64_t element_count() const;
    void drop_unit_dims();
    // Reorders the dims by decreasing stride of `operand` (stable), so its innermost dim walks fastest.
    void order_by(int operand);
    // Merges neighbours (outer i, inner i+1) wherever every operand has stride[i] == stride[i+1] * extent[i+1].
    // Keeps row-major numbering of positions, so flattened indices survive.
    void coalesce();
    // True when `operand` is packed row-major over the extents: position p sits at offset p.
    bool is_row_major(int operand) const;
};

// The layout of an element-wise operation: the output's dims, the output (operand 0) and each input
// with its scalar strides; an input dim of extent 1 where the output's is larger broadcasts (stride 0).
// Vectorised channels (INT8x4, INT8x32) split the channel dim into parts every operand walks linearly.
// False when an input dim is neither the output's nor 1, or the channels do not split into whole vectors.
bool build_elementwise_layout(const TensorGeometry &output, const TensorGeometry *inputs, int input_count,
                              StridedLayout *layout);

// Divides non-negative integers by a fixed divisor with one multiply-high, an add and a shift (the
// round-up method of Granlund and Montgomery): in 32 bits when dividend and divisor are below 2^31, in
// 64 bits (dividends below 2^63) otherwise. No division instruction sequence in the kernels.
struct FastDivisor {
    int64_t divisor = 1;
    uint64_t multiplier64 = 1;
    uint32_t multiplier32 = 1;  // valid when divisor < 2^31
    uint32_t shift = 0;         // ceil(log2(divisor))
};
FastDivisor make_fast_divisor(int64_t divisor);

// What a kernel receives: the layout with a divisor per extent.
struct DeviceLayout {
    int rank = 0;
    FastDivisor extents[kMaxLayoutDims];
    int64_t strides[kMaxLayoutOperands][kMaxLayoutDims] = {};
};
DeviceLayout to_device_layout(const StridedLayout &layout);

}  // namespace librednn::cuda
