// The Winograd kernels (winograd.hpp): tile transforms through small matrices passed in the kernels'
// arguments, a batched matrix product over the transformed tiles, the fused F(2x2, 3x3) kernel, and the
// planning that casts each direction as a correlation of an input plane into an output plane.
#include "cuda/conv/winograd.hpp"

#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"

#include <algorithm>

namespace librednn::cuda {

namespace {

constexpr int kThreads = 256;
constexpr int kMaxAlpha = 6;
constexpr int kMaxTile = kMaxAlpha * kMaxAlpha;
constexpr int kMaxGrid = 65535;  // grid dims y and z

// A small row-major matrix, carried in the kernels' arguments.
struct Matrix {
    int rows = 0, cols = 0;
    float v[kMaxTile] = {};
};

// A 4-d tensor as the kernels address it: its element strides along (n, c, h, w) (a filter's k, c, r, s).
struct Tensor4 {
    const void *data = nullptr;
    ScalarType type = ScalarType::f32;
    int64_t s[4] = {};
};

// One direction as a correlation: `in` (images, groups of in_per_group channels, in_h x in_w) correlated
// with the filter w into out_per_group channels of out_h x out_w per group, padding pad; for the filter
// gradient, `in` is x, `dy` the output gradient and the result dw.
struct WinogradArgs {
    Matrix bt, g, at, a, gt;       // B^T, G, A^T of the tile, and A, G^T for the filter gradient
    int m = 0, r = 0, points = 0;  // the tile: m outputs of r taps from points = m + r - 1 inputs
    int n = 0, groups = 1, in_per_group = 0, out_per_group = 0;
    int in_h = 0, in_w = 0, out_h = 0, out_w = 0, pad_h = 0, pad_w = 0;
    int tiles_h = 0, tiles_w = 0;
    int64_t tiles = 0;  // n x tiles_h x tiles_w
    Tensor4 in, w, dy;
    int transposed = 0;  // backward data: the filter's k is the correlation's input channel
    int rotated = 0;     // the filter's taps read (r - 1 - a, r - 1 - b)
    void *out = nullptr;
    ScalarType out_type = ScalarType::f32;
    int64_t out_s[4] = {};
    double alpha = 1.0, beta = 0.0;
    int fused = 0, relu = 0, relu_propagates_nan = 0;
    double alpha2 = 0.0;
    Tensor4 z;
    const void *bias = nullptr;
    ScalarType bias_type = ScalarType::f32;
    int64_t bias_stride = 0;
    float *u = nullptr, *v = nullptr, *product = nullptr;  // the nonfused passes' workspace
};

// out (rows x rows) = L in L^T for `in` of cols x cols.
__device__ __forceinline__ void transform(const Matrix &l, const float *in, float *out) {
    float left[kMaxTile];
    for (int i = 0; i < l.rows; ++i) {
        for (int j = 0; j < l.cols; ++j) {
            float sum = 0.0f;
            for (int k = 0; k < l.cols; ++k) sum = fmaf(l.v[i * l.cols + k], in[k * l.cols + j], sum);
            left[i * l.cols + j] = sum;
        }
    }
    for (int i = 0; i < l.rows; ++i) {
        for (int j = 0; j < l.rows; ++j) {
            float sum = 0.0f;
            for (int k = 0; k < l.cols; ++k) sum = fmaf(left[i * l.cols + k], l.v[j * l.cols + k], sum);
            out[i * l.rows + j] = sum;
        }
    }
}

// The size x size window of plane (n, channel) of `t` (h x w) at (top, left), zeros outside.
__device__ __forceinline__ void load_window(const Tensor4 &t, int h, int w, int n, int channel, int top, int left,
                                            int size, float *out) {
    const int64_t base = n * t.s[0] + channel * t.s[1];
    for (int i = 0; i < size; ++i) {
        const int row = top + i;
        for (int j = 0; j < size; ++j) {
            const int column = left + j;
            const bool inside = row >= 0 && row < h && column >= 0 && column < w;
            out[i * size + j] = inside ? load_as<float>(t.data, t.type, base + row * t.s[2] + column * t.s[3]) : 0.0f;
        }
    }
}

// Tap (ta, tb) of the filter between the correlation's output channel o and input channel i of group g.
__device__ __forceinline__ float filter_tap(const WinogradArgs &a, int g, int o, int i, int ta, int tb) {
    const int k = a.transposed ? g * a.in_per_group + i : g * a.out_per_group + o;
    const int c = a.transposed ? o : i;
    if (a.rotated) {
        ta = a.r - 1 - ta;
        tb = a.r - 1 - tb;
    }
    return load_as<float>(a.w.data, a.w.type, k * a.w.s[0] + c * a.w.s[1] + ta * a.w.s[2] + tb * a.w.s[3]);
}

// result = alpha sum + beta result (beta 0: not read), or fused: act(alpha sum + alpha2 z + bias).
__device__ __forceinline__ void write_result(const WinogradArgs &a, int n, int channel, int row, int column,
                                             float sum) {
    const int64_t offset = n * a.out_s[0] + channel * a.out_s[1] + row * a.out_s[2] + column * a.out_s[3];
    float value = static_cast<float>(a.alpha) * sum;
    if (a.fused) {
        value += load_as<float>(a.bias, a.bias_type, channel * a.bias_stride);
        if (a.alpha2 != 0.0) {
            const int64_t z_offset = n * a.z.s[0] + channel * a.z.s[1] + row * a.z.s[2] + column * a.z.s[3];
            value += static_cast<float>(a.alpha2) * load_as<float>(a.z.data, a.z.type, z_offset);
        }
        if (a.relu) {
            if (value != value) {
                if (!a.relu_propagates_nan) value = 0.0f;
            } else if (value < 0.0f) {
                value = 0.0f;
            }
        }
    } else if (a.beta != 0.0) {
        value += static_cast<float>(a.beta) * load_as<float>(a.out, a.out_type, offset);
    }
    store_as<float>(a.out, a.out_type, offset, value);
}

// --- WINOGRAD: F(2x2, 3x3), fused ----------------------------------------------------------------------

constexpr int kFusedTiles = 32, kFusedOut = 32, kFusedIn = 8, kFusedTile = 16;

// Block (x, y, z): tiles 32 x, output channels 32 y, image and group z. Per slice of 8 input channels,
// thread (c, t) transforms input tile t of channel c and thread (c, o) the filter (o, c) into shared
// memory; then thread (o, 4 tiles) adds their products for its 4 tiles' 16 (xi, nu) each, channels in
// order. At the end it transforms its 4 tiles back.
__global__ void __launch_bounds__(kThreads) winograd_fused_kernel(const __grid_constant__ WinogradArgs a) {
    __shared__ float tiles[kFusedTile][kFusedIn][kFusedTiles];
    __shared__ float filters[kFusedTile][kFusedIn][kFusedOut];
    const int per_image = a.tiles_h * a.tiles_w;
    const int n = static_cast<int>(blockIdx.z) / a.groups, g = static_cast<int>(blockIdx.z) % a.groups;
    const int tile0 = static_cast<int>(blockIdx.x) * kFusedTiles, o0 = static_cast<int>(blockIdx.y) * kFusedOut;
    const int t = threadIdx.x;
    const int lane_c = t / 32, lane = t % 32;  // the loading roles: channel of the slice, tile or filter
    const int my_o = t % kFusedOut, my_tile = (t / kFusedOut) * 4;
    float acc[4][kFusedTile];
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
        for (int xn = 0; xn < kFusedTile; ++xn) acc[j][xn] = 0.0f;

    for (int i0 = 0; i0 < a.in_per_group; i0 += kFusedIn) {
        {
            float d[kFusedTile], v[kFusedTile];
            const int i = i0 + lane_c, tile = tile0 + lane;
            if (i < a.in_per_group && tile < per_image) {
                const int ty = tile / a.tiles_w, tx = tile % a.tiles_w;
                load_window(a.in, a.in_h, a.in_w, n, g * a.in_per_group + i, ty * 2 - a.pad_h, tx * 2 - a.pad_w, 4, d);
                transform(a.bt, d, v);
            } else {
#pragma unroll
                for (int xn = 0; xn < kFusedTile; ++xn) v[xn] = 0.0f;
            }
#pragma unroll
            for (int xn = 0; xn < kFusedTile; ++xn) tiles[xn][lane_c][lane] = v[xn];
        }
        {
            float f[9], u[kFusedTile];
            const int i = i0 + lane_c, o = o0 + lane;
            if (i < a.in_per_group && o < a.out_per_group) {
                for (int ta = 0; ta < 3; ++ta)
                    for (int tb = 0; tb < 3; ++tb) f[ta * 3 + tb] = filter_tap(a, g, o, i, ta, tb);
                transform(a.g, f, u);
            } else {
#pragma unroll
                for (int xn = 0; xn < kFusedTile; ++xn) u[xn] = 0.0f;
            }
#pragma unroll
            for (int xn = 0; xn < kFusedTile; ++xn) filters[xn][lane_c][lane] = u[xn];
        }
        __syncthreads();
#pragma unroll
        for (int c = 0; c < kFusedIn; ++c) {
#pragma unroll
            for (int xn = 0; xn < kFusedTile; ++xn) {
                const float u = filters[xn][c][my_o];
#pragma unroll
                for (int j = 0; j < 4; ++j) acc[j][xn] = fmaf(u, tiles[xn][c][my_tile + j], acc[j][xn]);
            }
        }
        __syncthreads();
    }
    const int o = o0 + my_o;
    if (o >= a.out_per_group) return;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const int tile = tile0 + my_tile + j;
        if (tile >= per_image) break;
        float y[4];
        transform(a.at, acc[j], y);
        const int ty = tile / a.tiles_w, tx = tile % a.tiles_w;
        for (int i = 0; i < 2; ++i) {
            const int row = ty * 2 + i;
            if (row >= a.out_h) break;
            for (int k = 0; k < 2; ++k) {
                const int column = tx * 2 + k;
                if (column < a.out_w) write_result(a, n, g * a.out_per_group + o, row, column, y[i * 2 + k]);
            }
        }
    }
}

// --- WINOGRAD_NONFUSED: the passes ---------------------------------------------------------------------

// U = G f G^T of every filter pair into u[((g alpha^2 + xi alpha + nu) out_per_group + o) in_per_group + i].
__global__ void __launch_bounds__(kThreads) winograd_filter_kernel(const __grid_constant__ WinogradArgs a) {
    const int64_t total = static_cast<int64_t>(a.groups) * a.out_per_group * a.in_per_group;
    const int a2 = a.points * a.points;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int i = static_cast<int>(e % a.in_per_group);
        const int o = static_cast<int>(e / a.in_per_group % a.out_per_group);
        const int g = static_cast<int>(e / a.in_per_group / a.out_per_group);
        float f[kMaxTile], u[kMaxTile];
        for (int ta = 0; ta < a.r; ++ta)
            for (int tb = 0; tb < a.r; ++tb) f[ta * a.r + tb] = filter_tap(a, g, o, i, ta, tb);
        transform(a.g, f, u);
        for (int xn = 0; xn < a2; ++xn)
            a.u[((static_cast<int64_t>(g) * a2 + xn) * a.out_per_group + o) * a.in_per_group + i] = u[xn];
    }
}

