// The CUDA runtime API where the CUDA backend is built (LIBREDNN_HAVE_CUDA=1), nothing otherwise.
#pragma once

#if LIBREDNN_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif
