// The build id, kept behind a marker so that tools (and tests) can find it in a library file.
#include "core/build_id.hpp"

#include <cudnn_version.h>

#ifndef LIBREDNN_BUILD_ID
#error LIBREDNN_BUILD_ID must be defined by the build
#endif

#define LIBREDNN_STR2(x) #x
#define LIBREDNN_STR(x) LIBREDNN_STR2(x)

namespace librednn {

namespace {
// "LIBREDNN_BUILD_ID=" followed by 16 hex digits; read through a volatile pointer so that the
// compiler cannot fold comparisons of two libraries' ids into a constant.
__attribute__((used)) const char kMarked[] = "LIBREDNN_BUILD_ID=" LIBREDNN_STR(LIBREDNN_BUILD_ID);
constexpr int kMarkerLength = 18;
}  // namespace

const char *build_id() {
    const char *volatile marked = kMarked;
    return marked + kMarkerLength;
}

const char *version_string() {
    static const char text[] = LIBREDNN_STR(LIBREDNN_VERSION_MAJOR) "." LIBREDNN_STR(LIBREDNN_VERSION_MINOR) "." LIBREDNN_STR(
        LIBREDNN_VERSION_PATCH) " (cuDNN API " LIBREDNN_STR(CUDNN_MAJOR) "." LIBREDNN_STR(CUDNN_MINOR) "." LIBREDNN_STR(CUDNN_PATCHLEVEL) ")";
    return text;
}

}  // namespace librednn
