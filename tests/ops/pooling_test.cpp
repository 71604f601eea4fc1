// cudnnPoolingForward and cudnnPoolingBackward against the reference on random geometries (1 to 3
// spatial dims, windows larger than the stride and than the input with padding), modes, the NaN option,
// layouts and types; the backward pass also against central differences of the forward in double; and
// their rejections.
#include "reference/pooling.hpp"
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"
#include "ops/pooling/problem.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace librednn;
using namespace librednn::test;

class PoolingDescriptor {
public:
    explicit PoolingDescriptor(const PoolingProblem &p) {
        EXPECT_EQ(cudnnCreatePoolingDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        int window[kMaxDims], pad[kMaxDims], stride[kMaxDims];
        for (int i = 0; i < p.spatial_dims; ++i) {
            window[i] = static_cast<int>(p.window[i]);
            pad[i] = static_cast<int>(p.pad[i]);
            stride[i] = static_cast<int>(p.stride[i]);
        }
        EXPECT_EQ(cudnnSetPoolingNdDescriptor(desc_, p.mode, p.nan_opt, p.spatial_dims, window, pad, stride),
                  CUDNN_STATUS_SUCCESS);
    }
    ~PoolingDescriptor() { cudnnDestroyPoolingDescriptor(desc_); }
    PoolingDescriptor(const PoolingDescriptor &) = delete;
    PoolingDescriptor &operator=(const PoolingDescriptor &) = delete;
    operator cudnnPoolingDescriptor_t() const { return desc_; }

private:
    cudnnPoolingDescriptor_t desc_ = nullptr;
};

const std::vector<cudnnDataType_t> kTypes = {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16};
const std::vector<cudnnPoolingMode_t> kModes = {CUDNN_POOLING_MAX, CUDNN_POOLING_MAX_DETERMINISTIC,
                                                CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING,
                                                CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING};

PoolingProblem random_problem(Random &rng, Direction direction) {
    PoolingProblem p;
    p.direction = direction;
    p.mode = rng.pick(kModes);
    p.nan_opt = rng.coin() ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN;
    p.spatial_dims = static_cast<int>(rng.pick<int64_t>({1, 2, 2, 2, 3}));
    const cudnnDataType_t type = rng.pick(kTypes);
    std::vector<int64_t> x_dims = {rng.integer(1, 3), rng.integer(1, 6)};
    for (int i = 0; i < p.spatial_dims; ++i) {
        p.window[i] = rng.integer(1, 4);
        p.stride[i] = rng.integer(1, 3);
        p.pad[i] = rng.integer(0, p.window[i] - 1);
        // Sometimes an input smaller than the window (the padding makes room).
        x_dims.push_back(std::max<int64_t>(rng.integer(1, 9), p.window[i] - 2 * p.pad[i]));
    }
    int64_t y_dims[kMaxDims];
    pooling_output_dims(p, x_dims.data(), y_dims);
    const std::vector<int64_t> yd(y_dims, y_dims + x_dims.size());
    p.x = make_geometry(rng, type, x_dims, rng.pick(all_layout_kinds()));
    p.y = make_geometry(rng, type, yd, rng.pick(all_layout_kinds()));
    if (direction == Direction::backward) {
        p.dy = make_geometry(rng, type, yd, rng.pick(all_layout_kinds()));
        p.dx = make_geometry(rng, type, x_dims, rng.pick(all_layout_kinds()));
    }
    const bool in_double = type == CUDNN_DATA_DOUBLE;
    p.alpha = Scalar(random_alpha(rng), in_double).value();
    p.beta = Scalar(random_beta(rng), in_double).value();
    return p;
}

reference::PoolingGeometry reference_geometry(const PoolingProblem &p) {
    reference::PoolingGeometry g;
    g.mode = p.mode;
    g.nan_opt = p.nan_opt;
    for (int i = 0; i < p.spatial_dims; ++i) {
        g.window.push_back(p.window[i]);
        g.padding.push_back(p.pad[i]);
        g.stride.push_back(p.stride[i]);
    }
    return g;
}

reference::HostTensor double_copy(const HostTensor &t, bool magnitudes) {
    reference::HostTensor copy(CUDNN_DATA_DOUBLE,
                               std::vector<int64_t>(t.geometry.dims, t.geometry.dims + t.geometry.nb_dims));
    std::vector<double> values = element_values(t);
    if (magnitudes) {
        for (double &v : values) v = std::fabs(v);
    }
    copy.set_values(values);
    return copy;
}

// The unblended result in double (of the magnitudes of x or dy when `magnitudes`: the sum of |terms|).
// For the max modes the routing always follows the signed x.
std::vector<double> reference_result(const PoolingProblem &p, const HostTensor &x, const HostTensor &dy,
                                     bool magnitudes) {
    const TensorGeometry &out = p.result();
    reference::HostTensor result(CUDNN_DATA_DOUBLE, std::vector<int64_t>(out.dims, out.dims + out.nb_dims));
    const reference::PoolingGeometry g = reference_geometry(p);
    const Status status =
        p.direction == Direction::forward
            ? reference::pooling_forward(g, 1.0, double_copy(x, magnitudes && !p.is_max()), 0.0, result)
            : reference::pooling_backward(g, 1.0, double_copy(dy, magnitudes), double_copy(x, false), 0.0, result);
    EXPECT_EQ(status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
    return result.values();
}

// with_ties: x takes 5 values only (tied maxima in most windows: the gradient goes to the first).
void check_against_reference(Random &rng, const PoolingProblem &p, bool with_nans, bool with_ties = false) {
    const std::string text = to_problem_string(p).to_string();
    SCOPED_TRACE(text);
    const bool forward = p.direction == Direction::forward;
    HostTensor x(p.x), y(p.y), dy(forward ? p.y : p.dy), initial(p.result());
    fill_uniform(x, rng, -2.0, 2.0);
    if (with_ties) {
        int64_t index[kMaxDims] = {};
        do {
            x.set(index, 0.5 * static_cast<double>(rng.integer(-2, 2)));
        } while (next_index(index, p.x.dims, p.x.nb_dims));
    }
    if (with_nans) {
        int64_t index[kMaxDims] = {};
        do {
            if (rng.integer(0, 9) == 0) x.set(index, std::nan(""));
        } while (next_index(index, p.x.dims, p.x.nb_dims));
    }
    fill_uniform(y, rng, -2.0, 2.0);
    fill_uniform(dy, rng, -2.0, 2.0);
    if (p.beta == 0.0) {
        poison(initial);
    } else {
        fill_uniform(initial, rng, -2.0, 2.0);
    }
    Handle handle;
    PoolingDescriptor desc(p);
    TensorDescriptor x_desc(p.x), y_desc(p.y);
    const bool in_double = p.x.dtype == CUDNN_DATA_DOUBLE;
    const Scalar alpha(p.alpha, in_double), beta(p.beta, in_double);
    DeviceBuffer x_buffer(x.bytes), y_buffer(y.bytes), dy_buffer(dy.bytes), out_buffer(initial.bytes);
    if (forward) {
        ASSERT_EQ(cudnnPoolingForward(handle, desc, alpha.get(), x_desc, x_buffer.get(), beta.get(), y_desc,
                                      out_buffer.get()),
                  CUDNN_STATUS_SUCCESS);
    } else {
        TensorDescriptor dy_desc(p.dy), dx_desc(p.dx);
        ASSERT_EQ(cudnnPoolingBackward(handle, desc, alpha.get(), y_desc, y_buffer.get(), dy_desc, dy_buffer.get(),
                                       x_desc, x_buffer.get(), beta.get(), dx_desc, out_buffer.get()),
                  CUDNN_STATUS_SUCCESS);
    }
    HostTensor result(p.result());
    result.bytes = out_buffer.download();

    // The bound (docs/NUMERICS.md): a maximum is exact; an average sums at most a window of terms and
    // divides; a gradient sums what the windows covering an input route to it. Then alpha, beta.
    const std::vector<double> value = reference_result(p, x, dy, false);
    const std::vector<double> magnitude = reference_result(p, x, dy, true);
    double n = 1.0;
    for (int i = 0; i < p.spatial_dims; ++i) {
        n *= forward ? static_cast<double>(p.window[i])
                     : static_cast<double>((p.window[i] + p.stride[i] - 1) / p.stride[i]);
    }
    const double u = accumulation_roundoff(p.x.dtype);
    const double step = tolerance_for(in_double ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT).compute_eps;
    const std::vector<double> old = element_values(initial);
    std::vector<ElementBound> bounds(value.size());
    HostTensor ref = initial;
    int64_t index[kMaxDims] = {};
    size_t e = 0;
    do {
        const double before = p.beta == 0.0 ? 0.0 : p.beta * old[e];
        const double sum_bound = forward && p.is_max() ? 0.0 : sum_error(n, magnitude[e], u) + u * magnitude[e];
        bounds[e].compute_error =
            std::fabs(p.alpha) * sum_bound + step * (std::fabs(p.alpha * value[e]) + std::fabs(before));
        bounds[e].exact = p.alpha * value[e] + before;
        ref.set(index, bounds[e].exact);
        ++e;
    } while (next_index(index, p.result().dims, p.result().nb_dims));
    EXPECT_TRUE(matches_reference(result, ref, bounds, text));
}

// Gives a 2-D problem with its window set packed x and y (dy and dx backward) of `type` in `layout` (x's
// dims `x_dims`, y's from the window), and random alpha and beta.
void set_packed_tensors(Random &rng, PoolingProblem &p, cudnnDataType_t type, const std::vector<int64_t> &x_dims,
                        PackedLayout layout) {
    int64_t y_dims[kMaxDims];
    pooling_output_dims(p, x_dims.data(), y_dims);
    p.x = packed_geometry(type, 4, x_dims.data(), layout);
    p.y = packed_geometry(type, 4, y_dims, layout);
    if (p.direction == Direction::backward) {
        p.dy = p.y;
        p.dx = p.x;
    }
    p.alpha = Scalar(random_alpha(rng), false).value();
    p.beta = Scalar(random_beta(rng), false).value();
}

TEST(Pooling, ForwardMatchesReferenceOnRandomGeometriesModesAndLayouts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 150; ++trial)
        check_against_reference(rng, random_problem(rng, Direction::forward), false);
}

TEST(Pooling, BackwardMatchesReferenceOnRandomGeometriesModesAndLayouts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 150; ++trial)
        check_against_reference(rng, random_problem(rng, Direction::backward), false);
}

