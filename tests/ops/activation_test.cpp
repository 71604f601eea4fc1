// cudnnActivationForward and cudnnActivationBackward against the reference, and their rejections.
#include "reference/activation.hpp"
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

namespace {

using namespace librednn;
using namespace librednn::test;

class ActivationDescriptor {
public:
    ActivationDescriptor(cudnnActivationMode_t mode, cudnnNanPropagation_t nan_opt, double coef, double swish_beta) {
        EXPECT_EQ(cudnnCreateActivationDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetActivationDescriptor(desc_, mode, nan_opt, coef), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetActivationDescriptorSwishBeta(desc_, swish_beta), CUDNN_STATUS_SUCCESS);
    }
    ~ActivationDescriptor() { cudnnDestroyActivationDescriptor(desc_); }
    operator cudnnActivationDescriptor_t() const { return desc_; }

private:
    cudnnActivationDescriptor_t desc_ = nullptr;
};

const std::vector<cudnnDataType_t> kTypes = {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16};
const std::vector<cudnnActivationMode_t> kModes = {
    CUDNN_ACTIVATION_SIGMOID, CUDNN_ACTIVATION_RELU,     CUDNN_ACTIVATION_TANH, CUDNN_ACTIVATION_CLIPPED_RELU,
    CUDNN_ACTIVATION_ELU,     CUDNN_ACTIVATION_IDENTITY, CUDNN_ACTIVATION_SWISH};

// A random activation problem of `direction`; `packed_only` keeps every tensor packed in one layout.
ActivationProblem random_problem(Random &rng, Direction direction, bool packed_only = false) {
    ActivationProblem p;
    p.direction = direction;
    p.mode = rng.pick(kModes);
    p.nan_opt = rng.coin() ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN;
    p.coef = p.mode == CUDNN_ACTIVATION_CLIPPED_RELU ? rng.uniform(0.5, 6.0) : rng.uniform(0.1, 2.0);
    p.swish_beta = rng.uniform(0.5, 2.0);
    const cudnnDataType_t dtype = rng.pick(kTypes);
    const auto dims = random_dims(rng, static_cast<int>(rng.integer(3, 5)), 7);
    const LayoutKind shared =
        packed_only ? (rng.coin() ? LayoutKind::nchw : LayoutKind::nhwc) : rng.pick(all_layout_kinds());
    auto layout = [&] { return packed_only || rng.coin() ? shared : rng.pick(all_layout_kinds()); };
    const TensorGeometry first = make_geometry(rng, dtype, dims, shared);
    p.x = first;
    const LayoutKind y_layout = layout();
    p.y = y_layout == shared && rng.coin() ? first : make_geometry(rng, dtype, dims, y_layout);
    if (direction == Direction::backward) {
        p.dy = make_geometry(rng, dtype, dims, layout());
        p.dx = make_geometry(rng, dtype, dims, layout());
    }
    const bool in_double = dtype == CUDNN_DATA_DOUBLE;
    p.alpha = Scalar(random_alpha(rng), in_double).value();
    p.beta = Scalar(random_beta(rng), in_double).value();
    return p;
}

// The magnitude of the terms that make one element before alpha (tolerances.hpp: the compute error is a
// few roundings of these): the result, plus what may cancel inside it (ELU's coef e^x against coef,
// SIGMOID's and TANH's 1 - ...) and the input where a rounding of it enters (SWISH's beta x).
double activation_terms(const ActivationProblem &p, double x, double y, double dy) {
    const double sig = 1.0 / (1.0 + std::exp(-p.swish_beta * x));
    double terms = 0.0;
    if (p.direction == Direction::forward) {
        switch (p.mode) {
            case CUDNN_ACTIVATION_ELU: terms = x > 0.0 ? x : std::fabs(p.coef) * (std::exp(x) + 1.0); break;
            case CUDNN_ACTIVATION_SWISH: terms = std::fabs(x) * (sig + std::fabs(p.swish_beta * x) * sig); break;
            default: terms = std::fabs(y) + std::fabs(x); break;
        }
    } else {
        const double g = std::fabs(dy);
        switch (p.mode) {
            case CUDNN_ACTIVATION_SIGMOID: terms = g * std::fabs(y) * (1.0 + std::fabs(y)); break;
            case CUDNN_ACTIVATION_TANH: terms = g * (1.0 + y * y); break;
            case CUDNN_ACTIVATION_ELU: terms = g * (x > 0.0 ? 1.0 : std::fabs(p.coef) * std::exp(x)); break;
            case CUDNN_ACTIVATION_SWISH:
                terms = g * (sig + std::fabs(p.swish_beta * x) * sig * (1.0 + sig) + std::fabs(p.swish_beta * x));
                break;
            default: terms = g; break;
        }
    }
    return std::isnan(terms) ? 0.0 : terms;
}

// Runs one problem through the API and the reference and compares.
void check_against_reference(Random &rng, const ActivationProblem &p, bool with_nans) {
    const std::string text = to_problem_string(p).to_string();
    SCOPED_TRACE(text);
    const bool forward = p.direction == Direction::forward;
    HostTensor x(p.x);
    fill_uniform(x, rng, -4.0, 4.0);
    if (with_nans) {
        int64_t index[kMaxDims] = {};
        do {
            if (rng.integer(0, 19) == 0) x.set(index, std::nan(""));
        } while (next_index(index, p.x.dims, p.x.nb_dims));
    }
    HostTensor y(p.y), dy, out(p.result());
    if (!forward) {
        // y as the forward pass made it, so that the y-based gradients see consistent inputs.
        ActivationProblem make_y = p;
        make_y.direction = Direction::forward;
        make_y.alpha = 1.0;
        make_y.beta = 0.0;
        ActivationBuffers b;
        b.x = x.data();
        b.result = y.data();
        reference::activation(make_y, b);
        dy = HostTensor(p.dy);
        fill_uniform(dy, rng, -2.0, 2.0);
    }
    if (p.beta == 0.0) {
        poison(out);
    } else {
        fill_uniform(out, rng, -2.0, 2.0);
    }

    HostTensor ref = out;
    ActivationBuffers host_buffers;
    host_buffers.x = x.data();
    host_buffers.y = forward ? nullptr : y.data();
    host_buffers.dy = forward ? nullptr : dy.data();
    host_buffers.result = ref.data();
    reference::activation(p, host_buffers);

    Handle handle;
    ActivationDescriptor desc(p.mode, p.nan_opt, p.coef, p.swish_beta);
    const bool in_double = p.x.dtype == CUDNN_DATA_DOUBLE;
    const Scalar alpha(p.alpha, in_double), beta(p.beta, in_double);
    DeviceBuffer x_buffer(x.bytes), out_buffer(out.bytes);
    TensorDescriptor x_desc(p.x), out_desc(p.result());
    if (forward) {
        ASSERT_EQ(cudnnActivationForward(handle, desc, alpha.get(), x_desc, x_buffer.get(), beta.get(), out_desc,
                                         out_buffer.get()),
                  CUDNN_STATUS_SUCCESS);
    } else {
        DeviceBuffer y_buffer(y.bytes), dy_buffer(dy.bytes);
        TensorDescriptor y_desc(p.y), dy_desc(p.dy);
        ASSERT_EQ(cudnnActivationBackward(handle, desc, alpha.get(), y_desc, y_buffer.get(), dy_desc, dy_buffer.get(),
                                          x_desc, x_buffer.get(), beta.get(), out_desc, out_buffer.get()),
                  CUDNN_STATUS_SUCCESS);
    }
    HostTensor result(p.result());
    result.bytes = out_buffer.download();
    HostTensor y_exact = y;
    if (forward) {
        ActivationProblem make_y = p;
        make_y.alpha = 1.0;
        make_y.beta = 0.0;
        make_y.y = packed_geometry(CUDNN_DATA_DOUBLE, p.x.nb_dims, p.x.dims, PackedLayout::nchw);
        y_exact = HostTensor(make_y.y);
        ActivationBuffers b;
        b.x = x.data();
        b.result = y_exact.data();
        reference::activation(make_y, b);
    }
    std::vector<double> magnitudes;
    int64_t index[kMaxDims] = {};
    do {
        const double old = p.beta == 0.0 ? 0.0 : std::fabs(p.beta * out.at(index));
        magnitudes.push_back(std::fabs(p.alpha) *
                                 activation_terms(p, x.at(index), y_exact.at(index), forward ? 0.0 : dy.at(index)) +
                             old);
    } while (next_index(index, p.x.dims, p.x.nb_dims));
    EXPECT_TRUE(matches_reference(result, ref, magnitudes, text));
}

TEST(Activation, ForwardMatchesReferenceOnRandomShapesLayoutsAndTypes) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 150; ++trial) {
        check_against_reference(rng, random_problem(rng, Direction::forward), false);
    }
}

