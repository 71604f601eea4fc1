// The CUDA tensor kernels (src/cuda/tensor_ops) called directly, against plain host loops in double
// written here: transform (padding and folding too), add, set, scale, activation forward/backward, op
// tensor, reduce and softmax,
// on random shapes, strides, layouts and types. Every output buffer starts poisoned (all bytes 0xff:
// NaN for floating types) and must keep the poison in the gaps between its elements; with beta = 0
// the poison must never reach a result.
#include "../ops/tolerances.hpp"
#include "gpu_test_util.hpp"

#include "core/data_type.hpp"
#include "core/numeric_types.hpp"
#include "cuda/activation/activation.hpp"
#include "cuda/reduce/reduce.hpp"
#include "cuda/softmax/softmax.hpp"
#include "cuda/tensor/op_tensor.hpp"
#include "cuda/transform/transform.hpp"
#include "cuda/transform/transform_reshape.hpp"
#include "ops/common/tensor_geometry.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using librednn::kMaxDims;
using librednn::TensorGeometry;
using librednn::test::allowed_error;
using librednn::test::integer_within_rounding;
using librednn::test::tolerance_for;

// --- host scalars ---------------------------------------------------------------------------------

cudnnDataType_t scalar_of(cudnnDataType_t type) {
    switch (type) {
        case CUDNN_DATA_INT8x4:
        case CUDNN_DATA_INT8x32: return CUDNN_DATA_INT8;
        case CUDNN_DATA_UINT8x4: return CUDNN_DATA_UINT8;
        default: return type;
    }
}

size_t scalar_bytes(cudnnDataType_t type) {
    return librednn::data_type_size(type) / static_cast<size_t>(librednn::vector_count(type));
}

bool is_integer(cudnnDataType_t type) {
    const cudnnDataType_t s = scalar_of(type);
    return s == CUDNN_DATA_INT8 || s == CUDNN_DATA_UINT8 || s == CUDNN_DATA_INT32;
}

double read_scalar(const uint8_t *base, cudnnDataType_t type, int64_t offset) {
    const uint8_t *at = base + offset * static_cast<int64_t>(scalar_bytes(type));
    switch (scalar_of(type)) {
        case CUDNN_DATA_FLOAT: {
            float v;
            std::memcpy(&v, at, sizeof v);
            return v;
        }
        case CUDNN_DATA_DOUBLE: {
            double v;
            std::memcpy(&v, at, sizeof v);
            return v;
        }
        case CUDNN_DATA_HALF: {
            librednn::Half v;
            std::memcpy(&v.bits, at, 2);
            return librednn::half_to_float(v);
        }
        case CUDNN_DATA_BFLOAT16: {
            librednn::BFloat16 v;
            std::memcpy(&v.bits, at, 2);
            return librednn::bfloat16_to_float(v);
        }
        case CUDNN_DATA_INT8: return static_cast<int8_t>(*at);
        case CUDNN_DATA_UINT8: return *at;
        case CUDNN_DATA_INT32: {
            int32_t v;
            std::memcpy(&v, at, sizeof v);
            return v;
        }
        default: return std::nan("");
    }
}

void write_scalar(uint8_t *base, cudnnDataType_t type, int64_t offset, double value) {
    uint8_t *at = base + offset * static_cast<int64_t>(scalar_bytes(type));
    switch (scalar_of(type)) {
        case CUDNN_DATA_FLOAT: {
            const float v = static_cast<float>(value);
            std::memcpy(at, &v, sizeof v);
            break;
        }
        case CUDNN_DATA_DOUBLE: std::memcpy(at, &value, sizeof value); break;
        case CUDNN_DATA_HALF: {
            const librednn::Half v = librednn::half_from_double(value);
            std::memcpy(at, &v.bits, 2);
            break;
        }
        case CUDNN_DATA_BFLOAT16: {
            const librednn::BFloat16 v = librednn::bfloat16_from_double(value);
            std::memcpy(at, &v.bits, 2);
            break;
        }
        case CUDNN_DATA_INT8: *at = static_cast<uint8_t>(librednn::saturate_to_integer<int8_t>(value)); break;
        case CUDNN_DATA_UINT8: *at = librednn::saturate_to_integer<uint8_t>(value); break;
        case CUDNN_DATA_INT32: {
            const int32_t v = librednn::saturate_to_integer<int32_t>(value);
            std::memcpy(at, &v, sizeof v);
            break;
        }
        default: break;
    }
}

// What storing `value` into `type` gives back.
double rounded_to(cudnnDataType_t type, double value) {
    uint8_t bytes[8] = {};
    write_scalar(bytes, type, 0, value);
    return read_scalar(bytes, type, 0);
}

// --- randomness -----------------------------------------------------------------------------------

class Random {
public:
    Random() {
        const char *fixed = std::getenv("LIBREDNN_TEST_SEED");
        seed_ = fixed ? std::strtoull(fixed, nullptr, 10)
                      : (uint64_t{std::random_device{}()} << 32 | std::random_device{}());
        engine_.seed(seed_);
    }
    uint64_t seed() const { return seed_; }
    double uniform(double low, double high) { return std::uniform_real_distribution<double>(low, high)(engine_); }
    int64_t integer(int64_t low, int64_t high) { return std::uniform_int_distribution<int64_t>(low, high)(engine_); }
    bool chance(double p) { return uniform(0.0, 1.0) < p; }
    template <class T>
    T pick(const std::vector<T> &values) {
        return values[static_cast<size_t>(integer(0, static_cast<int64_t>(values.size()) - 1))];
    }
    std::mt19937_64 &engine() { return engine_; }

private:
    uint64_t seed_ = 0;
    std::mt19937_64 engine_;
};

#define SEEDED_RANDOM(rng)                              \
    Random rng;                                         \
    SCOPED_TRACE("seed " + std::to_string(rng.seed()) + \
                 " (rerun with LIBREDNN_TEST_SEED=" + std::to_string(rng.seed()) + ")")

// --- geometries -----------------------------------------------------------------------------------

enum class Layout { nchw, nhwc, padded, permuted };

// `dims` laid out as `layout`: packed NCHW or NHWC; NCHW with gaps after dims; the dims in a random
// memory order with gaps. Vectorised types: NCHW_VECT_C, packed or with gaps.
TensorGeometry make_geometry(Random &rng, cudnnDataType_t type, const std::vector<int64_t> &dims, Layout layout) {
    TensorGeometry g;
    g.dtype = type;
    g.nb_dims = static_cast<int>(dims.size());
    for (int i = 0; i < g.nb_dims; ++i) g.dims[i] = dims[static_cast<size_t>(i)];
    const int lanes = g.vector();
    if (layout == Layout::nchw || layout == Layout::nhwc) {
        if (lanes > 1) layout = Layout::nchw;
        return librednn::packed_geometry(type, g.nb_dims, g.dims,
                                         lanes > 1                ? librednn::PackedLayout::nchw_vect_c
                                         : layout == Layout::nchw ? librednn::PackedLayout::nchw
                                                                  : librednn::PackedLayout::nhwc);
    }
    std::vector<int> order(static_cast<size_t>(g.nb_dims));  // outermost first
    std::iota(order.begin(), order.end(), 0);
    if (layout == Layout::permuted && lanes == 1) std::shuffle(order.begin(), order.end(), rng.engine());
    int64_t next = 1;
    for (int j = g.nb_dims - 1; j >= 0; --j) {
        const int d = order[static_cast<size_t>(j)];
        const int64_t extent = d == 1 ? g.dims[1] / lanes : g.dims[d];
        g.strides[d] = next;
        next *= extent + (rng.chance(0.5) ? rng.integer(0, 2) : 0);
    }
    return g;
}

Layout random_layout(Random &rng) {
    return rng.pick<Layout>({Layout::nchw, Layout::nhwc, Layout::padded, Layout::permuted});
}

std::vector<int64_t> random_dims(Random &rng, int nb_dims, int64_t max_extent, int channel_multiple = 1) {
    std::vector<int64_t> dims(static_cast<size_t>(nb_dims));
    for (int i = 0; i < nb_dims; ++i) dims[static_cast<size_t>(i)] = rng.integer(1, max_extent);
    if (nb_dims > 1) dims[1] = rng.integer(1, std::max<int64_t>(1, max_extent / channel_multiple)) * channel_multiple;
    return dims;
}

// Calls visit(index) for every index of `dims` in row-major order.
void for_each_index(const int64_t *dims, int nb_dims, const std::function<void(const int64_t *)> &visit) {
    for (int i = 0; i < nb_dims; ++i) {
        if (dims[i] <= 0) return;
    }
    int64_t index[kMaxDims] = {};
    do {
        visit(index);
    } while (librednn::next_index(index, dims, nb_dims));
}

// --- tensors on both sides ------------------------------------------------------------------------

class DeviceTensor {
public:
    // `shift` scalars of slack before the first element: an unaligned start when non-zero.
    explicit DeviceTensor(const TensorGeometry &g, int64_t shift = 0)
        : geometry_(g), shift_(shift), scalar_(static_cast<int64_t>(scalar_bytes(g.dtype))) {
        elements_ = g.span_elements();
        host_.assign(static_cast<size_t>(elements_ * scalar_), 0xff);
        const size_t bytes = static_cast<size_t>((elements_ + shift_) * scalar_) + 16;
        if (cudaMalloc(&device_, bytes) != cudaSuccess) device_ = nullptr;
    }
    ~DeviceTensor() { cudaFree(device_); }
    DeviceTensor(const DeviceTensor &) = delete;
    DeviceTensor &operator=(const DeviceTensor &) = delete;

    const TensorGeometry &geometry() const { return geometry_; }
    void *data() { return static_cast<uint8_t *>(device_) + shift_ * scalar_; }
    bool allocated() const { return device_ != nullptr; }

    double at(const int64_t *index) const {
        return read_scalar(host_.data(), geometry_.dtype, geometry_.offset(index));
    }
    void set(const int64_t *index, double value) {
        write_scalar(host_.data(), geometry_.dtype, geometry_.offset(index), value);
    }
    // Every element from `make(index)`, stored (rounded) in the host copy.
    void fill(const std::function<double(const int64_t *)> &make) {
        for_each_index(geometry_.dims, geometry_.nb_dims, [&](const int64_t *i) { set(i, make(i)); });
    }
    void fill_random(Random &rng, double low, double high) {
        const bool integer = is_integer(geometry_.dtype);
        fill([&](const int64_t *) {
            return integer ? static_cast<double>(rng.integer(static_cast<int64_t>(low), static_cast<int64_t>(high)))
                           : rng.uniform(low, high);
        });
    }
    // A copy from pageable memory may return before its DMA lands, and the kernels run on a non-blocking
    // stream that does not wait for it: without the synchronisation, a late DMA of the poison could
    // overwrite what a kernel wrote (seen on the H200 with several test processes at once).
    void upload() {
        ASSERT_EQ(cudaMemcpy(data(), host_.data(), host_.size(), cudaMemcpyHostToDevice), cudaSuccess);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    }
    // The kernels run on a non-blocking stream, which cudaMemcpy does not wait for: synchronise first.
    void download() {
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        ASSERT_EQ(cudaMemcpy(host_.data(), data(), host_.size(), cudaMemcpyDeviceToHost), cudaSuccess);
    }
    // The scalars between the elements still hold the poison (all bytes 0xff); counts the others.
    int64_t touched_gaps() const {
        std::vector<bool> element(static_cast<size_t>(elements_), false);
        for_each_index(geometry_.dims, geometry_.nb_dims,
                       [&](const int64_t *i) { element[static_cast<size_t>(geometry_.offset(i))] = true; });
        int64_t touched = 0;
        for (int64_t e = 0; e < elements_; ++e) {
            if (element[static_cast<size_t>(e)]) continue;
            for (int64_t b = 0; b < scalar_; ++b) touched += host_[static_cast<size_t>(e * scalar_ + b)] != 0xff;
        }
        return touched;
    }

private:
    TensorGeometry geometry_;
    int64_t shift_;
    int64_t scalar_;
    int64_t elements_ = 0;
    std::vector<uint8_t> host_;
    void *device_ = nullptr;
};

std::string describe(const TensorGeometry &g) { return librednn::geometry_to_string(g); }

// Checks one computed element against its expected value; records the first few failures.
class Checker {
public:
    Checker(cudnnDataType_t type, std::string problem) : type_(type), problem_(std::move(problem)) {}
    // `magnitude`: the size of the terms that made the value (cancellation makes errors relative to them);
    // `extra`: compute error beyond the element-wise steps (a sum's). Integer outputs must equal `want`,
    // or, given the exact value before rounding, be its rounding within the compute error (a tie).
    void expect(const int64_t *index, int nb_dims, double got, double want, double magnitude, double extra = 0.0,
                double exact = std::nan("")) {
        ++checked_;
        if (std::isnan(want) && std::isnan(got)) return;
        if (std::isinf(want) && got == want) return;
        // A NaN term (an input NaN the op maps to a number, or beta * poisoned y with beta == 0, which the
        // kernel never reads) contributes no rounding: the bound stays a number.
        if (std::isnan(magnitude)) magnitude = 0.0;
        if (std::isnan(extra)) extra = 0.0;
        double allowed = 0.0;
        if (is_integer(type_)) {
            allowed = tolerance_for(type_).compute_eps * magnitude + extra;
            if (got == want || (!std::isnan(exact) && integer_within_rounding(got, exact, allowed, type_))) return;
        } else {
            allowed = allowed_error(tolerance_for(type_), want, magnitude) + extra;
            if (std::fabs(got - want) <= allowed) return;
        }
        if (failures_++ < 5) {
            std::ostringstream text;
            text << "  at [";
            for (int i = 0; i < nb_dims; ++i) text << (i ? "," : "") << index[i];
            text << "] got " << got << " want " << want << " (allowed error " << allowed << ")\n";
            report_ += text.str();
        }
    }
    void expect_exact(const int64_t *index, int nb_dims, double got, double want) {
        expect(index, nb_dims, got, want, 0.0, -allowed_error(tolerance_for(type_), want, 0.0));
    }
    ~Checker() {
        EXPECT_EQ(failures_, 0) << problem_ << ": " << failures_ << " of " << checked_ << " elements differ\n"
                                << report_;
    }

private:
    cudnnDataType_t type_;
    std::string problem_;
    int64_t checked_ = 0, failures_ = 0;
    std::string report_;
};

class TensorKernels : public ::testing::Test {
protected:
    void TearDown() override {
        if (stream_) cudaStreamDestroy(stream_);
    }
    cudaStream_t stream() {
        if (!stream_) {
            EXPECT_EQ(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), cudaSuccess);
        }
        return stream_;
    }
    // Waits for the queued work and checks it ran.
    void finish() {
        ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
        ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    }

private:
    cudaStream_t stream_ = nullptr;
};

const std::vector<cudnnDataType_t> kFloatingTypes = {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF,
                                                     CUDNN_DATA_BFLOAT16};
const std::vector<cudnnDataType_t> kAllScalarTypes = {CUDNN_DATA_FLOAT,    CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF,
                                                      CUDNN_DATA_BFLOAT16, CUDNN_DATA_INT8,   CUDNN_DATA_UINT8,
                                                      CUDNN_DATA_INT32};

double random_beta(Random &rng) { return rng.chance(0.5) ? 0.0 : rng.pick<double>({1.0, -0.5, 0.25}); }

// Integer outputs: alpha and beta keep values exact in the compute type (no .5 boundaries from noise).
double random_alpha(Random &rng, cudnnDataType_t out) {
    return is_integer(out) ? rng.pick<double>({1.0, 2.0, -1.0}) : rng.pick<double>({1.0, 0.5, -1.25, 2.0});
}

// --- transform, add, set, scale -------------------------------------------------------------------

