// The cluster softmax kernels: rows of 1025 to 16384 16-byte vectors (softmax over a vocabulary, INSTANCE
// mode on large C*H*W), each held by a thread-block cluster whose blocks combine their statistics through
// distributed shared memory, so that every element is read once and written once. Two ways to hold a
// row: registers (256 x 8 vectors a block forward, 4 each of y and dy backward; many small blocks per SM
// overlap one row's reads with another's writes), and for float and double forward, shared memory
// filled by one bulk copy a block (more bytes in flight than the registers hold).
#include "cuda/common/async_copy.cuh"
#include "cuda/common/cluster.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/softmax/softmax_kernels.hpp"
#include "cuda/softmax/softmax_math.cuh"

#include <cooperative_groups.h>

#include <cstring>
#include <type_traits>

namespace librednn::cuda {

namespace {

namespace cg = cooperative_groups;

constexpr int kBlock = 256;
constexpr int kMaxCluster = 8;
// 16-byte vectors a thread holds per input: forward 8 (one input, 128 KB in flight per SM at four
// blocks), backward 4 each of y and dy. Measured on the H200 (float 4096 x 32000): forward with 4 vectors
// and the exponentials kept in registers moved 2375 GB/s, with 8 recomputing them 3142 GB/s.
template <bool Backward>
constexpr int kVectorsOf = Backward ? 4 : 8;
template <bool Backward>
constexpr int64_t kVectorsPerBlockOf = int64_t{kBlock} * kVectorsOf<Backward>;
// Resident blocks per SM the register budget must allow: four for float (64 registers), three for the
// others, two for bfloat16 backward, whose conversions need more (fewer would spill).
template <class T, bool Backward>
constexpr int kMinBlocksOf = std::is_same_v<T, float>                      ? 4
                             : std::is_same_v<T, __nv_bfloat16> &&Backward ? 2
                                                                           : 3;

template <class C>
struct ClusterArgs : SoftmaxScalars<C> {
    const void *inputs[2];
    void *output;
    int64_t vectors;  // per row
    int cluster;      // blocks per row
    DeviceLayout batch;
};

template <class C>
struct ClusterShared {
    RowStats<C> warp_stats[kBlock / 32];
    RowStats<C> block_stats;  // read by the other blocks of the cluster
    RowStats<C> row_stats;
};

// The register kernel's: cluster_reduce's values besides (the staged kernel needs none of them).
template <class C>
struct RegisterShared : ClusterShared<C> {
    // cluster_reduce's: one value a warp, the block's per slot (read by the other blocks), the row's.
    C warp_values[kBlock / 32];
    C block_values[2];
    C row_values[2];
};

// One value a thread folded over the row's cluster with `op` (max or sum: symmetric, so each butterfly
// leaves the same bits in every lane and every block agrees): warp, block, then the cluster's blocks
// through distributed shared memory (lanes past the cluster hold `identity`). Each slot is used once a
// launch. Passes the cluster barrier (arrive and wait) before reading the other blocks; the caller must
// arrive once more after its last cluster_reduce and wait before returning, since other blocks may still
// read its block_values.
template <class C, class Op>
__device__ __forceinline__ C cluster_reduce(C value, RegisterShared<C> &shared, int slot, int blocks, C identity,
                                            Op op) {
    cg::cluster_group cluster = cg::this_cluster();
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) value = op(value, __shfl_xor_sync(0xffffffffu, value, offset));
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) shared.warp_values[warp] = value;
    __syncthreads();
    if (threadIdx.x == 0) {
        C total = shared.warp_values[0];
        for (int w = 1; w < kBlock / 32; ++w) total = op(total, shared.warp_values[w]);
        shared.block_values[slot] = total;
    }
    cluster.sync();  // every block's value is visible cluster-wide
    if (warp == 0) {
        C mine = lane < blocks ? *cluster.map_shared_rank(&shared.block_values[slot], lane) : identity;
#pragma unroll
        for (int offset = 16; offset > 0; offset >>= 1) mine = op(mine, __shfl_xor_sync(0xffffffffu, mine, offset));
        if (lane == 0) shared.row_values[slot] = mine;
    }
    __syncthreads();
    return shared.row_values[slot];
}

