// Host FFT convolution: per group, the filters' transforms, then per image and tile the windows'
// transforms, the pointwise products with the conjugate filter transforms summed over the channels, and
// one inverse transform per result channel and tile. Single-threaded: the order of every sum is fixed.
#include "host/conv/fft_conv.hpp"

#include "host/common/fft.hpp"
#include "host/conv/packed_conv.hpp"
#include "host/conv/solvers.hpp"

#include <algorithm>
#include <complex>
#include <type_traits>

namespace librednn::host::conv {

namespace {

// Extents as three dims (leading dims of extent 1 where the problem has fewer), row-major.
struct Extent {
    int64_t e[3] = {1, 1, 1};
    int64_t count() const { return e[0] * e[1] * e[2]; }
};

Extent extent_of(const FftCorrelation &c, const int64_t *values, int64_t fill = 1) {
    Extent x;
    for (int d = 0; d < 3 - c.dims; ++d) x.e[d] = fill;
    for (int d = 0; d < c.dims; ++d) x.e[3 - c.dims + d] = values[d];
    return x;
}

// The result tensor's extent: every out_stride-th correlation position.
Extent stored_extent_of(const FftCorrelation &c) {
    int64_t stored[kMaxFftConvDims] = {};
    for (int d = 0; d < c.dims; ++d) stored[d] = c.stored_extent(d);
    return extent_of(c, stored);
}

// The complex values a run needs beside the FFT's own scratch; `filters` receives the real values of the
// rearranged filter copy (backward data only).
struct ScratchPlan {
    int64_t complex_values = 0;
    int64_t filter_reals = 0;
};

ScratchPlan scratch_plan(const ConvProblem &problem, const FftCorrelation &c, int64_t fft_scratch) {
    const ConvShape s = shape_of(problem);
    const int64_t points = c.fft_points();
    ScratchPlan plan;
    if (problem.direction == ConvDirection::backward_filter) {
        plan.complex_values = (s.cg + s.kg + s.kg * s.cg) * points + fft_scratch;
        return plan;
    }
    const bool forward = problem.direction == ConvDirection::forward;
    const int64_t summed = forward ? s.cg : s.kg, produced = forward ? s.kg : s.cg;
    plan.complex_values = (produced * summed + summed + 1) * points + fft_scratch;
    if (!forward) plan.filter_reals = s.k * s.cg * s.taps;
    return plan;
}

int64_t fft_scratch_of(const FftCorrelation &c, bool in_double) {
    const Extent n = extent_of(c, c.fft);
    return in_double ? Fft<double>(3, n.e).scratch() : Fft<float>(3, n.e).scratch();
}

// buffer[j] = the src value at correlation position origin + j for j < take, 0 elsewhere in the buffer of
// extent `size`: src value i sits at position i * stride (zeros between, for strided backward data).
template <class C>
void load(const C *src, const Extent &src_extent, const Extent &stride, const int64_t *origin, const Extent &take,
          const Extent &size, std::complex<C> *buffer) {
    std::fill(buffer, buffer + size.count(), std::complex<C>(0));
    // Position p holds a value when p is a multiple of the stride inside the src; -1 where it holds none.
    auto index = [&](int d, int64_t position) -> int64_t {
        if (position < 0 || position % stride.e[d] != 0) return -1;
        const int64_t i = position / stride.e[d];
        return i < src_extent.e[d] ? i : -1;
    };
    for (int64_t j0 = 0; j0 < std::min(take.e[0], size.e[0]); ++j0) {
        const int64_t i0 = index(0, origin[0] + j0);
        if (i0 < 0) continue;
        for (int64_t j1 = 0; j1 < std::min(take.e[1], size.e[1]); ++j1) {
            const int64_t i1 = index(1, origin[1] + j1);
            if (i1 < 0) continue;
            const C *row = src + (i0 * src_extent.e[1] + i1) * src_extent.e[2];
            std::complex<C> *to = buffer + (j0 * size.e[1] + j1) * size.e[2];
            for (int64_t j2 = 0; j2 < std::min(take.e[2], size.e[2]); ++j2) {
                const int64_t i2 = index(2, origin[2] + j2);
                if (i2 >= 0) to[j2] = std::complex<C>(row[i2], C(0));
            }
        }
    }
}

// The value at correlation position origin + m (m < take, inside `positions`) is Re(z[m]) * scale; it is
// stored as out[(origin + m) / stride] where the position is a multiple of the stride (strided forward).
template <class C>
void store(const std::complex<C> *z, const Extent &size, const int64_t *origin, const Extent &take, C scale, C *out,
           const Extent &positions, const Extent &stride, const Extent &out_extent) {
    for (int64_t m0 = 0; m0 < take.e[0] && origin[0] + m0 < positions.e[0]; ++m0) {
        if ((origin[0] + m0) % stride.e[0] != 0) continue;
        for (int64_t m1 = 0; m1 < take.e[1] && origin[1] + m1 < positions.e[1]; ++m1) {
            if ((origin[1] + m1) % stride.e[1] != 0) continue;
            C *row = out + ((origin[0] + m0) / stride.e[0] * out_extent.e[1] + (origin[1] + m1) / stride.e[1]) *
                               out_extent.e[2];
            const std::complex<C> *from = z + (m0 * size.e[1] + m1) * size.e[2];
            for (int64_t m2 = 0; m2 < take.e[2] && origin[2] + m2 < positions.e[2]; ++m2) {
                if ((origin[2] + m2) % stride.e[2] == 0) row[(origin[2] + m2) / stride.e[2]] = from[m2].real() * scale;
            }
        }
    }
}

// sum += a * conj(b), pointwise.
template <class C>
void multiply_conjugate_add(const std::complex<C> *a, const std::complex<C> *b, int64_t count, std::complex<C> *sum) {
    for (int64_t i = 0; i < count; ++i) sum[i] += a[i] * std::conj(b[i]);
}

// The origin of tile `tile` (row-major over c.tiles) in the tiled operand's coordinates.
void tile_origin(const FftCorrelation &c, int64_t tile, int64_t *origin) {
    const Extent tiles = extent_of(c, c.tiles), step = extent_of(c, c.step);
    origin[2] = (tile % tiles.e[2]) * step.e[2];
    origin[1] = (tile / tiles.e[2] % tiles.e[1]) * step.e[1];
    origin[0] = (tile / (tiles.e[2] * tiles.e[1])) * step.e[0];
}

// Forward and backward data: out[n][group * produced + o] = sum over i < summed of
// correlate(src[n][group * summed + i], filters[group * produced + o][i]).
template <class C>
void correlate_outputs(const FftCorrelation &c, int64_t images, int64_t groups, int64_t summed, int64_t produced,
                       const C *src, const C *filters, C *out, std::complex<C> *scratch, const Fft<C> &fft) {
    const int64_t points = c.fft_points();
    const Extent size = extent_of(c, c.fft), src_extent = extent_of(c, c.src), filter_extent = extent_of(c, c.filter),
                 positions = extent_of(c, c.out), out_extent = stored_extent_of(c), step = extent_of(c, c.step),
                 offset = extent_of(c, c.offset, 0), src_stride = extent_of(c, c.src_stride),
                 out_stride = extent_of(c, c.out_stride), unit;
    const int64_t taps = filter_extent.count();
    std::complex<C> *filter_transforms = scratch;                               // produced x summed
    std::complex<C> *windows = filter_transforms + produced * summed * points;  // summed
    std::complex<C> *sum = windows + summed * points;
    std::complex<C> *fft_scratch = sum + points;
    const int64_t zero[3] = {0, 0, 0};
    const C scale = C(1) / static_cast<C>(points);
    for (int64_t g = 0; g < groups; ++g) {
        for (int64_t o = 0; o < produced; ++o) {
            for (int64_t i = 0; i < summed; ++i) {
                std::complex<C> *f = filter_transforms + (o * summed + i) * points;
                load(filters + ((g * produced + o) * summed + i) * taps, filter_extent, unit, zero, filter_extent, size,
                     f);
                fft.transform(f, false, fft_scratch);
            }
        }
        for (int64_t n = 0; n < images; ++n) {
            for (int64_t tile = 0; tile < c.tile_count(); ++tile) {
                int64_t origin[3], window[3];
                tile_origin(c, tile, origin);
                for (int d = 0; d < 3; ++d) window[d] = origin[d] - offset.e[d];
                for (int64_t i = 0; i < summed; ++i) {
                    const C *channel = src + ((n * groups + g) * summed + i) * src_extent.count();
                    load(channel, src_extent, src_stride, window, size, size, windows + i * points);
                    fft.transform(windows + i * points, false, fft_scratch);
                }
                for (int64_t o = 0; o < produced; ++o) {
                    std::fill(sum, sum + points, std::complex<C>(0));
                    for (int64_t i = 0; i < summed; ++i) {
                        multiply_conjugate_add(windows + i * points, filter_transforms + (o * summed + i) * points,
                                               points, sum);
                    }
                    fft.transform(sum, true, fft_scratch);
                    store(sum, size, origin, step, scale, out + ((n * groups + g) * produced + o) * out_extent.count(),
                          positions, out_stride, out_extent);
                }
            }
        }
    }
}

// Backward filter: dw[group * kg + k][c] = sum over n and dy's tiles of correlate(x window, dy tile).
template <class C>
void correlate_filter_gradient(const FftCorrelation &c, const ConvShape &s, const C *x, const C *dy, C *dw,
                               std::complex<C> *scratch, const Fft<C> &fft) {
    const int64_t points = c.fft_points();
    const Extent size = extent_of(c, c.fft), src_extent = extent_of(c, c.src), dy_extent = extent_of(c, c.filter),
                 out_extent = extent_of(c, c.out), step = extent_of(c, c.step), offset = extent_of(c, c.offset, 0),
                 unit;
    std::complex<C> *windows = scratch;                // cg
    std::complex<C> *tiles = windows + s.cg * points;  // kg
    std::complex<C> *sums = tiles + s.kg * points;     // kg x cg
    std::complex<C> *fft_scratch = sums + s.kg * s.cg * points;
    const int64_t zero[3] = {0, 0, 0};
    const C scale = C(1) / static_cast<C>(points);
    for (int64_t g = 0; g < s.groups; ++g) {
        std::fill(sums, sums + s.kg * s.cg * points, std::complex<C>(0));
        for (int64_t n = 0; n < s.n; ++n) {
            for (int64_t tile = 0; tile < c.tile_count(); ++tile) {
                int64_t origin[3], window[3];
                tile_origin(c, tile, origin);
                for (int d = 0; d < 3; ++d) window[d] = origin[d] - offset.e[d];
                for (int64_t ci = 0; ci < s.cg; ++ci) {
                    load(x + (n * s.c + g * s.cg + ci) * s.in, src_extent, unit, window, size, size,
                         windows + ci * points);
                    fft.transform(windows + ci * points, false, fft_scratch);
                }
                for (int64_t k = 0; k < s.kg; ++k) {
                    load(dy + (n * s.k + g * s.kg + k) * s.out, dy_extent, unit, origin, step, size,
                         tiles + k * points);
                    fft.transform(tiles + k * points, false, fft_scratch);
                }
                for (int64_t k = 0; k < s.kg; ++k) {
                    for (int64_t ci = 0; ci < s.cg; ++ci) {
                        multiply_conjugate_add(windows + ci * points, tiles + k * points, points,
                                               sums + (k * s.cg + ci) * points);
                    }
                }
            }
        }
        for (int64_t k = 0; k < s.kg; ++k) {
            for (int64_t ci = 0; ci < s.cg; ++ci) {
                std::complex<C> *z = sums + (k * s.cg + ci) * points;
                fft.transform(z, true, fft_scratch);
                store(z, size, zero, out_extent, scale, dw + ((g * s.kg + k) * s.cg + ci) * s.taps, out_extent, unit,
                      out_extent);
            }
        }
    }
}

}  // namespace

Applicability HostFftConvSolver::applicable(const ConvProblem &problem) const {
    const Applicability direction = require_direction(problem, direction_);
    if (!direction.ok()) return direction;
    return fft_applicability(problem, kind_);
}

size_t fft_workspace_bytes(const ConvProblem &problem, FftKind kind) {
    const FftCorrelation c = fft_correlation(problem, kind);
    const bool in_double = computes_in_double(problem);
    const ScratchPlan plan = scratch_plan(problem, c, fft_scratch_of(c, in_double));
    return packed_workspace_bytes(problem, 2 * plan.complex_values + plan.filter_reals, 0);
}

Status run_fft_convolution(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers,
                           FftKind kind) {
    const FftCorrelation c = fft_correlation(problem, kind);
    const bool in_double = computes_in_double(problem);
    const ScratchPlan plan = scratch_plan(problem, c, fft_scratch_of(c, in_double));
    return run_packed(context, problem, buffers, 2 * plan.complex_values + plan.filter_reals, 0,
                      [&](const ConvShape &s, const auto &t) {
                          using C = std::remove_pointer_t<decltype(t.x)>;
                          const Extent size = extent_of(c, c.fft);
                          const Fft<C> fft(3, size.e);
                          auto *scratch = reinterpret_cast<std::complex<C> *>(t.scratch);
                          std::complex<C> *fft_scratch = scratch + plan.complex_values - fft.scratch();
                          fft.prepare(fft_scratch);
                          switch (problem.direction) {
                              case ConvDirection::forward:
                                  correlate_outputs(c, s.n, s.groups, s.cg, s.kg, t.x, t.w, t.y, scratch, fft);
                                  break;
                              case ConvDirection::backward_data: {
                                  // The filter as [C][K / groups][taps], each block of taps reversed: the
                                  // correlation of dy that gives dx.
                                  C *filters = t.scratch + 2 * plan.complex_values;
                                  for (int64_t g = 0; g < s.groups; ++g) {
                                      for (int64_t ci = 0; ci < s.cg; ++ci) {
                                          for (int64_t k = 0; k < s.kg; ++k) {
                                              const C *from = t.w + ((g * s.kg + k) * s.cg + ci) * s.taps;
                                              std::reverse_copy(from, from + s.taps,
                                                                filters + ((g * s.cg + ci) * s.kg + k) * s.taps);
                                          }
                                      }
                                  }
                                  correlate_outputs(c, s.n, s.groups, s.kg, s.cg, t.y, filters, t.x, scratch, fft);
                                  break;
                              }
                              case ConvDirection::backward_filter:
                                  correlate_filter_gradient(c, s, t.x, t.y, t.w, scratch, fft);
                                  break;
                          }
                      });
}

}  // namespace librednn::host::conv