// y = alpha * x[broadcast] + beta * y on the host copies; checks the device result.
void check_copy(DeviceTensor &x, DeviceTensor &y, const std::vector<double> &before, double alpha, double beta,
                const std::string &problem) {
    const TensorGeometry &yg = y.geometry(), &xg = x.geometry();
    Checker check(yg.dtype, problem);
    int64_t element = 0;
    for_each_index(yg.dims, yg.nb_dims, [&](const int64_t *i) {
        int64_t xi[kMaxDims];
        for (int d = 0; d < yg.nb_dims; ++d) xi[d] = xg.dims[d] == 1 ? 0 : i[d];
        const double term = alpha * x.at(xi);
        const double old = beta != 0.0 ? before[static_cast<size_t>(element)] : 0.0;
        const double want = rounded_to(yg.dtype, term + beta * old);
        check.expect(i, yg.nb_dims, y.at(i), want, std::fabs(term) + std::fabs(beta * old), 0.0, term + beta * old);
        ++element;
    });
    EXPECT_EQ(y.touched_gaps(), 0) << problem << ": wrote between the elements";
}

// Prepares y: poisoned everywhere, then (beta != 0) random values at its elements; returns them.
std::vector<double> prepare_output(Random &rng, DeviceTensor &y, double beta, double low = -2.0, double high = 2.0) {
    std::vector<double> before;
    if (beta != 0.0) {
        y.fill_random(rng, low, high);
        for_each_index(y.geometry().dims, y.geometry().nb_dims, [&](const int64_t *i) { before.push_back(y.at(i)); });
    }
    y.upload();
    return before;
}

TEST_F(TensorKernels, TransformMatchesHostOnRandomLayoutsAndTypes) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 60; ++trial) {
        const int nb_dims = static_cast<int>(rng.integer(3, 5));
        const std::vector<int64_t> dims = random_dims(rng, nb_dims, trial % 3 == 0 ? 40 : 9);
        const cudnnDataType_t xt = rng.pick(kAllScalarTypes);
        const cudnnDataType_t yt = rng.chance(0.6) ? xt : rng.pick(kAllScalarTypes);
        DeviceTensor x(make_geometry(rng, xt, dims, random_layout(rng)), rng.integer(0, 1));
        DeviceTensor y(make_geometry(rng, yt, dims, random_layout(rng)), rng.integer(0, 1));
        ASSERT_TRUE(x.allocated() && y.allocated());
        const double alpha = rng.chance(0.4) ? 1.0 : random_alpha(rng, yt);
        const double beta = random_beta(rng);
        x.fill_random(rng, is_integer(xt) ? 0 : -3.0, is_integer(xt) ? 100 : 3.0);
        x.upload();
        const std::vector<double> before = prepare_output(rng, y, beta, 0, 20);
        const std::string problem = "transform alpha " + std::to_string(alpha) + " beta " + std::to_string(beta) +
                                    " x " + describe(x.geometry()) + " y " + describe(y.geometry());
        ASSERT_EQ(
            librednn::cuda::transform_tensor(stream(), alpha, x.geometry(), x.data(), beta, y.geometry(), y.data()),
            CUDNN_STATUS_SUCCESS)
            << problem;
        finish();
        y.download();
        check_copy(x, y, before, alpha, beta, problem);
    }
}

TEST_F(TensorKernels, TransformBetweenNchwAndNhwcMovesEveryElementExactly) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // Packed NCHW <-> NHWC takes the tiled transpose; sizes that leave partial tiles on both sides, and
    // sizes in whole 16-byte vectors (C and H*W multiples of 16), whose full tiles move vectors.
    for (cudnnDataType_t type : kAllScalarTypes) {
        for (int variant = 0; variant < 4; ++variant) {
            const int direction = variant % 2;
            const bool whole_vectors = variant >= 2;
            // C and H*W of at least 64: half a tile of the widest (int8) transpose, so every type takes it.
            const std::vector<int64_t> dims = whole_vectors
                                                  ? std::vector<int64_t>{rng.integer(1, 3), 16 * rng.integer(5, 14),
                                                                         4 * rng.integer(3, 9), 4 * rng.integer(3, 9)}
                                                  : std::vector<int64_t>{rng.integer(1, 3), rng.integer(70, 200),
                                                                         rng.integer(9, 20), rng.integer(9, 20)};
            const Layout from = direction == 0 ? Layout::nchw : Layout::nhwc;
            const Layout to = direction == 0 ? Layout::nhwc : Layout::nchw;
            DeviceTensor x(make_geometry(rng, type, dims, from));
            DeviceTensor y(make_geometry(rng, type, dims, to));
            ASSERT_TRUE(x.allocated() && y.allocated());
            x.fill_random(rng, is_integer(type) ? 0 : -100.0, is_integer(type) ? 120 : 100.0);
            x.upload();
            const double beta = direction == 0 ? 0.0 : 1.0;
            // Scaling on the vector path too (exact for floating types: a power of two).
            const double alpha = whole_vectors && !is_integer(type) && direction == 1 ? 0.5 : 1.0;
            const std::vector<double> before = prepare_output(rng, y, beta, 0, 7);
            const std::string problem = "transform x " + describe(x.geometry()) + " y " + describe(y.geometry()) +
                                        " alpha " + std::to_string(alpha) + " beta " + std::to_string(beta);
            ASSERT_EQ(
                librednn::cuda::transform_tensor(stream(), alpha, x.geometry(), x.data(), beta, y.geometry(), y.data()),
                CUDNN_STATUS_SUCCESS);
            finish();
            y.download();
            check_copy(x, y, before, alpha, beta, problem);
        }
    }
}

TEST_F(TensorKernels, TransformBetweenNchwAndNhwcIsExactOnFixedShapesWithPartialTiles) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // C and H*W that leave the transpose tiles partly outside along either side, or that fill them; half
    // and int8 on some. Edge tiles move whole 16-byte vectors where rows are whole vectors (48 x 120), one
    // run of whole rows where a row is no longer than a tile and not whole vectors (7x7 and 3x3 images; 120
    // for int8), loads of row segments as the aligned vectors covering them where a row is longer than a
    // tile and not whole vectors (14x14 halves, 9x9 floats: segments starting mid-vector, partial vectors
    // at their ends), else elements (the shifted pointers; the stores of such rows). A side of K + 1 to 2K
    // elements, not whole vectors, takes wide tiles (the whole side by K: 7x7 floats and doubles, 49
    // float channels, 9x9 halves, 13x13 int8), which the shifted pointers refuse; with the other side
    // longer than a tile and not whole vectors too, that side loads by segments or stores by elements
    // (50 float channels of 7x14 images, 100 half channels).
    const std::vector<cudnnDataType_t> wide = {CUDNN_DATA_FLOAT, CUDNN_DATA_INT32};
    const std::vector<cudnnDataType_t> all = {CUDNN_DATA_FLOAT, CUDNN_DATA_INT32, CUDNN_DATA_HALF, CUDNN_DATA_INT8};
    const std::vector<cudnnDataType_t> eight_bytes = {CUDNN_DATA_DOUBLE};
    struct Shape {
        std::vector<int64_t> dims;
        std::vector<cudnnDataType_t> types;
    };
    const std::vector<Shape> shapes = {{{1, 20, 4, 5}, wide},  {{2, 96, 7, 8}, wide},   {{2, 64, 8, 12}, wide},
                                       {{2, 64, 8, 16}, all},  {{3, 256, 7, 7}, all},   {{2, 32, 7, 7}, all},
                                       {{2, 48, 10, 12}, all}, {{3, 8, 3, 3}, all},     {{2, 64, 14, 14}, all},
                                       {{2, 64, 9, 9}, all},   {{2, 160, 13, 13}, all}, {{2, 49, 16, 16}, wide},
                                       {{2, 50, 7, 14}, all},  {{2, 100, 7, 14}, all},  {{3, 96, 7, 7}, eight_bytes}};
    // A plain move, scaling alone, blending, and the input or the output one scalar past a 16-byte
    // boundary (the vector path refused on whole-vector shapes). Powers of two: exact for every type.
    struct Scaling {
        double alpha, beta;
        int64_t x_shift, y_shift;
    };
    const std::vector<Scaling> scalings = {
        {1.0, 0.0, 0, 0}, {2.0, 0.0, 0, 0}, {-1.0, 2.0, 0, 0}, {1.0, 0.0, 1, 0}, {-1.0, 1.0, 0, 1}};
    for (const Shape &shape : shapes) {
        for (cudnnDataType_t type : shape.types) {
            for (int direction = 0; direction < 2; ++direction) {
                for (const Scaling &s : scalings) {
                    const bool integer = is_integer(type);
                    DeviceTensor x(make_geometry(rng, type, shape.dims, direction == 0 ? Layout::nchw : Layout::nhwc),
                                   s.x_shift);
                    DeviceTensor y(make_geometry(rng, type, shape.dims, direction == 0 ? Layout::nhwc : Layout::nchw),
                                   s.y_shift);
                    ASSERT_TRUE(x.allocated() && y.allocated());
                    // Integers from 0: unblended results are never -1, the poison's value, so a missed one shows.
                    x.fill_random(rng, integer ? 0 : -100.0, integer ? 60 : 100.0);
                    x.upload();
                    const std::vector<double> before = prepare_output(rng, y, s.beta, 0, 7);
                    const std::string problem = "transform x " + describe(x.geometry()) + " y " +
                                                describe(y.geometry()) + " alpha " + std::to_string(s.alpha) +
                                                " beta " + std::to_string(s.beta) + " shifts " +
                                                std::to_string(s.x_shift) + "," + std::to_string(s.y_shift);
                    ASSERT_EQ(librednn::cuda::transform_tensor(stream(), s.alpha, x.geometry(), x.data(), s.beta,
                                                               y.geometry(), y.data()),
                              CUDNN_STATUS_SUCCESS)
                        << problem;
                    finish();
                    y.download();
                    check_copy(x, y, before, s.alpha, s.beta, problem);
                }
            }
        }
    }
}

TEST_F(TensorKernels, TransformConvertsBetweenNchwAndVectorisedChannels) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    const std::vector<cudnnDataType_t> vector_types = {CUDNN_DATA_INT8x4, CUDNN_DATA_INT8x32, CUDNN_DATA_UINT8x4};
    for (int trial = 0; trial < 12; ++trial) {
        const cudnnDataType_t vt = vector_types[static_cast<size_t>(trial % 3)];
        const cudnnDataType_t st = scalar_of(vt);
        // Channels in whole 32-lane vectors, so that INT8x4 and INT8x32 also convert into each other.
        const std::vector<int64_t> dims = random_dims(rng, 4, 9, 32);
        const bool to_vector = trial % 2 == 0;
        const cudnnDataType_t other_vector = vt == CUDNN_DATA_INT8x4 ? CUDNN_DATA_INT8x32 : CUDNN_DATA_INT8x4;
        const cudnnDataType_t other_type = st == CUDNN_DATA_INT8 && trial % 4 >= 2 ? other_vector : st;
        DeviceTensor a(make_geometry(rng, other_type, dims, random_layout(rng)));
        DeviceTensor b(make_geometry(rng, vt, dims, rng.chance(0.5) ? Layout::nchw : Layout::padded));
        DeviceTensor &x = to_vector ? a : b;
        DeviceTensor &y = to_vector ? b : a;
        ASSERT_TRUE(x.allocated() && y.allocated());
        x.fill_random(rng, 0, 100);
        x.upload();
        const std::vector<double> before = prepare_output(rng, y, 0.0);
        const std::string problem = "transform x " + describe(x.geometry()) + " y " + describe(y.geometry());
        ASSERT_EQ(librednn::cuda::transform_tensor(stream(), 1.0, x.geometry(), x.data(), 0.0, y.geometry(), y.data()),
                  CUDNN_STATUS_SUCCESS)
            << problem;
        finish();
        y.download();
        check_copy(x, y, before, 1.0, 0.0, problem);
    }
}

// --- padding and folding ----------------------------------------------------------------------------

// Where x's element `xi` lands in y, going forward (the kernel gathers; this scatters): fold pads, then
// moves block position k (row-major over the spatial dims) into channel group k; unfold takes channel
// group k back to block position k, then pads. False when the element is cropped away.
bool reshape_target(const librednn::cuda::ReshapeSpec &spec, const TensorGeometry &x, const TensorGeometry &y,
                    const int64_t *xi, int64_t *yi) {
    const int n = x.nb_dims;
    int64_t fold_product = 1;
    for (int d = 2; d < n; ++d) fold_product *= spec.fold[d - 2];
    if (fold_product > 1 && spec.unfold) {
        const int64_t channels = x.dims[1] / fold_product;
        int64_t k = xi[1] / channels;
        yi[0] = xi[0] + spec.pad_before[0];
        yi[1] = xi[1] % channels + spec.pad_before[1];
        for (int d = n - 1; d >= 2; --d) {
            const int64_t f = spec.fold[d - 2];
            yi[d] = xi[d] * f + k % f + spec.pad_before[d];
            k /= f;
        }
    } else {
        int64_t padded[kMaxDims];
        for (int d = 0; d < n; ++d) {
            padded[d] = xi[d] + spec.pad_before[d];
            if (padded[d] < 0 || padded[d] >= x.dims[d] + spec.pad_before[d] + spec.pad_after[d]) return false;
            yi[d] = padded[d];
        }
        if (fold_product > 1) {
            int64_t k = 0;
            for (int d = 2; d < n; ++d) {
                const int64_t f = spec.fold[d - 2];
                k = k * f + padded[d] % f;
                yi[d] = padded[d] / f;
            }
            yi[1] = k * (x.dims[1] + spec.pad_before[1] + spec.pad_after[1]) + padded[1];
        }
    }
    for (int d = 0; d < n; ++d) {
        if (yi[d] < 0 || yi[d] >= y.dims[d]) return false;
    }
    return true;
}

// y's dims for x reshaped by `spec`; empty when the padding empties a dim.
std::vector<int64_t> reshaped_dims(const librednn::cuda::ReshapeSpec &spec, const std::vector<int64_t> &x_dims) {
    const int n = static_cast<int>(x_dims.size());
    int64_t fold_product = 1;
    for (int d = 2; d < n; ++d) fold_product *= spec.fold[d - 2];
    std::vector<int64_t> dims = x_dims;
    if (spec.unfold && fold_product > 1) {
        dims[1] /= fold_product;
        for (int d = 2; d < n; ++d) dims[static_cast<size_t>(d)] *= spec.fold[d - 2];
    }
    for (int d = 0; d < n; ++d) {
        dims[static_cast<size_t>(d)] += spec.pad_before[d] + spec.pad_after[d];
        if (dims[static_cast<size_t>(d)] <= 0) return {};
    }
    if (!spec.unfold && fold_product > 1) {
        dims[1] *= fold_product;
        for (int d = 2; d < n; ++d) {
            const int64_t f = spec.fold[d - 2];
            dims[static_cast<size_t>(d)] = (dims[static_cast<size_t>(d)] + f - 1) / f;
        }
    }
    return dims;
}

