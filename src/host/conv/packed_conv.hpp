// What every host convolution solver shares: the problem's sizes, the packed copies of its tensors
// in the compute type (x as [N][C][input positions], w as [K][C/groups][taps] with the filter already
// flipped for CUDNN_CONVOLUTION, y as [N][K][output positions]), the workspace they live in, the input
// position each (output position, tap) pair reads, and the final store with alpha, beta and the fused
// epilogue. The solvers then only differ in how they sum.
#pragma once

#include "ops/conv/problem.hpp"
#include "ops/conv/solvers.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace librednn::host::conv {

// The sizes of a problem, spatial dims flattened.
struct ConvShape {
    int spatial = 0;
    int64_t n = 0, c = 0, k = 0, groups = 1, cg = 0, kg = 0;
    int64_t in = 1, taps = 1, out = 1;  // input positions, filter taps, output positions
    int64_t in_dims[kMaxConvSpatialDims] = {}, tap_dims[kMaxConvSpatialDims] = {}, out_dims[kMaxConvSpatialDims] = {};
    int64_t pad[kMaxConvSpatialDims] = {}, stride[kMaxConvSpatialDims] = {}, dilation[kMaxConvSpatialDims] = {};
};

ConvShape shape_of(const ConvProblem &problem);

// Double for double data and the int8 configurations (exact integer sums), float otherwise.
bool computes_in_double(const ConvProblem &problem);

// For tap `tap` (row-major over the filter's spatial dims), the input position each output position
// reads, or -1 where it falls in the padding: `offsets` receives shape.out values.
void input_offsets(const ConvShape &shape, int64_t tap, int64_t *offsets);

// The workspace a solver needs: the packed tensors (in the compute type) and `scratch_elements` more
// compute-type elements, plus `index_elements` int64 entries; each part 64-byte aligned.
size_t packed_workspace_bytes(const ConvProblem &problem, int64_t scratch_elements, int64_t index_elements);

// Pointers into the workspace, as packed_workspace_bytes laid it out.
template <class C>
struct PackedTensors {
    C *x = nullptr;  // [N][C][in]
    C *w = nullptr;  // [K][Cg][taps]
    C *y = nullptr;  // [N][K][out]
    C *scratch = nullptr;
    int64_t *index = nullptr;
};

template <class C>
PackedTensors<C> carve_workspace(const ConvProblem &problem, void *workspace, int64_t scratch_elements,
                                 int64_t index_elements);

// Fills the packed copies of the direction's inputs from `buffers` (forward: x, w; backward data: w,
// dy; backward filter: x, dy) and zeroes the one the solver sums into.
template <class C>
void pack_inputs(const ConvProblem &problem, const ConvBuffers &buffers, const PackedTensors<C> &packed);

// Writes the summed packed result into the call's result tensor: result = alpha * sum + beta * result
// (beta == 0 never reads it), or, fused, y = act(alpha * sum + alpha2 * z + bias).
template <class C>
void store_result(const ConvProblem &problem, const ConvBuffers &buffers, const PackedTensors<C> &packed);

// Runs body<C>() with C the compute type.
template <class Body>
void with_compute_type(const ConvProblem &problem, Body &&body) {
    if (computes_in_double(problem)) {
        body(static_cast<double *>(nullptr));
    } else {
        body(static_cast<float *>(nullptr));
    }
}

// The common shape of a host solver: pack, sum with `sum(shape, packed)`, store.
template <class Sum>
Status run_packed(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers,
                  int64_t scratch_elements, int64_t index_elements, Sum &&sum) {
    with_compute_type(problem, [&](auto *tag) {
        using C = std::remove_pointer_t<decltype(tag)>;
        const PackedTensors<C> packed =
            carve_workspace<C>(problem, context.workspace, scratch_elements, index_elements);
        pack_inputs(problem, buffers, packed);
        sum(shape_of(problem), packed);
        store_result(problem, buffers, packed);
    });
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::host::conv
