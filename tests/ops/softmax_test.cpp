// cudnnSoftmaxForward and cudnnSoftmaxBackward against the reference, and their rejections.
#include "reference/softmax.hpp"
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>

namespace {

using namespace librednn;
using namespace librednn::test;

const std::vector<cudnnDataType_t> kTypes = {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16};
const std::vector<cudnnSoftmaxAlgorithm_t> kAlgorithms = {CUDNN_SOFTMAX_FAST, CUDNN_SOFTMAX_ACCURATE,
                                                          CUDNN_SOFTMAX_LOG};
const std::vector<cudnnSoftmaxMode_t> kModes = {CUDNN_SOFTMAX_MODE_INSTANCE, CUDNN_SOFTMAX_MODE_CHANNEL};

SoftmaxProblem random_problem(Random &rng, Direction direction) {
    SoftmaxProblem p;
    p.direction = direction;
    p.algorithm = rng.pick(kAlgorithms);
    p.mode = rng.pick(kModes);
    const cudnnDataType_t dtype = rng.pick(kTypes);
    const auto dims = random_dims(rng, static_cast<int>(rng.integer(3, 5)), 7);
    p.y = make_geometry(rng, dtype, dims, rng.pick(all_layout_kinds()));
    if (direction == Direction::forward) {
        p.x = rng.coin() ? p.y : make_geometry(rng, dtype, dims, rng.pick(all_layout_kinds()));
    } else {
        p.dy = make_geometry(rng, dtype, dims, rng.pick(all_layout_kinds()));
        p.dx = rng.coin() ? p.y : make_geometry(rng, dtype, dims, rng.pick(all_layout_kinds()));
    }
    const bool in_double = dtype == CUDNN_DATA_DOUBLE;
    p.alpha = Scalar(random_alpha(rng), in_double).value();
    p.beta = Scalar(random_beta(rng), in_double).value();
    return p;
}

int64_t group_size(const SoftmaxProblem &p) {
    const TensorGeometry &g = p.result();
    return p.mode == CUDNN_SOFTMAX_MODE_CHANNEL ? g.dims[1] : g.element_count() / g.dims[0];
}

// A packed double copy of `geometry`'s dims, for exact intermediate values.
TensorGeometry double_geometry(const TensorGeometry &geometry) {
    return packed_geometry(CUDNN_DATA_DOUBLE, geometry.nb_dims, geometry.dims, PackedLayout::nchw);
}

// For every element in next_index() order, the sum of term(index) over its softmax group (all of
// C, H, W for INSTANCE; C at one position for CHANNEL).
template <class Term>
std::vector<double> group_sums(const SoftmaxProblem &p, Term &&term) {
    const TensorGeometry &g = p.result();
    const bool channel = p.mode == CUDNN_SOFTMAX_MODE_CHANNEL;
    // The group of an element: its index with the summed dims set to 0, packed row-major.
    auto group_of = [&](const int64_t *index) {
        int64_t key = 0;
        for (int i = 0; i < g.nb_dims; ++i) {
            const bool summed = channel ? i == 1 : i >= 1;
            key = key * g.dims[i] + (summed ? 0 : index[i]);
        }
        return key;
    };
    std::map<int64_t, double> sums;
    int64_t index[kMaxDims] = {};
    do {
        sums[group_of(index)] += term(index);
    } while (next_index(index, g.dims, g.nb_dims));
    std::vector<double> per_element;
    do {
        per_element.push_back(sums[group_of(index)]);
    } while (next_index(index, g.dims, g.nb_dims));
    return per_element;
}

// Packs every tensor the problem uses anew with `dims`, in the layout `layout_of()` returns; it is asked once per
// tensor, in the order x, y, dy, dx, so that a random choice replays from the seed.
void repack_tensors(SoftmaxProblem *p, const int64_t (&dims)[4], const std::function<PackedLayout()> &layout_of) {
    for (TensorGeometry *g : {&p->x, &p->y, &p->dy, &p->dx}) {
        if (g->nb_dims) *g = packed_geometry(g->dtype, 4, dims, layout_of());
    }
}

// Runs `p` through the API and the reference and compares. In place (forward only), x is y's memory:
// the output starts as the input, and beta blends the input.
void check_against_reference(Random &rng, const SoftmaxProblem &p, bool in_place = false) {
    const std::string text = to_problem_string(p).to_string() + (in_place ? " (in place)" : "");
    SCOPED_TRACE(text);
    const bool forward = p.direction == Direction::forward;
    const TensorGeometry &g = p.result();
    HostTensor x, y, dy;
    if (forward) {
        x = HostTensor(p.x);
        fill_uniform(x, rng, -4.0, 4.0);
    } else {
        // y from the forward pass of random x, so that it is a softmax (or log-softmax) output.
        HostTensor source(double_geometry(g));
        fill_uniform(source, rng, -4.0, 4.0);
        y = HostTensor(p.y);
        SoftmaxProblem make_y;
        make_y.algorithm = p.algorithm;
        make_y.mode = p.mode;
        make_y.x = source.geometry;
        make_y.y = p.y;
        SoftmaxBuffers b;
        b.x = source.data();
        b.result = y.data();
        reference::softmax(make_y, b);
        dy = HostTensor(p.dy);
        fill_uniform(dy, rng, -2.0, 2.0);
    }
    HostTensor out(g);
    if (in_place) {
        out = x;
    } else if (p.beta == 0.0) {
        poison(out);
    } else {
        fill_uniform(out, rng, -2.0, 2.0);
    }
    HostTensor ref = out;
    SoftmaxBuffers host_buffers;
    host_buffers.x = forward ? (in_place ? ref.data() : x.data()) : nullptr;
    host_buffers.y = forward ? nullptr : y.data();
    host_buffers.dy = forward ? nullptr : dy.data();
    host_buffers.result = ref.data();
    reference::softmax(p, host_buffers);
    host_buffers.x = forward ? x.data() : nullptr;

    // The unblended values in double, for the error bounds.
    SoftmaxProblem unblended = p;
    unblended.alpha = 1.0;
    unblended.beta = 0.0;
    HostTensor value(double_geometry(g));
    (forward ? unblended.y : unblended.dx) = value.geometry;
    SoftmaxBuffers value_buffers = host_buffers;
    value_buffers.result = value.data();
    reference::softmax(unblended, value_buffers);

    Handle handle;
    const bool in_double = g.dtype == CUDNN_DATA_DOUBLE;
    const Scalar alpha(p.alpha, in_double), beta(p.beta, in_double);
    DeviceBuffer out_buffer(out.bytes);
    TensorDescriptor out_desc(g);
    if (forward) {
        DeviceBuffer x_buffer(x.bytes);
        TensorDescriptor x_desc(p.x);
        ASSERT_EQ(
            cudnnSoftmaxForward(handle, p.algorithm, p.mode, alpha.get(), x_desc,
                                in_place ? out_buffer.get() : x_buffer.get(), beta.get(), out_desc, out_buffer.get()),
            CUDNN_STATUS_SUCCESS);
    } else {
        DeviceBuffer y_buffer(y.bytes), dy_buffer(dy.bytes);
        TensorDescriptor y_desc(p.y), dy_desc(p.dy);
        ASSERT_EQ(cudnnSoftmaxBackward(handle, p.algorithm, p.mode, alpha.get(), y_desc, y_buffer.get(), dy_desc,
                                       dy_buffer.get(), beta.get(), out_desc, out_buffer.get()),
                  CUDNN_STATUS_SUCCESS);
    }
    HostTensor result(g);
    result.bytes = out_buffer.download();

    // The compute error (tolerances.hpp). Each group sums n terms: forward the positive e^(x - max),
    // whose sum errs relatively by sum_error(n, 1) and scales every output (relative) or, for LOG,
    // shifts it by its logarithm (absolute); backward the dot product sum dy y, or for LOG the sum of
    // dy times e^y, err by sum_error(n, sum of their terms' magnitudes). Around the sum, each element
    // takes a few element-wise steps (tolerances.hpp's step eps per unit of its terms).
    const double n = static_cast<double>(group_size(p));
    const double u = accumulation_roundoff(g.dtype);
    const double step = tolerance_for(g.dtype == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT).compute_eps;
    const double relative_sum = sum_error(n, 1.0, u);
    std::vector<double> sum_terms;
    if (!forward) {
        sum_terms = group_sums(p, [&](const int64_t *i) {
            return p.algorithm == CUDNN_SOFTMAX_LOG ? std::fabs(dy.at(i)) : std::fabs(dy.at(i) * y.at(i));
        });
    }
    std::vector<ElementBound> bounds;
    int64_t index[kMaxDims] = {};
    do {
        const double v = std::fabs(value.at(index));
        const double old = p.beta == 0.0 ? 0.0 : std::fabs(p.beta * out.at(index));
        double error = 0.0;
        if (forward) {
            const double xi = std::fabs(x.at(index));
            error = p.algorithm == CUDNN_SOFTMAX_LOG ? relative_sum + step * (v + xi + 4.0)
                                                     : v * (relative_sum + step * (1.0 + xi + 4.0));
        } else {
            const double yi = y.at(index), dyi = std::fabs(dy.at(index));
            const double terms = sum_terms[bounds.size()];
            error = p.algorithm == CUDNN_SOFTMAX_LOG
                        ? step * dyi + std::exp(yi) * (sum_error(n, terms, u) + step * terms)
                        : std::fabs(yi) * (sum_error(n, terms, u) + step * (dyi + terms));
        }
        bounds.push_back(ElementBound{std::fabs(p.alpha) * error + step * old});
    } while (next_index(index, g.dims, g.nb_dims));
    EXPECT_TRUE(matches_reference(result, ref, bounds, text));
}

TEST(Softmax, ForwardMatchesReferenceOnRandomShapesLayoutsAndTypes) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 150; ++trial) check_against_reference(rng, random_problem(rng, Direction::forward));
}