TEST_F(TensorKernels, TransformReshapePadsFoldsAndUnfoldsLikeTheHostScatter) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    std::vector<cudnnDataType_t> types = kAllScalarTypes;
    types.push_back(CUDNN_DATA_INT8x4);
    types.push_back(CUDNN_DATA_INT8x32);
    for (int trial = 0; trial < 120; ++trial) {
        const cudnnDataType_t xt = rng.pick(types);
        // Filter transforms convert types; tensor transforms keep them (and take the raw copy).
        const cudnnDataType_t yt = rng.chance(0.5) ? xt : rng.pick(types);
        const int lanes = std::max(librednn::vector_count(xt), librednn::vector_count(yt));
        const int nb_dims = static_cast<int>(rng.integer(3, 5));
        const int mode = trial % 3;  // pad, fold, unfold
        librednn::cuda::ReshapeSpec spec;
        for (int d = 2; d < nb_dims; ++d) spec.fold[d - 2] = mode == 0 ? 1 : static_cast<uint32_t>(rng.integer(1, 3));
        spec.unfold = mode == 2;
        int64_t fold_product = 1;
        for (int d = 2; d < nb_dims; ++d) fold_product *= spec.fold[d - 2];
        // Now and then a larger 4d tensor; 32-lane channels and 5d folds stay small (F is up to 27).
        const int64_t max_extent = lanes == 32 ? 3 : trial % 10 == 0 && nb_dims == 4 ? 24 : 6;
        std::vector<int64_t> dims = random_dims(rng, nb_dims, max_extent, lanes);
        if (lanes == 32) dims[1] = 32;
        if (spec.unfold) dims[1] *= fold_product;
        for (int d = 0; d < nb_dims; ++d) {
            // Channels pad by whole vectors; cropping (-1, on either side) needs an extent above 1 (the
            // unfolded one, for unfold).
            if (d == 1 && lanes > 1) {
                spec.pad_before[1] = rng.chance(0.5) ? lanes : 0;
                spec.pad_after[1] = rng.chance(0.5) ? lanes : 0;
                continue;
            }
            int64_t extent = dims[static_cast<size_t>(d)];
            if (spec.unfold && d == 1) extent /= fold_product;
            if (spec.unfold && d >= 2) extent *= spec.fold[d - 2];
            spec.pad_before[d] = static_cast<int32_t>(rng.integer(extent > 1 ? -1 : 0, 2));
            spec.pad_after[d] = static_cast<int32_t>(rng.integer(extent > 1 ? -1 : 0, 2));
            if (extent + spec.pad_before[d] + spec.pad_after[d] <= 0) spec.pad_before[d] = 0;
        }
        const std::vector<int64_t> y_dims = reshaped_dims(spec, dims);
        ASSERT_FALSE(y_dims.empty());
        DeviceTensor x(make_geometry(rng, xt, dims, random_layout(rng)), rng.integer(0, 1));
        DeviceTensor y(make_geometry(rng, yt, y_dims, random_layout(rng)), rng.integer(0, 1));
        ASSERT_TRUE(x.allocated() && y.allocated());
        const double alpha = rng.chance(0.5) ? 1.0 : random_alpha(rng, yt);
        const double beta = rng.chance(0.5) ? 0.0 : random_beta(rng);
        x.fill_random(rng, is_integer(xt) ? 0 : -3.0, is_integer(xt) ? 100 : 3.0);
        x.upload();
        const std::vector<double> before = prepare_output(rng, y, beta, 0, 20);
        std::ostringstream problem;
        problem << "reshape mode " << mode << " x " << describe(x.geometry()) << " y " << describe(y.geometry())
                << " alpha " << alpha << " beta " << beta << " pad_before";
        for (int d = 0; d < nb_dims; ++d) problem << " " << spec.pad_before[d];
        problem << " pad_after";
        for (int d = 0; d < nb_dims; ++d) problem << " " << spec.pad_after[d];
        problem << " fold";
        for (int d = 2; d < nb_dims; ++d) problem << " " << spec.fold[d - 2];
        ASSERT_EQ(librednn::cuda::transform_reshape(stream(), spec, alpha, x.geometry(), x.data(), beta, y.geometry(),
                                                    y.data()),
                  CUDNN_STATUS_SUCCESS)
            << problem.str();
        finish();
        y.download();

        // T(x) by scattering x; every element of y no x element reaches is padding (0).
        const TensorGeometry &yg = y.geometry();
        std::vector<double> transformed(static_cast<size_t>(yg.element_count()), 0.0);
        std::vector<int> hits(transformed.size(), 0);
        auto row_major = [&](const int64_t *index) {
            int64_t at = 0;
            for (int d = 0; d < nb_dims; ++d) at = at * yg.dims[d] + index[d];
            return static_cast<size_t>(at);
        };
        for_each_index(x.geometry().dims, nb_dims, [&](const int64_t *xi) {
            int64_t yi[kMaxDims];
            if (!reshape_target(spec, x.geometry(), yg, xi, yi)) return;
            transformed[row_major(yi)] = x.at(xi);
            ++hits[row_major(yi)];
        });
        Checker check(yt, problem.str());
        for_each_index(yg.dims, nb_dims, [&](const int64_t *i) {
            const size_t at = row_major(i);
            EXPECT_LE(hits[at], 1) << problem.str() << ": two x elements land on one y element";
            const double term = alpha * transformed[at];
            const double old = beta != 0.0 ? before[at] : 0.0;
            check.expect(i, nb_dims, y.at(i), rounded_to(yt, term + beta * old),
                         std::fabs(term) + std::fabs(beta * old), 0.0, term + beta * old);
        });
        EXPECT_EQ(y.touched_gaps(), 0) << problem.str() << ": wrote between the elements";
    }
}

TEST_F(TensorKernels, TransformReshapePadsNhwcChannelsToEight) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // The common use: 3-channel images padded to 8 channels for tensor cores, packed NHWC on both sides.
    // Bits move unchanged and the padding is +0.
    const std::vector<int64_t> dims = {4, 3, 96, 96}, padded_dims = {4, 8, 96, 96};
    for (cudnnDataType_t type : {CUDNN_DATA_HALF, CUDNN_DATA_INT8, CUDNN_DATA_FLOAT}) {
        DeviceTensor x(make_geometry(rng, type, dims, Layout::nhwc));
        DeviceTensor y(make_geometry(rng, type, padded_dims, Layout::nhwc));
        ASSERT_TRUE(x.allocated() && y.allocated());
        x.fill_random(rng, is_integer(type) ? -100 : -3.0, is_integer(type) ? 100 : 3.0);
        x.upload();
        prepare_output(rng, y, 0.0);
        librednn::cuda::ReshapeSpec spec;
        spec.pad_after[1] = 5;
        ASSERT_EQ(
            librednn::cuda::transform_reshape(stream(), spec, 1.0, x.geometry(), x.data(), 0.0, y.geometry(), y.data()),
            CUDNN_STATUS_SUCCESS);
        finish();
        y.download();
        Checker check(type, "pad NHWC channels 3 -> 8, " + describe(y.geometry()));
        for_each_index(y.geometry().dims, 4, [&](const int64_t *i) {
            const double want = i[1] < 3 ? x.at(i) : 0.0;
            check.expect_exact(i, 4, y.at(i), want);
            if (i[1] >= 3) {
                EXPECT_FALSE(std::signbit(y.at(i))) << "padding must be +0";
            }
        });
    }
}

TEST_F(TensorKernels, AddTensorBroadcastsOverDimsOfExtentOne) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 50; ++trial) {
        const int nb_dims = static_cast<int>(rng.integer(4, 5));
        const std::vector<int64_t> dims = random_dims(rng, nb_dims, trial % 4 == 0 ? 40 : 12);
        std::vector<int64_t> a_dims = dims;
        const int pattern = static_cast<int>(rng.integer(0, 3));
        for (int i = 0; i < nb_dims; ++i) {
            const bool keep = pattern == 0 ? i == 1 : pattern == 1 ? false : pattern == 2 ? i <= 1 : rng.chance(0.5);
            if (!keep) a_dims[static_cast<size_t>(i)] = 1;  // 0: bias 1xCx1x1; 1: scalar; 2: NxCx1x1; 3: random
        }
        const cudnnDataType_t type = rng.pick(kFloatingTypes);
        DeviceTensor a(make_geometry(rng, type, a_dims, random_layout(rng)));
        DeviceTensor c(make_geometry(rng, type, dims, random_layout(rng)), rng.chance(0.2) ? 1 : 0);
        ASSERT_TRUE(a.allocated() && c.allocated());
        const double alpha = random_alpha(rng, type), beta = rng.chance(0.5) ? 1.0 : random_beta(rng);
        a.fill_random(rng, -2.0, 2.0);
        a.upload();
        const std::vector<double> before = prepare_output(rng, c, beta);
        const std::string problem = "add alpha " + std::to_string(alpha) + " beta " + std::to_string(beta) + " a " +
                                    describe(a.geometry()) + " c " + describe(c.geometry());
        ASSERT_EQ(librednn::cuda::add_tensor(stream(), alpha, a.geometry(), a.data(), beta, c.geometry(), c.data()),
                  CUDNN_STATUS_SUCCESS)
            << problem;
        finish();
        c.download();
        check_copy(a, c, before, alpha, beta, problem);
    }
}

TEST_F(TensorKernels, SetTensorWritesTheValueOnlyToElements) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 40; ++trial) {
        const cudnnDataType_t type = trial < 4 ? CUDNN_DATA_INT8x4 : rng.pick(kAllScalarTypes);
        const std::vector<int64_t> dims = random_dims(rng, 4, trial % 3 == 0 ? 50 : 9, librednn::vector_count(type));
        DeviceTensor y(make_geometry(rng, type, dims, random_layout(rng)), rng.integer(0, 3));
        ASSERT_TRUE(y.allocated());
        y.upload();
        const double value = is_integer(type) ? static_cast<double>(rng.integer(-300, 300)) : rng.uniform(-1e5, 1e5);
        const std::string problem = "set " + std::to_string(value) + " y " + describe(y.geometry());
        ASSERT_EQ(librednn::cuda::set_tensor(stream(), y.geometry(), y.data(), value), CUDNN_STATUS_SUCCESS) << problem;
        finish();
        y.download();
        Checker check(type, problem);
        const double want = rounded_to(type, value);
        for_each_index(y.geometry().dims, 4, [&](const int64_t *i) { check.expect_exact(i, 4, y.at(i), want); });
        EXPECT_EQ(y.touched_gaps(), 0) << problem;
    }
}

TEST_F(TensorKernels, ScaleTensorMultipliesInPlace) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 30; ++trial) {
        const cudnnDataType_t type = rng.pick(kAllScalarTypes);
        const std::vector<int64_t> dims = random_dims(rng, 4, trial % 3 == 0 ? 40 : 9);
        DeviceTensor y(make_geometry(rng, type, dims, random_layout(rng)), rng.integer(0, 1));
        ASSERT_TRUE(y.allocated());
        y.fill_random(rng, is_integer(type) ? -20 : -5.0, is_integer(type) ? 20 : 5.0);
        std::vector<double> before;
        for_each_index(y.geometry().dims, 4, [&](const int64_t *i) { before.push_back(y.at(i)); });
        y.upload();
        const double alpha = is_integer(type) ? rng.pick<double>({2.0, -1.0, 3.0}) : rng.pick<double>({0.5, -3.0, 0.0});
        const std::string problem = "scale " + std::to_string(alpha) + " y " + describe(y.geometry());
        ASSERT_EQ(librednn::cuda::scale_tensor(stream(), y.geometry(), y.data(), alpha), CUDNN_STATUS_SUCCESS)
            << problem;
        finish();
        y.download();
        Checker check(type, problem);
        size_t element = 0;
        for_each_index(y.geometry().dims, 4, [&](const int64_t *i) {
            const double want = rounded_to(type, alpha * before[element++]);
            check.expect(i, 4, y.at(i), want, std::fabs(want));
        });
        EXPECT_EQ(y.touched_gaps(), 0) << problem;
    }
}

// --- activation -----------------------------------------------------------------------------------

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

double activation_host(cudnnActivationMode_t mode, bool propagate, double coef, double swish_beta, double x) {
    if (std::isnan(x) && (mode == CUDNN_ACTIVATION_RELU || mode == CUDNN_ACTIVATION_CLIPPED_RELU)) {
        return propagate ? x : 0.0;
    }
    switch (mode) {
        case CUDNN_ACTIVATION_SIGMOID: return sigmoid(x);
        case CUDNN_ACTIVATION_RELU: return x > 0 ? x : 0.0;
        case CUDNN_ACTIVATION_TANH: return std::tanh(x);
        case CUDNN_ACTIVATION_CLIPPED_RELU: return std::min(std::max(x, 0.0), coef);
        // expm1, not exp - 1: near 0 the subtraction cancels and the expected value itself errs by many ulps.
        case CUDNN_ACTIVATION_ELU: return x > 0 ? x : coef * std::expm1(x);
        case CUDNN_ACTIVATION_SWISH: return x * sigmoid(swish_beta * x);
        default: return x;
    }
}

double activation_gradient_host(cudnnActivationMode_t mode, bool propagate, double coef, double swish_beta, double y,
                                double dy, double x) {
    if (std::isnan(x) && (mode == CUDNN_ACTIVATION_RELU || mode == CUDNN_ACTIVATION_CLIPPED_RELU)) {
        return propagate ? x : 0.0;
    }
    switch (mode) {
        case CUDNN_ACTIVATION_SIGMOID: return dy * y * (1.0 - y);
        case CUDNN_ACTIVATION_RELU: return x > 0 ? dy : 0.0;
        case CUDNN_ACTIVATION_TANH: return dy * (1.0 - y * y);
        case CUDNN_ACTIVATION_CLIPPED_RELU: return x > 0 && x < coef ? dy : 0.0;
        case CUDNN_ACTIVATION_ELU: return x > 0 ? dy : dy * coef * std::exp(x);
        case CUDNN_ACTIVATION_SWISH: {
            const double s = sigmoid(swish_beta * x);
            return dy * (s + swish_beta * x * s * (1.0 - s));
        }
        default: return dy;
    }
}

const std::vector<cudnnActivationMode_t> kActivationModes = {
    CUDNN_ACTIVATION_SIGMOID, CUDNN_ACTIVATION_RELU,     CUDNN_ACTIVATION_TANH, CUDNN_ACTIVATION_CLIPPED_RELU,
    CUDNN_ACTIVATION_ELU,     CUDNN_ACTIVATION_IDENTITY, CUDNN_ACTIVATION_SWISH};

std::string spec_text(const librednn::cuda::ActivationSpec &spec) {
    return "mode " + std::to_string(spec.mode) + (spec.nan == CUDNN_PROPAGATE_NAN ? " propagate" : " no-propagate") +
           " coef " + std::to_string(spec.coef) + " swish_beta " + std::to_string(spec.swish_beta);
}

// Inputs in [-4, 4] with, now and then, a NaN, an exact 0 and values at the clipping ceiling.
double activation_input(Random &rng, double coef) {
    const double p = rng.uniform(0.0, 1.0);
    if (p < 0.01) return std::nan("");
    if (p < 0.03) return 0.0;
    if (p < 0.05) return coef;
    return rng.uniform(-4.0, 4.0);
}

TEST_F(TensorKernels, ActivationForwardMatchesHost) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 70; ++trial) {
        librednn::cuda::ActivationSpec spec;
        spec.mode = kActivationModes[static_cast<size_t>(trial % 7)];
        spec.nan = rng.chance(0.5) ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN;
        // Multiples of 1/64: exact in every type, so x == coef means the same on both sides.
        spec.coef = static_cast<double>(rng.integer(32, 192)) / 64.0;
        spec.swish_beta = static_cast<double>(rng.integer(32, 128)) / 64.0;
        const cudnnDataType_t type = rng.pick(kFloatingTypes);
        const std::vector<int64_t> dims =
            random_dims(rng, static_cast<int>(rng.integer(4, 5)), trial % 4 == 0 ? 48 : 10);
        DeviceTensor x(make_geometry(rng, type, dims, random_layout(rng)), rng.chance(0.2) ? 1 : 0);
        const bool in_place = rng.chance(0.2);
        DeviceTensor y_own(make_geometry(rng, type, dims, random_layout(rng)), rng.chance(0.2) ? 1 : 0);
        ASSERT_TRUE(x.allocated() && y_own.allocated());
        const double alpha = random_alpha(rng, type), beta = in_place ? 0.0 : random_beta(rng);
        x.fill([&](const int64_t *) { return activation_input(rng, spec.coef); });
        std::vector<double> xs;
        for_each_index(x.geometry().dims, x.geometry().nb_dims, [&](const int64_t *i) { xs.push_back(x.at(i)); });
        x.upload();
        DeviceTensor &y = in_place ? x : y_own;
        const std::vector<double> before = in_place ? std::vector<double>() : prepare_output(rng, y, beta);
        const std::string problem = "activation forward " + spec_text(spec) + " alpha " + std::to_string(alpha) +
                                    " beta " + std::to_string(beta) + " x " + describe(x.geometry()) + " y " +
                                    (in_place ? "in place" : describe(y.geometry()));
        ASSERT_EQ(librednn::cuda::activation_forward(stream(), spec, alpha, x.geometry(), x.data(), beta, y.geometry(),
                                                     y.data()),
                  CUDNN_STATUS_SUCCESS)
            << problem;
        finish();
        y.download();
        Checker check(type, problem);
        size_t element = 0;
        for_each_index(y.geometry().dims, y.geometry().nb_dims, [&](const int64_t *i) {
            const double f =
                activation_host(spec.mode, spec.nan == CUDNN_PROPAGATE_NAN, spec.coef, spec.swish_beta, xs[element]);
            const double old = beta != 0.0 ? before[element] : 0.0;
            const double want = rounded_to(type, alpha * f + beta * old);
            check.expect(i, y.geometry().nb_dims, y.at(i), want,
                         std::fabs(alpha * f) + std::fabs(beta * old) + std::fabs(xs[element]));
            ++element;
        });
        EXPECT_EQ(y.touched_gaps(), 0) << problem;
    }
}

