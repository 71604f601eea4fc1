// cudnnSpatialTfGridGeneratorForward/Backward and cudnnSpatialTfSamplerForward/Backward against the
// reference on random shapes (1-pixel dims, outputs larger and smaller than the input), thetas and
// grids that sample inside and outside the input, layouts, types and blends; the backward passes also
// against central differences of the forwards in double, alone and chained as a spatial transformer
// network uses them; hand-checked cases; non-finite grids; the rejections; the problem string.
#include "reference/spatial_transformer.hpp"
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"
#include "ops/spatial_tf/problem.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

using namespace librednn;
using namespace librednn::test;

const std::vector<cudnnDataType_t> kTypes = {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16};

class StDescriptor {
public:
    StDescriptor(cudnnDataType_t type, const int64_t (&dims)[4]) {
        EXPECT_EQ(cudnnCreateSpatialTransformerDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        const int d[4] = {static_cast<int>(dims[0]), static_cast<int>(dims[1]), static_cast<int>(dims[2]),
                          static_cast<int>(dims[3])};
        EXPECT_EQ(cudnnSetSpatialTransformerNdDescriptor(desc_, CUDNN_SAMPLER_BILINEAR, type, 4, d),
                  CUDNN_STATUS_SUCCESS);
    }
    explicit StDescriptor(const SpatialTfProblem &p) : StDescriptor(p.dtype, {p.n, p.c, p.h, p.w}) {}
    ~StDescriptor() { cudnnDestroySpatialTransformerDescriptor(desc_); }
    StDescriptor(const StDescriptor &) = delete;
    StDescriptor &operator=(const StDescriptor &) = delete;
    operator cudnnSpatialTransformerDescriptor_t() const { return desc_; }

private:
    cudnnSpatialTransformerDescriptor_t desc_ = nullptr;
};

// A spatial extent: often 1, else up to `most`.
int64_t random_extent(Random &rng, int64_t most) { return rng.integer(0, 3) == 0 ? 1 : rng.integer(2, most); }

SpatialTfProblem random_problem(Random &rng, SpatialTfStage stage, Direction direction) {
    SpatialTfProblem p;
    p.stage = stage;
    p.direction = direction;
    p.dtype = rng.pick(kTypes);
    p.n = rng.integer(1, 3);
    p.c = rng.integer(1, 6);
    p.h = random_extent(rng, stage == SpatialTfStage::grid ? 40 : 9);
    p.w = random_extent(rng, stage == SpatialTfStage::grid ? 40 : 9);
    if (stage == SpatialTfStage::grid) return p;
    const std::vector<int64_t> x_dims = {p.n, p.c, random_extent(rng, 12), random_extent(rng, 12)};
    const std::vector<int64_t> y_dims = {p.n, p.c, p.h, p.w};
    p.x = make_geometry(rng, p.dtype, x_dims, rng.pick(all_layout_kinds()));
    const bool in_double = p.dtype == CUDNN_DATA_DOUBLE;
    p.alpha = Scalar(random_alpha(rng), in_double).value();
    p.beta = Scalar(random_beta(rng), in_double).value();
    if (direction == Direction::forward) {
        p.y = make_geometry(rng, p.dtype, y_dims, rng.pick(all_layout_kinds()));
    } else {
        p.dx = make_geometry(rng, p.dtype, x_dims, rng.pick(all_layout_kinds()));
        p.dy = make_geometry(rng, p.dtype, y_dims, rng.pick(all_layout_kinds()));
        p.alpha_dgrid = Scalar(random_alpha(rng), in_double).value();
        p.beta_dgrid = Scalar(random_beta(rng), in_double).value();
    }
    return p;
}

// The reference's view of a test tensor (it never writes to its inputs).
reference::TensorView view_of(const HostTensor &t) {
    reference::TensorView view;
    view.type = t.geometry.dtype;
    view.dims.assign(t.geometry.dims, t.geometry.dims + t.geometry.nb_dims);
    view.strides.assign(t.geometry.strides, t.geometry.strides + t.geometry.nb_dims);
    view.data = const_cast<uint8_t *>(t.bytes.data());
    return view;
}

// A packed double tensor for the reference's unblended result.
reference::HostTensor exact_tensor(const TensorGeometry &g) {
    return reference::HostTensor(CUDNN_DATA_DOUBLE, std::vector<int64_t>(g.dims, g.dims + g.nb_dims));
}

// The output before a run: NaN bytes when beta is 0 (it must not be read), random values otherwise.
HostTensor initial_output(const TensorGeometry &g, Random &rng, double beta) {
    HostTensor t(g);
    if (beta == 0.0) {
        poison(t);
    } else {
        fill_uniform(t, rng, -2.0, 2.0);
    }
    return t;
}

// Random grid values: most within [-1.1, 1.1] (inside the input, some just outside), some far outside.
// With `margin`, every input coordinate they read (in pixels, after rounding to the grid's type) is at
// least `margin` from an integer, so that no rounding moves a sample into another cell: the backward
// pass's dgrid jumps there (bilinear sampling is piecewise linear).
void fill_grid(HostTensor &grid, Random &rng, int64_t h_in, int64_t w_in, double margin) {
    const TensorGeometry &g = grid.geometry;
    int64_t index[kMaxDims] = {};
    do {
        const int64_t extent = index[3] == 0 ? w_in : h_in;
        for (int attempt = 0;; ++attempt) {
            ASSERT_LT(attempt, 10000) << "no grid value keeps the margin";
            grid.set(index, rng.integer(0, 3) == 0 ? rng.uniform(-3.0, 3.0) : rng.uniform(-1.1, 1.1));
            const double coordinate = reference::spatial_tf_source_coordinate(grid.at(index), extent);
            if (margin == 0.0 || extent == 1 || std::fabs(coordinate - std::round(coordinate)) >= margin) break;
        }
    } while (next_index(index, g.dims, g.nb_dims));
}

// The unit roundoff the bounds use (docs/NUMERICS.md, "Spatial transformer"): the library's plus the
// reference's. The reference computes the same formulas in double, and its rounding errors add to the
// library's: negligible against float's, as large as double's. (Bounds linear in u, or convex in it
// like sum_error, cover the sum of both errors when given the sum of both roundoffs.)
double roundoff(cudnnDataType_t type) { return accumulation_roundoff(type) + 0x1p-53; }
double step(cudnnDataType_t type) {
    return tolerance_for(type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT).compute_eps;
}

// How far a computed fraction t = i - floor(i) may be from the exact one: the input coordinate
// (g + 1) (extent - 1) / 2 takes two roundings (2u |i|, 3u |i| with room), t one more.
double fraction_error(double coordinate, double u) { return 3 * u * std::fabs(coordinate) + u; }

void check_grid(Random &rng, const SpatialTfProblem &p) {
    const std::string text = to_problem_string(p).to_string();
    SCOPED_TRACE(text);
    const bool forward = p.direction == Direction::forward;
    const TensorGeometry in_g = forward ? p.theta() : p.grid(), out_g = forward ? p.grid() : p.theta();
    HostTensor in(in_g), initial(out_g);
    fill_uniform(in, rng, forward ? -1.5 : -2.0, forward ? 1.5 : 2.0);
    poison(initial);
    Handle handle;
    StDescriptor desc(p);
    DeviceBuffer in_buffer(in.bytes), out(initial.bytes);
    const cudnnStatus_t status = forward
                                     ? cudnnSpatialTfGridGeneratorForward(handle, desc, in_buffer.get(), out.get())
                                     : cudnnSpatialTfGridGeneratorBackward(handle, desc, in_buffer.get(), out.get());
    ASSERT_EQ(status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
    HostTensor result(out_g);
    result.bytes = out.download();

    reference::HostTensor exact = exact_tensor(out_g);
    ASSERT_EQ(forward ? reference::spatial_tf_grid_forward(view_of(in), exact)
                      : reference::spatial_tf_grid_backward(view_of(in), exact),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    const std::vector<double> value = exact.values();
    const double u = roundoff(p.dtype);
    std::vector<ElementBound> bounds(value.size());
    HostTensor ref = initial;
    int64_t index[kMaxDims] = {};
    size_t e = 0;
    do {
        double error = 0;
        if (forward) {
            // grid = theta0 x_t + theta1 y_t + theta2: x_t and y_t round once or twice, each product and
            // sum once.
            const double x_t = reference::spatial_tf_base_coordinate(index[2], p.w);
            const double y_t = reference::spatial_tf_base_coordinate(index[1], p.h);
            const int64_t row = index[3];
            const double t0 = in.at(std::vector<int64_t>{index[0], row, 0}.data());
            const double t1 = in.at(std::vector<int64_t>{index[0], row, 1}.data());
            const double t2 = in.at(std::vector<int64_t>{index[0], row, 2}.data());
            error = 2 * u * (std::fabs(t0) + std::fabs(t1)) +
                    3 * u * (std::fabs(t0 * x_t) + std::fabs(t1 * y_t) + std::fabs(t2));
        } else {
            // A sum over H x W terms dgrid * base, each base rounded once or twice (but the constant 1).
            double sum_abs = 0, dgrid_abs = 0;
            for (int64_t h = 0; h < p.h; ++h) {
                for (int64_t w = 0; w < p.w; ++w) {
                    const double g = in.at(std::vector<int64_t>{index[0], h, w, index[1]}.data());
                    const double base[3] = {reference::spatial_tf_base_coordinate(w, p.w),
                                            reference::spatial_tf_base_coordinate(h, p.h), 1.0};
                    sum_abs += std::fabs(g * base[index[2]]);
                    dgrid_abs += std::fabs(g);
                }
            }
            error = (index[2] < 2 ? 2 * u * dgrid_abs : 0.0) + u * sum_abs +
                    sum_error(static_cast<double>(p.h * p.w), sum_abs, u);
        }
        bounds[e].exact = value[e];
        bounds[e].compute_error = error;
        ref.set(index, value[e]);
        ++e;
    } while (next_index(index, out_g.dims, out_g.nb_dims));
    EXPECT_TRUE(matches_reference(result, ref, bounds, text));
}

// Per (image, channel) plane of x: the largest |x|. A bilinear sample moves by at most 2 * that per
// pixel its coordinate moves.
std::vector<double> plane_maxima(const HostTensor &x) {
    const TensorGeometry &g = x.geometry;
    std::vector<double> maxima(static_cast<size_t>(g.dims[0] * g.dims[1]), 0.0);
    int64_t index[kMaxDims] = {};
    do {
        double &m = maxima[static_cast<size_t>(index[0] * g.dims[1] + index[1])];
        m = std::max(m, std::fabs(x.at(index)));
    } while (next_index(index, g.dims, g.nb_dims));
    return maxima;
}

double grid_at(const HostTensor &grid, int64_t n, int64_t h, int64_t w, int64_t i) {
    const int64_t index[4] = {n, h, w, i};
    return grid.at(index);
}

void check_sampler_forward(Random &rng, const SpatialTfProblem &p) {
    const std::string text = to_problem_string(p).to_string();
    SCOPED_TRACE(text);
    const int64_t h_in = p.x.dims[2], w_in = p.x.dims[3];
    HostTensor x(p.x), grid(p.grid());
    fill_uniform(x, rng, -2.0, 2.0);
    fill_grid(grid, rng, h_in, w_in, 0.0);
    const HostTensor initial = initial_output(p.y, rng, p.beta);
    Handle handle;
    StDescriptor desc(p);
    TensorDescriptor x_desc(p.x), y_desc(p.y);
    const bool in_double = p.dtype == CUDNN_DATA_DOUBLE;
    const Scalar alpha(p.alpha, in_double), beta(p.beta, in_double);
    DeviceBuffer x_buffer(x.bytes), grid_buffer(grid.bytes), out(initial.bytes);
    ASSERT_EQ(cudnnSpatialTfSamplerForward(handle, desc, alpha.get(), x_desc, x_buffer.get(), grid_buffer.get(),
                                           beta.get(), y_desc, out.get()),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    HostTensor result(p.y);
    result.bytes = out.download();

    reference::HostTensor exact = exact_tensor(p.y);
    ASSERT_EQ(reference::spatial_tf_sampler_forward(1.0, view_of(x), view_of(grid), 0.0, exact), CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    const std::vector<double> value = exact.values(), old = element_values(initial), maxima = plane_maxima(x);
    const double u = roundoff(p.dtype), s = step(p.dtype);
    std::vector<ElementBound> bounds(value.size());
    HostTensor ref = initial;
    int64_t index[kMaxDims] = {};
    size_t e = 0;
    do {
        // The sample moves by at most 2M per pixel of coordinate error (M the plane's largest |x|); its
        // weights and four products and sums err by 24uM more.
        const double m = maxima[static_cast<size_t>(index[0] * p.c + index[1])];
        const double ix = reference::spatial_tf_source_coordinate(grid_at(grid, index[0], index[2], index[3], 0), w_in);
        const double iy = reference::spatial_tf_source_coordinate(grid_at(grid, index[0], index[2], index[3], 1), h_in);
        const double sample_error = 2 * m * (fraction_error(ix, u) + fraction_error(iy, u)) + 24 * u * m;
        const double before = p.beta == 0.0 ? 0.0 : p.beta * old[e];
        bounds[e].exact = p.alpha * value[e] + before;
        bounds[e].compute_error =
            std::fabs(p.alpha) * sample_error + s * (std::fabs(p.alpha * value[e]) + std::fabs(before));
        ref.set(index, bounds[e].exact);
        ++e;
    } while (next_index(index, p.y.dims, p.y.nb_dims));
    EXPECT_TRUE(matches_reference(result, ref, bounds, text));
}

void check_sampler_backward(Random &rng, const SpatialTfProblem &p) {
    const std::string text = to_problem_string(p).to_string();
    SCOPED_TRACE(text);
    const int64_t h_in = p.x.dims[2], w_in = p.x.dims[3];
    HostTensor x(p.x), dy(p.dy), grid(p.grid());
    fill_uniform(x, rng, -2.0, 2.0);
    fill_uniform(dy, rng, -2.0, 2.0);
    fill_grid(grid, rng, h_in, w_in, 0.01);
    const HostTensor dx_initial = initial_output(p.dx, rng, p.beta);
    const HostTensor dgrid_initial = initial_output(p.grid(), rng, p.beta_dgrid);
    Handle handle;
    StDescriptor desc(p);
    TensorDescriptor x_desc(p.x), dx_desc(p.dx), dy_desc(p.dy);
    const bool in_double = p.dtype == CUDNN_DATA_DOUBLE;
    const Scalar alpha(p.alpha, in_double), beta(p.beta, in_double);
    const Scalar alpha_dgrid(p.alpha_dgrid, in_double), beta_dgrid(p.beta_dgrid, in_double);
    DeviceBuffer x_buffer(x.bytes), dy_buffer(dy.bytes), grid_buffer(grid.bytes);
    DeviceBuffer dx_buffer(dx_initial.bytes), dgrid_buffer(dgrid_initial.bytes);
    ASSERT_EQ(cudnnSpatialTfSamplerBackward(handle, desc, alpha.get(), x_desc, x_buffer.get(), beta.get(), dx_desc,
                                            dx_buffer.get(), alpha_dgrid.get(), dy_desc, dy_buffer.get(),
                                            grid_buffer.get(), beta_dgrid.get(), dgrid_buffer.get()),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    HostTensor dx_result(p.dx), dgrid_result(p.grid());
    dx_result.bytes = dx_buffer.download();
    dgrid_result.bytes = dgrid_buffer.download();

    reference::HostTensor dx_exact = exact_tensor(p.dx), dgrid_exact = exact_tensor(p.grid());
    ASSERT_EQ(reference::spatial_tf_sampler_backward(1.0, view_of(x), 0.0, dx_exact, 1.0, view_of(dy), view_of(grid),
                                                     0.0, dgrid_exact),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();

    // Walk every (grid point, channel, tap) once, as the sampler does, gathering what the bounds need.
    const double u = roundoff(p.dtype), s = step(p.dtype);
    auto x_element = [&](int64_t n, int64_t c, int64_t row, int64_t col) {
        return static_cast<size_t>(((n * p.c + c) * h_in + row) * w_in + col);
    };
    std::vector<double> dx_terms(static_cast<size_t>(p.x.element_count()), 0.0);  // terms added into each dx
    std::vector<double> dx_abs(dx_terms.size(), 0.0);                             // sum of |alpha * term|
    std::vector<double> dx_weight_error(dx_terms.size(), 0.0);  // sum of |alpha dy| * the weights' error
    std::vector<double> dgrid_error(static_cast<size_t>(p.grid().element_count()), 0.0);
    for (int64_t n = 0; n < p.n; ++n) {
        for (int64_t h = 0; h < p.h; ++h) {
            for (int64_t w = 0; w < p.w; ++w) {
                const double coordinate[2] = {reference::spatial_tf_source_coordinate(grid_at(grid, n, h, w, 0), w_in),
                                              reference::spatial_tf_source_coordinate(grid_at(grid, n, h, w, 1), h_in)};
                const int64_t extent[2] = {w_in, h_in};
                int64_t at[2][2];
                bool inside[2][2];
                double weight[2][2], weight_error[2];
                for (int axis = 0; axis < 2; ++axis) {
                    const double first = std::floor(coordinate[axis]), t = coordinate[axis] - first;
                    for (int k = 0; k < 2; ++k) {
                        inside[axis][k] = first + k >= 0 && first + k < static_cast<double>(extent[axis]);
                        at[axis][k] = inside[axis][k] ? static_cast<int64_t>(first) + k : 0;
                        weight[axis][k] = k == 0 ? 1 - t : t;
                    }
                    // A 1-d weight: t's error plus the rounding of 1 - t.
                    weight_error[axis] = fraction_error(coordinate[axis], u) + u;
                }
                double gradient_abs[2] = {0, 0}, gradient_error[2] = {0, 0};
                for (int64_t c = 0; c < p.c; ++c) {
                    const int64_t dy_index[4] = {n, c, h, w};
                    const double g = dy.at(dy_index);
                    double v[2][2] = {{0, 0}, {0, 0}};  // [row tap][column tap]
                    for (int r = 0; r < 2; ++r) {
                        for (int k = 0; k < 2; ++k) {
                            if (!inside[1][r] || !inside[0][k]) continue;
                            const int64_t x_index[4] = {n, c, at[1][r], at[0][k]};
                            v[r][k] = x.at(x_index);
                            const size_t i = x_element(n, c, at[1][r], at[0][k]);
                            dx_terms[i] += 1;
                            dx_abs[i] += std::fabs(p.alpha * weight[1][r] * weight[0][k] * g);
                            dx_weight_error[i] += std::fabs(p.alpha * g) * (weight_error[0] + weight_error[1] + u);
                        }
                    }
                    // d sample / d ix pairs the column taps of each row (row weights), d / d iy the reverse.
                    const double a_x = std::fabs(v[0][1] - v[0][0]) + std::fabs(v[1][1] - v[1][0]);
                    const double a_y = std::fabs(v[1][0] - v[0][0]) + std::fabs(v[1][1] - v[0][1]);
                    gradient_abs[0] += std::fabs(g) * a_x;
                    gradient_abs[1] += std::fabs(g) * a_y;
                    gradient_error[0] += std::fabs(g) * (weight_error[1] + 5 * u) * a_x;
                    gradient_error[1] += std::fabs(g) * (weight_error[0] + 5 * u) * a_y;
                }
                for (int i = 0; i < 2; ++i) {
                    const double scale = static_cast<double>(extent[i] - 1) / 2;
                    dgrid_error[static_cast<size_t>(((n * p.h + h) * p.w + w) * 2 + i)] =
                        std::fabs(p.alpha_dgrid) * scale *
                        (gradient_error[i] + sum_error(static_cast<double>(p.c), gradient_abs[i], u) +
                         u * gradient_abs[i]);
                }
            }
        }
    }

    {
        SCOPED_TRACE("dx");
        const std::vector<double> value = dx_exact.values(), old = element_values(dx_initial);
        std::vector<ElementBound> bounds(value.size());
        HostTensor ref = dx_initial;
        int64_t index[kMaxDims] = {};
        size_t e = 0;
        do {
            // Atomic adds in any order of each term (each with its weights' error and two roundings) onto
            // beta * dx (the float and double path starts from it).
            const double before = p.beta == 0.0 ? 0.0 : p.beta * old[e];
            bounds[e].exact = p.alpha * value[e] + before;
            bounds[e].compute_error = dx_weight_error[e] + 2 * u * dx_abs[e] +
                                      sum_error(dx_terms[e] + 1, dx_abs[e] + std::fabs(before), u) +
                                      s * (std::fabs(p.alpha * value[e]) + std::fabs(before));
            ref.set(index, bounds[e].exact);
            ++e;
        } while (next_index(index, p.dx.dims, p.dx.nb_dims));
        EXPECT_TRUE(matches_reference(dx_result, ref, bounds, text));
    }
    {
        SCOPED_TRACE("dgrid");
        const std::vector<double> value = dgrid_exact.values(), old = element_values(dgrid_initial);
        std::vector<ElementBound> bounds(value.size());
        HostTensor ref = dgrid_initial;
        int64_t index[kMaxDims] = {};
        size_t e = 0;
        do {
            const double before = p.beta_dgrid == 0.0 ? 0.0 : p.beta_dgrid * old[e];
            bounds[e].exact = p.alpha_dgrid * value[e] + before;
            bounds[e].compute_error = dgrid_error[e] + s * (std::fabs(p.alpha_dgrid * value[e]) + std::fabs(before));
            ref.set(index, bounds[e].exact);
            ++e;
        } while (next_index(index, dgrid_result.geometry.dims, dgrid_result.geometry.nb_dims));
        EXPECT_TRUE(matches_reference(dgrid_result, ref, bounds, text));
    }
}

TEST(SpatialTf, GridGeneratorForwardMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 100; ++trial)
        check_grid(rng, random_problem(rng, SpatialTfStage::grid, Direction::forward));
}

TEST(SpatialTf, GridGeneratorBackwardMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 100; ++trial)
        check_grid(rng, random_problem(rng, SpatialTfStage::grid, Direction::backward));
}

TEST(SpatialTf, SamplerForwardMatchesReferenceOnRandomShapesGridsAndLayouts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 150; ++trial) {
        check_sampler_forward(rng, random_problem(rng, SpatialTfStage::sampler, Direction::forward));
    }
}

TEST(SpatialTf, SamplerBackwardMatchesReferenceOnRandomShapesGridsAndLayouts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 150; ++trial) {
        check_sampler_backward(rng, random_problem(rng, SpatialTfStage::sampler, Direction::backward));
    }
}

// Double buffers of the backend under test, for the gradient checks.
std::vector<double> run_grid_forward(const Handle &handle, const StDescriptor &desc, const std::vector<double> &theta,
                                     size_t grid_count) {
    DeviceBuffer theta_buffer(bytes_of(theta)), grid_buffer(bytes_of(std::vector<double>(grid_count)));
    EXPECT_EQ(cudnnSpatialTfGridGeneratorForward(handle, desc, theta_buffer.get(), grid_buffer.get()),
              CUDNN_STATUS_SUCCESS);
    return values_of<double>(grid_buffer.download());
}

std::vector<double> run_sampler_forward(const Handle &handle, const StDescriptor &desc, const TensorDescriptor &x_desc,
                                        const std::vector<double> &x, const std::vector<double> &grid,
                                        const TensorDescriptor &y_desc, size_t y_count) {
    const double one = 1.0, zero = 0.0;
    DeviceBuffer xb(bytes_of(x)), gb(bytes_of(grid)), yb(bytes_of(std::vector<double>(y_count)));
    EXPECT_EQ(cudnnSpatialTfSamplerForward(handle, desc, &one, x_desc, xb.get(), gb.get(), &zero, y_desc, yb.get()),
              CUDNN_STATUS_SUCCESS);
    return values_of<double>(yb.download());
}

double dot(const std::vector<double> &a, const std::vector<double> &b) {
    double sum = 0;
    for (size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
    return sum;
}

// The input coordinates of `grid` (x then y per point) are all at least `margin` from an integer.
bool keeps_margin(const std::vector<double> &grid, int64_t h_in, int64_t w_in, double margin) {
    for (size_t i = 0; i < grid.size(); ++i) {
        const int64_t extent = i % 2 == 0 ? w_in : h_in;
        const double coordinate = reference::spatial_tf_source_coordinate(grid[i], extent);
        if (extent > 1 && std::fabs(coordinate - std::round(coordinate)) < margin) return false;
    }
    return true;
}

// The sampler is linear in x and, inside one cell, linear in each grid coordinate: central differences
// in double with h = 1e-6 (the grid values are 0.01 pixel from a cell's edge, h moves them by less than
// 1e-5 pixel) are exact but for the rounding of the loss, about 1e-16 |loss| / h < 1e-9.
TEST(SpatialTf, SamplerBackwardIsTheGradientOfTheForward) {
    LIBREDNN_SEEDED_RANDOM(rng);
    const int64_t shapes[][6] = {{2, 3, 4, 5, 3, 4}, {1, 2, 1, 6, 5, 1}, {2, 1, 7, 3, 2, 9}};
    for (const auto &shape : shapes) {
        const int64_t n = shape[0], c = shape[1], h_in = shape[2], w_in = shape[3], h = shape[4], w = shape[5];
        SCOPED_TRACE("x " + join_dims(shape, 4) + ", output " + std::to_string(h) + "x" + std::to_string(w));
        Handle handle;
        StDescriptor desc(CUDNN_DATA_DOUBLE, {n, c, h, w});
        const int64_t x_dims[4] = {n, c, h_in, w_in}, y_dims[4] = {n, c, h, w};
        const TensorGeometry x_g = packed_geometry(CUDNN_DATA_DOUBLE, 4, x_dims, PackedLayout::nchw);
        const TensorGeometry y_g = packed_geometry(CUDNN_DATA_DOUBLE, 4, y_dims, PackedLayout::nchw);
        TensorDescriptor x_desc(x_g), y_desc(y_g);
        const size_t x_count = static_cast<size_t>(x_g.element_count()),
                     y_count = static_cast<size_t>(y_g.element_count());
        std::vector<double> x(x_count), weights(y_count), grid(static_cast<size_t>(n * h * w * 2));
        for (double &v : x) v = rng.uniform(-2, 2);
        for (double &v : weights) v = rng.uniform(-1, 1);
        do {
            for (double &v : grid) v = rng.uniform(-1.3, 1.3);
        } while (!keeps_margin(grid, h_in, w_in, 0.01));
        auto loss = [&](const std::vector<double> &xs, const std::vector<double> &gs) {
            return dot(weights, run_sampler_forward(handle, desc, x_desc, xs, gs, y_desc, y_count));
        };
        const double one = 1.0, zero = 0.0;
        DeviceBuffer xb(bytes_of(x)), gb(bytes_of(grid)), wb(bytes_of(weights));
        DeviceBuffer dxb(bytes_of(std::vector<double>(x_count))), dgb(bytes_of(std::vector<double>(grid.size())));
        ASSERT_EQ(cudnnSpatialTfSamplerBackward(handle, desc, &one, x_desc, xb.get(), &zero, x_desc, dxb.get(), &one,
                                                y_desc, wb.get(), gb.get(), &zero, dgb.get()),
                  CUDNN_STATUS_SUCCESS);
        const std::vector<double> dx = values_of<double>(dxb.download()), dgrid = values_of<double>(dgb.download());
        const double step_size = 1e-6;
        for (size_t i = 0; i < x_count; ++i) {
            const double kept = x[i];
            x[i] = kept + step_size;
            const double up = loss(x, grid);
            x[i] = kept - step_size;
            const double down = loss(x, grid);
            x[i] = kept;
            EXPECT_NEAR(dx[i], (up - down) / (2 * step_size), 1e-7) << "dx[" << i << "]";
        }
        for (size_t i = 0; i < grid.size(); ++i) {
            const double kept = grid[i];
            grid[i] = kept + step_size;
            const double up = loss(x, grid);
            grid[i] = kept - step_size;
            const double down = loss(x, grid);
            grid[i] = kept;
            EXPECT_NEAR(dgrid[i], (up - down) / (2 * step_size), 1e-7) << "dgrid[" << i << "]";
        }
    }
}

// The grid is linear in theta: central differences of sum(weights * grid) are exact but for rounding.
TEST(SpatialTf, GridGeneratorBackwardIsTheGradientOfTheForward) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (const int64_t hw : {1, 2, 7}) {
        const int64_t n = 2, c = 3, h = hw, w = hw + 3;
        SCOPED_TRACE("output " + std::to_string(h) + "x" + std::to_string(w));
        Handle handle;
        StDescriptor desc(CUDNN_DATA_DOUBLE, {n, c, h, w});
        const size_t grid_count = static_cast<size_t>(n * h * w * 2);
        std::vector<double> theta(static_cast<size_t>(n * 6)), weights(grid_count);
        for (double &v : theta) v = rng.uniform(-1.5, 1.5);
        for (double &v : weights) v = rng.uniform(-1, 1);
        DeviceBuffer wb(bytes_of(weights)), dtheta_buffer(bytes_of(std::vector<double>(theta.size())));
        ASSERT_EQ(cudnnSpatialTfGridGeneratorBackward(handle, desc, wb.get(), dtheta_buffer.get()),
                  CUDNN_STATUS_SUCCESS);
        const std::vector<double> dtheta = values_of<double>(dtheta_buffer.download());
        const double step_size = 1e-6;
        for (size_t i = 0; i < theta.size(); ++i) {
            const double kept = theta[i];
            theta[i] = kept + step_size;
            const double up = dot(weights, run_grid_forward(handle, desc, theta, grid_count));
            theta[i] = kept - step_size;
            const double down = dot(weights, run_grid_forward(handle, desc, theta, grid_count));
            theta[i] = kept;
            EXPECT_NEAR(dtheta[i], (up - down) / (2 * step_size), 1e-7) << "dtheta[" << i << "]";
        }
    }
}

// A spatial transformer network's backward pass: theta -> grid -> sample, the loss sum(weights * y);
// dtheta = GridGeneratorBackward(SamplerBackward's dgrid). Thetas whose grids come within 1e-4 pixel
// of a cell's edge are drawn again (h = 1e-7 moves a coordinate by under 1e-5 pixel).
TEST(SpatialTf, ChainedBackwardIsTheGradientOfThetaThroughTheSampler) {
    LIBREDNN_SEEDED_RANDOM(rng);
    const int64_t n = 2, c = 2, h_in = 5, w_in = 6, h = 4, w = 3;
    Handle handle;
    StDescriptor desc(CUDNN_DATA_DOUBLE, {n, c, h, w});
    const int64_t x_dims[4] = {n, c, h_in, w_in}, y_dims[4] = {n, c, h, w};
    const TensorGeometry x_g = packed_geometry(CUDNN_DATA_DOUBLE, 4, x_dims, PackedLayout::nchw);
    const TensorGeometry y_g = packed_geometry(CUDNN_DATA_DOUBLE, 4, y_dims, PackedLayout::nchw);
    TensorDescriptor x_desc(x_g), y_desc(y_g);
    const size_t x_count = static_cast<size_t>(x_g.element_count()), y_count = static_cast<size_t>(y_g.element_count());
    const size_t grid_count = static_cast<size_t>(n * h * w * 2);
    std::vector<double> x(x_count), weights(y_count), theta(static_cast<size_t>(n * 6));
    for (double &v : x) v = rng.uniform(-2, 2);
    for (double &v : weights) v = rng.uniform(-1, 1);
    std::vector<double> grid;
    do {
        for (double &v : theta) v = rng.uniform(-1.2, 1.2);
        grid = run_grid_forward(handle, desc, theta, grid_count);
    } while (!keeps_margin(grid, h_in, w_in, 1e-4));
    const double one = 1.0, zero = 0.0;
    DeviceBuffer xb(bytes_of(x)), gb(bytes_of(grid)), wb(bytes_of(weights));
    DeviceBuffer dxb(bytes_of(std::vector<double>(x_count))), dgb(bytes_of(std::vector<double>(grid_count)));
    ASSERT_EQ(cudnnSpatialTfSamplerBackward(handle, desc, &one, x_desc, xb.get(), &zero, x_desc, dxb.get(), &one,
                                            y_desc, wb.get(), gb.get(), &zero, dgb.get()),
              CUDNN_STATUS_SUCCESS);
    DeviceBuffer dtheta_buffer(bytes_of(std::vector<double>(theta.size())));
    ASSERT_EQ(cudnnSpatialTfGridGeneratorBackward(handle, desc, dgb.get(), dtheta_buffer.get()), CUDNN_STATUS_SUCCESS);
    const std::vector<double> dtheta = values_of<double>(dtheta_buffer.download());
    auto loss = [&](const std::vector<double> &t) {
        return dot(weights, run_sampler_forward(handle, desc, x_desc, x, run_grid_forward(handle, desc, t, grid_count),
                                                y_desc, y_count));
    };
    const double step_size = 1e-7;
    for (size_t i = 0; i < theta.size(); ++i)
        EXPECT_NEAR(dtheta[i], central_difference(theta, i, step_size, [&] { return loss(theta); }), 1e-6)
            << "dtheta[" << i << "]";
}

// Cases worked by hand: the identity theta on an output of the input's size reproduces the input;
// theta (-1 0 0, 0 1 0) mirrors it left to right; a 1 x 1 output samples the input's middle; a theta
// that moves every point two widths to the right reads nothing (zero padding).
TEST(SpatialTf, HandCheckedTransforms) {
    const int64_t n = 1, c = 2, h = 3, w = 4;
    const int64_t dims[4] = {n, c, h, w};
    const TensorGeometry g = packed_geometry(CUDNN_DATA_DOUBLE, 4, dims, PackedLayout::nchw);
    TensorDescriptor d(g);
    std::vector<double> x(static_cast<size_t>(g.element_count()));
    for (size_t i = 0; i < x.size(); ++i) x[i] = 1.0 + static_cast<double>(i) * 0.25;
    Handle handle;
    auto transform = [&](const std::vector<double> &theta, const int64_t(&out)[4]) {
        StDescriptor desc(CUDNN_DATA_DOUBLE, out);
        const size_t points = static_cast<size_t>(out[0] * out[2] * out[3]);
        const std::vector<double> grid = run_grid_forward(handle, desc, theta, points * 2);
        const TensorGeometry y_g = packed_geometry(CUDNN_DATA_DOUBLE, 4, out, PackedLayout::nchw);
        TensorDescriptor y_desc(y_g);
        return run_sampler_forward(handle, desc, d, x, grid, y_desc, static_cast<size_t>(y_g.element_count()));
    };
    const std::vector<double> identity = transform({1, 0, 0, 0, 1, 0}, {n, c, h, w});
    const std::vector<double> mirror = transform({-1, 0, 0, 0, 1, 0}, {n, c, h, w});
    for (int64_t ch = 0; ch < c; ++ch) {
        for (int64_t r = 0; r < h; ++r) {
            for (int64_t col = 0; col < w; ++col) {
                const size_t at = static_cast<size_t>((ch * h + r) * w + col);
                const size_t mirrored = static_cast<size_t>((ch * h + r) * w + (w - 1 - col));
                EXPECT_NEAR(identity[at], x[at], 1e-12) << "identity at " << at;
                EXPECT_NEAR(mirror[at], x[mirrored], 1e-12) << "mirror at " << at;
            }
        }
    }
    // The middle of a 3 x 4 plane is row 1, column 1.5: the mean of (1, 1) and (1, 2).
    const std::vector<double> middle = transform({1, 0, 0, 0, 1, 0}, {n, c, 1, 1});
    for (int64_t ch = 0; ch < c; ++ch) {
        const size_t row = static_cast<size_t>((ch * h + 1) * w);
        EXPECT_NEAR(middle[static_cast<size_t>(ch)], (x[row + 1] + x[row + 2]) / 2, 1e-12) << "channel " << ch;
    }
    for (double v : transform({1, 0, 4, 0, 1, 0}, {n, c, h, w})) EXPECT_EQ(v, 0.0);
}

// NaN, infinite and huge grid values read no tap: the sample is 0, and nothing is scattered back.
TEST(SpatialTf, NonFiniteAndHugeGridValuesReadNothing) {
    const int64_t n = 1, c = 2, h_in = 3, w_in = 3, h = 2, w = 3;
    Handle handle;
    StDescriptor desc(CUDNN_DATA_FLOAT, {n, c, h, w});
    const int64_t x_dims[4] = {n, c, h_in, w_in}, y_dims[4] = {n, c, h, w};
    TensorDescriptor x_desc(packed_geometry(CUDNN_DATA_FLOAT, 4, x_dims, PackedLayout::nchw));
    TensorDescriptor y_desc(packed_geometry(CUDNN_DATA_FLOAT, 4, y_dims, PackedLayout::nchw));
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    // Each point pairs one bad coordinate with a good one (0: the input's middle).
    const std::vector<float> grid = {nan, 0.f, 0.f, nan, inf, 0.f, -inf, 0.f, 1e30f, 0.f, 0.f, -1e30f};
    std::vector<float> x(static_cast<size_t>(n * c * h_in * w_in), 1.5f), dy(static_cast<size_t>(n * c * h * w), 1.f);
    const float one = 1.f, zero = 0.f;
    DeviceBuffer xb(bytes_of(x)), gb(bytes_of(grid)), dyb(bytes_of(dy));
    DeviceBuffer yb(bytes_of(std::vector<float>(dy.size(), nan)));
    ASSERT_EQ(cudnnSpatialTfSamplerForward(handle, desc, &one, x_desc, xb.get(), gb.get(), &zero, y_desc, yb.get()),
              CUDNN_STATUS_SUCCESS);
    for (float v : values_of<float>(yb.download())) EXPECT_EQ(v, 0.f);
    DeviceBuffer dxb(bytes_of(std::vector<float>(x.size(), nan))), dgb(bytes_of(std::vector<float>(grid.size(), nan)));
    ASSERT_EQ(cudnnSpatialTfSamplerBackward(handle, desc, &one, x_desc, xb.get(), &zero, x_desc, dxb.get(), &one,
                                            y_desc, dyb.get(), gb.get(), &zero, dgb.get()),
              CUDNN_STATUS_SUCCESS);
    for (float v : values_of<float>(dxb.download())) EXPECT_EQ(v, 0.f);
    for (float v : values_of<float>(dgb.download())) EXPECT_EQ(v, 0.f);
}

TEST(SpatialTfRejects, DocumentedMisuse) {
    Handle handle;
    const int64_t out[4] = {2, 3, 4, 5};
    StDescriptor desc(CUDNN_DATA_FLOAT, out), int8_desc(CUDNN_DATA_INT8, out);
    cudnnSpatialTransformerDescriptor_t unset = nullptr;
    ASSERT_EQ(cudnnCreateSpatialTransformerDescriptor(&unset), CUDNN_STATUS_SUCCESS);
    const int64_t x_dims[4] = {2, 3, 6, 6}, other_c[4] = {2, 4, 6, 6}, wrong_y[4] = {2, 3, 4, 6};
    const int64_t five[5] = {2, 3, 6, 6, 1};
    TensorDescriptor x(packed_geometry(CUDNN_DATA_FLOAT, 4, x_dims, PackedLayout::nchw));
    TensorDescriptor y(packed_geometry(CUDNN_DATA_FLOAT, 4, out, PackedLayout::nchw));
    TensorDescriptor half_x(packed_geometry(CUDNN_DATA_HALF, 4, x_dims, PackedLayout::nchw));
    TensorDescriptor x_other_c(packed_geometry(CUDNN_DATA_FLOAT, 4, other_c, PackedLayout::nchw));
    TensorDescriptor y_wrong(packed_geometry(CUDNN_DATA_FLOAT, 4, wrong_y, PackedLayout::nchw));
    TensorDescriptor x_5d(packed_geometry(CUDNN_DATA_FLOAT, 5, five, PackedLayout::nchw));
    std::vector<float> a(1024, 0.5f), b(1024, 0.5f), g(1024, 0.f), d(1024, 0.f), e(1024, 0.f);
    const float one = 1.f, zero = 0.f;

    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSpatialTfGridGeneratorForward(nullptr, desc, a.data(), g.data()),
                    "handle is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSpatialTfGridGeneratorForward(handle, nullptr, a.data(), g.data()),
                    "stDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSpatialTfGridGeneratorForward(handle, unset, a.data(), g.data()),
                    "never set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSpatialTfGridGeneratorForward(handle, desc, nullptr, g.data()),
                    "theta is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSpatialTfGridGeneratorBackward(handle, desc, g.data(), nullptr),
                    "dtheta is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSpatialTfGridGeneratorForward(handle, int8_desc, a.data(), g.data()), "CUDNN_DATA_INT8");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnSpatialTfGridGeneratorForward(handle, desc, a.data(), a.data()),
                    "not in place");

    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSpatialTfSamplerForward(handle, desc, &one, half_x, a.data(), g.data(), &zero, y, b.data()),
                    "xDesc holds CUDNN_DATA_HALF", "same data type");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSpatialTfSamplerForward(handle, desc, &one, x_other_c, a.data(), g.data(), &zero, y, b.data()),
                    "same N and C");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSpatialTfSamplerForward(handle, desc, &one, x_5d, a.data(), g.data(), &zero, y, b.data()),
                    "xDesc has 5 dims");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSpatialTfSamplerForward(handle, desc, &one, x, a.data(), g.data(), &zero, y_wrong, b.data()),
                    "yDesc is 2x3x4x6", "2x3x4x5");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSpatialTfSamplerForward(handle, desc, &one, x, a.data(), nullptr, &zero, y, b.data()),
                    "grid is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSpatialTfSamplerForward(handle, desc, nullptr, x, a.data(), g.data(), &zero, y, b.data()),
                    "alpha is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSpatialTfSamplerForward(handle, desc, &one, x, a.data(), g.data(), &zero, nullptr, b.data()),
                    "yDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSpatialTfSamplerForward(handle, desc, &one, x, a.data(), g.data(), &zero, y, a.data()),
                    "in place");

    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSpatialTfSamplerBackward(handle, desc, &one, x, a.data(), &zero, x, b.data(), &one, y_wrong,
                                                  d.data(), g.data(), &zero, e.data()),
                    "dyDesc is 2x3x4x6");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSpatialTfSamplerBackward(handle, desc, &one, x, a.data(), &zero, x_other_c, b.data(), &one, y,
                                                  d.data(), g.data(), &zero, e.data()),
                    "dxDesc is 2x4x6x6", "xDesc's dims");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSpatialTfSamplerBackward(handle, desc, &one, x, a.data(), &zero, x, b.data(), nullptr, y,
                                                  d.data(), g.data(), &zero, e.data()),
                    "alphaDgrid is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSpatialTfSamplerBackward(handle, desc, &one, x, a.data(), &zero, x, b.data(), &one, y,
                                                  d.data(), g.data(), &zero, nullptr),
                    "dgrid is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSpatialTfSamplerBackward(handle, desc, &one, x, a.data(), &zero, x, b.data(), &one, y,
                                                  d.data(), g.data(), &zero, g.data()),
                    "dgrid is the memory of grid");
    cudnnDestroySpatialTransformerDescriptor(unset);
}

