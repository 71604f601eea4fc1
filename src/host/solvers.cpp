// Registers every family's host solvers.
#include "host/solvers.hpp"

#include "host/activation/solvers.hpp"
#include "host/batch_norm/solvers.hpp"
#include "host/conv/solvers.hpp"
#include "host/ctc_loss/solvers.hpp"
#include "host/divnorm/solvers.hpp"
#include "host/dropout/solvers.hpp"
#include "host/fused_ops/solvers.hpp"
#include "host/lrn/solvers.hpp"
#include "host/pooling/solvers.hpp"
#include "host/reduce/solvers.hpp"
#include "host/rnn/solvers.hpp"
#include "host/softmax/solvers.hpp"
#include "host/spatial_tf/solvers.hpp"
#include "host/tensor/solvers.hpp"
#include "host/transform/solvers.hpp"

namespace librednn {

void register_host_solvers(SolverRegistry &registry) {
    register_host_activation_solvers(registry);
    register_host_softmax_solvers(registry);
    register_host_tensor_solvers(registry);
    register_host_reduce_solvers(registry);
    register_host_transform_solvers(registry);
    register_host_conv_solvers(registry);
    register_host_pooling_solvers(registry);
    register_host_batch_norm_solvers(registry);
    register_host_lrn_solvers(registry);
    register_host_dropout_solvers(registry);
    register_host_divnorm_solvers(registry);
    register_host_spatial_tf_solvers(registry);
    register_host_rnn_solvers(registry);
    register_host_ctc_loss_solvers(registry);
    register_host_fused_ops_solvers(registry);
}

}  // namespace librednn
