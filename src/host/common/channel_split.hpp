// Vectorised tensors (INT8x4, UINT8x4, INT8x32) as plain strided tensors of scalars, so that the
// strided walk handles them: channel c of a vector tensor is lane c % v of vector c / v, which is
// linear once C is split into (C / v, v). All operands split C the same way, so that their elements
// still correspond index by index.
#pragma once

#include "ops/common/element_access.hpp"
#include "ops/common/tensor_geometry.hpp"

namespace librednn::host {

// Splits dim 1 of every operand (all with the same dims) into the vector widths among them: [C/v, v]
// for one width, [C/32, 8, 4] when both 4 and 32 occur. The split dims go last. Operands keep their
// scalar type (INT8 for INT8x4). Returns false (and leaves `out` alone) when C is not a multiple of
// the widths or the split dims would not fit in kMaxDims. Without vectorised operands the geometries
// are returned as they are.
template <int N>
bool split_channels(const TensorGeometry *const (&operands)[N], TensorGeometry (&out)[N]) {
    int widest = 1, narrowest = 1;
    for (const TensorGeometry *operand : operands) {
        const int lanes = operand->vector();
        if (lanes > widest) widest = lanes;
        if (lanes > 1 && (narrowest == 1 || lanes < narrowest)) narrowest = lanes;
    }
    if (widest == 1) {
        for (int k = 0; k < N; ++k) out[k] = *operands[k];
        return true;
    }
    const int64_t channels = operands[0]->dims[1];
    if (channels % widest != 0) return false;
    // Radices of the channel index, outermost first: c = ((q * middle) + r) * inner + l.
    const int64_t inner = narrowest, middle = widest / narrowest;
    if (operands[0]->nb_dims + (middle > 1 ? 2 : 1) > kMaxDims) return false;
    for (int k = 0; k < N; ++k) {
        const TensorGeometry &g = *operands[k];
        const int lanes = g.vector();
        TensorGeometry s;
        s.dtype = scalar_type_of(g.dtype);
        s.nb_dims = 0;
        auto add = [&](int64_t dim, int64_t stride) {
            s.dims[s.nb_dims] = dim;
            s.strides[s.nb_dims] = stride;
            ++s.nb_dims;
        };
        // Scalar strides: a vector tensor's strides count vectors of `lanes` scalars.
        const int64_t scale = lanes;
        for (int i = 0; i < g.nb_dims; ++i) {
            if (i == 1) {
                // q: whole groups of `widest` channels.
                add(channels / widest, lanes == 1 ? g.strides[1] * widest : g.strides[1] * (widest / lanes) * scale);
            } else {
                add(g.dims[i], g.strides[i] * scale);
            }
        }
        if (middle > 1) {
            // r: groups of `inner` channels within a widest group.
            add(middle, lanes == 1 ? g.strides[1] * inner : (lanes == inner ? g.strides[1] * scale : inner));
        }
        // l: single channels within an inner group.
        add(inner, lanes == 1 ? g.strides[1] : 1);
        out[k] = s;
    }
    return true;
}

}  // namespace librednn::host
