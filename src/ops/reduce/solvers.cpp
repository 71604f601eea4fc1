// The reduction solver list. CUDA solvers (src/cuda/reduce/) join it here, before the host ones; a
// solver that needs workspace says how much, and cudnnGetReductionWorkspaceSize answers with the
// need of the solver dispatch would choose.
#include "ops/reduce/solvers.hpp"

#include "host/reduce/solvers.hpp"

namespace librednn {

const std::vector<const ReduceSolver *> &reduce_solvers() {
    static const std::vector<const ReduceSolver *> solvers = {
        // LIBREDNN_HAVE_CUDA: the CUDA solvers go here.
        &host_reduce_strided_solver(),
    };
    return solvers;
}

}  // namespace librednn
