// The object behind cudnnHandle_t: backend, device and stream of one library context.
#pragma once

#include "core/backend.hpp"

#include <cudnn.h>

struct cudnnContext {
    librednn::Backend backend = librednn::Backend::host;
    int device = -1;                // CUDA device ordinal, -1 on the host backend
    cudaStream_t stream = nullptr;  // the user's stream; nullptr is the default stream
};

namespace librednn {

// Creates a handle on the backend choose_backend() picks.
Status create_handle(cudnnContext **out);
Status destroy_handle(cudnnContext *handle);
Status set_handle_stream(cudnnContext *handle, cudaStream_t stream);

}  // namespace librednn
