// The implicit-GEMM convolution kernels (implicit_gemm.hpp): one kernel per (math, direction), tiles of
// 128 x 64 outputs per block of 256 threads, the operands gathered from the tensors into shared memory
// a k-slice at a time (the next slice's loads in flight while the current one multiplies), then an
// epilogue that blends with alpha and beta (or applies the fused bias, z and ReLU) straight into the
// result tensor, whatever its strides.
#include "cuda/conv/implicit_gemm.hpp"

#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "ops/conv/validate.hpp"

#include <mma.h>

#include <algorithm>

namespace librednn::cuda {

namespace {

constexpr int kThreads = 256;
constexpr int kTileM = 128, kTileN = 64;
constexpr int kDims = 3;  // spatial dims, padded in front with extents of 1

enum class Dir : int { fwd, bwd_data, bwd_filter };

// One filter tap as the forward's A loader reads it: the input displacement along each spatial dim
// (filter position times dilation, mirrored for CUDNN_CONVOLUTION) and the element offset it makes.
struct ConvTapEntry {
    int at[kDims];
    int unused;
    int64_t delta;
};

struct ConvGemmArgs {
    int n, cg, kg, groups;
    int in[kDims], flt[kDims], out[kDims], pad[kDims], stride[kDims], dil[kDims];
    int taps, in_size, out_size;
    int flip;                     // CUDNN_CONVOLUTION: the input position of tap t is that of the mirrored tap
    int64_t xs[5], ys[5], ws[5];  // element strides: n, c, then spatial (x, y); k, c, then spatial (w)
    // log2 of the lanes of a vectorised int8 operand (NCHW_VECT_C: 2 for x4, 5 for x32; 0 for one scalar per
    // element). The strides above are then in scalars, dim 1's the step from one vector of channels to the
    // next; channel_offset() places a channel.
    int x_shift, y_shift, w_shift, z_shift;
    const void *x, *w, *y;
    void *result;
    ScalarType x_type, y_type, w_type;
    int64_t M, N, K;   // the product per group: M x N outputs, K terms each (backward data: the largest phase's)
    int phases;        // backward data: residue classes of input positions modulo the strides (1 otherwise)
    int vec_a, vec_b;  // the A rows' and B columns' runs load as 16-byte vectors
    int splits;
    int64_t k_per_split;
    void *partial;  // [groups][splits][M][N] sums when the filter gradient is split
    double alpha, beta;
    int fused, relu, relu_propagates_nan;
    double alpha2;
    const void *z;
    int64_t zs[5];
    const void *bias;
    ScalarType bias_type;
    int64_t bias_stride;
    int bias_shift;
    const ConvTapEntry *tap_table;  // forward IMPLICIT_PRECOMP_GEMM: each tap's offsets, precomputed
};

// --- what each math keeps in shared memory and accumulates in -----------------------------------------

template <ConvMath Math>
struct Path;
template <>
struct Path<ConvMath::f16_tensor> {
    using S = __half;
    using Acc = float;
    static constexpr bool kTensor = true;
    static constexpr int kK = 32, kPad = 8;
};
template <>
struct Path<ConvMath::bf16_tensor> {
    using S = __nv_bfloat16;
    using Acc = float;
    static constexpr bool kTensor = true;
    static constexpr int kK = 32, kPad = 8;
};
template <>
struct Path<ConvMath::tf32_tensor> {
    using S = float;
    using Acc = float;
    static constexpr bool kTensor = true;
    static constexpr int kK = 32, kPad = 4;
};
template <>
struct Path<ConvMath::f32_fma> {
    using S = float;
    using Acc = float;
    static constexpr bool kTensor = false;
    static constexpr int kK = 32, kPad = 1;
};
template <>
struct Path<ConvMath::f64_fma> {
    using S = double;
    using Acc = double;
    static constexpr bool kTensor = false;
    static constexpr int kK = 16, kPad = 1;
};
template <>
struct Path<ConvMath::i8_fma> {
    using S = int;
    using Acc = int;
    static constexpr bool kTensor = false;
    static constexpr int kK = 32, kPad = 1;
};

// One element as the path keeps it: the storage type converted (int8 and uint8 to int, half stays).
template <class S>
__device__ __forceinline__ S load_element(const void *base, ScalarType type, int64_t offset) {
    if constexpr (std::is_same_v<S, __half>) {
        return static_cast<const __half *>(base)[offset];
    } else if constexpr (std::is_same_v<S, __nv_bfloat16>) {
        return static_cast<const __nv_bfloat16 *>(base)[offset];
    } else if constexpr (std::is_same_v<S, int>) {
        return type == ScalarType::u8 ? static_cast<int>(static_cast<const uint8_t *>(base)[offset])
                                      : static_cast<int>(static_cast<const int8_t *>(base)[offset]);
    } else if constexpr (std::is_same_v<S, float>) {
        return load_as<float>(base, type, offset);  // float data, or half and bfloat16 under FMA math
    } else {
        return static_cast<const S *>(base)[offset];
    }
}

template <class S>
__device__ __forceinline__ S zero_element() {
    if constexpr (std::is_same_v<S, __half>) {
        return __float2half_rn(0.0f);
    } else if constexpr (std::is_same_v<S, __nv_bfloat16>) {
        return __float2bfloat16_rn(0.0f);
    } else {
        return S(0);
    }
}

// --- index arithmetic --------------------------------------------------------------------------------

// Where channel `c` lies from its tensor's channel 0, in scalars: `stride` per channel, or for a vectorised
// operand (`shift` = log2 lanes) lane c % lanes of vector c / lanes, `stride` scalars a vector.
__device__ __forceinline__ int64_t channel_offset(int64_t c, int64_t stride, int shift) {
    return (c >> shift) * stride + (c & ((int64_t{1} << shift) - 1));
}

// Splits `linear` (row-major over `extents`) into its coordinates.
__device__ __forceinline__ void split3(int linear, const int (&extents)[kDims], int (&at)[kDims]) {
    at[2] = linear % extents[2];
    linear /= extents[2];
    at[1] = linear % extents[1];
    at[0] = linear / extents[1];
}

// The filter coordinates tap `tap` reads the input through (mirrored for CUDNN_CONVOLUTION).
__device__ __forceinline__ void position_tap(const ConvGemmArgs &a, int tap, int (&f)[kDims]) {
    split3(a.flip ? a.taps - 1 - tap : tap, a.flt, f);
}

// Tap `tap`'s displacements and offset: read from the precomputed table (IMPLICIT_PRECOMP_GEMM) or
// worked out from the tap number (IMPLICIT_GEMM).
__device__ __forceinline__ void tap_offsets(const ConvGemmArgs &a, int tap, int (&at)[kDims], int64_t &delta) {
    if (a.tap_table != nullptr) {
        const ConvTapEntry e = a.tap_table[tap];
#pragma unroll
        for (int d = 0; d < kDims; ++d) at[d] = e.at[d];
        delta = e.delta;
        return;
    }
    int f[kDims];
    position_tap(a, tap, f);
    delta = 0;
#pragma unroll
    for (int d = 0; d < kDims; ++d) {
        at[d] = f[d] * a.dil[d];
        delta += at[d] * a.xs[2 + d];
    }
}

// Steps spatial coordinates `at` (row-major over `extents`) one position forward; true when it wrapped
// around (the caller carries into the next outer index).
__device__ __forceinline__ bool step3(int (&at)[kDims], const int (&extents)[kDims]) {
    if (++at[2] < extents[2]) return false;
    at[2] = 0;
    if (++at[1] < extents[1]) return false;
    at[1] = 0;
    if (++at[0] < extents[0]) return false;
    at[0] = 0;
    return true;
}

// Backward data with strides: the input positions of one residue class modulo the strides (one block's
// phase) are read by the taps of one residue class only, so each phase is a product of its own, without
// the taps that would only add zeros. With stride 1 there is one phase holding everything.
struct DataPhase {
    int64_t M = 0, K = 0;
    int q0[kDims] = {}, qcount[kDims] = {};                     // input positions q0 + stride * i, i < qcount
    int f0[kDims] = {}, fstep[kDims] = {}, fcount[kDims] = {};  // position taps f0 + fstep * j, j < fcount
    int qsize = 1;                                              // positions per image in the phase
};

__device__ __forceinline__ int gcd(int a, int b) {
    while (b != 0) {
        const int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

__device__ DataPhase data_phase(const ConvGemmArgs &a, int phase) {
    DataPhase ph;
    int taps = 1;
    for (int d = kDims - 1; d >= 0; --d) {
        const int s = a.stride[d], r = phase % s;  // (q + pad) mod s
        phase /= s;
        ph.q0[d] = ((r - a.pad[d]) % s + s) % s;
        ph.qcount[d] = ph.q0[d] < a.in[d] ? (a.in[d] - ph.q0[d] + s - 1) / s : 0;
        // Taps f with f * dilation = r (mod s): none unless gcd(dilation, s) divides r, else every
        // s / gcd-th from the first.
        const int g = gcd(a.dil[d], s);
        ph.fstep[d] = s / g;
        ph.f0[d] = a.flt[d];
        if (r % g == 0) {
            for (int f = 0; f < ph.fstep[d]; ++f) {
                if ((f * a.dil[d]) % s == r) {
                    ph.f0[d] = f;
                    break;
                }
            }
        }
        ph.fcount[d] = ph.f0[d] < a.flt[d] ? (a.flt[d] - ph.f0[d] + ph.fstep[d] - 1) / ph.fstep[d] : 0;
        ph.qsize *= ph.qcount[d];
        taps *= ph.fcount[d];
    }
    ph.M = static_cast<int64_t>(a.n) * ph.qsize;
    ph.K = static_cast<int64_t>(taps) * a.kg;
    return ph;
}

// The phase's position tap `tap` (row-major over its tap counts) as filter coordinates.
__device__ __forceinline__ void phase_tap(const DataPhase &ph, int tap, int (&f)[kDims]) {
    int j[kDims];
    split3(tap, ph.fcount, j);
#pragma unroll
    for (int d = 0; d < kDims; ++d) f[d] = ph.f0[d] + ph.fstep[d] * j[d];
}

// Loads `Count` consecutive elements at `offset` as 16-byte vectors (the caller checked alignment).
template <class S, int Count>
__device__ __forceinline__ void load_run(const void *base, int64_t offset, S (&out)[Count]) {
    static_assert((Count * sizeof(S)) % 16 == 0, "runs are whole 16-byte vectors");
    const uint4 *from = reinterpret_cast<const uint4 *>(static_cast<const S *>(base) + offset);
    uint4 vectors[Count * sizeof(S) / 16];
#pragma unroll
    for (int v = 0; v < static_cast<int>(Count * sizeof(S) / 16); ++v) vectors[v] = __ldg(from + v);
    memcpy(out, vectors, sizeof out);
}

template <class S, int Count>
__device__ __forceinline__ void fill_zero(S (&out)[Count]) {
#pragma unroll
    for (int i = 0; i < Count; ++i) out[i] = zero_element<S>();
}

// Whether a run of Count elements of S may load as vectors at all (storage and kept type the same size).
template <class S, int Count>
constexpr bool kVectorRuns = (Count * sizeof(S)) % 16 == 0 && !std::is_same_v<S, int>;

// --- the operand loaders: each thread loads a run of consecutive k of one A row and one B column -------

// A: row m of the tile, k in [k0, k0 + count). B: column j, k in [k0, k0 + count).
template <Dir D, class S, int Count>
struct RowLoader;

// Forward A: x[n][c][in(p, tap)], k = tap * cg + c.
template <class S, int Count>
struct RowLoader<Dir::fwd, S, Count> {
    bool valid;
    int64_t base;      // the window's origin: x's offset of image n, channel 0, position start
    int64_t channel0;  // the group's first channel
    int start[kDims];
    __device__ void init(const ConvGemmArgs &a, const DataPhase &, int g, int64_t m) {
        valid = m < a.M;
        const int n = valid ? static_cast<int>(m / a.out_size) : 0;
        int o[kDims];
        split3(valid ? static_cast<int>(m % a.out_size) : 0, a.out, o);
        base = n * a.xs[0];
        channel0 = static_cast<int64_t>(g) * a.cg;
        for (int d = 0; d < kDims; ++d) {
            start[d] = o[d] * a.stride[d] - a.pad[d];
            base += start[d] * a.xs[2 + d];
        }
    }
    __device__ bool inside(const ConvGemmArgs &a, const int (&at)[kDims]) const {
        bool in = true;
#pragma unroll
        for (int d = 0; d < kDims; ++d) in = in && start[d] + at[d] >= 0 && start[d] + at[d] < a.in[d];
        return in;
    }
    __device__ void load(const ConvGemmArgs &a, const DataPhase &, int64_t k0, S (&out)[Count]) const {
        int c = static_cast<int>(k0 % a.cg), tap = static_cast<int>(k0 / a.cg);
        int at[kDims] = {};
        int64_t delta = 0;
        // A run starting past the last tap (k0 >= K) loads nothing; the tap table has no entry for it.
        if (tap < a.taps) tap_offsets(a, tap, at, delta);
        if constexpr (kVectorRuns<S, Count>) {
            if (a.vec_a) {  // the run is Count channels of one tap, contiguous and aligned
                if (valid && k0 < a.K && inside(a, at)) {
                    load_run<S, Count>(a.x, base + delta + channel0 + c, out);
                } else {
                    fill_zero(out);
                }
                return;
            }
        }
#pragma unroll
        for (int i = 0; i < Count; ++i) {
            S value = zero_element<S>();
            if (valid && k0 + i < a.K && inside(a, at)) {
                value = load_element<S>(a.x, a.x_type, base + delta + channel_offset(channel0 + c, a.xs[1], a.x_shift));
            }
            out[i] = value;
            if (++c == a.cg) {
                c = 0;
                if (++tap < a.taps) tap_offsets(a, tap, at, delta);
            }
        }
    }
};

// Backward data A: dy[n][k][out(q, tap)], k index = (phase tap) * kg + k; zero where no output reads q.
template <class S, int Count>
struct RowLoader<Dir::bwd_data, S, Count> {
    bool valid;
    int64_t base;
    int start[kDims];  // q + pad
    __device__ void init(const ConvGemmArgs &a, const DataPhase &ph, int g, int64_t m) {
        valid = m < ph.M;
        const int n = valid ? static_cast<int>(m / ph.qsize) : 0;
        int i[kDims];
        split3(valid ? static_cast<int>(m % ph.qsize) : 0, ph.qcount, i);
        for (int d = 0; d < kDims; ++d) start[d] = ph.q0[d] + i[d] * a.stride[d] + a.pad[d];
        base = n * a.ys[0] + static_cast<int64_t>(g) * a.kg * a.ys[1];
    }
    __device__ bool position(const ConvGemmArgs &a, const int (&f)[kDims], int64_t *offset) const {
        bool inside = true;
#pragma unroll
        for (int d = 0; d < kDims; ++d) {
            const int t = start[d] - f[d] * a.dil[d];
            const int o = t / a.stride[d];
            inside = inside && t >= 0 && o * a.stride[d] == t && o < a.out[d];
            *offset += o * a.ys[2 + d];
        }
        return inside;
    }
    __device__ void load(const ConvGemmArgs &a, const DataPhase &ph, int64_t k0, S (&out)[Count]) const {
        int k = static_cast<int>(k0 % a.kg), tap = static_cast<int>(k0 / a.kg);
        int f[kDims];
        phase_tap(ph, tap, f);
        if constexpr (kVectorRuns<S, Count>) {
            if (a.vec_a) {  // Count filters of one tap, contiguous and aligned
                int64_t offset = base + k;
                const bool inside = position(a, f, &offset) && valid && k0 < ph.K;
                if (inside) {
                    load_run<S, Count>(a.y, offset, out);
                } else {
                    fill_zero(out);
                }
                return;
            }
        }
#pragma unroll
        for (int i = 0; i < Count; ++i) {
            S value = zero_element<S>();
            if (valid && k0 + i < ph.K) {
                int64_t offset = base + k * a.ys[1];
                if (position(a, f, &offset)) value = load_element<S>(a.y, a.y_type, offset);
            }
            out[i] = value;
            if (++k == a.kg) {
                k = 0;
                phase_tap(ph, ++tap, f);
            }
        }
    }
};

// Backward filter A: dy[n][k][p], k index = n * out_size + p.
template <class S, int Count>
struct RowLoader<Dir::bwd_filter, S, Count> {
    bool valid;
    int64_t base;
    __device__ void init(const ConvGemmArgs &a, const DataPhase &, int g, int64_t m) {
        valid = m < a.M;
        base = (static_cast<int64_t>(g) * a.kg + (valid ? m : 0)) * a.ys[1];
    }
    __device__ void load(const ConvGemmArgs &a, const DataPhase &, int64_t k0, S (&out)[Count]) const {
        int n = static_cast<int>(k0 / a.out_size);
        int o[kDims];
        split3(static_cast<int>(k0 % a.out_size), a.out, o);
#pragma unroll
        for (int i = 0; i < Count; ++i) {
            S value = zero_element<S>();
            if (valid && k0 + i < a.K) {
                const int64_t offset = base + n * a.ys[0] + o[0] * a.ys[2] + o[1] * a.ys[3] + o[2] * a.ys[4];
                value = load_element<S>(a.y, a.y_type, offset);
            }
            out[i] = value;
            if (step3(o, a.out)) ++n;
        }
    }
};

template <Dir D, class S, int Count>
struct ColumnLoader;

// Forward B: w[k][c][tap] with k index = tap * cg + c.
template <class S, int Count>
struct ColumnLoader<Dir::fwd, S, Count> {
    bool valid;
    int64_t base;
    __device__ void init(const ConvGemmArgs &a, const DataPhase &, int g, int64_t j) {
        valid = j < a.N;
        base = (static_cast<int64_t>(g) * a.kg + (valid ? j : 0)) * a.ws[0];
    }
    __device__ void load(const ConvGemmArgs &a, const DataPhase &, int64_t k0, S (&out)[Count]) const {
        int c = static_cast<int>(k0 % a.cg), tap = static_cast<int>(k0 / a.cg);
        int f[kDims];
        split3(tap, a.flt, f);
        if constexpr (kVectorRuns<S, Count>) {
            if (a.vec_b) {  // Count channels of one tap of a KRSC filter, contiguous and aligned
                if (valid && k0 < a.K) {
                    load_run<S, Count>(a.w, base + c + f[0] * a.ws[2] + f[1] * a.ws[3] + f[2] * a.ws[4], out);
                } else {
                    fill_zero(out);
                }
                return;
            }
        }
#pragma unroll
        for (int i = 0; i < Count; ++i) {
            S value = zero_element<S>();
            if (valid && k0 + i < a.K) {
                const int64_t offset =
                    base + channel_offset(c, a.ws[1], a.w_shift) + f[0] * a.ws[2] + f[1] * a.ws[3] + f[2] * a.ws[4];
                value = load_element<S>(a.w, a.w_type, offset);
            }
            out[i] = value;
            if (++c == a.cg) {
                c = 0;
                split3(++tap, a.flt, f);
            }
        }
    }
};

// Backward data B: w[k][c][tap] with k index = (phase tap) * kg + k, column c. The filter is read at
// the stored tap: the position tap mirrored back for CUDNN_CONVOLUTION.
template <class S, int Count>
struct ColumnLoader<Dir::bwd_data, S, Count> {
    bool valid;
    int64_t base;
    __device__ void init(const ConvGemmArgs &a, const DataPhase &, int g, int64_t j) {
        valid = j < a.N;
        base = static_cast<int64_t>(g) * a.kg * a.ws[0] + (valid ? j : 0) * a.ws[1];
    }
    __device__ int64_t tap_offset(const ConvGemmArgs &a, const int (&f)[kDims]) const {
        int64_t offset = 0;
#pragma unroll
        for (int d = 0; d < kDims; ++d) offset += (a.flip ? a.flt[d] - 1 - f[d] : f[d]) * a.ws[2 + d];
        return offset;
    }
    __device__ void load(const ConvGemmArgs &a, const DataPhase &ph, int64_t k0, S (&out)[Count]) const {
        int k = static_cast<int>(k0 % a.kg), tap = static_cast<int>(k0 / a.kg);
        int f[kDims];
        phase_tap(ph, tap, f);
        int64_t at = tap_offset(a, f);
#pragma unroll
        for (int i = 0; i < Count; ++i) {
            S value = zero_element<S>();
            if (valid && k0 + i < ph.K) value = load_element<S>(a.w, a.w_type, base + k * a.ws[0] + at);
            out[i] = value;
            if (++k == a.kg) {
                k = 0;
                phase_tap(ph, ++tap, f);
                at = tap_offset(a, f);
            }
        }
    }
};

// Backward filter B: x[n][c][in(p, tap)], column j = tap * cg + c, k index = n * out_size + p.
template <class S, int Count>
struct ColumnLoader<Dir::bwd_filter, S, Count> {
    bool valid;
    int64_t base;
    int f[kDims];
    __device__ void init(const ConvGemmArgs &a, const DataPhase &, int g, int64_t j) {
        valid = j < a.N;
        const int c = valid ? static_cast<int>(j % a.cg) : 0;
        position_tap(a, valid ? static_cast<int>(j / a.cg) : 0, f);
        base = (static_cast<int64_t>(g) * a.cg + c) * a.xs[1];
    }
    __device__ void load(const ConvGemmArgs &a, const DataPhase &, int64_t k0, S (&out)[Count]) const {
        int n = static_cast<int>(k0 / a.out_size);
        int o[kDims];
        split3(static_cast<int>(k0 % a.out_size), a.out, o);
#pragma unroll
        for (int i = 0; i < Count; ++i) {
            S value = zero_element<S>();
            if (valid && k0 + i < a.K) {
                int64_t offset = base + n * a.xs[0];
                bool inside = true;
#pragma unroll
                for (int d = 0; d < kDims; ++d) {
                    const int at = o[d] * a.stride[d] - a.pad[d] + f[d] * a.dil[d];
                    inside = inside && at >= 0 && at < a.in[d];
                    offset += at * a.xs[2 + d];
                }
                if (inside) value = load_element<S>(a.x, a.x_type, offset);
            }
            out[i] = value;
            if (step3(o, a.out)) ++n;
        }
    }
};

// --- the epilogue --------------------------------------------------------------------------------------

template <class C>
__device__ __forceinline__ C read_bias(const ConvGemmArgs &a, int64_t channel) {
    return load_as<C>(a.bias, a.bias_type, channel_offset(channel, a.bias_stride, a.bias_shift));
}

// Writes one finished sum: result = alpha * sum + beta * result, or fused: act(alpha * sum + alpha2 * z +
// bias). Computes in double for double data, else float.
template <Dir D, class Acc>
__device__ __forceinline__ void write_output(const ConvGemmArgs &a, const DataPhase &ph, int g, int64_t m, int64_t j,
                                             Acc sum) {
    using C = std::conditional_t<std::is_same_v<Acc, double>, double, float>;
    int64_t offset = 0, z_offset = 0, channel = 0;
    ScalarType type = a.y_type;
    if constexpr (D == Dir::fwd) {
        const int n = static_cast<int>(m / a.out_size);
        int o[kDims];
        split3(static_cast<int>(m % a.out_size), a.out, o);
        channel = static_cast<int64_t>(g) * a.kg + j;
        offset = n * a.ys[0] + channel_offset(channel, a.ys[1], a.y_shift) + o[0] * a.ys[2] + o[1] * a.ys[3] +
                 o[2] * a.ys[4];
        z_offset = n * a.zs[0] + channel_offset(channel, a.zs[1], a.z_shift) + o[0] * a.zs[2] + o[1] * a.zs[3] +
                   o[2] * a.zs[4];
    } else if constexpr (D == Dir::bwd_data) {
        const int n = static_cast<int>(m / ph.qsize);
        int i[kDims];
        split3(static_cast<int>(m % ph.qsize), ph.qcount, i);
        offset = n * a.xs[0] + (static_cast<int64_t>(g) * a.cg + j) * a.xs[1];
#pragma unroll
        for (int d = 0; d < kDims; ++d) offset += (ph.q0[d] + i[d] * a.stride[d]) * a.xs[2 + d];
        type = a.x_type;
    } else {
        const int c = static_cast<int>(j % a.cg);
        int t[kDims];
        split3(static_cast<int>(j / a.cg), a.flt, t);
        offset = (static_cast<int64_t>(g) * a.kg + m) * a.ws[0] + c * a.ws[1] + t[0] * a.ws[2] + t[1] * a.ws[3] +
                 t[2] * a.ws[4];
        type = a.w_type;
    }
    C value = static_cast<C>(a.alpha) * static_cast<C>(sum);
    if (D == Dir::fwd && a.fused) {
        value += read_bias<C>(a, channel);
        if (a.alpha2 != 0.0) value += static_cast<C>(a.alpha2) * load_as<C>(a.z, a.y_type, z_offset);
        if (a.relu) {
            if (value != value) {
                if (!a.relu_propagates_nan) value = C(0);
            } else if (value < C(0)) {
                value = C(0);
            }
        }
    } else if (a.beta != 0.0) {
        value += static_cast<C>(a.beta) * load_as<C>(a.result, type, offset);
    }
    store_as<C>(a.result, type, offset, value);
}

// Either writes the sum (one part) or keeps it as this split's partial sum.
template <Dir D, class Acc>
__device__ __forceinline__ void finish(const ConvGemmArgs &a, const DataPhase &ph, int g, int split, int64_t m,
                                       int64_t j, Acc sum) {
    if (m >= (D == Dir::bwd_data ? ph.M : a.M) || j >= a.N) return;
    if (a.splits > 1) {
        static_cast<Acc *>(a.partial)[((static_cast<int64_t>(g) * a.splits + split) * a.M + m) * a.N + j] = sum;
    } else {
        write_output<D, Acc>(a, ph, g, m, j, sum);
    }
}

// --- the kernel ---------------------------------------------------------------------------------------

template <ConvMath Math, Dir D>
__global__ void __launch_bounds__(kThreads) conv_gemm_kernel(const __grid_constant__ ConvGemmArgs a) {
    using P = Path<Math>;
    using S = typename P::S;
    using Acc = typename P::Acc;
    constexpr int kK = P::kK, kLd = kK + P::kPad;
    constexpr int kRowRun = kK / 2, kColumnRun = kK / 4;
    constexpr int kStageBytes = (kTileM + kTileN) * kLd * static_cast<int>(sizeof(S));
    constexpr int kOutBytes = P::kTensor ? kTileM * (kTileN + 4) * static_cast<int>(sizeof(float)) : 0;
    __shared__ __align__(128) unsigned char smem[kStageBytes > kOutBytes ? kStageBytes : kOutBytes];
    S *tile_a = reinterpret_cast<S *>(smem);                 // [kTileM][kLd], row-major
    S *tile_b = reinterpret_cast<S *>(smem) + kTileM * kLd;  // [kTileN][kLd]: B column-major

    const int t = threadIdx.x;
    const int parts = D == Dir::bwd_data ? a.phases : a.splits;
    const int g = static_cast<int>(blockIdx.z) / parts, part = static_cast<int>(blockIdx.z) % parts;
    const int split = D == Dir::bwd_data ? 0 : part;
    DataPhase ph;
    if constexpr (D == Dir::bwd_data) {
        ph = data_phase(a, part);
        if (static_cast<int64_t>(blockIdx.x) * kTileM >= ph.M) return;  // the phase has fewer rows
    }
    const int64_t m0 = static_cast<int64_t>(blockIdx.x) * kTileM, n0 = static_cast<int64_t>(blockIdx.y) * kTileN;
    const int64_t k_total = D == Dir::bwd_data ? ph.K : a.K;
    const int64_t k_begin = split * a.k_per_split, k_end = min(k_total, k_begin + a.k_per_split);

    const int row = t >> 1, row_k = (t & 1) * kRowRun;
    const int column = t >> 2, column_k = (t & 3) * kColumnRun;
    RowLoader<D, S, kRowRun> rows;
    ColumnLoader<D, S, kColumnRun> columns;
    rows.init(a, ph, g, m0 + row);
    columns.init(a, ph, g, n0 + column);
    S a_regs[kRowRun], b_regs[kColumnRun];

    // Tensor-core accumulators: 8 warps as 4 x 2, each 32 x 32 in 2 x 2 fragments of 16 x 16. FMA
    // accumulators: each thread 8 rows x 4 columns.
    constexpr int kFragK = Math == ConvMath::tf32_tensor ? 8 : 16;
    using FragA =
        std::conditional_t<Math == ConvMath::tf32_tensor,
                           nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 8, nvcuda::wmma::precision::tf32,
                                                  nvcuda::wmma::row_major>,
                           nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16,
                                                  std::conditional_t<P::kTensor, S, __half>, nvcuda::wmma::row_major>>;
    using FragB =
        std::conditional_t<Math == ConvMath::tf32_tensor,
                           nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 8, nvcuda::wmma::precision::tf32,
                                                  nvcuda::wmma::col_major>,
                           nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16,
                                                  std::conditional_t<P::kTensor, S, __half>, nvcuda::wmma::col_major>>;
    using FragC = nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, kFragK, float>;
    FragC frag_c[2][2];
    Acc acc[8][4];
    const int warp = t / 32, warp_m = warp % 4, warp_n = warp / 4;
    if constexpr (P::kTensor) {
#pragma unroll
        for (int i = 0; i < 2; ++i)
#pragma unroll
            for (int j = 0; j < 2; ++j) nvcuda::wmma::fill_fragment(frag_c[i][j], 0.0f);
    } else {
#pragma unroll
        for (int i = 0; i < 8; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j) acc[i][j] = Acc(0);
    }
    const int fma_row = (t / 16) * 8, fma_column = (t % 16) * 4;

    if (k_begin < k_end) {
        rows.load(a, ph, k_begin + row_k, a_regs);
        columns.load(a, ph, k_begin + column_k, b_regs);
    }
    for (int64_t k = k_begin; k < k_end; k += kK) {
        __syncthreads();  // the previous slice is no longer read
#pragma unroll
        for (int i = 0; i < kRowRun; ++i) tile_a[row * kLd + row_k + i] = a_regs[i];
#pragma unroll
        for (int i = 0; i < kColumnRun; ++i) tile_b[column * kLd + column_k + i] = b_regs[i];
        __syncthreads();
        if (k + kK < k_end) {  // the next slice's loads in flight during the products
            rows.load(a, ph, k + kK + row_k, a_regs);
            columns.load(a, ph, k + kK + column_k, b_regs);
        }
        if constexpr (P::kTensor) {
#pragma unroll
            for (int kk = 0; kk < kK; kk += kFragK) {
                FragA frag_a[2];
                FragB frag_b[2];
#pragma unroll
                for (int i = 0; i < 2; ++i) {
                    nvcuda::wmma::load_matrix_sync(frag_a[i], tile_a + (warp_m * 32 + i * 16) * kLd + kk, kLd);
                    nvcuda::wmma::load_matrix_sync(frag_b[i], tile_b + (warp_n * 32 + i * 16) * kLd + kk, kLd);
                    if constexpr (Math == ConvMath::tf32_tensor) {
#pragma unroll
                        for (int e = 0; e < frag_a[i].num_elements; ++e)
                            frag_a[i].x[e] = nvcuda::wmma::__float_to_tf32(frag_a[i].x[e]);
#pragma unroll
                        for (int e = 0; e < frag_b[i].num_elements; ++e)
                            frag_b[i].x[e] = nvcuda::wmma::__float_to_tf32(frag_b[i].x[e]);
                    }
                }
#pragma unroll
                for (int i = 0; i < 2; ++i)
#pragma unroll
                    for (int j = 0; j < 2; ++j)
                        nvcuda::wmma::mma_sync(frag_c[i][j], frag_a[i], frag_b[j], frag_c[i][j]);
            }
        } else {
#pragma unroll 4
            for (int kk = 0; kk < kK; ++kk) {
                Acc av[8], bv[4];
#pragma unroll
                for (int i = 0; i < 8; ++i) av[i] = static_cast<Acc>(tile_a[(fma_row + i) * kLd + kk]);
#pragma unroll
                for (int j = 0; j < 4; ++j) bv[j] = static_cast<Acc>(tile_b[(fma_column + j) * kLd + kk]);
#pragma unroll
                for (int i = 0; i < 8; ++i)
#pragma unroll
                    for (int j = 0; j < 4; ++j) acc[i][j] += av[i] * bv[j];
            }
        }
    }

    if constexpr (P::kTensor) {
        __syncthreads();
        float *out = reinterpret_cast<float *>(smem);  // [kTileM][kTileN + 4]
#pragma unroll
        for (int i = 0; i < 2; ++i)
#pragma unroll
            for (int j = 0; j < 2; ++j)
                nvcuda::wmma::store_matrix_sync(out + (warp_m * 32 + i * 16) * (kTileN + 4) + warp_n * 32 + j * 16,
                                                frag_c[i][j], kTileN + 4, nvcuda::wmma::mem_row_major);
        __syncthreads();
        for (int e = t; e < kTileM * kTileN; e += kThreads) {
            const int r = e / kTileN, c = e % kTileN;
            finish<D, float>(a, ph, g, split, m0 + r, n0 + c, out[r * (kTileN + 4) + c]);
        }
    } else {
#pragma unroll
        for (int i = 0; i < 8; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j)
                finish<D, Acc>(a, ph, g, split, m0 + fma_row + i, n0 + fma_column + j, acc[i][j]);
    }
}

// Adds the split filter-gradient sums in split order and writes them.
template <class Acc>
__global__ void __launch_bounds__(kThreads) conv_split_sum_kernel(const __grid_constant__ ConvGemmArgs a) {
    const int64_t per_group = a.M * a.N;
    const int64_t total = per_group * a.groups;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int g = static_cast<int>(e / per_group);
        const int64_t mn = e % per_group;
        const Acc *parts = static_cast<const Acc *>(a.partial) + static_cast<int64_t>(g) * a.splits * per_group + mn;
        Acc sum = Acc(0);
        for (int s = 0; s < a.splits; ++s) sum += parts[s * per_group];
        write_output<Dir::bwd_filter, Acc>(a, DataPhase{}, g, mn / a.N, mn % a.N, sum);
    }
}

// IMPLICIT_PRECOMP_GEMM's table: every tap's displacements and offset, worked out once per call.
__global__ void fill_tap_table_kernel(const __grid_constant__ ConvGemmArgs a, ConvTapEntry *table) {
    const int tap = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (tap >= a.taps) return;
    ConvTapEntry e{};
    tap_offsets(a, tap, e.at, e.delta);
    table[tap] = e;
}

// --- products of one column ----------------------------------------------------------------------------

// Depthwise problems (every group one input and one output channel) make each group's product a single
// column: a tile would be one 64th full. Here the same implicit product runs one output per thread, the
// sum over the taps taken directly (in float, double for double), its operands gathered as the tiles
// would gather them (the forward reads IMPLICIT_PRECOMP_GEMM's tap table when there is one). Threads run
// over (position, group) in the order the written tensor's memory runs, so that loads and stores coalesce.
template <class Acc, Dir D>
__global__ void __launch_bounds__(kThreads)
    conv_single_column_kernel(const __grid_constant__ ConvGemmArgs a, int channels_inner) {
    static_assert(D != Dir::bwd_filter, "the filter gradient's sums are long: they stay tiled");
    const int positions = D == Dir::fwd ? a.out_size : a.in_size;
    const int64_t rows = static_cast<int64_t>(a.n) * positions, total = rows * a.groups;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        int64_t m;
        int g;
        if (channels_inner) {
            m = e / a.groups;
            g = static_cast<int>(e - m * a.groups);
        } else {
            g = static_cast<int>(e / rows);
            m = e - g * rows;
        }
        const int n = static_cast<int>(m / positions);
        int o[kDims];
        split3(static_cast<int>(m % positions), D == Dir::fwd ? a.out : a.in, o);
        Acc sum = Acc(0);
        if constexpr (D == Dir::fwd) {
            int64_t base = n * a.xs[0] + static_cast<int64_t>(g) * a.xs[1];
            int start[kDims];
#pragma unroll
            for (int d = 0; d < kDims; ++d) {
                start[d] = o[d] * a.stride[d] - a.pad[d];
                base += start[d] * a.xs[2 + d];
            }
            for (int tap = 0; tap < a.taps; ++tap) {
                int at[kDims], t[kDims];
                int64_t delta;
                tap_offsets(a, tap, at, delta);
                bool inside = true;
#pragma unroll
                for (int d = 0; d < kDims; ++d) inside = inside && start[d] + at[d] >= 0 && start[d] + at[d] < a.in[d];
                if (!inside) continue;
                split3(tap, a.flt, t);  // the filter as stored, paired with the position tap as the tiles pair them
                const int64_t w_offset = g * a.ws[0] + t[0] * a.ws[2] + t[1] * a.ws[3] + t[2] * a.ws[4];
                sum += load_as<Acc>(a.x, a.x_type, base + delta) * load_as<Acc>(a.w, a.w_type, w_offset);
            }
            write_output<Dir::fwd, Acc>(a, DataPhase{}, g, m, 0, sum);
        } else {
            // dx at input position o: every tap and the output position whose window puts that tap on o.
            for (int tap = 0; tap < a.taps; ++tap) {
                int f[kDims], t[kDims];
                position_tap(a, tap, f);
                bool reads = true;
                int64_t dy_offset = n * a.ys[0] + static_cast<int64_t>(g) * a.ys[1];
#pragma unroll
                for (int d = 0; d < kDims; ++d) {
                    const int from = o[d] + a.pad[d] - f[d] * a.dil[d];
                    const int out = from / a.stride[d];
                    reads = reads && from >= 0 && out * a.stride[d] == from && out < a.out[d];
                    dy_offset += out * a.ys[2 + d];
                }
                if (!reads) continue;
                split3(tap, a.flt, t);
                const int64_t w_offset = g * a.ws[0] + t[0] * a.ws[2] + t[1] * a.ws[3] + t[2] * a.ws[4];
                sum += load_as<Acc>(a.y, a.y_type, dy_offset) * load_as<Acc>(a.w, a.w_type, w_offset);
            }
            int64_t offset = n * a.xs[0] + static_cast<int64_t>(g) * a.xs[1];
#pragma unroll
            for (int d = 0; d < kDims; ++d) offset += o[d] * a.xs[2 + d];
            Acc value = static_cast<Acc>(a.alpha) * sum;
            if (a.beta != 0.0) value += static_cast<Acc>(a.beta) * load_as<Acc>(a.result, a.x_type, offset);
            store_as<Acc>(a.result, a.x_type, offset, value);
        }
    }
}

// Whether `a` is a problem of one-column products the kernel above takes.
bool single_column(const ConvGemmArgs &a, ConvMath math, ConvDirection direction) {
    return a.cg == 1 && a.kg == 1 && math != ConvMath::i8_fma && direction != ConvDirection::backward_filter;
}

Status launch_single_column(cudaStream_t stream, ConvMath math, ConvDirection direction, const ConvGemmArgs &a) {
    const bool forward = direction == ConvDirection::forward;
    const int64_t total = static_cast<int64_t>(a.n) * (forward ? a.out_size : a.in_size) * a.groups;
    const int grid = grid_size(total, kThreads, kThreads, 4);
    const int inner = (forward ? a.ys[1] : a.xs[1]) == 1 ? 1 : 0;
    if (math == ConvMath::f64_fma) {
        if (forward) {
            conv_single_column_kernel<double, Dir::fwd><<<grid, kThreads, 0, stream>>>(a, inner);
        } else {
            conv_single_column_kernel<double, Dir::bwd_data><<<grid, kThreads, 0, stream>>>(a, inner);
        }
    } else if (forward) {
        conv_single_column_kernel<float, Dir::fwd><<<grid, kThreads, 0, stream>>>(a, inner);
    } else {
        conv_single_column_kernel<float, Dir::bwd_data><<<grid, kThreads, 0, stream>>>(a, inner);
    }
    return check_launch("conv_single_column_kernel");
}

// --- planning -----------------------------------------------------------------------------------------

size_t tap_table_bytes(const ConvProblem &p) {
    int64_t taps = 1;
    for (int d = 0; d < p.spatial_dims; ++d) taps *= p.w.dims[d + 2];
    return (static_cast<size_t>(taps) * sizeof(ConvTapEntry) + 255) / 256 * 256;
}

int k_slice(ConvMath math) { return math == ConvMath::f64_fma ? 16 : 32; }

size_t accumulator_size(ConvMath math) { return math == ConvMath::f64_fma ? 8 : 4; }

// The GEMM sizes per group and, for the filter gradient, the split of its long sum.
void plan(const ConvProblem &p, ConvMath math, int sm_count, ConvGemmArgs *a) {
    const int spatial = p.spatial_dims;
    int64_t taps = 1, in_size = 1, out_size = 1;
    for (int d = 0; d < spatial; ++d) {
        taps *= p.w.dims[d + 2];
        in_size *= p.x.dims[d + 2];
        out_size *= p.y.dims[d + 2];
    }
    const int64_t n = p.x.dims[0], cg = p.x.dims[1] / p.groups, kg = p.w.dims[0] / p.groups;
    a->phases = 1;
    switch (p.direction) {
        case ConvDirection::forward: a->M = n * out_size, a->N = kg, a->K = taps * cg; break;
        case ConvDirection::backward_data: {
            // The largest phase: ceil(input / stride) positions along each dim.
            int64_t rows = 1;
            for (int d = 0; d < spatial; ++d) {
                rows *= (p.x.dims[d + 2] + p.stride[d] - 1) / p.stride[d];
                a->phases *= static_cast<int>(p.stride[d]);
            }
            a->M = n * rows, a->N = cg, a->K = taps * kg;
            break;
        }
        case ConvDirection::backward_filter: a->M = kg, a->N = taps * cg, a->K = n * out_size; break;
    }
    const int64_t kk = k_slice(math);
    const int64_t steps = (a->K + kk - 1) / kk;
    a->splits = 1;
    if (p.direction == ConvDirection::backward_filter) {
        const int64_t tiles = p.groups * ((a->M + kTileM - 1) / kTileM) * ((a->N + kTileN - 1) / kTileN);
        const int64_t wanted = (2 * static_cast<int64_t>(sm_count) + tiles - 1) / tiles;
        a->splits = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(wanted, steps / 4)));
        a->splits = static_cast<int>(std::min<int64_t>(a->splits, 65535 / std::max<int64_t>(1, p.groups)));
    }
    const int64_t steps_per_split = (steps + a->splits - 1) / a->splits;
    a->k_per_split = std::max<int64_t>(1, steps_per_split) * kk;
    a->splits = static_cast<int>(std::max<int64_t>(1, (a->K + a->k_per_split - 1) / a->k_per_split));
}

