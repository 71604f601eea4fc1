// The reference's view of a tensor in host memory: dims, strides in elements and a data type, each
// element read and written as a double; plus the loops and the alpha/beta store every reference shares.
//
//   HostTensor x(CUDNN_DATA_HALF, {2, 3, 4, 4}, channels_last_strides({2, 3, 4, 4}));  // NHWC memory
//   x.view().write({1, 2, 0, 3}, 0.5);              // dims are always N, C, then spatial
//   for_each_index(x.view().dims, [&](const Index &i) { sum += x.view().read(i); });
//
// Supported element types: float, double, half, bfloat16, int8, uint8, int32. Reads are exact; writes
// round to nearest even (integers also saturate, and NaN stores 0). References never write to the
// views they take as inputs.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace librednn::reference {

// One position in a tensor, one coordinate per dim.
using Index = std::vector<int64_t>;

// True for the element types a TensorView reads and writes.
bool is_reference_data_type(cudnnDataType_t type);

// The element of type `type` at `address`, as a double (exact for every supported type).
double read_element(cudnnDataType_t type, const void *address);

// Stores `value` at `address` as `type`: floating types round to nearest even and overflow to
// infinity; integer types round to nearest even, saturate to their range, and store NaN as 0.
void write_element(cudnnDataType_t type, void *address, double value);

struct TensorView {
    cudnnDataType_t type = CUDNN_DATA_FLOAT;
    std::vector<int64_t> dims;     // N, C, then spatial outer to inner (H, W), whatever the memory layout
    std::vector<int64_t> strides;  // elements between neighbours along each dim; the layout lives here
    void *data = nullptr;

    int rank() const { return static_cast<int>(dims.size()); }
    int64_t element_count() const;
    int64_t offset(const Index &index) const;  // in elements from `data`
    double read(const Index &index) const;
    void write(const Index &index, double value) const;
};

// Strides of packed memory holding `dims` in the order given, the last dim contiguous (NCHW, KCRS).
std::vector<int64_t> packed_strides(const std::vector<int64_t> &dims);

// Strides of packed channels-last memory for dims given as N, C, spatial... (NHWC, NDHWC; KRSC for a
// filter): C is contiguous, then the spatial dims inner to outer, then N.
std::vector<int64_t> channels_last_strides(const std::vector<int64_t> &dims);

// "2x3x4x4", for reasons and test names.
std::string dims_to_string(const std::vector<int64_t> &dims);

// CUDNN_STATUS_BAD_PARAM with a reason naming `name` unless `view` has a supported type, as many
// strides as dims (at least one), positive dims, non-negative strides and data.
Status check_view(const TensorView &view, const char *name);

// Calls visit(index) for every index within `dims`, the last dim fastest (row-major order).
template <typename Visit>
void for_each_index(const std::vector<int64_t> &dims, Visit &&visit) {
    for (int64_t dim : dims) {
        if (dim <= 0) return;
    }
    Index index(dims.size(), 0);
    for (;;) {
        visit(static_cast<const Index &>(index));
        int axis = static_cast<int>(dims.size()) - 1;
        while (axis >= 0 && ++index[axis] == dims[axis]) index[axis--] = 0;
        if (axis < 0) return;
    }
}

// cuDNN's blending: out[index] = value + beta * out[index], where `value` already carries alpha. With
// beta == 0 the old value is not read, so NaN or garbage in the output cannot leak into the result.
inline void store_blended(const TensorView &out, const Index &index, double value, double beta) {
    out.write(index, beta == 0 ? value : value + beta * out.read(index));
}

// Host memory for one tensor with the view over it, for tests and tools. Strides must be
// non-negative; the buffer spans exactly the elements they reach, zero-filled.
class HostTensor {
public:
    HostTensor(cudnnDataType_t type, std::vector<int64_t> dims, std::vector<int64_t> strides);
    // Packed in the order of `dims` (NCHW).
    HostTensor(cudnnDataType_t type, std::vector<int64_t> dims);

    // Copies own their bytes; moves keep them (a vector's buffer survives its move).
    HostTensor(const HostTensor &other);
    HostTensor &operator=(const HostTensor &other);
    HostTensor(HostTensor &&other) = default;
    HostTensor &operator=(HostTensor &&other) = default;

    const TensorView &view() const { return view_; }
    operator const TensorView &() const { return view_; }
    void *data() { return bytes_.data(); }
    size_t size_in_bytes() const { return bytes_.size(); }

    double read(const Index &index) const { return view_.read(index); }
    void write(const Index &index, double value) { view_.write(index, value); }
    // Every element in row-major index order (the logical order, whatever the strides).
    std::vector<double> values() const;
    void set_values(const std::vector<double> &values);
    void fill(double value);

private:
    std::vector<unsigned char> bytes_;
    TensorView view_;
};

}  // namespace librednn::reference
