// The transform solver list. CUDA solvers (src/cuda/elementwise/) join it here, before the host ones.
#include "ops/transform/solvers.hpp"

#include "host/transform/solvers.hpp"

namespace librednn {

const std::vector<const TransformSolver *> &transform_solvers() {
    static const std::vector<const TransformSolver *> solvers = {
        // LIBREDNN_HAVE_CUDA: the CUDA solvers go here.
        &host_transform_copy_solver(),
        &host_transform_reshape_solver(),
    };
    return solvers;
}

}  // namespace librednn
