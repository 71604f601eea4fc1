// Host spatial transformer: the affine grid generator and the bilinear sampler, forward and backward,
// x, y, dx and dy of any strides, everything computed in double and rounded once. Work is split over the
// threads so that no two write the same element: grid rows; dtheta rows; sampler output rows; for the
// sampler's dx, whole (image, channel) planes, each scattered into a double plane of its own thread
// before the blend; for dgrid, grid rows, each summing over the channels itself.
#include "host/common/host_element.hpp"
#include "host/common/parallel.hpp"
#include "host/spatial_tf/solvers.hpp"

#include <cmath>
#include <vector>

namespace librednn {

namespace {

// -1 + 2i / (extent - 1), exactly as (2i - (extent - 1)) / (extent - 1); 0 for extent 1.
double base_coordinate(int64_t i, int64_t extent) {
    if (extent == 1) return 0.0;
    return static_cast<double>(2 * i - (extent - 1)) / static_cast<double>(extent - 1);
}

// Along one axis of the input: the two taps floor(i) and floor(i) + 1, which of them lie inside, and
// t = i - floor(i) (0 when neither is inside). The bounds are compared in double first: NaN, infinite
// and huge coordinates have no tap inside and never reach an integer conversion.
struct Taps {
    int64_t at[2] = {0, 0};
    bool inside[2] = {false, false};
    double t = 0;

