// The transform solver list. CUDA solvers (src/cuda/tensor_ops/) join it here, before the host ones.
#include "ops/transform/solvers.hpp"

#include "host/transform/solvers.hpp"

#if LIBREDNN_HAVE_CUDA
#include "cuda/tensor_ops/transform_solver.hpp"
#endif

namespace librednn {

const std::vector<const TransformSolver *> &transform_solvers() {
    static const std::vector<const TransformSolver *> solvers = {
#if LIBREDNN_HAVE_CUDA
        &cuda_transform_solver(),
#endif
        &host_transform_copy_solver(),
        &host_transform_reshape_solver(),
    };
    return solvers;
}

}  // namespace librednn
