// The divisive normalisation rules.
#include "ops/divnorm/validate.hpp"

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

}  // namespace librednn
