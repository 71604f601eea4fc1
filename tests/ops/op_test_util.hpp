// Helpers for the op tests: the backend under test and its memory, host tensors with random
// geometries and data, descriptors, seeds, and the comparison with the reference.
//
// The same tests run on every backend: LIBREDNN_OP_TEST_BACKEND=host (the default) or cuda picks the
// backend of the handles (through LIBREDNN_BACKEND) and of the buffers the API sees. The reference
// always runs on host copies. With cuda and no usable GPU every test reports as skipped.
#pragma once

#include "ops/common/element_access.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "tolerances.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace librednn::test {

enum class TestBackend { host, cuda };

// LIBREDNN_OP_TEST_BACKEND=cuda selects the CUDA backend; anything else (or nothing) the host.
TestBackend test_backend();
const char *test_backend_name();

// A cudnnHandle_t on the backend under test.
class Handle {
public:
    Handle();
    ~Handle();
    Handle(const Handle &) = delete;
    Handle &operator=(const Handle &) = delete;
    cudnnHandle_t get() const { return handle_; }
    operator cudnnHandle_t() const { return handle_; }

private:
    cudnnHandle_t handle_ = nullptr;
};

// Memory of the backend under test holding a copy of host bytes: host memory for the host backend,
// device memory (cudaMalloc) for the CUDA backend. download() waits for the device's queued work first.
class DeviceBuffer {
public:
    explicit DeviceBuffer(const std::vector<uint8_t> &contents);
    ~DeviceBuffer();
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;

    void *get() const { return data_; }
    std::vector<uint8_t> download() const;

private:
    void *data_ = nullptr;
    size_t bytes_ = 0;
    std::vector<uint8_t> host_;  // the storage on the host backend
    bool on_device_ = false;     // data_ came from cudaMalloc
};

// The bytes of a vector of values, and back: for small hand-written cases that go through DeviceBuffer.
template <class T>
std::vector<uint8_t> bytes_of(const std::vector<T> &values) {
    const auto *first = reinterpret_cast<const uint8_t *>(values.data());
    return std::vector<uint8_t>(first, first + values.size() * sizeof(T));
}
template <class T>
std::vector<T> values_of(const std::vector<uint8_t> &bytes) {
    std::vector<T> values(bytes.size() / sizeof(T));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
    return values;
}

// The central difference (loss() at values[i] + h, less loss() at values[i] - h) / 2h, values[i] restored:
// for the backward passes' checks against their forward in double. `loss` reads `values` as they stand.
template <class Loss>
double central_difference(std::vector<double> &values, size_t i, double h, Loss &&loss) {
    const double kept = values[i];
    values[i] = kept + h;
    const double up = loss();
    values[i] = kept - h;
    const double down = loss();
    values[i] = kept;
    return (up - down) / (2 * h);
}

// A tensor in host memory: its geometry and the bytes from its base pointer to its last element.
struct HostTensor {
    TensorGeometry geometry;
    std::vector<uint8_t> bytes;

    HostTensor() = default;
    explicit HostTensor(const TensorGeometry &g);

    void *data() { return bytes.data(); }
    const void *data() const { return bytes.data(); }
    double at(const int64_t *index) const { return load_scalar(bytes.data(), geometry.dtype, geometry.offset(index)); }
    void set(const int64_t *index, double value) {
        store_scalar(bytes.data(), geometry.dtype, geometry.offset(index), value);
    }
};

// The seeded random source of one test. The seed is LIBREDNN_TEST_SEED when set, else fresh.
class Random {
public:
    Random();
    uint64_t seed() const { return seed_; }
    double uniform(double low, double high) { return std::uniform_real_distribution<double>(low, high)(engine_); }
    int64_t integer(int64_t low, int64_t high) { return std::uniform_int_distribution<int64_t>(low, high)(engine_); }
    bool coin() { return integer(0, 1) == 1; }
    template <class T>
    const T &pick(const std::vector<T> &values) {
        return values[static_cast<size_t>(integer(0, static_cast<int64_t>(values.size()) - 1))];
    }
    std::mt19937_64 &engine() { return engine_; }

private:
    uint64_t seed_;
    std::mt19937_64 engine_;
};

// Declares `rng` and traces its seed in every failure of the test.
#define LIBREDNN_SEEDED_RANDOM(rng)                     \
    ::librednn::test::Random rng;                       \
    SCOPED_TRACE("seed " + std::to_string(rng.seed()) + \
                 " (rerun with LIBREDNN_TEST_SEED=" + std::to_string(rng.seed()) + ")")

// How a random geometry lays its dims out in memory.
enum class LayoutKind { nchw, nhwc, padded, permuted };
const std::vector<LayoutKind> &all_layout_kinds();

// Random dims: nb_dims values in [1, max_extent] (dim 1 a multiple of the vector width).
std::vector<int64_t> random_dims(Random &rng, int nb_dims, int64_t max_extent, int vector = 1);

// A geometry of `dtype` and `dims` in `kind`: packed NCHW or NHWC, NCHW with gaps after every dim,
// or the dims in a random memory order with gaps. Vectorised types are always NCHW_VECT_C (padded
// and permuted keep the channel vectors together).
TensorGeometry make_geometry(Random &rng, cudnnDataType_t dtype, const std::vector<int64_t> &dims, LayoutKind kind);

