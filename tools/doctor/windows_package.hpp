// --inspect DIR: a Windows cuDNN package checked from any machine: the DLL set, PE machine types,
// imports (CUDA runtime, cuBLAS and NVRTC majors, zlibwapi.dll, the MSVC runtime), version resources,
// headers and import libraries.
#pragma once

#include "report.hpp"

#include <string>

namespace librednn::doctor {

// Adds one "windows" section per directory of cuDNN DLLs under `directory` (or one FAIL when none).
void inspect_windows_package(const std::string &directory, Report *report);

// The CUDA major a Windows DLL name implies: cudart64_110.dll -> 11, cublas64_12.dll -> 12,
// nvrtc64_112_0.dll -> 11; -1 when the name is not a CUDA library's.
int cuda_major_of_dll(const std::string &lowercase_name);

}  // namespace librednn::doctor
