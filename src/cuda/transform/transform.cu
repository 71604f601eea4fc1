// Copy, broadcast, set and scale kernels (cudnnTransformTensor, cudnnAddTensor, cudnnSetTensor,
// cudnnScaleTensor): the flat copy family, the tiled transpose for packed NCHW <-> NHWC, and a 16-byte
// fill for packed set.
#include "cuda/common/elementwise_flat.cuh"
#include "cuda/transform/transform.hpp"

#include <type_traits>

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
    template <class T, class C, bool Gather>
    __device__ static void run(const FlatArgs<T, C> &a) {
        flat_loop<T, C, static_cast<int>(ElementwiseKind::copy), 0, Gather>(a);
    }
};

// --- tiled transpose: out[b][p][q] = in[b][q][p], both packed ---------------------------------------

// The tile is K x K elements, staged in shared memory as 4-byte words (8-byte for double). A word holds R
// elements of R consecutive input rows at one column (R = 4 / size for 1- and 2-byte types, else 1), so
// that the write side reads whole words down a column: small types are transposed R x R in registers on
// the way in. Word rows carry one word of padding, which spreads a column over the banks.
template <class T>
struct TransposeShape {
    static constexpr int kSize = static_cast<int>(sizeof(T));
    using Word = std::conditional_t<kSize == 8, uint64_t, uint32_t>;
    static constexpr int kR = static_cast<int>(sizeof(Word)) / kSize;            // elements per word
    static constexpr int kWordsPerVector = 16 / static_cast<int>(sizeof(Word));  // words per 16 bytes
    static constexpr int kElementsPerVector = 16 / kSize;
    // Tile rows of 128 bytes for 1-, 2- and 4-byte types, 256 for double (four vectors in flight a thread):
    // measured on the H200, float tiles of 64 (256-byte rows, 256 threads) moved 2750-3040 GB/s, tiles
    // of 32 3180-3900 (before the stores were whole vectors). With whole-vector stores, rectangular tiles
    // (32x64, 64x32, 32x128) and two tiles a block moved the same as 32x32 (4000-4060 GB/s).
    static constexpr int kTile = kSize == 1 ? 128 : kSize == 2 ? 64 : 32;  // K
    static constexpr int kThreads = 128;
    static constexpr int kWordRows = kTile / kR;
    static constexpr int kPitch = kTile + 1;                           // words per staged row
    static constexpr int kChunks = kTile / kElementsPerVector;         // 16-byte chunks per tile row
    static constexpr int kLoadItems = kWordRows * kChunks / kThreads;  // R vectors each
    static constexpr int kStoreItems = kTile * kChunks / kThreads;     // one vector each
    static_assert(kWordRows * kChunks % kThreads == 0 && kTile * kChunks % kThreads == 0, "tile split");
    // Wide tiles (one side a whole row of K + 1 to 2K elements): up to 2K staged rows of K + 1 words, or K
    // rows of 2K + 1.
    static constexpr int kWideWords = 2 * kWordRows * kPitch;
};

template <class C>
struct TransposeArgs {
    const void *input;
    void *output;
    int64_t rows, columns;  // P rows and Q columns of the output (the input is Q x P)
    uint32_t row_tiles, column_tiles;
    int vectors_ok;  // both pointers 16-byte aligned, P and Q whole 16-byte vectors
    // Edge tiles and unaligned shapes, per side: the input's rows are whole aligned vectors (P a multiple
    // of the lanes, x aligned); or a tile's input is one aligned run of whole rows (P no longer than the
    // tile, x aligned, each image whole vectors); the same for the output with Q. Else the input's row
    // segments load as the aligned 16-byte vectors that cover them (x aligned and each image whole
    // vectors, so no vector leaves the image).
    int in_vectors, in_runs, in_segments, out_vectors, out_runs;
    int raw, blend;
    C alpha, beta;
    // Wide tiles only: a tile's extent along P and Q (K, or the whole side), and the staged row pitch in
    // words (at least the P extent, odd).
    int p_span, q_span, pitch;
};

