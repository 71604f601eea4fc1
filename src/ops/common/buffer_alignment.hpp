// How the pointers a caller passes must be aligned: data to its type's elements (a whole 32-bit word for
// the vectorised int8 types), workspaces and reserve spaces to 16 bytes (solvers keep typed data and
// 16-byte vectors there). A misaligned pointer is BAD_PARAM with its name, never read: the host would make
// misaligned accesses (undefined behaviour) and the GPU would fault, leaving the process's CUDA context
// unusable. Memory from cudaMalloc or malloc is always aligned enough; so is any tensor carved from it at
// whole elements. Each op family names its buffers in its buffer_alignment() (declared beside its Buffers in
// src/ops/<family>/problem.hpp), which dispatch and checked_buffers (ops/common/dispatch.hpp) ask before a
// solver runs.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <cstddef>
#include <initializer_list>

namespace librednn {

// What workspaces and reserve spaces must be aligned to.
constexpr size_t kSpaceAlignment = 16;

// The alignment data of `type` needs: its element's size (1, 2, 4 or 8 bytes), 4 for INT8x4, UINT8x4 and
// INT8x32.
size_t element_alignment(cudnnDataType_t type);

// A data pointer as the caller named it ("x"), with the type its elements have.
struct TypedPointer {
    const char *name;
    const void *data;
    cudnnDataType_t type;
};

// BAD_PARAM naming the first pointer off its type's alignment; NULL pointers pass (whether one may be
// NULL is the family's own rule).
Status require_aligned(std::initializer_list<TypedPointer> pointers);

// BAD_PARAM when `space` is not NULL, `bytes` (what the solver uses of it) is not 0 and the pointer is off
// kSpaceAlignment.
Status require_space_aligned(const char *name, const void *space, size_t bytes);

// The same for a space the call uses whenever it is given (a reserve space, dropout states): BAD_PARAM when
// `space` is not NULL and off kSpaceAlignment.
Status require_space_aligned(const char *name, const void *space);

}  // namespace librednn