// One tile pass: every size x size window of `t` (tile (ty, tx) at (ty m + offset_h, tx m + offset_w)) of
// every channel through L (alpha x size), into out[((g alpha^2 + xi alpha + nu) per_group + c) tiles + tile],
// tile = (n tiles_h + ty) tiles_w + tx.
struct TilePass {
    Tensor4 t;
    int n = 0, groups = 1, per_group = 0, h = 0, w = 0;
    int m = 0, tiles_h = 0, tiles_w = 0, size = 0, offset_h = 0, offset_w = 0;
    Matrix l;
    float *out = nullptr;
};

__global__ void __launch_bounds__(kThreads) winograd_tiles_kernel(const __grid_constant__ TilePass p) {
    const int64_t per_image = static_cast<int64_t>(p.tiles_h) * p.tiles_w, tiles = p.n * per_image;
    const int64_t total = tiles * p.groups * p.per_group;
    const int a2 = p.l.rows * p.l.rows;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int64_t tile = e % tiles;
        const int channel = static_cast<int>(e / tiles);
        const int n = static_cast<int>(tile / per_image), rest = static_cast<int>(tile % per_image);
        const int ty = rest / p.tiles_w, tx = rest % p.tiles_w;
        float d[kMaxTile], v[kMaxTile];
        load_window(p.t, p.h, p.w, n, channel, ty * p.m + p.offset_h, tx * p.m + p.offset_w, p.size, d);
        transform(p.l, d, v);
        const int g = channel / p.per_group, c = channel % p.per_group;
        for (int xn = 0; xn < a2; ++xn)
            p.out[((static_cast<int64_t>(g) * a2 + xn) * p.per_group + c) * tiles + tile] = v[xn];
    }
}

