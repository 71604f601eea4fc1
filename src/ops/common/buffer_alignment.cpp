#include "ops/common/buffer_alignment.hpp"

#include "core/data_type.hpp"

#include <cstdint>

namespace librednn {

size_t element_alignment(cudnnDataType_t type) {
    if (vector_count(type) > 1) return 4;
    const size_t size = data_type_size(type);
    return size == 0 ? 1 : size;
}

Status require_aligned(std::initializer_list<TypedPointer> pointers) {
    for (const TypedPointer &p : pointers) {
        const size_t alignment = element_alignment(p.type);
        if (p.data != nullptr && reinterpret_cast<uintptr_t>(p.data) % alignment != 0) {
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "%s is %p, not aligned to its elements (%zu bytes): its data would be read at misaligned "
                        "addresses",
                        p.name, p.data, alignment);
        }
    }
    return CUDNN_STATUS_SUCCESS;
}

Status require_space_aligned(const char *name, const void *space, size_t bytes) {
    if (space == nullptr || bytes == 0 || reinterpret_cast<uintptr_t>(space) % kSpaceAlignment == 0)
        return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_BAD_PARAM,
                "%s is %p, not aligned to %zu bytes; the solver keeps typed data there (cudaMalloc gives 256-byte "
                "aligned memory)",
                name, space, kSpaceAlignment);
}

Status require_space_aligned(const char *name, const void *space) { return require_space_aligned(name, space, 1); }

}  // namespace librednn
