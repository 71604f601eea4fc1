// The dropout kernels (dropout.hpp).
#include "cuda/dropout/dropout.hpp"

#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/common/strided_layout.hpp"
#include "descriptors/dropout.hpp"

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;

struct DropoutArgs {
    DeviceLayout in_layout, out_layout;  // each tensor over its own dims, row-major positions kept
    int in_flat, out_flat;               // position p sits at offset p
    int64_t count;
    ScalarType type;
    int forward;
    uint64_t threshold;
    double scale;
    const void *in;
    void *out;
    uint8_t *mask;
    const DropoutState *states;
};

template <class C>
__global__ void __launch_bounds__(kBlock) dropout_kernel(const __grid_constant__ DropoutArgs a) {
    uint32_t key[2] = {0, 0};
    uint64_t call = 0;
    if (a.forward) {
        key[0] = a.states->key[0];
        key[1] = a.states->key[1];
        call = a.states->calls;
    }
    const C scale = static_cast<C>(a.scale);
    const int64_t groups = (a.count + 3) / 4;
    for (int64_t g = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; g < groups;
         g += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        Philox4x32 words{};
        if (a.forward) words = dropout_words(key, call, static_cast<uint64_t>(g));
#pragma unroll
        for (int lane = 0; lane < 4; ++lane) {
            const int64_t e = g * 4 + lane;
            if (e >= a.count) break;
            bool kept;
            if (a.forward) {
                kept = words.word[lane] >= a.threshold;
                a.mask[e] = kept ? 1 : 0;
            } else {
                kept = a.mask[e] != 0;
            }
            const int64_t from = a.in_flat ? e : offset_of(a.in_layout, 0, e);
            const int64_t to = a.out_flat ? e : offset_of(a.out_layout, 0, e);
            store_as<C>(a.out, a.type, to, kept ? load_as<C>(a.in, a.type, from) * scale : C(0));
        }
    }
}

// Counts the call, after every block of the dropout kernel has read the call number.
__global__ void count_dropout_call(DropoutState *states) { states->calls += 1; }

// One tensor's positions in row-major order of its own dims.
StridedLayout layout_of(const TensorGeometry &g) {
    StridedLayout layout;
    layout.operands = 1;
    layout.rank = g.nb_dims;
    for (int i = 0; i < g.nb_dims; ++i) {
        layout.extents[i] = g.dims[i];
        layout.strides[0][i] = g.strides[i];
    }
    layout.drop_unit_dims();
    layout.coalesce();
    return layout;
}

}  // namespace

const char *dropout_unsupported_reason(const DropoutProblem &p) {
    ScalarType type;
    if (!scalar_type_of(p.in.dtype, &type) || !is_floating(type))
        return "the CUDA kernels take float, double, half and bfloat16";
    return nullptr;
}

Status dropout(cudaStream_t stream, const DropoutProblem &p, const DropoutBuffers &b) {
    if (const char *reason = dropout_unsupported_reason(p)) return fail(CUDNN_STATUS_NOT_SUPPORTED, "%s", reason);
    const StridedLayout in_layout = layout_of(p.in), out_layout = layout_of(p.out);
    DropoutArgs a{};
    a.in_layout = to_device_layout(in_layout);
    a.out_layout = to_device_layout(out_layout);
    a.in_flat = in_layout.is_row_major(0);
    a.out_flat = out_layout.is_row_major(0);
    a.count = p.in.element_count();
    scalar_type_of(p.in.dtype, &a.type);
    a.forward = p.direction == Direction::forward;
    a.threshold = dropout_threshold(p.probability);
    a.scale = p.in.dtype == CUDNN_DATA_DOUBLE ? dropout_scale_double(p.probability)
                                              : static_cast<double>(dropout_scale_float(p.probability));
    a.in = b.in;
    a.out = b.out;
    a.mask = static_cast<uint8_t *>(b.reserve);
    a.states = static_cast<const DropoutState *>(b.states);
    if (a.count > 0) {
        const int grid = grid_size((a.count + 3) / 4, kBlock, kBlock, 4);
        if (p.in.dtype == CUDNN_DATA_DOUBLE) {
            dropout_kernel<double><<<grid, kBlock, 0, stream>>>(a);
        } else {
            dropout_kernel<float><<<grid, kBlock, 0, stream>>>(a);
        }
        LIBREDNN_CHECK(check_launch("dropout_kernel"));
    }
    if (a.forward) {
        count_dropout_call<<<1, 1, 0, stream>>>(static_cast<DropoutState *>(b.states));
        LIBREDNN_CHECK(check_launch("count_dropout_call"));
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::cuda
