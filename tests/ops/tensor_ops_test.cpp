// cudnnAddTensor, cudnnOpTensor, cudnnSetTensor and cudnnScaleTensor against the reference, and their
// rejections.
#include "reference/tensor_ops.hpp"
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace librednn;
using namespace librednn::test;

const std::vector<cudnnDataType_t> kFloatTypes = {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF,
                                                  CUDNN_DATA_BFLOAT16};

// Dims of a tensor that broadcasts to `full`: each dim full's or (randomly, or all but C for a bias) 1.
std::vector<int64_t> broadcast_dims(Random &rng, const std::vector<int64_t> &full) {
    std::vector<int64_t> dims = full;
    const bool bias = rng.coin();
    for (size_t i = 0; i < dims.size(); ++i) {
        if (bias ? i != 1 : rng.coin()) dims[i] = 1;
    }
    return dims;
}

// --- cudnnAddTensor -------------------------------------------------------------------------------------

TEST(AddTensor, MatchesReferenceOnRandomBroadcastsLayoutsAndTypes) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    for (int trial = 0; trial < 150; ++trial) {
        AddTensorProblem p;
        const cudnnDataType_t dtype = rng.pick(kFloatTypes);
        const auto dims = random_dims(rng, static_cast<int>(rng.integer(3, 5)), 7);
        p.c = make_geometry(rng, dtype, dims, rng.pick(all_layout_kinds()));
        p.a = make_geometry(rng, dtype, rng.coin() ? broadcast_dims(rng, dims) : dims, rng.pick(all_layout_kinds()));
        const bool in_double = dtype == CUDNN_DATA_DOUBLE;
        p.alpha = Scalar(random_alpha(rng), in_double).value();
        p.beta = Scalar(random_beta(rng), in_double).value();
        const std::string text = to_problem_string(p).to_string();
        SCOPED_TRACE(text);

        HostTensor a(p.a), c(p.c);
        fill_uniform(a, rng, -2.0, 2.0);
        if (p.beta == 0.0) {
            poison(c);
        } else {
            fill_uniform(c, rng, -2.0, 2.0);
        }
        HostTensor ref = c;
        reference::add_tensor(p, {a.data(), ref.data()});

        const Scalar alpha(p.alpha, in_double), beta(p.beta, in_double);
        DeviceBuffer a_buffer(a.bytes), c_buffer(c.bytes);
        TensorDescriptor a_desc(p.a), c_desc(p.c);
        ASSERT_EQ(cudnnAddTensor(handle, alpha.get(), a_desc, a_buffer.get(), beta.get(), c_desc, c_buffer.get()),
                  CUDNN_STATUS_SUCCESS);
        HostTensor result(p.c);
        result.bytes = c_buffer.download();
        // One element-wise step: the terms are alpha A and beta C.
        const TensorGeometry a_view = broadcast_view(p.a, p.c);
        std::vector<double> magnitudes;
        int64_t index[kMaxDims] = {};
        do {
            const double a_value = load_scalar(a.data(), a_view.dtype, a_view.offset(index));
            magnitudes.push_back(std::fabs(p.alpha * a_value) +
                                 (p.beta == 0.0 ? 0.0 : std::fabs(p.beta * c.at(index))));
        } while (next_index(index, p.c.dims, p.c.nb_dims));
        EXPECT_TRUE(matches_reference(result, ref, magnitudes, text));
    }
}

TEST(AddTensorRejects, DocumentedMisuse) {
    Handle handle;
    float one = 1.0f;
    std::vector<float> data(1000, 0.0f);
    auto geometry = [](cudnnDataType_t type, std::vector<int64_t> dims) {
        return packed_geometry(type, static_cast<int>(dims.size()), dims.data(), PackedLayout::nchw);
    };
    TensorDescriptor c(geometry(CUDNN_DATA_FLOAT, {2, 3, 4, 5}));
    TensorDescriptor bad_bias(geometry(CUDNN_DATA_FLOAT, {1, 2, 1, 1}));
    TensorDescriptor half_bias(geometry(CUDNN_DATA_HALF, {1, 3, 1, 1}));
    TensorDescriptor bias5(geometry(CUDNN_DATA_FLOAT, {1, 3, 1, 1, 1}));
    TensorDescriptor big_c(geometry(CUDNN_DATA_FLOAT, {1, 2, 1, 1, 1, 2}));
    TensorDescriptor big_a(geometry(CUDNN_DATA_FLOAT, {1, 2, 1, 1, 1, 1}));
    TensorDescriptor int_c(geometry(CUDNN_DATA_INT32, {2, 3, 4, 5}));
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnAddTensor(handle, &one, bad_bias, data.data(), &one, c, data.data()),
                    "C's or 1");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnAddTensor(handle, &one, bias5, data.data(), &one, c, data.data()),
                    "as many dims");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnAddTensor(handle, &one, half_bias, data.data(), &one, c, data.data()),
                    "same data type");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnAddTensor(handle, &one, big_a, data.data(), &one, big_c, data.data()), "up to 5");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnAddTensor(handle, &one, int_c, data.data(), &one, int_c, data.data()), "CUDNN_DATA_INT32");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnAddTensor(handle, &one, c, nullptr, &one, c, data.data()),
                    "A is NULL");
}

