// cudnnOpsInferVersionCheck: ops_infer is the library the others are checked against.
#include "api/entry.hpp"

cudnnStatus_t CUDNNWINAPI cudnnOpsInferVersionCheck(void) {
    return librednn::api::call(__func__, [&](librednn::api::Call &) { return CUDNN_STATUS_SUCCESS; });
}
