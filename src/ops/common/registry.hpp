// The solver registry: every op family's solvers, in the order dispatch tries them. The ops layer
// reads it and names no backend; each backend registers its own solvers (src/host/solvers.cpp,
// src/cuda/solvers.cpp), and src/backends/install.cpp, the one file that knows which backends this
// build has, asks them to, once, on first use.
#pragma once

#include "ops/activation/solvers.hpp"
#include "ops/batch_norm/solvers.hpp"
#include "ops/conv/solvers.hpp"
#include "ops/ctc_loss/solvers.hpp"
#include "ops/divnorm/solvers.hpp"
#include "ops/dropout/solvers.hpp"
#include "ops/fused_ops/solvers.hpp"
#include "ops/lrn/solvers.hpp"
#include "ops/pooling/solvers.hpp"
#include "ops/reduce/solvers.hpp"
#include "ops/rnn/solvers.hpp"
#include "ops/softmax/solvers.hpp"
#include "ops/spatial_tf/solvers.hpp"
#include "ops/tensor/solvers.hpp"
#include "ops/transform/solvers.hpp"

#include <vector>

namespace librednn {

template <class Problem, class Buffers>
using SolverList = std::vector<const Solver<Problem, Buffers> *>;

struct SolverRegistry {
    SolverList<ActivationProblem, ActivationBuffers> activation;
    SolverList<SoftmaxProblem, SoftmaxBuffers> softmax;
    SolverList<AddTensorProblem, AddTensorBuffers> add_tensor;
    SolverList<OpTensorProblem, OpTensorBuffers> op_tensor;
    SolverList<SetTensorProblem, SetTensorBuffers> set_tensor;
    SolverList<ReduceProblem, ReduceBuffers> reduce;
    SolverList<TransformProblem, TransformBuffers> transform;
    SolverList<ConvProblem, ConvBuffers> conv_forward;
    SolverList<ConvProblem, ConvBuffers> conv_backward_data;
    SolverList<ConvProblem, ConvBuffers> conv_backward_filter;
    SolverList<ConvProblem, Im2ColBuffers> im2col;
    SolverList<PoolingProblem, PoolingBuffers> pooling;
    SolverList<BatchNormProblem, BatchNormBuffers> batch_norm;
    SolverList<LrnProblem, LrnBuffers> lrn;
    SolverList<DropoutProblem, DropoutBuffers> dropout;
    SolverList<DivNormProblem, DivNormBuffers> divnorm;
    SolverList<SpatialTfProblem, SpatialTfBuffers> spatial_tf;
    SolverList<RnnProblem, RnnBuffers> rnn;
    SolverList<CtcLossProblem, CtcLossBuffers> ctc_loss;
    SolverList<FusedOpsProblem, FusedOpsBuffers> fused_ops;
};

// The registry, filled on the first call (thread-safe) by install_backend_solvers.
const SolverRegistry &solver_registry();

// Registers the solvers of every backend this build has. Defined in src/backends/install.cpp.
void install_backend_solvers(SolverRegistry &registry);

}  // namespace librednn
