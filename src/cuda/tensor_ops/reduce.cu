// Reduction kernels. The reduced dims and the kept dims are each walked in a's memory order (dims sorted
// by a's strides, contiguous neighbours merged); a second "operand" of each layout carries the row-major
// NCHW numbering that flattened indices and the indices array use. Two kernels:
//  - row: the reduction runs along contiguous memory (the innermost reduced dim has the smallest stride:
//    reduce over W, over C*H*W, NCHW per-channel sums): a warp or a block per output, 16-byte loads when
//    aligned;
//  - column: the kept dims run along contiguous memory (NHWC per-channel sums, reduce over N): a thread
//    per output, 8 threads splitting its reduction, consecutive threads on consecutive outputs.
// Few outputs with long reductions split the reduction over blocks (blockIdx.y) into a workspace of
// partial results, combined in split order by a finalize kernel: deterministic, no atomics.
#include "cuda/tensor_ops/device_common.cuh"
#include "cuda/tensor_ops/launch_util.hpp"
#include "cuda/tensor_ops/reduce.hpp"

#include <algorithm>
#include <climits>

namespace librednn::cuda {

namespace {

constexpr int kReduceBlock = 256;
constexpr int kColumnOutputs = 32;                            // threadIdx.x: one output each
constexpr int kColumnSlices = kReduceBlock / kColumnOutputs;  // threadIdx.y: slices of its reduction
constexpr uint32_t kNoIndex = 0xffffffffu;

template <class C>
struct ReduceAcc {
    C value;
    uint32_t index;
};

template <class C>
struct ReduceArgs {
    const void *a;
    void *c;
    uint32_t *indices;
    ReduceAcc<C> *partials;  // [split][output] when splits > 1
    ScalarType c_type;
    int64_t outputs, length, chunk;
    int splits;
    int threads_per_output;  // row kernel: 32 or the block
    int vectorized;
    int64_t inner_index_weight;  // row kernel, vectorised: flattened-index step between lanes
    // What the op does around a sum/product or a max: MIN is -max(-a); AMAX max |a|; NORM1 sum |a|;
    // NORM2 sqrt(sum a^2); AVG sum / length; MUL_NO_ZEROS multiplies zeros as ones.
    int is_mul, negate, absolute, square, zero_as_one, average, root;
    int max_kind, propagate_nan, write_indices, blend;
    C alpha, beta;
    DeviceLayout kept;     // operand 0: a, 1: c, 2: slot in the indices array
    DeviceLayout reduced;  // operand 0: a, 1: flattened index within the slice
};

template <class C, bool Max>
__device__ __forceinline__ ReduceAcc<C> identity() {
    if constexpr (Max) {
        return {-C(INFINITY), kNoIndex};
    } else {
        return {C(0), kNoIndex};  // the product's identity is set by the caller
    }
}

template <class C, bool Max>
__device__ __forceinline__ ReduceAcc<C> start(const ReduceArgs<C> &a) {
    ReduceAcc<C> acc = identity<C, Max>();
    if (!Max && a.is_mul) acc.value = C(1);
    return acc;
}

// True when (v, k) should replace (current, current_k) in a max: larger, or equal with a smaller index;
// a NaN wins with PROPAGATE_NAN and never enters otherwise.
template <class C>
__device__ __forceinline__ bool prefer(C v, uint32_t k, C current, uint32_t current_k, int propagate_nan) {
    const bool v_nan = math_isnan(v), current_nan = math_isnan(current);
    if (v_nan) return propagate_nan && (!current_nan || k < current_k);
    if (current_nan) return false;
    return v > current || (v == current && k < current_k);
}

template <class C, bool Max>
__device__ __forceinline__ void accumulate(ReduceAcc<C> &acc, C v, uint32_t k, const ReduceArgs<C> &a) {
    if (a.negate) v = -v;
    if (a.absolute) v = math_abs(v);
    if constexpr (Max) {
        if (prefer(v, k, acc.value, acc.index, a.propagate_nan)) acc = {v, k};
    } else {
        if (a.square) v = v * v;
        if (a.zero_as_one && v == C(0)) v = C(1);
        acc.value = a.is_mul ? acc.value * v : acc.value + v;
    }
}

template <class C, bool Max>
__device__ __forceinline__ void combine(ReduceAcc<C> &acc, const ReduceAcc<C> &other, const ReduceArgs<C> &a) {
    if constexpr (Max) {
        if (prefer(other.value, other.index, acc.value, acc.index, a.propagate_nan)) acc = other;
    } else {
        acc.value = a.is_mul ? acc.value * other.value : acc.value + other.value;
    }
}

// Butterfly over the warp: every lane ends with the same result (sums and products commute bit for bit,
// and the max breaks ties by index), whatever lane it started in.
template <class C, bool Max>
__device__ __forceinline__ ReduceAcc<C> warp_reduce(ReduceAcc<C> acc, const ReduceArgs<C> &a) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        ReduceAcc<C> other;
        other.value = __shfl_xor_sync(0xffffffffu, acc.value, offset);
        other.index = __shfl_xor_sync(0xffffffffu, acc.index, offset);
        combine<C, Max>(acc, other, a);
    }
    return acc;
}