// The row's statistics, into shared.row_stats, from each thread's: warp, block, then the cluster's
// blocks through distributed shared memory, every combination in a fixed order, so all blocks agree to
// the bit. Arrives on the cluster barrier: the caller must cluster_wait() before returning, since
// other blocks may still read its block_stats.
template <class C>
__device__ __forceinline__ void cluster_row_stats(RowStats<C> stats, ClusterShared<C> &shared, int blocks,
                                                  int algorithm, int backward) {
    cg::cluster_group cluster = cg::this_cluster();
    stats = warp_combine(stats, algorithm, backward);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) shared.warp_stats[warp] = stats;
    __syncthreads();
    if (threadIdx.x == 0) {
        RowStats<C> total = shared.warp_stats[0];
        for (int w = 1; w < kBlock / 32; ++w) combine_stats(total, shared.warp_stats[w], algorithm, backward);
        shared.block_stats = total;
    }
    cluster.sync();  // every block's statistics are visible cluster-wide
    if (warp == 0) {
        RowStats<C> mine = {-C(INFINITY), C(0)};
        if (lane < blocks) mine = *cluster.map_shared_rank(&shared.block_stats, lane);
        mine = warp_combine(mine, algorithm, backward);
        if (lane == 0) shared.row_stats = mine;
    }
    cluster_arrive();
    __syncthreads();
}