template <ConvMath Math, Dir D>
Status launch(cudaStream_t stream, const ConvGemmArgs &a) {
    const int parts = D == Dir::bwd_data ? a.phases : a.splits;
    const dim3 grid(static_cast<unsigned>((a.M + kTileM - 1) / kTileM),
                    static_cast<unsigned>((a.N + kTileN - 1) / kTileN), static_cast<unsigned>(a.groups * parts));
    conv_gemm_kernel<Math, D><<<grid, kThreads, 0, stream>>>(a);
    LIBREDNN_CHECK(check_launch("conv_gemm_kernel"));
    if (D == Dir::bwd_filter && a.splits > 1) {
        using Acc = typename Path<Math>::Acc;
        const int blocks = grid_size(a.M * a.N * a.groups, kThreads, kThreads, 2);
        conv_split_sum_kernel<Acc><<<blocks, kThreads, 0, stream>>>(a);
        LIBREDNN_CHECK(check_launch("conv_split_sum_kernel"));
    }
    return CUDNN_STATUS_SUCCESS;
}

template <Dir D>
Status launch_math(cudaStream_t stream, ConvMath math, const ConvGemmArgs &a) {
    switch (math) {
        case ConvMath::f16_tensor: return launch<ConvMath::f16_tensor, D>(stream, a);
        case ConvMath::bf16_tensor: return launch<ConvMath::bf16_tensor, D>(stream, a);
        case ConvMath::tf32_tensor: return launch<ConvMath::tf32_tensor, D>(stream, a);
        case ConvMath::f32_fma: return launch<ConvMath::f32_fma, D>(stream, a);
        case ConvMath::f64_fma: return launch<ConvMath::f64_fma, D>(stream, a);
        case ConvMath::i8_fma:
            if constexpr (D == Dir::fwd) return launch<ConvMath::i8_fma, D>(stream, a);
            break;
    }
    return fail(CUDNN_STATUS_NOT_SUPPORTED, "the implicit GEMM has no %s kernel for this direction",
                conv_math_name(math));
}