// --- cudnnOpTensor --------------------------------------------------------------------------------------

struct OpTensorTypes {
    cudnnDataType_t compute, in, out;
};
const std::vector<OpTensorTypes> kOpTensorTypes = {
    {CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT},
    {CUDNN_DATA_FLOAT, CUDNN_DATA_INT8, CUDNN_DATA_FLOAT},
    {CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE},
    {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_HALF},
    {CUDNN_DATA_FLOAT, CUDNN_DATA_INT8, CUDNN_DATA_INT8},
    {CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_HALF},
    {CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_INT8},
    {CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_BFLOAT16},
    {CUDNN_DATA_FLOAT, CUDNN_DATA_BFLOAT16, CUDNN_DATA_BFLOAT16},
};
const std::vector<cudnnOpTensorOp_t> kOps = {CUDNN_OP_TENSOR_ADD, CUDNN_OP_TENSOR_MUL,  CUDNN_OP_TENSOR_MIN,
                                             CUDNN_OP_TENSOR_MAX, CUDNN_OP_TENSOR_SQRT, CUDNN_OP_TENSOR_NOT};

class OpTensorDescriptor {
public:
    OpTensorDescriptor(cudnnOpTensorOp_t op, cudnnDataType_t compute, cudnnNanPropagation_t nan_opt) {
        EXPECT_EQ(cudnnCreateOpTensorDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetOpTensorDescriptor(desc_, op, compute, nan_opt), CUDNN_STATUS_SUCCESS);
    }
    ~OpTensorDescriptor() { cudnnDestroyOpTensorDescriptor(desc_); }
    operator cudnnOpTensorDescriptor_t() const { return desc_; }

private:
    cudnnOpTensorDescriptor_t desc_ = nullptr;
};

