// The softmax kernels for particular layouts, each in a file of its own, and what their launchers take.
// softmax.cu plans a call, tries these in turn, and falls back to its general row and column kernels.
#pragma once

#include "core/status.hpp"
#include "cuda/common/scalar_type.hpp"
#include "cuda/common/strided_layout.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// What every softmax kernel takes besides its geometry (its argument structs derive from this).
template <class C>
struct SoftmaxScalars {
    int algorithm = 0;  // cudnnSoftmaxAlgorithm_t
    int backward = 0;
    int blend = 0;  // beta != 0: the output is read
    C alpha{}, beta{};
};

template <class C>
SoftmaxScalars<C> softmax_scalars(int algorithm, bool backward, double alpha, double beta) {
    SoftmaxScalars<C> scalars;
    scalars.algorithm = algorithm;
    scalars.backward = backward ? 1 : 0;
    scalars.blend = beta != 0.0 ? 1 : 0;
    scalars.alpha = static_cast<C>(alpha);
    scalars.beta = static_cast<C>(beta);
    return scalars;
}

// One softmax call as the kernels see it. A row is what one softmax runs over; `batch` walks the rows and
// `row` the elements of one, both over operands 0 (the output), 1 (input 0) and 2 (input 1; forward: x
// again), reshaped (unit dims dropped, ordered, coalesced).
struct SoftmaxLaunch {
    ScalarType type = ScalarType::f32;  // one type for every tensor: f32, f64, f16 or bf16
    int algorithm = 0;                  // cudnnSoftmaxAlgorithm_t
    bool backward = false;
    double alpha = 1, beta = 0;
    void *output = nullptr;      // forward: y; backward: dx
    const void *inputs[2] = {};  // forward: x, x; backward: y, dy
    StridedLayout batch, row;
};

// Rows contiguous in every operand, 16-byte vectors, more than 1024 vectors long and at most 16384
// (forward; 65536 floats) or 8192 (backward): each row held by a cluster of up to 8 blocks (sm_90), in
// shared memory (float and double forward, one bulk copy a block) or registers (the others), one
// reduction across the cluster's shared memory, one read and one write of each element.
// Returns false, launching nothing, when the call or the device does not fit; else the launch's status.
bool launch_softmax_cluster_rows(cudaStream_t stream, const SoftmaxLaunch &launch, Status *status);

// Rows strided (a single row dim) where the batch's innermost dim is contiguous in every operand
// (CHANNEL mode on NCHW): a block takes a tile of neighbouring rows across all their elements (staged
// in shared memory when the image is whole 16-byte vectors). Returns false, launching nothing, when the
// layout does not fit.
bool launch_softmax_channel_tiles(cudaStream_t stream, const SoftmaxLaunch &launch, Status *status);

}  // namespace librednn::cuda
