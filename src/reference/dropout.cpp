// The reference dropout: one Philox draw per element (its group of four drawn afresh each time), the
// scaling in double.
#include "reference/dropout.hpp"

#include "descriptors/dropout.hpp"

namespace librednn::reference {

namespace {

// Every index of `view` in row-major order of its dims.
std::vector<Index> indices_of(const TensorView &view) {
    std::vector<Index> indices;
    for_each_index(view.dims, [&](const Index &i) { indices.push_back(i); });
    return indices;
}

Status check_pair(const TensorView &in, const char *in_name, const TensorView &out, const char *out_name) {
    LIBREDNN_CHECK(check_view(in, in_name));
    LIBREDNN_CHECK(check_view(out, out_name));
    if (in.element_count() != out.element_count()) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s has %lld elements and %s %lld", in_name,
                    static_cast<long long>(in.element_count()), out_name, static_cast<long long>(out.element_count()));
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

Status dropout_forward(float probability, const uint32_t key[2], uint64_t call, const TensorView &x,
                       const TensorView &y, std::vector<uint8_t> *mask) {
    LIBREDNN_CHECK(check_pair(x, "x", y, "y"));
    const std::vector<Index> from = indices_of(x), to = indices_of(y);
    const uint64_t threshold = dropout_threshold(probability);
    mask->assign(from.size(), 0);
    for (size_t e = 0; e < from.size(); ++e) {
        const Philox4x32 words = dropout_words(key, call, e / 4);
        const bool kept = words.word[e % 4] >= threshold;
        (*mask)[e] = kept ? 1 : 0;
        y.write(to[e], kept ? x.read(from[e]) / (1.0 - static_cast<double>(probability)) : 0.0);
    }
    return CUDNN_STATUS_SUCCESS;
}

Status dropout_backward(float probability, const std::vector<uint8_t> &mask, const TensorView &dy,
                        const TensorView &dx) {
    LIBREDNN_CHECK(check_pair(dy, "dy", dx, "dx"));
    if (static_cast<int64_t>(mask.size()) != dy.element_count()) {
        return fail(CUDNN_STATUS_BAD_PARAM, "the mask has %zu entries for %lld elements", mask.size(),
                    static_cast<long long>(dy.element_count()));
    }
    const std::vector<Index> from = indices_of(dy), to = indices_of(dx);
    for (size_t e = 0; e < from.size(); ++e) {
        dx.write(to[e], mask[e] ? dy.read(from[e]) / (1.0 - static_cast<double>(probability)) : 0.0);
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::reference
