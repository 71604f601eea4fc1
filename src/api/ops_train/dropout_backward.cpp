// cudnnDropoutBackward: dx = dy / (1 - p) where the forward call kept the element, 0 where it dropped it,
// from the mask that call left in the reserve space.
#include "api/dropout_problem.hpp"
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/dropout/solvers.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnDropoutBackward(cudnnHandle_t handle, const cudnnDropoutDescriptor_t dropoutDesc,
                                               const cudnnTensorDescriptor_t dydesc, const void *dy,
                                               const cudnnTensorDescriptor_t dxdesc, void *dx, void *reserveSpace,
                                               size_t reserveSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("dropoutDesc", dropoutDesc).arg("dydesc", dydesc).arg("dy", dy);
        call.arg("dxdesc", dxdesc).arg("dx", dx).arg("reserveSpace", reserveSpace);
        call.arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::DropoutProblem problem;
        LIBREDNN_CHECK(librednn::api::dropout_problem_of(librednn::Direction::backward, dropoutDesc, dydesc, dy, dxdesc,
                                                         dx, reserveSpaceSizeInBytes, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(dy);
        LIBREDNN_REQUIRE_NOT_NULL(dx);
        LIBREDNN_REQUIRE_NOT_NULL(reserveSpace);
        librednn::DropoutBuffers buffers;
        buffers.in = dy;
        buffers.out = dx;
        buffers.reserve = reserveSpace;
        return librednn::dispatch_and_run(librednn::dropout_solvers(), librednn::context_of(*handle), problem, buffers,
                                          "dropout");
    });
}
