// The activation solver list. CUDA solvers (src/cuda/activation/) join it here, before the host ones;
// dispatch only considers the solvers of the handle's backend.
#include "ops/activation/solvers.hpp"

#include "host/activation/solvers.hpp"

namespace librednn {

const std::vector<const ActivationSolver *> &activation_solvers() {
    static const std::vector<const ActivationSolver *> solvers = {
        // LIBREDNN_HAVE_CUDA: the CUDA solvers go here.
        &host_activation_packed_solver(),
        &host_activation_strided_solver(),
    };
    return solvers;
}

}  // namespace librednn