// Byte s of each of the four words, as one word (lane r from word r): the 4 x 4 byte transpose.
__device__ __forceinline__ uint32_t gather_byte(const uint32_t (&w)[4], int s) {
    const uint32_t low = __byte_perm(w[0], w[1], static_cast<uint32_t>(s | ((4 + s) << 4)));
    const uint32_t high = __byte_perm(w[2], w[3], static_cast<uint32_t>(s | ((4 + s) << 4)));
    return __byte_perm(low, high, 0x5410);
}

// One 16-byte store. Written as a uint4 assignment, nvcc emitted four 4-byte stores here (every type but
// int8): four times the L2 requests. Measured on the H200 (float NHWC -> NCHW, 128x256x56x56): 3398 GB/s
// with the split stores, 4048 with this one.
__device__ __forceinline__ void store_16_bytes(void *target, const uint32_t (&v)[4]) {
    asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"l"(target), "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3])
                 : "memory");
}

// alpha * value (+ beta * old when blending; old is not read otherwise), in the compute type.
template <class T, class C>
__device__ __forceinline__ T scaled(const TransposeArgs<C> &a, T value, const T &old) {
    C result = a.alpha * to_compute<C>(value);
    if (a.blend) result += a.beta * to_compute<C>(old);
    return from_compute<T>(result);
}

template <class T, class C>
__device__ __forceinline__ T blend_element(const TransposeArgs<C> &a, T value, const T *target) {
    return scaled(a, value, *target);
}

// alpha * values (+ beta * the target's) for one 16-byte vector of outputs, then the store.
template <class T, class C>
__device__ __forceinline__ void finish_vector(const TransposeArgs<C> &a, Vector16<T> values, T *target) {
    if (!a.raw) {
        Vector16<T> old;
        if (a.blend) old = *reinterpret_cast<const Vector16<T> *>(target);
#pragma unroll
        for (int e = 0; e < Vector16<T>::kLanes; ++e) values.lane[e] = scaled(a, values.lane[e], old.lane[e]);
    }
    uint32_t vector[4];
    memcpy(vector, &values, 16);
    store_16_bytes(target, vector);
}

// --- edge tiles (and shapes the full-tile path refuses): a tile is loaded into the same staging and
// stored from it, each side the widest way it allows: whole 16-byte vectors of rows (bounds checked a
// vector at a time); one contiguous run of whole rows read or written 16 bytes at a time (rows shorter
// than a tile: 7x7 images, few channels); for loads, row segments as the aligned 16-byte vectors that
// cover them, keeping the lanes inside the segment (rows longer than a tile but not whole vectors: float
// 7x7, half 14x14); or element by element. Stores have no segment path: storing the partial vectors at a
// segment's ends lane by lane was slower on the H200 than element stores, which coalesce across the warp
// (float 7x7 NHWC→NCHW 2891 → 2585 GB/s). The staged element of input (q0 + ql, p0 + pl) sits at word
// (ql / R, pl), lane ql % R.
//
// Wide tiles: where one side is not whole vectors and holds K + 1 to 2K elements (float 7x7 images: 49
// pixels), a tile takes that whole side by K of the other, staged with a pitch of its own (`Wide`
// kernels), so the side is one aligned run: two tiles of 32 and 17 rows, the second half empty and its
// 49-element rows stored element by element, become one. Extents and pitch then come from the
// arguments; the K x K kernels keep them constant.
template <class T, bool Wide>
struct TileSpans {
    int p, q, pitch;
    template <class C>
    __device__ __forceinline__ explicit TileSpans(const TransposeArgs<C> &a) {
        using S = TransposeShape<T>;
        if constexpr (Wide) {
            p = a.p_span, q = a.q_span, pitch = a.pitch;
        } else {
            p = S::kTile, q = S::kTile, pitch = S::kPitch;
        }
    }
    __device__ __forceinline__ int staged_index(int ql, int pl) const {
        using S = TransposeShape<T>;
        return ((ql / S::kR) * pitch + pl) * S::kR + ql % S::kR;
    }
};