TEST_F(TensorKernels, ActivationBackwardMatchesHost) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 70; ++trial) {
        librednn::cuda::ActivationSpec spec;
        spec.mode = kActivationModes[static_cast<size_t>(trial % 7)];
        spec.nan = rng.chance(0.5) ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN;
        spec.coef = static_cast<double>(rng.integer(32, 192)) / 64.0;
        spec.swish_beta = static_cast<double>(rng.integer(32, 128)) / 64.0;
        const cudnnDataType_t type = rng.pick(kFloatingTypes);
        const std::vector<int64_t> dims =
            random_dims(rng, static_cast<int>(rng.integer(4, 5)), trial % 4 == 0 ? 48 : 10);
        DeviceTensor x(make_geometry(rng, type, dims, random_layout(rng)));
        DeviceTensor y(make_geometry(rng, type, dims, random_layout(rng)), rng.chance(0.2) ? 1 : 0);
        DeviceTensor dy(make_geometry(rng, type, dims, random_layout(rng)));
        const bool in_place = rng.chance(0.2);  // dx is dy
        DeviceTensor dx_own(make_geometry(rng, type, dims, random_layout(rng)), rng.chance(0.2) ? 1 : 0);
        ASSERT_TRUE(x.allocated() && y.allocated() && dy.allocated() && dx_own.allocated());
        x.fill([&](const int64_t *) { return activation_input(rng, spec.coef); });
        // y as the forward pass makes it (sigmoid and tanh read it), dy random.
        y.fill([&](const int64_t *i) {
            return activation_host(spec.mode, spec.nan == CUDNN_PROPAGATE_NAN, spec.coef, spec.swish_beta, x.at(i));
        });
        dy.fill_random(rng, -2.0, 2.0);
        std::vector<double> xs, ys, dys;
        for_each_index(x.geometry().dims, x.geometry().nb_dims, [&](const int64_t *i) {
            xs.push_back(x.at(i));
            ys.push_back(y.at(i));
            dys.push_back(dy.at(i));
        });
        x.upload();
        y.upload();
        dy.upload();
        DeviceTensor &dx = in_place ? dy : dx_own;
        const double alpha = random_alpha(rng, type), beta = in_place ? 0.0 : random_beta(rng);
        const std::vector<double> before = in_place ? std::vector<double>() : prepare_output(rng, dx, beta);
        const std::string problem = "activation backward " + spec_text(spec) + " alpha " + std::to_string(alpha) +
                                    " beta " + std::to_string(beta) + " x " + describe(x.geometry()) + " y " +
                                    describe(y.geometry()) + " dy " + describe(dy.geometry()) + " dx " +
                                    (in_place ? "in place" : describe(dx.geometry()));
        ASSERT_EQ(
            librednn::cuda::activation_backward(stream(), spec, alpha, y.geometry(), y.data(), dy.geometry(), dy.data(),
                                                x.geometry(), x.data(), beta, dx.geometry(), dx.data()),
            CUDNN_STATUS_SUCCESS)
            << problem;
        finish();
        dx.download();
        Checker check(type, problem);
        size_t element = 0;
        for_each_index(dx.geometry().dims, dx.geometry().nb_dims, [&](const int64_t *i) {
            const double g = activation_gradient_host(spec.mode, spec.nan == CUDNN_PROPAGATE_NAN, spec.coef,
                                                      spec.swish_beta, ys[element], dys[element], xs[element]);
            const double old = beta != 0.0 ? before[element] : 0.0;
            const double want = rounded_to(type, alpha * g + beta * old);
            // Only the inputs the mode reads size its terms: an unread one may hold a NaN (the fill puts
            // some in), which would otherwise turn the whole bound into the output rounding alone.
            const bool reads_y = spec.mode == CUDNN_ACTIVATION_SIGMOID || spec.mode == CUDNN_ACTIVATION_TANH;
            const bool reads_x = !reads_y && spec.mode != CUDNN_ACTIVATION_IDENTITY;
            const double magnitude =
                std::fabs(alpha * dys[element]) *
                    (1.0 + (reads_y ? std::fabs(ys[element]) : 0.0) + (reads_x ? std::fabs(xs[element]) : 0.0)) *
                    (1.0 + std::fabs(spec.coef) + std::fabs(spec.swish_beta)) +
                std::fabs(beta * old);
            check.expect(i, dx.geometry().nb_dims, dx.at(i), want, magnitude);
            ++element;
        });
        EXPECT_EQ(dx.touched_gaps(), 0) << problem;
    }
}

// --- op tensor ------------------------------------------------------------------------------------

double op_host(cudnnOpTensorOp_t op, bool propagate, double a, double b) {
    const bool nan = std::isnan(a) || std::isnan(b);
    switch (op) {
        case CUDNN_OP_TENSOR_ADD: return a + b;
        case CUDNN_OP_TENSOR_MUL: return a * b;
        case CUDNN_OP_TENSOR_MIN: return propagate && nan ? std::nan("") : std::fmin(a, b);
        case CUDNN_OP_TENSOR_MAX: return propagate && nan ? std::nan("") : std::fmax(a, b);
        case CUDNN_OP_TENSOR_SQRT: return std::sqrt(a);
        default: return 1.0 - a;
    }
}

TEST_F(TensorKernels, OpTensorMatchesHostWithBroadcastAndMixedTypes) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    const std::vector<cudnnOpTensorOp_t> ops = {CUDNN_OP_TENSOR_ADD, CUDNN_OP_TENSOR_MUL,  CUDNN_OP_TENSOR_MIN,
                                                CUDNN_OP_TENSOR_MAX, CUDNN_OP_TENSOR_SQRT, CUDNN_OP_TENSOR_NOT};
    for (int trial = 0; trial < 72; ++trial) {
        librednn::cuda::OpTensorSpec spec;
        spec.op = ops[static_cast<size_t>(trial % 6)];
        spec.nan = rng.chance(0.5) ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN;
        // cuDNN's combinations: all one type; int8 inputs to float; float inputs to half, bfloat16 or int8.
        cudnnDataType_t at = rng.pick(kFloatingTypes), ct = at;
        const int mix = static_cast<int>(rng.integer(0, 5));
        if (mix == 0) at = CUDNN_DATA_INT8, ct = rng.chance(0.5) ? CUDNN_DATA_FLOAT : CUDNN_DATA_INT8;
        if (mix == 1)
            at = CUDNN_DATA_FLOAT,
            ct = rng.pick<cudnnDataType_t>({CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16, CUDNN_DATA_INT8});
        spec.compute_type = at == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
        const int nb_dims = static_cast<int>(rng.integer(4, 5));
        const std::vector<int64_t> dims = random_dims(rng, nb_dims, trial % 4 == 0 ? 48 : 10);
        std::vector<int64_t> b_dims = dims;
        if (rng.chance(0.5)) {
            for (int i = 0; i < nb_dims; ++i) {
                if (rng.chance(0.6)) b_dims[static_cast<size_t>(i)] = 1;
            }
        }
        DeviceTensor a(make_geometry(rng, at, dims, random_layout(rng)), rng.chance(0.2) ? 1 : 0);
        DeviceTensor b(make_geometry(rng, at, b_dims, random_layout(rng)));
        const bool in_place = ct == at && rng.chance(0.2);  // c is a
        DeviceTensor c_own(make_geometry(rng, ct, dims, random_layout(rng)));
        ASSERT_TRUE(a.allocated() && b.allocated() && c_own.allocated());
        const bool integer = is_integer(at);
        const bool sqrt_op = spec.op == CUDNN_OP_TENSOR_SQRT;
        auto value = [&](const int64_t *) {
            if (!integer && rng.chance(0.01)) return std::nan("");
            if (integer) return static_cast<double>(rng.integer(sqrt_op ? 0 : -10, 10));
            return sqrt_op ? rng.uniform(0.0, 4.0) : rng.uniform(-3.0, 3.0);
        };
        a.fill(value);
        b.fill(value);
        std::vector<double> as;
        for_each_index(a.geometry().dims, nb_dims, [&](const int64_t *i) { as.push_back(a.at(i)); });
        a.upload();
        b.upload();
        DeviceTensor &c = in_place ? a : c_own;
        const double alpha1 =
            integer || is_integer(ct) ? rng.pick<double>({1.0, 2.0}) : rng.pick<double>({1.0, -0.5, 2.0});
        const double alpha2 =
            integer || is_integer(ct) ? rng.pick<double>({1.0, -1.0}) : rng.pick<double>({1.0, 0.75, -2.0});
        const double beta = in_place ? 0.0 : (is_integer(ct) ? rng.pick<double>({0.0, 1.0}) : random_beta(rng));
        const std::vector<double> before = in_place ? std::vector<double>() : prepare_output(rng, c, beta, -5, 5);
        const std::string problem = "op tensor " + std::to_string(spec.op) +
                                    (spec.nan == CUDNN_PROPAGATE_NAN ? " propagate" : "") + " alpha1 " +
                                    std::to_string(alpha1) + " alpha2 " + std::to_string(alpha2) + " beta " +
                                    std::to_string(beta) + " a " + describe(a.geometry()) + " b " +
                                    describe(b.geometry()) + " c " + (in_place ? "in place" : describe(c.geometry()));
        ASSERT_EQ(librednn::cuda::op_tensor(stream(), spec, alpha1, a.geometry(), a.data(), alpha2, b.geometry(),
                                            b.data(), beta, c.geometry(), c.data()),
                  CUDNN_STATUS_SUCCESS)
            << problem;
        finish();
        c.download();
        Checker check(ct, problem);
        size_t element = 0;
        for_each_index(c.geometry().dims, nb_dims, [&](const int64_t *i) {
            int64_t bi[kMaxDims];
            for (int d = 0; d < nb_dims; ++d) bi[d] = b.geometry().dims[d] == 1 ? 0 : i[d];
            const double av = alpha1 * as[element], bv = alpha2 * b.at(bi);
            const double old = beta != 0.0 ? before[element] : 0.0;
            const double exact = op_host(spec.op, spec.nan == CUDNN_PROPAGATE_NAN, av, bv) + beta * old;
            const double want = rounded_to(ct, exact);
            // A NaN operand that MIN or MAX (not propagating) passes over adds no rounding; left in, it
            // would make the whole bound NaN, which the checker reads as the output rounding alone.
            auto size = [](double v) { return std::isnan(v) ? 0.0 : std::fabs(v); };
            check.expect(i, nb_dims, c.at(i), want, size(av) + size(bv) + size(av * bv) + size(beta * old) + 1.0, 0.0,
                         exact);
            ++element;
        });
        EXPECT_EQ(c.touched_gaps(), 0) << problem;
    }
}

// --- reduce ---------------------------------------------------------------------------------------

const std::vector<cudnnReduceTensorOp_t> kReduceOps = {
    CUDNN_REDUCE_TENSOR_ADD,   CUDNN_REDUCE_TENSOR_MUL,   CUDNN_REDUCE_TENSOR_MIN,
    CUDNN_REDUCE_TENSOR_MAX,   CUDNN_REDUCE_TENSOR_AMAX,  CUDNN_REDUCE_TENSOR_AVG,
    CUDNN_REDUCE_TENSOR_NORM1, CUDNN_REDUCE_TENSOR_NORM2, CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS};

bool has_indices(cudnnReduceTensorOp_t op) {
    return op == CUDNN_REDUCE_TENSOR_MIN || op == CUDNN_REDUCE_TENSOR_MAX || op == CUDNN_REDUCE_TENSOR_AMAX;
}

struct HostReduction {
    double value;
    double magnitude;  // sum of |term|, for the tolerance
    uint32_t index;
};

// The reduction of one slice, `values` in row-major order of the reduced dims.
HostReduction reduce_host(cudnnReduceTensorOp_t op, bool propagate, const std::vector<double> &values) {
    HostReduction r{0.0, 0.0, 0};
    if (op == CUDNN_REDUCE_TENSOR_MUL || op == CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS) r.value = 1.0;
    bool chosen = false;
    for (size_t k = 0; k < values.size(); ++k) {
        const double v = values[k];
        switch (op) {
            case CUDNN_REDUCE_TENSOR_ADD:
            case CUDNN_REDUCE_TENSOR_AVG: r.value += v, r.magnitude += std::fabs(v); break;
            case CUDNN_REDUCE_TENSOR_NORM1: r.value += std::fabs(v), r.magnitude += std::fabs(v); break;
            case CUDNN_REDUCE_TENSOR_NORM2: r.value += v * v, r.magnitude += v * v; break;
            case CUDNN_REDUCE_TENSOR_MUL: r.value *= v; break;
            case CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS:
                if (v != 0.0) r.value *= v;
                break;
            default: {
                const double candidate = op == CUDNN_REDUCE_TENSOR_AMAX ? std::fabs(v) : v;
                if (chosen && std::isnan(r.value)) break;
                if (std::isnan(candidate)) {
                    if (propagate) r.value = candidate, r.index = static_cast<uint32_t>(k), chosen = true;
                    break;
                }
                if (!chosen || (op == CUDNN_REDUCE_TENSOR_MIN ? candidate < r.value : candidate > r.value)) {
                    r.value = candidate, r.index = static_cast<uint32_t>(k), chosen = true;
                }
            }
        }
    }
    if (has_indices(op) && !chosen) r.value = std::nan("");
    if (op == CUDNN_REDUCE_TENSOR_AVG) r.value /= static_cast<double>(values.size()), r.magnitude /= values.size();
    if (op == CUDNN_REDUCE_TENSOR_NORM2) r.value = std::sqrt(r.value), r.magnitude = std::sqrt(r.magnitude);
    if (op == CUDNN_REDUCE_TENSOR_MUL || op == CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS) r.magnitude = std::fabs(r.value);
    return r;
}

struct ReduceCase {
    cudnnReduceTensorOp_t op;
    bool propagate;
    bool indices;
    bool integers;  // small integer data: float sums are exact, so any lost element shows
    cudnnDataType_t a_type, c_type;
    std::vector<int64_t> a_dims, c_dims;
    Layout a_layout, c_layout;
    double alpha, beta;
    bool workspace;
};

