// The op tests' helpers: backend selection, buffers, random geometries and data, comparison.
#include "op_test_util.hpp"

#include "core/backend.hpp"
#include "core/data_type.hpp"

#if LIBREDNN_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <sstream>

namespace librednn::test {

TestBackend test_backend() {
    const char *value = std::getenv("LIBREDNN_OP_TEST_BACKEND");
    return value != nullptr && std::strcmp(value, "cuda") == 0 ? TestBackend::cuda : TestBackend::host;
}

const char *test_backend_name() { return test_backend() == TestBackend::cuda ? "cuda" : "host"; }

namespace {

// Why the backend under test cannot run here (nullptr when it can): the CUDA backend needs a build with
// it and a usable device. Asked once.
const char *why_backend_cannot_run() {
    static const char *const reason = []() -> const char * {
        if (test_backend() != TestBackend::cuda) return nullptr;
        if (!cuda_compiled_in()) return "this build has no CUDA backend: every op test SKIPPED";
        if (cuda_device_count() == 0) return "no CUDA device is usable: every op test SKIPPED";
        return nullptr;
    }();
    return reason;
}

}  // namespace

Handle::Handle() {
    // Every test is skipped then (SkipWithoutCudaDevice); a failure here would turn the skip into one.
    if (why_backend_cannot_run() != nullptr) return;
    setenv("LIBREDNN_BACKEND", test_backend_name(), 1);
    const cudnnStatus_t status = cudnnCreate(&handle_);
    if (status != CUDNN_STATUS_SUCCESS) {
        ADD_FAILURE() << "cudnnCreate on the " << test_backend_name()
                      << " backend failed: " << cudnnGetErrorString(status);
    }
}

Handle::~Handle() {
    if (handle_ != nullptr) cudnnDestroy(handle_);
}

DeviceBuffer::DeviceBuffer(const std::vector<uint8_t> &contents) : bytes_(contents.size()) {
    // Without a usable device the test is skipped; host memory keeps a fixture's buffers harmless.
    if (test_backend() == TestBackend::host || why_backend_cannot_run() != nullptr) {
        host_ = contents;
        data_ = host_.data();
        return;
    }
#if LIBREDNN_HAVE_CUDA
    if (bytes_ == 0) return;  // an empty buffer is a null pointer, as on the host
    cudaError_t err = cudaMalloc(&data_, bytes_);
    on_device_ = err == cudaSuccess;
    if (err == cudaSuccess) err = cudaMemcpy(data_, contents.data(), bytes_, cudaMemcpyHostToDevice);
    // A copy from pageable memory may return before its DMA lands; a handle on a non-blocking stream
    // would not wait for it.
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        ADD_FAILURE() << "DeviceBuffer: copying " << bytes_ << " bytes to the GPU failed: " << cudaGetErrorString(err);
        cudaGetLastError();
    }
#endif
}

DeviceBuffer::~DeviceBuffer() {
#if LIBREDNN_HAVE_CUDA
    if (on_device_) cudaFree(data_);
#endif
}

std::vector<uint8_t> DeviceBuffer::download() const {
    if (!on_device_) return host_;
    std::vector<uint8_t> contents(bytes_);
#if LIBREDNN_HAVE_CUDA
    // The library queues work on the handle's stream and never waits; wait for all of it, so that a
    // fault in a kernel shows here, at the test that caused it.
    cudaError_t err = cudaDeviceSynchronize();
    if (err == cudaSuccess) err = cudaMemcpy(contents.data(), data_, bytes_, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
        ADD_FAILURE() << "DeviceBuffer: copying " << bytes_
                      << " bytes from the GPU failed: " << cudaGetErrorString(err);
        cudaGetLastError();
    }
#endif
    return contents;
}

namespace {

// With LIBREDNN_OP_TEST_BACKEND=cuda on a machine without a usable GPU (or a build without the CUDA
// backend) every test is skipped before its body runs, each with the line CTest's OpsCuda test matches.
class SkipWithoutCudaDevice : public ::testing::EmptyTestEventListener {
public:
    void OnTestStart(const ::testing::TestInfo &) override {
        const char *reason = why_backend_cannot_run();
        if (reason != nullptr) GTEST_SKIP() << "LIBREDNN_OP_TEST_BACKEND=cuda, but " << reason;
    }
};

// Registered before main() (gtest_main), so that it sees every test.
const bool skip_listener_registered = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new SkipWithoutCudaDevice);
    return true;
}();

}  // namespace

HostTensor::HostTensor(const TensorGeometry &g)
    : geometry(g), bytes(static_cast<size_t>(g.span_elements()) * scalar_size_of(g.dtype), uint8_t{0x5a}) {}

