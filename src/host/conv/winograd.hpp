// The host's Winograd sums over packed tensors (packed_conv.hpp; ops/conv/winograd.hpp has the tiles and
// the algebra). Forward and backward data are one stride-1 2-d correlation each (WinogradCorrelation),
// computed fused (tile by tile: transform the tile's inputs of every channel, multiply with the
// transformed filters, sum over the channels, transform back, store) or nonfused (a pass per step, each
// through the workspace: filters, inputs, one matrix product per (xi, nu) and group, outputs). The
// filter gradient transforms x's windows with B^T and dy's tiles with A, multiplies them summed over
// images and tiles (a matrix product per (xi, nu) and group) and transforms back with G^T. Work splits
// over images, channels, groups and (xi, nu), never inside a sum: deterministic whatever the threads.
#pragma once

#include "host/common/gemm.hpp"
#include "host/common/parallel.hpp"
#include "host/conv/packed_conv.hpp"
#include "host/conv/solvers.hpp"
#include "host/conv/sums.hpp"
#include "ops/conv/winograd.hpp"

#include <algorithm>

namespace librednn::host::conv {

constexpr int kMaxAlpha = 6;
constexpr int kMaxTile = kMaxAlpha * kMaxAlpha;

// A tile's matrices in the compute type, with the transposes the filter gradient multiplies by.
template <class C>
struct TileMatrices {
    int m = 0, r = 0, alpha = 0;
    C bt[kMaxTile] = {};               // alpha x alpha
    C g[kMaxAlpha * kMaxAlpha] = {};   // alpha x r
    C gt[kMaxAlpha * kMaxAlpha] = {};  // r x alpha
    C at[kMaxAlpha * kMaxAlpha] = {};  // m x alpha
    C a[kMaxAlpha * kMaxAlpha] = {};   // alpha x m

    explicit TileMatrices(const WinogradTile &t) : m(t.m), r(t.r), alpha(t.alpha) {
        for (int i = 0; i < alpha * alpha; ++i) bt[i] = static_cast<C>(t.bt[i]);
        for (int i = 0; i < alpha; ++i) {
            for (int j = 0; j < r; ++j) g[i * r + j] = gt[j * alpha + i] = static_cast<C>(t.g[i * r + j]);
            for (int j = 0; j < m; ++j) at[j * alpha + i] = a[i * m + j] = static_cast<C>(t.at[j * alpha + i]);
        }
    }
};

// out (rows x rows) = L in L^T for L of rows x cols and `in` of cols x cols, all row-major.
template <class C>
void transform_tile(const C *l, int rows, int cols, const C *in, C *out) {
    C left[kMaxTile];  // L in: rows x cols
    for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < cols; ++j) {
            C sum = 0;
            for (int k = 0; k < cols; ++k) sum += l[i * cols + k] * in[k * cols + j];
            left[i * cols + j] = sum;
        }
    }
    for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < rows; ++j) {
            C sum = 0;
            for (int k = 0; k < cols; ++k) sum += left[i * cols + k] * l[j * cols + k];
            out[i * rows + j] = sum;
        }
    }
}

// The size x size window of `plane` (height x width, row-major) at (top, left), zeros outside.
template <class C>
void load_window(const C *plane, int64_t height, int64_t width, int64_t top, int64_t left, int size, C *out) {
    for (int i = 0; i < size; ++i) {
        const int64_t row = top + i;
        for (int j = 0; j < size; ++j) {
            const int64_t column = left + j;
            const bool inside = row >= 0 && row < height && column >= 0 && column < width;
            out[i * size + j] = inside ? plane[row * width + column] : C(0);
        }
    }
}

// A stride-1 2-d correlation: out[n][o][p][q] = sum over the group's input channels i and taps (a, b)
// of in[n][i][p - pad_h + a][q - pad_w + b] filter(o, i, a, b), channels grouped (o and i counted within
// the group). Forward: x into y with w; backward data: dy into dx with w rotated, channels transposed,
// padding r - 1 - pad (negative where pad > r - 1: the window then starts inside dy).
struct WinogradCorrelation {
    int64_t n = 0, groups = 1, in_per_group = 0, out_per_group = 0;
    int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0, pad_h = 0, pad_w = 0;
    int r = 0;
    bool backward_data = false;  // the filter read rotated and transposed