// One row's share for one algorithm and direction.
template <class T, class C, int Algorithm, bool Backward>
__device__ __forceinline__ void cluster_row(const ClusterArgs<C> &a, RegisterShared<C> &shared) {
    constexpr int kLanes = Vector16<T>::kLanes;
    constexpr int V = kVectorsOf<Backward>;
    constexpr bool kFast = kFastExpOf<T>;
    cg::cluster_group cluster = cg::this_cluster();
    const int rank = static_cast<int>(cluster.block_rank());
    const int64_t row = blockIdx.x / a.cluster;
    int64_t at[3];
    offsets_of(a.batch, row, at);
    Vector16<T> *out = reinterpret_cast<Vector16<T> *>(static_cast<T *>(a.output) + at[0]);
    const Vector16<T> *in0 = reinterpret_cast<const Vector16<T> *>(static_cast<const T *>(a.inputs[0]) + at[1]);
    const Vector16<T> *in1 = reinterpret_cast<const Vector16<T> *>(static_cast<const T *>(a.inputs[1]) + at[2]);

    // Every load in flight before any arithmetic.
    const int64_t first = static_cast<int64_t>(rank) * kBlock * V + threadIdx.x;
    Vector16<T> x0[V], x1[Backward ? V : 1];
    bool valid[V];
#pragma unroll
    for (int i = 0; i < V; ++i) {
        const int64_t v = first + i * kBlock;
        valid[i] = v < a.vectors;
        if (valid[i]) {
            x0[i] = in0[v];
            if constexpr (Backward) x1[i] = in1[v];
        }
    }

    // The row's statistics. Forward: the row's max first (ACCURATE, LOG), reduced over the cluster, then
    // every thread sums e^(x - row max), so the partial sums simply add: no exponentials in the reductions
    // and no chain through a running max. Backward: the sum of dy * y (LOG: of dy).
    RowConstants<C> k;
    if constexpr (!Backward) {
        C max = -C(INFINITY);
        if constexpr (Algorithm != CUDNN_SOFTMAX_FAST) {
            if constexpr (sizeof(T) == 2) {
                // Two lanes a compare in their own type (exact; NaN loses to a number, as in fmaxf). Written
                // out rather than with PairMaxima (device_common.cuh): with it, ptxas spilled the bfloat16
                // forward kernel (14 bytes stored, 48 loaded; none as written here).
                using Pair = PairOf<T>;
                Pair maxima[kLanes / 2];
#pragma unroll
                for (int p = 0; p < kLanes / 2; ++p) {
                    Pair minus_infinity;
                    const uint32_t bits = kMinusInfinityPairBits<T>;
                    memcpy(&minus_infinity, &bits, 4);
                    maxima[p] = minus_infinity;
                }
#pragma unroll
                for (int i = 0; i < V; ++i) {
                    if (!valid[i]) continue;
                    Pair pairs[kLanes / 2];
                    memcpy(pairs, &x0[i], 16);
#pragma unroll
                    for (int p = 0; p < kLanes / 2; ++p) maxima[p] = __hmax2(maxima[p], pairs[p]);
                }
#pragma unroll
                for (int p = 0; p < kLanes / 2; ++p)
                    max = math_fmax(max, math_fmax(__low2float(maxima[p]), __high2float(maxima[p])));
            } else {
#pragma unroll
                for (int i = 0; i < V; ++i) {
#pragma unroll
                    for (int j = 0; j < kLanes; ++j) {
                        if (valid[i]) max = math_fmax(max, to_compute<C>(x0[i].lane[j]));
                    }
                }
            }
            max = cluster_reduce(max, shared, 0, a.cluster, -C(INFINITY), [](C x, C y) { return math_fmax(x, y); });
        }
        const C base = path_exp_base<Algorithm>(max);
        C sum = C(0);
#pragma unroll
        for (int i = 0; i < V; ++i) {
            if (!valid[i]) continue;
#pragma unroll
            for (int j = 0; j < kLanes; ++j) sum += path_exp<kFast>(to_compute<C>(x0[i].lane[j]) - base);
        }
        sum = cluster_reduce(sum, shared, 1, a.cluster, C(0), [](C x, C y) { return x + y; });
        cluster_arrive();  // waited for before returning
        RowStats<C> total;
        total.max = Algorithm != CUDNN_SOFTMAX_FAST ? max : C(0);
        total.sum = sum;
        k = row_constants(total, Algorithm);
    } else {
        RowStats<C> stats = {-C(INFINITY), C(0)};
#pragma unroll
        for (int i = 0; i < V; ++i) {
            if (!valid[i]) continue;
#pragma unroll
            for (int j = 0; j < kLanes; ++j)
                stats.sum += path_backward_term<Algorithm>(to_compute<C>(x0[i].lane[j]), to_compute<C>(x1[i].lane[j]));
        }
        cluster_row_stats(stats, shared, a.cluster, Algorithm, Backward);
        k = row_constants(shared.row_stats, Algorithm);
    }

    // Forward ACCURATE and FAST fold alpha into the scale; blending is a loop of its own, so the common
    // loop carries no predicated reads of y.
    constexpr bool kAlphaInScale = !Backward && Algorithm != CUDNN_SOFTMAX_LOG;
    const C alpha = a.alpha, beta = a.beta;
    if constexpr (kAlphaInScale) k.scale *= alpha;
    const auto output_of = [&](int i, int j) {
        const C x = to_compute<C>(x0[i].lane[j]);
        C value;
        if constexpr (Backward) {
            value = path_backward_value<Algorithm, kFast>(x, to_compute<C>(x1[i].lane[j]), k);
        } else {
            value = path_forward_value<Algorithm, kFast>(x, k);
        }
        return kAlphaInScale ? value : value * alpha;
    };
    if (!a.blend) {
#pragma unroll
        for (int i = 0; i < V; ++i) {
            if (!valid[i]) continue;
            Vector16<T> result;
#pragma unroll
            for (int j = 0; j < kLanes; ++j) result.lane[j] = from_compute<T>(output_of(i, j));
            out[first + i * kBlock] = result;
        }
    } else {
#pragma unroll
        for (int i = 0; i < V; ++i) {
            if (!valid[i]) continue;
            const int64_t v = first + i * kBlock;
            const Vector16<T> old = out[v];
            Vector16<T> result;
#pragma unroll
            for (int j = 0; j < kLanes; ++j)
                result.lane[j] = from_compute<T>(output_of(i, j) + beta * to_compute<C>(old.lane[j]));
            out[v] = result;
        }
    }
    cluster_wait();
}

