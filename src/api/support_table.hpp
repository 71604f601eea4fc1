// The support table compiled into every library (generated from src/api/support.tsv).
#pragma once

namespace librednn::api {

struct SupportRow {
    const char *function;
    const char *library;  // "ops_infer", "cnn_train", ...
    const char *host;     // "yes", "partial", "no", "n/a"
    const char *cuda;
    const char *types;
    const char *note;
};

extern const SupportRow kSupportTable[];
extern const int kSupportTableSize;

// The row of a cuDNN function, or nullptr.
const SupportRow *find_support(const char *function);

}  // namespace librednn::api
