// The reduce-tensor descriptor's rules and its one-line description.
#include "descriptors/reduce_tensor.hpp"

#include "core/data_type.hpp"
#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"
#include "descriptors/enum_check.hpp"
#include "descriptors/tensor.hpp"

namespace librednn {

Status set_reduce_tensor(cudnnReduceTensorStruct *desc, cudnnReduceTensorOp_t op, cudnnDataType_t comp_type,
                         cudnnNanPropagation_t nan_opt, cudnnReduceTensorIndices_t indices,
                         cudnnIndicesType_t indices_type) {
    LIBREDNN_CHECK(check_enum(op, "reduceTensorOp", "cudnnReduceTensorOp_t"));
    LIBREDNN_CHECK(check_data_type(comp_type, "reduceTensorCompType"));
    LIBREDNN_CHECK(check_enum(nan_opt, "reduceTensorNanOpt", "cudnnNanPropagation_t"));
    LIBREDNN_CHECK(check_enum(indices, "reduceTensorIndices", "cudnnReduceTensorIndices_t"));
    LIBREDNN_CHECK(check_enum(indices_type, "reduceTensorIndicesType", "cudnnIndicesType_t"));
    desc->op = op;
    desc->comp_type = comp_type;
    desc->nan_opt = nan_opt;
    desc->indices = indices;
    desc->indices_type = indices_type;
    desc->is_set = true;
    return CUDNN_STATUS_SUCCESS;
}

Status require_reduce_tensor_set(const cudnnReduceTensorStruct &desc, const char *name) {
    if (desc.is_set) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_BAD_PARAM, "%s has not been set (call cudnnSetReduceTensorDescriptor first)", name);
}

bool reduce_tensor_computes_indices(const cudnnReduceTensorStruct &desc) {
    return desc.indices == CUDNN_REDUCE_TENSOR_FLATTENED_INDICES &&
           (desc.op == CUDNN_REDUCE_TENSOR_MIN || desc.op == CUDNN_REDUCE_TENSOR_MAX);
}

size_t reduce_indices_type_size(cudnnIndicesType_t type) {
    switch (type) {
        case CUDNN_32BIT_INDICES: return 4;
        case CUDNN_64BIT_INDICES: return 8;
        case CUDNN_16BIT_INDICES: return 2;
        case CUDNN_8BIT_INDICES: return 1;
    }
    return 0;
}

std::string reduce_tensor_to_string(const cudnnReduceTensorStruct &desc) {
    if (!desc.is_set) return "unset";
    return std::string(enum_name(desc.op)) + ", compute " + data_type_short_name(desc.comp_type) + ", " +
           enum_name(desc.nan_opt) + ", " + enum_name(desc.indices) + ", " + enum_name(desc.indices_type);
}

namespace api {

std::string describe(const cudnnReduceTensorStruct *desc) {
    if (desc == nullptr) return "NULL";
    return "ReduceTensorDescriptor{" + reduce_tensor_to_string(*desc) + "}";
}

}  // namespace api
}  // namespace librednn
