// The LRN descriptor's rules and its one-line description.
#include "descriptors/lrn.hpp"

#include "descriptors/describe.hpp"

#include <cstdio>

namespace librednn {

Status set_lrn(cudnnLRNStruct *desc, unsigned n, double alpha, double beta, double k) {
    if (n < CUDNN_LRN_MIN_N || n > CUDNN_LRN_MAX_N) {
        return fail(CUDNN_STATUS_BAD_PARAM, "lrnN is %u, must be between %d (CUDNN_LRN_MIN_N) and %d (CUDNN_LRN_MAX_N)",
                    n, CUDNN_LRN_MIN_N, CUDNN_LRN_MAX_N);
    }
    // Written as !(x >= min) so that a NaN is rejected too.
    if (!(k >= CUDNN_LRN_MIN_K)) {
        return fail(CUDNN_STATUS_BAD_PARAM, "lrnK is %.9g, must be at least %g (CUDNN_LRN_MIN_K)", k, CUDNN_LRN_MIN_K);
    }
    if (!(beta >= CUDNN_LRN_MIN_BETA)) {
        return fail(CUDNN_STATUS_BAD_PARAM, "lrnBeta is %.9g, must be at least %g (CUDNN_LRN_MIN_BETA)", beta,
                    CUDNN_LRN_MIN_BETA);
    }
    desc->n = n;
    desc->alpha = alpha;
    desc->beta = beta;
    desc->k = k;
    return CUDNN_STATUS_SUCCESS;
}

std::string lrn_to_string(const cudnnLRNStruct &desc) {
    char buffer[128];
    std::snprintf(buffer, sizeof buffer, "n %u, alpha %.9g, beta %.9g, k %.9g", desc.n, desc.alpha, desc.beta, desc.k);
    return buffer;
}

namespace api {

std::string describe(const cudnnLRNStruct *desc) {
    if (desc == nullptr) return "NULL";
    return "LRNDescriptor{" + lrn_to_string(*desc) + "}";
}

}  // namespace api
}  // namespace librednn