    Taps(double grid_value, int64_t extent) {
        const double coordinate = (grid_value + 1.0) * static_cast<double>(extent - 1) * 0.5;
        const double first = std::floor(coordinate);
        for (int k = 0; k < 2; ++k) {
            inside[k] = first + k >= 0.0 && first + k < static_cast<double>(extent);
            if (inside[k]) at[k] = static_cast<int64_t>(first) + k;
        }
        if (inside[0] || inside[1]) t = coordinate - first;
    }
    double weight(int k) const { return k == 0 ? 1.0 - t : t; }
};

// Strided 4-d access: the offset of [i0, i1, i2, i3] in `g`.
int64_t offset4(const TensorGeometry &g, int64_t i0, int64_t i1, int64_t i2, int64_t i3) {
    return i0 * g.strides[0] + i1 * g.strides[1] + i2 * g.strides[2] + i3 * g.strides[3];
}

template <class T>
double load(const void *base, int64_t offset) {
    return static_cast<double>(host::HostElement<T>::load(static_cast<const T *>(base)[offset]));
}

// out[offset] = value + beta * out[offset], rounded once; beta == 0 never reads out.
template <class T>
void store_blended(void *base, int64_t offset, double value, double beta) {
    T *out = static_cast<T *>(base) + offset;
    if (beta != 0.0) value += beta * static_cast<double>(host::HostElement<T>::load(*out));
    *out = host::HostElement<T>::from_double(value);
}

template <class T>
void grid_forward(const SpatialTfProblem &p, const SpatialTfBuffers &b) {
    host::parallel_for(p.n * p.h, 1, [&](int64_t begin, int64_t end, int) {
        for (int64_t row = begin; row < end; ++row) {
            const int64_t n = row / p.h, h = row % p.h;
            double theta[6];
            for (int j = 0; j < 6; ++j) theta[j] = load<T>(b.theta, n * 6 + j);
            const double y_t = base_coordinate(h, p.h);
            for (int64_t w = 0; w < p.w; ++w) {
                const double x_t = base_coordinate(w, p.w);
                for (int i = 0; i < 2; ++i) {
                    const double value = theta[3 * i] * x_t + theta[3 * i + 1] * y_t + theta[3 * i + 2];
                    store_blended<T>(b.grid_out, (row * p.w + w) * 2 + i, value, 0.0);
                }
            }
        }
    });
}

template <class T>
void grid_backward(const SpatialTfProblem &p, const SpatialTfBuffers &b) {
    // One row of dtheta (image n, output coordinate i) per task.
    host::parallel_for(p.n * 2, 1, [&](int64_t begin, int64_t end, int) {
        for (int64_t task = begin; task < end; ++task) {
            const int64_t n = task / 2, i = task % 2;
            double sums[3] = {0, 0, 0};
            for (int64_t h = 0; h < p.h; ++h) {
                const double y_t = base_coordinate(h, p.h);
                for (int64_t w = 0; w < p.w; ++w) {
                    const double g = load<T>(b.dgrid, ((n * p.h + h) * p.w + w) * 2 + i);
                    sums[0] += g * base_coordinate(w, p.w);
                    sums[1] += g * y_t;
                    sums[2] += g;
                }
            }
            for (int j = 0; j < 3; ++j) store_blended<T>(b.dtheta, task * 3 + j, sums[j], 0.0);
        }
    });
}

template <class T>
void sampler_forward(const SpatialTfProblem &p, const SpatialTfBuffers &b) {
    const int64_t h_in = p.x.dims[2], w_in = p.x.dims[3];
    host::parallel_for(p.n * p.c * p.h, 4, [&](int64_t begin, int64_t end, int) {
        for (int64_t row = begin; row < end; ++row) {
            const int64_t h = row % p.h, c = row / p.h % p.c, n = row / p.h / p.c;
            for (int64_t w = 0; w < p.w; ++w) {
                const int64_t at = ((n * p.h + h) * p.w + w) * 2;
                const Taps cols(load<T>(b.grid, at), w_in), rows(load<T>(b.grid, at + 1), h_in);
                double sample = 0.0;
                for (int r = 0; r < 2; ++r) {
                    for (int k = 0; k < 2; ++k) {
                        if (!rows.inside[r] || !cols.inside[k]) continue;
                        sample +=
                            rows.weight(r) * cols.weight(k) * load<T>(b.x, offset4(p.x, n, c, rows.at[r], cols.at[k]));
                    }
                }
                store_blended<T>(b.y, offset4(p.y, n, c, h, w), p.alpha * sample, p.beta);
            }
        }
    });
}

template <class T>
void sampler_backward_data(const SpatialTfProblem &p, const SpatialTfBuffers &b,
                           std::vector<std::vector<double>> &planes) {
    const int64_t h_in = p.x.dims[2], w_in = p.x.dims[3];
    host::parallel_for(p.n * p.c, 1, [&](int64_t begin, int64_t end, int part) {
        std::vector<double> &plane = planes[static_cast<size_t>(part)];
        for (int64_t image_channel = begin; image_channel < end; ++image_channel) {
            const int64_t n = image_channel / p.c, c = image_channel % p.c;
            plane.assign(static_cast<size_t>(h_in * w_in), 0.0);
            for (int64_t h = 0; h < p.h; ++h) {
                for (int64_t w = 0; w < p.w; ++w) {
                    const int64_t at = ((n * p.h + h) * p.w + w) * 2;
                    const Taps cols(load<T>(b.grid, at), w_in), rows(load<T>(b.grid, at + 1), h_in);
                    const double g = load<T>(b.dy, offset4(p.dy, n, c, h, w));
                    for (int r = 0; r < 2; ++r) {
                        for (int k = 0; k < 2; ++k) {
                            if (rows.inside[r] && cols.inside[k])
                                plane[static_cast<size_t>(rows.at[r] * w_in + cols.at[k])] +=
                                    rows.weight(r) * cols.weight(k) * g;
                        }
                    }
                }
            }
            for (int64_t row = 0; row < h_in; ++row) {
                for (int64_t col = 0; col < w_in; ++col) {
                    store_blended<T>(b.dx, offset4(p.dx, n, c, row, col),
                                     p.alpha * plane[static_cast<size_t>(row * w_in + col)], p.beta);
                }
            }
        }
    });
}

template <class T>
void sampler_backward_grid(const SpatialTfProblem &p, const SpatialTfBuffers &b) {
    const int64_t h_in = p.x.dims[2], w_in = p.x.dims[3];
    const double scale_x = static_cast<double>(w_in - 1) * 0.5, scale_y = static_cast<double>(h_in - 1) * 0.5;
    host::parallel_for(p.n * p.h, 1, [&](int64_t begin, int64_t end, int) {
        for (int64_t row = begin; row < end; ++row) {
            const int64_t n = row / p.h, h = row % p.h;
            for (int64_t w = 0; w < p.w; ++w) {
                const int64_t at = (row * p.w + w) * 2;
                const Taps cols(load<T>(b.grid, at), w_in), rows(load<T>(b.grid, at + 1), h_in);
                double d_ix = 0.0, d_iy = 0.0;
                for (int64_t c = 0; c < p.c; ++c) {
                    double v[2][2] = {{0, 0}, {0, 0}};  // the taps, 0 outside the input
                    for (int r = 0; r < 2; ++r) {
                        for (int k = 0; k < 2; ++k) {
                            if (rows.inside[r] && cols.inside[k])
                                v[r][k] = load<T>(b.x, offset4(p.x, n, c, rows.at[r], cols.at[k]));
                        }
                    }
                    const double g = load<T>(b.dy, offset4(p.dy, n, c, h, w));
                    d_ix += g * (rows.weight(0) * (v[0][1] - v[0][0]) + rows.weight(1) * (v[1][1] - v[1][0]));
                    d_iy += g * (cols.weight(0) * (v[1][0] - v[0][0]) + cols.weight(1) * (v[1][1] - v[0][1]));
                }
                store_blended<T>(b.dgrid_out, at, p.alpha_dgrid * d_ix * scale_x, p.beta_dgrid);
                store_blended<T>(b.dgrid_out, at + 1, p.alpha_dgrid * d_iy * scale_y, p.beta_dgrid);
            }
        }
    });
}

class HostSpatialTf final : public SpatialTfSolver {
public:
    const char *name() const override { return "host_spatial_tf"; }
    SolverId id() const override { return SolverId::host_spatial_tf; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const SpatialTfProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const SpatialTfProblem &p, const SpatialTfBuffers &b) const override {
        // The dx planes of each thread, allocated here: an allocation failure reaches the call's guard.
        std::vector<std::vector<double>> planes;
        if (p.stage == SpatialTfStage::sampler && p.direction == Direction::backward) {
            planes.resize(static_cast<size_t>(host::host_thread_count()));
            for (auto &plane : planes) plane.reserve(static_cast<size_t>(p.x.dims[2] * p.x.dims[3]));
        }
        host::with_floating_point_type(p.dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            if (p.stage == SpatialTfStage::grid) {
                if (p.direction == Direction::forward) {
                    grid_forward<T>(p, b);
                } else {
                    grid_backward<T>(p, b);
                }
            } else if (p.direction == Direction::forward) {
                sampler_forward<T>(p, b);
            } else {
                sampler_backward_data<T>(p, b, planes);
                sampler_backward_grid<T>(p, b);
            }
        });
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const SpatialTfSolver &host_spatial_tf_solver() {
    static const HostSpatialTf solver;
    return solver;
}

}  // namespace librednn