template <class C>
__device__ __forceinline__ void write_result(const ReduceArgs<C> &a, int64_t output, const ReduceAcc<C> &acc) {
    // A max that chose nothing saw only NaN (without propagation): the result is NaN, the index 0.
    C result = a.max_kind && acc.index == kNoIndex ? C(NAN) : acc.value;
    if (a.negate) result = -result;
    if (a.average) result /= static_cast<C>(a.length);
    if (a.root) result = math_sqrt(result);
    int64_t offsets[3];
    offsets_of(a.kept, output, offsets);
    C value = a.alpha * result;
    if (a.blend) value += a.beta * load_as<C>(a.c, a.c_type, offsets[1]);
    store_as<C>(a.c, a.c_type, offsets[1], value);
    if (a.write_indices) a.indices[offsets[2]] = acc.index == kNoIndex ? 0u : acc.index;
}

template <class C, bool Max>
__device__ __forceinline__ void finish_output(const ReduceArgs<C> &a, int64_t output, const ReduceAcc<C> &acc) {
    if (a.splits == 1) {
        write_result(a, output, acc);
    } else {
        a.partials[blockIdx.y * a.outputs + output] = acc;
    }
}

template <class T, class C, bool Max>
__global__ void __launch_bounds__(kReduceBlock) row_reduce_kernel(const __grid_constant__ ReduceArgs<C> a) {
    __shared__ ReduceAcc<C> warp_results[kReduceBlock / 32];
    const int per_output = a.threads_per_output;
    const int groups = blockDim.x / per_output;
    const int lane = threadIdx.x % per_output;
    const T *data = static_cast<const T *>(a.a);
    const int64_t k_begin = blockIdx.y * a.chunk;
    const int64_t k_end = min(a.length, k_begin + a.chunk);
    // With a block per output the trip count is the same for the whole block (it syncs below); with a
    // warp per output each warp runs on its own.
    for (int64_t output = static_cast<int64_t>(blockIdx.x) * groups + threadIdx.x / per_output; output < a.outputs;
         output += static_cast<int64_t>(gridDim.x) * groups) {
        const int64_t base = offset_of(a.kept, 0, output);
        ReduceAcc<C> acc = start<C, Max>(a);
        if (a.vectorized) {
            constexpr int kLanes = Vector16<T>::kLanes;
#pragma unroll 4
            for (int64_t k = k_begin + lane * kLanes; k < k_end; k += per_output * kLanes) {
                int64_t at[2];
                offsets_of(a.reduced, k, at);
                const Vector16<T> v = *reinterpret_cast<const Vector16<T> *>(data + base + at[0]);
#pragma unroll
                for (int j = 0; j < kLanes; ++j) {
                    accumulate<C, Max>(acc, to_compute<C>(v.lane[j]),
                                       static_cast<uint32_t>(at[1] + j * a.inner_index_weight), a);
                }
            }
        } else {
#pragma unroll 4
            for (int64_t k = k_begin + lane; k < k_end; k += per_output) {
                int64_t at[2];
                offsets_of(a.reduced, k, at);
                accumulate<C, Max>(acc, to_compute<C>(data[base + at[0]]), static_cast<uint32_t>(at[1]), a);
            }
        }
        acc = warp_reduce<C, Max>(acc, a);
        if (per_output > 32) {
            if (lane % 32 == 0) warp_results[lane / 32] = acc;
            __syncthreads();
            if (lane == 0) {
                for (int w = 1; w < per_output / 32; ++w) combine<C, Max>(acc, warp_results[w], a);
            }
            __syncthreads();  // warp_results is reused by the next output
        }
        if (lane == 0) finish_output<C, Max>(a, output, acc);
    }
}