TEST(Pooling, NanInputsFollowTheNanOption) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 60; ++trial) {
        PoolingProblem p = random_problem(rng, trial % 2 ? Direction::forward : Direction::backward);
        p.mode = trial % 4 < 2 ? CUDNN_POOLING_MAX : CUDNN_POOLING_MAX_DETERMINISTIC;
        check_against_reference(rng, p, true);
    }
}

TEST(Pooling, PackedNhwcAndNchwMatchReference) {
    // 2-D, x and y (dy, dx) packed NHWC with whole 16-byte vectors of channels, or packed NCHW with any
    // channel count: the CUDA backend's packed kernels (the max backward through its argmax pass), every
    // mode, NaNs sometimes, ResNet's 3x3/2 and 7x7 windows too.
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 80; ++trial) {
        const Direction direction = trial % 2 ? Direction::forward : Direction::backward;
        const PackedLayout layout = trial % 4 < 2 ? PackedLayout::nhwc : PackedLayout::nchw;
        PoolingProblem p = random_problem(rng, direction);
        p.spatial_dims = 2;
        const cudnnDataType_t type =
            rng.pick<cudnnDataType_t>({CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16});
        std::vector<int64_t> x_dims = {rng.integer(1, 3),
                                       layout == PackedLayout::nhwc ? 8 * rng.integer(1, 3) : rng.integer(1, 11)};
        for (int i = 0; i < 2; ++i) {
            p.window[i] = trial % 5 == 0 ? 3 : (trial % 7 == 3 ? 7 : rng.integer(1, 5));
            p.stride[i] = trial % 5 == 0 ? 2 : rng.integer(1, 3);
            p.pad[i] = rng.integer(0, p.window[i] - 1);
            x_dims.push_back(std::max<int64_t>(rng.integer(1, 12), p.window[i] - 2 * p.pad[i]));
        }
        set_packed_tensors(rng, p, type, x_dims, layout);
        check_against_reference(rng, p, p.is_max() && rng.integer(0, 3) == 0);
    }
}