// log2 of the lanes of a vectorised int8 type (0 for one scalar per element).
int lane_shift(const TensorGeometry &g) {
    int shift = 0;
    while ((1 << shift) < g.vector()) ++shift;
    return shift;
}

// Strides of a tensor of 3 to 5 dims as (n, c, d, h, w), in scalars: missing leading spatial dims get 0.
// A vectorised tensor's strides count vectors; times the lanes they count scalars, and dim 1's is then the
// step between vectors of channels (channel_offset() adds the lane).
void strides5(const TensorGeometry &g, int64_t (&out)[5]) {
    const int spatial = g.nb_dims - 2;
    const int64_t lanes = g.vector();
    out[0] = g.strides[0] * lanes;
    out[1] = g.strides[1] * lanes;
    for (int d = 0; d < kDims; ++d) {
        const int from = d - (kDims - spatial);
        out[2 + d] = from >= 0 ? g.strides[2 + from] * lanes : 0;
    }
}

// Bytes of the type each math keeps operands in (0: not the storage type, no vector runs).
size_t kept_size(ConvMath math, cudnnDataType_t storage) {
    switch (math) {
        case ConvMath::f16_tensor:
        case ConvMath::bf16_tensor: return 2;
        case ConvMath::tf32_tensor:
        case ConvMath::f32_fma: return storage == CUDNN_DATA_FLOAT ? 4 : 0;
        case ConvMath::f64_fma: return 8;
        case ConvMath::i8_fma: return 0;
    }
    return 0;
}

