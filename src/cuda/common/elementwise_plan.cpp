// Planning of element-wise calls: types, the iteration layout, and the choice of kernel path.
#include "cuda/common/elementwise_plan.hpp"

#include <algorithm>
#include <cstdint>

namespace librednn::cuda {

namespace {

bool aligned16(const void *pointer) { return (reinterpret_cast<uintptr_t>(pointer) & 15u) == 0; }

// out[b][p][q] = in[b][q][p] with both packed: after coalescing, the output is row-major over
// [B,] P, Q and the input walks P with stride 1 and Q with stride P.
bool match_transpose(const StridedLayout &layout, ElementwisePlan *plan) {
    const int64_t *e = layout.extents;
    const int64_t *in = layout.strides[1];
    if (layout.rank == 2 && in[0] == 1 && in[1] == e[0]) {
        plan->batch = 1, plan->rows = e[0], plan->columns = e[1];
        return true;
    }
    if (layout.rank == 3 && in[0] == e[1] * e[2] && in[1] == 1 && in[2] == e[1]) {
        plan->batch = e[0], plan->rows = e[1], plan->columns = e[2];
        return true;
    }
    return false;
}

}  // namespace

Status plan_elementwise(const ElementwiseCall &call, ElementwisePlan *plan) {
    ElementwisePlan result;
    if (!scalar_type_of(call.output.dtype, &result.output_type)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "the CUDA tensor kernels do not handle %s output tensors",
                    data_type_short_name(call.output.dtype));
    }
    result.inputs_used = inputs_used_by(call.kind, call.mode);
    result.blend = call.kind != ElementwiseKind::set && call.beta != 0.0;

    // Inputs an operation does not read take the output's geometry: they never block a merge of dims.
    TensorGeometry inputs[3];
    for (int k = 0; k < 3; ++k) {
        const bool used = (result.inputs_used >> k) & 1;
        inputs[k] = used ? call.inputs[k] : call.output;
        if (used && !scalar_type_of(inputs[k].dtype, &result.input_types[k])) {
            return fail(CUDNN_STATUS_NOT_SUPPORTED, "the CUDA tensor kernels do not handle %s input tensors",
                        data_type_short_name(inputs[k].dtype));
        }
        if (!used) result.input_types[k] = result.output_type;
    }
    if (!build_elementwise_layout(call.output, inputs, 3, &result.layout)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "the CUDA tensor kernels need input dims equal to the output's %s or 1, and channels in "
                    "whole vectors for vectorised types",
                    geometry_to_string(call.output).c_str());
    }
    result.layout.drop_unit_dims();
    result.layout.order_by(0);
    result.layout.coalesce();
    result.count = call.output.element_count();

    bool same_type = true;
    result.compute_double =
        call.compute_double || result.output_type == ScalarType::f64 || result.output_type == ScalarType::i32;
    for (int k = 0; k < 3; ++k) {
        if (!((result.inputs_used >> k) & 1)) continue;
        same_type = same_type && result.input_types[k] == result.output_type;
        result.compute_double = result.compute_double || result.input_types[k] == ScalarType::f64 ||
                                result.input_types[k] == ScalarType::i32;
    }
    result.raw_copy = call.kind == ElementwiseKind::copy && same_type && call.alpha == 1.0 && !result.blend;
    if (call.kind == ElementwiseKind::set) result.set_bits = scalar_bits_of(call.set_value, result.output_type);

    // The typed kernels compute double only for double and int32 data; other types asked to compute in
    // double take the strided path, which converts any type.
    const bool typed_compute_matches =
        result.compute_double == (result.output_type == ScalarType::f64 || result.output_type == ScalarType::i32);
    const bool output_row_major = result.layout.is_row_major(0);

    if (call.kind == ElementwiseKind::copy && same_type && typed_compute_matches && output_row_major &&
        match_transpose(result.layout, &result)) {
        // Tiles of 32 to 128 elements a side (transform.cu): worth it when both sides fill at least 16.
        if (result.rows >= 16 && result.columns >= 16) {
            result.path = ElementwisePath::transpose;
            *plan = result;
            return CUDNN_STATUS_SUCCESS;
        }
    }

    if (output_row_major && same_type && typed_compute_matches) {
        result.path = ElementwisePath::flat;
        // Gathered inputs take one split per 16-byte vector, so vectors must not straddle innermost rows.
        const int64_t lanes = 16 / static_cast<int64_t>(scalar_size(result.output_type));
        const bool lanes_share_outer =
            result.layout.rank > 0 && result.layout.extents[result.layout.rank - 1] % lanes == 0;
        result.vectorized = aligned16(call.output_data);
        for (int k = 0; k < 3; ++k) {
            if (!((result.inputs_used >> k) & 1)) continue;
            if (result.layout.is_row_major(k + 1)) {
                result.input_flat_mask |= 1 << k;
                result.vectorized = result.vectorized && aligned16(call.input_data[k]);
            } else {
                result.vectorized = result.vectorized && lanes_share_outer;
            }
        }
        *plan = result;
        return CUDNN_STATUS_SUCCESS;
    }

    result.path = ElementwisePath::strided;
    *plan = result;
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::cuda