TEST(Pooling, ThreeByThreeWindowsAtStrideTwoMatchReference) {
    // ResNet's stem pooling (3x3, stride 2, padding 1) over packed NCHW and NHWC: on CUDA the strip kernels
    // (pooling_strips.hpp) over NCHW where the width is a multiple of 8, the packed kernels elsewhere. Heights and
    // widths from 1 to 40 (several strips of 8 output rows and column groups of 4, odd and even sizes), every mode
    // forward, the max modes backward (the averages' backward too: the packed kernels), tied maxima and NaNs, both NaN
    // options (the strip kernels are compiled for each).
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 64; ++trial) {
        const Direction direction = trial % 2 ? Direction::forward : Direction::backward;
        const PackedLayout layout = trial % 4 < 2 ? PackedLayout::nhwc : PackedLayout::nchw;
        PoolingProblem p = random_problem(rng, direction);
        p.spatial_dims = 2;
        if (direction == Direction::backward && trial % 8 != 0)
            p.mode = rng.coin() ? CUDNN_POOLING_MAX : CUDNN_POOLING_MAX_DETERMINISTIC;
        const cudnnDataType_t type =
            rng.pick<cudnnDataType_t>({CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16});
        std::vector<int64_t> x_dims = {rng.integer(1, 3),
                                       layout == PackedLayout::nhwc ? 8 * rng.integer(1, 3) : rng.integer(1, 5)};
        for (int i = 0; i < 2; ++i) {
            p.window[i] = 3;
            p.stride[i] = 2;
            p.pad[i] = 1;
            x_dims.push_back(i == 1 && layout == PackedLayout::nchw && trial % 3 != 0 ? 8 * rng.integer(1, 5)
                                                                                      : rng.integer(1, 40));
        }
        set_packed_tensors(rng, p, type, x_dims, layout);
        check_against_reference(rng, p, p.is_max() && trial % 3 == 1, trial % 4 == 1 || trial % 4 == 2);
    }
}