    int64_t tiles_h(int m) const { return winograd_tiles(out_h, m); }
    int64_t tiles_w(int m) const { return winograd_tiles(out_w, m); }

    // The filter tap (a, b) between output channel o and input channel i of group g in packed w.
    template <class C>
    C filter(const C *w, int64_t g, int64_t o, int64_t i, int a, int b) const {
        if (!backward_data) return w[((g * out_per_group + o) * in_per_group + i) * r * r + a * r + b];
        return w[((g * in_per_group + i) * out_per_group + o) * r * r + (r - 1 - a) * r + (r - 1 - b)];
    }
};

// The forward correlation of a problem (x into y), or the backward data one (dy into dx).
inline WinogradCorrelation winograd_correlation(const ConvShape &s, bool backward_data) {
    WinogradCorrelation c;
    c.n = s.n;
    c.groups = s.groups;
    c.r = static_cast<int>(s.tap_dims[0]);
    c.backward_data = backward_data;
    if (!backward_data) {
        c.in_per_group = s.cg, c.out_per_group = s.kg;
        c.in_h = s.in_dims[0], c.in_w = s.in_dims[1], c.out_h = s.out_dims[0], c.out_w = s.out_dims[1];
        c.pad_h = s.pad[0], c.pad_w = s.pad[1];
    } else {
        c.in_per_group = s.kg, c.out_per_group = s.cg;
        c.in_h = s.out_dims[0], c.in_w = s.out_dims[1], c.out_h = s.in_dims[0], c.out_w = s.in_dims[1];
        c.pad_h = c.r - 1 - s.pad[0], c.pad_w = c.r - 1 - s.pad[1];
    }
    return c;
}

// The packed tensors a correlation reads and writes.
template <class C>
const C *correlation_input(const WinogradCorrelation &c, const PackedTensors<C> &t) {
    return c.backward_data ? t.y : t.x;
}
template <class C>
C *correlation_output(const WinogradCorrelation &c, const PackedTensors<C> &t) {
    return c.backward_data ? t.x : t.y;
}

// U = G f G^T of every filter pair, at u[index(g, o, i) * alpha^2 + xi * alpha + nu] (fused) or
// u[((g * alpha^2 + xi * alpha + nu) * out_per_group + o) * in_per_group + i] (nonfused: a matrix per
// (xi, nu) and group, rows o).
template <class C>
void transform_filters(const WinogradCorrelation &c, const TileMatrices<C> &tm, const C *w, bool per_pair, C *u) {
    const int a2 = tm.alpha * tm.alpha;
    parallel_for(c.groups * c.out_per_group, 1, [&](int64_t begin, int64_t end, int) {
        C f[kMaxTile], transformed[kMaxTile];
        for (int64_t item = begin; item < end; ++item) {
            const int64_t g = item / c.out_per_group, o = item % c.out_per_group;
            for (int64_t i = 0; i < c.in_per_group; ++i) {
                for (int a = 0; a < tm.r; ++a)
                    for (int b = 0; b < tm.r; ++b) f[a * tm.r + b] = c.filter(w, g, o, i, a, b);
                transform_tile(tm.g, tm.alpha, tm.r, f, transformed);
                for (int xn = 0; xn < a2; ++xn) {
                    const int64_t at = per_pair ? ((g * c.out_per_group + o) * c.in_per_group + i) * a2 + xn
                                                : ((g * a2 + xn) * c.out_per_group + o) * c.in_per_group + i;
                    u[at] = transformed[xn];
                }
            }
        }
    });
}