// Runs one reduction on the GPU and checks values, indices and gaps; returns the c bytes for
// determinism checks.
void run_reduce_case(Random &rng, const ReduceCase &rc, cudaStream_t stream, std::vector<double> *result = nullptr) {
    const int nb_dims = static_cast<int>(rc.a_dims.size());
    DeviceTensor a(make_geometry(rng, rc.a_type, rc.a_dims, rc.a_layout), rng.chance(0.2) ? 1 : 0);
    DeviceTensor c(make_geometry(rng, rc.c_type, rc.c_dims, rc.c_layout));
    ASSERT_TRUE(a.allocated() && c.allocated());
    const bool product = rc.op == CUDNN_REDUCE_TENSOR_MUL || rc.op == CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS;
    a.fill([&](const int64_t *) {
        if (rc.integers) return static_cast<double>(rng.integer(-3, 3));
        if (rng.chance(rc.propagate ? 0.002 : 0.001)) return std::nan("");
        if (product) return rng.chance(0.05) ? 0.0 : rng.uniform(0.8, 1.25) * (rng.chance(0.5) ? 1 : -1);
        return rng.chance(0.02) ? 0.5 : rng.uniform(-2.0, 2.0);  // repeated values exercise ties
    });
    a.upload();
    const std::vector<double> before = prepare_output(rng, c, rc.beta);
    const TensorGeometry &ag = a.geometry(), &cg = c.geometry();
    const int64_t c_count = cg.element_count();
    librednn::cuda::ReduceSpec spec;
    spec.op = rc.op;
    spec.nan = rc.propagate ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN;
    spec.compute_indices = rc.indices;
    const size_t workspace_bytes = rc.workspace ? librednn::cuda::reduce_workspace_bytes(spec, ag, cg) : 0;
    void *workspace = nullptr, *indices = nullptr;
    if (workspace_bytes) {
        ASSERT_EQ(cudaMalloc(&workspace, workspace_bytes), cudaSuccess);
    }
    ASSERT_EQ(cudaMalloc(&indices, static_cast<size_t>(c_count) * 4), cudaSuccess);
    ASSERT_EQ(cudaMemset(indices, 0xff, static_cast<size_t>(c_count) * 4), cudaSuccess);
    // The memset runs on the legacy stream, which the kernels' non-blocking stream does not wait for: a late
    // poison could overwrite the indices (seen on the H200 under ctest -j4).
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::string problem = "reduce op " + std::to_string(rc.op) + (rc.propagate ? " propagate" : "") +
                                (rc.indices ? " indices" : "") + " alpha " + std::to_string(rc.alpha) + " beta " +
                                std::to_string(rc.beta) + " workspace " + std::to_string(workspace_bytes) + " a " +
                                describe(ag) + " c " + describe(cg);
    const librednn::Status status =
        librednn::cuda::reduce_tensor(stream, spec, workspace, workspace_bytes, static_cast<uint32_t *>(indices),
                                      rc.alpha, ag, a.data(), rc.beta, cg, c.data());
    EXPECT_EQ(status, CUDNN_STATUS_SUCCESS) << problem;
    EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    c.download();
    std::vector<uint32_t> got_indices(static_cast<size_t>(c_count));
    EXPECT_EQ(cudaMemcpy(got_indices.data(), indices, got_indices.size() * 4, cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(workspace);
    cudaFree(indices);
    if (status != CUDNN_STATUS_SUCCESS) return;

    int64_t slice_dims[kMaxDims];
    for (int d = 0; d < nb_dims; ++d) slice_dims[d] = cg.dims[d] == 1 ? ag.dims[d] : 1;
    Checker check(rc.c_type, problem);
    int64_t element = 0;
    int64_t index_failures = 0;
    for_each_index(cg.dims, nb_dims, [&](const int64_t *i) {
        std::vector<double> values;
        for_each_index(slice_dims, nb_dims, [&](const int64_t *s) {
            int64_t ai[kMaxDims];
            for (int d = 0; d < nb_dims; ++d) ai[d] = cg.dims[d] == 1 ? s[d] : i[d];
            values.push_back(a.at(ai));
        });
        const HostReduction r = reduce_host(rc.op, rc.propagate, values);
        const double old = rc.beta != 0.0 ? before[static_cast<size_t>(element)] : 0.0;
        const double want = rounded_to(rc.c_type, rc.alpha * r.value + rc.beta * old);
        const double n = static_cast<double>(values.size());
        // Summation error: at most (n - 1) float ulps of the sum of |terms| (the tolerance header's (3)).
        const double compute = rc.a_type == CUDNN_DATA_DOUBLE ? 0x1p-53 : 0x1p-24;
        const double sum_error = rc.integers ? 0.0 : (n - 1) * compute * std::fabs(rc.alpha) * r.magnitude * 2;
        if (rc.integers) {
            check.expect_exact(i, nb_dims, c.at(i), want);
        } else {
            check.expect(i, nb_dims, c.at(i), want, std::fabs(rc.alpha * r.value) + std::fabs(rc.beta * old), sum_error,
                         rc.alpha * r.value + rc.beta * old);
        }
        if (result) result->push_back(c.at(i));
        if (rc.indices && has_indices(rc.op) && got_indices[static_cast<size_t>(element)] != r.index &&
            index_failures++ < 5) {
            ADD_FAILURE() << problem << ": output " << element << " index " << got_indices[static_cast<size_t>(element)]
                          << ", want " << r.index;
        }
        ++element;
    });
    EXPECT_EQ(c.touched_gaps(), 0) << problem;
}

TEST_F(TensorKernels, ReduceMatchesHostForEveryOpOnRandomShapes) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 90; ++trial) {
        ReduceCase rc;
        rc.op = kReduceOps[static_cast<size_t>(trial % 9)];
        rc.propagate = rng.chance(0.5);
        rc.indices = has_indices(rc.op) && rng.chance(0.7);
        rc.integers = false;
        rc.a_type = rng.pick(kFloatingTypes);
        rc.c_type = rng.chance(0.7) ? rc.a_type : rng.pick(kFloatingTypes);
        const int nb_dims = static_cast<int>(rng.integer(4, 5));
        // Products of long slices leave float's range where double's does not: keep them short.
        const bool product = rc.op == CUDNN_REDUCE_TENSOR_MUL || rc.op == CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS;
        rc.a_dims = random_dims(rng, nb_dims, product ? 5 : trial % 5 == 0 ? 40 : 9);
        rc.c_dims = rc.a_dims;
        for (int d = 0; d < nb_dims; ++d) {
            if (rng.chance(0.5)) rc.c_dims[static_cast<size_t>(d)] = 1;
        }
        rc.a_layout = random_layout(rng);
        rc.c_layout = random_layout(rng);
        rc.alpha = rng.pick<double>({1.0, -0.5, 2.0});
        rc.beta = random_beta(rng);
        rc.workspace = rng.chance(0.7);
        run_reduce_case(rng, rc, stream());
    }
}

TEST_F(TensorKernels, ReduceSplitsLongReductionsWithoutLosingElements) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // Few outputs, long slices: the reduction is split over blocks through the workspace. Integer data
    // makes float sums exact, so one lost or doubled element fails.
    const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> shapes = {
        {{4, 64, 96, 96}, {1, 1, 1, 1}},    // everything to one value: row kernel, split
        {{32, 64, 40, 40}, {1, 64, 1, 1}},  // per-channel sums
        {{256, 8, 8, 16}, {1, 8, 8, 16}},   // over N: column kernel, split
        {{3, 5, 7, 20000}, {3, 5, 7, 1}},   // long rows
    };
    for (const auto &shape : shapes) {
        for (Layout layout : {Layout::nchw, Layout::nhwc}) {
            for (cudnnReduceTensorOp_t op :
                 {CUDNN_REDUCE_TENSOR_ADD, CUDNN_REDUCE_TENSOR_MAX, CUDNN_REDUCE_TENSOR_NORM1}) {
                ReduceCase rc{op,
                              false,
                              op == CUDNN_REDUCE_TENSOR_MAX,
                              true,
                              CUDNN_DATA_FLOAT,
                              CUDNN_DATA_FLOAT,
                              shape.first,
                              shape.second,
                              layout,
                              Layout::nchw,
                              1.0,
                              0.0,
                              true};
                run_reduce_case(rng, rc, stream());
            }
        }
    }
    // Half data, accumulated in float.
    ReduceCase rc{CUDNN_REDUCE_TENSOR_ADD,
                  false,
                  false,
                  true,
                  CUDNN_DATA_HALF,
                  CUDNN_DATA_FLOAT,
                  {8, 32, 64, 64},
                  {1, 32, 1, 1},
                  Layout::nhwc,
                  Layout::nchw,
                  1.0,
                  0.0,
                  true};
    run_reduce_case(rng, rc, stream());
}

TEST_F(TensorKernels, ReduceGivesTheSameBitsEveryRun) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    const uint64_t seed = rng.seed();
    std::vector<double> first, second;
    for (std::vector<double> *result : {&first, &second}) {
        Random same;  // same seed: same data
        same.engine().seed(seed);
        ReduceCase rc{CUDNN_REDUCE_TENSOR_ADD,
                      false,
                      false,
                      false,
                      CUDNN_DATA_FLOAT,
                      CUDNN_DATA_FLOAT,
                      {16, 64, 64, 64},
                      {1, 64, 1, 1},
                      Layout::nchw,
                      Layout::nchw,
                      1.0,
                      0.0,
                      true};
        run_reduce_case(same, rc, stream(), result);
    }
    ASSERT_EQ(first.size(), second.size());
    EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(double)), 0);
}

// --- softmax --------------------------------------------------------------------------------------

struct SoftmaxCase {
    cudnnSoftmaxAlgorithm_t algorithm;
    cudnnSoftmaxMode_t mode;
    bool backward;
    cudnnDataType_t type;
    std::vector<int64_t> dims;
    Layout layouts[3];  // output, input 0, input 1
    double alpha, beta;
    bool in_place;
    double minus_infinity = 0.0;  // forward: the chance of an element being -inf
    double offset = 0.0;          // forward: added to every x (rows of large magnitude)
};

void run_softmax_case(Random &rng, const SoftmaxCase &sc, cudaStream_t stream, std::vector<double> *result = nullptr) {
    const int nb_dims = static_cast<int>(sc.dims.size());
    DeviceTensor in0(make_geometry(rng, sc.type, sc.dims, sc.layouts[1]), rng.chance(0.2) ? 1 : 0);
    DeviceTensor in1(make_geometry(rng, sc.type, sc.dims, sc.layouts[2]));
    DeviceTensor out_own(make_geometry(rng, sc.type, sc.dims, sc.layouts[0]), rng.chance(0.2) ? 1 : 0);
    ASSERT_TRUE(in0.allocated() && in1.allocated() && out_own.allocated());
    // Forward: in0 is x. Backward: in0 is y (a softmax output), in1 is dy; in place means dx is dy.
    int64_t row_dims[kMaxDims], batch_dims[kMaxDims];
    for (int d = 0; d < nb_dims; ++d) {
        const bool in_row = sc.mode == CUDNN_SOFTMAX_MODE_INSTANCE ? d >= 1 : d == 1;
        row_dims[d] = in_row ? sc.dims[static_cast<size_t>(d)] : 1;
        batch_dims[d] = in_row ? 1 : sc.dims[static_cast<size_t>(d)];
    }
    double row_length = 1;
    for (int d = 0; d < nb_dims; ++d) row_length *= static_cast<double>(row_dims[d]);
    const bool log = sc.algorithm == CUDNN_SOFTMAX_LOG;
    if (!sc.backward) {
        in0.fill([&](const int64_t *) {
            if (sc.minus_infinity > 0.0 && rng.chance(sc.minus_infinity)) return -HUGE_VAL;
            return sc.offset + (rng.chance(0.001) ? 30.0 : rng.uniform(-8.0, 8.0));
        });
    } else {
        // y: positive values summing to about one per row (log: their logarithms); dy random.
        in0.fill([&](const int64_t *) {
            const double p = rng.uniform(0.2, 1.8) / row_length;
            return log ? std::log(p) : p;
        });
        in1.fill_random(rng, -1.0, 1.0);
    }
    in0.upload();
    in1.upload();
    DeviceTensor &out = sc.in_place ? (sc.backward ? in1 : in0) : out_own;
    std::vector<std::vector<double>> inputs(2);
    const TensorGeometry og = out.geometry();
    for_each_index(og.dims, nb_dims, [&](const int64_t *i) {
        inputs[0].push_back(in0.at(i));
        inputs[1].push_back(in1.at(i));
    });
    const std::vector<double> before = sc.in_place ? std::vector<double>() : prepare_output(rng, out, sc.beta);
    const std::string problem = std::string("softmax ") + (sc.backward ? "backward" : "forward") + " algorithm " +
                                std::to_string(sc.algorithm) + " mode " + std::to_string(sc.mode) + " alpha " +
                                std::to_string(sc.alpha) + " beta " + std::to_string(sc.beta) + " in0 " +
                                describe(in0.geometry()) + " in1 " + describe(in1.geometry()) + " out " +
                                (sc.in_place ? "in place" : describe(og));
    const librednn::Status status =
        sc.backward ? librednn::cuda::softmax_backward(stream, sc.algorithm, sc.mode, sc.alpha, in0.geometry(),
                                                       in0.data(), in1.geometry(), in1.data(), sc.beta, og, out.data())
                    : librednn::cuda::softmax_forward(stream, sc.algorithm, sc.mode, sc.alpha, in0.geometry(),
                                                      in0.data(), sc.beta, og, out.data());
    ASSERT_EQ(status, CUDNN_STATUS_SUCCESS) << problem;
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    out.download();

    // Position of each element in the row-major order of all dims, for the host arrays.
    int64_t weight[kMaxDims];
    int64_t next = 1;
    for (int d = nb_dims - 1; d >= 0; --d) weight[d] = next, next *= sc.dims[static_cast<size_t>(d)];
    Checker check(sc.type, problem);
    for_each_index(batch_dims, nb_dims, [&](const int64_t *b) {
        std::vector<int64_t> positions;
        std::vector<std::vector<int64_t>> indices;
        for_each_index(row_dims, nb_dims, [&](const int64_t *r) {
            std::vector<int64_t> index(static_cast<size_t>(nb_dims));
            int64_t position = 0;
            for (int d = 0; d < nb_dims; ++d)
                index[static_cast<size_t>(d)] = b[d] + r[d], position += (b[d] + r[d]) * weight[d];
            positions.push_back(position);
            indices.push_back(index);
        });
        double max = -INFINITY, sum = 0.0, magnitude_sum = 0.0;
        for (int64_t p : positions) max = std::max(max, inputs[0][static_cast<size_t>(p)]);
        if (sc.algorithm == CUDNN_SOFTMAX_FAST && !sc.backward) max = 0.0;
        for (int64_t p : positions) {
            const double v0 = inputs[0][static_cast<size_t>(p)], v1 = inputs[1][static_cast<size_t>(p)];
            const double term = !sc.backward ? std::exp(v0 - max) : log ? v1 : v0 * v1;
            sum += term;
            magnitude_sum += std::fabs(term);
        }
        const double n = static_cast<double>(positions.size());
        for (size_t e = 0; e < positions.size(); ++e) {
            const size_t p = static_cast<size_t>(positions[e]);
            const double v0 = inputs[0][p], v1 = inputs[1][p];
            // The row sum errs by up to (n - 1) ulps of the sum of its |terms| (tolerances.hpp, (3)), and
            // every element of the row carries that error: relatively (forward, backward) or absolutely
            // through the logarithm (LOG forward).
            const double compute = sc.type == CUDNN_DATA_DOUBLE ? 0x1p-53 : 0x1p-24;
            const double sum_relative = 2 * (n - 1) * compute;
            double value, magnitude, sum_error;
            if (!sc.backward) {
                value = log ? v0 - max - std::log(sum) : std::exp(v0 - max) / sum;
                // ACCURATE: the float x - max is rounded before exp, which turns its half ulp into a
                // relative error of |x - max| half ulps of the result (the outliers of 30 put elements
                // 35 below the max): exp's argument is a term of size |x - max|.
                const double argument = sc.algorithm == CUDNN_SOFTMAX_ACCURATE ? std::fabs(v0 - max) : 0.0;
                magnitude = log ? std::fabs(v0) + std::fabs(max) + std::fabs(std::log(sum))
                                : std::fabs(value) * (1.0 + argument);
                sum_error = log ? sum_relative : sum_relative * std::fabs(value);
            } else {
                value = log ? v1 - std::exp(v0) * sum : v0 * (v1 - sum);
                magnitude = log ? std::fabs(v1) + std::exp(v0) * magnitude_sum
                                : std::fabs(v0) * (std::fabs(v1) + magnitude_sum);
                sum_error = sum_relative * (log ? std::exp(v0) : std::fabs(v0)) * magnitude_sum;
            }
            const double old = sc.beta != 0.0 ? before[p] : 0.0;
            const double want = rounded_to(sc.type, sc.alpha * value + sc.beta * old);
            check.expect(indices[e].data(), nb_dims, out.at(indices[e].data()), want,
                         std::fabs(sc.alpha) * magnitude + std::fabs(sc.beta * old), std::fabs(sc.alpha) * sum_error);
            if (result) result->push_back(out.at(indices[e].data()));
        }
    });
    EXPECT_EQ(out.touched_gaps(), 0) << problem;
}