TEST(Pooling, PairedMaximaOverHalfNhwcMatchReference) {
    // Max pooling forward over packed NHWC half and bfloat16 with 2x2 and 3x3 windows: on CUDA the paired kernels
    // (pooling_pairs.hpp). Any stride and padding, both NaN options (windows of NaNs too: x takes few values), tied
    // maxima, random alpha and beta (the kernels store the maxima as they are where alpha is 1 and beta 0).
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 48; ++trial) {
        PoolingProblem p = random_problem(rng, Direction::forward);
        p.spatial_dims = 2;
        p.mode = trial % 2 ? CUDNN_POOLING_MAX : CUDNN_POOLING_MAX_DETERMINISTIC;
        const cudnnDataType_t type = trial % 4 < 2 ? CUDNN_DATA_HALF : CUDNN_DATA_BFLOAT16;
        std::vector<int64_t> x_dims = {rng.integer(1, 3), 8 * rng.integer(1, 4)};
        const int64_t window = trial % 3 == 0 ? 2 : 3;
        for (int i = 0; i < 2; ++i) {
            p.window[i] = window;
            p.stride[i] = rng.integer(1, 3);
            p.pad[i] = rng.integer(0, window - 1);
            x_dims.push_back(std::max<int64_t>(rng.integer(1, 20), window - 2 * p.pad[i]));
        }
        set_packed_tensors(rng, p, type, x_dims, PackedLayout::nhwc);
        if (trial % 8 < 2) {
            p.alpha = 1.0;
            p.beta = 0.0;
        }
        check_against_reference(rng, p, trial % 3 != 2, trial % 4 == 1);
    }
}

TEST(Pooling, PairedMaxBackwardOverHalfNhwcMatchesReference) {
    // Max pooling backward over packed NHWC half and bfloat16 with 2x2 and 3x3 windows: on CUDA the paired argmax
    // pass (pooling_pairs.hpp), then with 3x3 windows at stride 2 the gather a 2 x 2 group of inputs a thread
    // (both paddings' parities), else an input a thread (pooling_packed.hpp). Strides 1-3 (mostly 2), any padding, odd
    // and even sizes (groups cut by the image's edge), both NaN options (windows of NaNs too: x takes few values), tied
    // maxima, random alpha and beta.
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 48; ++trial) {
        PoolingProblem p = random_problem(rng, Direction::backward);
        p.spatial_dims = 2;
        p.mode = trial % 2 ? CUDNN_POOLING_MAX : CUDNN_POOLING_MAX_DETERMINISTIC;
        const cudnnDataType_t type = trial % 4 < 2 ? CUDNN_DATA_HALF : CUDNN_DATA_BFLOAT16;
        std::vector<int64_t> x_dims = {rng.integer(1, 3), 8 * rng.integer(1, 4)};
        const int64_t window = trial % 3 == 0 ? 2 : 3;
        for (int i = 0; i < 2; ++i) {
            p.window[i] = window;
            p.stride[i] = trial % 4 == 3 ? rng.integer(1, 3) : 2;
            p.pad[i] = rng.integer(0, window - 1);
            x_dims.push_back(std::max<int64_t>(rng.integer(1, 20), window - 2 * p.pad[i]));
        }
        set_packed_tensors(rng, p, type, x_dims, PackedLayout::nhwc);
        check_against_reference(rng, p, trial % 3 != 2, trial % 4 == 1);
    }
}