// Writes the m x m output tile `y` at tile (ty, tx) of `plane` (height x width), clipped.
template <class C>
void store_tile(const C *y, int m, int64_t ty, int64_t tx, int64_t height, int64_t width, C *plane) {
    for (int i = 0; i < m; ++i) {
        const int64_t row = ty * m + i;
        if (row >= height) break;
        for (int j = 0; j < m; ++j) {
            const int64_t column = tx * m + j;
            if (column < width) plane[row * width + column] = y[i * m + j];
        }
    }
}

// --- WINOGRAD: F(2x2, 3x3) tile by tile ---------------------------------------------------------------

// Scratch elements: the transformed filters, then each thread's transformed input tiles.
inline int64_t winograd_fused_scratch(const WinogradCorrelation &c, const WinogradTile &tile) {
    const int64_t a2 = tile.alpha * tile.alpha;
    return c.groups * c.out_per_group * c.in_per_group * a2 + host_thread_count() * c.in_per_group * a2;
}

template <class C>
void winograd_fused(const WinogradCorrelation &c, const WinogradTile &tile, const PackedTensors<C> &t) {
    const TileMatrices<C> tm(tile);
    const int a2 = tm.alpha * tm.alpha;
    C *u = t.scratch;
    C *thread_tiles = u + c.groups * c.out_per_group * c.in_per_group * a2;
    transform_filters(c, tm, t.w, true, u);
    const C *in = correlation_input(c, t);
    C *out = correlation_output(c, t);
    const int64_t tiles_h = c.tiles_h(tm.m), tiles_w = c.tiles_w(tm.m);
    const int64_t in_plane = c.in_h * c.in_w, out_plane = c.out_h * c.out_w;
    // One part: a row of tiles of one image and group.
    parallel_for(c.n * c.groups * tiles_h, 1, [&](int64_t begin, int64_t end, int thread) {
        C *v = thread_tiles + thread * c.in_per_group * a2;
        C d[kMaxTile], sum[kMaxTile], y[kMaxTile];
        for (int64_t part = begin; part < end; ++part) {
            const int64_t ty = part % tiles_h, g = (part / tiles_h) % c.groups, n = part / tiles_h / c.groups;
            const C *in_group = in + (n * c.groups + g) * c.in_per_group * in_plane;
            C *out_group = out + (n * c.groups + g) * c.out_per_group * out_plane;
            for (int64_t tx = 0; tx < tiles_w; ++tx) {
                for (int64_t i = 0; i < c.in_per_group; ++i) {
                    load_window(in_group + i * in_plane, c.in_h, c.in_w, ty * tm.m - c.pad_h, tx * tm.m - c.pad_w,
                                tm.alpha, d);
                    transform_tile(tm.bt, tm.alpha, tm.alpha, d, v + i * a2);
                }
                for (int64_t o = 0; o < c.out_per_group; ++o) {
                    std::fill(sum, sum + a2, C(0));
                    const C *u_row = u + (g * c.out_per_group + o) * c.in_per_group * a2;
                    for (int64_t i = 0; i < c.in_per_group; ++i)
                        for (int xn = 0; xn < a2; ++xn) sum[xn] += u_row[i * a2 + xn] * v[i * a2 + xn];
                    transform_tile(tm.at, tm.m, tm.alpha, sum, y);
                    store_tile(y, tm.m, ty, tx, c.out_h, c.out_w, out_group + o * out_plane);
                }
            }
        }
    });
}

// --- WINOGRAD_NONFUSED: a pass per step --------------------------------------------------------------

// The workspace of the passes, in compute-type elements, one matrix per (group, xi, nu):
//   U [groups][alpha^2][out_per_group][in_per_group]   transformed filters
//   V [groups][alpha^2][in_per_group][tiles]           transformed input tiles (tiles of every image)
//   M [groups][alpha^2][out_per_group][tiles]          their products, summed over the input channels
struct NonfusedLayout {
    int64_t a2 = 0, tiles = 0, u = 0, v = 0, m = 0;
    NonfusedLayout(const WinogradCorrelation &c, const WinogradTile &tile)
        : a2(tile.alpha * tile.alpha), tiles(c.n * c.tiles_h(tile.m) * c.tiles_w(tile.m)) {
        u = c.groups * a2 * c.out_per_group * c.in_per_group;
        v = c.groups * a2 * c.in_per_group * tiles;
        m = c.groups * a2 * c.out_per_group * tiles;
    }
    int64_t total() const { return u + v + m; }
};

