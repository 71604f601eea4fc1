// The reduction solver list. CUDA solvers (src/cuda/tensor_ops/) join it here, before the host ones; a
// solver that needs workspace says how much, and cudnnGetReductionWorkspaceSize answers with the
// need of the solver dispatch would choose.
#include "ops/reduce/solvers.hpp"

#include "host/reduce/solvers.hpp"

#if LIBREDNN_HAVE_CUDA
#include "cuda/tensor_ops/reduce_solver.hpp"
#endif

namespace librednn {

const std::vector<const ReduceSolver *> &reduce_solvers() {
    static const std::vector<const ReduceSolver *> solvers = {
#if LIBREDNN_HAVE_CUDA
        &cuda_reduce_solver(),
#endif
        &host_reduce_strided_solver(),
    };
    return solvers;
}

}  // namespace librednn
