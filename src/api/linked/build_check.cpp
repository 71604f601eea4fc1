// Compares this library's build id with the loaded ops_infer's (librednnGetBuildId).
#include "api/linked/ops_infer_link.hpp"

#include "core/build_id.hpp"

#include <cstring>

namespace librednn::api {

Status check_same_build_as_ops_infer(const char *library) {
    const char *mine = build_id();
    const char *theirs = librednnGetBuildId();
    if (std::strcmp(mine, theirs) != 0)
        return fail(CUDNN_STATUS_VERSION_MISMATCH,
                    "libcudnn_%s (build %s) and the loaded libcudnn_ops_infer (build %s) come from different LibreDNN "
                    "builds; install all seven libraries from one build",
                    library, mine, theirs);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::api
