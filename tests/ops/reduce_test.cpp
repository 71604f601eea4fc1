// cudnnReduceTensor (values and indices) against the reference, its size queries and its rejections.
#include "reference/reduce.hpp"
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace {

using namespace librednn;
using namespace librednn::test;

class ReduceDescriptor {
public:
    ReduceDescriptor(cudnnReduceTensorOp_t op, cudnnDataType_t compute, cudnnNanPropagation_t nan_opt,
                     cudnnReduceTensorIndices_t indices, cudnnIndicesType_t indices_type = CUDNN_32BIT_INDICES) {
        EXPECT_EQ(cudnnCreateReduceTensorDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetReduceTensorDescriptor(desc_, op, compute, nan_opt, indices, indices_type),
                  CUDNN_STATUS_SUCCESS);
    }
    ~ReduceDescriptor() { cudnnDestroyReduceTensorDescriptor(desc_); }
    operator cudnnReduceTensorDescriptor_t() const { return desc_; }

private:
    cudnnReduceTensorDescriptor_t desc_ = nullptr;
};

const std::vector<cudnnReduceTensorOp_t> kOps = {
    CUDNN_REDUCE_TENSOR_ADD,   CUDNN_REDUCE_TENSOR_MUL,   CUDNN_REDUCE_TENSOR_MIN,
    CUDNN_REDUCE_TENSOR_MAX,   CUDNN_REDUCE_TENSOR_AMAX,  CUDNN_REDUCE_TENSOR_AVG,
    CUDNN_REDUCE_TENSOR_NORM1, CUDNN_REDUCE_TENSOR_NORM2, CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS};
const std::vector<cudnnDataType_t> kSingleTypes = {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16,
                                                   CUDNN_DATA_INT8};

bool multiplies(cudnnReduceTensorOp_t op) {
    return op == CUDNN_REDUCE_TENSOR_MUL || op == CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS;
}

ReduceProblem random_problem(Random &rng) {
    ReduceProblem p;
    p.op = rng.pick(kOps);
    p.nan_opt = rng.coin() ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN;
    cudnnDataType_t a_type = CUDNN_DATA_DOUBLE, c_type = CUDNN_DATA_DOUBLE;
    p.compute = CUDNN_DATA_DOUBLE;
    if (rng.integer(0, 4) != 0) {
        a_type = rng.pick(kSingleTypes);
        c_type = rng.pick(kSingleTypes);
        p.compute = CUDNN_DATA_FLOAT;
    }
    std::vector<int64_t> dims, c_dims;
    bool reduces = false;
    while (!reduces) {
        dims = random_dims(rng, static_cast<int>(rng.integer(3, 5)), 6);
        c_dims = dims;
        for (int64_t &d : c_dims) {
            if (rng.coin()) d = 1;
        }
        for (size_t i = 0; i < dims.size(); ++i) reduces = reduces || (c_dims[i] == 1 && dims[i] > 1);
    }
    p.a = make_geometry(rng, a_type, dims, rng.pick(all_layout_kinds()));
    p.c = make_geometry(rng, c_type, c_dims, rng.pick(all_layout_kinds()));
    p.indices = reduce_op_has_indices(p.op) && rng.coin();
    const bool in_double = p.compute == CUDNN_DATA_DOUBLE;
    p.alpha = Scalar(random_alpha(rng), in_double).value();
    p.beta = Scalar(random_beta(rng), in_double).value();
    return p;
}

void check_against_reference(Random &rng, const ReduceProblem &p, bool request_indices) {
    const std::string text = to_problem_string(p).to_string();
    SCOPED_TRACE(text);
    const bool ints = p.a.dtype == CUDNN_DATA_INT8;
    HostTensor a(p.a), c(p.c);
    if (multiplies(p.op)) {
        // Products of values near 1 (or of -1, 0, 1) stay finite over thousands of elements.
        fill_uniform(a, rng, ints ? -1.4 : 0.99, ints ? 1.4 : 1.01);
    } else {
        fill_uniform(a, rng, ints ? -100.0 : -4.0, ints ? 100.0 : 4.0);
    }
    if (!ints && reduce_op_has_indices(p.op) && rng.integer(0, 3) == 0) {
        int64_t index[kMaxDims] = {};
        do {
            if (rng.integer(0, 7) == 0) a.set(index, std::nan(""));
        } while (next_index(index, p.a.dims, p.a.nb_dims));
    }
    if (p.beta == 0.0) {
        poison(c);
    } else {
        fill_uniform(c, rng, -4.0, 4.0);
    }
    const size_t outputs = static_cast<size_t>(p.c.element_count());
    std::vector<uint32_t> ref_indices(outputs, 0xffffffffu);
    HostTensor ref = c;
    ReduceBuffers rb;
    rb.a = a.data();
    rb.c = ref.data();
    rb.indices = ref_indices.data();
    reference::reduce(p, rb);

    // Exact values in double, for the error bounds: the unblended result and, for every reduced group,
    // sum |a| (NORM1 of the same data).
    ReduceProblem unblended = p;
    unblended.alpha = 1.0;
    unblended.beta = 0.0;
    unblended.indices = false;
    unblended.c = packed_geometry(CUDNN_DATA_DOUBLE, p.c.nb_dims, p.c.dims, PackedLayout::nchw);
    HostTensor value(unblended.c), sum_abs(unblended.c);
    ReduceBuffers vb;
    vb.a = a.data();
    vb.c = value.data();
    reference::reduce(unblended, vb);
    unblended.op = CUDNN_REDUCE_TENSOR_NORM1;
    vb.c = sum_abs.data();
    reference::reduce(unblended, vb);

    Handle handle;
    ReduceDescriptor desc(p.op, p.compute, p.nan_opt,
                          request_indices ? CUDNN_REDUCE_TENSOR_FLATTENED_INDICES : CUDNN_REDUCE_TENSOR_NO_INDICES);
    TensorDescriptor a_desc(p.a), c_desc(p.c);
    size_t indices_bytes = 1, workspace_bytes = 1;
    ASSERT_EQ(cudnnGetReductionIndicesSize(handle, desc, a_desc, c_desc, &indices_bytes), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetReductionWorkspaceSize(handle, desc, a_desc, c_desc, &workspace_bytes), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(indices_bytes, p.indices ? outputs * sizeof(uint32_t) : 0u);
    DeviceBuffer a_buffer(a.bytes);
    DeviceBuffer indices_buffer(std::vector<uint8_t>(indices_bytes, 0xff));
    DeviceBuffer workspace(std::vector<uint8_t>(workspace_bytes, 0xff));
    const bool in_double = p.compute == CUDNN_DATA_DOUBLE;
    const Scalar alpha(p.alpha, in_double), beta(p.beta, in_double);
    auto run = [&](const std::vector<uint8_t> &initial) {
        DeviceBuffer c_buffer(initial);
        EXPECT_EQ(cudnnReduceTensor(handle, desc, indices_bytes ? indices_buffer.get() : nullptr, indices_bytes,
                                    workspace_bytes ? workspace.get() : nullptr, workspace_bytes, alpha.get(), a_desc,
                                    a_buffer.get(), beta.get(), c_desc, c_buffer.get()),
                  CUDNN_STATUS_SUCCESS);
        return c_buffer.download();
    };
    HostTensor result(p.c);
    result.bytes = p.beta == 0.0 ? run_poisoned(c, run) : run(c.bytes);

    // The compute error (tolerances.hpp): sums of n terms err by sum_error(n, sum|a|); AVG divides that
    // by n; NORM2 sums the squares (each rounded) and halves the relative error in the square root;
    // products err relatively by sum_error(n, |product|); MIN, MAX and AMAX are exact. Then alpha, the
    // division or square root and the blend add a few roundings of their terms.
    const double n = static_cast<double>(p.reduction_length());
    const double u = accumulation_roundoff(p.compute);
    std::vector<ElementBound> bounds;
    int64_t index[kMaxDims] = {};
    do {
        const double v = value.at(index), s = sum_abs.at(index);
        const double magnitude = std::isnan(v) ? 0.0 : std::fabs(v);
        double error = 0.0;
        switch (p.op) {
            case CUDNN_REDUCE_TENSOR_ADD:
            case CUDNN_REDUCE_TENSOR_NORM1: error = sum_error(n, s, u); break;
            case CUDNN_REDUCE_TENSOR_AVG: error = sum_error(n, s, u) / n; break;
            case CUDNN_REDUCE_TENSOR_NORM2:
                error = magnitude == 0.0 ? 0.0 : (sum_error(n, v * v, u) + u * v * v) / (2.0 * magnitude);
                break;
            case CUDNN_REDUCE_TENSOR_MUL:
            case CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS: error = sum_error(n, magnitude, u); break;
            default: break;
        }
        const double old = p.beta == 0.0 ? 0.0 : p.beta * c.at(index);
        ElementBound bound;
        bound.compute_error = std::fabs(p.alpha) * error + 4.0 * u * (std::fabs(p.alpha) * magnitude + std::fabs(old));
        bound.exact = p.alpha * v + old;
        bounds.push_back(bound);
    } while (next_index(index, p.c.dims, p.c.nb_dims));
    EXPECT_TRUE(matches_reference(result, ref, bounds, text));

    if (p.indices) {
        const std::vector<uint8_t> bytes = indices_buffer.download();
        std::vector<uint32_t> got(outputs);
        std::memcpy(got.data(), bytes.data(), outputs * sizeof(uint32_t));
        EXPECT_EQ(got, ref_indices) << text;
    }
}

TEST(ReduceTensor, MatchesReferenceOnRandomOpsTypesShapesAndLayouts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 200; ++trial) {
        ReduceProblem p = random_problem(rng);
        // Asking for indices with an op that has none is allowed: the request is ignored.
        const bool request = p.indices || (!reduce_op_has_indices(p.op) && rng.coin());
        check_against_reference(rng, p, request);
    }
}

// The layouts the CUDA kernels have fast paths for, at sizes where they split the reduction over blocks
// (cudnnGetReductionWorkspaceSize asks for the partials): per-channel over NCHW (planes as contiguous
// runs, odd planes at every alignment), per-channel over NHWC (vectors of neighbouring channels, slabs of
// pixels; 6 channels are no whole vector), over N, long rows with indices, short rows, all to one value.
TEST(ReduceTensor, MatchesReferenceOnTheLayoutsWithFastPaths) {
    LIBREDNN_SEEDED_RANDOM(rng);
    struct Shape {
        std::vector<int64_t> dims, c_dims;
        PackedLayout layout;
    };
    const std::vector<Shape> shapes = {
        {{8, 32, 56, 56}, {1, 32, 1, 1}, PackedLayout::nchw},   {{4, 16, 55, 57}, {1, 16, 1, 1}, PackedLayout::nchw},
        {{16, 64, 28, 28}, {1, 64, 1, 1}, PackedLayout::nhwc},  {{4, 256, 14, 14}, {1, 256, 1, 1}, PackedLayout::nhwc},
        {{8, 6, 30, 30}, {1, 6, 1, 1}, PackedLayout::nhwc},     {{128, 8, 16, 16}, {1, 8, 16, 16}, PackedLayout::nchw},
        {{64, 20000, 1, 1}, {64, 1, 1, 1}, PackedLayout::nchw}, {{8, 40, 16, 16}, {8, 1, 16, 16}, PackedLayout::nhwc},
        {{2, 3, 200, 200}, {1, 1, 1, 1}, PackedLayout::nchw},
    };
    const std::vector<cudnnDataType_t> types = {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16,
                                                CUDNN_DATA_INT8};
    for (const Shape &shape : shapes) {
        for (cudnnReduceTensorOp_t op : {CUDNN_REDUCE_TENSOR_ADD, CUDNN_REDUCE_TENSOR_MAX, CUDNN_REDUCE_TENSOR_MIN,
                                         CUDNN_REDUCE_TENSOR_AMAX, CUDNN_REDUCE_TENSOR_NORM2}) {
            ReduceProblem p;
            p.op = op;
            p.nan_opt = rng.coin() ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN;
            p.compute = CUDNN_DATA_FLOAT;
            const cudnnDataType_t type = rng.pick(types);
            p.a = packed_geometry(type, 4, shape.dims.data(), shape.layout);
            p.c = packed_geometry(reduce_op_has_indices(op) ? type : CUDNN_DATA_FLOAT, 4, shape.c_dims.data(),
                                  PackedLayout::nchw);
            p.indices = reduce_op_has_indices(op) && rng.coin();
            p.alpha = Scalar(random_alpha(rng), false).value();
            p.beta = Scalar(random_beta(rng), false).value();
            check_against_reference(rng, p, p.indices);
        }
    }
}

TEST(ReduceTensor, IndicesPickTheFirstOfEqualValues) {
    Handle handle;
    const int64_t a_dims[] = {1, 2, 2, 3}, c_dims[] = {1, 2, 1, 1};
    TensorDescriptor a(packed_geometry(CUDNN_DATA_FLOAT, 4, a_dims, PackedLayout::nchw));
    TensorDescriptor c(packed_geometry(CUDNN_DATA_FLOAT, 4, c_dims, PackedLayout::nchw));
    // Channel 0: the max 5 at positions 1 and 4; channel 1: the max |-7| at position 2 (AMAX).
    DeviceBuffer data(bytes_of(std::vector<float>{1, 5, 2, 0, 5, 3, 1, 2, -7, 7, 0, 1}));
    DeviceBuffer out(bytes_of(std::vector<float>(2, 0.0f)));
    DeviceBuffer indices(bytes_of(std::vector<uint32_t>(2, 99)));
    float one = 1.0f, zero = 0.0f;
    ReduceDescriptor max(CUDNN_REDUCE_TENSOR_MAX, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN,
                         CUDNN_REDUCE_TENSOR_FLATTENED_INDICES);
    size_t workspace_bytes = 0;
    ASSERT_EQ(cudnnGetReductionWorkspaceSize(handle, max, a, c, &workspace_bytes), CUDNN_STATUS_SUCCESS);
    DeviceBuffer workspace(std::vector<uint8_t>(workspace_bytes, 0));
    void *work = workspace_bytes ? workspace.get() : nullptr;
    ASSERT_EQ(cudnnReduceTensor(handle, max, indices.get(), 8, work, workspace_bytes, &one, a, data.get(), &zero, c,
                                out.get()),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(values_of<float>(out.download()), (std::vector<float>{5, 7}));
    EXPECT_EQ(values_of<uint32_t>(indices.download()), (std::vector<uint32_t>{1, 3}));
    ReduceDescriptor amax(CUDNN_REDUCE_TENSOR_AMAX, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN,
                          CUDNN_REDUCE_TENSOR_FLATTENED_INDICES);
    ASSERT_EQ(cudnnReduceTensor(handle, amax, indices.get(), 8, work, workspace_bytes, &one, a, data.get(), &zero, c,
                                out.get()),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(values_of<float>(out.download()), (std::vector<float>{5, 7}));
    EXPECT_EQ(values_of<uint32_t>(indices.download()), (std::vector<uint32_t>{1, 2}));
}

TEST(ReduceTensorRejects, DocumentedMisuse) {
    Handle handle;
    auto geometry = [](cudnnDataType_t type, std::vector<int64_t> dims) {
        return packed_geometry(type, static_cast<int>(dims.size()), dims.data(), PackedLayout::nchw);
    };
    TensorDescriptor a(geometry(CUDNN_DATA_FLOAT, {2, 3, 4, 5})), c(geometry(CUDNN_DATA_FLOAT, {2, 3, 1, 1}));
    TensorDescriptor bad_c(geometry(CUDNN_DATA_FLOAT, {2, 2, 1, 1}));
    TensorDescriptor double_a(geometry(CUDNN_DATA_DOUBLE, {2, 3, 4, 5}));
    std::vector<double> data(200, 1.0), out(6, 0.0);
    std::vector<uint32_t> indices(6, 0);
    float one = 1.0f, zero = 0.0f;
    ReduceDescriptor add(CUDNN_REDUCE_TENSOR_ADD, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN,
                         CUDNN_REDUCE_TENSOR_NO_INDICES);
    ReduceDescriptor add_half(CUDNN_REDUCE_TENSOR_ADD, CUDNN_DATA_HALF, CUDNN_NOT_PROPAGATE_NAN,
                              CUDNN_REDUCE_TENSOR_NO_INDICES);
    ReduceDescriptor max(CUDNN_REDUCE_TENSOR_MAX, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN,
                         CUDNN_REDUCE_TENSOR_FLATTENED_INDICES);
    ReduceDescriptor max64(CUDNN_REDUCE_TENSOR_MAX, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN,
                           CUDNN_REDUCE_TENSOR_FLATTENED_INDICES, CUDNN_64BIT_INDICES);
    void *d = data.data(), *o = out.data();
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnReduceTensor(handle, add, nullptr, 0, nullptr, 0, &one, a, d, &zero, a, o),
                    "nothing is reduced");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnReduceTensor(handle, add, nullptr, 0, nullptr, 0, &one, a, d, &zero, bad_c, o), "A's or 1");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnReduceTensor(handle, add_half, nullptr, 0, nullptr, 0, &one, a, d, &zero, c, o),
                    "reduceTensorCompType");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnReduceTensor(handle, add, nullptr, 0, nullptr, 0, &one, double_a, d, &zero, c, o),
                    "double data");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnReduceTensor(handle, max64, indices.data(), 48, nullptr, 0, &one, a, d, &zero, c, o),
                    "CUDNN_32BIT_INDICES");
    EXPECT_REJECTED(CUDNN_STATUS_INVALID_VALUE,
                    cudnnReduceTensor(handle, max, indices.data(), 8, nullptr, 0, &one, a, d, &zero, c, o),
                    "indicesSizeInBytes is 8");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnReduceTensor(handle, max, nullptr, 24, nullptr, 0, &one, a, d, &zero, c, o),
                    "indices is NULL");
    size_t size = 0;
    EXPECT_EQ(cudnnGetReductionIndicesSize(handle, max, a, c, &size), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(size, 6 * sizeof(uint32_t));
    EXPECT_EQ(cudnnGetReductionIndicesSize(handle, add, a, c, &size), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(size, 0u);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetReductionWorkspaceSize(handle, add, a, bad_c, &size), "A's or 1");
}

}  // namespace
