// cudnnDropoutForward: y = x / (1 - p) where an element is kept, 0 where it is dropped, drawn from the
// descriptor's states; the mask goes to the reserve space for cudnnDropoutBackward.
#include "api/dropout_problem.hpp"
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/dropout/solvers.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnDropoutForward(cudnnHandle_t handle, const cudnnDropoutDescriptor_t dropoutDesc,
                                              const cudnnTensorDescriptor_t xdesc, const void *x,
                                              const cudnnTensorDescriptor_t ydesc, void *y, void *reserveSpace,
                                              size_t reserveSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("dropoutDesc", dropoutDesc).arg("xdesc", xdesc).arg("x", x);
        call.arg("ydesc", ydesc).arg("y", y).arg("reserveSpace", reserveSpace);
        call.arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::DropoutProblem problem;
        LIBREDNN_CHECK(librednn::api::dropout_problem_of(librednn::Direction::forward, dropoutDesc, xdesc, x, ydesc, y,
                                                         reserveSpaceSizeInBytes, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        LIBREDNN_REQUIRE_NOT_NULL(reserveSpace);
        librednn::DropoutBuffers buffers;
        buffers.in = x;
        buffers.out = y;
        buffers.reserve = reserveSpace;
        buffers.states = dropoutDesc->states;
        return librednn::dispatch_and_run(librednn::dropout_solvers(), librednn::context_of(*handle), problem, buffers,
                                          "dropout");
    });
}