TEST(Activation, BackwardMatchesReferenceOnRandomShapesLayoutsAndTypes) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 150; ++trial) {
        check_against_reference(rng, random_problem(rng, Direction::backward), false);
    }
}

TEST(Activation, NanInputsFollowTheNanOption) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 60; ++trial) {
        const Direction direction = trial % 2 ? Direction::forward : Direction::backward;
        check_against_reference(rng, random_problem(rng, direction), true);
    }
}

TEST(Activation, StridedSolverMatchesReferenceOnPackedTensors) {
    // The packed solver takes these problems unless switched off: check the strided one on them too.
    LIBREDNN_SEEDED_RANDOM(rng);
    setenv("LIBREDNN_DISABLE_SOLVERS", "host_activation_packed", 1);
    for (int trial = 0; trial < 40; ++trial) {
        const Direction direction = trial % 2 ? Direction::forward : Direction::backward;
        check_against_reference(rng, random_problem(rng, direction, true), false);
    }
    unsetenv("LIBREDNN_DISABLE_SOLVERS");
}

TEST(Activation, InPlaceForwardMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 20; ++trial) {
        ActivationProblem p = random_problem(rng, Direction::forward);
        p.y = p.x;
        p.beta = 0.0;
        const std::string text = to_problem_string(p).to_string();
        SCOPED_TRACE(text);
        HostTensor x(p.x);
        fill_uniform(x, rng, -4.0, 4.0);
        HostTensor ref = x;
        ActivationBuffers b;
        b.x = x.data();
        b.result = ref.data();
        reference::activation(p, b);

        Handle handle;
        ActivationDescriptor desc(p.mode, p.nan_opt, p.coef, p.swish_beta);
        const bool in_double = p.x.dtype == CUDNN_DATA_DOUBLE;
        const Scalar alpha(p.alpha, in_double), beta(0.0, in_double);
        DeviceBuffer buffer(x.bytes);
        TensorDescriptor d(p.x);
        ASSERT_EQ(cudnnActivationForward(handle, desc, alpha.get(), d, buffer.get(), beta.get(), d, buffer.get()),
                  CUDNN_STATUS_SUCCESS);
        HostTensor result(p.x);
        result.bytes = buffer.download();
        ActivationProblem exact = p;
        exact.alpha = 1.0;
        exact.y = packed_geometry(CUDNN_DATA_DOUBLE, p.x.nb_dims, p.x.dims, PackedLayout::nchw);
        HostTensor y_exact(exact.y);
        b.result = y_exact.data();
        reference::activation(exact, b);
        std::vector<double> magnitudes;
        int64_t index[kMaxDims] = {};
        do {
            magnitudes.push_back(std::fabs(p.alpha) * activation_terms(p, x.at(index), y_exact.at(index), 0.0));
        } while (next_index(index, p.x.dims, p.x.nb_dims));
        EXPECT_TRUE(matches_reference(result, ref, magnitudes, text));
    }
}