TEST(Softmax, BackwardMatchesReferenceOnRandomShapesLayoutsAndTypes) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 150; ++trial) check_against_reference(rng, random_problem(rng, Direction::backward));
}

TEST(Softmax, LongRowsMatchReference) {
    // One instance of a few thousand classes, as a classifier head: the sums are long.
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 6; ++trial) {
        SoftmaxProblem p = random_problem(rng, trial % 2 ? Direction::forward : Direction::backward);
        const int64_t dims[] = {2, rng.integer(1000, 5000), 1, 1};
        repack_tensors(&p, dims, [&rng] { return rng.coin() ? PackedLayout::nchw : PackedLayout::nhwc; });
        check_against_reference(rng, p);
    }
}

TEST(Softmax, RowsOfThousandsOfVectorsMatchReference) {
    // Rows of 1025 to 16384 16-byte vectors (backward: 8192), contiguous and packed: the CUDA backend holds
    // each in the registers of a cluster of 1 to 8 blocks. Now and then a length that is not whole vectors.
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 10; ++trial) {
        SoftmaxProblem p = random_problem(rng, trial % 2 ? Direction::forward : Direction::backward);
        p.mode = CUDNN_SOFTMAX_MODE_INSTANCE;
        const int64_t lanes = 16 / static_cast<int64_t>(data_type_size(p.result().dtype));
        const bool forward = p.direction == Direction::forward;
        int64_t length = lanes * rng.integer(1025, forward ? 16384 : 8192);
        if (rng.integer(0, 4) == 0) length += 1;
        const int64_t dims[] = {rng.integer(1, 3), length, 1, 1};
        repack_tensors(&p, dims, [] { return PackedLayout::nchw; });
        check_against_reference(rng, p);
    }
}

