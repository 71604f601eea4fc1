// The wavefront forward of the CUDA RNN (docs/RNN.md, "On CUDA"): all the layers of a small-batch inference in one
// cooperative launch. Layer l's step s runs beside layer l + 1's step s - 1: wave w holds step w - l of every layer
// l, so L layers of T steps take T + L - 1 waves, one grid-wide barrier each, instead of L x T steps over L
// persistent launches (rnn_persistent.hpp). Each block keeps its units' rows of every layer's R, and of W for the
// layers above the first, in shared memory in the data's own type (half data's halves, exact in float), and the
// vector layer l wrote at the last wave multiplies both its R and the next layer's W. FP32 in a fixed order:
// deterministic. Layer 0's W x + b_W comes from the all-steps product before the launch, as for the other kernels.
#pragma once

#include "core/status.hpp"
#include "ops/rnn/problem.hpp"

#include <cuda_runtime_api.h>
#include <cudnn.h>

namespace librednn::cuda {

template <class C>
struct CellForward;

// The layers one launch takes at most.
constexpr int kRnnWavefrontMaxLayers = 4;

// LIBREDNN_RNN_WAVEFRONT=0 (read once) leaves every layer to its own persistent launch. A measurement switch.
bool rnn_wavefront_switched_on();

// Whether the wavefront kernel runs this problem's steps: inference of a unidirectional network of 2 to
// kRnnWavefrontMaxLayers layers without a projection, float compute, half or float data, batches up to 16, every
// layer above the first with its own W (not SKIP_INPUT's identity; cuDNN gives those layers a W anyway), and every
// layer's rows of R and W within a block's shared memory, its cell threads (layers x units x sequences) within 256,
// every block resident at once. False with a sentence in `reason` otherwise.
bool rnn_wavefront_forward_applies(const RnnProblem &problem, const char **reason = nullptr);

// One layer's weights in the data's type (`data_type`: half or float), where the weight space holds them: W
// [gates * hidden][hidden] and b_W [gates * hidden] (NULL for layer 0, whose W x + b_W is in its cell's gates),
// R [gates * hidden][hidden] and b_R (a bias NULL where the bias mode has none).
struct WavefrontWeights {
    const void *input = nullptr, *recurrent = nullptr, *input_bias = nullptr, *recurrent_bias = nullptr;
};

// Steps 0 .. steps - 1 of `layers` layers (cells[l].s is not read; cells[l].dir is 0). Each layer's h alternates
// between the two buffers of its state as in the persistent kernel (step s reads at.h and writes at.h_new where s is
// even, the reverse where it is odd; a sequence without step s copies its h across); c stays in the state. Only the
// last layer writes its cell's `out`; no layer saves anything (inference).
Status rnn_wavefront_forward(cudaStream_t stream, cudnnDataType_t data_type, const CellForward<float> *cells,
                             const WavefrontWeights *weights, int layers, int steps);

}  // namespace librednn::cuda