// A wide tile's input as whole aligned vectors, either rows of them or one run of whole rows (at most
// 2K x K elements a tile), in rounds of kRound vectors a thread, each round's loads all issued before any
// is staged. Four 16-byte vectors: a float tile in one round; more (int8: 16) had ptxas spill.
template <class T, class C>
__device__ __forceinline__ void load_wide_tile(const TransposeArgs<C> &a, const T *in, int64_t p0, int64_t q0,
                                               int p_count, int q_count, T *elements) {
    using S = TransposeShape<T>;
    constexpr int L = S::kElementsPerVector, kRound = 4, kRounds = 2 * S::kTile * S::kChunks / S::kThreads / kRound;
    static_assert(kRounds * kRound * S::kThreads == 2 * S::kTile * S::kChunks, "wide tile split");
    const TileSpans<T, true> span(a);
    const int64_t P = a.rows;
    const int tid = threadIdx.x;
    Vector16<T> v[kRound];
    if (a.in_vectors) {
        // Vector (input row ql, chunk c): P is whole vectors, so its span is K.
        for (int round = 0; round < kRounds; ++round) {
#pragma unroll
            for (int i = 0; i < kRound; ++i) {
                const int item = tid + (round * kRound + i) * S::kThreads, ql = item / S::kChunks,
                          c = item % S::kChunks;
                if (ql < q_count && c * L < p_count) {
                    v[i] = *reinterpret_cast<const Vector16<T> *>(in + (q0 + ql) * P + p0 + c * L);
                }
            }
#pragma unroll
            for (int i = 0; i < kRound; ++i) {
                const int item = tid + (round * kRound + i) * S::kThreads, ql = item / S::kChunks,
                          c = item % S::kChunks;
                if (ql < q_count && c * L < p_count) {
#pragma unroll
                    for (int e = 0; e < L; ++e) elements[span.staged_index(ql, c * L + e)] = v[i].lane[e];
                }
            }
        }
        return;
    }
    // One run of q_count * P elements (p0 = 0, P at most 2K), 16-byte aligned; a last part vector goes
    // element by element.
    const T *run = in + q0 * P;
    const int count = q_count * static_cast<int>(P);
    for (int round = 0; round < kRounds; ++round) {
#pragma unroll
        for (int i = 0; i < kRound; ++i) {
            const int first = (tid + (round * kRound + i) * S::kThreads) * L;
            if (first + L <= count) v[i] = *reinterpret_cast<const Vector16<T> *>(run + first);
        }
#pragma unroll
        for (int i = 0; i < kRound; ++i) {
            const int first = (tid + (round * kRound + i) * S::kThreads) * L;
            if (first + L <= count) {
                int ql = first / static_cast<int>(P), pl = first - ql * static_cast<int>(P);
#pragma unroll
                for (int e = 0; e < L; ++e) {
                    elements[span.staged_index(ql, pl)] = v[i].lane[e];
                    if (++pl == P) pl = 0, ++ql;
                }
            }
        }
    }
    for (int f = count / L * L + tid; f < count; f += S::kThreads) {
        elements[span.staged_index(f / static_cast<int>(P), f % static_cast<int>(P))] = run[f];
    }
}