// Fills every element with uniform values in [low, high] (rounded to the type); the bytes between
// elements get a recognisable pattern.
void fill_uniform(HostTensor &tensor, Random &rng, double low, double high);

// Sets every byte to one that reads as NaN in every floating-point type (0xff), so that a read of an
// output that must not be read shows. In integer types 0xff is a valid value (-1): run_poisoned
// catches an unwritten integer output instead.
void poison(HostTensor &tensor, uint8_t pattern = 0xff);

// True for the integer data types (int8, uint8, int32 and the vectorised int8 types).
bool is_integer_type(cudnnDataType_t type);

// Runs `run(initial bytes) -> output bytes` on `poisoned` (the output as poison() left it). An integer
// output may look written where it was not (poison reads as a valid value), so for integer types the
// call runs a second time from another poison pattern and every element must come out the same. Returns
// the first run's bytes.
template <class Run>
std::vector<uint8_t> run_poisoned(const HostTensor &poisoned, Run &&run);

// A packed double tensor with `tensor`'s dims and values: the reference run into it instead of the
// output gives each element's exact result, before the final rounding to the output type.
HostTensor widened(const HostTensor &tensor);

// Every element's value, in the order next_index() visits them.
std::vector<double> element_values(const HostTensor &tensor);

// A tensor descriptor for `geometry` (set with cudnnSetTensorNdDescriptor), destroyed at scope end.
class TensorDescriptor {
public:
    explicit TensorDescriptor(const TensorGeometry &geometry);
    ~TensorDescriptor();
    TensorDescriptor(const TensorDescriptor &) = delete;
    TensorDescriptor &operator=(const TensorDescriptor &) = delete;
    cudnnTensorDescriptor_t get() const { return desc_; }
    operator cudnnTensorDescriptor_t() const { return desc_; }

private:
    cudnnTensorDescriptor_t desc_ = nullptr;
};

// What the arithmetic allows one output element (tolerances.hpp): `compute_error` bounds the
// solver's |computed - exact| before the final rounding to the output type; `exact` is the exact
// result before that rounding, which an integer output needs to tell a rounding tie (either neighbour
// is right) from an error. Without it (NaN) an integer element must equal the reference.
struct ElementBound {
    double compute_error = 0.0;
    double exact = std::numeric_limits<double>::quiet_NaN();
};

// Compares `out` (from the API) with `ref` (from the reference) element by element: floating-point
// elements within one output ulp plus their compute error, NaN where and only where the reference has
// NaN; integer elements exactly, or at a tie within the compute error of `exact`. The bytes between
// elements must be untouched (equal to the reference's, which never writes there). `bounds` has one
// entry per element in next_index() order. `problem` names the case in the failure message.
::testing::AssertionResult matches_reference(const HostTensor &out, const HostTensor &ref,
                                             const std::vector<ElementBound> &bounds, const std::string &problem);

// The same for element-wise steps: each element's compute error is compute_eps (tolerances.hpp) times
// its term magnitude (one for all, or one per element in next_index() order), and integer outputs must
// be exact.
::testing::AssertionResult matches_reference(const HostTensor &out, const HostTensor &ref, double magnitude,
                                             const std::string &problem);
::testing::AssertionResult matches_reference(const HostTensor &out, const HostTensor &ref,
                                             const std::vector<double> &magnitudes, const std::string &problem);

// Scaling factors as the API takes them: a double for double computations, else a float.
struct Scalar {
    float as_float = 0.0f;
    double as_double = 0.0;
    bool in_double = false;
    Scalar(double value, bool double_precision)
        : as_float(static_cast<float>(value)), as_double(value), in_double(double_precision) {}
    const void *get() const { return in_double ? static_cast<const void *>(&as_double) : &as_float; }
    // The value the library computes with.
    double value() const { return in_double ? as_double : static_cast<double>(as_float); }
};

// Random alpha and beta for a blend: beta is 0 about a third of the time (then y must not be read).
double random_alpha(Random &rng);
double random_beta(Random &rng);

template <class Run>
std::vector<uint8_t> run_poisoned(const HostTensor &poisoned, Run &&run) {
    std::vector<uint8_t> first = run(poisoned.bytes);
    if (!is_integer_type(poisoned.geometry.dtype)) return first;
    HostTensor other = poisoned;
    poison(other, 0x5c);
    HostTensor a(poisoned.geometry), b(poisoned.geometry);
    a.bytes = first;
    b.bytes = run(other.bytes);
    int64_t index[kMaxDims] = {};
    do {
        if (a.at(index) != b.at(index)) {
            ADD_FAILURE() << "the element at [" << join_dims(index, a.geometry.nb_dims)
                          << "] depends on the output's initial contents (" << a.at(index) << " from 0xff bytes, "
                          << b.at(index) << " from 0x5c): it was not written";
            break;
        }
    } while (next_index(index, a.geometry.dims, a.geometry.nb_dims));
    return first;
}

}  // namespace librednn::test