// C_b = A_b B_b for every batch b (blockIdx.z), each operand through its row and column strides.
struct BatchedGemm {
    int64_t m = 0, n = 0, k = 0;
    const float *a = nullptr;
    int64_t a_row = 0, a_col = 0, a_batch = 0;
    const float *b = nullptr;
    int64_t b_row = 0, b_col = 0, b_batch = 0;
    float *c = nullptr;
    int64_t c_row = 0, c_batch = 0;
};

constexpr int kGemmM = 64, kGemmN = 64, kGemmK = 16;

// A 64 x 64 tile of C per block, each thread 4 x 4 of it, k in slices of 16 through shared memory, each
// sum in k order (deterministic). A slice loads with consecutive threads on the operand's contiguous index.
__global__ void __launch_bounds__(kThreads) winograd_gemm_kernel(const __grid_constant__ BatchedGemm g) {
    __shared__ float as[kGemmK][kGemmM];
    __shared__ float bs[kGemmK][kGemmN];
    const int64_t batch = blockIdx.z;
    const float *a = g.a + batch * g.a_batch, *b = g.b + batch * g.b_batch;
    float *c = g.c + batch * g.c_batch;
    const int64_t row0 = static_cast<int64_t>(blockIdx.y) * kGemmM, col0 = static_cast<int64_t>(blockIdx.x) * kGemmN;
    const int t = threadIdx.x, tr = t / 16, tc = t % 16;
    const bool a_k_fast = g.a_col == 1, b_n_fast = g.b_col == 1;
    float acc[4][4] = {};
    for (int64_t k0 = 0; k0 < g.k; k0 += kGemmK) {
        for (int e = t; e < kGemmM * kGemmK; e += kThreads) {
            const int mi = a_k_fast ? e / kGemmK : e % kGemmM, ki = a_k_fast ? e % kGemmK : e / kGemmM;
            const int64_t row = row0 + mi, k = k0 + ki;
            as[ki][mi] = row < g.m && k < g.k ? a[row * g.a_row + k * g.a_col] : 0.0f;
        }
        for (int e = t; e < kGemmN * kGemmK; e += kThreads) {
            const int ni = b_n_fast ? e % kGemmN : e / kGemmK, ki = b_n_fast ? e / kGemmN : e % kGemmK;
            const int64_t column = col0 + ni, k = k0 + ki;
            bs[ki][ni] = column < g.n && k < g.k ? b[k * g.b_row + column * g.b_col] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int ki = 0; ki < kGemmK; ++ki) {
            float av[4], bv[4];
#pragma unroll
            for (int i = 0; i < 4; ++i) av[i] = as[ki][tr * 4 + i];
#pragma unroll
            for (int j = 0; j < 4; ++j) bv[j] = bs[ki][tc + 16 * j];
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int64_t row = row0 + tr * 4 + i;
        if (row >= g.m) continue;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int64_t column = col0 + tc + 16 * j;
            if (column < g.n) c[row * g.c_row + column] = acc[i][j];
        }
    }
}