TEST(Softmax, ChannelModeOnNchwMatchesReference) {
    // CHANNEL mode on packed NCHW with tens to hundreds of pixels: the CUDA backend's channel tiles.
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 12; ++trial) {
        SoftmaxProblem p = random_problem(rng, trial % 2 ? Direction::forward : Direction::backward);
        p.mode = CUDNN_SOFTMAX_MODE_CHANNEL;
        const int64_t dims[] = {rng.integer(1, 3), rng.integer(2, 200), rng.integer(4, 20), rng.integer(8, 20)};
        repack_tensors(&p, dims, [] { return PackedLayout::nchw; });
        check_against_reference(rng, p);
    }
}

TEST(Softmax, InPlaceForwardMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 20; ++trial) {
        SoftmaxProblem p = random_problem(rng, Direction::forward);
        p.x = p.y;
        check_against_reference(rng, p, true);
    }
}

TEST(SoftmaxRejects, DocumentedMisuse) {
    Handle handle;
    const int64_t dims[] = {2, 3, 4, 5}, other[] = {2, 3, 4, 6};
    TensorDescriptor x(packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw));
    TensorDescriptor wide(packed_geometry(CUDNN_DATA_FLOAT, 4, other, PackedLayout::nchw));
    TensorDescriptor half(packed_geometry(CUDNN_DATA_HALF, 4, dims, PackedLayout::nchw));
    TensorDescriptor ints(packed_geometry(CUDNN_DATA_INT32, 4, dims, PackedLayout::nchw));
    std::vector<float> a(200, 0.0f), b(200, 0.0f);
    float one = 1.0f, zero = 0.0f;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSoftmaxForward(handle, static_cast<cudnnSoftmaxAlgorithm_t>(3), CUDNN_SOFTMAX_MODE_INSTANCE,
                                        &one, x, a.data(), &zero, x, b.data()),
                    "algo is 3");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_ACCURATE, static_cast<cudnnSoftmaxMode_t>(7), &one, x,
                                        a.data(), &zero, x, b.data()),
                    "mode is 7");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, &one, x, a.data(),
                                        &zero, wide, b.data()),
                    "same dims");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, &one, x, a.data(),
                                        &zero, half, b.data()),
                    "same data type");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, &one, ints,
                                        a.data(), &zero, ints, b.data()),
                    "CUDNN_DATA_INT32");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSoftmaxBackward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, &one, x, a.data(),
                                         x, nullptr, &zero, x, b.data()),
                    "dy is NULL");
}

}  // namespace
