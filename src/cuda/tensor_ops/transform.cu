// Copy, broadcast, set and scale kernels (cudnnTransformTensor, cudnnAddTensor, cudnnSetTensor,
// cudnnScaleTensor): the flat copy family, the tiled transpose for packed NCHW <-> NHWC, and a 16-byte
// fill for packed set.
#include "cuda/tensor_ops/elementwise_flat.cuh"
#include "cuda/tensor_ops/transform.hpp"

namespace librednn::cuda {

namespace {

// --- flat copy --------------------------------------------------------------------------------------

struct CopyFamily {
    static constexpr const char *kName = "flat_copy_kernel";
    static constexpr bool kGathers = true;  // add tensor broadcasts a
    template <class T>
    static constexpr bool accepts() {
        return true;
    }
    template <class T, class C>
    __device__ static void run(const FlatArgs<T, C> &a) {
        flat_loop<T, C, static_cast<int>(ElementwiseKind::copy), 0, kGathers>(a);
    }
};

// --- tiled transpose: out[b][p][q] = in[b][q][p], both packed ---------------------------------------

template <class T, int N>
struct alignas(sizeof(T) * N) Pack {
    T lane[N];
};

template <class C>
struct TransposeArgs {
    const void *input;
    void *output;
    int64_t batch, rows, columns;  // P rows and Q columns of the output
    int64_t row_tiles, column_tiles;
    int packed_input, packed_output;  // whole packs are aligned (and P, resp. Q, a multiple of the pack)
    int raw, blend;
    C alpha, beta;
};

constexpr int kTransposeThreadsX = 32;
constexpr int kTransposeThreadsY = 8;

// Tiles of 32 packs square; a pack is 4 bytes of 1- and 2-byte types (one element otherwise), so that
// every warp access to global memory moves at least 128 bytes. The tile's rows carry one element of
// padding, which keeps the column reads of shared memory free of bank conflicts.
template <class T, class C>
__global__ void __launch_bounds__(kTransposeThreadsX *kTransposeThreadsY)
    transpose_kernel(const __grid_constant__ TransposeArgs<C> a) {
    constexpr int kPack = sizeof(T) >= 4 ? 1 : 4 / static_cast<int>(sizeof(T));
    constexpr int kTile = kTransposeThreadsX * kPack;
    constexpr int kRowsPerThread = kTile / kTransposeThreadsY;
    using PackT = Pack<T, kPack>;
    __shared__ T tile[kTile][kTile + 1];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t P = a.rows, Q = a.columns;
    const int64_t tiles_per_matrix = a.row_tiles * a.column_tiles;
    const int64_t tiles = tiles_per_matrix * a.batch;
    for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        const int64_t b = t / tiles_per_matrix;
        const int64_t within = t - b * tiles_per_matrix;
        const int64_t row_tile = within / a.column_tiles;
        const int64_t p0 = row_tile * kTile;
        const int64_t q0 = (within - row_tile * a.column_tiles) * kTile;
        const T *in = static_cast<const T *>(a.input) + b * P * Q;  // in[q][p] at q * P + p
        T *out = static_cast<T *>(a.output) + b * P * Q;            // out[p][q] at p * Q + q

        // Read input rows q0 + i, along p (contiguous in the input), into tile[i][.].
#pragma unroll
        for (int r = 0; r < kRowsPerThread; ++r) {
            const int i = ty + r * kTransposeThreadsY;
            const int64_t q = q0 + i;
            const int64_t p = p0 + tx * kPack;
            if (q >= Q) continue;
            if (a.packed_input && p < P) {
                const PackT v = *reinterpret_cast<const PackT *>(in + q * P + p);
#pragma unroll
                for (int e = 0; e < kPack; ++e) tile[i][tx * kPack + e] = v.lane[e];
            } else {
#pragma unroll
                for (int e = 0; e < kPack; ++e) {
                    if (p + e < P) tile[i][tx * kPack + e] = in[q * P + p + e];
                }
            }
        }
        __syncthreads();
        // Write output rows p0 + i, along q (contiguous in the output), from tile[.][i].
#pragma unroll
        for (int r = 0; r < kRowsPerThread; ++r) {
            const int i = ty + r * kTransposeThreadsY;
            const int64_t p = p0 + i;
            const int64_t q = q0 + tx * kPack;
            if (p >= P) continue;
            PackT v;
#pragma unroll
            for (int e = 0; e < kPack; ++e) v.lane[e] = tile[tx * kPack + e][i];
            if (a.packed_output && q < Q) {
                PackT *target = reinterpret_cast<PackT *>(out + p * Q + q);
                if (!a.raw) {
                    PackT old;
                    if (a.blend) old = *target;
#pragma unroll
                    for (int e = 0; e < kPack; ++e) {
                        C value = a.alpha * to_compute<C>(v.lane[e]);
                        if (a.blend) value += a.beta * to_compute<C>(old.lane[e]);
                        v.lane[e] = from_compute<T>(value);
                    }
                }
                *target = v;
            } else {
#pragma unroll
                for (int e = 0; e < kPack; ++e) {
                    if (q + e >= Q) continue;
                    T *target = out + p * Q + q + e;
                    if (a.raw) {
                        *target = v.lane[e];
                    } else {
                        C value = a.alpha * to_compute<C>(v.lane[e]);
                        if (a.blend) value += a.beta * to_compute<C>(*target);
                        *target = from_compute<T>(value);
                    }
                }
            }
        }
        __syncthreads();
    }
}

template <class T, class C>
Status launch_transpose_typed(cudaStream_t stream, const ElementwiseCall &call, const ElementwisePlan &plan) {
    constexpr int kPack = sizeof(T) >= 4 ? 1 : 4 / static_cast<int>(sizeof(T));
    constexpr int64_t kTile = kTransposeThreadsX * kPack;
    constexpr uintptr_t kPackBytes = sizeof(T) * kPack;
    TransposeArgs<C> args;
    args.input = call.input_data[0];
    args.output = call.output_data;
    args.batch = plan.batch;
    args.rows = plan.rows;
    args.columns = plan.columns;
    args.row_tiles = (plan.rows + kTile - 1) / kTile;
    args.column_tiles = (plan.columns + kTile - 1) / kTile;
    args.packed_input = plan.rows % kPack == 0 && reinterpret_cast<uintptr_t>(args.input) % kPackBytes == 0;
    args.packed_output = plan.columns % kPack == 0 && reinterpret_cast<uintptr_t>(args.output) % kPackBytes == 0;
    args.raw = plan.raw_copy ? 1 : 0;
    args.blend = plan.blend ? 1 : 0;
    args.alpha = static_cast<C>(call.alpha);
    args.beta = static_cast<C>(call.beta);
    const int64_t tiles = args.row_tiles * args.column_tiles * args.batch;
    const dim3 block(kTransposeThreadsX, kTransposeThreadsY);
    transpose_kernel<T, C><<<grid_size(tiles, 1, block.x * block.y), block, 0, stream>>>(args);
    return check_launch("transpose_kernel");
}

Status launch_transpose(cudaStream_t stream, const ElementwiseCall &call, const ElementwisePlan &plan) {
    switch (plan.output_type) {
        case ScalarType::f32: return launch_transpose_typed<float, float>(stream, call, plan);
        case ScalarType::f64: return launch_transpose_typed<double, double>(stream, call, plan);
        case ScalarType::f16: return launch_transpose_typed<__half, float>(stream, call, plan);
        case ScalarType::bf16: return launch_transpose_typed<__nv_bfloat16, float>(stream, call, plan);
        case ScalarType::i8: return launch_transpose_typed<int8_t, float>(stream, call, plan);
        case ScalarType::u8: return launch_transpose_typed<uint8_t, float>(stream, call, plan);
        case ScalarType::i32: return launch_transpose_typed<int32_t, double>(stream, call, plan);
    }
    return launch_strided_elementwise(stream, call, plan);
}

// --- packed fill ------------------------------------------------------------------------------------

// Fills `bytes` bytes from `base` with one scalar of `size` bytes repeated (its memory image in the low
// bytes of `bits`): unaligned head and tail bytes one at a time, the body as 16-byte stores.
__global__ void __launch_bounds__(256)
    fill_kernel(uint8_t *base, int64_t bytes, int64_t head, uint4 pattern, uint64_t bits, int size) {
    const int64_t thread = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t threads = static_cast<int64_t>(gridDim.x) * blockDim.x;
    const int64_t body = (bytes - head) / 16;
    uint4 *vectors = reinterpret_cast<uint4 *>(base + head);
    for (int64_t v = thread; v < body; v += threads) vectors[v] = pattern;
    // base is aligned to the scalar size, so byte b of the tensor is byte b % size of the scalar.
    if (thread < head) base[thread] = static_cast<uint8_t>(bits >> (8 * (thread % size)));
    const int64_t tail = head + body * 16 + thread;
    if (tail < bytes) base[tail] = static_cast<uint8_t>(bits >> (8 * (tail % size)));
}

Status launch_fill(cudaStream_t stream, void *data, const ElementwisePlan &plan) {
    const int64_t size = static_cast<int64_t>(scalar_size(plan.output_type));
    const int64_t bytes = plan.count * size;
    uint8_t pattern[16];
    for (int b = 0; b < 16; ++b) pattern[b] = static_cast<uint8_t>(plan.set_bits >> (8 * (b % size)));
    uint4 pattern16;
    memcpy(&pattern16, pattern, sizeof pattern16);
    // The body starts at the first 16-byte boundary; data is aligned to its scalar size, so the head is
    // a whole number of scalars and the pattern keeps its phase.
    const int64_t misalignment = static_cast<int64_t>(reinterpret_cast<uintptr_t>(data) & 15u);
    const int64_t head = std::min<int64_t>(bytes, (16 - misalignment) & 15);
    const int grid = grid_size(std::max<int64_t>((bytes - head) / 16, 16), 256, 256);
    fill_kernel<<<grid, 256, 0, stream>>>(static_cast<uint8_t *>(data), bytes, head, pattern16, plan.set_bits,
                                          static_cast<int>(size));
    return check_launch("fill_kernel");
}

Status run_copy(cudaStream_t stream, const ElementwiseCall &call) {
    ElementwisePlan plan;
    LIBREDNN_CHECK(plan_elementwise(call, &plan));
    if (plan.count == 0) return CUDNN_STATUS_SUCCESS;
    switch (plan.path) {
        case ElementwisePath::flat: return launch_flat_elementwise<CopyFamily>(stream, call, plan);
        case ElementwisePath::transpose: return launch_transpose(stream, call, plan);
        case ElementwisePath::strided: break;
    }
    return launch_strided_elementwise(stream, call, plan);
}

}  // namespace