const std::vector<cudnnSoftmaxAlgorithm_t> kSoftmaxAlgorithms = {CUDNN_SOFTMAX_FAST, CUDNN_SOFTMAX_ACCURATE,
                                                                 CUDNN_SOFTMAX_LOG};

TEST_F(TensorKernels, SoftmaxForwardMatchesHostOnRandomShapes) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 60; ++trial) {
        SoftmaxCase sc;
        sc.algorithm = kSoftmaxAlgorithms[static_cast<size_t>(trial % 3)];
        sc.mode = trial % 2 ? CUDNN_SOFTMAX_MODE_CHANNEL : CUDNN_SOFTMAX_MODE_INSTANCE;
        sc.backward = false;
        sc.type = rng.pick(kFloatingTypes);
        sc.dims = random_dims(rng, static_cast<int>(rng.integer(4, 5)), trial % 4 == 0 ? 40 : 12);
        if (trial % 6 == 5) sc.dims[1] = rng.integer(100, 1500);  // long channel rows
        for (Layout &layout : sc.layouts) layout = random_layout(rng);
        sc.in_place = rng.chance(0.15);
        if (sc.in_place) sc.layouts[0] = sc.layouts[1];
        sc.alpha = rng.pick<double>({1.0, 0.5, -2.0});
        sc.beta = sc.in_place ? 0.0 : random_beta(rng);
        run_softmax_case(rng, sc, stream());
    }
}

TEST_F(TensorKernels, SoftmaxBackwardMatchesHostOnRandomShapes) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 60; ++trial) {
        SoftmaxCase sc;
        sc.algorithm = kSoftmaxAlgorithms[static_cast<size_t>(trial % 3)];
        sc.mode = trial % 2 ? CUDNN_SOFTMAX_MODE_CHANNEL : CUDNN_SOFTMAX_MODE_INSTANCE;
        sc.backward = true;
        sc.type = rng.pick(kFloatingTypes);
        sc.dims = random_dims(rng, static_cast<int>(rng.integer(4, 5)), trial % 4 == 0 ? 40 : 12);
        if (trial % 6 == 5) sc.dims[1] = rng.integer(100, 1500);
        for (Layout &layout : sc.layouts) layout = random_layout(rng);
        sc.in_place = rng.chance(0.15);
        if (sc.in_place) sc.layouts[0] = sc.layouts[2];
        sc.alpha = rng.pick<double>({1.0, 0.5, -2.0});
        sc.beta = sc.in_place ? 0.0 : random_beta(rng);
        run_softmax_case(rng, sc, stream());
    }
}

TEST_F(TensorKernels, SoftmaxHandlesLongContiguousRows) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // Rows from a warp each up to a 1024-thread block each, cached in shared memory or (too long to
    // cache: double backward) read twice; packed NCHW INSTANCE rows and NHWC CHANNEL rows.
    // 2 x 3071: a double backward row of 3072 padded elements caches exactly 48 KB of y and dy.
    const std::vector<std::vector<int64_t>> shapes = {{64, 1000, 1, 1}, {16, 3000, 1, 1}, {8, 12000, 1, 1},
                                                      {4, 32000, 1, 1}, {2, 33, 7, 7},    {3, 2, 1, 40000},
                                                      {2, 3071, 1, 1}};
    for (const auto &dims : shapes) {
        for (cudnnDataType_t type : kFloatingTypes) {
            for (bool backward : {false, true}) {
                const bool blend = rng.chance(0.5);  // the kernels' blending loops are separate ones
                SoftmaxCase sc{rng.pick(kSoftmaxAlgorithms),
                               CUDNN_SOFTMAX_MODE_INSTANCE,
                               backward,
                               type,
                               dims,
                               {Layout::nchw, Layout::nchw, Layout::nchw},
                               blend ? -2.0 : 1.0,
                               blend ? 0.5 : 0.0,
                               false};
                run_softmax_case(rng, sc, stream());
                SoftmaxCase channel{rng.pick(kSoftmaxAlgorithms),
                                    CUDNN_SOFTMAX_MODE_CHANNEL,
                                    backward,
                                    type,
                                    {dims[0], dims[1], 2, 3},
                                    {Layout::nhwc, Layout::nhwc, Layout::nhwc},
                                    0.5,
                                    1.0,
                                    false};
                if (dims[1] <= 12000) run_softmax_case(rng, channel, stream());
            }
        }
    }
}

TEST_F(TensorKernels, SoftmaxChannelRowsOfPackedNchwImages) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // CHANNEL mode on packed NCHW: a pixel's channels are H*W apart, neighbouring pixels neighbours. Images
    // of at least 32 pixels take the channel tiles; whole 16-byte vectors are staged in shared memory (for
    // half: 28x28 and 4x8 images, tiles of 8 or 4 vectors running on across images and ending part-filled),
    // long rows split over a cluster: 1501 forward over 2 blocks (751 and 750 channels), backward over 8;
    // 3000 forward over 4; 5000 over 8; 32768 forward is the longest staged row (1 vector, 8 blocks), its
    // backward takes the element tiles, as do 5x7 images (35 pixels: no whole vectors). Forward tiles of 4
    // vectors run in pairs (clusters of 2): an odd count leaves the last pair's second block empty (half
    // 2x1000x28x28: 49 tiles; float and double 1x700x4x10: 3 and 5, the last part-filled).
    const std::vector<std::vector<int64_t>> shapes = {{2, 1000, 28, 28}, {3, 10, 4, 8},    {2, 3000, 4, 8},
                                                      {4, 37, 4, 8},     {2, 300, 5, 7},   {1, 5000, 4, 8},
                                                      {3, 1501, 4, 8},   {1, 32768, 4, 8}, {1, 700, 4, 10}};
    for (const auto &dims : shapes) {
        for (cudnnDataType_t type : kFloatingTypes) {
            for (bool backward : {false, true}) {
                const bool blend = rng.chance(0.5);
                SoftmaxCase sc{rng.pick(kSoftmaxAlgorithms),
                               CUDNN_SOFTMAX_MODE_CHANNEL,
                               backward,
                               type,
                               dims,
                               {Layout::nchw, Layout::nchw, Layout::nchw},
                               blend ? 0.5 : 1.0,
                               blend ? 1.0 : 0.0,
                               false};
                run_softmax_case(rng, sc, stream());
            }
        }
    }
}

TEST_F(TensorKernels, SoftmaxForwardHandlesMinusInfinity) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // -inf elements add nothing and give 0 (LOG: -inf); a row of nothing but -inf gives NaN (0/0). Long
    // rows (cluster kernels), channel tiles and short rows.
    const std::vector<std::vector<int64_t>> shapes = {
        {4, 32000, 1, 1}, {2, 12000, 1, 1}, {2, 1000, 28, 28}, {3, 50, 2, 3}};
    for (const auto &dims : shapes) {
        for (cudnnDataType_t type : kFloatingTypes) {
            for (cudnnSoftmaxAlgorithm_t algorithm : kSoftmaxAlgorithms) {
                for (double chance : {0.3, 1.0}) {
                    SoftmaxCase sc{algorithm, dims[2] > 1 ? CUDNN_SOFTMAX_MODE_CHANNEL : CUDNN_SOFTMAX_MODE_INSTANCE,
                                   false,     type,
                                   dims,      {Layout::nchw, Layout::nchw, Layout::nchw},
                                   1.0,       0.0,
                                   false,     chance};
                    run_softmax_case(rng, sc, stream());
                }
            }
        }
    }
}

TEST_F(TensorKernels, SoftmaxForwardHandlesRowsOfLargeMagnitude) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // x of large magnitude (most rows' elements round to one value): e^(x - max) must not lose the
    // subtraction (an exponent folded into x log2(e) - max log2(e) erred by half an ulp of max log2(e):
    // bfloat16 rows near 3e9 overflowed to NaN, LOG outputs near 1e7 were off by 0.3). Cluster, row,
    // staged channel and split channel kernels; ACCURATE and LOG (FAST overflows by definition).
    struct Shape {
        std::vector<int64_t> dims;
        cudnnSoftmaxMode_t mode;
    };
    const std::vector<Shape> shapes = {{{2, 12000, 1, 1}, CUDNN_SOFTMAX_MODE_INSTANCE},
                                       {{4, 100, 1, 1}, CUDNN_SOFTMAX_MODE_INSTANCE},
                                       {{2, 600, 4, 8}, CUDNN_SOFTMAX_MODE_CHANNEL},
                                       {{3, 1501, 4, 8}, CUDNN_SOFTMAX_MODE_CHANNEL}};
    const std::vector<std::pair<cudnnDataType_t, double>> offsets = {
        {CUDNN_DATA_HALF, 60000.0},  {CUDNN_DATA_HALF, -60000.0}, {CUDNN_DATA_BFLOAT16, 3e9},
        {CUDNN_DATA_BFLOAT16, -1e9}, {CUDNN_DATA_BFLOAT16, 1e7},  {CUDNN_DATA_FLOAT, 1e30},
        {CUDNN_DATA_FLOAT, -1e30},   {CUDNN_DATA_DOUBLE, 1e300}};
    for (const Shape &shape : shapes) {
        for (const auto &[type, offset] : offsets) {
            for (cudnnSoftmaxAlgorithm_t algorithm : {CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_LOG}) {
                SoftmaxCase sc{algorithm, shape.mode, false,
                               type,      shape.dims, {Layout::nchw, Layout::nchw, Layout::nchw},
                               1.0,       0.0,        false};
                sc.offset = offset;
                run_softmax_case(rng, sc, stream());
            }
        }
    }
}

TEST_F(TensorKernels, SoftmaxGivesTheSameBitsEveryRun) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    const uint64_t seed = rng.seed();
    std::vector<double> first, second;
    for (std::vector<double> *result : {&first, &second}) {
        Random same;
        same.engine().seed(seed);
        SoftmaxCase sc{CUDNN_SOFTMAX_ACCURATE,
                       CUDNN_SOFTMAX_MODE_INSTANCE,
                       false,
                       CUDNN_DATA_FLOAT,
                       {8, 5000, 1, 1},
                       {Layout::nchw, Layout::nchw, Layout::nchw},
                       1.0,
                       0.0,
                       false};
        run_softmax_case(same, sc, stream(), result);
    }
    ASSERT_EQ(first.size(), second.size());
    EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(double)), 0);
}

TEST_F(TensorKernels, ReduceTakesInt8DataAndRoundsInt8Results) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // Integers in [-3, 3] keep the float computation exact: sums and maxima always; averages, square
    // roots and scalings by +-1 round once, as the host does; products either stay below 128 in
    // magnitude (exact) or saturate int8 on both sides. So results must equal the host's, rounded to
    // nearest even and saturated, bit for bit.
    for (int trial = 0; trial < 81; ++trial) {
        ReduceCase rc;
        rc.op = kReduceOps[static_cast<size_t>(trial % 9)];
        rc.propagate = rng.chance(0.5);
        rc.indices = has_indices(rc.op) && rng.chance(0.7);
        rc.integers = true;
        const bool product = rc.op == CUDNN_REDUCE_TENSOR_MUL || rc.op == CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS;
        // int8 into int8, int8 into float, float or half into int8. A product of long slices leaves
        // float's range (and 0 * inf is NaN) where the host's does not: an int8 c saturates both alike.
        switch (trial / 9 % 3) {
            case 0: rc.a_type = CUDNN_DATA_INT8, rc.c_type = CUDNN_DATA_INT8; break;
            case 1: rc.a_type = CUDNN_DATA_INT8, rc.c_type = product ? CUDNN_DATA_INT8 : CUDNN_DATA_FLOAT; break;
            default: rc.a_type = trial % 2 ? CUDNN_DATA_FLOAT : CUDNN_DATA_HALF, rc.c_type = CUDNN_DATA_INT8;
        }
        const int nb_dims = static_cast<int>(rng.integer(4, 5));
        // Slices of at most 6^5 elements keep sums of squares of [-3, 3] exact in float.
        rc.a_dims = random_dims(rng, nb_dims, 6);
        rc.c_dims = rc.a_dims;
        for (int d = 0; d < nb_dims; ++d) {
            if (rng.chance(0.5)) rc.c_dims[static_cast<size_t>(d)] = 1;
        }
        rc.a_layout = random_layout(rng);
        rc.c_layout = random_layout(rng);
        rc.alpha = rng.pick<double>({1.0, -1.0});
        // beta * c adds integers to an int8 result; a float c would round the sum once more.
        rc.beta = rc.c_type == CUDNN_DATA_INT8 && rng.chance(0.5) ? 1.0 : 0.0;
        rc.workspace = rng.chance(0.7);
        run_reduce_case(rng, rc, stream());
    }
    // Long int8 rows (16 lanes per 16-byte load) and NHWC per-channel sums, split through the workspace.
    for (Layout layout : {Layout::nchw, Layout::nhwc}) {
        ReduceCase rc{CUDNN_REDUCE_TENSOR_ADD,
                      false,
                      false,
                      true,
                      CUDNN_DATA_INT8,
                      CUDNN_DATA_FLOAT,
                      {4, 64, 32, 32},
                      {1, 64, 1, 1},
                      layout,
                      Layout::nchw,
                      1.0,
                      0.0,
                      true};
        run_reduce_case(rng, rc, stream());
        rc.op = CUDNN_REDUCE_TENSOR_MAX;
        rc.indices = true;
        rc.c_type = CUDNN_DATA_INT8;
        rc.c_dims = {1, 1, 1, 1};
        run_reduce_case(rng, rc, stream());
    }
}