template <class T, class C, bool Backward>
__global__ void __launch_bounds__(kBlock, kMinBlocksOf<T, Backward>)
    softmax_cluster_kernel(const __grid_constant__ ClusterArgs<C> a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ RegisterShared<C> shared;
    dispatch_softmax_path(a.algorithm, Backward, [&](auto algorithm, auto) {
        cluster_row<T, C, decltype(algorithm)::value, Backward>(a, shared);
    });
#else
    __trap();  // never launched: the launcher checks that the kernel was built for sm_90 or later
#endif
}

template <class T, class C, bool Backward>
bool launch_typed(cudaStream_t stream, const SoftmaxLaunch &launch, int64_t rows, int64_t vectors, int cluster,
                  Status *status) {
    // The kernel as loaded must be sm_90 code (clusters); asked once per process and type.
    static const bool built = built_for_sm90(reinterpret_cast<const void *>(softmax_cluster_kernel<T, C, Backward>));
    if (!built) return false;
    ClusterArgs<C> args{};
    static_cast<SoftmaxScalars<C> &>(args) =
        softmax_scalars<C>(launch.algorithm, launch.backward, launch.alpha, launch.beta);
    args.inputs[0] = launch.inputs[0];
    args.inputs[1] = launch.inputs[1];
    args.output = launch.output;
    args.vectors = vectors;
    args.cluster = cluster;
    args.batch = to_device_layout(launch.batch);
    *status = launch_clusters(stream, softmax_cluster_kernel<T, C, Backward>, args, rows, cluster, kBlock, 0,
                              "softmax_cluster_kernel");
    return true;
}

template <bool Backward>
bool launch_for_type(cudaStream_t stream, const SoftmaxLaunch &launch, int64_t rows, int64_t vectors, int cluster,
                     Status *status) {
    switch (launch.type) {
        case ScalarType::f32:
            return launch_typed<float, float, Backward>(stream, launch, rows, vectors, cluster, status);
        case ScalarType::f64:
            return launch_typed<double, double, Backward>(stream, launch, rows, vectors, cluster, status);
        case ScalarType::f16:
            return launch_typed<__half, float, Backward>(stream, launch, rows, vectors, cluster, status);
        case ScalarType::bf16:
            return launch_typed<__nv_bfloat16, float, Backward>(stream, launch, rows, vectors, cluster, status);
        default: return false;
    }
}

// --- staged forward (float and double): each block's slice of the row lands in shared memory through one
// bulk copy (sm_90 TMA), so the registers no longer cap the bytes in flight; shared memory does (64 KB a
// block, three blocks an SM). Each e^(x - base) replaces x in shared memory, so the output is e times one
// factor a thread: one exponential an element. Measured on the H200 (float 4096 x 32000 forward,
// ACCURATE / LOG / FAST): registers 3154 / 3400 / 3604 GB/s, staged 8 vectors a thread 3446 / 3530 /
// 3646, 16 vectors 3539 / 3589 / 3624. Half and bfloat16 keep the registers (staged: 2988 against 3159),
// and so does backward (3876 against 4229).
constexpr int kStagedVectors = 16;  // a thread's 16-byte vectors
constexpr int kStagedPerBlock = kBlock * kStagedVectors;

template <class C>
struct StagedArgs : SoftmaxScalars<C> {
    const void *input;
    void *output;
    int64_t vectors;  // per row
    int cluster;      // blocks per row
    DeviceLayout batch;
};