// True when every run of `run` consecutive elements a thread loads along dim 1 (channels or filters)
// is contiguous and 16-byte aligned: unit stride along dim 1, every other stride whole vectors, the
// pointer aligned, and runs that never cross a tap (`per_tap` % run == 0; the group offset, per_tap
// elements a group, is then whole vectors too).
bool vector_runs(const void *data, size_t size, int64_t per_tap, int run, const int64_t (&strides)[5]) {
    if (size == 0 || data == nullptr || (reinterpret_cast<uintptr_t>(data) & 15u) != 0) return false;
    if ((static_cast<size_t>(run) * size) % 16 != 0 || per_tap % run != 0) return false;
    const int64_t lanes = static_cast<int64_t>(16 / size);
    if (strides[1] != 1) return false;
    for (int i = 0; i < 5; ++i) {
        if (i != 1 && strides[i] % lanes != 0) return false;
    }
    return true;
}

bool vector_runs_a(const ConvProblem &p, ConvMath math, const ConvGemmArgs &a) {
    const int run = (math == ConvMath::f64_fma ? 16 : 32) / 2;
    if (p.direction == ConvDirection::forward) return vector_runs(a.x, kept_size(math, p.x.dtype), a.cg, run, a.xs);
    if (p.direction == ConvDirection::backward_data)
        return vector_runs(a.y, kept_size(math, p.y.dtype), a.kg, run, a.ys);
    return false;
}

