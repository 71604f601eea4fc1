// What the persistent RNN kernels share (rnn_persistent.hpp: the forward in rnn_persistent.cu, backward data in
// rnn_persistent_backward.cu): a block's geometry, and the block-wide product of its rows (kept in shared memory
// for the whole sequence) with every sequence's vector of the step (read from L2, where other blocks wrote it
// before the grid-wide barrier). In FP32, in a fixed order: the same bits every time.
#pragma once

#include "cuda/common/async_copy.cuh"
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/rnn/rnn_persistent.hpp"
#include "ops/rnn/problem.hpp"

#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>

namespace librednn::cuda {

constexpr int kPersistentThreads = 256, kPersistentWarps = kPersistentThreads / 32;
constexpr int kPersistentChunk = 8;     // rows a thread multiplies at once
constexpr int kPersistentMaxRows = 32;  // rows a block keeps

// A block's geometry: `units` hidden units a block over `blocks` blocks (units = hidden / SMs, rounded up), `rows`
// rows of k a block (padded to whole chunks) in `quads` 4-float quads a row, the sequences in passes of `tile`
// (1 for a single sequence, else 4), and the dynamic shared memory: the rows, then the warps' partial sums
// [rows_pad][columns_pad][kPersistentWarps].
struct PersistentGeometry {
    int units = 0, blocks = 0, rows = 0, rows_pad = 0, quads = 0, tile = 1, columns_pad = 0;
    size_t bytes = 0;
};
inline PersistentGeometry persistent_geometry(int rows_per_unit, int k, int hidden, int batch, int sm_count) {
    PersistentGeometry g;
    g.units = (hidden + sm_count - 1) / sm_count;
    g.blocks = (hidden + g.units - 1) / g.units;
    g.rows = rows_per_unit * g.units;
    g.rows_pad = (g.rows + kPersistentChunk - 1) / kPersistentChunk * kPersistentChunk;
    g.quads = (k + 3) / 4;
    g.tile = batch == 1 ? 1 : 4;
    g.columns_pad = (batch + g.tile - 1) / g.tile * g.tile;
    g.bytes = static_cast<size_t>(g.rows_pad) * g.quads * sizeof(float4) +
              static_cast<size_t>(g.rows_pad) * g.columns_pad * kPersistentWarps * sizeof(float);
    return g;
}

// Why the persistent kernels decline a problem before its geometry is looked at (nullptr where they do not): the
// switch, the compute type, the projection, the batch, and `too_wide` with its sentence.
inline const char *persistent_declines(const RnnProblem &p, bool too_wide, const char *too_wide_reason) {
    static_assert(kRnnPersistentMaxBatch == 16, "the sentence below");
    if (!rnn_persistent_switched_on()) return "switched off by LIBREDNN_RNN_PERSISTENT=0";
    if (rnn_compute_type(p.net) != CUDNN_DATA_FLOAT) return "it computes in float only";
    if (p.net.projection()) return "it takes no projection";
    if (p.batch_size > kRnnPersistentMaxBatch) return "it takes batches of up to 16 sequences";
    return too_wide ? too_wide_reason : nullptr;
}
constexpr const char *kDoesNotFit =
    "a block's rows of R do not fit its shared memory or threads, or the device cannot hold every block at once";

// Whether `kernel` (kPersistentThreads threads a block) runs at geometry g with `cell_threads` cell threads a block
// and `bytes` of dynamic shared memory: g's rows and the cell threads within a block's limits, the shared memory
// opted in, every block resident at once. The persistent kernels' form is below; the wavefront's holds every layer.
inline bool persistent_launch_fits(const PersistentGeometry &g, int cell_threads, size_t bytes, const void *kernel,
                                   const SharedMemoryOptIn &opt_in) {
    return g.rows <= kPersistentMaxRows && cell_threads <= kPersistentThreads &&
           bytes <= static_cast<size_t>(current_device_limits().max_dynamic_shared_bytes) && opt_in.allow(bytes) &&
           cooperative_launch_fits(kernel, kPersistentThreads, bytes, g.blocks);
}

// The same for one pseudo-layer of `batch` sequences: units x batch cell threads, g.bytes.
inline bool persistent_geometry_fits(const PersistentGeometry &g, int batch, const void *kernel,
                                     const SharedMemoryOptIn &opt_in) {
    return persistent_launch_fits(g, g.units * batch, g.bytes, kernel, opt_in);
}

#ifdef __CUDACC__

__device__ __forceinline__ float persistent_dot4(const float4 &w, const float4 &h, float sum) {
    sum = fmaf(w.x, h.x, sum), sum = fmaf(w.y, h.y, sum), sum = fmaf(w.z, h.z, sum);
    return fmaf(w.w, h.w, sum);
}

// One level of warp_reduce_scatter: the lanes exchange across bit kOffset; kCount values are still the lane's.
template <int kCount, int kOffset, int V>
__device__ __forceinline__ void reduce_scatter_level(float (&v)[V], int lane, int &first) {
    if constexpr (kOffset >= 1) {
        if constexpr (kCount > 1) {
            constexpr int kHalf = kCount / 2;
            const bool upper = (lane & kOffset) != 0;
#pragma unroll
            for (int i = 0; i < kHalf; ++i) {
                const float send = upper ? v[i] : v[i + kHalf], keep = upper ? v[i + kHalf] : v[i];
                v[i] = keep + __shfl_xor_sync(0xffffffffu, send, kOffset);
            }
            if (upper) first += kHalf;
            reduce_scatter_level<kHalf, kOffset / 2>(v, lane, first);
        } else {
            v[0] += __shfl_xor_sync(0xffffffffu, v[0], kOffset);
            reduce_scatter_level<1, kOffset / 2>(v, lane, first);
        }
    }
}

// Sums v[V] (V a power of two from 2 to 32) over the warp's lanes and leaves each index's total in one lane's
// v[0] (lanes differing only in the lowest log2(32 / V) bits hold the same total). Each level halves the values
// a lane keeps: the lane whose bit `offset` is set keeps the upper half and sends the lower, its partner the
// reverse (31 shuffles where V is 32, instead of 5 each). Returns the index whose total the lane holds.
template <int V>
__device__ __forceinline__ int warp_reduce_scatter(float (&v)[V], int lane) {
    static_assert(V >= 2 && V <= 32 && (V & (V - 1)) == 0, "a power of two up to the warp");
    int first = 0;
    reduce_scatter_level<V, 16>(v, lane, first);
    return first;
}

// A quad of a row kept in shared memory as the data's own halves (exact in float): half the bytes of a float4.
struct alignas(8) PersistentHalfQuad {
    __half2 low, high;
};
__device__ __forceinline__ float4 persistent_row_quad(const float4 &quad) { return quad; }
__device__ __forceinline__ float4 persistent_row_quad(const PersistentHalfQuad &quad) {
    const float2 low = __half22float2(quad.low), high = __half22float2(quad.high);
    return make_float4(low.x, low.y, high.x, high.y);
}

// The step's vectors: sequence n's at base + n * stride, k elements; `vector`: k a multiple of 4 and every
// vector 16-byte aligned (16-byte loads).
struct PersistentVectors {
    const float *base;
    int64_t stride;
    int k, vector;
};

// Quad q of sequence n's vector (zeros past k), from L2: other blocks wrote it this launch (L1 is not coherent).
__device__ __forceinline__ float4 persistent_quad(const PersistentVectors &v, int n, int q) {
    const float *at = v.base + n * v.stride;
    if (v.vector) return __ldcg(reinterpret_cast<const float4 *>(at) + q);
    const int k = 4 * q;
    return make_float4(__ldcg(at + k), k + 1 < v.k ? __ldcg(at + k + 1) : 0.0f, k + 2 < v.k ? __ldcg(at + k + 2) : 0.0f,
                       k + 3 < v.k ? __ldcg(at + k + 3) : 0.0f);
}

// Row r's quad q in shared memory from `source` (its k floats; 16-byte aligned where `vector`): an asynchronous
// copy (async_copy_wait_all and a barrier complete it), or scalar loads with zeros past k.
__device__ __forceinline__ void persistent_stage_quad(float4 *target, const float *source, int k, int q, bool vector) {
    if (vector) {
        async_copy16(target, source + 4 * q);
        return;
    }
    const int e = 4 * q;
    *target = make_float4(source[e], e + 1 < k ? source[e + 1] : 0.0f, e + 2 < k ? source[e + 2] : 0.0f,
                          e + 3 < k ? source[e + 3] : 0.0f);
}
// The same for a row of halves kept as halves (PersistentHalfQuad; 8-byte aligned where `vector`), as plain loads.
__device__ __forceinline__ void persistent_stage_quad(PersistentHalfQuad *target, const __half *source, int k, int q,
                                                      bool vector) {
    const int e = 4 * q;
    if (vector) {
        *reinterpret_cast<uint2 *>(target) = __ldg(reinterpret_cast<const uint2 *>(source + e));
        return;
    }
    const __half zero = __float2half(0.0f);
    target->low = __halves2half2(source[e], e + 1 < k ? source[e + 1] : zero);
    target->high = __halves2half2(e + 2 < k ? source[e + 2] : zero, e + 3 < k ? source[e + 3] : zero);
}

// Pass `pass`'s quads of every sequence's vector that this thread multiplies (persistent_pass_products): quads
// threadIdx.x + j kPersistentThreads of sequences pass kBatch + c in h[j][c], zeros past k and past the batch.
template <int kBatch, int kMaxQuads>
__device__ __forceinline__ void persistent_load_pass(const PersistentGeometry &g, const PersistentVectors &vectors,
                                                     int batch, int pass, float4 (&h)[kMaxQuads][kBatch]) {
    const int tid = static_cast<int>(threadIdx.x);
#pragma unroll
    for (int j = 0; j < kMaxQuads; ++j)
#pragma unroll
        for (int c = 0; c < kBatch; ++c) {
            const int q = tid + j * kPersistentThreads, n = pass * kBatch + c;
            h[j][c] = q < g.quads && n < batch ? persistent_quad(vectors, n, q) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
}

// The block's products of its rows ([rows_pad][g.quads] quads in shared memory, float4 or PersistentHalfQuad) with
// pass `pass`'s kBatch sequences, whose quads persistent_load_pass put in h: thread j multiplies its quads with the
// same quads of kPersistentChunk rows at a time, and each warp's sums meet in one lane each (warp_reduce_scatter)
// and go to partial[(row * columns_pad + column) * kPersistentWarps + warp]. After a barrier, persistent_sum adds a
// row's and column's warps in order.
template <int kBatch, int kMaxQuads, class Quad>
__device__ __forceinline__ void persistent_pass_products(const Quad *rows, const PersistentGeometry &g,
                                                         const float4 (&h)[kMaxQuads][kBatch], int pass,
                                                         float *partial) {
    constexpr int kValues = kPersistentChunk * kBatch;
    static_assert(kValues <= 32, "a chunk's sums fit a warp");
    const int tid = static_cast<int>(threadIdx.x), warp = tid / 32, lane = tid % 32, Q = g.quads;
    for (int chunk = 0; chunk < g.rows_pad / kPersistentChunk; ++chunk) {
        float sums[kValues];
#pragma unroll
        for (int v = 0; v < kValues; ++v) sums[v] = 0.0f;
#pragma unroll
        for (int j = 0; j < kMaxQuads; ++j) {
            const int q = tid + j * kPersistentThreads;
            if (q < Q) {
#pragma unroll
                for (int r = 0; r < kPersistentChunk; ++r) {
                    const float4 w = persistent_row_quad(rows[(chunk * kPersistentChunk + r) * Q + q]);
#pragma unroll
                    for (int c = 0; c < kBatch; ++c)
                        sums[r * kBatch + c] = persistent_dot4(w, h[j][c], sums[r * kBatch + c]);
                }
            }
        }
        const int index = warp_reduce_scatter<kValues>(sums, lane);
        constexpr int kReplicas = 32 / kValues - 1;  // lanes holding the same total: the first writes it
        if ((lane & kReplicas) == 0) {
            const int row = chunk * kPersistentChunk + index / kBatch, column = pass * kBatch + index % kBatch;
            partial[(row * g.columns_pad + column) * kPersistentWarps + warp] = sums[0];
        }
    }
}

// The block's products of its rows with every sequence's vector (read from L2), in passes of kBatch sequences:
// persistent_load_pass, then persistent_pass_products.
template <int kBatch, int kMaxQuads, class Quad = float4>
__device__ __forceinline__ void persistent_products(const Quad *rows, const PersistentGeometry &g,
                                                    const PersistentVectors &vectors, int batch, float *partial) {
    for (int pass = 0; pass < g.columns_pad / kBatch; ++pass) {
        float4 h[kMaxQuads][kBatch];
        persistent_load_pass<kBatch, kMaxQuads>(g, vectors, batch, pass, h);
        persistent_pass_products<kBatch, kMaxQuads>(rows, g, h, pass, partial);
    }
}

// `start` plus row r's product with sequence n's vector: the warps' parts in order.
__device__ __forceinline__ float persistent_sum(const float *partial, const PersistentGeometry &g, int r, int n,
                                                float start) {
    const float *parts = partial + (r * g.columns_pad + n) * kPersistentWarps;
#pragma unroll
    for (int w = 0; w < kPersistentWarps; ++w) start += parts[w];
    return start;
}

#endif  // __CUDACC__

}  // namespace librednn::cuda
