// Which backend runs a handle's work: the CPU (host) or an NVIDIA GPU (CUDA).
#pragma once

#include "core/status.hpp"

namespace librednn {

enum class Backend { host, cuda };

const char *backend_name(Backend backend);

// True when this build has the CUDA backend compiled in.
bool cuda_compiled_in();

// Number of CUDA devices usable now (0 without a driver, a device or the CUDA backend). Never fails.
int cuda_device_count();

// The backend a new handle gets: LIBREDNN_BACKEND=host|cuda when set, else CUDA when a device is
// present, else host. Fails when LIBREDNN_BACKEND asks for something this machine cannot do.
Status choose_backend(Backend *backend);

}  // namespace librednn