// The forward's filter runs along its channels: unit stride there is a KRSC filter.
bool vector_runs_b(const ConvProblem &p, ConvMath math, const ConvGemmArgs &a) {
    const int run = (math == ConvMath::f64_fma ? 16 : 32) / 4;
    if (p.direction == ConvDirection::forward) return vector_runs(a.w, kept_size(math, p.w.dtype), a.cg, run, a.ws);
    return false;
}

ScalarType scalar_of(cudnnDataType_t type) {
    ScalarType scalar = ScalarType::f32;
    scalar_type_of(type, &scalar);
    return scalar;
}

}  // namespace

const char *conv_math_name(ConvMath math) {
    switch (math) {
        case ConvMath::f16_tensor: return "half tensor-core";
        case ConvMath::bf16_tensor: return "bfloat16 tensor-core";
        case ConvMath::tf32_tensor: return "TF32 tensor-core";
        case ConvMath::f32_fma: return "float FMA";
        case ConvMath::f64_fma: return "double FMA";
        case ConvMath::i8_fma: return "int8 (int32 multiply-add)";
    }
    return "?";
}

bool implicit_gemm_math(const ConvProblem &p, ConvMath *math, const char **reason) {
    if (p.spatial_dims > kDims) {
        *reason = "takes 1 to 3 spatial dims";
        return false;
    }
    if (p.x.dims[0] * p.x.dims[1] > INT32_MAX / 2 || p.x.span_elements() > INT32_MAX ||
        p.y.span_elements() > INT32_MAX) {
        *reason = "takes tensors of fewer than 2^31 elements";
        return false;
    }
    int64_t phases = 1;
    for (int d = 0; d < p.spatial_dims; ++d) phases *= p.stride[d];
    if (p.direction == ConvDirection::backward_data && phases * p.groups > 65535) {
        *reason = "takes backward-data strides whose product times the group count is at most 65535";
        return false;
    }
    const cudnnDataType_t type = p.x.dtype;
    const bool fma_only = p.math_type == CUDNN_FMA_MATH;
    switch (type) {
        case CUDNN_DATA_HALF: *math = fma_only ? ConvMath::f32_fma : ConvMath::f16_tensor; break;
        case CUDNN_DATA_BFLOAT16: *math = fma_only ? ConvMath::f32_fma : ConvMath::bf16_tensor; break;
        case CUDNN_DATA_FLOAT: *math = fma_only ? ConvMath::f32_fma : ConvMath::tf32_tensor; break;
        case CUDNN_DATA_DOUBLE: *math = ConvMath::f64_fma; break;
        case CUDNN_DATA_INT8:
        case CUDNN_DATA_UINT8:
        case CUDNN_DATA_INT8x4:
        case CUDNN_DATA_UINT8x4:
        case CUDNN_DATA_INT8x32:  // NCHW_VECT_C: the loaders place each channel in its vector (channel_offset)
            if (p.direction != ConvDirection::forward) {
                *reason = "takes int8 data forward only";
                return false;
            }
            *math = ConvMath::i8_fma;
            break;
        default: *reason = "does not take this data type"; return false;
    }
    return true;
}

