// Output comparison and the reference hook: one case per family with a reference.
#include "check.hpp"

#include "reference_ops.hpp"

#include <cmath>
#include <limits>

namespace librednn::bench {

ErrorStats compare(const std::vector<double> &out, const std::vector<double> &ref) {
    ErrorStats stats;
    double difference_squares = 0, reference_squares = 0;
    const size_t count = out.size() < ref.size() ? out.size() : ref.size();
    for (size_t i = 0; i < count; ++i) {
        const bool out_nan = std::isnan(out[i]), ref_nan = std::isnan(ref[i]);
        if (out_nan || ref_nan) {
            if (out_nan != ref_nan)
                ++stats.nan_mismatches;
            else
                ++stats.nan_both;
            continue;
        }
        const double difference = out[i] - ref[i];
        difference_squares += difference * difference;
        reference_squares += ref[i] * ref[i];
        stats.max_abs = std::fmax(stats.max_abs, std::fabs(difference));
    }
    if (out.size() != ref.size())
        stats.nan_mismatches += out.size() > ref.size() ? out.size() - ref.size() : ref.size() - out.size();
    if (stats.nan_mismatches > 0) {
        stats.relative = std::numeric_limits<double>::infinity();
        stats.max_abs = std::numeric_limits<double>::infinity();
        return stats;
    }
    stats.relative =
        reference_squares > 0 ? std::sqrt(difference_squares / reference_squares) : std::sqrt(difference_squares);
    return stats;
}

Reference reference_for(const Problem &problem) { return tensor_op_reference(problem); }

}  // namespace librednn::bench