// Y = A^T M A of every output tile, M gathered from product[((g alpha^2 + xn) out_per_group + o) tiles + tile].
__global__ void __launch_bounds__(kThreads) winograd_output_kernel(const __grid_constant__ WinogradArgs a) {
    const int64_t per_image = static_cast<int64_t>(a.tiles_h) * a.tiles_w;
    const int64_t total = a.tiles * a.groups * a.out_per_group;
    const int a2 = a.points * a.points;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int64_t tile = e % a.tiles;
        const int channel = static_cast<int>(e / a.tiles);
        const int g = channel / a.out_per_group, o = channel % a.out_per_group;
        float sum[kMaxTile], y[kMaxTile];
        for (int xn = 0; xn < a2; ++xn)
            sum[xn] = a.product[((static_cast<int64_t>(g) * a2 + xn) * a.out_per_group + o) * a.tiles + tile];
        transform(a.at, sum, y);
        const int n = static_cast<int>(tile / per_image), rest = static_cast<int>(tile % per_image);
        const int ty = rest / a.tiles_w, tx = rest % a.tiles_w;
        for (int i = 0; i < a.m; ++i) {
            const int row = ty * a.m + i;
            if (row >= a.out_h) break;
            for (int j = 0; j < a.m; ++j) {
                const int column = tx * a.m + j;
                if (column < a.out_w) write_result(a, n, channel, row, column, y[i * a.m + j]);
            }
        }
    }
}

