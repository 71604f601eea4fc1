// Softmax planning and the general softmax kernels. A softmax "row" is the set of elements one softmax
// runs over (C*H*W of an image, or the C channels of a pixel); the other dims form the batch of rows.
// run_softmax reshapes both, then tries the kernels for particular layouts (softmax_kernels.hpp: the
// cluster kernel for long contiguous rows, the channel-tile kernel for CHANNEL on NCHW) before these:
//  - row kernel: rows contiguous in memory (INSTANCE on packed NCHW or NHWC, CHANNEL on NHWC): a warp
//    (rows up to 1024) or a block per row. Pass 1 reads the row once (16-byte loads when aligned) into
//    shared memory while keeping a running max and rescaled sum; pass 2 writes the output from shared
//    memory. Rows too long for shared memory are read twice (the second read mostly hits L2).
//  - column kernel: a thread per row, consecutive threads on neighbouring rows, any strides.
#include "cuda/common/launch_util.hpp"
#include "cuda/softmax/softmax.hpp"
#include "cuda/softmax/softmax_kernels.hpp"
#include "cuda/softmax/softmax_math.cuh"

#include <algorithm>

namespace librednn::cuda {

namespace {

constexpr int kWarpRowsBlock = 256;  // warp-per-row launches: 8 rows per block
constexpr int kColumnBlock = 256;
constexpr int kMaxRowBlock = 1024;

template <class C>
struct SoftmaxArgs : SoftmaxScalars<C> {
    const void *inputs[2];  // forward: x; backward: y, dy
    void *output;           // forward: y; backward: dx
    int64_t rows;
    int64_t length;
    int64_t row_pad;      // elements per cached row (a whole number of 16-byte vectors)
    int threads_per_row;  // 32, or the whole block
    int cached_inputs;    // how many inputs pass 1 keeps in shared memory for pass 2
    int vectorized;
    DeviceLayout batch;  // operand 0: output, 1: input 0, 2: input 1
    DeviceLayout row;    // same operands; the row kernel needs stride 1 for all
};

template <class T, class C>
__global__ void __launch_bounds__(kMaxRowBlock) softmax_row_kernel(const __grid_constant__ SoftmaxArgs<C> a) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    __shared__ RowStats<C> warp_stats[kMaxRowBlock / 32];
    constexpr int kLanes = Vector16<T>::kLanes;
    const int per_row = a.threads_per_row;
    const int groups = blockDim.x / per_row;
    const int group = threadIdx.x / per_row;
    const int lane = threadIdx.x % per_row;
    // Each thread caches exactly the elements it reads, so pass 2 needs no barrier to find them.
    T *cache0 = reinterpret_cast<T *>(shared_bytes) + static_cast<int64_t>(group) * a.cached_inputs * a.row_pad;
    T *cache1 = cache0 + a.row_pad;
    const bool cache_first = a.cached_inputs >= 1, cache_second = a.cached_inputs >= 2;
    const int algorithm = a.algorithm;
    const int backward = a.backward;

