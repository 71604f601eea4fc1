// The tensor operations' solver lists. CUDA solvers (src/cuda/elementwise/) join them here, before the
// host ones.
#include "ops/tensor/solvers.hpp"

#include "host/tensor/solvers.hpp"

namespace librednn {

const std::vector<const AddTensorSolver *> &add_tensor_solvers() {
    static const std::vector<const AddTensorSolver *> solvers = {
        // LIBREDNN_HAVE_CUDA: the CUDA solvers go here.
        &host_add_tensor_solver(),
    };
    return solvers;
}

const std::vector<const OpTensorSolver *> &op_tensor_solvers() {
    static const std::vector<const OpTensorSolver *> solvers = {
        // LIBREDNN_HAVE_CUDA: the CUDA solvers go here.
        &host_op_tensor_solver(),
    };
    return solvers;
}

const std::vector<const SetTensorSolver *> &set_tensor_solvers() {
    static const std::vector<const SetTensorSolver *> solvers = {
        // LIBREDNN_HAVE_CUDA: the CUDA solvers go here.
        &host_set_tensor_solver(),
    };
    return solvers;
}

}  // namespace librednn