// dw = G^T M G of every filter pair, M gathered from product[((g alpha^2 + xn) kg + k) cg + c]; stored
// mirrored back for CUDNN_CONVOLUTION.
__global__ void __launch_bounds__(kThreads) winograd_filter_gradient_kernel(const __grid_constant__ WinogradArgs a) {
    const int kg = a.out_per_group, cg = a.in_per_group;
    const int64_t total = static_cast<int64_t>(a.groups) * kg * cg;
    const int a2 = a.points * a.points;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int c = static_cast<int>(e % cg), k = static_cast<int>(e / cg);
        const int g = k / kg, kk = k % kg;
        float sum[kMaxTile], dw[kMaxTile];
        for (int xn = 0; xn < a2; ++xn) sum[xn] = a.product[((static_cast<int64_t>(g) * a2 + xn) * kg + kk) * cg + c];
        transform(a.gt, sum, dw);
        for (int ta = 0; ta < a.r; ++ta) {
            for (int tb = 0; tb < a.r; ++tb) {
                const int sa = a.rotated ? a.r - 1 - ta : ta, sb = a.rotated ? a.r - 1 - tb : tb;
                write_result(a, k, c, sa, sb, dw[ta * a.r + tb]);
            }
        }
    }
}

// --- planning ----------------------------------------------------------------------------------------

Matrix matrix_of(const double *values, int rows, int cols, bool transposed) {
    Matrix out;
    out.rows = transposed ? cols : rows;
    out.cols = transposed ? rows : cols;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            out.v[transposed ? j * rows + i : i * cols + j] = static_cast<float>(values[i * cols + j]);
    return out;
}

Tensor4 tensor_of(const TensorGeometry &g, const void *data) {
    Tensor4 t;
    t.data = data;
    scalar_type_of(g.dtype, &t.type);
    for (int i = 0; i < 4; ++i) t.s[i] = g.strides[i];
    return t;
}

const WinogradTile &tile_of(const ConvProblem &p, WinogradVariant variant) {
    return winograd_tile(variant, static_cast<int>(p.filter_extent(0)));
}

