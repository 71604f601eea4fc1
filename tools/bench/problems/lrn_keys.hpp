// The LRN descriptor's four keys (lrn_n lrn_alpha lrn_beta lrn_k), which op=lrn and op=divnorm share:
// read, written back, and set on a descriptor of the library under test.
#pragma once

#include "problems/descriptors.hpp"
#include "problems/keys.hpp"

namespace librednn::bench {

struct LrnKeys {
    int64_t n = 5;
    double alpha = 1e-4, beta = 0.75, k = 2.0;

    void read(KeyReader &keys) {
        n = keys.integer("lrn_n", 5, 1);
        if (!keys.failed() && n > 16) keys.fail("lrn_n must be 1 to 16, got " + std::to_string(n));  // cuDNN's MAX_N
        alpha = keys.number("lrn_alpha", 1e-4);
        beta = keys.number("lrn_beta", 0.75);
        k = keys.number("lrn_k", 2.0);
    }
    void write(ProblemString *text) const {
        text->set("lrn_n", static_cast<long long>(n));
        text->set("lrn_alpha", alpha);
        text->set("lrn_beta", beta);
        text->set("lrn_k", k);
    }
    Outcome set(const Library &library, LrnDescriptor *descriptor) const {
        BENCH_TRY(create(library, descriptor));
        return BENCH_CALL(library, cudnnSetLRNDescriptor, descriptor->get(), static_cast<unsigned>(n), alpha, beta, k);
    }
};

}  // namespace librednn::bench
