// The tensor operations' solver lists. CUDA solvers (src/cuda/tensor_ops/) join them here, before the
// host ones.
#include "ops/tensor/solvers.hpp"

#include "host/tensor/solvers.hpp"

#if LIBREDNN_HAVE_CUDA
#include "cuda/tensor_ops/tensor_solver.hpp"
#endif

namespace librednn {

const std::vector<const AddTensorSolver *> &add_tensor_solvers() {
    static const std::vector<const AddTensorSolver *> solvers = {
#if LIBREDNN_HAVE_CUDA
        &cuda_add_tensor_solver(),
#endif
        &host_add_tensor_solver(),
    };
    return solvers;
}

const std::vector<const OpTensorSolver *> &op_tensor_solvers() {
    static const std::vector<const OpTensorSolver *> solvers = {
#if LIBREDNN_HAVE_CUDA
        &cuda_op_tensor_solver(),
#endif
        &host_op_tensor_solver(),
    };
    return solvers;
}

const std::vector<const SetTensorSolver *> &set_tensor_solvers() {
    static const std::vector<const SetTensorSolver *> solvers = {
#if LIBREDNN_HAVE_CUDA
        &cuda_set_tensor_solver(),
#endif
        &host_set_tensor_solver(),
    };
    return solvers;
}

}  // namespace librednn
