// The identity of one LibreDNN build, compared across sub-libraries by the cudnn*VersionCheck calls.
#pragma once

namespace librednn {

// A string unique to one build (configure run): every library of that build holds the same one.
const char *build_id();

// LibreDNN's own version, e.g. "0.1.0 (cuDNN API 8.9.7, build 3f2a...)".
const char *version_string();

}  // namespace librednn

extern "C" {
// Exported by libcudnn_ops_infer only: the build id of the ops_infer that is loaded.
__attribute__((visibility("default"))) const char *librednnGetBuildId(void);
__attribute__((visibility("default"))) const char *librednnGetVersionString(void);
}
