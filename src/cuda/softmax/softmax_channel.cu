// The channel softmax kernels: rows whose elements are strided while neighbouring rows are neighbours in
// memory (CHANNEL mode on NCHW: a row is a pixel's C channels, H*W apart). Images of whole 16-byte
// vectors go to the staged tiles (a tile of pixels across all channels in shared memory, one read of
// each element); others to the element tiles: a block takes 64 neighbouring rows, so each warp access is
// contiguous, and splits their elements four ways; the four partial statistics meet in shared memory.
// Pass 2 reads the input again (mostly from L2).
#include "cuda/common/async_copy.cuh"
#include "cuda/common/cluster.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/softmax/softmax_kernels.hpp"
#include "cuda/softmax/softmax_math.cuh"

#include <cooperative_groups.h>

#include <algorithm>
#include <type_traits>

namespace librednn::cuda {

namespace {

constexpr int kTileRows = 64;  // threadIdx.x: neighbouring rows
constexpr int kSplit = 4;      // threadIdx.y: every kSplit-th element of the rows
constexpr int kChunk = 8;      // elements loaded before they are folded into the statistics

template <class C>
struct ChannelArgs : SoftmaxScalars<C> {
    const void *inputs[2];
    void *output;
    int64_t inner;   // rows along the contiguous batch dim
    int64_t outer;   // the other batch dims together
    int64_t length;  // elements per row
    int64_t element_strides[3];
    DeviceLayout outer_layout;  // the batch without its contiguous dim
};

template <class T, class C>
__global__ void __launch_bounds__(kTileRows *kSplit) softmax_channel_kernel(const __grid_constant__ ChannelArgs<C> a) {
    __shared__ RowStats<C> partial[kSplit][kTileRows];
    const int algorithm = a.algorithm, backward = a.backward;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t inner = static_cast<int64_t>(blockIdx.x) * kTileRows + tx;
    const bool active = inner < a.inner;
    const int64_t s0 = a.element_strides[0], s1 = a.element_strides[1], s2 = a.element_strides[2];

    for (int64_t o = blockIdx.y; o < a.outer; o += gridDim.y) {
        int64_t at[3];
        offsets_of(a.outer_layout, o, at);
        T *out = static_cast<T *>(a.output) + at[0] + inner;
        const T *in0 = static_cast<const T *>(a.inputs[0]) + at[1] + inner;
        const T *in1 = static_cast<const T *>(a.inputs[1]) + at[2] + inner;

        RowStats<C> stats = {-C(INFINITY), C(0)};
        if (active) {
            for (int64_t c0 = ty; c0 < a.length; c0 += int64_t{kSplit} * kChunk) {
                C x[kChunk], y[kChunk];
                bool valid[kChunk];
#pragma unroll
                for (int u = 0; u < kChunk; ++u) {
                    const int64_t c = c0 + int64_t{u} * kSplit;
                    valid[u] = c < a.length;
                    x[u] = valid[u] ? to_compute<C>(in0[c * s1]) : C(0);
                    y[u] = valid[u] && backward ? to_compute<C>(in1[c * s2]) : C(0);
                }
                if (!backward) {
                    combine_stats(stats, forward_stats_of(x, valid, algorithm), algorithm, 0);
                } else {
#pragma unroll
                    for (int u = 0; u < kChunk; ++u) {
                        if (valid[u]) stats.sum += backward_term(x[u], y[u], algorithm);
                    }
                }
            }
        }
        partial[ty][tx] = stats;
        __syncthreads();
        RowStats<C> total = partial[0][tx];
#pragma unroll
        for (int s = 1; s < kSplit; ++s) combine_stats(total, partial[s][tx], algorithm, backward);
        __syncthreads();  // partial is reused by the next outer index
        if (!active) continue;
        const RowConstants<C> k = row_constants(total, algorithm);
        for (int64_t c = ty; c < a.length; c += kSplit) {
            const C x = to_compute<C>(in0[c * s1]);
            C value =
                backward ? backward_value(x, to_compute<C>(in1[c * s2]), k, algorithm) : forward_value(x, k, algorithm);
            value *= a.alpha;
            if (a.blend) value += a.beta * to_compute<C>(out[c * s0]);
            out[c * s0] = from_compute<T>(value);
        }
    }
}

template <class T, class C>
Status launch_typed(cudaStream_t stream, const SoftmaxLaunch &launch, const StridedLayout &outer, int64_t inner) {
    ChannelArgs<C> args{};
    args.inputs[0] = launch.inputs[0];
    args.inputs[1] = launch.inputs[1];
    args.output = launch.output;
    args.inner = inner;
    args.outer = outer.element_count();
    args.length = launch.row.element_count();
    for (int k = 0; k < 3; ++k) args.element_strides[k] = launch.row.strides[k][0];
    static_cast<SoftmaxScalars<C> &>(args) =
        softmax_scalars<C>(launch.algorithm, launch.backward, launch.alpha, launch.beta);
    args.outer_layout = to_device_layout(outer);
    const int64_t tiles = (inner + kTileRows - 1) / kTileRows;
    const dim3 grid(static_cast<unsigned>(tiles), static_cast<unsigned>(std::min<int64_t>(args.outer, 65535)));
    softmax_channel_kernel<T, C><<<grid, dim3(kTileRows, kSplit), 0, stream>>>(args);
    return check_launch("softmax_channel_kernel");
}

// --- staged tiles (images of whole 16-byte vectors): a tile is Q vectors of neighbouring rows (Q * lanes
// pixels; tiles run on across images) across all of the rows' elements (channels). Its blocks stage it in
// shared memory with 16-byte asynchronous copies, compute every row's statistics from there, and write
// the output: one read and one write of each element, 16 bytes wide. Q is 8 where the rows allow (128
// bytes of a channel a tile: whole cache lines), else smaller (the rule in launch_staged_typed); a tile
// still too big for one block's budget is split by channels over a cluster of 2 to 8 blocks (sm_90),
// which combine their statistics through distributed shared memory; without clusters Q shrinks to 1.
// Unsplit tiles of Q = 4 run two neighbouring tiles a cluster (no exchange). Rows too long even then go
// to the element tiles above.
// Threads a block. Measured on the H200 (half 256x1000x28x28 forward): 512 gave 2436 GB/s against 3466.
constexpr int kStagedBlock = 256;
constexpr int kStagedMaxQ = 8;
constexpr int kStagedMaxSplit = 8;  // blocks a tile (a portable cluster size)
// Shared memory a block may stage: 64 KB, three blocks an SM. Measured on the H200 (half 256x1000x28x28,
// forward, one block a tile): 32 KB tiles (two vectors a row) 2050 GB/s, 64 KB 2604, 128 KB (one block
// an SM) 662.
constexpr int kStagedBudget = 64 * 1024;

template <class C>
struct StagedChannelArgs : SoftmaxScalars<C> {
    const void *inputs[2];
    void *output;
    int64_t inner_vectors;  // 16-byte vectors along the contiguous batch dim
    int64_t vectors;        // all of them: inner_vectors times the outer count
    int64_t length;         // elements (channels) per row
    int64_t chunk;          // channels a block of the tile stages: length / split, rounded up
    int64_t element_strides[3];
    int q_shift;  // Q = 1 << q_shift vectors a tile
    int split;    // blocks a tile (a cluster when more than 1)
    DeviceLayout outer_layout;
};

template <class T, class C>
struct StagedShared {
    static constexpr int kWarps = kStagedBlock / 32;
    static constexpr int kRows = kStagedMaxQ * Vector16<T>::kLanes;  // rows a tile holds at most
    C partial[kWarps][kRows];
    C shares[2][kRows];  // the block's row maxima and sums (split tiles: read by the tile's other blocks)
    C rows[2][kRows];    // the tile's row maxima and sums
    RowConstants<C> constants[kRows];
};

// Folds each thread's values (rows q * L + j) over the tile's threads, and a split tile's blocks, with
// `op` (max or sum: both symmetric) into shared.rows[slot], in a fixed order, so every block of the tile
// gets the same bits. All threads call it; they are synchronised when it returns. A split tile passes the
// cluster barrier (arrive and wait) before reading the other blocks' shares.
template <class T, class C, class Op>
__device__ __forceinline__ void reduce_tile(C (&values)[Vector16<T>::kLanes], StagedShared<T, C> &shared, int slot,
                                            int Q, int split, Op op) {
    constexpr int L = Vector16<T>::kLanes;
    // Threads of a warp with the same q: lanes Q apart.
#pragma unroll
    for (int j = 0; j < L; ++j) {
        for (int offset = 16; offset >= Q; offset >>= 1)
            values[j] = op(values[j], __shfl_xor_sync(0xffffffffu, values[j], offset));
    }
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, rows = Q * L;
    if (lane < Q) {
#pragma unroll
        for (int j = 0; j < L; ++j) shared.partial[warp][lane * L + j] = values[j];
    }
    __syncthreads();
    if (static_cast<int>(threadIdx.x) < rows) {
        C total = shared.partial[0][threadIdx.x];
#pragma unroll
        for (int w = 1; w < StagedShared<T, C>::kWarps; ++w) total = op(total, shared.partial[w][threadIdx.x]);
        (split == 1 ? shared.rows : shared.shares)[slot][threadIdx.x] = total;
    }
    if (split > 1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        namespace cg = cooperative_groups;
        cg::cluster_group cluster = cg::this_cluster();
        cluster_arrive();
        cluster_wait();  // every block's shares are visible cluster-wide
        if (static_cast<int>(threadIdx.x) < rows) {
            C total = *cluster.map_shared_rank(&shared.shares[slot][threadIdx.x], 0);
            for (int r = 1; r < split; ++r)
                total = op(total, *cluster.map_shared_rank(&shared.shares[slot][threadIdx.x], r));
            shared.rows[slot][threadIdx.x] = total;
        }
#else
        __trap();  // never launched split: the launcher checks that the kernel was built for sm_90 or later
#endif
    }
    __syncthreads();
}

// One tile for one algorithm and direction.
template <class T, class C, int Algorithm, bool Backward>
__device__ __forceinline__ void channel_tile(const StagedChannelArgs<C> &a, Vector16<T> *x0,
                                             StagedShared<T, C> &shared) {
    constexpr int L = Vector16<T>::kLanes;
    constexpr bool kFast = kFastExpOf<T>;
    const int Q = 1 << a.q_shift, q_shift = a.q_shift, split = a.split;
    // A thread keeps one vector q of the tile (the block size is a multiple of Q), at channels g, g + G,
    // ... of the block's share; it reads back only what it staged itself, so no barrier is needed between
    // the copies and the reads.
    const int q = threadIdx.x & (Q - 1);
    const int g = threadIdx.x >> q_shift, G = kStagedBlock >> q_shift;
    const int rank = static_cast<int>(blockIdx.x % split);
    const int64_t vector = static_cast<int64_t>(blockIdx.x / split) * Q + q;
    const bool active = vector < a.vectors;
    const int64_t o = active ? vector / a.inner_vectors : 0, v = active ? vector - o * a.inner_vectors : 0;
    int64_t at[3];
    offsets_of(a.outer_layout, o, at);
    const int64_t s0 = a.element_strides[0], s1 = a.element_strides[1], s2 = a.element_strides[2];
    const int64_t c_begin = rank * a.chunk;
    const int64_t length = max(int64_t{0}, min(a.chunk, a.length - c_begin));  // this block's channels
    T *out = static_cast<T *>(a.output) + at[0] + v * L + c_begin * s0;
    const T *in0 = static_cast<const T *>(a.inputs[0]) + at[1] + v * L + c_begin * s1;
    const T *in1 = static_cast<const T *>(a.inputs[1]) + at[2] + v * L + c_begin * s2;
    Vector16<T> *x1 = x0 + (a.chunk << q_shift);
    if (active) {
        for (int64_t c = g; c < length; c += G) {
            async_copy16(&x0[(c << q_shift) + q], in0 + c * s1);
            if constexpr (Backward) async_copy16(&x1[(c << q_shift) + q], in1 + c * s2);
        }
    }
    async_copy_wait_all();

    // The thread's staged vectors: `count` of them, `staged_step` apart (pointer steps; no 64-bit index).
    const int count = active ? static_cast<int>((length - g + G - 1) / G) : 0;
    const int64_t first = (int64_t{g} << q_shift) + q;
    const int staged_step = G << q_shift;
    const Vector16<T> *const staged_x = x0 + first, *const staged_dy = x1 + first;

    // The row statistics in two reductions over the tile: forward ACCURATE and LOG take each row's max
    // first, so that every thread then sums e^(x - the row's max) and the partial sums simply add (no
    // rescaling of partial statistics, no exponentials in the reductions).
    C maxima[L], sums[L];
#pragma unroll
    for (int j = 0; j < L; ++j) maxima[j] = -C(INFINITY), sums[j] = C(0);
    const auto max_op = [](C x, C y) { return math_fmax(x, y); };
    const auto sum_op = [](C x, C y) { return x + y; };
    if constexpr (!Backward && Algorithm != CUDNN_SOFTMAX_FAST) {
        if constexpr (sizeof(T) == 2) {
            PairMaxima<T> pair_maxima;
            const Vector16<T> *x = staged_x;
#pragma unroll 4
            for (int i = 0; i < count; ++i, x += staged_step) {
                const Vector16<T> v = *x;  // one 16-byte load (a memcpy from the pointer went byte by byte)
                pair_maxima.add(v);
            }
#pragma unroll
            for (int j = 0; j < L; ++j) maxima[j] = pair_maxima.lane(j);
        } else {
            const Vector16<T> *x = staged_x;
#pragma unroll 4
            for (int i = 0; i < count; ++i, x += staged_step) {
                const Vector16<T> v = *x;
#pragma unroll
                for (int j = 0; j < L; ++j) maxima[j] = math_fmax(maxima[j], to_compute<C>(v.lane[j]));
            }
        }
        reduce_tile(maxima, shared, 0, Q, split, max_op);
#pragma unroll
        for (int j = 0; j < L; ++j) maxima[j] = shared.rows[0][q * L + j];
    }
    {
        C shift[L];
#pragma unroll
        for (int j = 0; j < L; ++j) shift[j] = path_exp_base<Algorithm>(maxima[j]);
        const Vector16<T> *x = staged_x, *dy = staged_dy;
#pragma unroll 4
        for (int i = 0; i < count; ++i, x += staged_step, dy += staged_step) {
            const Vector16<T> v = *x;
            if constexpr (!Backward) {
#pragma unroll
                for (int j = 0; j < L; ++j) sums[j] += path_exp<kFast>(to_compute<C>(v.lane[j]) - shift[j]);
            } else {
                const Vector16<T> d = *dy;
#pragma unroll
                for (int j = 0; j < L; ++j)
                    sums[j] += path_backward_term<Algorithm>(to_compute<C>(v.lane[j]), to_compute<C>(d.lane[j]));
            }
        }
    }
    reduce_tile(sums, shared, 1, Q, split, sum_op);
    if (split > 1) cluster_arrive();  // done with the other blocks' shares (waited for before returning)
    if (static_cast<int>(threadIdx.x) < Q * L) {
        RowStats<C> total;
        total.max = !Backward && Algorithm != CUDNN_SOFTMAX_FAST ? shared.rows[0][threadIdx.x] : C(0);
        total.sum = shared.rows[1][threadIdx.x];
        shared.constants[threadIdx.x] = row_constants(total, Algorithm);
    }
    __syncthreads();
    RowConstants<C> k[L];
#pragma unroll
    for (int j = 0; j < L; ++j) k[j] = shared.constants[q * L + j];
    // Forward ACCURATE and FAST fold alpha into the scale.
    constexpr bool kAlphaInScale = !Backward && Algorithm != CUDNN_SOFTMAX_LOG;
    const C alpha = a.alpha, beta = a.beta;
    if constexpr (kAlphaInScale) {
#pragma unroll
        for (int j = 0; j < L; ++j) k[j].scale *= alpha;
    }
    const auto output_of = [&](const Vector16<T> &x, const Vector16<T> &dy, int j) {
        const C value0 = to_compute<C>(x.lane[j]);
        C value;
        if constexpr (Backward) {
            value = path_backward_value<Algorithm, kFast>(value0, to_compute<C>(dy.lane[j]), k[j]);
        } else {
            value = path_forward_value<Algorithm, kFast>(value0, k[j]);
        }
        return kAlphaInScale ? value : value * alpha;
    };

    // The output walks down the channels by pointer steps; blending is a loop of its own, so the common
    // loop carries no predicated reads of y.
    const int64_t step = int64_t{G} * s0;
    T *target = out + g * s0;
    const Vector16<T> *x = staged_x, *dy = staged_dy;
    if (!a.blend) {
#pragma unroll 2
        for (int i = 0; i < count; ++i, target += step, x += staged_step, dy += staged_step) {
            const Vector16<T> v = *x;
            Vector16<T> d, result;
            if constexpr (Backward) d = *dy;
#pragma unroll
            for (int j = 0; j < L; ++j) result.lane[j] = from_compute<T>(output_of(v, d, j));
            *reinterpret_cast<Vector16<T> *>(target) = result;
        }
    } else {
        for (int i = 0; i < count; ++i, target += step, x += staged_step, dy += staged_step) {
            const Vector16<T> v = *x, old = *reinterpret_cast<const Vector16<T> *>(target);
            Vector16<T> d, result;
            if constexpr (Backward) d = *dy;
#pragma unroll
            for (int j = 0; j < L; ++j)
                result.lane[j] = from_compute<T>(output_of(v, d, j) + beta * to_compute<C>(old.lane[j]));
            *reinterpret_cast<Vector16<T> *>(target) = result;
        }
    }
    if (split > 1) cluster_wait();
}

template <class T, class C>
__global__ void __launch_bounds__(kStagedBlock)
    softmax_channel_staged_kernel(const __grid_constant__ StagedChannelArgs<C> a) {
    extern __shared__ uint4 stage_words[];
    __shared__ StagedShared<T, C> shared;
    Vector16<T> *x0 = reinterpret_cast<Vector16<T> *>(stage_words);
    dispatch_softmax_path(a.algorithm, a.backward != 0, [&](auto algorithm, auto backward) {
        channel_tile<T, C, decltype(algorithm)::value, decltype(backward)::value>(a, x0, shared);
    });
}

template <class T, class C>
bool launch_staged_typed(cudaStream_t stream, const SoftmaxLaunch &launch, const StridedLayout &outer, int64_t inner,
                         Status *status) {
    constexpr int L = Vector16<T>::kLanes;
    if (inner % L != 0) return false;
    for (int k = 0; k < 3; ++k) {
        if (launch.row.strides[k][0] % L != 0) return false;
        for (int d = 0; d < outer.rank; ++d) {
            if (outer.strides[k][d] % L != 0) return false;
        }
    }
    const void *pointers[3] = {launch.output, launch.inputs[0], launch.inputs[1]};
    for (const void *pointer : pointers) {
        if ((reinterpret_cast<uintptr_t>(pointer) & 15u) != 0) return false;
    }
    const int64_t length = launch.row.element_count();
    const int64_t inner_vectors = inner / L;
    const int64_t vectors = inner_vectors * outer.element_count();
    const int64_t unit = 16 * (launch.backward ? 2 : 1);  // bytes one vector of one channel stages
    const auto staged_bytes = [&](int split, int q_shift) {
        return (((length + split - 1) / split) * unit) << q_shift;
    };
    const int budget = std::min(kStagedBudget, current_device_limits().max_dynamic_shared_bytes);
    const auto kernel = softmax_channel_staged_kernel<T, C>;
    // Clusters need an sm_90 device and the kernel as loaded to be sm_90 code (asked once per process and
    // type).
    static const bool built = built_for_sm90(reinterpret_cast<const void *>(kernel));
    const bool clusters = built && current_device_limits().compute_major >= 9;
    int q_shift = 3;  // no more vectors a tile than there are
    while (q_shift > 0 && (int64_t{1} << (q_shift - 1)) >= vectors) --q_shift;
    // Forward tiles keep 4 vectors or more (64 bytes of each channel) before they split over a cluster;
    // backward ones (two inputs staged) split first. Measured on the H200, half 256x1000x28x28: forward 4
    // vectors unsplit 3466 GB/s, 8 split in 2 3164; backward 8 split in 4 3510, 4 in 2 3361, 2 unsplit 2952.
    const int min_q_shift = launch.backward ? 3 : 2;
    while (q_shift > min_q_shift && staged_bytes(1, q_shift) > budget) --q_shift;
    int split = 1;
    while (split < (clusters ? kStagedMaxSplit : 1) && staged_bytes(split, q_shift) > budget) split *= 2;
    while (q_shift > 0 && staged_bytes(split, q_shift) > budget) --q_shift;
    if (staged_bytes(split, q_shift) > budget) return false;
    const size_t bytes = static_cast<size_t>(staged_bytes(split, q_shift));
    const int64_t tiles = (vectors + (int64_t{1} << q_shift) - 1) >> q_shift;
    // Unsplit tiles of Q = 4 (64 bytes of each channel: half of every 128-byte line) run in clusters of two
    // neighbouring tiles, so that a line's two halves are read at the same time on one GPC; the tiles
    // exchange nothing, and a last odd block has no vectors. Measured on the H200, forward ACCURATE
    // 256x1000x28x28: half 3583/3588 GB/s one tile a block, 3680/3654 paired; bfloat16 3559/3554 against
    // 3611/3588. (Forward tiles of Q < 4 are unsplit only with fewer than 4 vectors.)
    const int paired = clusters && split == 1 && q_shift == 2 ? 2 : 1;
    const int64_t blocks = (tiles + paired - 1) / paired * paired * split;
    if (blocks > 0x7fffffff) return false;
    static const SharedMemoryOptIn opt_in(reinterpret_cast<const void *>(kernel));
    if (!opt_in.allow(bytes)) return false;
    StagedChannelArgs<C> args{};
    args.inputs[0] = launch.inputs[0];
    args.inputs[1] = launch.inputs[1];
    args.output = launch.output;
    args.inner_vectors = inner_vectors;
    args.vectors = vectors;
    args.length = length;
    args.chunk = (length + split - 1) / split;
    for (int k = 0; k < 3; ++k) args.element_strides[k] = launch.row.strides[k][0];
    args.q_shift = q_shift;
    args.split = split;
    static_cast<SoftmaxScalars<C> &>(args) =
        softmax_scalars<C>(launch.algorithm, launch.backward, launch.alpha, launch.beta);
    args.outer_layout = to_device_layout(outer);
    if (split > 1) {
        *status =
            launch_clusters(stream, kernel, args, tiles, split, kStagedBlock, bytes, "softmax_channel_staged_kernel");
    } else if (paired > 1) {
        *status = launch_clusters(stream, kernel, args, blocks / paired, paired, kStagedBlock, bytes,
                                  "softmax_channel_staged_kernel");
    } else {
        kernel<<<static_cast<unsigned>(tiles), kStagedBlock, bytes, stream>>>(args);
        *status = check_launch("softmax_channel_staged_kernel");
    }
    return true;
}

bool launch_staged(cudaStream_t stream, const SoftmaxLaunch &launch, const StridedLayout &outer, int64_t inner,
                   Status *status) {
    switch (launch.type) {
        case ScalarType::f32: return launch_staged_typed<float, float>(stream, launch, outer, inner, status);
        case ScalarType::f64: return launch_staged_typed<double, double>(stream, launch, outer, inner, status);
        case ScalarType::f16: return launch_staged_typed<__half, float>(stream, launch, outer, inner, status);
        case ScalarType::bf16: return launch_staged_typed<__nv_bfloat16, float>(stream, launch, outer, inner, status);
        default: return false;
    }
}

}  // namespace

bool launch_softmax_channel_tiles(cudaStream_t stream, const SoftmaxLaunch &launch, Status *status) {
    const StridedLayout &batch = launch.batch;
    if (launch.row.rank != 1 || batch.rank < 1) return false;
    const int last = batch.rank - 1;
    for (int k = 0; k < 3; ++k) {
        if (batch.strides[k][last] != 1) return false;
    }
    const int64_t inner = batch.extents[last];
    // Worth it when a tile's rows are mostly there; huge grids stay with the general kernel.
    if (inner < kTileRows / 2 || (inner + kTileRows - 1) / kTileRows > 0x7fffffff) return false;
    StridedLayout outer = batch;
    outer.rank = last;
    if (outer.rank == 0) {
        outer.rank = 1;
        outer.extents[0] = 1;
        for (int k = 0; k < 3; ++k) outer.strides[k][0] = 0;
    }
    if (launch_staged(stream, launch, outer, inner, status)) return true;
    switch (launch.type) {
        case ScalarType::f32: *status = launch_typed<float, float>(stream, launch, outer, inner); return true;
        case ScalarType::f64: *status = launch_typed<double, double>(stream, launch, outer, inner); return true;
        case ScalarType::f16: *status = launch_typed<__half, float>(stream, launch, outer, inner); return true;
        case ScalarType::bf16: *status = launch_typed<__nv_bfloat16, float>(stream, launch, outer, inner); return true;
        default: return false;
    }
}

}  // namespace librednn::cuda