Random::Random() {
    const char *fixed = std::getenv("LIBREDNN_TEST_SEED");
    seed_ = fixed != nullptr ? std::strtoull(fixed, nullptr, 10)
                             : (static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
    engine_.seed(seed_);
}

const std::vector<LayoutKind> &all_layout_kinds() {
    static const std::vector<LayoutKind> kinds = {LayoutKind::nchw, LayoutKind::nhwc, LayoutKind::padded,
                                                  LayoutKind::permuted};
    return kinds;
}

std::vector<int64_t> random_dims(Random &rng, int nb_dims, int64_t max_extent, int vector) {
    std::vector<int64_t> dims(static_cast<size_t>(nb_dims));
    for (int64_t &d : dims) d = rng.integer(1, max_extent);
    if (nb_dims > 1) dims[1] = rng.integer(1, std::max<int64_t>(1, max_extent / vector)) * vector;
    return dims;
}

TensorGeometry make_geometry(Random &rng, cudnnDataType_t dtype, const std::vector<int64_t> &dims, LayoutKind kind) {
    const int nb_dims = static_cast<int>(dims.size());
    const int lanes = vector_count(dtype);
    if (lanes > 1 && (kind == LayoutKind::nhwc)) kind = LayoutKind::nchw;
    if (kind == LayoutKind::nchw || kind == LayoutKind::nhwc) {
        return packed_geometry(dtype, nb_dims, dims.data(),
                               lanes > 1 ? PackedLayout::nchw_vect_c
                                         : (kind == LayoutKind::nhwc ? PackedLayout::nhwc : PackedLayout::nchw));
    }
    // Memory order of the dims, innermost last: NCHW for padded, shuffled for permuted.
    std::vector<int> order(static_cast<size_t>(nb_dims));
    std::iota(order.begin(), order.end(), 0);
    if (kind == LayoutKind::permuted) std::shuffle(order.begin(), order.end(), rng.engine());
    TensorGeometry geometry;
    geometry.dtype = dtype;
    geometry.nb_dims = nb_dims;
    for (int i = 0; i < nb_dims; ++i) geometry.dims[i] = dims[static_cast<size_t>(i)];
    // The innermost dim may itself be strided; every dim leaves a gap of 0 to 3 elements after it.
    int64_t next = kind == LayoutKind::permuted ? rng.integer(1, 2) : 1;
    for (int position = nb_dims - 1; position >= 0; --position) {
        const int dim = order[static_cast<size_t>(position)];
        const int64_t extent = dim == 1 ? geometry.dims[1] / lanes : geometry.dims[dim];
        geometry.strides[dim] = next;
        next = next * extent + rng.integer(0, 3);
    }
    return geometry;
}

void fill_uniform(HostTensor &tensor, Random &rng, double low, double high) {
    std::fill(tensor.bytes.begin(), tensor.bytes.end(), uint8_t{0x5a});
    const TensorGeometry &g = tensor.geometry;
    int64_t index[kMaxDims] = {};
    do {
        tensor.set(index, rng.uniform(low, high));
    } while (next_index(index, g.dims, g.nb_dims));
}

void poison(HostTensor &tensor, uint8_t pattern) { std::fill(tensor.bytes.begin(), tensor.bytes.end(), pattern); }

bool is_integer_type(cudnnDataType_t type) {
    switch (scalar_type_of(type)) {
        case CUDNN_DATA_INT8:
        case CUDNN_DATA_UINT8:
        case CUDNN_DATA_INT32:
        case CUDNN_DATA_INT64: return true;
        default: return false;
    }
}

HostTensor widened(const HostTensor &tensor) {
    const TensorGeometry &g = tensor.geometry;
    HostTensor wide(packed_geometry(CUDNN_DATA_DOUBLE, g.nb_dims, g.dims, PackedLayout::nchw));
    int64_t index[kMaxDims] = {};
    do {
        wide.set(index, tensor.at(index));
    } while (next_index(index, g.dims, g.nb_dims));
    return wide;
}

std::vector<double> element_values(const HostTensor &tensor) {
    std::vector<double> values;
    values.reserve(static_cast<size_t>(tensor.geometry.element_count()));
    int64_t index[kMaxDims] = {};
    do {
        values.push_back(tensor.at(index));
    } while (next_index(index, tensor.geometry.dims, tensor.geometry.nb_dims));
    return values;
}

TensorDescriptor::TensorDescriptor(const TensorGeometry &geometry) {
    EXPECT_EQ(cudnnCreateTensorDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
    int dims[kMaxDims], strides[kMaxDims];
    for (int i = 0; i < geometry.nb_dims; ++i) {
        dims[i] = static_cast<int>(geometry.dims[i]);
        strides[i] = static_cast<int>(geometry.strides[i]);
    }
    EXPECT_EQ(cudnnSetTensorNdDescriptor(desc_, geometry.dtype, geometry.nb_dims, dims, strides), CUDNN_STATUS_SUCCESS)
        << geometry_to_string(geometry);
}

TensorDescriptor::~TensorDescriptor() { cudnnDestroyTensorDescriptor(desc_); }

namespace {

// Integer element `got`: the reference's `ref`, or, given the exact value, any rounding within the
// compute error of it (a tie: tolerances.hpp).
bool integer_matches(double got, double ref, const ElementBound &bound, cudnnDataType_t type) {
    if (got == ref) return true;
    if (std::isnan(bound.exact)) return false;
    return integer_within_rounding(got, bound.exact, bound.compute_error, type);
}

template <class BoundOf>
::testing::AssertionResult compare(const HostTensor &out, const HostTensor &ref, BoundOf &&bound_of,
                                   const std::string &problem) {
    const TensorGeometry &g = ref.geometry;
    const Tolerance tolerance = tolerance_for(g.dtype);
    const bool integers = is_integer_type(g.dtype);
    const size_t scalar = scalar_size_of(g.dtype);
    std::vector<bool> is_element(ref.bytes.size(), false);
    std::ostringstream failures;
    int64_t mismatches = 0, element = 0;
    int64_t index[kMaxDims] = {};
    do {
        const ElementBound bound = bound_of(element++);
        const int64_t offset = g.offset(index);
        for (size_t b = 0; b < scalar; ++b) is_element[static_cast<size_t>(offset) * scalar + b] = true;
        const double o = out.at(index), r = ref.at(index);
        bool ok = false;
        double allowed = 0.0;
        if (integers) {
            ok = integer_matches(o, r, bound, g.dtype);
        } else if (std::isnan(r)) {
            ok = std::isnan(o);
        } else if (std::isinf(r)) {
            ok = o == r;
        } else {
            allowed = allowed_error_for(tolerance, r, bound.compute_error);
            ok = std::fabs(o - r) <= allowed;
        }
        if (!ok && mismatches++ < 5) {
            failures << "\n  at [" << join_dims(index, g.nb_dims) << "]: got " << o << ", reference " << r;
            if (integers) {
                failures << " (exact " << bound.exact << ", compute error " << bound.compute_error << ")";
            } else {
                failures << " (allowed error " << allowed << ")";
            }
        }
    } while (next_index(index, g.dims, g.nb_dims));
    int64_t touched = 0;
    for (size_t b = 0; b < ref.bytes.size(); ++b) {
        if (!is_element[b] && out.bytes[b] != ref.bytes[b]) ++touched;
    }
    if (mismatches == 0 && touched == 0) return ::testing::AssertionSuccess();
    auto result = ::testing::AssertionFailure() << problem << ": ";
    if (mismatches) result << mismatches << " of " << g.element_count() << " elements differ" << failures.str();
    if (touched) result << "\n  " << touched << " bytes between elements were written";
    return result;
}

}  // namespace

::testing::AssertionResult matches_reference(const HostTensor &out, const HostTensor &ref,
                                             const std::vector<ElementBound> &bounds, const std::string &problem) {
    return compare(
        out, ref, [&](int64_t element) { return bounds[static_cast<size_t>(element)]; }, problem);
}

::testing::AssertionResult matches_reference(const HostTensor &out, const HostTensor &ref, double magnitude,
                                             const std::string &problem) {
    const double eps = tolerance_for(ref.geometry.dtype).compute_eps;
    return compare(
        out, ref, [&](int64_t) { return ElementBound{eps * magnitude}; }, problem);
}

::testing::AssertionResult matches_reference(const HostTensor &out, const HostTensor &ref,
                                             const std::vector<double> &magnitudes, const std::string &problem) {
    const double eps = tolerance_for(ref.geometry.dtype).compute_eps;
    return compare(
        out, ref, [&](int64_t element) { return ElementBound{eps * magnitudes[static_cast<size_t>(element)]}; },
        problem);
}

double random_alpha(Random &rng) {
    const double choices[] = {1.0, -1.0, 0.5, 2.0};
    return rng.coin() ? choices[rng.integer(0, 3)] : rng.uniform(-2.0, 2.0);
}

double random_beta(Random &rng) {
    switch (rng.integer(0, 2)) {
        case 0: return 0.0;
        case 1: return rng.coin() ? 1.0 : -0.5;
        default: return rng.uniform(-2.0, 2.0);
    }
}

}  // namespace librednn::test