TEST(OpTensor, MatchesReferenceOnRandomOpsTypesBroadcastsAndLayouts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    for (int trial = 0; trial < 200; ++trial) {
        OpTensorProblem p;
        const OpTensorTypes types = rng.pick(kOpTensorTypes);
        p.op = rng.pick(kOps);
        p.compute = types.compute;
        p.nan_opt = rng.coin() ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN;
        const auto dims = random_dims(rng, static_cast<int>(rng.integer(3, 5)), 7);
        p.c = make_geometry(rng, types.out, dims, rng.pick(all_layout_kinds()));
        p.a = make_geometry(rng, types.in, dims, rng.pick(all_layout_kinds()));
        p.b = make_geometry(rng, types.in, rng.coin() ? broadcast_dims(rng, dims) : dims, rng.pick(all_layout_kinds()));
        const bool in_double = types.compute == CUDNN_DATA_DOUBLE;
        p.alpha1 = Scalar(random_alpha(rng), in_double).value();
        p.alpha2 = Scalar(random_alpha(rng), in_double).value();
        p.beta = Scalar(random_beta(rng), in_double).value();
        const std::string text = to_problem_string(p).to_string();
        SCOPED_TRACE(text);

        const bool ints = types.in == CUDNN_DATA_INT8;
        const double range = ints ? 20.0 : 3.0;
        HostTensor a(p.a), b(p.b), c(p.c);
        fill_uniform(a, rng, -range, range);
        fill_uniform(b, rng, -range, range);
        if (!ints && rng.integer(0, 3) == 0) {
            // A few NaNs, for the NaN option of MIN and MAX.
            int64_t index[kMaxDims] = {};
            do {
                if (rng.integer(0, 9) == 0) a.set(index, std::nan(""));
            } while (next_index(index, p.a.dims, p.a.nb_dims));
        }
        if (p.beta == 0.0) {
            poison(c);
        } else {
            fill_uniform(c, rng, -range, range);
        }
        HostTensor ref = c;
        reference::op_tensor(p, {a.data(), b.data(), ref.data()});

        OpTensorDescriptor desc(p.op, p.compute, p.nan_opt);
        const Scalar alpha1(p.alpha1, in_double), alpha2(p.alpha2, in_double), beta(p.beta, in_double);
        DeviceBuffer a_buffer(a.bytes), b_buffer(b.bytes);
        TensorDescriptor a_desc(p.a), b_desc(p.b), c_desc(p.c);
        auto run = [&](const std::vector<uint8_t> &initial) {
            DeviceBuffer c_buffer(initial);
            EXPECT_EQ(cudnnOpTensor(handle, desc, alpha1.get(), a_desc, a_buffer.get(), alpha2.get(), b_desc,
                                    b_buffer.get(), beta.get(), c_desc, c_buffer.get()),
                      CUDNN_STATUS_SUCCESS);
            return c_buffer.download();
        };
        HostTensor result(p.c);
        result.bytes = p.beta == 0.0 ? run_poisoned(c, run) : run(c.bytes);

        // One element-wise step: the terms are alpha1 A and alpha2 B (their product for MUL, 1 for NOT)
        // and beta C. The exact results (for integer C) come from the reference run in double.
        HostTensor exact = widened(c);
        OpTensorProblem wide = p;
        wide.c = exact.geometry;
        reference::op_tensor(wide, {a.data(), b.data(), exact.data()});
        const TensorGeometry b_view = p.unary() ? p.a : broadcast_view(p.b, p.c);
        const double eps = tolerance_for(p.c.dtype).compute_eps;
        std::vector<ElementBound> bounds;
        int64_t index[kMaxDims] = {};
        do {
            const double a_term = std::fabs(p.alpha1 * a.at(index));
            const double b_term =
                p.unary() ? 0.0 : std::fabs(p.alpha2 * load_scalar(b.data(), b_view.dtype, b_view.offset(index)));
            double terms = a_term + b_term;
            if (p.op == CUDNN_OP_TENSOR_MUL) terms = a_term * b_term;
            if (p.op == CUDNN_OP_TENSOR_SQRT) terms = std::sqrt(a_term);
            if (p.op == CUDNN_OP_TENSOR_NOT) terms = 1.0 + a_term;
            if (std::isnan(terms)) terms = 0.0;
            const double old = p.beta == 0.0 ? 0.0 : std::fabs(p.beta * c.at(index));
            bounds.push_back(ElementBound{eps * (terms + old), exact.at(index)});
        } while (next_index(index, p.c.dims, p.c.nb_dims));
        EXPECT_TRUE(matches_reference(result, ref, bounds, text));
    }
}

TEST(OpTensorRejects, DocumentedMisuse) {
    Handle handle;
    float one = 1.0f;
    double one_d = 1.0;
    std::vector<float> data(1000, 0.0f);
    auto geometry = [](cudnnDataType_t type, std::vector<int64_t> dims) {
        return packed_geometry(type, static_cast<int>(dims.size()), dims.data(), PackedLayout::nchw);
    };
    TensorDescriptor c(geometry(CUDNN_DATA_FLOAT, {2, 3, 4, 5}));
    TensorDescriptor small_a(geometry(CUDNN_DATA_FLOAT, {1, 3, 4, 5}));
    TensorDescriptor bad_b(geometry(CUDNN_DATA_FLOAT, {2, 2, 4, 5}));
    TensorDescriptor half_c(geometry(CUDNN_DATA_HALF, {2, 3, 4, 5}));
    TensorDescriptor double_c(geometry(CUDNN_DATA_DOUBLE, {2, 3, 4, 5}));
    TensorDescriptor six(geometry(CUDNN_DATA_FLOAT, {1, 2, 1, 1, 1, 2}));
    OpTensorDescriptor add(CUDNN_OP_TENSOR_ADD, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN);
    OpTensorDescriptor add_in_double(CUDNN_OP_TENSOR_ADD, CUDNN_DATA_DOUBLE, CUDNN_NOT_PROPAGATE_NAN);
    void *d = data.data();
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnOpTensor(handle, add, &one, small_a, d, &one, c, d, &one, c, d),
                    "A must have C's dims");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnOpTensor(handle, add, &one, c, d, &one, bad_b, d, &one, c, d),
                    "C's or 1");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnOpTensor(handle, add, &one, six, d, &one, six, d, &one, six, d),
                    "up to 5");
    // half A and B with a float C is not in cuDNN's table; float data computed in double is.
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnOpTensor(handle, add, &one, half_c, d, &one, half_c, d, &one, c, d),
                    "CUDNN_DATA_HALF");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnOpTensor(handle, add_in_double, &one_d, c, d, &one_d, c, d, &one_d, c, d), "opTensorCompType");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnOpTensor(handle, add, &one, double_c, d, &one, double_c, d, &one, double_c, d),
                    "opTensorCompType");
    cudnnOpTensorDescriptor_t unset = nullptr;
    ASSERT_EQ(cudnnCreateOpTensorDescriptor(&unset), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnOpTensor(handle, unset, &one, c, d, &one, c, d, &one, c, d),
                    "opTensorDesc");
    cudnnDestroyOpTensorDescriptor(unset);
}