TEST_F(TensorKernels, ReshapeAndInt8ReductionsRejectWhatTheyCannotDo) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    const int64_t dims[4] = {2, 3, 4, 5}, padded_dims[4] = {2, 3, 6, 5}, reduced_dims[4] = {2, 1, 1, 1};
    const TensorGeometry f = librednn::packed_geometry(CUDNN_DATA_FLOAT, 4, dims, librednn::PackedLayout::nchw);
    const TensorGeometry i64 = librednn::packed_geometry(CUDNN_DATA_INT64, 4, dims, librednn::PackedLayout::nchw);
    const TensorGeometry padded =
        librednn::packed_geometry(CUDNN_DATA_FLOAT, 4, padded_dims, librednn::PackedLayout::nchw);
    librednn::cuda::ReshapeSpec spec;
    spec.pad_before[2] = 1;
    spec.pad_after[2] = 1;
    // y must be x transformed: 2x3x6x5 here, so 2x3x4x5 is refused before any launch.
    EXPECT_EQ(librednn::cuda::transform_reshape(stream(), spec, 1.0, f, nullptr, 0.0, f, nullptr),
              CUDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(librednn::cuda::transform_reshape(stream(), spec, 1.0, i64, nullptr, 0.0, padded, nullptr),
              CUDNN_STATUS_NOT_SUPPORTED);
    const TensorGeometry i8 = librednn::packed_geometry(CUDNN_DATA_INT8, 4, dims, librednn::PackedLayout::nchw);
    const TensorGeometry u8 = librednn::packed_geometry(CUDNN_DATA_UINT8, 4, dims, librednn::PackedLayout::nchw);
    const TensorGeometry c_double =
        librednn::packed_geometry(CUDNN_DATA_DOUBLE, 4, reduced_dims, librednn::PackedLayout::nchw);
    const TensorGeometry c_float =
        librednn::packed_geometry(CUDNN_DATA_FLOAT, 4, reduced_dims, librednn::PackedLayout::nchw);
    librednn::cuda::ReduceSpec reduce;
    EXPECT_EQ(
        librednn::cuda::reduce_tensor(stream(), reduce, nullptr, 0, nullptr, 1.0, i8, nullptr, 0.0, c_double, nullptr),
        CUDNN_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(
        librednn::cuda::reduce_tensor(stream(), reduce, nullptr, 0, nullptr, 1.0, u8, nullptr, 0.0, c_float, nullptr),
        CUDNN_STATUS_NOT_SUPPORTED);
    finish();
}

// --- rejections -----------------------------------------------------------------------------------

TEST_F(TensorKernels, UnsupportedCombinationsAreRejectedWithAReason) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    const int64_t dims[4] = {2, 3, 4, 5};
    const TensorGeometry f = librednn::packed_geometry(CUDNN_DATA_FLOAT, 4, dims, librednn::PackedLayout::nchw);
    const TensorGeometry i8 = librednn::packed_geometry(CUDNN_DATA_INT8, 4, dims, librednn::PackedLayout::nchw);
    const TensorGeometry i64 = librednn::packed_geometry(CUDNN_DATA_INT64, 4, dims, librednn::PackedLayout::nchw);
    const int64_t other_dims[4] = {2, 3, 4, 6};
    const TensorGeometry other =
        librednn::packed_geometry(CUDNN_DATA_FLOAT, 4, other_dims, librednn::PackedLayout::nchw);
    librednn::cuda::ActivationSpec spec;
    EXPECT_EQ(librednn::cuda::activation_forward(stream(), spec, 1.0, i8, nullptr, 0.0, i8, nullptr),
              CUDNN_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(librednn::cuda::transform_tensor(stream(), 1.0, i64, nullptr, 0.0, f, nullptr),
              CUDNN_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(librednn::cuda::transform_tensor(stream(), 1.0, other, nullptr, 0.0, f, nullptr), CUDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(librednn::cuda::softmax_forward(stream(), CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, 1.0, i8,
                                              nullptr, 0.0, i8, nullptr),
              CUDNN_STATUS_NOT_SUPPORTED);
    librednn::cuda::ReduceSpec reduce;
    EXPECT_EQ(
        librednn::cuda::reduce_tensor(stream(), reduce, nullptr, 0, nullptr, 1.0, f, nullptr, 0.0, other, nullptr),
        CUDNN_STATUS_BAD_PARAM);
    finish();
}

// --- padding channels into packed NHWC pixels ---------------------------------------------------------

// y (downloaded) against alpha * T(x) + beta * before, T(x) found by scattering x on the host.
void check_reshaped(const librednn::cuda::ReshapeSpec &spec, double alpha, double beta, DeviceTensor &x,
                    DeviceTensor &y, const std::vector<double> &before, const std::string &problem) {
    const TensorGeometry &yg = y.geometry();
    const int nb_dims = yg.nb_dims;
    std::vector<double> transformed(static_cast<size_t>(yg.element_count()), 0.0);
    auto row_major = [&](const int64_t *index) {
        int64_t at = 0;
        for (int d = 0; d < nb_dims; ++d) at = at * yg.dims[d] + index[d];
        return static_cast<size_t>(at);
    };
    for_each_index(x.geometry().dims, nb_dims, [&](const int64_t *xi) {
        int64_t yi[kMaxDims];
        if (reshape_target(spec, x.geometry(), yg, xi, yi)) transformed[row_major(yi)] = x.at(xi);
    });
    Checker check(yg.dtype, problem);
    for_each_index(yg.dims, nb_dims, [&](const int64_t *i) {
        const size_t at = row_major(i);
        const double term = alpha * transformed[at];
        const double old = beta != 0.0 ? before[at] : 0.0;
        check.expect(i, nb_dims, y.at(i), rounded_to(yg.dtype, term + beta * old),
                     std::fabs(term) + std::fabs(beta * old), 0.0, term + beta * old);
    });
    EXPECT_EQ(y.touched_gaps(), 0) << problem << ": wrote between the elements";
}

TEST_F(TensorKernels, TransformReshapePadsChannelsIntoPackedNhwcPixelsOfEveryWidth) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // Packed NHWC y whose pixel is 4, 8 or 16 bytes (the vector-store path), for 1, 2, 4 and 8-byte
    // types: channels padded on either side or cropped, x packed NCHW or NHWC (or with gaps), pixel counts
    // odd and small or past one block's share, alpha and beta.
    for (int trial = 0; trial < 140; ++trial) {
        const cudnnDataType_t type = kAllScalarTypes[static_cast<size_t>(trial) % kAllScalarTypes.size()];
        const int64_t bytes = static_cast<int64_t>(scalar_bytes(type));
        std::vector<int64_t> widths;
        for (int64_t width : {4, 8, 16}) {
            if (width >= bytes) widths.push_back(width);
        }
        const int64_t y_channels = rng.pick(widths) / bytes;
        const int64_t x_channels = rng.chance(0.8) ? rng.integer(1, y_channels) : y_channels + rng.integer(1, 3);
        const int64_t change = y_channels - x_channels;  // negative: cropping
        librednn::cuda::ReshapeSpec spec;
        spec.pad_before[1] = static_cast<int32_t>(change >= 0 ? rng.integer(0, change) : rng.integer(change, 0));
        spec.pad_after[1] = static_cast<int32_t>(change - spec.pad_before[1]);
        const int nb_dims = trial % 7 == 3 ? 5 : trial % 7 == 5 ? 3 : 4;
        std::vector<int64_t> dims = random_dims(rng, nb_dims, 9);
        // Now and then more pixels than a block takes at once: an odd count, and one whole words hold.
        if (trial % 10 == 0 && nb_dims == 4) dims = {rng.integer(1, 3), 1, 37, 41};
        if (trial % 10 == 5 && nb_dims == 4) dims = {rng.integer(1, 3), 1, 44, 48};
        dims[1] = x_channels;
        std::vector<int64_t> y_dims = dims;
        y_dims[1] = y_channels;
        const Layout x_layout = rng.pick<Layout>({Layout::nchw, Layout::nchw, Layout::nhwc, Layout::padded});
        DeviceTensor x(make_geometry(rng, type, dims, x_layout));
        DeviceTensor y(make_geometry(rng, type, y_dims, Layout::nhwc));
        ASSERT_TRUE(x.allocated() && y.allocated());
        const double alpha = rng.chance(0.5) ? 1.0 : random_alpha(rng, type);
        const double beta = rng.chance(0.5) ? 0.0 : random_beta(rng);
        x.fill_random(rng, is_integer(type) ? 0 : -3.0, is_integer(type) ? 100 : 3.0);
        x.upload();
        const std::vector<double> before = prepare_output(rng, y, beta, 0, 20);
        std::ostringstream problem;
        problem << "pad channels x " << describe(x.geometry()) << " y " << describe(y.geometry()) << " alpha " << alpha
                << " beta " << beta << " pad " << spec.pad_before[1] << " " << spec.pad_after[1];
        ASSERT_EQ(librednn::cuda::transform_reshape(stream(), spec, alpha, x.geometry(), x.data(), beta, y.geometry(),
                                                    y.data()),
                  CUDNN_STATUS_SUCCESS)
            << problem.str();
        finish();
        y.download();
        check_reshaped(spec, alpha, beta, x, y, before, problem.str());
    }
}

TEST_F(TensorKernels, TransformReshapePadsChannelsOfMorePixelsThanOneGridPass) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // 8 million pixels (an odd count), more than the grid covers in one pass on any current GPU: every
    // pixel must be written exactly once. int8 NCHW with 3 channels into NHWC with 4; bits are copied.
    const int64_t images = 2, channels = 3, padded = 4, height = 2003, width = 2003;
    const int64_t plane = height * width, x_count = images * channels * plane, y_count = images * padded * plane;
    const int64_t x_dims[4] = {images, channels, height, width}, y_dims[4] = {images, padded, height, width};
    const TensorGeometry xg = librednn::packed_geometry(CUDNN_DATA_INT8, 4, x_dims, librednn::PackedLayout::nchw);
    const TensorGeometry yg = librednn::packed_geometry(CUDNN_DATA_INT8, 4, y_dims, librednn::PackedLayout::nhwc);
    std::vector<uint8_t> x(static_cast<size_t>(x_count)), y(static_cast<size_t>(y_count), 0xff);
    std::uniform_int_distribution<int> byte(0, 255);
    for (uint8_t &value : x) value = static_cast<uint8_t>(byte(rng.engine()));
    void *x_device = nullptr, *y_device = nullptr;
    ASSERT_EQ(cudaMalloc(&x_device, x.size()), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&y_device, y.size()), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(x_device, x.data(), x.size(), cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(y_device, y.data(), y.size(), cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // the DMA lands before the kernel's stream runs
    librednn::cuda::ReshapeSpec spec;
    spec.pad_after[1] = static_cast<int32_t>(padded - channels);
    EXPECT_EQ(librednn::cuda::transform_reshape(stream(), spec, 1.0, xg, x_device, 0.0, yg, y_device),
              CUDNN_STATUS_SUCCESS);
    finish();
    EXPECT_EQ(cudaMemcpy(y.data(), y_device, y.size(), cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(x_device);
    cudaFree(y_device);
    int64_t wrong = 0, first_wrong = -1;
    for (int64_t n = 0; n < images; ++n) {
        for (int64_t p = 0; p < plane; ++p) {
            for (int64_t c = 0; c < padded; ++c) {
                const uint8_t want = c < channels ? x[static_cast<size_t>((n * channels + c) * plane + p)] : 0;
                const int64_t at = (n * plane + p) * padded + c;
                if (y[static_cast<size_t>(at)] == want) continue;
                if (wrong++ == 0) first_wrong = at;
            }
        }
    }
    EXPECT_EQ(wrong, 0) << "pixels padded wrong, the first at byte " << first_wrong << " of y";
}

TEST_F(TensorKernels, TransformReshapeBoundsChecksDimsOfExtentOne) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // A y dim of extent 1 never enters the kernel's walk, but its index still meets the padding: shifting
    // a 1-high x down by one leaves only padding; cropping the first row of a 2-high x keeps row 1.
    for (int cropped = 0; cropped < 2; ++cropped) {
        for (cudnnDataType_t type : {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF}) {
            const std::vector<int64_t> dims = {2, 3, cropped ? 2 : 1, 5}, y_dims = {2, 3, 1, 5};
            librednn::cuda::ReshapeSpec spec;
            spec.pad_before[2] = cropped ? -1 : 1;
            spec.pad_after[2] = cropped ? 0 : -1;
            DeviceTensor x(make_geometry(rng, type, dims, Layout::nchw));
            DeviceTensor y(make_geometry(rng, type, y_dims, Layout::nchw));
            ASSERT_TRUE(x.allocated() && y.allocated());
            x.fill_random(rng, 1.0, 3.0);
            x.upload();
            const std::vector<double> before = prepare_output(rng, y, 0.0);
            const std::string problem = std::string(cropped ? "crop" : "shift") + " x " + describe(x.geometry());
            ASSERT_EQ(librednn::cuda::transform_reshape(stream(), spec, 1.0, x.geometry(), x.data(), 0.0, y.geometry(),
                                                        y.data()),
                      CUDNN_STATUS_SUCCESS)
                << problem;
            finish();
            y.download();
            check_reshaped(spec, 1.0, 0.0, x, y, before, problem);
        }
    }
}

}  // namespace

// --- reduce: the fast paths ---------------------------------------------------------------------------
// The kernels' paths, each at a size where the reduction splits over blocks: rows walking contiguous runs
// (NCHW per-channel sums over planes of a few thousand, long rows with indices, short rows shared by a
// warp), column vectors of neighbouring outputs over slabs of reduced positions (NHWC per-channel), each
// with a aligned and misaligned, with all, part of and none of the workspace it asks for (every
// combination for the main cases, two for the others).

namespace {

struct ReducePathCase {
    cudnnReduceTensorOp_t op;
    bool propagate;
    bool indices;
    cudnnDataType_t a_type, c_type;
    std::vector<int64_t> a_dims, c_dims;
    Layout a_layout;
    int64_t shift;           // scalars of slack before a: 1 misaligns it
    double workspace_share;  // of what reduce_workspace_bytes asks: 1, a part (fewer splits), 0
    bool exact;              // data whose float sums are exact: results must equal the host's
};

// Runs one reduction of a filled by `make` (from a's NCHW index) with a packed NCHW c, checks values and
// indices against the host; returns c's values in row-major order.
std::vector<double> check_reduce_path(Random &rng, const ReducePathCase &pc,
                                      const std::function<double(const int64_t *)> &make, cudaStream_t stream) {
    const int nb_dims = static_cast<int>(pc.a_dims.size());
    DeviceTensor a(make_geometry(rng, pc.a_type, pc.a_dims, pc.a_layout), pc.shift);
    DeviceTensor c(make_geometry(rng, pc.c_type, pc.c_dims, Layout::nchw));
    EXPECT_TRUE(a.allocated() && c.allocated());
    if (!a.allocated() || !c.allocated()) return {};
    a.fill(make);
    a.upload();
    const double alpha = pc.exact ? 1.0 : rng.pick<double>({1.0, -0.5, 2.0});
    const double beta = pc.exact ? 0.0 : random_beta(rng);
    const std::vector<double> before = prepare_output(rng, c, beta);
    const TensorGeometry &ag = a.geometry(), &cg = c.geometry();
    const int64_t c_count = cg.element_count();
    librednn::cuda::ReduceSpec spec;
    spec.op = pc.op;
    spec.nan = pc.propagate ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN;
    spec.compute_indices = pc.indices;
    const size_t asked = librednn::cuda::reduce_workspace_bytes(spec, ag, cg);
    const size_t workspace_bytes = static_cast<size_t>(static_cast<double>(asked) * pc.workspace_share);
    void *workspace = nullptr, *indices = nullptr;
    if (workspace_bytes) {
        EXPECT_EQ(cudaMalloc(&workspace, workspace_bytes), cudaSuccess);
    }
    EXPECT_EQ(cudaMalloc(&indices, static_cast<size_t>(c_count) * 4), cudaSuccess);
    EXPECT_EQ(cudaMemset(indices, 0xff, static_cast<size_t>(c_count) * 4), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // the poison lands before the kernels' stream runs
    const std::string problem = "reduce op " + std::to_string(pc.op) + (pc.propagate ? " propagate" : "") +
                                (pc.indices ? " indices" : "") + " alpha " + std::to_string(alpha) + " beta " +
                                std::to_string(beta) + " workspace " + std::to_string(workspace_bytes) + " of " +
                                std::to_string(asked) + " a " + describe(ag) + " shifted " + std::to_string(pc.shift) +
                                " c " + describe(cg);
    const librednn::Status status =
        librednn::cuda::reduce_tensor(stream, spec, workspace, workspace_bytes, static_cast<uint32_t *>(indices), alpha,
                                      ag, a.data(), beta, cg, c.data());
    EXPECT_EQ(status, CUDNN_STATUS_SUCCESS) << problem;
    EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess) << problem;
    c.download();
    std::vector<uint32_t> got_indices(static_cast<size_t>(c_count));
    EXPECT_EQ(cudaMemcpy(got_indices.data(), indices, got_indices.size() * 4, cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(workspace);
    cudaFree(indices);
    if (status != CUDNN_STATUS_SUCCESS) return {};

    int64_t slice_dims[kMaxDims];
    for (int d = 0; d < nb_dims; ++d) slice_dims[d] = cg.dims[d] == 1 ? ag.dims[d] : 1;
    Checker check(pc.c_type, problem);
    std::vector<double> result;
    int64_t element = 0, index_failures = 0;
    for_each_index(cg.dims, nb_dims, [&](const int64_t *i) {
        std::vector<double> values;
        for_each_index(slice_dims, nb_dims, [&](const int64_t *s) {
            int64_t ai[kMaxDims];
            for (int d = 0; d < nb_dims; ++d) ai[d] = cg.dims[d] == 1 ? s[d] : i[d];
            values.push_back(a.at(ai));
        });
        const HostReduction r = reduce_host(pc.op, pc.propagate, values);
        const double old = beta != 0.0 ? before[static_cast<size_t>(element)] : 0.0;
        const double want = rounded_to(pc.c_type, alpha * r.value + beta * old);
        if (pc.exact) {
            check.expect_exact(i, nb_dims, c.at(i), want);
        } else {
            const double n = static_cast<double>(values.size());
            const double compute = pc.a_type == CUDNN_DATA_DOUBLE ? 0x1p-53 : 0x1p-24;
            const double sum_error = (n - 1) * compute * std::fabs(alpha) * r.magnitude * 2;
            check.expect(i, nb_dims, c.at(i), want, std::fabs(alpha * r.value) + std::fabs(beta * old), sum_error,
                         alpha * r.value + beta * old);
        }
        result.push_back(c.at(i));
        if (pc.indices && has_indices(pc.op) && got_indices[static_cast<size_t>(element)] != r.index &&
            index_failures++ < 5) {
            ADD_FAILURE() << problem << ": output " << element << " index " << got_indices[static_cast<size_t>(element)]
                          << ", want " << r.index;
        }
        ++element;
    });
    EXPECT_EQ(c.touched_gaps(), 0) << problem;
    return result;
}

// Every combination of a's alignment and workspace (all, a third, none) for one case.
void check_reduce_path_everywhere(Random &rng, ReducePathCase pc, const std::function<double(const int64_t *)> &make,
                                  cudaStream_t stream) {
    for (int64_t shift : {0, 1}) {
        for (double share : {1.0, 0.3, 0.0}) {
            pc.shift = shift;
            pc.workspace_share = share;
            check_reduce_path(rng, pc, make, stream);
        }
    }
}

// Aligned with all the workspace, then one of the other combinations, in turn from call to call (the
// GPU's time is shared: each combination still meets every path several times).
void check_reduce_path_twice(Random &rng, ReducePathCase pc, const std::function<double(const int64_t *)> &make,
                             cudaStream_t stream) {
    static const std::pair<int64_t, double> kOthers[] = {{1, 1.0}, {0, 0.3}, {1, 0.3}, {0, 0.0}, {1, 0.0}};
    static size_t turn = 0;
    pc.shift = 0;
    pc.workspace_share = 1.0;
    check_reduce_path(rng, pc, make, stream);
    pc.shift = kOthers[turn % 5].first;
    pc.workspace_share = kOthers[turn % 5].second;
    ++turn;
    check_reduce_path(rng, pc, make, stream);
}

}  // namespace

TEST_F(TensorKernels, ReduceSumsNchwChannelsOverPlanesAsRows) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // Per-channel over N, H and W: each (n, c) plane is a contiguous run of the row kernel; the splits cut
    // planes in the middle and span plane boundaries. Integers make float sums exact, so one lost or
    // doubled element fails. 55x57 planes (odd) start at every alignment: heads and tails of vectors.
    const auto integers = [&](const int64_t *) { return static_cast<double>(rng.integer(-3, 3)); };
    for (const auto &dims : std::vector<std::vector<int64_t>>{{8, 32, 56, 56}, {6, 24, 55, 57}}) {
        for (cudnnDataType_t type : {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16, CUDNN_DATA_INT8}) {
            ReducePathCase pc{CUDNN_REDUCE_TENSOR_ADD,
                              false,
                              false,
                              type,
                              CUDNN_DATA_FLOAT,
                              dims,
                              {1, dims[1], 1, 1},
                              Layout::nchw,
                              0,
                              1.0,
                              true};
            if (type == CUDNN_DATA_FLOAT) {
                check_reduce_path_everywhere(rng, pc, integers, stream());
            } else {
                check_reduce_path_twice(rng, pc, integers, stream());
            }
        }
        // The other sums and the maxima on the same path, rounded values: maxima with and without indices
        // (values only: half and bfloat16 lanes compared in pairs), both NaN options.
        const std::vector<std::pair<cudnnReduceTensorOp_t, bool>> ops = {
            {CUDNN_REDUCE_TENSOR_AVG, false}, {CUDNN_REDUCE_TENSOR_NORM1, false}, {CUDNN_REDUCE_TENSOR_NORM2, false},
            {CUDNN_REDUCE_TENSOR_MAX, true},  {CUDNN_REDUCE_TENSOR_MIN, true},    {CUDNN_REDUCE_TENSOR_AMAX, true},
            {CUDNN_REDUCE_TENSOR_MAX, false}, {CUDNN_REDUCE_TENSOR_MIN, false},   {CUDNN_REDUCE_TENSOR_AMAX, false},
        };
        for (const auto &[op, indices] : ops) {
            const cudnnDataType_t type =
                has_indices(op) ? rng.pick<cudnnDataType_t>({CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16})
                                : CUDNN_DATA_FLOAT;
            ReducePathCase pc{
                op, rng.chance(0.5), indices, type, type, dims, {1, dims[1], 1, 1}, Layout::nchw, 0, 1.0, false};
            check_reduce_path_twice(
                rng, pc,
                [&](const int64_t *) {
                    return rng.chance(0.0005) ? std::nan("") : rng.chance(0.01) ? 2.0 : rng.uniform(-2.0, 2.0);
                },
                stream());
        }
    }
}

TEST_F(TensorKernels, ReduceMaxOfNhwcChannelsReadsChannelVectors) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // Per-channel over NHWC: threads along the channels with 16-byte vectors (8 halves), blocks on slabs of
    // pixels, partials per slab. 256 channels fill a warp's row; 64 leave 8 threads per pixel row; 12
    // floats are 3 vectors; 6 floats are no whole vector (element by element). Values-only maxima (no
    // indices) and indexed ones, with NaNs both ways; half data ties often, and the first index must win.
    const auto values = [&](const int64_t *) {
        return rng.chance(0.001) ? std::nan("") : rng.chance(0.01) ? 3.0 : rng.uniform(-3.0, 3.0);
    };
    const std::vector<std::pair<cudnnDataType_t, std::vector<int64_t>>> shapes = {
        {CUDNN_DATA_HALF, {8, 256, 20, 20}},    {CUDNN_DATA_HALF, {16, 64, 30, 30}},
        {CUDNN_DATA_BFLOAT16, {4, 64, 33, 31}}, {CUDNN_DATA_FLOAT, {4, 12, 40, 40}},
        {CUDNN_DATA_FLOAT, {4, 6, 40, 40}},     {CUDNN_DATA_INT8, {4, 48, 30, 30}},
    };
    for (const auto &shape : shapes) {
        for (cudnnReduceTensorOp_t op : {CUDNN_REDUCE_TENSOR_MAX, CUDNN_REDUCE_TENSOR_MIN, CUDNN_REDUCE_TENSOR_AMAX}) {
            for (bool indices : {false, true}) {
                const bool integers = shape.first == CUDNN_DATA_INT8;
                ReducePathCase pc{op,
                                  rng.chance(0.5),
                                  indices,
                                  shape.first,
                                  integers ? CUDNN_DATA_INT8 : shape.first,
                                  shape.second,
                                  {1, shape.second[1], 1, 1},
                                  Layout::nhwc,
                                  0,
                                  1.0,
                                  integers};
                if (integers) {
                    check_reduce_path_twice(
                        rng, pc, [&](const int64_t *) { return static_cast<double>(rng.integer(-100, 100)); },
                        stream());
                } else if (op == CUDNN_REDUCE_TENSOR_MAX && shape.first == CUDNN_DATA_HALF) {
                    check_reduce_path_everywhere(rng, pc, values, stream());
                } else {
                    check_reduce_path_twice(rng, pc, values, stream());
                }
            }
        }
    }
}

TEST_F(TensorKernels, ReduceSumsNhwcChannelsAndOverNExactly) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // The column kernel's sums: NHWC per-channel (slabs of pixels) and NCHW over N only (each thread a
    // vector of 4 of the 2048 contiguous outputs), integers so that every element counts exactly.
    const auto integers = [&](const int64_t *) { return static_cast<double>(rng.integer(-3, 3)); };
    const std::vector<std::tuple<cudnnDataType_t, std::vector<int64_t>, std::vector<int64_t>, Layout>> shapes = {
        {CUDNN_DATA_HALF, {16, 64, 30, 30}, {1, 64, 1, 1}, Layout::nhwc},
        {CUDNN_DATA_FLOAT, {8, 256, 12, 12}, {1, 256, 1, 1}, Layout::nhwc},
        {CUDNN_DATA_FLOAT, {4, 12, 40, 40}, {1, 12, 1, 1}, Layout::nhwc},
        {CUDNN_DATA_INT8, {4, 48, 30, 30}, {1, 48, 1, 1}, Layout::nhwc},
        {CUDNN_DATA_FLOAT, {256, 8, 16, 16}, {1, 8, 16, 16}, Layout::nchw},
        {CUDNN_DATA_HALF, {300, 8, 8, 16}, {1, 8, 8, 16}, Layout::nchw},
    };
    for (const auto &[type, dims, c_dims, layout] : shapes) {
        for (cudnnReduceTensorOp_t op : {CUDNN_REDUCE_TENSOR_ADD, CUDNN_REDUCE_TENSOR_NORM1, CUDNN_REDUCE_TENSOR_MAX}) {
            ReducePathCase pc{
                op, false, op == CUDNN_REDUCE_TENSOR_MAX, type, CUDNN_DATA_FLOAT, dims, c_dims, layout, 0, 1.0, true};
            check_reduce_path_twice(rng, pc, integers, stream());
        }
    }
}

TEST_F(TensorKernels, ReduceArgmaxOfLongRowsPicksTheFirstOfTiedMaxima) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // Long rows split over several groups (partials of value and index, finalized in split order); a whole
    // tensor to one value (hundreds of splits, a block per output in the finalize). Each row holds its
    // extreme value at two or three places, often in different splits: the smallest index must win. NaNs
    // (some rows) test both NaN options.
    const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> shapes = {
        {{64, 20000, 1, 1}, {64, 1, 1, 1}},
        {{3, 5, 7, 3001}, {3, 5, 7, 1}},
        {{1, 1, 1, 300000}, {1, 1, 1, 1}},
        {{2, 4, 300, 100}, {2, 1, 1, 1}},
    };
    for (const auto &shape : shapes) {
        for (cudnnReduceTensorOp_t op : {CUDNN_REDUCE_TENSOR_MAX, CUDNN_REDUCE_TENSOR_MIN, CUDNN_REDUCE_TENSOR_AMAX}) {
            for (cudnnDataType_t type : {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF}) {
                const bool with_nans = rng.chance(0.5);
                // Three places per output, from a hash of the kept index: the extreme value (5, or -5 for
                // MIN; AMAX ties 5 with -5) at each, random values of smaller magnitude elsewhere.
                const std::vector<int64_t> &dims = shape.first, &c_dims = shape.second;
                const auto make = [&, dims, c_dims, op](const int64_t *i) {
                    int64_t kept = 0, position = 0, length = 1;
                    for (size_t d = 0; d < dims.size(); ++d) {
                        if (c_dims[d] == 1) {
                            position = position * dims[d] + i[d];
                            length *= dims[d];
                        } else {
                            kept = kept * dims[d] + i[d];
                        }
                    }
                    const uint64_t hash = static_cast<uint64_t>(kept) * 0x9e3779b97f4a7c15ull;
                    for (int place = 0; place < 3; ++place) {
                        if (position == static_cast<int64_t>((hash >> (place * 20)) % static_cast<uint64_t>(length))) {
                            const double extreme = op == CUDNN_REDUCE_TENSOR_MIN ? -5.0 : 5.0;
                            return op == CUDNN_REDUCE_TENSOR_AMAX && place == 1 ? -extreme : extreme;
                        }
                    }
                    if (with_nans && rng.chance(0.00002)) return std::nan("");
                    return rng.uniform(-4.0, 4.0);
                };
                ReducePathCase pc{op, rng.chance(0.5), true, type, type, dims, c_dims, Layout::nchw, 0, 1.0, false};
                if (op == CUDNN_REDUCE_TENSOR_MAX && type == CUDNN_DATA_FLOAT) {
                    check_reduce_path_everywhere(rng, pc, make, stream());
                } else {
                    check_reduce_path_twice(rng, pc, make, stream());
                }
            }
        }
    }
}

TEST_F(TensorKernels, ReduceShortRowsShareAWarp) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // Rows of 33 to 200 elements (NHWC per-pixel reductions over C, NCHW over W): groups of 4 to 16 lanes
    // of one warp, each on its own row.
    const std::vector<std::tuple<std::vector<int64_t>, std::vector<int64_t>, Layout>> shapes = {
        {{8, 40, 16, 16}, {8, 1, 16, 16}, Layout::nhwc},
        {{4, 33, 8, 8}, {4, 1, 8, 8}, Layout::nhwc},
        {{4, 8, 16, 200}, {4, 8, 16, 1}, Layout::nchw},
        {{2, 64, 3, 96}, {2, 64, 3, 1}, Layout::nchw},
    };
    for (const auto &[dims, c_dims, layout] : shapes) {
        for (cudnnReduceTensorOp_t op : {CUDNN_REDUCE_TENSOR_ADD, CUDNN_REDUCE_TENSOR_MAX}) {
            for (cudnnDataType_t type : {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF}) {
                ReducePathCase pc{
                    op,  false, op == CUDNN_REDUCE_TENSOR_MAX, type, CUDNN_DATA_FLOAT, dims, c_dims, layout, 0,
                    1.0, true};
                check_reduce_path_twice(
                    rng, pc, [&](const int64_t *) { return static_cast<double>(rng.integer(-3, 3)); }, stream());
            }
        }
    }
}