template <class T, int Algorithm>
__device__ __forceinline__ void staged_row(const StagedArgs<T> &a, Vector16<T> *x, uint64_t *landed,
                                           ClusterShared<T> &shared) {
    using C = T;
    constexpr int kLanes = Vector16<T>::kLanes;
    cg::cluster_group cluster = cg::this_cluster();
    const int rank = static_cast<int>(cluster.block_rank());
    const int64_t row = blockIdx.x / a.cluster;
    int64_t at[3];
    offsets_of(a.batch, row, at);
    const int64_t first = static_cast<int64_t>(rank) * kStagedPerBlock;
    const int count = static_cast<int>(min(static_cast<int64_t>(kStagedPerBlock), a.vectors - first));
    Vector16<T> *out = reinterpret_cast<Vector16<T> *>(static_cast<T *>(a.output) + at[0]) + first;
    const Vector16<T> *in = reinterpret_cast<const Vector16<T> *>(static_cast<const T *>(a.input) + at[1]) + first;

    if (threadIdx.x == 0) transaction_barrier_init(landed);
    __syncthreads();
    if (threadIdx.x == 0) {
        const uint32_t bytes = static_cast<uint32_t>(count) * 16u;
        transaction_barrier_expect(landed, bytes);
        bulk_copy_to_shared(x, in, bytes, landed);
    }
    transaction_barrier_wait(landed, 0);

    // A thread reads back only the vectors it wrote (v = threadIdx.x + i * kBlock).
    RowStats<C> stats = {-C(INFINITY), C(0)};
    if constexpr (Algorithm != CUDNN_SOFTMAX_FAST) {
#pragma unroll 4
        for (int v = threadIdx.x; v < count; v += kBlock) {
            const Vector16<T> values = x[v];
#pragma unroll
            for (int j = 0; j < kLanes; ++j) stats.max = math_fmax(stats.max, values.lane[j]);
        }
    }
    constexpr bool kKeepExp = Algorithm != CUDNN_SOFTMAX_LOG;
    const C base = path_exp_base<Algorithm>(stats.max);
#pragma unroll 4
    for (int v = threadIdx.x; v < count; v += kBlock) {
        Vector16<T> values = x[v];
#pragma unroll
        for (int j = 0; j < kLanes; ++j) {
            const C e = path_exp<false>(values.lane[j] - base);
            stats.sum += e;
            if constexpr (kKeepExp) values.lane[j] = e;
        }
        if constexpr (kKeepExp) x[v] = values;
    }
    const bool thread_max_is_minus_inf = stats.max == -C(INFINITY);

    cluster_row_stats(stats, shared, a.cluster, Algorithm, 0);
    const RowConstants<C> k = row_constants(shared.row_stats, Algorithm);
    // e^(x - base) * factor = e^(x - max) / sum. A thread whose max is -inf (its elements all -inf or NaN:
    // base 0) has e 0 or NaN: factor 0 keeps them 0 or NaN, and NaN when the whole row is -inf (0/0, as
    // e^(x - max) / sum gives).
    C factor = k.scale;
    if constexpr (Algorithm == CUDNN_SOFTMAX_ACCURATE) {
        if (!thread_max_is_minus_inf) {
            factor = path_exp<false>(base - k.max) * k.scale;
        } else {
            factor = k.max == -C(INFINITY) ? C(NAN) : C(0);
        }
    }

#pragma unroll 4
    for (int v = threadIdx.x; v < count; v += kBlock) {
        const Vector16<T> values = x[v];
        Vector16<T> old, result;
        if (a.blend) old = out[v];
#pragma unroll
        for (int j = 0; j < kLanes; ++j) {
            C value = kKeepExp ? values.lane[j] * factor : path_forward_value<Algorithm, false>(values.lane[j], k);
            value *= a.alpha;
            if (a.blend) value += a.beta * old.lane[j];
            result.lane[j] = value;
        }
        out[v] = result;
    }
    cluster_wait();
}

