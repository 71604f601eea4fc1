// Tensor transform descriptor rules, the destination geometry of a transform, and describe().
#include "descriptors/tensor_transform.hpp"

#include "core/checked_math.hpp"
#include "core/data_type.hpp"
#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"

#include <climits>
#include <string>

namespace librednn {

namespace {

const char *const kDestinationNames[CUDNN_DIM_MAX] = {
    "the destination's dim 0 (N)", "the destination's dim 1 (C)", "the destination's dim 2", "the destination's dim 3",
    "the destination's dim 4",     "the destination's dim 5",     "the destination's dim 6", "the destination's dim 7"};

template <class T>
std::string join(const T *values, int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += (i ? "x" : "") + std::to_string(values[i]);
    return text;
}

const char *name_of(cudnnDataType_t type) {
    const char *name = enum_name(type);
    return name ? name : "?";
}

// The element type of a vectorised type, for a destination that is not NCHW_VECT_C.
cudnnDataType_t scalar_type(cudnnDataType_t type) {
    switch (type) {
        case CUDNN_DATA_INT8x4:
        case CUDNN_DATA_INT8x32: return CUDNN_DATA_INT8;
        case CUDNN_DATA_UINT8x4: return CUDNN_DATA_UINT8;
        default: return type;
    }
}

}  // namespace

Status set_tensor_transform(cudnnTensorTransformStruct *transform, uint32_t nb_dims, cudnnTensorFormat_t dest_format,
                            const int32_t *pad_before, const int32_t *pad_after, const uint32_t *fold,
                            cudnnFoldingDirection_t direction) {
    if (nb_dims > CUDNN_DIM_MAX) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "nbDims is %u, must be between 3 and %d (CUDNN_DIM_MAX)", nb_dims,
                    CUDNN_DIM_MAX);
    }
    if (nb_dims < 3) {
        return fail(CUDNN_STATUS_BAD_PARAM, "nbDims is %u, must be between 3 and %d (CUDNN_DIM_MAX)", nb_dims,
                    CUDNN_DIM_MAX);
    }
    LIBREDNN_CHECK(check_tensor_format(dest_format, "destFormat"));
    if (enum_name(direction) == nullptr) {
        return fail(CUDNN_STATUS_BAD_PARAM, "direction is %d, must be CUDNN_TRANSFORM_FOLD or CUDNN_TRANSFORM_UNFOLD",
                    static_cast<int>(direction));
    }
    const int spatial = static_cast<int>(nb_dims) - 2;
    if (fold != nullptr) {
        for (int i = 0; i < spatial; ++i) {
            if (fold[i] == 0) return fail(CUDNN_STATUS_BAD_PARAM, "foldA[%d] is 0, must be at least 1", i);
        }
    }

    cudnnTensorTransformStruct result;
    result.is_set = true;
    result.nb_dims = nb_dims;
    result.dest_format = dest_format;
    result.direction = direction;
    for (int i = 0; i < static_cast<int>(nb_dims); ++i) {
        result.pad_before[i] = pad_before ? pad_before[i] : 0;
        result.pad_after[i] = pad_after ? pad_after[i] : 0;
    }
    for (int i = 0; i < spatial; ++i) result.fold[i] = fold ? fold[i] : 1;
    *transform = result;
    return CUDNN_STATUS_SUCCESS;
}

bool transform_folds(const cudnnTensorTransformStruct &transform) {
    for (int i = 0; i + 2 < static_cast<int>(transform.nb_dims); ++i) {
        if (transform.fold[i] > 1) return true;
    }
    return false;
}

