// The CUDA RNN's entry (cuda/rnn/rnn.hpp): what it takes, its workspace, and which pass runs.
#include "cuda/rnn/rnn.hpp"

#include "cuda/rnn/rnn_plan.hpp"

namespace librednn::cuda {

const char *rnn_unsupported_reason(const RnnProblem &) { return nullptr; }

size_t rnn_workspace_bytes(const RnnProblem &problem) { return rnn_cuda_workspace(problem).bytes; }

Status rnn(cudaStream_t stream, const RnnProblem &problem, const RnnBuffers &buffers, void *workspace) {
    switch (problem.direction) {
        case RnnDirection::forward: return rnn_forward_pass(stream, problem, buffers, workspace);
        case RnnDirection::backward_data: return rnn_backward_data_pass(stream, problem, buffers, workspace);
        default: return rnn_backward_weights_pass(stream, problem, buffers, workspace);
    }
}

}  // namespace librednn::cuda