template <class T, class C, bool Max>
__global__ void __launch_bounds__(kReduceBlock) column_reduce_kernel(const __grid_constant__ ReduceArgs<C> a) {
    __shared__ ReduceAcc<C> slices[kColumnSlices][kColumnOutputs];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const T *data = static_cast<const T *>(a.a);
    const int64_t k_begin = blockIdx.y * a.chunk;
    const int64_t k_end = min(a.length, k_begin + a.chunk);
    for (int64_t first = static_cast<int64_t>(blockIdx.x) * kColumnOutputs; first < a.outputs;
         first += static_cast<int64_t>(gridDim.x) * kColumnOutputs) {
        const int64_t output = first + tx;
        ReduceAcc<C> acc = start<C, Max>(a);
        if (output < a.outputs) {
            const int64_t base = offset_of(a.kept, 0, output);
#pragma unroll 4
            for (int64_t k = k_begin + ty; k < k_end; k += kColumnSlices) {
                int64_t at[2];
                offsets_of(a.reduced, k, at);
                accumulate<C, Max>(acc, to_compute<C>(data[base + at[0]]), static_cast<uint32_t>(at[1]), a);
            }
        }
        slices[ty][tx] = acc;
        __syncthreads();
        if (ty == 0 && output < a.outputs) {
            for (int s = 1; s < kColumnSlices; ++s) combine<C, Max>(acc, slices[s][tx], a);
            finish_output<C, Max>(a, output, acc);
        }
        __syncthreads();
    }
}

template <class C, bool Max>
__global__ void __launch_bounds__(kReduceBlock) finalize_reduce_kernel(const __grid_constant__ ReduceArgs<C> a) {
    const int64_t threads = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t output = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; output < a.outputs;
         output += threads) {
        ReduceAcc<C> acc = a.partials[output];
        for (int s = 1; s < a.splits; ++s) combine<C, Max>(acc, a.partials[s * a.outputs + output], a);
        write_result(a, output, acc);
    }
}

// --- planning ---------------------------------------------------------------------------------------

struct ReducePlan {
    ScalarType a_type = ScalarType::f32, c_type = ScalarType::f32;
    bool row = true;
    int64_t outputs = 1, length = 1;
    StridedLayout kept, reduced;
    int threads_per_output = 32;
    int splits = 1;
    int64_t chunk = 1;
    bool vectorized = false;
    int grid_x = 1;
    size_t workspace = 0;  // for the split
};

bool is_reduce_type(ScalarType type) { return is_floating(type); }

