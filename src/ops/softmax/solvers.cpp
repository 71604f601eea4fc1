// The softmax solver list. CUDA solvers (src/cuda/softmax/) join it here, before the host ones.
#include "ops/softmax/solvers.hpp"

#include "host/softmax/solvers.hpp"

namespace librednn {

const std::vector<const SoftmaxSolver *> &softmax_solvers() {
    static const std::vector<const SoftmaxSolver *> solvers = {
        // LIBREDNN_HAVE_CUDA: the CUDA solvers go here.
        &host_softmax_strided_solver(),
    };
    return solvers;
}

}  // namespace librednn