TEST(OpTensor, UnaryOpsIgnoreB) {
    Handle handle;
    const int64_t dims[] = {1, 2, 2, 2};
    TensorDescriptor desc(packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw));
    TensorDescriptor unrelated(packed_geometry(CUDNN_DATA_HALF, 4, dims, PackedLayout::nchw));
    DeviceBuffer a(bytes_of(std::vector<float>{0, 1, 4, 9, 16, 25, 36, 49}));
    DeviceBuffer mask(bytes_of(std::vector<float>{0, 1, 1, 0, 0, 0, 1, 1}));
    DeviceBuffer c(bytes_of(std::vector<float>(8, -1.0f)));
    float one = 1.0f, zero = 0.0f;
    OpTensorDescriptor sqrt_op(CUDNN_OP_TENSOR_SQRT, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN);
    ASSERT_EQ(cudnnOpTensor(handle, sqrt_op, &one, desc, a.get(), &one, unrelated, nullptr, &zero, desc, c.get()),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(values_of<float>(c.download()), (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
    OpTensorDescriptor not_op(CUDNN_OP_TENSOR_NOT, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN);
    ASSERT_EQ(cudnnOpTensor(handle, not_op, &one, desc, mask.get(), &one, desc, nullptr, &zero, desc, c.get()),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(values_of<float>(c.download()), (std::vector<float>{1, 0, 0, 1, 1, 1, 0, 0}));
}

// --- cudnnSetTensor / cudnnScaleTensor -----------------------------------------------------------------

// Setting stores the value, already in y's type: exact. Scaling is one multiplication: its term is
// alpha y, and integer results are exact up to a tie of the exact product.
std::vector<ElementBound> set_tensor_bounds(const SetTensorProblem &p, const HostTensor &y) {
    const double eps = tolerance_for(p.y.dtype).compute_eps;
    std::vector<ElementBound> bounds;
    int64_t index[kMaxDims] = {};
    do {
        if (p.kind == SetTensorProblem::Kind::set) {
            bounds.push_back(ElementBound{0.0, p.value});
        } else {
            const double product = p.value * y.at(index);
            bounds.push_back(ElementBound{eps * std::fabs(product), product});
        }
    } while (next_index(index, p.y.dims, p.y.nb_dims));
    return bounds;
}

const std::vector<cudnnDataType_t> kSetTypes = {
    CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF,   CUDNN_DATA_BFLOAT16, CUDNN_DATA_INT8,
    CUDNN_DATA_UINT8, CUDNN_DATA_INT32,  CUDNN_DATA_INT8x4, CUDNN_DATA_UINT8x4,  CUDNN_DATA_INT8x32};

TEST(SetAndScaleTensor, MatchReferenceOnRandomTypesAndLayouts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    for (int trial = 0; trial < 200; ++trial) {
        SetTensorProblem p;
        p.kind = rng.coin() ? SetTensorProblem::Kind::set : SetTensorProblem::Kind::scale;
        const cudnnDataType_t dtype = rng.pick(kSetTypes);
        const int lanes = vector_count(dtype);
        const auto dims = random_dims(rng, static_cast<int>(rng.integer(3, 5)), lanes > 1 ? 64 : 7, lanes);
        std::vector<int64_t> small = dims;
        for (size_t i = 0; i < small.size(); ++i) {
            if (i != 1) small[i] = std::min<int64_t>(small[i], 4);
        }
        p.y = make_geometry(rng, dtype, small, rng.pick(all_layout_kinds()));
        const bool unsigned_type = scalar_type_of(dtype) == CUDNN_DATA_UINT8;
        const double low = unsigned_type ? 0.0 : -100.0;
        HostTensor y(p.y);
        fill_uniform(y, rng, low, 100.0);
        // The value as y's type holds it; alpha as a float (double for double data).
        HostTensor value_holder(
            packed_geometry(scalar_type_of(dtype), 1, std::vector<int64_t>{1}.data(), PackedLayout::nchw));
        const int64_t zero_index[kMaxDims] = {};
        value_holder.set(zero_index, rng.uniform(low, 100.0));
        const Scalar alpha(rng.uniform(-3.0, 3.0), dtype == CUDNN_DATA_DOUBLE);
        p.value = p.kind == SetTensorProblem::Kind::set ? value_holder.at(zero_index) : alpha.value();
        const std::string text = to_problem_string(p).to_string();
        SCOPED_TRACE(text);
        HostTensor ref = y;
        reference::set_tensor(p, {ref.data()});

        DeviceBuffer y_buffer(y.bytes);
        TensorDescriptor y_desc(p.y);
        if (p.kind == SetTensorProblem::Kind::set) {
            ASSERT_EQ(cudnnSetTensor(handle, y_desc, y_buffer.get(), value_holder.data()), CUDNN_STATUS_SUCCESS);
        } else {
            ASSERT_EQ(cudnnScaleTensor(handle, y_desc, y_buffer.get(), alpha.get()), CUDNN_STATUS_SUCCESS);
        }
        HostTensor result(p.y);
        result.bytes = y_buffer.download();
        EXPECT_TRUE(matches_reference(result, ref, set_tensor_bounds(p, y), text));
    }
}

TEST(SetAndScaleTensor, EightDimVectorisedTensorsMatchReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    const std::vector<int64_t> dims = {2, 8, 2, 1, 2, 1, 2, 3};
    for (const bool set : {true, false}) {
        SetTensorProblem p;
        p.kind = set ? SetTensorProblem::Kind::set : SetTensorProblem::Kind::scale;
        p.y = make_geometry(rng, CUDNN_DATA_INT8x4, dims, LayoutKind::padded);
        p.value = set ? -3.0 : static_cast<double>(0.7f);  // no product of an int8 with it is a tie
        const std::string text = to_problem_string(p).to_string();
        SCOPED_TRACE(text);
        HostTensor y(p.y);
        fill_uniform(y, rng, -100.0, 100.0);
        HostTensor ref = y;
        reference::set_tensor(p, {ref.data()});
        DeviceBuffer buffer(y.bytes);
        TensorDescriptor desc(p.y);
        const int8_t value = -3;
        const float alpha = 0.7f;
        ASSERT_EQ(set ? cudnnSetTensor(handle, desc, buffer.get(), &value)
                      : cudnnScaleTensor(handle, desc, buffer.get(), &alpha),
                  CUDNN_STATUS_SUCCESS);
        HostTensor result(p.y);
        result.bytes = buffer.download();
        EXPECT_TRUE(matches_reference(result, ref, set_tensor_bounds(p, y), text));
    }
}

TEST(SetAndScaleTensorRejects, UnsupportedTypesAndNullPointers) {
    Handle handle;
    const int64_t dims[] = {1, 2, 3, 4};
    TensorDescriptor y(packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw));
    TensorDescriptor booleans(packed_geometry(CUDNN_DATA_BOOLEAN, 4, dims, PackedLayout::nchw));
    std::vector<double> data(24, 0.0);
    float value = 1.0f;
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnSetTensor(handle, booleans, data.data(), &value),
                    "CUDNN_DATA_BOOLEAN");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnScaleTensor(handle, booleans, data.data(), &value),
                    "CUDNN_DATA_BOOLEAN");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetTensor(handle, y, data.data(), nullptr), "valuePtr is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnScaleTensor(handle, y, nullptr, &value), "y is NULL");
}

}  // namespace
