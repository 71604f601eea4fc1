// Shared tensor rules: dims, data types and in-place layouts.
#include "ops/common/tensor_rules.hpp"

#include "ops/common/type_rules.hpp"

namespace librednn {

Status require_same_dims(std::initializer_list<NamedTensor> tensors) {
    const NamedTensor &first = *tensors.begin();
    for (const NamedTensor &tensor : tensors) {
        if (!same_dims(*tensor.geometry, *first.geometry)) {
            return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s and %s is %s: they must have the same dims", first.name,
                        join_dims(first.geometry->dims, first.geometry->nb_dims).c_str(), tensor.name,
                        join_dims(tensor.geometry->dims, tensor.geometry->nb_dims).c_str());
        }
    }
    return CUDNN_STATUS_SUCCESS;
}

Status require_same_type(std::initializer_list<NamedTensor> tensors) {
    const NamedTensor &first = *tensors.begin();
    for (const NamedTensor &tensor : tensors) {
        if (tensor.geometry->dtype != first.geometry->dtype) {
            return fail(CUDNN_STATUS_BAD_PARAM, "%s holds %s and %s holds %s: they must have the same data type",
                        first.name, type_name(first.geometry->dtype), tensor.name, type_name(tensor.geometry->dtype));
        }
    }
    return CUDNN_STATUS_SUCCESS;
}

Status require_in_place_layout(const NamedTensor &input, const void *input_data, const NamedTensor &output,
                               const void *output_data) {
    if (input_data != output_data || same_layout(*input.geometry, *output.geometry)) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_BAD_PARAM,
                "the input of %s and the output of %s are the same memory (in place) but their strides differ (%s "
                "and %s): in-place use needs identical descriptors",
                input.name, output.name, join_dims(input.geometry->strides, input.geometry->nb_dims).c_str(),
                join_dims(output.geometry->strides, output.geometry->nb_dims).c_str());
}

}  // namespace librednn