// --- rejections -------------------------------------------------------------------------------------

struct RejectionFixture : ::testing::Test {
    Handle handle;
    ActivationDescriptor relu{CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0, 1.0};
    float one = 1.0f, zero = 0.0f;
    std::vector<float> x = std::vector<float>(2 * 3 * 4 * 5, 1.0f), y = std::vector<float>(2 * 3 * 4 * 6, 0.0f);
    static TensorGeometry geometry(cudnnDataType_t type, std::vector<int64_t> dims) {
        return packed_geometry(type, static_cast<int>(dims.size()), dims.data(), PackedLayout::nchw);
    }
};

using ActivationRejects = RejectionFixture;

TEST_F(ActivationRejects, DifferentDimsWithBadParam) {
    TensorDescriptor xd(geometry(CUDNN_DATA_FLOAT, {2, 3, 4, 5})), yd(geometry(CUDNN_DATA_FLOAT, {2, 3, 4, 6}));
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnActivationForward(handle, relu, &one, xd, x.data(), &zero, yd, y.data()), "same dims",
                    "2x3x4x6");
}

TEST_F(ActivationRejects, DifferentDataTypesWithBadParam) {
    TensorDescriptor xd(geometry(CUDNN_DATA_FLOAT, {2, 3, 4, 5})), yd(geometry(CUDNN_DATA_HALF, {2, 3, 4, 5}));
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnActivationForward(handle, relu, &one, xd, x.data(), &zero, yd, y.data()), "same data type");
}

