// Registers every family's CUDA solvers.
#include "cuda/solvers.hpp"

#include "cuda/activation/activation_solver.hpp"
#include "cuda/batch_norm/batch_norm_solver.hpp"
#include "cuda/conv/conv_solver.hpp"
#include "cuda/ctc_loss/ctc_loss_solver.hpp"
#include "cuda/divnorm/divnorm_solver.hpp"
#include "cuda/dropout/dropout_solver.hpp"
#include "cuda/fused_ops/fused_ops_solver.hpp"
#include "cuda/lrn/lrn_solver.hpp"
#include "cuda/pooling/pooling_solver.hpp"
#include "cuda/reduce/reduce_solver.hpp"
#include "cuda/rnn/rnn_solver.hpp"
#include "cuda/softmax/softmax_solver.hpp"
#include "cuda/spatial_tf/spatial_tf_solver.hpp"
#include "cuda/tensor/tensor_solver.hpp"
#include "cuda/transform/transform_solver.hpp"

namespace librednn {

void register_cuda_solvers(SolverRegistry &registry) {
    register_cuda_activation_solvers(registry);
    register_cuda_softmax_solvers(registry);
    register_cuda_tensor_solvers(registry);
    register_cuda_reduce_solvers(registry);
    register_cuda_transform_solvers(registry);
    register_cuda_conv_solvers(registry);
    register_cuda_pooling_solvers(registry);
    register_cuda_batch_norm_solvers(registry);
    register_cuda_lrn_solvers(registry);
    register_cuda_dropout_solvers(registry);
    register_cuda_divnorm_solvers(registry);
    register_cuda_spatial_tf_solvers(registry);
    register_cuda_rnn_solvers(registry);
    register_cuda_ctc_loss_solvers(registry);
    register_cuda_fused_ops_solvers(registry);
}

}  // namespace librednn