// Input rows q0 .. q0 + q_count - 1, columns p0 .. p0 + p_count - 1 of the tile, into `elements`.
template <class T, bool Wide, class C>
__device__ __forceinline__ void load_edge_tile(const TransposeArgs<C> &a, const T *in, int64_t p0, int64_t q0,
                                               int p_count, int q_count, T *elements) {
    using S = TransposeShape<T>;
    constexpr int L = S::kElementsPerVector;
    const TileSpans<T, Wide> span(a);
    const int64_t P = a.rows;
    const int tid = threadIdx.x;
    if constexpr (Wide) {
        if (a.in_vectors || (a.in_runs && P <= span.p))
            return load_wide_tile(a, in, p0, q0, p_count, q_count, elements);
    }
    if (a.in_vectors) {
        // Vector (input row ql, chunk c): whole or absent, since P is a multiple of L.
        for (int item = tid; item < span.q * S::kChunks; item += S::kThreads) {
            const int ql = item / S::kChunks, c = item % S::kChunks;
            if (ql >= q_count || c * L >= p_count) continue;
            const Vector16<T> v = *reinterpret_cast<const Vector16<T> *>(in + (q0 + ql) * P + p0 + c * L);
#pragma unroll
            for (int e = 0; e < L; ++e) elements[span.staged_index(ql, c * L + e)] = v.lane[e];
        }
    } else if (a.in_runs && P <= span.p) {
        // The tile's rows are one run of q_count * P elements (p0 = 0), 16-byte aligned.
        const T *run = in + q0 * P;
        const int count = q_count * static_cast<int>(P);
        for (int first = tid * L; first < count; first += S::kThreads * L) {
            int ql = first / static_cast<int>(P), pl = first - ql * static_cast<int>(P);
            if (first + L <= count) {
                const Vector16<T> v = *reinterpret_cast<const Vector16<T> *>(run + first);
#pragma unroll
                for (int e = 0; e < L; ++e) {
                    elements[span.staged_index(ql, pl)] = v.lane[e];
                    if (++pl == P) pl = 0, ++ql;
                }
            } else {
                for (int f = first; f < count; ++f) {
                    elements[span.staged_index(ql, pl)] = run[f];
                    if (++pl == P) pl = 0, ++ql;
                }
            }
        }
    } else if (a.in_segments) {
        // Vector j of input row ql's segment: the aligned vector at (segment start rounded down) + j L;
        // a segment of p_count elements is covered by at most `per_row` of them.
        const int per_row = (span.p + L - 1) / L + 1;
        for (int item = tid; item < span.q * per_row; item += S::kThreads) {
            const int ql = item / per_row, j = item % per_row;
            if (ql >= q_count) continue;
            const int64_t start = (q0 + ql) * P + p0;
            const int64_t base = (start & ~static_cast<int64_t>(L - 1)) + static_cast<int64_t>(j) * L;
            if (base >= start + p_count) continue;
            const Vector16<T> v = *reinterpret_cast<const Vector16<T> *>(in + base);
#pragma unroll
            for (int e = 0; e < L; ++e) {
                const int64_t pl = base + e - start;
                if (pl >= 0 && pl < p_count) elements[span.staged_index(ql, static_cast<int>(pl))] = v.lane[e];
            }
        }
    } else {
        for (int index = tid; index < span.q * span.p; index += S::kThreads) {
            const int ql = index / span.p, pl = index % span.p;
            if (ql < q_count && pl < p_count) elements[span.staged_index(ql, pl)] = in[(q0 + ql) * P + p0 + pl];
        }
    }
}

// Output rows p0 .. p0 + p_count - 1, columns q0 .. q0 + q_count - 1 of the tile, from `elements`.
template <class T, bool Wide, class C>
__device__ __forceinline__ void store_edge_tile(const TransposeArgs<C> &a, T *out, int64_t p0, int64_t q0, int p_count,
                                                int q_count, const T *elements) {
    using S = TransposeShape<T>;
    constexpr int L = S::kElementsPerVector;
    const TileSpans<T, Wide> span(a);
    const int64_t Q = a.columns;
    const int tid = threadIdx.x;
    if (a.out_vectors) {
        for (int item = tid; item < span.p * S::kChunks; item += S::kThreads) {
            const int pl = item / S::kChunks, c = item % S::kChunks;
            if (pl >= p_count || c * L >= q_count) continue;
            Vector16<T> v;
#pragma unroll
            for (int e = 0; e < L; ++e) v.lane[e] = elements[span.staged_index(c * L + e, pl)];
            finish_vector(a, v, out + (p0 + pl) * Q + q0 + c * L);
        }
    } else if (a.out_runs && Q <= span.q) {
        T *run = out + p0 * Q;
        const int count = p_count * static_cast<int>(Q);
        for (int first = tid * L; first < count; first += S::kThreads * L) {
            int pl = first / static_cast<int>(Q), ql = first - pl * static_cast<int>(Q);
            if (first + L <= count) {
                Vector16<T> v;
#pragma unroll
                for (int e = 0; e < L; ++e) {
                    v.lane[e] = elements[span.staged_index(ql, pl)];
                    if (++ql == Q) ql = 0, ++pl;
                }
                finish_vector(a, v, run + first);
            } else {
                for (int f = first; f < count; ++f) {
                    run[f] = a.raw ? elements[span.staged_index(ql, pl)]
                                   : blend_element(a, elements[span.staged_index(ql, pl)], run + f);
                    if (++ql == Q) ql = 0, ++pl;
                }
            }
        }
    } else {
        for (int index = tid; index < span.p * span.q; index += S::kThreads) {
            const int pl = index / span.q, ql = index % span.q;
            if (ql >= q_count || pl >= p_count) continue;
            const T value = elements[span.staged_index(ql, pl)];
            T *target = out + (p0 + pl) * Q + q0 + ql;
            *target = a.raw ? value : blend_element(a, value, target);
        }
    }
}

