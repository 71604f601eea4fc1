// The softmax solver list. CUDA solvers (src/cuda/tensor_ops/) join it here, before the host ones.
#include "ops/softmax/solvers.hpp"

#include "host/softmax/solvers.hpp"

#if LIBREDNN_HAVE_CUDA
#include "cuda/tensor_ops/softmax_solver.hpp"
#endif

namespace librednn {

const std::vector<const SoftmaxSolver *> &softmax_solvers() {
    static const std::vector<const SoftmaxSolver *> solvers = {
#if LIBREDNN_HAVE_CUDA
        &cuda_softmax_solver(),
#endif
        &host_softmax_strided_solver(),
    };
    return solvers;
}

}  // namespace librednn
