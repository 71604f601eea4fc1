// The algorithm descriptor (cudnnAlgorithmDescriptor_t), the algorithm performance object
// (cudnnAlgorithmPerformance_t), and the byte format cudnnSaveAlgorithm writes.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <string>

struct cudnnAlgorithmStruct {
    bool is_set = false;  // false until cudnnSetAlgorithmDescriptor or cudnnRestoreAlgorithm succeeds
    // Which family's enum the union holds (convolution forward, RNN, ...) is known only to the
    // caller; every member is an int-sized enum, so the descriptor keeps the value as given.
    cudnnAlgorithm_t algorithm{};
};

struct cudnnAlgorithmPerformanceStruct {
    bool is_set = false;                             // false until cudnnSetAlgorithmPerformance succeeds
    cudnnAlgorithmDescriptor_t algo_desc = nullptr;  // the user's descriptor, not owned
    cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
    float time = 0.0f;  // milliseconds
    size_t memory = 0;  // bytes of workspace
    // The algorithm a Find call of the legacy RNN API reports (algo_desc points here): owned by this object,
    // so that the descriptor the caller reads back lives as long as the performance object.
    cudnnAlgorithmStruct found;
};

namespace librednn {

// The algorithm's value as an int, whichever union member it was set through.
int algorithm_value(const cudnnAlgorithm_t &algorithm);
cudnnAlgorithm_t algorithm_from_value(int value);

// CUDNN_STATUS_BAD_PARAM naming `name` when the object has not been set.
Status require_algorithm_set(const cudnnAlgorithmStruct &desc, const char *name);
Status require_algorithm_performance_set(const cudnnAlgorithmPerformanceStruct &perf, const char *name);

// ---- The saved form ------------------------------------------------------------------------------
//
// cudnnSaveAlgorithm writes kAlgorithmSpaceSize bytes, every field little-endian:
//   offset  size  field
//        0     4  magic: the bytes 'L' 'D' 'N' 'A'
//        4     2  format version (kAlgorithmFormatVersion, 1)
//        6     2  zero
//        8     4  cuDNN API version that wrote it (CUDNN_VERSION, 8907)
//       12     4  the algorithm value (int32)
//       16     4  FNV-1a hash of bytes 0..15
// cudnnRestoreAlgorithm rejects a buffer that is short, has another magic or a wrong hash
// (CUDNN_STATUS_BAD_PARAM), and one written in another format version or by another cuDNN API
// version (CUDNN_STATUS_NOT_SUPPORTED, as cuDNN documents for metadata of another version).
constexpr size_t kAlgorithmSpaceSize = 20;
constexpr uint16_t kAlgorithmFormatVersion = 1;

void save_algorithm(const cudnnAlgorithmStruct &desc, unsigned char *space);
Status restore_algorithm(const unsigned char *space, size_t size, cudnnAlgorithmStruct *desc);

// "algo 1" ("unset" before a Set), for log lines.
std::string algorithm_to_string(const cudnnAlgorithmStruct &desc);

// "algoDesc 0x55d0..., CUDNN_STATUS_SUCCESS, 0.5 ms, 1024 bytes" ("unset" before a Set), for log lines.
std::string algorithm_performance_to_string(const cudnnAlgorithmPerformanceStruct &perf);

}  // namespace librednn