template <class C>
void winograd_nonfused(const WinogradCorrelation &c, const WinogradTile &tile, const PackedTensors<C> &t) {
    const TileMatrices<C> tm(tile);
    const NonfusedLayout layout(c, tile);
    const int a2 = tm.alpha * tm.alpha;
    const int64_t tiles_h = c.tiles_h(tm.m), tiles_w = c.tiles_w(tm.m), per_image = tiles_h * tiles_w;
    const int64_t in_plane = c.in_h * c.in_w, out_plane = c.out_h * c.out_w;
    C *u = t.scratch, *v = u + layout.u, *m = v + layout.v;
    transform_filters(c, tm, t.w, false, u);

    // Inputs: one part per image and input channel, all its tiles.
    const C *in = correlation_input(c, t);
    parallel_for(c.n * c.groups * c.in_per_group, 1, [&](int64_t begin, int64_t end, int) {
        C d[kMaxTile], transformed[kMaxTile];
        for (int64_t part = begin; part < end; ++part) {
            const int64_t n = part / (c.groups * c.in_per_group), channel = part % (c.groups * c.in_per_group);
            const int64_t g = channel / c.in_per_group, i = channel % c.in_per_group;
            const C *plane = in + (n * c.groups * c.in_per_group + channel) * in_plane;
            for (int64_t ty = 0; ty < tiles_h; ++ty) {
                for (int64_t tx = 0; tx < tiles_w; ++tx) {
                    load_window(plane, c.in_h, c.in_w, ty * tm.m - c.pad_h, tx * tm.m - c.pad_w, tm.alpha, d);
                    transform_tile(tm.bt, tm.alpha, tm.alpha, d, transformed);
                    const int64_t column = n * per_image + ty * tiles_w + tx;
                    for (int xn = 0; xn < a2; ++xn)
                        v[((g * a2 + xn) * c.in_per_group + i) * layout.tiles + column] = transformed[xn];
                }
            }
        }
    });

    // The products: M = U V per group and (xi, nu), rows split when there are few matrices.
    const Split split(c.groups * a2, c.out_per_group);
    std::fill(m, m + layout.m, C(0));
    parallel_for(split.count(), 1, [&](int64_t begin, int64_t end, int) {
        for (int64_t part = begin; part < end; ++part) {
            const int64_t matrix = split.item(part);
            gemm_nn(layout.tiles, c.in_per_group, u + matrix * c.out_per_group * c.in_per_group, c.in_per_group,
                    v + matrix * c.in_per_group * layout.tiles, layout.tiles,
                    m + matrix * c.out_per_group * layout.tiles, layout.tiles, split.row_begin(part),
                    split.row_end(part));
        }
    });

    // Outputs: one part per image and output channel.
    C *out = correlation_output(c, t);
    parallel_for(c.n * c.groups * c.out_per_group, 1, [&](int64_t begin, int64_t end, int) {
        C sum[kMaxTile], y[kMaxTile];
        for (int64_t part = begin; part < end; ++part) {
            const int64_t n = part / (c.groups * c.out_per_group), channel = part % (c.groups * c.out_per_group);
            const int64_t g = channel / c.out_per_group, o = channel % c.out_per_group;
            C *plane = out + (n * c.groups * c.out_per_group + channel) * out_plane;
            for (int64_t ty = 0; ty < tiles_h; ++ty) {
                for (int64_t tx = 0; tx < tiles_w; ++tx) {
                    const int64_t column = n * per_image + ty * tiles_w + tx;
                    for (int xn = 0; xn < a2; ++xn)
                        sum[xn] = m[((g * a2 + xn) * c.out_per_group + o) * layout.tiles + column];
                    transform_tile(tm.at, tm.m, tm.alpha, sum, y);
                    store_tile(y, tm.m, ty, tx, c.out_h, c.out_w, plane);
                }
            }
        }
    });
}