TEST_F(ActivationRejects, IntegerDataWithNotSupported) {
    TensorDescriptor xd(geometry(CUDNN_DATA_INT8, {2, 3, 4, 5}));
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnActivationForward(handle, relu, &one, xd, x.data(), &zero, xd, y.data()), "CUDNN_DATA_INT8");
}

TEST_F(ActivationRejects, InPlaceWithDifferentStridesWithBadParam) {
    const int64_t dims[] = {2, 3, 4, 5};
    TensorDescriptor xd(packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw));
    TensorDescriptor yd(packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nhwc));
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnActivationForward(handle, relu, &one, xd, x.data(), &zero, yd, x.data()), "in place");
}

TEST_F(ActivationRejects, UnsetDescriptorAndNullPointersWithBadParam) {
    TensorDescriptor xd(geometry(CUDNN_DATA_FLOAT, {2, 3, 4, 5}));
    cudnnActivationDescriptor_t unset = nullptr;
    ASSERT_EQ(cudnnCreateActivationDescriptor(&unset), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnActivationForward(handle, unset, &one, xd, x.data(), &zero, xd, y.data()), "activationDesc");
    cudnnDestroyActivationDescriptor(unset);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnActivationForward(handle, relu, nullptr, xd, x.data(), &zero, xd, y.data()), "alpha");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnActivationBackward(handle, relu, &one, xd, y.data(), xd, y.data(), xd, nullptr, &zero, xd, y.data()),
        "x is NULL");
}

TEST(ActivationDispatch, LogsTheChosenSolverAndTheSkippedOnes) {
    if (test_backend() != TestBackend::host) GTEST_SKIP() << "names the host solvers";
    Handle handle;
    ActivationDescriptor relu(CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0, 1.0);
    const int64_t dims[] = {1, 2, 3, 4};
    TensorDescriptor xd(packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw));
    TensorDescriptor yd(packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nhwc));
    std::vector<float> x(24, 1.0f), y(24, 0.0f);
    float one = 1.0f, zero = 0.0f;
    LogCapture capture(CUDNN_SEV_INFO_EN);
    ASSERT_EQ(cudnnActivationForward(handle, relu, &one, xd, x.data(), &zero, yd, y.data()), CUDNN_STATUS_SUCCESS);
    EXPECT_TRUE(
        capture.contains({"dispatch", "op=act", "skipped host_activation_packed", "chose host_activation_strided"}))
        << capture.all();
}

}  // namespace
