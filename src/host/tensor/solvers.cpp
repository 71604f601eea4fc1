// The host's tensor solvers, in the order dispatch tries them.
#include "host/tensor/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

void register_host_tensor_solvers(SolverRegistry &registry) {
    registry.add_tensor.push_back(&host_add_tensor_solver());
    registry.op_tensor.push_back(&host_op_tensor_solver());
    registry.set_tensor.push_back(&host_set_tensor_solver());
}

}  // namespace librednn