    // A block per row: the same trip count for the whole block (it syncs); a warp per row: per warp.
    for (int64_t row = static_cast<int64_t>(blockIdx.x) * groups + group; row < a.rows;
         row += static_cast<int64_t>(gridDim.x) * groups) {
        int64_t at[3];
        offsets_of(a.batch, row, at);
        T *out = static_cast<T *>(a.output) + at[0];
        const T *in0 = static_cast<const T *>(a.inputs[0]) + at[1];
        const T *in1 = backward ? static_cast<const T *>(a.inputs[1]) + at[2] : nullptr;

        RowStats<C> stats = {-C(INFINITY), C(0)};
        if (a.vectorized) {
            const int64_t vectors = a.length / kLanes;
#pragma unroll 4
            for (int64_t v = lane; v < vectors; v += per_row) {
                const Vector16<T> x0 = reinterpret_cast<const Vector16<T> *>(in0)[v];
                if (cache_first) reinterpret_cast<Vector16<T> *>(cache0)[v] = x0;
                if (!backward) {
#pragma unroll
                    for (int j = 0; j < kLanes; ++j) add_forward(stats, to_compute<C>(x0.lane[j]), algorithm);
                } else {
                    const Vector16<T> x1 = reinterpret_cast<const Vector16<T> *>(in1)[v];
                    if (cache_second) reinterpret_cast<Vector16<T> *>(cache1)[v] = x1;
#pragma unroll
                    for (int j = 0; j < kLanes; ++j) {
                        stats.sum += backward_term(to_compute<C>(x0.lane[j]), to_compute<C>(x1.lane[j]), algorithm);
                    }
                }
            }
        } else {
#pragma unroll 4
            for (int64_t i = lane; i < a.length; i += per_row) {
                const T x0 = in0[i];
                if (cache_first) cache0[i] = x0;
                if (!backward) {
                    add_forward(stats, to_compute<C>(x0), algorithm);
                } else {
                    const T x1 = in1[i];
                    if (cache_second) cache1[i] = x1;
                    stats.sum += backward_term(to_compute<C>(x0), to_compute<C>(x1), algorithm);
                }
            }
        }

        stats = warp_combine(stats, algorithm, backward);
        if (per_row > 32) {
            if (lane % 32 == 0) warp_stats[lane / 32] = stats;
            __syncthreads();
            stats = warp_stats[0];
            for (int w = 1; w < per_row / 32; ++w) combine_stats(stats, warp_stats[w], algorithm, backward);
            __syncthreads();  // warp_stats is reused by the next row
        }
        const RowConstants<C> k = row_constants(stats, algorithm);

        if (a.vectorized) {
            const int64_t vectors = a.length / kLanes;
            for (int64_t v = lane; v < vectors; v += per_row) {
                const Vector16<T> x0 = cache_first ? reinterpret_cast<const Vector16<T> *>(cache0)[v]
                                                   : reinterpret_cast<const Vector16<T> *>(in0)[v];
                Vector16<T> x1;
                if (backward) {
                    x1 = cache_second ? reinterpret_cast<const Vector16<T> *>(cache1)[v]
                                      : reinterpret_cast<const Vector16<T> *>(in1)[v];
                }
                Vector16<T> old;
                if (a.blend) old = reinterpret_cast<const Vector16<T> *>(out)[v];
                Vector16<T> result;
#pragma unroll
                for (int j = 0; j < kLanes; ++j) {
                    C value = backward
                                  ? backward_value(to_compute<C>(x0.lane[j]), to_compute<C>(x1.lane[j]), k, algorithm)
                                  : forward_value(to_compute<C>(x0.lane[j]), k, algorithm);
                    value *= a.alpha;
                    if (a.blend) value += a.beta * to_compute<C>(old.lane[j]);
                    result.lane[j] = from_compute<T>(value);
                }
                reinterpret_cast<Vector16<T> *>(out)[v] = result;
            }
        } else {
            for (int64_t i = lane; i < a.length; i += per_row) {
                const C x0 = to_compute<C>(cache_first ? cache0[i] : in0[i]);
                C value;
                if (backward) {
                    const C x1 = to_compute<C>(cache_second ? cache1[i] : in1[i]);
                    value = backward_value(x0, x1, k, algorithm);
                } else {
                    value = forward_value(x0, k, algorithm);
                }
                value *= a.alpha;
                if (a.blend) value += a.beta * to_compute<C>(out[i]);
                out[i] = from_compute<T>(value);
            }
        }
    }
}

template <class T, class C>
__global__ void __launch_bounds__(kColumnBlock) softmax_column_kernel(const __grid_constant__ SoftmaxArgs<C> a) {
    const int64_t threads = static_cast<int64_t>(gridDim.x) * blockDim.x;
    const int algorithm = a.algorithm;
    const int backward = a.backward;
    for (int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; row < a.rows; row += threads) {
        int64_t at[3];
        offsets_of(a.batch, row, at);
        T *out = static_cast<T *>(a.output) + at[0];
        const T *in0 = static_cast<const T *>(a.inputs[0]) + at[1];
        const T *in1 = backward ? static_cast<const T *>(a.inputs[1]) + at[2] : nullptr;
        RowStats<C> stats = {-C(INFINITY), C(0)};
        for (int64_t i = 0; i < a.length; ++i) {
            int64_t e[3];
            offsets_of(a.row, i, e);
            if (!backward) {
                add_forward(stats, to_compute<C>(in0[e[1]]), algorithm);
            } else {
                stats.sum += backward_term(to_compute<C>(in0[e[1]]), to_compute<C>(in1[e[2]]), algorithm);
            }
        }
        const RowConstants<C> k = row_constants(stats, algorithm);
        for (int64_t i = 0; i < a.length; ++i) {
            int64_t e[3];
            offsets_of(a.row, i, e);
            C value = backward ? backward_value(to_compute<C>(in0[e[1]]), to_compute<C>(in1[e[2]]), k, algorithm)
                               : forward_value(to_compute<C>(in0[e[1]]), k, algorithm);
            value *= a.alpha;
            if (a.blend) value += a.beta * to_compute<C>(out[e[0]]);
            out[e[0]] = from_compute<T>(value);
        }
    }
}

// --- planning ---------------------------------------------------------------------------------------

struct SoftmaxCall {
    cudnnSoftmaxAlgorithm_t algorithm;
    cudnnSoftmaxMode_t mode;
    bool backward;
    double alpha, beta;
    TensorGeometry output;
    void *output_data;
    TensorGeometry inputs[2];
    const void *input_data[2];
};

template <class T, class C>
Status launch_softmax_typed(cudaStream_t stream, const SoftmaxCall &call, const StridedLayout &batch,
                            const StridedLayout &row) {
    constexpr int64_t kLanes = Vector16<T>::kLanes;
    SoftmaxArgs<C> args{};
    args.inputs[0] = call.input_data[0];
    args.inputs[1] = call.backward ? call.input_data[1] : nullptr;
    args.output = call.output_data;
    args.rows = batch.element_count();
    args.length = row.element_count();
    static_cast<SoftmaxScalars<C> &>(args) = softmax_scalars<C>(call.algorithm, call.backward, call.alpha, call.beta);
    args.batch = to_device_layout(batch);
    args.row = to_device_layout(row);
    const int operands = call.backward ? 3 : 2;

    bool contiguous_rows = row.rank == 1 && args.length >= 32;
    for (int k = 0; k < operands && contiguous_rows; ++k) contiguous_rows = row.strides[k][0] == 1;
    const DeviceLimits limits = current_device_limits();
    if (!contiguous_rows) {
        const int grid = grid_size(args.rows, kColumnBlock, kColumnBlock);
        softmax_column_kernel<T, C><<<grid, kColumnBlock, 0, stream>>>(args);
        return check_launch("softmax_column_kernel");
    }

    int block = kWarpRowsBlock;
    args.threads_per_row = 32;
    if (args.length > 1024) {
        block = args.length <= 4096 ? 256 : args.length <= 16384 ? 512 : kMaxRowBlock;
        args.threads_per_row = block;
    }
    bool vectorized = args.length % kLanes == 0;
    for (int k = 0; k < operands; ++k) {
        vectorized = vectorized && (reinterpret_cast<uintptr_t>(k == 0 ? args.output : args.inputs[k - 1]) & 15u) == 0;
        for (int d = 0; d < batch.rank; ++d) vectorized = vectorized && batch.strides[k][d] % kLanes == 0;
    }
    args.vectorized = vectorized ? 1 : 0;
    args.row_pad = (args.length + kLanes - 1) / kLanes * kLanes;
    const int groups = block / args.threads_per_row;
    const int64_t bytes_per_input = int64_t{groups} * args.row_pad * static_cast<int64_t>(sizeof(T));
    const int64_t shared_budget =
        limits.max_dynamic_shared_bytes - static_cast<int64_t>(sizeof(RowStats<C>)) * 32 - 1024;
    const int inputs = call.backward ? 2 : 1;
    args.cached_inputs = 0;
    while (args.cached_inputs < inputs && (args.cached_inputs + 1) * bytes_per_input <= shared_budget)
        ++args.cached_inputs;
    const size_t shared = static_cast<size_t>(args.cached_inputs * bytes_per_input);
    // The opt-in counts the kernel's static shared memory too (a double backward row of 3072 elements
    // caches exactly 48 KB, which alone failed to launch).
    static const SharedMemoryOptIn opt_in(reinterpret_cast<const void *>(softmax_row_kernel<T, C>));
    if (shared > 0 && !opt_in.allow(shared)) args.cached_inputs = 0;
    const int grid = grid_size(args.rows, groups, block);
    softmax_row_kernel<T, C><<<grid, block, args.cached_inputs ? shared : 0, stream>>>(args);
    return check_launch("softmax_row_kernel");
}

Status run_softmax(cudaStream_t stream, const SoftmaxCall &call) {
    if (call.algorithm != CUDNN_SOFTMAX_FAST && call.algorithm != CUDNN_SOFTMAX_ACCURATE &&
        call.algorithm != CUDNN_SOFTMAX_LOG) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "the CUDA softmax kernels do not handle algorithm %d",
                    static_cast<int>(call.algorithm));
    }
    if (call.mode != CUDNN_SOFTMAX_MODE_INSTANCE && call.mode != CUDNN_SOFTMAX_MODE_CHANNEL) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "the CUDA softmax kernels do not handle mode %d",
                    static_cast<int>(call.mode));
    }
    const int inputs = call.backward ? 2 : 1;
    ScalarType type;
    if (call.output.vector() != 1 || !scalar_type_of(call.output.dtype, &type) || !is_floating(type)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "the CUDA softmax kernels handle float, double, half and bfloat16, not %s",
                    data_type_short_name(call.output.dtype));
    }
    for (int k = 0; k < inputs; ++k) {
        if (call.inputs[k].dtype != call.output.dtype) {
            return fail(CUDNN_STATUS_NOT_SUPPORTED,
                        "the CUDA softmax kernels need every tensor of one type, got %s and %s",
                        data_type_short_name(call.inputs[k].dtype), data_type_short_name(call.output.dtype));
        }
        if (!same_dims(call.inputs[k], call.output)) {
            return fail(CUDNN_STATUS_BAD_PARAM, "softmax needs tensors of equal dims, got %s and %s",
                        geometry_to_string(call.inputs[k]).c_str(), geometry_to_string(call.output).c_str());
        }
    }
    // Operand 0 the output, then the inputs (forward: x twice, so that it never blocks a merge).
    const TensorGeometry *operands[3] = {&call.output, &call.inputs[0],
                                         call.backward ? &call.inputs[1] : &call.inputs[0]};
    StridedLayout batch, row;
    batch.operands = row.operands = 3;
    const int nb_dims = call.output.nb_dims;
    for (int i = 0; i < nb_dims; ++i) {
        const bool in_row = call.mode == CUDNN_SOFTMAX_MODE_INSTANCE ? i >= 1 : i == 1;
        StridedLayout &layout = in_row ? row : batch;
        const int d = layout.rank++;
        layout.extents[d] = call.output.dims[i];
        for (int k = 0; k < 3; ++k) layout.strides[k][d] = operands[k]->strides[i];
    }
    batch.drop_unit_dims();
    batch.order_by(0);
    batch.coalesce();
    row.drop_unit_dims();
    row.order_by(1);
    row.coalesce();

    SoftmaxLaunch launch;
    launch.type = type;
    launch.algorithm = call.algorithm;
    launch.backward = call.backward;
    launch.alpha = call.alpha;
    launch.beta = call.beta;
    launch.output = call.output_data;
    launch.inputs[0] = call.input_data[0];
    launch.inputs[1] = call.backward ? call.input_data[1] : call.input_data[0];
    launch.batch = batch;
    launch.row = row;
    Status status = CUDNN_STATUS_SUCCESS;
    if (batch.element_count() == 0 || row.element_count() == 0) return status;
    if (launch_softmax_cluster_rows(stream, launch, &status)) return status;
    if (launch_softmax_channel_tiles(stream, launch, &status)) return status;
    switch (type) {
        case ScalarType::f32: return launch_softmax_typed<float, float>(stream, call, batch, row);
        case ScalarType::f64: return launch_softmax_typed<double, double>(stream, call, batch, row);
        case ScalarType::f16: return launch_softmax_typed<__half, float>(stream, call, batch, row);
        case ScalarType::bf16: return launch_softmax_typed<__nv_bfloat16, float>(stream, call, batch, row);
        default: break;
    }
    return fail(CUDNN_STATUS_NOT_SUPPORTED, "the CUDA softmax kernels do not handle %s tensors",
                data_type_short_name(call.output.dtype));
}

}  // namespace

Status softmax_forward(cudaStream_t stream, cudnnSoftmaxAlgorithm_t algorithm, cudnnSoftmaxMode_t mode, double alpha,
                       const TensorGeometry &x, const void *x_data, double beta, const TensorGeometry &y,
                       void *y_data) {
    SoftmaxCall call{algorithm, mode, false, alpha, beta, y, y_data, {x, x}, {x_data, x_data}};
    return run_softmax(stream, call);
}

Status softmax_backward(cudaStream_t stream, cudnnSoftmaxAlgorithm_t algorithm, cudnnSoftmaxMode_t mode, double alpha,
                        const TensorGeometry &y, const void *y_data, const TensorGeometry &dy, const void *dy_data,
                        double beta, const TensorGeometry &dx, void *dx_data) {
    SoftmaxCall call{algorithm, mode, true, alpha, beta, dx, dx_data, {y, dy}, {y_data, dy_data}};
    return run_softmax(stream, call);
}

}  // namespace librednn::cuda
