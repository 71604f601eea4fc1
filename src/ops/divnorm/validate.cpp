// The divisive normalisation rules.
#include "ops/divnorm/validate.hpp"

#include "ops/common/buffer_alignment.hpp"
#include "ops/common/tensor_rules.hpp"
#include "ops/common/type_rules.hpp"

namespace librednn {

Status validate_divnorm(const DivNormProblem &p) {
    if (p.x.nb_dims != 4 && p.x.nb_dims != 5) {
        return fail(CUDNN_STATUS_BAD_PARAM, "xDesc has %d dims; divisive normalisation takes 4-d and 5-d tensors",
                    p.x.nb_dims);
    }
    if (p.direction == Direction::forward) {
        LIBREDNN_CHECK(require_same_dims({{"xDesc", &p.x}, {"yDesc", &p.y}}));
        LIBREDNN_CHECK(require_same_type({{"xDesc", &p.x}, {"yDesc", &p.y}}));
    } else {
        LIBREDNN_CHECK(require_same_dims({{"xDesc", &p.x}, {"dXdMeansDesc", &p.dx}}));
        LIBREDNN_CHECK(require_same_type({{"xDesc", &p.x}, {"dXdMeansDesc", &p.dx}}));
    }
    const cudnnDataType_t type = p.x.dtype;
    if (type != CUDNN_DATA_FLOAT && type != CUDNN_DATA_DOUBLE && type != CUDNN_DATA_HALF) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "xDesc holds %s: divisive normalisation takes float, double and half (as NVIDIA's does)",
                    type_name(type));
    }
    return CUDNN_STATUS_SUCCESS;
}

Status buffer_alignment(const DivNormProblem &p, const DivNormBuffers &b) {
    const bool forward = p.direction == Direction::forward;
    const cudnnDataType_t type = p.x.dtype;
    return require_aligned({{"x", b.x, type},
                            {"means", b.means, type},
                            {"dy", b.dy, type},
                            {"temp", b.temp, type},
                            {"temp2", b.temp2, type},
                            {forward ? "y" : "dx", b.result, (forward ? p.y : p.dx).dtype},
                            {"dMeans", b.d_means, (forward ? p.y : p.dx).dtype}});
}

}  // namespace librednn