size_t implicit_gemm_workspace_bytes(const ConvProblem &problem, ConvIndexing indexing) {
    ConvMath math = ConvMath::f32_fma;
    const char *reason = nullptr;
    if (!implicit_gemm_math(problem, &math, &reason)) return 0;
    if (problem.direction == ConvDirection::forward && indexing == ConvIndexing::precomputed)
        return tap_table_bytes(problem);
    if (problem.direction != ConvDirection::backward_filter) return 0;
    ConvGemmArgs a{};
    plan(problem, math, current_device_limits().sm_count, &a);
    if (a.splits <= 1) return 0;
    return static_cast<size_t>(problem.groups) * a.splits * a.M * a.N * accumulator_size(math);
}

Status implicit_gemm(cudaStream_t stream, const ConvProblem &p, const ConvBuffers &buffers, void *workspace,
                     size_t workspace_bytes, ConvIndexing indexing) {
    ConvMath math = ConvMath::f32_fma;
    const char *reason = nullptr;
    if (!implicit_gemm_math(p, &math, &reason)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "the implicit GEMM %s", reason);
    }
    const bool precomputed = indexing == ConvIndexing::precomputed;
    if (precomputed && p.direction != ConvDirection::forward) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "the implicit GEMM precomputes its tap table forward only");
    }
    if (precomputed && (workspace == nullptr || workspace_bytes < tap_table_bytes(p))) {
        return fail(CUDNN_STATUS_BAD_PARAM, "IMPLICIT_PRECOMP_GEMM's tap table needs %zu bytes of workspace",
                    tap_table_bytes(p));
    }
    ConvGemmArgs a{};
    plan(p, math, current_device_limits().sm_count, &a);
    if (a.M == 0 || a.N == 0) return CUDNN_STATUS_SUCCESS;
    const int spatial = p.spatial_dims;
    a.n = static_cast<int>(p.x.dims[0]);
    a.groups = static_cast<int>(p.groups);
    a.cg = static_cast<int>(p.x.dims[1] / p.groups);
    a.kg = static_cast<int>(p.w.dims[0] / p.groups);
    a.taps = a.in_size = a.out_size = 1;
    for (int d = 0; d < kDims; ++d) {
        const int from = d - (kDims - spatial);
        const bool used = from >= 0;
        a.in[d] = used ? static_cast<int>(p.x.dims[2 + from]) : 1;
        a.flt[d] = used ? static_cast<int>(p.w.dims[2 + from]) : 1;
        a.out[d] = used ? static_cast<int>(p.y.dims[2 + from]) : 1;
        a.pad[d] = used ? static_cast<int>(p.pad[from]) : 0;
        a.stride[d] = used ? static_cast<int>(p.stride[from]) : 1;
        a.dil[d] = used ? static_cast<int>(p.dilation[from]) : 1;
        a.taps *= a.flt[d];
        a.in_size *= a.in[d];
        a.out_size *= a.out[d];
    }
    a.flip = p.mode == CUDNN_CONVOLUTION;
    strides5(p.x, a.xs);
    strides5(p.y, a.ys);
    strides5(p.w, a.ws);
    a.x_shift = lane_shift(p.x);
    a.y_shift = lane_shift(p.y);
    a.w_shift = lane_shift(p.w);
    a.x = buffers.x;
    a.w = buffers.w;
    a.y = buffers.y;
    a.result = buffers.result;
    a.x_type = scalar_of(p.x.dtype);
    a.y_type = scalar_of(p.y.dtype);
    a.w_type = scalar_of(p.w.dtype);
    a.vec_a = vector_runs_a(p, math, a) ? 1 : 0;
    a.vec_b = vector_runs_b(p, math, a) ? 1 : 0;
    a.alpha = p.alpha;
    a.beta = p.beta;
    if (p.epilogue.fused) {
        const ConvEpilogue &e = p.epilogue;
        a.fused = 1;
        a.alpha2 = e.alpha2;
        a.z = buffers.z;
        strides5(e.z, a.zs);
        a.z_shift = lane_shift(e.z);
        a.bias = buffers.bias;
        a.bias_type = scalar_of(e.bias.dtype);
        a.bias_stride = e.bias.strides[1] * e.bias.vector();
        a.bias_shift = lane_shift(e.bias);
        a.relu = e.activation == CUDNN_ACTIVATION_RELU;
        a.relu_propagates_nan = e.nan_opt == CUDNN_PROPAGATE_NAN;
    }
    if (a.splits > 1) {
        const size_t needed = static_cast<size_t>(p.groups) * a.splits * a.M * a.N * accumulator_size(math);
        if (workspace == nullptr || workspace_bytes < needed) {
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "the implicit GEMM's split filter gradient needs %zu bytes of workspace", needed);
        }
        a.partial = workspace;
    }
    if (precomputed) {
        auto *table = static_cast<ConvTapEntry *>(workspace);
        fill_tap_table_kernel<<<(a.taps + 127) / 128, 128, 0, stream>>>(a, table);
        LIBREDNN_CHECK(check_launch("fill_tap_table_kernel"));
        a.tap_table = table;
    }
    if (single_column(a, math, p.direction)) return launch_single_column(stream, math, p.direction, a);
    switch (p.direction) {
        case ConvDirection::forward:
            // The forward reads x and w; the direction-neutral names keep y for what it writes.
            return launch_math<Dir::fwd>(stream, math, a);
        case ConvDirection::backward_data: return launch_math<Dir::bwd_data>(stream, math, a);
        case ConvDirection::backward_filter: return launch_math<Dir::bwd_filter>(stream, math, a);
    }
    return fail(CUDNN_STATUS_BAD_PARAM, "unknown convolution direction");
}

}  // namespace librednn::cuda
