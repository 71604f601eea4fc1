// Looking up the compiled-in support table.
#include "api/support_table.hpp"

#include <cstring>

namespace librednn::api {

const SupportRow *find_support(const char *function) {
    for (int i = 0; i < kSupportTableSize; ++i)
        if (std::strcmp(kSupportTable[i].function, function) == 0) return &kSupportTable[i];
    return nullptr;
}

}  // namespace librednn::api