Status transform_destination(const cudnnTensorTransformStruct &transform, const cudnnTensorStruct &src,
                             cudnnTensorStruct *dest) {
    const int nb_dims = static_cast<int>(transform.nb_dims);
    if (nb_dims != src.nb_dims) {
        return fail(CUDNN_STATUS_BAD_PARAM, "transformDesc is set for %d dims, srcDesc has %d (%s)", nb_dims,
                    src.nb_dims, join(src.dims, src.nb_dims).c_str());
    }
    if (nb_dims != 4) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "srcDesc has %d dims (%s), cuDNN transforms 4d tensors only", nb_dims,
                    join(src.dims, src.nb_dims).c_str());
    }

    // Vectorised data leaves NCHW_VECT_C as its element type; plain int8 data cannot enter it, since the
    // transform does not say which vector width (4 or 32) the destination should have.
    cudnnDataType_t type = src.data_type;
    const bool to_vectors = transform.dest_format == CUDNN_TENSOR_NCHW_VECT_C;
    if (!to_vectors) {
        type = scalar_type(type);
    } else if (vector_count(type) == 1) {
        if (type == CUDNN_DATA_INT8 || type == CUDNN_DATA_UINT8) {
            return fail(CUDNN_STATUS_NOT_SUPPORTED,
                        "transformDesc converts %s data to CUDNN_TENSOR_NCHW_VECT_C, which needs a vector width "
                        "(x4 or x32) the transform does not give; set destDesc with the vectorised type instead",
                        name_of(type));
        }
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "transformDesc's destFormat CUDNN_TENSOR_NCHW_VECT_C needs vectorised int8 data, srcDesc holds %s",
                    name_of(type));
    }

    int64_t fold_product = 1;
    for (int i = 2; i < nb_dims; ++i) fold_product = saturating_mul(fold_product, transform.fold[i - 2]);

    // Padding always refers to the unfolded geometry: pad then fold, or unfold then pad.
    int64_t dims[CUDNN_DIM_MAX] = {};
    auto pad = [&](const int64_t *from, const char *stage) -> Status {
        for (int i = 0; i < nb_dims; ++i) {
            dims[i] = saturating_add(from[i], int64_t{transform.pad_before[i]} + transform.pad_after[i]);
            if (dims[i] <= 0) {
                return fail(CUDNN_STATUS_BAD_PARAM,
                            "padding %d before and %d after turns dim %d of %s (%lld) into %lld, must stay positive",
                            transform.pad_before[i], transform.pad_after[i], i, stage, static_cast<long long>(from[i]),
                            static_cast<long long>(dims[i]));
            }
        }
        return CUDNN_STATUS_SUCCESS;
    };
    int64_t source[CUDNN_DIM_MAX] = {};
    for (int i = 0; i < nb_dims; ++i) source[i] = src.dims[i];
    if (transform.direction == CUDNN_TRANSFORM_FOLD || fold_product == 1) {
        LIBREDNN_CHECK(pad(source, "srcDesc"));
        dims[1] = saturating_mul(dims[1], fold_product);
        for (int i = 2; i < nb_dims; ++i) dims[i] = (dims[i] + transform.fold[i - 2] - 1) / transform.fold[i - 2];
    } else {
        if (source[1] % fold_product != 0) {
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "srcDesc has %lld channels, not a multiple of %lld (the product of the fold factors) to unfold",
                        static_cast<long long>(source[1]), static_cast<long long>(fold_product));
        }
        int64_t unfolded[CUDNN_DIM_MAX] = {};
        unfolded[0] = source[0];
        unfolded[1] = source[1] / fold_product;
        for (int i = 2; i < nb_dims; ++i) unfolded[i] = saturating_mul(source[i], transform.fold[i - 2]);
        LIBREDNN_CHECK(pad(unfolded, "the unfolded source"));
    }

    int dest_dims[CUDNN_DIM_MAX];
    for (int i = 0; i < nb_dims; ++i) {
        if (dims[i] > INT_MAX) {
            return fail(CUDNN_STATUS_NOT_SUPPORTED, "the destination's dim %d would be %lld, more than an int holds", i,
                        static_cast<long long>(dims[i]));
        }
        dest_dims[i] = static_cast<int>(dims[i]);
    }
    return set_tensor_packed(dest, transform.dest_format, type, nb_dims, dest_dims, {kDestinationNames, nullptr});
}

std::string tensor_transform_to_string(const cudnnTensorTransformStruct &transform) {
    if (!transform.is_set) return "unset";
    const int nb_dims = static_cast<int>(transform.nb_dims);
    std::string text = std::string(tensor_format_short_name(transform.dest_format)) + " padBefore " +
                       join(transform.pad_before, nb_dims) + " padAfter " + join(transform.pad_after, nb_dims);
    if (transform_folds(transform)) {
        text +=
            (transform.direction == CUDNN_TRANSFORM_FOLD ? " fold " : " unfold ") + join(transform.fold, nb_dims - 2);
    }
    return text;
}

namespace api {

std::string describe(const cudnnTensorTransformStruct *desc) {
    if (desc == nullptr) return "NULL";
    if (!desc->is_set) return "TensorTransformDescriptor{unset}";
    return "TensorTransformDescriptor{" + tensor_transform_to_string(*desc) + "}";
}

}  // namespace api

}  // namespace librednn