// --- BWD_FILTER_ALGO_WINOGRAD_NONFUSED ---------------------------------------------------------------

// dy's m x m tiles (tiles_h x tiles_w per image) and the alpha x alpha windows of x they meet, at
// (tile m - pad): the workspace holds, per group and (xi, nu),
//   Dy [groups][alpha^2][kg][tiles]   A dy A^T of every tile
//   X  [groups][alpha^2][cg][tiles]   B^T x B of every window
//   M  [groups][alpha^2][kg][cg]      their products summed over the tiles of every image
struct FilterGradientLayout {
    int64_t a2 = 0, tiles_h = 0, tiles_w = 0, tiles = 0, dy = 0, x = 0, m = 0;
    FilterGradientLayout(const ConvShape &s, const WinogradTile &tile)
        : a2(tile.alpha * tile.alpha),
          tiles_h(winograd_tiles(s.out_dims[0], tile.m)),
          tiles_w(winograd_tiles(s.out_dims[1], tile.m)) {
        tiles = s.n * tiles_h * tiles_w;
        dy = s.groups * a2 * s.kg * tiles;
        x = s.groups * a2 * s.cg * tiles;
        m = s.groups * a2 * s.kg * s.cg;
    }
    int64_t total() const { return dy + x + m; }
};

template <class C>
void winograd_filter_gradient(const ConvShape &s, const WinogradTile &tile, const PackedTensors<C> &t) {
    const TileMatrices<C> tm(tile);
    const FilterGradientLayout layout(s, tile);
    const int a2 = tm.alpha * tm.alpha;
    const int64_t height = s.in_dims[0], width = s.in_dims[1], p = s.out_dims[0], q = s.out_dims[1];
    const int64_t per_image = layout.tiles_h * layout.tiles_w;
    C *dy_hat = t.scratch, *x_hat = dy_hat + layout.dy, *m = x_hat + layout.x;

    // Both transforms: one part per image and channel of x (then of dy).
    parallel_for(s.n * (s.c + s.k), 1, [&](int64_t begin, int64_t end, int) {
        C d[kMaxTile], transformed[kMaxTile];
        for (int64_t part = begin; part < end; ++part) {
            const int64_t n = part / (s.c + s.k), channel = part % (s.c + s.k);
            const bool is_x = channel < s.c;
            const int64_t ch = is_x ? channel : channel - s.c;
            const int64_t per_group = is_x ? s.cg : s.kg, g = ch / per_group, i = ch % per_group;
            for (int64_t ty = 0; ty < layout.tiles_h; ++ty) {
                for (int64_t tx = 0; tx < layout.tiles_w; ++tx) {
                    if (is_x) {
                        load_window(t.x + (n * s.c + ch) * s.in, height, width, ty * tm.m - s.pad[0],
                                    tx * tm.m - s.pad[1], tm.alpha, d);
                        transform_tile(tm.bt, tm.alpha, tm.alpha, d, transformed);
                    } else {
                        load_window(t.y + (n * s.k + ch) * s.out, p, q, ty * tm.m, tx * tm.m, tm.m, d);
                        transform_tile(tm.a, tm.alpha, tm.m, d, transformed);
                    }
                    const int64_t column = n * per_image + ty * layout.tiles_w + tx;
                    C *target = is_x ? x_hat : dy_hat;
                    for (int xn = 0; xn < a2; ++xn)
                        target[((g * a2 + xn) * per_group + i) * layout.tiles + column] = transformed[xn];
                }
            }
        }
    });

    // M = Dy X^T per group and (xi, nu): sums over every image's tiles.
    const Split split(s.groups * a2, s.kg);
    std::fill(m, m + layout.m, C(0));
    parallel_for(split.count(), 1, [&](int64_t begin, int64_t end, int) {
        for (int64_t part = begin; part < end; ++part) {
            const int64_t matrix = split.item(part);
            gemm_nt(s.cg, layout.tiles, dy_hat + matrix * s.kg * layout.tiles, layout.tiles,
                    x_hat + matrix * s.cg * layout.tiles, layout.tiles, m + matrix * s.kg * s.cg, s.cg,
                    split.row_begin(part), split.row_end(part));
        }
    });

    // dw = G^T M G per filter pair.
    parallel_for(s.k * s.cg, 1, [&](int64_t begin, int64_t end, int) {
        C sum[kMaxTile], dw[kMaxTile];
        for (int64_t pair = begin; pair < end; ++pair) {
            const int64_t k = pair / s.cg, c = pair % s.cg, g = k / s.kg, kk = k % s.kg;
            for (int xn = 0; xn < a2; ++xn) sum[xn] = m[((g * a2 + xn) * s.kg + kk) * s.cg + c];
            transform_tile(tm.gt, tm.r, tm.alpha, sum, dw);
            std::copy(dw, dw + tm.r * tm.r, t.w + pair * s.taps);
        }
    });
}

