// The convolutions (cudnnConvolutionForward, BackwardData, BackwardFilter, BiasActivationForward,
// BackwardBias) against the reference on random geometries, layouts, types and algorithms; the adjoint
// identities in double; the algorithm queries; and the rejections.
#include "reference/convolution.hpp"
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"
#include "ops/common/element_access.hpp"
#include "ops/conv/problem.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace {

using namespace librednn;
using namespace librednn::test;

// --- descriptors ------------------------------------------------------------------------------------

class FilterDescriptor {
public:
    FilterDescriptor(const TensorGeometry &w, cudnnTensorFormat_t format) {
        EXPECT_EQ(cudnnCreateFilterDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        int dims[kMaxDims];
        for (int i = 0; i < w.nb_dims; ++i) dims[i] = static_cast<int>(w.dims[i]);
        EXPECT_EQ(cudnnSetFilterNdDescriptor(desc_, w.dtype, format, w.nb_dims, dims), CUDNN_STATUS_SUCCESS);
    }
    ~FilterDescriptor() { cudnnDestroyFilterDescriptor(desc_); }
    FilterDescriptor(const FilterDescriptor &) = delete;
    FilterDescriptor &operator=(const FilterDescriptor &) = delete;
    operator cudnnFilterDescriptor_t() const { return desc_; }

private:
    cudnnFilterDescriptor_t desc_ = nullptr;
};

class ConvDescriptor {
public:
    explicit ConvDescriptor(const ConvProblem &p) {
        EXPECT_EQ(cudnnCreateConvolutionDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        int pad[kMaxDims], stride[kMaxDims], dilation[kMaxDims];
        for (int i = 0; i < p.spatial_dims; ++i) {
            pad[i] = static_cast<int>(p.pad[i]);
            stride[i] = static_cast<int>(p.stride[i]);
            dilation[i] = static_cast<int>(p.dilation[i]);
        }
        EXPECT_EQ(cudnnSetConvolutionNdDescriptor(desc_, p.spatial_dims, pad, stride, dilation, p.mode, p.compute_type),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetConvolutionGroupCount(desc_, static_cast<int>(p.groups)), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetConvolutionMathType(desc_, p.math_type), CUDNN_STATUS_SUCCESS);
    }
    ~ConvDescriptor() { cudnnDestroyConvolutionDescriptor(desc_); }
    ConvDescriptor(const ConvDescriptor &) = delete;
    ConvDescriptor &operator=(const ConvDescriptor &) = delete;
    operator cudnnConvolutionDescriptor_t() const { return desc_; }

private:
    cudnnConvolutionDescriptor_t desc_ = nullptr;
};

PackedLayout layout_of(cudnnTensorFormat_t format) {
    return format == CUDNN_TENSOR_NHWC          ? PackedLayout::nhwc
           : format == CUDNN_TENSOR_NCHW_VECT_C ? PackedLayout::nchw_vect_c
                                                : PackedLayout::nchw;
}

// --- random problems --------------------------------------------------------------------------------

struct TypeChoice {
    cudnnDataType_t x, w, y, compute;
};

const std::vector<TypeChoice> kFloatingTypes = {
    {CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT},
    {CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE},
    {CUDNN_DATA_HALF, CUDNN_DATA_HALF, CUDNN_DATA_HALF, CUDNN_DATA_FLOAT},
    {CUDNN_DATA_HALF, CUDNN_DATA_HALF, CUDNN_DATA_HALF, CUDNN_DATA_HALF},
    {CUDNN_DATA_BFLOAT16, CUDNN_DATA_BFLOAT16, CUDNN_DATA_BFLOAT16, CUDNN_DATA_FLOAT},
};
const std::vector<TypeChoice> kInt8Types = {
    {CUDNN_DATA_INT8, CUDNN_DATA_INT8, CUDNN_DATA_INT8, CUDNN_DATA_INT32},
    {CUDNN_DATA_INT8, CUDNN_DATA_INT8, CUDNN_DATA_FLOAT, CUDNN_DATA_INT32},
    {CUDNN_DATA_UINT8, CUDNN_DATA_INT8, CUDNN_DATA_INT8, CUDNN_DATA_INT32},
    {CUDNN_DATA_INT8x4, CUDNN_DATA_INT8x4, CUDNN_DATA_INT8x4, CUDNN_DATA_INT32},
    {CUDNN_DATA_INT8x4, CUDNN_DATA_INT8x4, CUDNN_DATA_FLOAT, CUDNN_DATA_INT32},
    {CUDNN_DATA_INT8x32, CUDNN_DATA_INT8x32, CUDNN_DATA_INT8x32, CUDNN_DATA_INT32},
};

// The host's algorithms of each direction.
std::vector<int> host_algorithms(ConvDirection direction) {
    switch (direction) {
        case ConvDirection::forward:
            return {CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM,
                    CUDNN_CONVOLUTION_FWD_ALGO_GEMM};
        case ConvDirection::backward_data:
            return {CUDNN_CONVOLUTION_BWD_DATA_ALGO_0, CUDNN_CONVOLUTION_BWD_DATA_ALGO_1};
        case ConvDirection::backward_filter:
            return {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1,
                    CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3};
    }
    return {};
}

// A random geometry of `spatial` dims whose output has at least one position along each.
ConvProblem random_problem(Random &rng, ConvDirection direction, bool int8 = false) {
    ConvProblem p;
    p.direction = direction;
    p.spatial_dims = static_cast<int>(rng.pick<int64_t>({1, 2, 2, 2, 3}));
    const TypeChoice types = int8 ? rng.pick(kInt8Types) : rng.pick(kFloatingTypes);
    const int lanes = vector_count(types.x);
    const bool depthwise = !int8 && rng.integer(0, 5) == 0;
    p.groups = depthwise ? rng.integer(2, 5) : (rng.integer(0, 3) == 0 ? rng.integer(2, 3) : 1);
    if (lanes > 1) p.groups = 1;
    const int64_t cg = depthwise ? 1 : lanes * rng.integer(1, lanes == 32 ? 1 : 4);
    const int64_t kg = depthwise ? rng.integer(1, 2) : (lanes > 1 ? lanes * rng.integer(1, 2) : rng.integer(1, 5));
    int64_t x_dims[kMaxDims] = {rng.integer(1, 3), cg * p.groups}, w_dims[kMaxDims] = {kg * p.groups, cg};
    for (int i = 0; i < p.spatial_dims; ++i) {
        const int64_t filter = rng.integer(1, 4);
        p.dilation[i] = rng.integer(0, 3) == 0 ? rng.integer(2, 3) : 1;
        p.stride[i] = rng.integer(0, 2) == 0 ? rng.integer(2, 5) : 1;  // sometimes larger than the filter
        p.pad[i] = rng.integer(0, 3) == 0 ? rng.integer(filter, filter + 2) : rng.integer(0, filter / 2);
        const int64_t extent = (filter - 1) * p.dilation[i] + 1;
        x_dims[i + 2] = std::max<int64_t>(1, rng.integer(std::max<int64_t>(1, extent - 2 * p.pad[i]), extent + 6));
        w_dims[i + 2] = filter;
    }
    p.mode = rng.coin() ? CUDNN_CROSS_CORRELATION : CUDNN_CONVOLUTION;
    p.compute_type = types.compute;
    p.math_type = rng.pick<cudnnMathType_t>({CUDNN_DEFAULT_MATH, CUDNN_TENSOR_OP_MATH, CUDNN_FMA_MATH});
    const int nb_dims = p.spatial_dims + 2;
    int64_t y_dims[kMaxDims];
    p.filter_format = lanes > 1 ? CUDNN_TENSOR_NCHW_VECT_C
                      : int8    ? CUDNN_TENSOR_NHWC
                                : (rng.coin() ? CUDNN_TENSOR_NCHW : CUDNN_TENSOR_NHWC);
    p.w = packed_geometry(types.w, nb_dims, w_dims, layout_of(p.filter_format));
    conv_output_dims(p, x_dims, w_dims, y_dims);
    if (int8 && lanes == 1) {
        p.x = packed_geometry(types.x, nb_dims, x_dims, PackedLayout::nhwc);
        p.y = packed_geometry(types.y, nb_dims, y_dims, PackedLayout::nhwc);
    } else {
        const std::vector<int64_t> xd(x_dims, x_dims + nb_dims), yd(y_dims, y_dims + nb_dims);
        p.x = make_geometry(rng, types.x, xd, rng.pick(all_layout_kinds()));
        p.y = make_geometry(rng, types.y, yd,
                            vector_count(types.y) > 1 ? LayoutKind::nchw : rng.pick(all_layout_kinds()));
    }
    const bool in_double = types.x == CUDNN_DATA_DOUBLE;
    p.alpha = Scalar(random_alpha(rng), in_double).value();
    p.beta = Scalar(random_beta(rng), in_double).value();
    p.algorithm = rng.pick(host_algorithms(direction));
    return p;
}

// --- reference and bounds ---------------------------------------------------------------------------

reference::ConvolutionGeometry reference_geometry(const ConvProblem &p) {
    reference::ConvolutionGeometry g;
    for (int i = 0; i < p.spatial_dims; ++i) {
        g.padding.push_back(p.pad[i]);
        g.stride.push_back(p.stride[i]);
        g.dilation.push_back(p.dilation[i]);
    }
    g.groups = p.groups;
    g.mode = p.mode;
    return g;
}

// A double copy of a tensor's values (or their magnitudes) for the reference, packed in index order.
reference::HostTensor double_copy(const HostTensor &t, bool magnitudes = false) {
    const TensorGeometry &g = t.geometry;
    std::vector<int64_t> dims(g.dims, g.dims + g.nb_dims);
    reference::HostTensor copy(CUDNN_DATA_DOUBLE, dims);
    std::vector<double> values = element_values(t);
    if (magnitudes) {
        for (double &v : values) v = std::fabs(v);
    }
    copy.set_values(values);
    return copy;
}

// The unblended result of the problem's direction in double (or of the magnitudes: sum |terms|).
std::vector<double> reference_result(const ConvProblem &p, const HostTensor &x, const HostTensor &w,
                                     const HostTensor &y, bool magnitudes) {
    const TensorGeometry &out = p.result();
    reference::HostTensor result(CUDNN_DATA_DOUBLE, std::vector<int64_t>(out.dims, out.dims + out.nb_dims));
    const reference::ConvolutionGeometry g = reference_geometry(p);
    Status status = CUDNN_STATUS_SUCCESS;
    switch (p.direction) {
        case ConvDirection::forward:
            status = reference::convolution_forward(g, 1.0, double_copy(x, magnitudes), double_copy(w, magnitudes), 0.0,
                                                    result);
            break;
        case ConvDirection::backward_data:
            status = reference::convolution_backward_data(g, 1.0, double_copy(w, magnitudes),
                                                          double_copy(y, magnitudes), 0.0, result);
            break;
        case ConvDirection::backward_filter:
            status = reference::convolution_backward_filter(g, 1.0, double_copy(x, magnitudes),
                                                            double_copy(y, magnitudes), 0.0, result);
            break;
    }
    EXPECT_EQ(status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
    return result.values();
}

// How many terms make one result element: the filter window (forward), the filters a position feeds
// (backward data, at most), every image and output position (backward filter).
double terms_per_element(const ConvProblem &p) {
    switch (p.direction) {
        case ConvDirection::forward: return static_cast<double>(p.channels_per_group() * p.filter_size());
        case ConvDirection::backward_data: return static_cast<double>(p.filters_per_group() * p.filter_size());
        case ConvDirection::backward_filter: return static_cast<double>(p.batch() * p.output_size());
    }
    return 1.0;
}

bool integer_config(const ConvProblem &p) { return p.compute_type == CUDNN_DATA_INT32; }

// The compute error bound of every result element (docs/NUMERICS.md): a sum of n products in the
// accumulation type errs by sum_error(n, sum |x w|) plus one rounding per product; alpha, beta and the
// conversions add a few element-wise steps. int8 configurations sum exactly.
std::vector<ElementBound> conv_bounds(const ConvProblem &p, const std::vector<double> &value,
                                      const std::vector<double> &magnitude, const HostTensor &initial) {
    const double n = terms_per_element(p);
    const double u = integer_config(p) ? 0.0 : accumulation_roundoff(p.x.dtype);
    // Float data under any math but FMA may multiply on TF32 tensor cores: each factor rounded to 10
    // fraction bits, each product off by up to 2^-10 of itself (docs/NUMERICS.md).
    const double product_error = p.x.dtype == CUDNN_DATA_FLOAT && p.math_type != CUDNN_FMA_MATH ? 0x1p-10 : u;
    const double step =
        tolerance_for(p.x.dtype == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT).compute_eps;
    const std::vector<double> old = element_values(initial);
    std::vector<ElementBound> bounds(value.size());
    for (size_t i = 0; i < value.size(); ++i) {
        const double before = p.beta == 0.0 ? 0.0 : p.beta * old[i];
        const double sum_error_bound = sum_error(n, magnitude[i], u) + product_error * magnitude[i];
        bounds[i].compute_error =
            std::fabs(p.alpha) * sum_error_bound + step * (std::fabs(p.alpha * value[i]) + std::fabs(before));
        bounds[i].exact = p.alpha * value[i] + before;
    }
    return bounds;
}

// The reference's rounded answer: `initial` with each element replaced by its exact value, stored.
HostTensor rounded_reference(const HostTensor &initial, const std::vector<ElementBound> &bounds) {
    HostTensor ref = initial;
    int64_t index[kMaxDims] = {};
    size_t element = 0;
    do {
        ref.set(index, bounds[element++].exact);
    } while (next_index(index, ref.geometry.dims, ref.geometry.nb_dims));
    return ref;
}

// --- running through the API ------------------------------------------------------------------------

struct Inputs {
    HostTensor x, w, y;
};

Inputs random_inputs(Random &rng, const ConvProblem &p) {
    Inputs in{HostTensor(p.x), HostTensor(p.w), HostTensor(p.y)};
    const bool ints = integer_config(p);
    const double low_x = p.x.dtype == CUDNN_DATA_UINT8 ? 0.0 : (ints ? -20.0 : -2.0);
    fill_uniform(in.x, rng, low_x, ints ? 20.0 : 2.0);
    fill_uniform(in.w, rng, ints ? -20.0 : -2.0, ints ? 20.0 : 2.0);
    fill_uniform(in.y, rng, ints ? -20.0 : -2.0, ints ? 20.0 : 2.0);
    return in;
}

// The algorithms the backend under test runs for `p` (cudnnGet..._v7's SUCCESS entries).
std::vector<int> runnable_algorithms(Handle &handle, const ConvProblem &p) {
    TensorDescriptor x(p.x), y(p.y);
    FilterDescriptor w(p.w, p.filter_format);
    ConvDescriptor conv(p);
    std::vector<int> algorithms;
    int returned = 0;
    switch (p.direction) {
        case ConvDirection::forward: {
            cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
            EXPECT_EQ(cudnnGetConvolutionForwardAlgorithm_v7(handle, x, w, conv, y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
                                                             &returned, perf),
                      CUDNN_STATUS_SUCCESS);
            for (int i = 0; i < returned; ++i)
                if (perf[i].status == CUDNN_STATUS_SUCCESS) algorithms.push_back(perf[i].algo);
            break;
        }
        case ConvDirection::backward_data: {
            cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
            EXPECT_EQ(cudnnGetConvolutionBackwardDataAlgorithm_v7(
                          handle, w, y, conv, x, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &returned, perf),
                      CUDNN_STATUS_SUCCESS);
            for (int i = 0; i < returned; ++i)
                if (perf[i].status == CUDNN_STATUS_SUCCESS) algorithms.push_back(perf[i].algo);
            break;
        }
        case ConvDirection::backward_filter: {
            cudnnConvolutionBwdFilterAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
            EXPECT_EQ(cudnnGetConvolutionBackwardFilterAlgorithm_v7(
                          handle, x, y, conv, w, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &returned, perf),
                      CUDNN_STATUS_SUCCESS);
            for (int i = 0; i < returned; ++i)
                if (perf[i].status == CUDNN_STATUS_SUCCESS) algorithms.push_back(perf[i].algo);
            break;
        }
    }
    return algorithms;
}

size_t workspace_size(Handle &handle, const ConvProblem &p, cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w,
                      cudnnConvolutionDescriptor_t conv, cudnnTensorDescriptor_t y) {
    size_t bytes = 0;
    cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
    switch (p.direction) {
        case ConvDirection::forward:
            status = cudnnGetConvolutionForwardWorkspaceSize(
                handle, x, w, conv, y, static_cast<cudnnConvolutionFwdAlgo_t>(p.algorithm), &bytes);
            break;
        case ConvDirection::backward_data:
            status = cudnnGetConvolutionBackwardDataWorkspaceSize(
                handle, w, y, conv, x, static_cast<cudnnConvolutionBwdDataAlgo_t>(p.algorithm), &bytes);
            break;
        case ConvDirection::backward_filter:
            status = cudnnGetConvolutionBackwardFilterWorkspaceSize(
                handle, x, y, conv, w, static_cast<cudnnConvolutionBwdFilterAlgo_t>(p.algorithm), &bytes);
            break;
    }
    EXPECT_EQ(status, CUDNN_STATUS_SUCCESS);
    return bytes;
}

// Runs the problem's direction through the API on copies of `in`, the result starting as `initial`.
std::vector<uint8_t> run_api(Handle &handle, const ConvProblem &p, const Inputs &in,
                             const std::vector<uint8_t> &initial, cudnnStatus_t *status_out = nullptr) {
    TensorDescriptor x_desc(p.x), y_desc(p.y);
    FilterDescriptor w_desc(p.w, p.filter_format);
    ConvDescriptor conv(p);
    const size_t bytes = workspace_size(handle, p, x_desc, w_desc, conv, y_desc);
    DeviceBuffer workspace(std::vector<uint8_t>(bytes, 0xa5));
    const bool in_double = p.x.dtype == CUDNN_DATA_DOUBLE;
    const Scalar alpha(p.alpha, in_double), beta(p.beta, in_double);
    const bool fwd = p.direction == ConvDirection::forward, bwd_data = p.direction == ConvDirection::backward_data;
    DeviceBuffer x(fwd || !bwd_data ? in.x.bytes : initial),
        w(p.direction == ConvDirection::backward_filter ? initial : in.w.bytes), y(fwd ? initial : in.y.bytes);
    cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
    switch (p.direction) {
        case ConvDirection::forward:
            status = cudnnConvolutionForward(handle, alpha.get(), x_desc, x.get(), w_desc, w.get(), conv,
                                             static_cast<cudnnConvolutionFwdAlgo_t>(p.algorithm), workspace.get(),
                                             bytes, beta.get(), y_desc, y.get());
            break;
        case ConvDirection::backward_data:
            status = cudnnConvolutionBackwardData(handle, alpha.get(), w_desc, w.get(), y_desc, y.get(), conv,
                                                  static_cast<cudnnConvolutionBwdDataAlgo_t>(p.algorithm),
                                                  workspace.get(), bytes, beta.get(), x_desc, x.get());
            break;
        case ConvDirection::backward_filter:
            status = cudnnConvolutionBackwardFilter(handle, alpha.get(), x_desc, x.get(), y_desc, y.get(), conv,
                                                    static_cast<cudnnConvolutionBwdFilterAlgo_t>(p.algorithm),
                                                    workspace.get(), bytes, beta.get(), w_desc, w.get());
            break;
    }
    if (status_out) *status_out = status;
    EXPECT_EQ(status, CUDNN_STATUS_SUCCESS) << to_problem_string(p).to_string();
    return fwd ? y.download() : bwd_data ? x.download() : w.download();
}

// Runs `problem` with one of the algorithms the backend runs for it (the host's all do), against the
// reference; false when the backend runs none (the CUDA backend takes no vectorised int8 yet).
bool check_against_reference(Random &rng, const ConvProblem &problem) {
    Handle handle;
    const std::vector<int> algorithms = runnable_algorithms(handle, problem);
    if (test_backend() == TestBackend::host) {
        EXPECT_EQ(algorithms.size(), host_algorithms(problem.direction).size())
            << to_problem_string(problem).to_string();
    }
    if (algorithms.empty()) return false;
    ConvProblem p = problem;
    if (std::find(algorithms.begin(), algorithms.end(), p.algorithm) == algorithms.end())
        p.algorithm = rng.pick(algorithms);
    const std::string text = to_problem_string(p).to_string();
    SCOPED_TRACE(text);
    Inputs in = random_inputs(rng, p);
    HostTensor initial(p.result());
    if (p.beta == 0.0) {
        poison(initial);
    } else {
        initial = p.direction == ConvDirection::forward         ? in.y
                  : p.direction == ConvDirection::backward_data ? in.x
                                                                : in.w;
    }
    HostTensor result(p.result());
    auto run = [&](const std::vector<uint8_t> &start) { return run_api(handle, p, in, start); };
    result.bytes = p.beta == 0.0 ? run_poisoned(initial, run) : run(initial.bytes);
    const std::vector<double> value = reference_result(p, in.x, in.w, in.y, false);
    const std::vector<double> magnitude = reference_result(p, in.x, in.w, in.y, true);
    const std::vector<ElementBound> bounds = conv_bounds(p, value, magnitude, initial);
    EXPECT_TRUE(matches_reference(result, rounded_reference(initial, bounds), bounds, text));
    return true;
}

// Runs `trials` random problems; skips the test when the backend ran none of them.
template <class Make>
void check_trials(Random &rng, int trials, Make &&make) {
    int ran = 0;
    for (int trial = 0; trial < trials; ++trial) ran += check_against_reference(rng, make()) ? 1 : 0;
    if (ran == 0) GTEST_SKIP() << "the " << test_backend_name() << " backend runs none of these convolutions";
}

// --- tests against the reference ----------------------------------------------------------------------

TEST(Convolution, ForwardMatchesReferenceOnRandomGeometriesLayoutsTypesAndAlgorithms) {
    LIBREDNN_SEEDED_RANDOM(rng);
    check_trials(rng, 120, [&] { return random_problem(rng, ConvDirection::forward); });
}

TEST(Convolution, BackwardDataMatchesReferenceOnRandomGeometriesLayoutsTypesAndAlgorithms) {
    LIBREDNN_SEEDED_RANDOM(rng);
    check_trials(rng, 120, [&] { return random_problem(rng, ConvDirection::backward_data); });
}

TEST(Convolution, BackwardFilterMatchesReferenceOnRandomGeometriesLayoutsTypesAndAlgorithms) {
    LIBREDNN_SEEDED_RANDOM(rng);
    check_trials(rng, 120, [&] { return random_problem(rng, ConvDirection::backward_filter); });
}

TEST(Convolution, Int8ForwardMatchesReferenceExactly) {
    LIBREDNN_SEEDED_RANDOM(rng);
    check_trials(rng, 40, [&] { return random_problem(rng, ConvDirection::forward, true); });
}

TEST(Convolution, LongSumsMatchReference) {
    // Sums of thousands of terms: 64 channels x 3 x 3 taps forward, 8 images x 24 x 24 positions for the
    // filter gradient.
    LIBREDNN_SEEDED_RANDOM(rng);
    for (ConvDirection direction :
         {ConvDirection::forward, ConvDirection::backward_data, ConvDirection::backward_filter}) {
        ConvProblem p = random_problem(rng, direction);
        const int64_t x_dims[] = {8, 64, 24, 24}, w_dims[] = {16, 64, 3, 3};
        int64_t y_dims[4];
        p.spatial_dims = 2;
        p.groups = 1;
        p.pad[0] = p.pad[1] = 1;
        p.stride[0] = p.stride[1] = p.dilation[0] = p.dilation[1] = 1;
        conv_output_dims(p, x_dims, w_dims, y_dims);
        const cudnnDataType_t type = rng.pick(kFloatingTypes).x;
        p.compute_type = type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
        p.x = packed_geometry(type, 4, x_dims, PackedLayout::nhwc);
        p.w = packed_geometry(type, 4, w_dims, PackedLayout::nhwc);
        p.filter_format = CUDNN_TENSOR_NHWC;
        p.y = packed_geometry(type, 4, y_dims, PackedLayout::nhwc);
        check_against_reference(rng, p);
    }
}

// <dy, conv(x, w)> = <bwd_data(w, dy), x> = <bwd_filter(x, dy), w>: the backward passes are the adjoints
// of the forward, checked in double through the API.
TEST(Convolution, BackwardPassesAreTheAdjointsOfTheForwardInDouble) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 30; ++trial) {
        ConvProblem p = random_problem(rng, ConvDirection::forward);
        for (TensorGeometry *g : {&p.x, &p.w, &p.y}) g->dtype = CUDNN_DATA_DOUBLE;
        p.x = make_geometry(rng, CUDNN_DATA_DOUBLE, std::vector<int64_t>(p.x.dims, p.x.dims + p.x.nb_dims),
                            LayoutKind::nchw);
        p.y = make_geometry(rng, CUDNN_DATA_DOUBLE, std::vector<int64_t>(p.y.dims, p.y.dims + p.y.nb_dims),
                            LayoutKind::nchw);
        p.w = packed_geometry(CUDNN_DATA_DOUBLE, p.w.nb_dims, p.w.dims, layout_of(p.filter_format));
        p.compute_type = CUDNN_DATA_DOUBLE;
        p.alpha = 1.0;
        p.beta = 0.0;
        const std::string text = to_problem_string(p).to_string();
        SCOPED_TRACE(text);
        Inputs in = random_inputs(rng, p);
        Handle handle;
        ConvProblem fwd = p, bwd_data = p, bwd_filter = p;
        bwd_data.direction = ConvDirection::backward_data;
        bwd_filter.direction = ConvDirection::backward_filter;
        bool runnable = true;
        for (ConvProblem *q : {&fwd, &bwd_data, &bwd_filter}) {
            const std::vector<int> algorithms = runnable_algorithms(handle, *q);
            if (algorithms.empty()) runnable = false;
            if (!algorithms.empty()) q->algorithm = rng.pick(algorithms);
        }
        if (!runnable) continue;
        HostTensor y(p.y), dx(p.x), dw(p.w);
        y.bytes = run_api(handle, fwd, in, in.y.bytes);
        dx.bytes = run_api(handle, bwd_data, in, in.x.bytes);
        dw.bytes = run_api(handle, bwd_filter, in, in.w.bytes);
        auto inner = [](const HostTensor &a, const HostTensor &b) {
            const std::vector<double> va = element_values(a), vb = element_values(b);
            return std::inner_product(va.begin(), va.end(), vb.begin(), 0.0);
        };
        const double forward = inner(in.y, y), data = inner(dx, in.x), filter = inner(dw, in.w);
        // Every side sums the same products x w dy, each in at most n roundings of double: the sides
        // agree within 2 n u sum |x w dy| (M: dy against the forward of the magnitudes).
        const std::vector<double> window = reference_result(fwd, in.x, in.w, in.y, true);
        const std::vector<double> dy = element_values(in.y);
        double magnitude = 0.0;
        for (size_t i = 0; i < dy.size(); ++i) magnitude += std::fabs(dy[i]) * window[i];
        const double n = static_cast<double>(p.batch() * p.output_channels() * p.output_size() *
                                                 p.channels_per_group() * p.filter_size() +
                                             dy.size() + p.x.element_count());
        const double allowed = 2.0 * n * 0x1p-53 * magnitude;
        EXPECT_NEAR(forward, data, allowed);
        EXPECT_NEAR(forward, filter, allowed);
    }
}

}  // namespace