Status transform_tensor(cudaStream_t stream, double alpha, const TensorGeometry &x, const void *x_data, double beta,
                        const TensorGeometry &y, void *y_data) {
    if (!same_dims(x, y)) {
        return fail(CUDNN_STATUS_BAD_PARAM, "transform needs x and y with the same dims, got %s and %s",
                    geometry_to_string(x).c_str(), geometry_to_string(y).c_str());
    }
    return add_tensor(stream, alpha, x, x_data, beta, y, y_data);
}

Status add_tensor(cudaStream_t stream, double alpha, const TensorGeometry &a, const void *a_data, double beta,
                  const TensorGeometry &c, void *c_data) {
    ElementwiseCall call;
    call.kind = ElementwiseKind::copy;
    call.alpha = alpha;
    call.beta = beta;
    call.output = c;
    call.output_data = c_data;
    call.inputs[0] = a;
    call.input_data[0] = a_data;
    return run_copy(stream, call);
}

Status set_tensor(cudaStream_t stream, const TensorGeometry &y, void *y_data, double value) {
    ElementwiseCall call;
    call.kind = ElementwiseKind::set;
    call.set_value = value;
    call.output = y;
    call.output_data = y_data;
    ElementwisePlan plan;
    LIBREDNN_CHECK(plan_elementwise(call, &plan));
    if (plan.count == 0) return CUDNN_STATUS_SUCCESS;
    if (plan.path == ElementwisePath::flat) return launch_fill(stream, y_data, plan);
    return launch_strided_elementwise(stream, call, plan);
}

Status scale_tensor(cudaStream_t stream, const TensorGeometry &y, void *y_data, double alpha) {
    if (alpha == 1.0) return CUDNN_STATUS_SUCCESS;
    // y is its own input: each element is read and written by the same thread, in that order.
    return add_tensor(stream, alpha, y, y_data, 0.0, y, y_data);
}

}  // namespace librednn::cuda