TEST(SpatialTfProblemString, RoundTrips) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 40; ++trial) {
        const SpatialTfProblem p = random_problem(rng, trial % 4 < 2 ? SpatialTfStage::grid : SpatialTfStage::sampler,
                                                  trial % 2 ? Direction::forward : Direction::backward);
        const ProblemString text = to_problem_string(p);
        ProblemString reparsed;
        std::string error;
        ASSERT_TRUE(ProblemString::parse(text.to_string(), &reparsed, &error)) << error;
        SpatialTfProblem back;
        ASSERT_TRUE(parse_spatial_tf_problem(reparsed, &back, &error)) << text.to_string() << ": " << error;
        EXPECT_EQ(to_problem_string(back).to_string(), text.to_string());
        EXPECT_TRUE(back == p);
    }
    SpatialTfProblem back;
    std::string error;
    ProblemString text;
    // docs/PROBLEMS.md's examples are canonical.
    for (const char *example :
         {"op=spatial_tf stage=grid dir=bwd dtype=float dims=8x3x32x32",
          "op=spatial_tf stage=sampler dir=fwd dtype=half dims=8x3x32x32 xdims=8x3x64x64 xstrides=12288x1x192x3 "
          "ystrides=3072x1024x32x1 alpha=1 beta=0"}) {
        ASSERT_TRUE(ProblemString::parse(example, &text, &error)) << error;
        ASSERT_TRUE(parse_spatial_tf_problem(text, &back, &error)) << example << ": " << error;
        EXPECT_EQ(to_problem_string(back).to_string(), example);
    }
    ASSERT_TRUE(ProblemString::parse("op=spatial_tf stage=warp dtype=float dims=1x1x2x2", &text, &error));
    EXPECT_FALSE(parse_spatial_tf_problem(text, &back, &error));
    EXPECT_NE(error.find("stage=warp"), std::string::npos) << error;
}

}  // namespace
