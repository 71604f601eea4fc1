// The LRN descriptor (cudnnLRNDescriptor_t): window size and the alpha, beta, k of local response
// normalization (also used by divisive normalization).
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <string>

// A new descriptor holds the values cuDNN documents for cudnnCreateLRNDescriptor (those of
// Krizhevsky et al.), so it can be used and queried before any Set.
struct cudnnLRNStruct {
    unsigned n = 5;       // window width, in channels
    double alpha = 1e-4;  // variance scale (the library divides it by the window size)
    double beta = 0.75;   // power
    double k = 2.0;       // bias
};

namespace librednn {

// Sets `desc` after cuDNN's range checks: lrnN in [CUDNN_LRN_MIN_N, CUDNN_LRN_MAX_N],
// lrnK >= CUDNN_LRN_MIN_K, lrnBeta >= CUDNN_LRN_MIN_BETA (a NaN fails them); lrnAlpha has no range.
Status set_lrn(cudnnLRNStruct *desc, unsigned n, double alpha, double beta, double k);

// "n 5, alpha 0.0001, beta 0.75, k 2", for log lines and problem strings.
std::string lrn_to_string(const cudnnLRNStruct &desc);

}  // namespace librednn
