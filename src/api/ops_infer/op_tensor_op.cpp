// cudnnOpTensor: C = op(alpha1 * A, alpha2 * B) + beta * C, B broadcast along its dims of extent 1.
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "descriptors/op_tensor.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/tensor/op_tensor_validate.hpp"
#include "ops/tensor/solvers.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnOpTensor(cudnnHandle_t handle, const cudnnOpTensorDescriptor_t opTensorDesc,
                                        const void *alpha1, const cudnnTensorDescriptor_t aDesc, const void *A,
                                        const void *alpha2, const cudnnTensorDescriptor_t bDesc, const void *B,
                                        const void *beta, const cudnnTensorDescriptor_t cDesc, void *C) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("opTensorDesc", opTensorDesc).arg("alpha1", alpha1).arg("aDesc", aDesc).arg("A", A);
        call.arg("alpha2", alpha2).arg("bDesc", bDesc).arg("B", B).arg("beta", beta).arg("cDesc", cDesc).arg("C", C);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(opTensorDesc);
        LIBREDNN_CHECK(librednn::require_op_tensor_set(*opTensorDesc, "opTensorDesc"));
        LIBREDNN_CHECK(librednn::require_tensor_set(aDesc, "aDesc"));
        LIBREDNN_CHECK(librednn::require_tensor_set(bDesc, "bDesc"));
        LIBREDNN_CHECK(librednn::require_tensor_set(cDesc, "cDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(alpha1);
        LIBREDNN_REQUIRE_NOT_NULL(alpha2);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(A);
        LIBREDNN_REQUIRE_NOT_NULL(C);

        librednn::OpTensorProblem problem;
        problem.op = opTensorDesc->op;
        problem.compute = opTensorDesc->comp_type;
        problem.nan_opt = opTensorDesc->nan_opt;
        problem.a = librednn::geometry_of(*aDesc);
        problem.b = librednn::geometry_of(*bDesc);
        problem.c = librednn::geometry_of(*cDesc);
        // SQRT and NOT never read B, so it may be NULL for them.
        if (!problem.unary()) LIBREDNN_REQUIRE_NOT_NULL(B);
        LIBREDNN_CHECK(librednn::validate_op_tensor(problem));
        const bool in_double = problem.compute == CUDNN_DATA_DOUBLE;
        problem.alpha1 = librednn::read_scaling_factor(alpha1, in_double);
        problem.alpha2 = librednn::read_scaling_factor(alpha2, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        librednn::OpTensorBuffers buffers;
        buffers.a = A;
        buffers.b = B;
        buffers.c = C;
        return librednn::dispatch_and_run(librednn::op_tensor_solvers(), librednn::context_of(*handle), problem,
                                          buffers, "op_tensor");
    });
}
