// cudnnAdvInferVersionCheck: libcudnn_adv_infer and the loaded ops_infer must come from one build.
#include "api/entry.hpp"
#include "api/linked/ops_infer_link.hpp"

cudnnStatus_t CUDNNWINAPI cudnnAdvInferVersionCheck(void) {
    return librednn::api::call(
        __func__, [&](librednn::api::Call &) { return librednn::api::check_same_build_as_ops_infer("adv_infer"); });
}