Status plan_reduce(const ReduceSpec &spec, const TensorGeometry &a, const void *a_data, const TensorGeometry &c,
                   size_t workspace_bytes, ReducePlan *plan) {
    ReducePlan p;
    if (a.vector() != 1 || c.vector() != 1 || !scalar_type_of(a.dtype, &p.a_type) ||
        !scalar_type_of(c.dtype, &p.c_type) || !is_reduce_type(p.a_type) || !is_reduce_type(p.c_type)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "the CUDA reduction kernels handle float, double, half and bfloat16 tensors, got %s and %s",
                    data_type_short_name(a.dtype), data_type_short_name(c.dtype));
    }
    if (spec.op < CUDNN_REDUCE_TENSOR_ADD || spec.op > CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "the CUDA reduction kernels do not handle reduce op %d",
                    static_cast<int>(spec.op));
    }
    if (a.nb_dims != c.nb_dims) {
        return fail(CUDNN_STATUS_BAD_PARAM, "reduction needs a and c of equal rank, got %s and %s",
                    geometry_to_string(a).c_str(), geometry_to_string(c).c_str());
    }
    // Row-major NCHW numbering: of the c elements (indices array) and within a reduced slice.
    int64_t c_weight[kMaxDims], reduced_weight[kMaxDims];
    int64_t c_next = 1, reduced_next = 1;
    for (int i = a.nb_dims - 1; i >= 0; --i) {
        if (c.dims[i] != a.dims[i] && c.dims[i] != 1) {
            return fail(CUDNN_STATUS_BAD_PARAM, "reduction needs each dim of c equal to a's or 1, got %s and %s",
                        geometry_to_string(a).c_str(), geometry_to_string(c).c_str());
        }
        c_weight[i] = c_next;
        c_next *= c.dims[i];
        const bool reduced = c.dims[i] == 1 && a.dims[i] != 1;
        reduced_weight[i] = reduced ? reduced_next : 0;
        if (reduced) reduced_next *= a.dims[i];
    }
    const bool with_indices =
        spec.compute_indices && (spec.op == CUDNN_REDUCE_TENSOR_MIN || spec.op == CUDNN_REDUCE_TENSOR_MAX ||
                                 spec.op == CUDNN_REDUCE_TENSOR_AMAX);
    p.kept.operands = 3;
    p.reduced.operands = 2;
    for (int i = 0; i < a.nb_dims; ++i) {
        if (c.dims[i] == 1 && a.dims[i] != 1) {
            const int d = p.reduced.rank++;
            p.reduced.extents[d] = a.dims[i];
            p.reduced.strides[0][d] = a.strides[i];
            // Without indices the numbering is free, so it never blocks a merge of dims.
            p.reduced.strides[1][d] = with_indices ? reduced_weight[i] : 0;
        } else {
            const int d = p.kept.rank++;
            p.kept.extents[d] = a.dims[i];
            p.kept.strides[0][d] = a.strides[i];
            p.kept.strides[1][d] = c.strides[i];
            p.kept.strides[2][d] = c_weight[i];
        }
    }
    for (StridedLayout *layout : {&p.kept, &p.reduced}) {
        layout->drop_unit_dims();
        layout->order_by(0);
        layout->coalesce();
    }
    p.outputs = p.kept.element_count();
    p.length = p.reduced.element_count();

    const DeviceLimits limits = current_device_limits();
    const int64_t target_blocks = int64_t{limits.sm_count} * std::max(1, limits.max_threads_per_sm / kReduceBlock);
    const int64_t kept_inner = p.kept.rank > 0 ? p.kept.strides[0][p.kept.rank - 1] : INT64_MAX;
    const int64_t reduced_inner = p.reduced.rank > 0 ? p.reduced.strides[0][p.reduced.rank - 1] : INT64_MAX;
    p.row = p.length >= 32 && (p.outputs == 1 || reduced_inner <= kept_inner);
    int64_t blocks = 0, granule = 1, min_split_length = 0;
    if (p.row) {
        p.threads_per_output = p.length <= 2048 ? 32 : kReduceBlock;
        blocks = (p.outputs + kReduceBlock / p.threads_per_output - 1) / (kReduceBlock / p.threads_per_output);
        const int64_t lanes = 16 / static_cast<int64_t>(scalar_size(p.a_type));
        bool vectorized = reduced_inner == 1 && p.reduced.extents[p.reduced.rank - 1] % lanes == 0 &&
                          (reinterpret_cast<uintptr_t>(a_data) & 15u) == 0;
        for (int d = 0; d + 1 < p.reduced.rank; ++d) vectorized = vectorized && p.reduced.strides[0][d] % lanes == 0;
        for (int d = 0; d < p.kept.rank; ++d) vectorized = vectorized && p.kept.strides[0][d] % lanes == 0;
        p.vectorized = vectorized;
        granule = vectorized ? lanes : 1;
        min_split_length = 8192;
    } else {
        blocks = (p.outputs + kColumnOutputs - 1) / kColumnOutputs;
        min_split_length = kColumnSlices * 32;
    }
    int64_t splits = 1;
    if (blocks < target_blocks) {
        splits = std::min<int64_t>(
            {(target_blocks + blocks - 1) / blocks, std::max<int64_t>(1, p.length / min_split_length), 1024});
    }
    int64_t chunk = (p.length + splits - 1) / splits;
    chunk = (chunk + granule - 1) / granule * granule;
    splits = (p.length + chunk - 1) / chunk;
    // Double accumulation when either side is double (a double c asks for double precision).
    const bool in_double = p.a_type == ScalarType::f64 || p.c_type == ScalarType::f64;
    const size_t acc_bytes = in_double ? sizeof(ReduceAcc<double>) : sizeof(ReduceAcc<float>);
    const size_t workspace = splits > 1 ? static_cast<size_t>(splits * p.outputs) * acc_bytes : 0;
    if (workspace > workspace_bytes) {
        splits = 1;
        chunk = p.length;
    }
    p.splits = static_cast<int>(splits);
    p.chunk = chunk;
    p.workspace = splits > 1 ? workspace : 0;
    p.grid_x = static_cast<int>(std::max<int64_t>(1, std::min(blocks, target_blocks * 4)));
    *plan = p;
    return CUDNN_STATUS_SUCCESS;
}