TEST_F(TensorKernels, ReduceFastPathsGiveTheSameBitsEveryRun) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    SEEDED_RANDOM(rng);
    // Rounded sums in each path, twice on the same data with the same workspace size: the same bits. And
    // on a misaligned copy of the data (same values, same workspace): the same bits too, since which thread
    // adds which element depends on the offsets within a, not on a's address.
    const std::vector<std::tuple<cudnnDataType_t, std::vector<int64_t>, std::vector<int64_t>, Layout>> shapes = {
        {CUDNN_DATA_FLOAT, {8, 32, 55, 57}, {1, 32, 1, 1}, Layout::nchw},    // row runs, split
        {CUDNN_DATA_HALF, {16, 64, 30, 30}, {1, 64, 1, 1}, Layout::nhwc},    // column vectors, slabs
        {CUDNN_DATA_FLOAT, {1, 1, 1, 300000}, {1, 1, 1, 1}, Layout::nchw},   // one long row, many splits
        {CUDNN_DATA_FLOAT, {256, 8, 16, 16}, {1, 8, 16, 16}, Layout::nchw},  // over N
    };
    const uint64_t seed = rng.seed();
    for (const auto &[type, dims, c_dims, layout] : shapes) {
        for (double share : {1.0, 0.3}) {
            std::vector<std::vector<double>> results;
            for (int64_t shift : {0, 0, 1}) {
                Random same;  // same seed: same data
                same.engine().seed(seed);
                ReducePathCase pc{CUDNN_REDUCE_TENSOR_ADD,
                                  false,
                                  false,
                                  type,
                                  CUDNN_DATA_FLOAT,
                                  dims,
                                  c_dims,
                                  layout,
                                  shift,
                                  share,
                                  false};
                results.push_back(check_reduce_path(
                    same, pc, [&](const int64_t *) { return same.uniform(-2.0, 2.0); }, stream()));
            }
            for (size_t run = 1; run < results.size(); ++run) {
                ASSERT_EQ(results[run].size(), results[0].size());
                EXPECT_EQ(std::memcmp(results[run].data(), results[0].data(), results[0].size() * sizeof(double)), 0)
                    << "run " << run << " of "
                    << describe(librednn::packed_geometry(type, 4, dims.data(), librednn::PackedLayout::nchw));
            }
        }
    }
}
