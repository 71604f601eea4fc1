// cudnnAddTensor: C = alpha * A + beta * C, A broadcast along its dims of extent 1 (a bias).
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/tensor/add_tensor_validate.hpp"
#include "ops/tensor/solvers.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnAddTensor(cudnnHandle_t handle, const void *alpha, const cudnnTensorDescriptor_t aDesc,
                                         const void *A, const void *beta, const cudnnTensorDescriptor_t cDesc,
                                         void *C) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("alpha", alpha).arg("aDesc", aDesc).arg("A", A).arg("beta", beta);
        call.arg("cDesc", cDesc).arg("C", C);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(librednn::require_tensor_set(aDesc, "aDesc"));
        LIBREDNN_CHECK(librednn::require_tensor_set(cDesc, "cDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(A);
        LIBREDNN_REQUIRE_NOT_NULL(C);

        librednn::AddTensorProblem problem;
        problem.a = librednn::geometry_of(*aDesc);
        problem.c = librednn::geometry_of(*cDesc);
        LIBREDNN_CHECK(librednn::validate_add_tensor(problem));
        const bool in_double = cDesc->data_type == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        librednn::AddTensorBuffers buffers;
        buffers.a = A;
        buffers.c = C;
        return librednn::dispatch_and_run(librednn::add_tensor_solvers(), librednn::context_of(*handle), problem,
                                          buffers, "add_tensor");
    });
}
