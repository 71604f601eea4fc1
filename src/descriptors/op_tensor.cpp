// The op-tensor descriptor's rules and its one-line description.
#include "descriptors/op_tensor.hpp"

#include "core/data_type.hpp"
#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"
#include "descriptors/enum_check.hpp"
#include "descriptors/tensor.hpp"

namespace librednn {

Status set_op_tensor(cudnnOpTensorStruct *desc, cudnnOpTensorOp_t op, cudnnDataType_t comp_type,
                     cudnnNanPropagation_t nan_opt) {
    LIBREDNN_CHECK(check_enum(op, "opTensorOp", "cudnnOpTensorOp_t"));
    LIBREDNN_CHECK(check_data_type(comp_type, "opTensorCompType"));
    LIBREDNN_CHECK(check_enum(nan_opt, "opTensorNanOpt", "cudnnNanPropagation_t"));
    desc->op = op;
    desc->comp_type = comp_type;
    desc->nan_opt = nan_opt;
    desc->is_set = true;
    return CUDNN_STATUS_SUCCESS;
}

Status require_op_tensor_set(const cudnnOpTensorStruct &desc, const char *name) {
    if (desc.is_set) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_BAD_PARAM, "%s has not been set (call cudnnSetOpTensorDescriptor first)", name);
}

bool op_tensor_is_unary(cudnnOpTensorOp_t op) { return op == CUDNN_OP_TENSOR_SQRT || op == CUDNN_OP_TENSOR_NOT; }

std::string op_tensor_to_string(const cudnnOpTensorStruct &desc) {
    if (!desc.is_set) return "unset";
    return std::string(enum_name(desc.op)) + ", compute " + data_type_short_name(desc.comp_type) + ", " +
           enum_name(desc.nan_opt);
}

namespace api {

std::string describe(const cudnnOpTensorStruct *desc) {
    if (desc == nullptr) return "NULL";
    return "OpTensorDescriptor{" + op_tensor_to_string(*desc) + "}";
}

}  // namespace api
}  // namespace librednn
