// cudnnSetTensor / cudnnScaleTensor rules: the data type.
#include "ops/tensor/set_tensor_validate.hpp"

#include "ops/common/buffer_alignment.hpp"
#include "ops/common/type_rules.hpp"

namespace librednn {

bool set_tensor_supports(cudnnDataType_t type) {
    switch (type) {
        case CUDNN_DATA_FLOAT:
        case CUDNN_DATA_DOUBLE:
        case CUDNN_DATA_HALF:
        case CUDNN_DATA_BFLOAT16:
        case CUDNN_DATA_INT8:
        case CUDNN_DATA_UINT8:
        case CUDNN_DATA_INT32:
        case CUDNN_DATA_INT8x4:
        case CUDNN_DATA_UINT8x4:
        case CUDNN_DATA_INT8x32: return true;
        default: return false;
    }
}

Status validate_set_tensor(const SetTensorProblem &problem) {
    if (!set_tensor_supports(problem.y.dtype)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "yDesc holds %s: %s takes float, double, half, bfloat16, int8, uint8 "
                    "and int32 data",
                    type_name(problem.y.dtype),
                    problem.kind == SetTensorProblem::Kind::set ? "cudnnSetTensor" : "cudnnScaleTensor");
    }
    return CUDNN_STATUS_SUCCESS;
}

Status buffer_alignment(const SetTensorProblem &p, const SetTensorBuffers &b) {
    return require_aligned({{"y", b.y, p.y.dtype}});
}

}  // namespace librednn