template <class T, class C, bool Max>
Status launch_reduce(cudaStream_t stream, const ReducePlan &plan, ReduceArgs<C> args) {
    const dim3 grid(plan.grid_x, plan.splits);
    if (plan.row) {
        row_reduce_kernel<T, C, Max><<<grid, kReduceBlock, 0, stream>>>(args);
    } else {
        column_reduce_kernel<T, C, Max><<<grid, dim3(kColumnOutputs, kColumnSlices), 0, stream>>>(args);
    }
    LIBREDNN_CHECK(check_launch(plan.row ? "row_reduce_kernel" : "column_reduce_kernel"));
    if (plan.splits > 1) {
        finalize_reduce_kernel<C, Max>
            <<<grid_size(plan.outputs, kReduceBlock, kReduceBlock), kReduceBlock, 0, stream>>>(args);
        LIBREDNN_CHECK(check_launch("finalize_reduce_kernel"));
    }
    return CUDNN_STATUS_SUCCESS;
}

template <class T, class C>
Status launch_reduce_typed(cudaStream_t stream, const ReduceSpec &spec, const ReducePlan &plan, void *workspace,
                           uint32_t *indices, double alpha, const void *a_data, double beta, void *c_data) {
    ReduceArgs<C> args{};
    args.a = a_data;
    args.c = c_data;
    args.indices = indices;
    args.partials = static_cast<ReduceAcc<C> *>(workspace);
    args.c_type = plan.c_type;
    args.outputs = plan.outputs;
    args.length = plan.length;
    args.chunk = plan.chunk;
    args.splits = plan.splits;
    args.threads_per_output = plan.threads_per_output;
    args.vectorized = plan.vectorized ? 1 : 0;
    args.inner_index_weight = plan.reduced.rank > 0 ? plan.reduced.strides[1][plan.reduced.rank - 1] : 0;
    const cudnnReduceTensorOp_t op = spec.op;
    args.is_mul = op == CUDNN_REDUCE_TENSOR_MUL || op == CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS;
    args.negate = op == CUDNN_REDUCE_TENSOR_MIN;
    args.absolute = op == CUDNN_REDUCE_TENSOR_AMAX || op == CUDNN_REDUCE_TENSOR_NORM1;
    args.square = op == CUDNN_REDUCE_TENSOR_NORM2;
    args.zero_as_one = op == CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS;
    args.average = op == CUDNN_REDUCE_TENSOR_AVG;
    args.root = op == CUDNN_REDUCE_TENSOR_NORM2;
    args.propagate_nan = spec.nan == CUDNN_PROPAGATE_NAN;
    const bool max_kind =
        op == CUDNN_REDUCE_TENSOR_MIN || op == CUDNN_REDUCE_TENSOR_MAX || op == CUDNN_REDUCE_TENSOR_AMAX;
    args.max_kind = max_kind;
    args.write_indices = spec.compute_indices && max_kind && indices != nullptr;
    args.blend = beta != 0.0;
    args.alpha = static_cast<C>(alpha);
    args.beta = static_cast<C>(beta);
    args.kept = to_device_layout(plan.kept);
    args.reduced = to_device_layout(plan.reduced);
    return max_kind ? launch_reduce<T, C, true>(stream, plan, args) : launch_reduce<T, C, false>(stream, plan, args);
}

}  // namespace