TEST(Pooling, GlobalWindowsMatchReference) {
    // A window the size of the image without padding (ResNet's head: 7x7 planes): on CUDA the global kernels
    // (pooling_global.hpp) over packed NCHW (planes of up to 64 values forward, any backward) and NHWC with
    // whole 16-byte vectors of channels; the packed kernels for larger planes and the max modes' backward.
    // Blocks of 128 planes: up to 300 planes (N x C), so that the last block is partial.
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 48; ++trial) {
        const Direction direction = trial % 2 ? Direction::forward : Direction::backward;
        const PackedLayout layout = trial % 4 < 2 ? PackedLayout::nhwc : PackedLayout::nchw;
        PoolingProblem p = random_problem(rng, direction);
        p.spatial_dims = 2;
        const cudnnDataType_t type =
            rng.pick<cudnnDataType_t>({CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16});
        std::vector<int64_t> x_dims = {rng.integer(1, 3),
                                       layout == PackedLayout::nhwc ? 8 * rng.integer(1, 4) : rng.integer(1, 100)};
        for (int i = 0; i < 2; ++i) {
            x_dims.push_back(rng.integer(1, trial % 8 == 0 ? 10 : 8));
            p.window[i] = x_dims.back();
            p.pad[i] = 0;
            p.stride[i] = rng.integer(1, 3);
        }
        set_packed_tensors(rng, p, type, x_dims, layout);
        check_against_reference(rng, p, p.is_max() && trial % 3 == 1, p.is_max() && trial % 4 == 1);
    }
}