template <class T, class C, bool Wide>
__global__ void __launch_bounds__(TransposeShape<T>::kThreads)
    transpose_kernel(const __grid_constant__ TransposeArgs<C> a) {
    using S = TransposeShape<T>;
    using Word = typename S::Word;
    constexpr int K = S::kTile, R = S::kR;
    __shared__ Word staged[Wide ? S::kWideWords : S::kWordRows * S::kPitch];

    // One tile per block: column tiles fastest, then row tiles, then the batch.
    const TileSpans<T, Wide> span(a);
    const uint32_t tiles_per_matrix = a.row_tiles * a.column_tiles;
    const uint32_t b = blockIdx.x / tiles_per_matrix;
    const uint32_t within = blockIdx.x - b * tiles_per_matrix;
    const uint32_t row_tile = within / a.column_tiles;
    const int64_t P = a.rows, Q = a.columns;
    const int64_t p0 = static_cast<int64_t>(row_tile) * span.p;
    const int64_t q0 = static_cast<int64_t>(within - row_tile * a.column_tiles) * span.q;
    const T *in = static_cast<const T *>(a.input) + static_cast<int64_t>(b) * P * Q;  // in[q][p] at q * P + p
    T *out = static_cast<T *>(a.output) + static_cast<int64_t>(b) * P * Q;            // out[p][q] at p * Q + q
    const int tid = threadIdx.x;

    if (!Wide && a.vectors_ok && p0 + K <= P && q0 + K <= Q) {
        // Loads: item = (word row j, chunk c); R vectors from input rows q0 + R*j .. + R-1, all in flight.
        uint4 loaded[S::kLoadItems][R];
#pragma unroll
        for (int i = 0; i < S::kLoadItems; ++i) {
            const int item = tid + i * S::kThreads;
            const int j = item / S::kChunks, c = item % S::kChunks;
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const T *row = in + (q0 + R * j + r) * P + p0 + c * S::kElementsPerVector;
                loaded[i][r] = *reinterpret_cast<const uint4 *>(row);
            }
        }
#pragma unroll
        for (int i = 0; i < S::kLoadItems; ++i) {
            const int item = tid + i * S::kThreads;
            const int j = item / S::kChunks, c = item % S::kChunks;
            Word *target = staged + j * S::kPitch + c * S::kElementsPerVector;
            if constexpr (R == 1) {
                Word words[S::kWordsPerVector];
                memcpy(words, &loaded[i][0], 16);
#pragma unroll
                for (int w = 0; w < S::kWordsPerVector; ++w) target[w] = words[w];
            } else if constexpr (R == 2) {
                uint32_t row0[4], row1[4];
                memcpy(row0, &loaded[i][0], 16);
                memcpy(row1, &loaded[i][1], 16);
#pragma unroll
                for (int w = 0; w < 4; ++w) {
                    target[2 * w] = __byte_perm(row0[w], row1[w], 0x5410);      // column 2w: low halves
                    target[2 * w + 1] = __byte_perm(row0[w], row1[w], 0x7632);  // column 2w + 1: high halves
                }
            } else {
                uint32_t rows[4][4];
#pragma unroll
                for (int r = 0; r < 4; ++r) memcpy(rows[r], &loaded[i][r], 16);
#pragma unroll
                for (int w = 0; w < 4; ++w) {
                    const uint32_t column_words[4] = {rows[0][w], rows[1][w], rows[2][w], rows[3][w]};
#pragma unroll
                    for (int s = 0; s < 4; ++s) target[4 * w + s] = gather_byte(column_words, s);
                }
            }
        }
        __syncthreads();
        // Stores: item = (output row p0 + pp, chunk c): the words of rows c * kWordsPerVector .. down column pp.
#pragma unroll
        for (int i = 0; i < S::kStoreItems; ++i) {
            const int item = tid + i * S::kThreads;
            const int pp = item / S::kChunks, c = item % S::kChunks;
            Word words[S::kWordsPerVector];
#pragma unroll
            for (int w = 0; w < S::kWordsPerVector; ++w)
                words[w] = staged[(c * S::kWordsPerVector + w) * S::kPitch + pp];
            Vector16<T> values;
            memcpy(&values, words, 16);
            finish_vector(a, values, out + (p0 + pp) * Q + q0 + c * S::kElementsPerVector);
        }
        return;
    }

    // A tile at the edge, a wide tile, or a shape the path above refuses.
    T *elements = reinterpret_cast<T *>(staged);
    const int p_count = static_cast<int>(min(static_cast<int64_t>(span.p), P - p0));
    const int q_count = static_cast<int>(min(static_cast<int64_t>(span.q), Q - q0));
    load_edge_tile<T, Wide>(a, in, p0, q0, p_count, q_count, elements);
    __syncthreads();
    store_edge_tile<T, Wide>(a, out, p0, q0, p_count, q_count, elements);
}

