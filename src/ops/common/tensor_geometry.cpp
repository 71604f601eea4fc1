// Tensor geometry: packed layouts, density, comparisons and printing.
#include "ops/common/tensor_geometry.hpp"

#include <utility>

namespace librednn {

int64_t TensorGeometry::span_elements() const {
    const int lanes = vector();
    int64_t last_vector = 0;
    for (int i = 0; i < nb_dims; ++i) {
        const int64_t extent = i == 1 ? dims[1] / lanes : dims[i];
        last_vector += (extent - 1) * strides[i];
    }
    return (last_vector + 1) * lanes;
}

bool TensorGeometry::operator==(const TensorGeometry &other) const {
    if (dtype != other.dtype || nb_dims != other.nb_dims) return false;
    for (int i = 0; i < nb_dims; ++i) {
        if (dims[i] != other.dims[i] || strides[i] != other.strides[i]) return false;
    }
    return true;
}

TensorGeometry packed_geometry(cudnnDataType_t dtype, int nb_dims, const int64_t *dims, PackedLayout layout) {
    TensorGeometry geometry;
    geometry.dtype = dtype;
    geometry.nb_dims = nb_dims;
    for (int i = 0; i < nb_dims; ++i) geometry.dims[i] = dims[i];
    const int lanes = geometry.vector();
    int64_t extent[kMaxDims] = {};
    for (int i = 0; i < nb_dims; ++i) extent[i] = i == 1 ? dims[1] / lanes : dims[i];
    if (layout == PackedLayout::nhwc && nb_dims >= 2) {
        // Channels innermost, then the spatial dims from last to first, then the batch.
        int64_t next = 1;
        geometry.strides[1] = next;
        next *= extent[1];
        for (int i = nb_dims - 1; i >= 2; --i) {
            geometry.strides[i] = next;
            next *= extent[i];
        }
        geometry.strides[0] = next;
    } else {
        int64_t next = 1;
        for (int i = nb_dims - 1; i >= 0; --i) {
            geometry.strides[i] = next;
            next *= extent[i];
        }
    }
    return geometry;
}

bool is_dense(const TensorGeometry &geometry) {
    const int lanes = geometry.vector();
    // Dims of extent 1 do not move through memory; the rest, ordered by stride, must each start where
    // the previous one ends.
    struct Axis {
        int64_t extent, stride;
    };
    Axis axes[kMaxDims];
    int count = 0;
    for (int i = 0; i < geometry.nb_dims; ++i) {
        const int64_t extent = i == 1 ? geometry.dims[1] / lanes : geometry.dims[i];
        if (extent > 1) axes[count++] = {extent, geometry.strides[i]};
    }
    // Insertion sort by stride: at most eight axes.
    for (int i = 1; i < count; ++i) {
        for (int j = i; j > 0 && axes[j].stride < axes[j - 1].stride; --j) std::swap(axes[j], axes[j - 1]);
    }
    int64_t expected = 1;
    for (int i = 0; i < count; ++i) {
        if (axes[i].stride != expected) return false;
        expected *= axes[i].extent;
    }
    return true;
}

bool same_dims(const TensorGeometry &a, const TensorGeometry &b) {
    if (a.nb_dims != b.nb_dims) return false;
    for (int i = 0; i < a.nb_dims; ++i) {
        if (a.dims[i] != b.dims[i]) return false;
    }
    return true;
}

bool same_layout(const TensorGeometry &a, const TensorGeometry &b) {
    if (!same_dims(a, b) || a.vector() != b.vector()) return false;
    for (int i = 0; i < a.nb_dims; ++i) {
        // A dim of extent 1 never moves, so its stride does not matter.
        if (a.dims[i] > 1 && a.strides[i] != b.strides[i]) return false;
    }
    return true;
}

bool broadcasts_to(const TensorGeometry &small, const TensorGeometry &full) {
    if (small.nb_dims != full.nb_dims) return false;
    for (int i = 0; i < small.nb_dims; ++i) {
        if (small.dims[i] != full.dims[i] && small.dims[i] != 1) return false;
    }
    return true;
}

TensorGeometry broadcast_view(const TensorGeometry &small, const TensorGeometry &full) {
    TensorGeometry view = small;
    for (int i = 0; i < small.nb_dims; ++i) {
        view.dims[i] = full.dims[i];
        if (small.dims[i] == 1) view.strides[i] = 0;
    }
    return view;
}

std::string join_dims(const int64_t *values, int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += (i ? "x" : "") + std::to_string(values[i]);
    return text;
}

std::string geometry_to_string(const TensorGeometry &geometry) {
    return std::string(data_type_short_name(geometry.dtype)) + " " + join_dims(geometry.dims, geometry.nb_dims) +
           " strides " + join_dims(geometry.strides, geometry.nb_dims);
}

}  // namespace librednn