// --- what the solvers share ---------------------------------------------------------------------------

// The compute-type elements of scratch a variant needs for `problem` (an applicable one).
inline int64_t winograd_scratch_elements(const ConvProblem &problem, WinogradVariant variant) {
    const ConvShape s = shape_of(problem);
    const WinogradTile &tile = winograd_tile(variant, static_cast<int>(s.tap_dims[0]));
    if (problem.direction == ConvDirection::backward_filter) return FilterGradientLayout(s, tile).total();
    const WinogradCorrelation c = winograd_correlation(s, problem.direction == ConvDirection::backward_data);
    return variant == WinogradVariant::fused ? winograd_fused_scratch(c, tile) : NonfusedLayout(c, tile).total();
}

inline size_t winograd_workspace_bytes(const ConvProblem &problem, WinogradVariant variant) {
    return packed_workspace_bytes(problem, winograd_scratch_elements(problem, variant), 0);
}

// Packs, sums with the variant, stores (alpha, beta, the fused epilogue).
inline Status run_winograd(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers,
                           WinogradVariant variant) {
    return run_packed(context, problem, buffers, winograd_scratch_elements(problem, variant), 0,
                      [&](const ConvShape &s, const auto &t) {
                          const WinogradTile &tile = winograd_tile(variant, static_cast<int>(s.tap_dims[0]));
                          if (problem.direction == ConvDirection::backward_filter) {
                              winograd_filter_gradient(s, tile, t);
                              return;
                          }
                          const WinogradCorrelation c =
                              winograd_correlation(s, problem.direction == ConvDirection::backward_data);
                          if (variant == WinogradVariant::fused) {
                              winograd_fused(c, tile, t);
                          } else {
                              winograd_nonfused(c, tile, t);
                          }
                      });
}

// One Winograd solver: the direction, the cuDNN algorithm and the variant are all that tell the five apart.
class HostWinogradConvSolver final : public ConvSolver {
public:
    HostWinogradConvSolver(const char *name, SolverId id, ConvDirection direction, int algorithm,
                           WinogradVariant variant)
        : name_(name), id_(id), direction_(direction), algorithm_(algorithm), variant_(variant) {}

    const char *name() const override { return name_; }
    SolverId id() const override { return id_; }
    Backend backend() const override { return Backend::host; }
    int algorithm() const override { return algorithm_; }
    Applicability applicable(const ConvProblem &problem) const override {
        Applicability answer = require_direction(problem, direction_);
        return answer.ok() ? winograd_applicable(problem, variant_) : answer;
    }
    size_t workspace_bytes(const ConvProblem &problem) const override {
        return winograd_workspace_bytes(problem, variant_);
    }
    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        return run_winograd(context, problem, buffers, variant_);
    }

private:
    const char *name_;
    SolverId id_;
    ConvDirection direction_;
    int algorithm_;
    WinogradVariant variant_;
};

}  // namespace librednn::host::conv
