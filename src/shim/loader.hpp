// libcudnn.so.8 loads each sub-library on the first call into it: from the shim's own directory
// first, then through the dynamic loader's search path.
#pragma once

#pragma GCC visibility push(default)
#include <cudnn.h>
#include <cudnn_backend.h>
#pragma GCC visibility pop

namespace librednn::shim {

enum class Library { ops_infer, ops_train, cnn_infer, cnn_train, adv_infer, adv_train };

// The file a sub-library is loaded from: "libcudnn_cnn_infer.so.8".
const char *library_file(Library library);

// The address of `symbol` in `library`, loading it on first use; nullptr when it cannot be loaded
// or lacks the symbol (the reason is kept for report_missing).
void *resolve(Library library, const char *symbol);

// Logs, at error level, why `function` cannot be called: the file, every place searched, and each error.
void report_missing(Library library, const char *function);

}  // namespace librednn::shim
