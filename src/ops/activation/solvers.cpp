// The activation solver list. CUDA solvers (src/cuda/tensor_ops/) join it here, before the host ones;
// dispatch only considers the solvers of the handle's backend.
#include "ops/activation/solvers.hpp"

#include "host/activation/solvers.hpp"

#if LIBREDNN_HAVE_CUDA
#include "cuda/tensor_ops/activation_solver.hpp"
#endif

namespace librednn {

const std::vector<const ActivationSolver *> &activation_solvers() {
    static const std::vector<const ActivationSolver *> solvers = {
#if LIBREDNN_HAVE_CUDA
        &cuda_activation_solver(),
#endif
        &host_activation_packed_solver(),
        &host_activation_strided_solver(),
    };
    return solvers;
}

}  // namespace librednn
