// cudnnAdvTrainVersionCheck: libcudnn_adv_train and the loaded ops_infer must come from one build.
#include "api/entry.hpp"
#include "api/linked/ops_infer_link.hpp"

cudnnStatus_t CUDNNWINAPI cudnnAdvTrainVersionCheck(void) {
    return librednn::api::call(
        __func__, [&](librednn::api::Call &) { return librednn::api::check_same_build_as_ops_infer("adv_train"); });
}