// The correlation of a problem and its tile (buffers and workspace left out).
WinogradArgs plan(const ConvProblem &p, WinogradVariant variant) {
    const WinogradTile &tile = tile_of(p, variant);
    WinogradArgs a;
    a.m = tile.m, a.r = tile.r, a.points = tile.alpha;
    a.bt = matrix_of(tile.bt, tile.alpha, tile.alpha, false);
    a.g = matrix_of(tile.g, tile.alpha, tile.r, false);
    a.gt = matrix_of(tile.g, tile.alpha, tile.r, true);
    a.at = matrix_of(tile.at, tile.m, tile.alpha, false);
    a.a = matrix_of(tile.at, tile.m, tile.alpha, true);
    const int cg = static_cast<int>(p.channels_per_group()), kg = static_cast<int>(p.filters_per_group());
    const int h = static_cast<int>(p.input_extent(0)), w = static_cast<int>(p.input_extent(1));
    const int out_h = static_cast<int>(p.output_extent(0)), out_w = static_cast<int>(p.output_extent(1));
    const bool convolution = p.mode == CUDNN_CONVOLUTION;
    a.n = static_cast<int>(p.batch());
    a.groups = static_cast<int>(p.groups);
    a.in_h = h, a.in_w = w, a.out_h = out_h, a.out_w = out_w;
    a.pad_h = static_cast<int>(p.pad[0]), a.pad_w = static_cast<int>(p.pad[1]);
    a.in_per_group = cg, a.out_per_group = kg;
    a.rotated = convolution ? 1 : 0;
    if (p.direction == ConvDirection::backward_data) {
        // dy into dx with the filter rotated (once more) and transposed, padding r - 1 - pad.
        a.in_per_group = kg, a.out_per_group = cg;
        a.in_h = out_h, a.in_w = out_w, a.out_h = h, a.out_w = w;
        a.pad_h = a.r - 1 - a.pad_h, a.pad_w = a.r - 1 - a.pad_w;
        a.transposed = 1;
        a.rotated = convolution ? 0 : 1;
    }
    a.tiles_h = static_cast<int>(winograd_tiles(a.out_h, a.m));
    a.tiles_w = static_cast<int>(winograd_tiles(a.out_w, a.m));
    a.tiles = static_cast<int64_t>(a.n) * a.tiles_h * a.tiles_w;
    return a;
}

constexpr size_t kAlign = 256;

size_t aligned_floats(int64_t count) {
    return (static_cast<size_t>(count) * sizeof(float) + kAlign - 1) / kAlign * kAlign;
}

// The forward and backward-data workspace in floats: u, v, product (see the kernels for their layouts).
void workspace_parts(const WinogradArgs &a, int64_t (&parts)[3]) {
    const int64_t a2 = a.points * a.points, groups = a.groups, ip = a.in_per_group, op = a.out_per_group;
    parts[0] = groups * a2 * op * ip;
    parts[1] = groups * a2 * ip * a.tiles;
    parts[2] = groups * a2 * op * a.tiles;
}

}  // namespace

Applicability winograd_kernel_limits(const ConvProblem &p, WinogradVariant variant) {
    const WinogradArgs a = plan(p, variant);
    const int64_t a2 = a.points * a.points;
    if (variant == WinogradVariant::fused) {
        if (static_cast<int64_t>(a.n) * a.groups > kMaxGrid || (a.out_per_group + kFusedOut - 1) / kFusedOut > kMaxGrid)
            return Applicability::no("the CUDA fused Winograd kernel takes at most 65535 images times groups");
        return Applicability::yes();
    }
    if (a.groups * a2 > kMaxGrid)
        return Applicability::no_format("the CUDA Winograd products take at most %lld groups",
                                        static_cast<long long>(kMaxGrid / a2));
    const int64_t rows = p.direction == ConvDirection::backward_filter ? p.filters_per_group() : a.out_per_group;
    if ((rows + kGemmM - 1) / kGemmM > kMaxGrid)
        return Applicability::no("the CUDA Winograd products take at most 65535 x 64 channels per group");
    return Applicability::yes();
}

size_t winograd_workspace_bytes(const ConvProblem &problem, WinogradVariant variant) {
    if (variant == WinogradVariant::fused) return 0;
    const WinogradArgs a = plan(problem, variant);
    int64_t parts[3];
    workspace_parts(a, parts);
    if (problem.direction == ConvDirection::backward_filter) {
        // dy's tiles (kg channels), x's windows (cg), the products kg x cg.
        const int64_t a2 = a.points * a.points;
        parts[0] = a.groups * a2 * a.out_per_group * a.tiles;
        parts[1] = a.groups * a2 * a.in_per_group * a.tiles;
        parts[2] = a.groups * a2 * a.out_per_group * a.in_per_group;
    }
    return aligned_floats(parts[0]) + aligned_floats(parts[1]) + aligned_floats(parts[2]);
}