template <class T>
__global__ void __launch_bounds__(kBlock) softmax_cluster_staged_kernel(const __grid_constant__ StagedArgs<T> a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    // The stage 128-byte aligned: at the 16 or 32 bytes the static variables leave, the same kernel moved
    // float 4096 x 32000 forward at 3530 GB/s (ACCURATE) instead of 3775 on the H200, double 2850 instead
    // of 3120.
    extern __shared__ __align__(128) uint4 stage_words[];
    __shared__ uint64_t landed;
    __shared__ ClusterShared<T> shared;
    Vector16<T> *x = reinterpret_cast<Vector16<T> *>(stage_words);
    dispatch_softmax_path(a.algorithm, false, [&](auto algorithm, auto) {
        staged_row<T, decltype(algorithm)::value>(a, x, &landed, shared);
    });
#else
    __trap();  // never launched: the launcher checks that the kernel was built for sm_90 or later
#endif
}

template <class T>
bool launch_staged_typed(cudaStream_t stream, const SoftmaxLaunch &launch, int64_t rows, int64_t vectors,
                         Status *status) {
    static const bool built = built_for_sm90(reinterpret_cast<const void *>(softmax_cluster_staged_kernel<T>));
    if (!built) return false;
    const int cluster = static_cast<int>((vectors + kStagedPerBlock - 1) / kStagedPerBlock);
    if (cluster > kMaxCluster || rows * cluster > 0x7fffffff) return false;
    const size_t bytes = size_t{kStagedPerBlock} * 16;
    static const SharedMemoryOptIn opt_in(reinterpret_cast<const void *>(softmax_cluster_staged_kernel<T>));
    if (!opt_in.allow(bytes)) return false;
    StagedArgs<T> args{};
    static_cast<SoftmaxScalars<T> &>(args) =
        softmax_scalars<T>(launch.algorithm, launch.backward, launch.alpha, launch.beta);
    args.input = launch.inputs[0];
    args.output = launch.output;
    args.vectors = vectors;
    args.cluster = cluster;
    args.batch = to_device_layout(launch.batch);
    *status = launch_clusters(stream, softmax_cluster_staged_kernel<T>, args, rows, cluster, kBlock, bytes,
                              "softmax_cluster_staged_kernel");
    return true;
}

}  // namespace

bool launch_softmax_cluster_rows(cudaStream_t stream, const SoftmaxLaunch &launch, Status *status) {
    const int64_t rows = launch.batch.element_count();
    const int64_t length = launch.row.element_count();
    const int64_t lanes = 16 / static_cast<int64_t>(scalar_size(launch.type));
    if (launch.row.rank != 1 || length % lanes != 0) return false;
    for (int k = 0; k < 3; ++k) {
        if (launch.row.strides[k][0] != 1) return false;
        for (int d = 0; d < launch.batch.rank; ++d) {
            if (launch.batch.strides[k][d] % lanes != 0) return false;
        }
    }
    const void *pointers[3] = {launch.output, launch.inputs[0], launch.inputs[1]};
    for (const void *pointer : pointers) {
        if ((reinterpret_cast<uintptr_t>(pointer) & 15u) != 0) return false;
    }
    const int64_t vectors = length / lanes;
    const int64_t per_block = launch.backward ? kVectorsPerBlockOf<true> : kVectorsPerBlockOf<false>;
    if (vectors <= 1024 || vectors > kMaxCluster * per_block) return false;
    const int cluster = static_cast<int>((vectors + per_block - 1) / per_block);
    if (rows * cluster > 0x7fffffff) return false;
    if (current_device_limits().compute_major < 9) return false;  // clusters need sm_90
    if (!launch.backward) {
        if (launch.type == ScalarType::f32 && launch_staged_typed<float>(stream, launch, rows, vectors, status))
            return true;
        if (launch.type == ScalarType::f64 && launch_staged_typed<double>(stream, launch, rows, vectors, status))
            return true;
    }
    if (launch.backward) return launch_for_type<true>(stream, launch, rows, vectors, cluster, status);
    return launch_for_type<false>(stream, launch, rows, vectors, cluster, status);
}

}  // namespace librednn::cuda
