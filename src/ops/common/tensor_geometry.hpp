// The memory layout of one tensor operand as problems, solvers and kernels see it: element type,
// dims and strides (vectorised types included), with the offset of every element.
#pragma once

#include "core/data_type.hpp"

#include <cudnn.h>

#include <cstdint>
#include <string>

namespace librednn {

constexpr int kMaxDims = CUDNN_DIM_MAX;

// How the packed layouts order their dims in memory.
enum class PackedLayout { nchw, nhwc, nchw_vect_c };

struct TensorGeometry {
    cudnnDataType_t dtype = CUDNN_DATA_FLOAT;  // as the descriptor says: INT8x4 for a vectorised tensor
    int nb_dims = 0;
    int64_t dims[kMaxDims] = {};     // NCHW order (N, C, spatial...); dims[1] counts scalar channels
    int64_t strides[kMaxDims] = {};  // in elements, in vectors for vectorised types; NCHW order

    // Scalars packed along dim 1 in one vector: 4 for INT8x4/UINT8x4, 32 for INT8x32, else 1.
    int vector() const { return vector_count(dtype); }

    int64_t element_count() const {
        int64_t count = 1;
        for (int i = 0; i < nb_dims; ++i) count *= dims[i];
        return count;
    }

    // Offset, in scalar elements from the base pointer, of the element at `index` (NCHW order, index[1]
    // a scalar channel). For vectorised types channel c is lane c % vector of vector c / vector.
    int64_t offset(const int64_t *index) const {
        const int lanes = vector();
        if (lanes == 1) {
            int64_t offset = 0;
            for (int i = 0; i < nb_dims; ++i) offset += index[i] * strides[i];
            return offset;
        }
        int64_t vector_offset = 0;
        for (int i = 0; i < nb_dims; ++i) vector_offset += (i == 1 ? index[1] / lanes : index[i]) * strides[i];
        return vector_offset * lanes + index[1] % lanes;
    }

    // Scalar elements from the base pointer to one past the last element addressed.
    int64_t span_elements() const;

    bool operator==(const TensorGeometry &other) const;
    bool operator!=(const TensorGeometry &other) const { return !(*this == other); }
};

// A packed tensor of `layout` (NCHW_VECT_C needs a vectorised type).
TensorGeometry packed_geometry(cudnnDataType_t dtype, int nb_dims, const int64_t *dims, PackedLayout layout);

// True when the elements fill [0, element_count) without gaps or overlap: a packed layout with its
// dims in any order (NCHW, NHWC, CHWN, ...). Dims of extent 1 may carry any stride.
bool is_dense(const TensorGeometry &geometry);

// True when both have the same dims and strides (and vector width): element i sits at the same
// offset in both, so one flat loop walks them together.
bool same_layout(const TensorGeometry &a, const TensorGeometry &b);

bool same_dims(const TensorGeometry &a, const TensorGeometry &b);

// True when every dim of `small` equals the one of `full` or is 1 (and both have as many dims).
bool broadcasts_to(const TensorGeometry &small, const TensorGeometry &full);

// `small` seen with `full`'s dims: the dims it broadcasts along get stride 0, so that element `index`
// of the view is element `index` of `full`'s shape. `small` must broadcast to `full`.
TensorGeometry broadcast_view(const TensorGeometry &small, const TensorGeometry &full);

// Advances `index` to the next element in row-major order of `dims`; false after the last one.
inline bool next_index(int64_t *index, const int64_t *dims, int nb_dims) {
    for (int i = nb_dims - 1; i >= 0; --i) {
        if (++index[i] < dims[i]) return true;
        index[i] = 0;
    }
    return false;
}

// "2x3x4x5".
std::string join_dims(const int64_t *values, int count);

// "float 2x3x4x5 strides 60x20x5x1", for log lines and failure reasons.
std::string geometry_to_string(const TensorGeometry &geometry);

}  // namespace librednn
