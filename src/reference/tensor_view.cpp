// Element reads and writes by data type, stride helpers, view checks and HostTensor.
#include "reference/tensor_view.hpp"

#include "core/data_type.hpp"
#include "core/numeric_types.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace librednn::reference {

namespace {

template <typename T>
T load(const void *address) {
    T value;
    std::memcpy(&value, address, sizeof value);
    return value;
}

template <typename T>
void store(void *address, T value) {
    std::memcpy(address, &value, sizeof value);
}

}  // namespace

bool is_reference_data_type(cudnnDataType_t type) {
    switch (type) {
        case CUDNN_DATA_FLOAT:
        case CUDNN_DATA_DOUBLE:
        case CUDNN_DATA_HALF:
        case CUDNN_DATA_BFLOAT16:
        case CUDNN_DATA_INT8:
        case CUDNN_DATA_UINT8:
        case CUDNN_DATA_INT32: return true;
        default: return false;
    }
}

double read_element(cudnnDataType_t type, const void *address) {
    switch (type) {
        case CUDNN_DATA_FLOAT: return load<float>(address);
        case CUDNN_DATA_DOUBLE: return load<double>(address);
        case CUDNN_DATA_HALF: return half_to_float(load<Half>(address));
        case CUDNN_DATA_BFLOAT16: return bfloat16_to_float(load<BFloat16>(address));
        case CUDNN_DATA_INT8: return load<int8_t>(address);
        case CUDNN_DATA_UINT8: return load<uint8_t>(address);
        case CUDNN_DATA_INT32: return load<int32_t>(address);
        default: return std::numeric_limits<double>::quiet_NaN();  // check_view keeps other types out
    }
}

void write_element(cudnnDataType_t type, void *address, double value) {
    switch (type) {
        // A static_cast from double to float rounds to nearest even and overflows to infinity.
        case CUDNN_DATA_FLOAT: store(address, static_cast<float>(value)); break;
        case CUDNN_DATA_DOUBLE: store(address, value); break;
        // Straight from double: rounding through float first could round twice.
        case CUDNN_DATA_HALF: store(address, half_from_double(value)); break;
        case CUDNN_DATA_BFLOAT16: store(address, bfloat16_from_double(value)); break;
        case CUDNN_DATA_INT8: store(address, saturate_to_integer<int8_t>(value)); break;
        case CUDNN_DATA_UINT8: store(address, saturate_to_integer<uint8_t>(value)); break;
        case CUDNN_DATA_INT32: store(address, saturate_to_integer<int32_t>(value)); break;
        default: break;
    }
}

int64_t TensorView::element_count() const {
    int64_t count = 1;
    for (int64_t dim : dims) count *= dim;
    return count;
}

int64_t TensorView::offset(const Index &index) const {
    int64_t elements = 0;
    for (size_t axis = 0; axis < dims.size(); ++axis) elements += index[axis] * strides[axis];
    return elements;
}

double TensorView::read(const Index &index) const {
    return read_element(type, static_cast<const char *>(data) + offset(index) * data_type_size(type));
}

void TensorView::write(const Index &index, double value) const {
    write_element(type, static_cast<char *>(data) + offset(index) * data_type_size(type), value);
}

std::vector<int64_t> packed_strides(const std::vector<int64_t> &dims) {
    std::vector<int64_t> strides(dims.size());
    int64_t stride = 1;
    for (size_t axis = dims.size(); axis-- > 0;) {
        strides[axis] = stride;
        stride *= dims[axis];
    }
    return strides;
}

std::vector<int64_t> channels_last_strides(const std::vector<int64_t> &dims) {
    if (dims.size() < 3) return packed_strides(dims);
    std::vector<int64_t> strides(dims.size());
    int64_t stride = 1;
    strides[1] = stride;
    stride *= dims[1];
    for (size_t axis = dims.size(); axis-- > 2;) {
        strides[axis] = stride;
        stride *= dims[axis];
    }
    strides[0] = stride;
    return strides;
}

std::string dims_to_string(const std::vector<int64_t> &dims) {
    std::string text;
    for (size_t axis = 0; axis < dims.size(); ++axis) text += (axis ? "x" : "") + std::to_string(dims[axis]);
    return text;
}

Status check_view(const TensorView &view, const char *name) {
    if (!is_reference_data_type(view.type)) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s has data type %s; the reference reads %s", name,
                    data_type_short_name(view.type), "float, double, half, bfloat16, int8, uint8 and int32");
    }
    if (view.dims.empty() || view.dims.size() != view.strides.size()) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s has %zu dims and %zu strides; needs one stride per dim, at least one",
                    name, view.dims.size(), view.strides.size());
    }
    for (size_t axis = 0; axis < view.dims.size(); ++axis) {
        if (view.dims[axis] <= 0 || view.strides[axis] < 0) {
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "%s has dim %lld and stride %lld at position %zu; dims must be "
                        "positive and strides non-negative",
                        name, static_cast<long long>(view.dims[axis]), static_cast<long long>(view.strides[axis]),
                        axis);
        }
    }
    if (!view.data) return fail(CUDNN_STATUS_BAD_PARAM, "%s has no data (null pointer)", name);
    return CUDNN_STATUS_SUCCESS;
}

HostTensor::HostTensor(cudnnDataType_t type, std::vector<int64_t> dims, std::vector<int64_t> strides) {
    int64_t span = dims.empty() ? 0 : 1;  // elements from the first to one past the last reachable
    for (size_t axis = 0; axis < dims.size(); ++axis) {
        if (dims[axis] <= 0) span = 0;
        if (span) span += (dims[axis] - 1) * strides[axis];
    }
    bytes_.assign(static_cast<size_t>(span) * data_type_size(type), 0);
    view_.type = type;
    view_.dims = std::move(dims);
    view_.strides = std::move(strides);
    view_.data = bytes_.data();
}

HostTensor::HostTensor(cudnnDataType_t type, std::vector<int64_t> dims)
    : HostTensor(type, dims, packed_strides(dims)) {}

HostTensor::HostTensor(const HostTensor &other) : bytes_(other.bytes_), view_(other.view_) {
    view_.data = bytes_.data();
}

HostTensor &HostTensor::operator=(const HostTensor &other) {
    bytes_ = other.bytes_;
    view_ = other.view_;
    view_.data = bytes_.data();
    return *this;
}

std::vector<double> HostTensor::values() const {
    std::vector<double> values;
    values.reserve(static_cast<size_t>(view_.element_count()));
    for_each_index(view_.dims, [&](const Index &index) { values.push_back(view_.read(index)); });
    return values;
}

void HostTensor::set_values(const std::vector<double> &values) {
    size_t next = 0;
    for_each_index(view_.dims, [&](const Index &index) { view_.write(index, values.at(next++)); });
}

void HostTensor::fill(double value) {
    for_each_index(view_.dims, [&](const Index &index) { view_.write(index, value); });
}

}  // namespace librednn::reference
