// cudnnSetTensor (y = value) and cudnnScaleTensor (y = alpha * y).
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/common/element_access.hpp"
#include "ops/tensor/set_tensor_validate.hpp"
#include "ops/tensor/solvers.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnSetTensor(cudnnHandle_t handle, const cudnnTensorDescriptor_t yDesc, void *y,
                                         const void *valuePtr) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("yDesc", yDesc).arg("y", y).arg("valuePtr", valuePtr);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(librednn::require_tensor_set(yDesc, "yDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(y);
        LIBREDNN_REQUIRE_NOT_NULL(valuePtr);

        librednn::SetTensorProblem problem;
        problem.kind = librednn::SetTensorProblem::Kind::set;
        problem.y = librednn::geometry_of(*yDesc);
        LIBREDNN_CHECK(librednn::validate_set_tensor(problem));
        // The value has y's data type (one scalar for vectorised types).
        problem.value = librednn::load_scalar(valuePtr, yDesc->data_type, 0);
        librednn::SetTensorBuffers buffers;
        buffers.y = y;
        return librednn::dispatch_and_run(librednn::set_tensor_solvers(), librednn::context_of(*handle), problem,
                                          buffers, "set_tensor");
    });
}

cudnnStatus_t CUDNNWINAPI cudnnScaleTensor(cudnnHandle_t handle, const cudnnTensorDescriptor_t yDesc, void *y,
                                           const void *alpha) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("yDesc", yDesc).arg("y", y).arg("alpha", alpha);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(librednn::require_tensor_set(yDesc, "yDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(y);
        LIBREDNN_REQUIRE_NOT_NULL(alpha);

        librednn::SetTensorProblem problem;
        problem.kind = librednn::SetTensorProblem::Kind::scale;
        problem.y = librednn::geometry_of(*yDesc);
        LIBREDNN_CHECK(librednn::validate_set_tensor(problem));
        problem.value = librednn::read_scaling_factor(alpha, yDesc->data_type == CUDNN_DATA_DOUBLE);
        librednn::SetTensorBuffers buffers;
        buffers.y = y;
        return librednn::dispatch_and_run(librednn::set_tensor_solvers(), librednn::context_of(*handle), problem,
                                          buffers, "scale_tensor");
    });
}