// The backward pass is the gradient of the forward: dx = d(sum w * y)/dx for dy = w, in every mode, 2-D and
// 3-D, with padding and windows overlapping or not. The forward is piecewise linear in x (linear for the
// averages; for the maxima, linear while each window's maximum stays where it is): x's values lie 1/64 apart,
// so no step of h = 2^-20 moves a maximum, and a central difference in double is exact but for the rounding
// of the loss (about 2^-52 * 64 / h, under 1e-8). 1e-6 catches any misrouted or misweighted term.
TEST(Pooling, BackwardIsTheGradientOfTheForward) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 24; ++trial) {
        PoolingProblem p;
        p.mode = kModes[static_cast<size_t>(trial) % kModes.size()];
        p.spatial_dims = trial % 3 == 2 ? 3 : 2;
        std::vector<int64_t> x_dims = {rng.integer(1, 2), rng.integer(1, 3)};
        for (int i = 0; i < p.spatial_dims; ++i) {
            p.window[i] = rng.integer(1, 3);
            p.stride[i] = rng.integer(1, 3);
            p.pad[i] = rng.integer(0, p.window[i] - 1);
            x_dims.push_back(
                std::max<int64_t>(rng.integer(1, p.spatial_dims == 3 ? 4 : 6), p.window[i] - 2 * p.pad[i]));
        }
        int64_t y_dims[kMaxDims];
        pooling_output_dims(p, x_dims.data(), y_dims);
        const int nb = static_cast<int>(x_dims.size());
        p.x = p.dx = packed_geometry(CUDNN_DATA_DOUBLE, nb, x_dims.data(), PackedLayout::nchw);
        p.y = p.dy = packed_geometry(CUDNN_DATA_DOUBLE, nb, y_dims, PackedLayout::nchw);
        p.direction = Direction::backward;
        SCOPED_TRACE(to_problem_string(p).to_string());
        const size_t x_count = static_cast<size_t>(p.x.element_count()),
                     y_count = static_cast<size_t>(p.y.element_count());
        std::vector<double> x(x_count), w(y_count);
        for (size_t i = 0; i < x_count; ++i) x[i] = (static_cast<double>(i) - static_cast<double>(x_count) / 2) / 64;
        for (size_t i = x_count; i > 1; --i)
            std::swap(x[i - 1], x[static_cast<size_t>(rng.integer(0, static_cast<int64_t>(i) - 1))]);
        for (double &v : w) v = rng.uniform(-1, 1);
        Handle handle;
        PoolingDescriptor desc(p);
        TensorDescriptor x_desc(p.x), y_desc(p.y);
        const double one = 1.0, zero = 0.0;
        auto forward = [&](const std::vector<double> &xs) {
            DeviceBuffer xb(bytes_of(xs)), yb(bytes_of(std::vector<double>(y_count, std::nan(""))));
            EXPECT_EQ(cudnnPoolingForward(handle, desc, &one, x_desc, xb.get(), &zero, y_desc, yb.get()),
                      CUDNN_STATUS_SUCCESS);
            return values_of<double>(yb.download());
        };
        auto loss = [&](const std::vector<double> &xs) {
            const std::vector<double> y = forward(xs);
            double l = 0;
            for (size_t i = 0; i < y_count; ++i) l += w[i] * y[i];
            return l;
        };
        DeviceBuffer xb(bytes_of(x)), yb(bytes_of(forward(x))), wb(bytes_of(w));
        DeviceBuffer dxb(bytes_of(std::vector<double>(x_count, std::nan(""))));
        ASSERT_EQ(cudnnPoolingBackward(handle, desc, &one, y_desc, yb.get(), y_desc, wb.get(), x_desc, xb.get(), &zero,
                                       x_desc, dxb.get()),
                  CUDNN_STATUS_SUCCESS);
        const std::vector<double> dx = values_of<double>(dxb.download());
        const double h = 0x1p-20;
        for (size_t i = 0; i < x_count; ++i)
            EXPECT_NEAR(dx[i], central_difference(x, i, h, [&] { return loss(x); }), 1e-6) << "dx[" << i << "]";
    }
}