Status winograd(cudaStream_t stream, const ConvProblem &p, const ConvBuffers &buffers, WinogradVariant variant,
                void *workspace, size_t workspace_bytes) {
    WinogradArgs a = plan(p, variant);
    const bool filter_gradient = p.direction == ConvDirection::backward_filter;
    const TensorGeometry &result = p.result();
    a.out = buffers.result;
    scalar_type_of(result.dtype, &a.out_type);
    for (int i = 0; i < 4; ++i) a.out_s[i] = result.strides[i];
    a.alpha = p.alpha;
    a.beta = p.beta;
    a.w = tensor_of(p.w, buffers.w);
    a.in = p.direction == ConvDirection::backward_data ? tensor_of(p.y, buffers.y) : tensor_of(p.x, buffers.x);
    if (filter_gradient) a.dy = tensor_of(p.y, buffers.y);
    if (p.epilogue.fused) {
        const ConvEpilogue &e = p.epilogue;
        a.fused = 1;
        a.alpha2 = e.alpha2;
        a.z = tensor_of(e.z, buffers.z);
        a.bias = buffers.bias;
        scalar_type_of(e.bias.dtype, &a.bias_type);
        a.bias_stride = e.bias.strides[1];
        a.relu = e.activation == CUDNN_ACTIVATION_RELU;
        a.relu_propagates_nan = e.nan_opt == CUDNN_PROPAGATE_NAN;
    }
    if (variant == WinogradVariant::fused) {
        const dim3 grid(static_cast<unsigned>((a.tiles_h * a.tiles_w + kFusedTiles - 1) / kFusedTiles),
                        static_cast<unsigned>((a.out_per_group + kFusedOut - 1) / kFusedOut),
                        static_cast<unsigned>(a.n * a.groups));
        winograd_fused_kernel<<<grid, kThreads, 0, stream>>>(a);
        return check_launch("winograd_fused_kernel");
    }

    const size_t needed = winograd_workspace_bytes(p, variant);
    if (workspace == nullptr || workspace_bytes < needed)
        return fail(CUDNN_STATUS_BAD_PARAM, "the Winograd passes need %zu bytes of workspace", needed);
    const int64_t a2 = a.points * a.points;
    auto *base = static_cast<unsigned char *>(workspace);
    if (!filter_gradient) {
        int64_t parts[3];
        workspace_parts(a, parts);
        a.u = reinterpret_cast<float *>(base);
        a.v = reinterpret_cast<float *>(base + aligned_floats(parts[0]));
        a.product = reinterpret_cast<float *>(base + aligned_floats(parts[0]) + aligned_floats(parts[1]));
        const int64_t pairs = static_cast<int64_t>(a.groups) * a.out_per_group * a.in_per_group;
        winograd_filter_kernel<<<grid_size(pairs, 1, kThreads), kThreads, 0, stream>>>(a);
        LIBREDNN_CHECK(check_launch("winograd_filter_kernel"));
        TilePass input;
        input.t = a.in;
        input.n = a.n, input.groups = a.groups, input.per_group = a.in_per_group, input.h = a.in_h, input.w = a.in_w;
        input.m = a.m, input.tiles_h = a.tiles_h, input.tiles_w = a.tiles_w, input.size = a.points;
        input.offset_h = -a.pad_h, input.offset_w = -a.pad_w;
        input.l = a.bt;
        input.out = a.v;
        winograd_tiles_kernel<<<grid_size(a.tiles * a.groups * a.in_per_group, 1, kThreads), kThreads, 0, stream>>>(
            input);
        LIBREDNN_CHECK(check_launch("winograd_tiles_kernel"));
        // product[g, xn] (out_per_group x tiles) = u[g, xn] (out_per_group x in_per_group) v[g, xn].
        BatchedGemm gemm;
        gemm.m = a.out_per_group, gemm.n = a.tiles, gemm.k = a.in_per_group;
        gemm.a = a.u, gemm.a_row = a.in_per_group, gemm.a_col = 1, gemm.a_batch = gemm.m * gemm.k;
        gemm.b = a.v, gemm.b_row = a.tiles, gemm.b_col = 1, gemm.b_batch = gemm.k * gemm.n;
        gemm.c = a.product, gemm.c_row = a.tiles, gemm.c_batch = gemm.m * gemm.n;
        const dim3 grid(static_cast<unsigned>((gemm.n + kGemmN - 1) / kGemmN),
                        static_cast<unsigned>((gemm.m + kGemmM - 1) / kGemmM), static_cast<unsigned>(a.groups * a2));
        winograd_gemm_kernel<<<grid, kThreads, 0, stream>>>(gemm);
        LIBREDNN_CHECK(check_launch("winograd_gemm_kernel"));
        winograd_output_kernel<<<grid_size(a.tiles * a.groups * a.out_per_group, 1, kThreads), kThreads, 0, stream>>>(
            a);
        return check_launch("winograd_output_kernel");
    }

    // The filter gradient: the correlation's output channels are dy's (kg), its inputs x's (cg).
    const int64_t dy_floats = a.groups * a2 * a.out_per_group * a.tiles;
    const int64_t x_floats = a.groups * a2 * a.in_per_group * a.tiles;
    a.u = reinterpret_cast<float *>(base);
    a.v = reinterpret_cast<float *>(base + aligned_floats(dy_floats));
    a.product = reinterpret_cast<float *>(base + aligned_floats(dy_floats) + aligned_floats(x_floats));
    TilePass windows;
    windows.t = a.in;
    windows.n = a.n, windows.groups = a.groups, windows.per_group = a.in_per_group;
    windows.h = a.in_h, windows.w = a.in_w;
    windows.m = a.m, windows.tiles_h = a.tiles_h, windows.tiles_w = a.tiles_w, windows.size = a.points;
    windows.offset_h = -a.pad_h, windows.offset_w = -a.pad_w;
    windows.l = a.bt;
    windows.out = a.v;
    winograd_tiles_kernel<<<grid_size(x_floats / a2, 1, kThreads), kThreads, 0, stream>>>(windows);
    LIBREDNN_CHECK(check_launch("winograd_tiles_kernel"));
    TilePass gradients = windows;
    gradients.t = a.dy;
    gradients.per_group = a.out_per_group;
    gradients.h = a.out_h, gradients.w = a.out_w;
    gradients.size = a.m;
    gradients.offset_h = gradients.offset_w = 0;
    gradients.l = a.a;
    gradients.out = a.u;
    winograd_tiles_kernel<<<grid_size(dy_floats / a2, 1, kThreads), kThreads, 0, stream>>>(gradients);
    LIBREDNN_CHECK(check_launch("winograd_tiles_kernel"));
    // product[g, xn] (kg x cg) = dy tiles[g, xn] (kg x tiles) times x windows[g, xn] transposed.
    BatchedGemm gemm;
    gemm.m = a.out_per_group, gemm.n = a.in_per_group, gemm.k = a.tiles;
    gemm.a = a.u, gemm.a_row = a.tiles, gemm.a_col = 1, gemm.a_batch = gemm.m * gemm.k;
    gemm.b = a.v, gemm.b_row = 1, gemm.b_col = a.tiles, gemm.b_batch = gemm.n * gemm.k;
    gemm.c = a.product, gemm.c_row = gemm.n, gemm.c_batch = gemm.m * gemm.n;
    const dim3 grid(static_cast<unsigned>((gemm.n + kGemmN - 1) / kGemmN),
                    static_cast<unsigned>((gemm.m + kGemmM - 1) / kGemmM), static_cast<unsigned>(a.groups * a2));
    winograd_gemm_kernel<<<grid, kThreads, 0, stream>>>(gemm);
    LIBREDNN_CHECK(check_launch("winograd_gemm_kernel"));
    const int64_t pairs = static_cast<int64_t>(a.groups) * a.out_per_group * a.in_per_group;
    winograd_filter_gradient_kernel<<<grid_size(pairs, 1, kThreads), kThreads, 0, stream>>>(a);
    return check_launch("winograd_filter_gradient_kernel");
}

}  // namespace librednn::cuda