template <class T, class C>
Status launch_transpose_typed(cudaStream_t stream, const ElementwiseCall &call, const ElementwisePlan &plan) {
    using S = TransposeShape<T>;
    constexpr int64_t K = S::kTile, L = S::kElementsPerVector;
    TransposeArgs<C> args;
    args.input = call.input_data[0];
    args.output = call.output_data;
    args.rows = plan.rows;
    args.columns = plan.columns;
    const bool in_aligned = (reinterpret_cast<uintptr_t>(args.input) & 15u) == 0;
    const bool out_aligned = (reinterpret_cast<uintptr_t>(args.output) & 15u) == 0;
    // Images of whole 16-byte vectors keep every image's start aligned; a tile's run starts K rows (a
    // multiple of 16 bytes) further on.
    const bool images_whole = (plan.rows * plan.columns) % L == 0;
    // Wide tiles take a side of K + 1 to 2K elements, not whole vectors, in one tile (its rows then load or
    // store as one run); P before Q, never both.
    const auto widens = [&](int64_t side) {
        return in_aligned && out_aligned && images_whole && side > K && side <= 2 * K && side % L != 0;
    };
    const bool wide_p = widens(plan.rows), wide_q = !wide_p && widens(plan.columns);
    args.p_span = static_cast<int>(wide_p ? plan.rows : K);
    args.q_span = static_cast<int>(wide_q ? plan.columns : K);
    args.pitch = args.p_span | 1;  // odd: a staged column spreads over the banks
    const int64_t row_tiles = (plan.rows + args.p_span - 1) / args.p_span;
    const int64_t column_tiles = (plan.columns + args.q_span - 1) / args.q_span;
    const int64_t tiles = row_tiles * column_tiles * plan.batch;
    // One block per tile: more tiles than a grid holds go the strided way (tensors of 2^37 elements).
    if (tiles > 0x7fffffff) return launch_strided_elementwise(stream, call, plan);
    args.row_tiles = static_cast<uint32_t>(row_tiles);
    args.column_tiles = static_cast<uint32_t>(column_tiles);
    args.in_vectors = in_aligned && plan.rows % L == 0;
    args.out_vectors = out_aligned && plan.columns % L == 0;
    args.in_runs = in_aligned && images_whole && plan.rows <= args.p_span;
    args.out_runs = out_aligned && images_whole && plan.columns <= args.q_span;
    args.in_segments = in_aligned && images_whole;
    args.vectors_ok = args.in_vectors && args.out_vectors;
    args.raw = plan.raw_copy ? 1 : 0;
    args.blend = plan.blend ? 1 : 0;
    args.alpha = static_cast<C>(call.alpha);
    args.beta = static_cast<C>(call.beta);
    if (wide_p || wide_q) {
        transpose_kernel<T, C, true><<<static_cast<unsigned>(tiles), S::kThreads, 0, stream>>>(args);
    } else {
        transpose_kernel<T, C, false><<<static_cast<unsigned>(tiles), S::kThreads, 0, stream>>>(args);
    }
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