TEST(Pooling, TiedMaximaSendTheGradientToTheFirst) {
    // 1x1x2x2 all equal, one 2x2 window: the whole gradient goes to position 0.
    Handle handle;
    PoolingProblem p;
    p.direction = Direction::backward;
    p.spatial_dims = 2;
    p.window[0] = p.window[1] = 2;
    p.stride[0] = p.stride[1] = 2;
    const int64_t x_dims[] = {1, 1, 2, 2}, y_dims[] = {1, 1, 1, 1};
    p.x = p.dx = packed_geometry(CUDNN_DATA_FLOAT, 4, x_dims, PackedLayout::nchw);
    p.y = p.dy = packed_geometry(CUDNN_DATA_FLOAT, 4, y_dims, PackedLayout::nchw);
    PoolingDescriptor desc(p);
    TensorDescriptor x_desc(p.x), y_desc(p.y);
    DeviceBuffer x(bytes_of(std::vector<float>(4, 3.0f))), y(bytes_of(std::vector<float>{3.0f}));
    DeviceBuffer dy(bytes_of(std::vector<float>{5.0f})), dx(bytes_of(std::vector<float>(4, -1.0f)));
    const float one = 1.0f, zero = 0.0f;
    ASSERT_EQ(cudnnPoolingBackward(handle, desc, &one, y_desc, y.get(), y_desc, dy.get(), x_desc, x.get(), &zero,
                                   x_desc, dx.get()),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(values_of<float>(dx.download()), (std::vector<float>{5, 0, 0, 0}));
}

// Found by tests/fuzz/api_fuzzer.cpp (issue 16): a 2^30 x 2^30 window over a 1x1 input with 2^29 of
// padding made the host walk the whole window (2^60 steps) for each output. Both backends now walk only
// the part over the input, and the including average divides by the window's size without overflow.
TEST(Pooling, FuzzFindingHugeWindowOverPaddingReturnsPromptly) {
    Handle handle;
    for (cudnnPoolingMode_t mode : kModes) {
        SCOPED_TRACE(pooling_mode_name(mode));
        cudnnPoolingDescriptor_t desc = nullptr;
        ASSERT_EQ(cudnnCreatePoolingDescriptor(&desc), CUDNN_STATUS_SUCCESS);
        const int window[] = {1 << 30, 1 << 30}, pad[] = {1 << 29, 1 << 29}, stride[] = {1, 1};
        ASSERT_EQ(cudnnSetPoolingNdDescriptor(desc, mode, CUDNN_NOT_PROPAGATE_NAN, 2, window, pad, stride),
                  CUDNN_STATUS_SUCCESS);
        const int64_t x_dims[] = {1, 1, 1, 1}, y_dims[] = {1, 1, 2, 2};
        TensorDescriptor x_desc(packed_geometry(CUDNN_DATA_FLOAT, 4, x_dims, PackedLayout::nchw));
        TensorDescriptor y_desc(packed_geometry(CUDNN_DATA_FLOAT, 4, y_dims, PackedLayout::nchw));
        DeviceBuffer x(bytes_of(std::vector<float>{3.0f})), y(bytes_of(std::vector<float>(4, -1.0f)));
        DeviceBuffer dy(bytes_of(std::vector<float>{1.0f, 2.0f, 3.0f, 4.0f})), dx(bytes_of(std::vector<float>{-1.0f}));
        const float one = 1.0f, zero = 0.0f;
        ASSERT_EQ(cudnnPoolingForward(handle, desc, &one, x_desc, x.get(), &zero, y_desc, y.get()),
                  CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnPoolingBackward(handle, desc, &one, y_desc, y.get(), y_desc, dy.get(), x_desc, x.get(), &zero,
                                       x_desc, dx.get()),
                  CUDNN_STATUS_SUCCESS);
        const bool including = mode == CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING;
        const float divisor = including ? 0x1p60f : 1.0f;
        EXPECT_EQ(values_of<float>(y.download()), std::vector<float>(4, 3.0f / divisor));
        EXPECT_EQ(values_of<float>(dx.download()), std::vector<float>{10.0f / divisor});
        cudnnDestroyPoolingDescriptor(desc);
    }
}

TEST(PoolingRejects, DocumentedMisuse) {
    Handle handle;
    PoolingProblem p;
    p.spatial_dims = 2;
    p.window[0] = p.window[1] = 3;
    p.stride[0] = p.stride[1] = 2;
    p.pad[0] = p.pad[1] = 1;
    const int64_t x_dims[] = {2, 3, 9, 9}, y_dims[] = {2, 3, 5, 5}, wrong_dims[] = {2, 3, 4, 5};
    PoolingDescriptor desc(p);
    TensorDescriptor x(packed_geometry(CUDNN_DATA_FLOAT, 4, x_dims, PackedLayout::nchw));
    TensorDescriptor y(packed_geometry(CUDNN_DATA_FLOAT, 4, y_dims, PackedLayout::nchw));
    TensorDescriptor wrong(packed_geometry(CUDNN_DATA_FLOAT, 4, wrong_dims, PackedLayout::nchw));
    TensorDescriptor half_y(packed_geometry(CUDNN_DATA_HALF, 4, y_dims, PackedLayout::nchw));
    TensorDescriptor int_x(packed_geometry(CUDNN_DATA_INT32, 4, x_dims, PackedLayout::nchw));
    TensorDescriptor int_y(packed_geometry(CUDNN_DATA_INT32, 4, y_dims, PackedLayout::nchw));
    std::vector<float> data(2048, 0.0f);
    void *d = data.data();
    const float one = 1.0f, zero = 0.0f;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnPoolingForward(handle, desc, &one, x, d, &zero, wrong, d), "gives");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnPoolingForward(handle, desc, &one, x, d, &zero, half_y, d),
                    "one data type");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnPoolingForward(handle, desc, &one, int_x, d, &zero, int_y, d),
                    "CUDNN_DATA_INT32");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnPoolingForward(handle, desc, &one, x, nullptr, &zero, y, d),
                    "x is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnPoolingBackward(handle, desc, &one, y, d, wrong, d, x, d, &zero, x, d),
                    "dyDesc");
    cudnnPoolingDescriptor_t unset = nullptr;
    ASSERT_EQ(cudnnCreatePoolingDescriptor(&unset), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnPoolingForward(handle, unset, &one, x, d, &zero, y, d), "poolingDesc");
    cudnnDestroyPoolingDescriptor(unset);
}

}  // namespace