size_t reduce_workspace_bytes(const ReduceSpec &spec, const TensorGeometry &a, const TensorGeometry &c) {
    // The data's alignment decides vectorisation, which rounds the split length: plan both ways and
    // ask for the larger.
    ReducePlan aligned, unaligned;
    if (plan_reduce(spec, a, nullptr, c, SIZE_MAX, &aligned) != CUDNN_STATUS_SUCCESS) return 0;
    if (plan_reduce(spec, a, reinterpret_cast<const void *>(uintptr_t{8}), c, SIZE_MAX, &unaligned) !=
        CUDNN_STATUS_SUCCESS) {
        return aligned.workspace;
    }
    return std::max(aligned.workspace, unaligned.workspace);
}

Status reduce_tensor(cudaStream_t stream, const ReduceSpec &spec, void *workspace, size_t workspace_bytes,
                     uint32_t *indices, double alpha, const TensorGeometry &a, const void *a_data, double beta,
                     const TensorGeometry &c, void *c_data) {
    ReducePlan plan;
    // Partial results need a 16-byte aligned workspace (cudaMalloc gives 256).
    const bool usable = workspace != nullptr && (reinterpret_cast<uintptr_t>(workspace) & 15u) == 0;
    LIBREDNN_CHECK(plan_reduce(spec, a, a_data, c, usable ? workspace_bytes : 0, &plan));
    if (plan.outputs == 0 || plan.length == 0) return CUDNN_STATUS_SUCCESS;
    const bool in_double = plan.c_type == ScalarType::f64;  // a double c asks for double precision
    switch (plan.a_type) {
        case ScalarType::f32:
            if (in_double)
                return launch_reduce_typed<float, double>(stream, spec, plan, workspace, indices, alpha, a_data, beta,
                                                          c_data);
            return launch_reduce_typed<float, float>(stream, spec, plan, workspace, indices, alpha, a_data, beta,
                                                     c_data);
        case ScalarType::f64:
            return launch_reduce_typed<double, double>(stream, spec, plan, workspace, indices, alpha, a_data, beta,
                                                       c_data);
        case ScalarType::f16:
            if (in_double)
                return launch_reduce_typed<__half, double>(stream, spec, plan, workspace, indices, alpha, a_data, beta,
                                                           c_data);
            return launch_reduce_typed<__half, float>(stream, spec, plan, workspace, indices, alpha, a_data, beta,
                                                      c_data);
        case ScalarType::bf16:
            if (in_double)
                return launch_reduce_typed<__nv_bfloat16, double>(stream, spec, plan, workspace, indices, alpha, a_data,
                                                                  beta, c_data);
            return launch_reduce_typed<__nv_bfloat16, float>(stream, spec, plan, workspace, indices, alpha, a_data,
                                                             beta, c_data);
        default: break;
    }
    return fail(CUDNN_STATUS_NOT_SUPPORTED, "the CUDA reduction kernels do not handle %s tensors",
                data_type_short_name(a.dtype));
}

}  // namespace librednn::cuda
