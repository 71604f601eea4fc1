// cudnnGetFoldedConvBackwardDataDescriptors: the descriptors of a strided backward-data convolution
// rewritten as a unit-stride one over folded tensors (ops/conv/fold.hpp says how). The caller runs
//   cudnnTransformFilter(filterFoldTransDesc, filterDesc -> foldedFilterDesc),
//   cudnnTransformTensorEx(diffPadTransDesc, diffDesc -> paddedDiffDesc)     (where it pads),
//   cudnnConvolutionBackwardData(foldedFilterDesc, paddedDiffDesc, foldedConvDesc -> foldedGradDesc),
//   cudnnTransformTensorEx(gradUnfoldTransDesc, foldedGradDesc -> gradDesc)  (alpha and beta here),
// and gets the strided problem's dx. gradFoldTransDesc folds gradDesc into foldedGradDesc (to carry a
// beta through the folded problem instead). The folded tensors are packed in transformFormat; where
// dy needs no padding, paddedDiffDesc is diffDesc itself (same dims and strides), so that dy's memory
// serves unchanged. (Callers tell by the dims: a dy with gaps can span as many bytes as its padding.)
#include "api/convolution_problem.hpp"
#include "api/entry.hpp"
#include "descriptors/tensor_transform.hpp"
#include "ops/conv/fold.hpp"

#include <string>

using librednn::Status;
using librednn::api::Call;

namespace {

// The int dims of a folding's int64 dims (fold_backward_data keeps them within an int).
void to_int(const int64_t *dims, int nb_dims, int *out) {
    for (int i = 0; i < nb_dims; ++i) out[i] = static_cast<int>(dims[i]);
}

// A transform descriptor of `nb_dims` dims padding the spatial dims by the given amounts (NULL: none),
// folding (or unfolding) by `fold`.
Status set_spatial_transform(cudnnTensorTransformStruct *transform, int nb_dims, cudnnTensorFormat_t format,
                             const int64_t *pad_before, const int64_t *pad_after, const int64_t *fold, bool negate,
                             cudnnFoldingDirection_t direction) {
    int32_t before[CUDNN_DIM_MAX] = {}, after[CUDNN_DIM_MAX] = {};
    uint32_t factors[CUDNN_DIM_MAX] = {};
    for (int i = 2; i < nb_dims; ++i) {
        before[i] = static_cast<int32_t>(pad_before ? (negate ? -pad_before[i - 2] : pad_before[i - 2]) : 0);
        after[i] = static_cast<int32_t>(pad_after ? (negate ? -pad_after[i - 2] : pad_after[i - 2]) : 0);
        factors[i - 2] = static_cast<uint32_t>(fold ? fold[i - 2] : 1);
    }
    return librednn::set_tensor_transform(transform, static_cast<uint32_t>(nb_dims), format, before, after, factors,
                                          direction);
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnGetFoldedConvBackwardDataDescriptors(
    const cudnnHandle_t handle, const cudnnFilterDescriptor_t filterDesc, const cudnnTensorDescriptor_t diffDesc,
    const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t gradDesc,
    const cudnnTensorFormat_t transformFormat, cudnnFilterDescriptor_t foldedFilterDesc,
    cudnnTensorDescriptor_t paddedDiffDesc, cudnnConvolutionDescriptor_t foldedConvDesc,
    cudnnTensorDescriptor_t foldedGradDesc, cudnnTensorTransformDescriptor_t filterFoldTransDesc,
    cudnnTensorTransformDescriptor_t diffPadTransDesc, cudnnTensorTransformDescriptor_t gradFoldTransDesc,
    cudnnTensorTransformDescriptor_t gradUnfoldTransDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("filterDesc", filterDesc).arg("diffDesc", diffDesc).arg("convDesc", convDesc);
        call.arg("gradDesc", gradDesc).arg("transformFormat", transformFormat);
        call.arg("foldedFilterDesc", static_cast<const void *>(foldedFilterDesc));
        call.arg("paddedDiffDesc", static_cast<const void *>(paddedDiffDesc));
        call.arg("foldedConvDesc", static_cast<const void *>(foldedConvDesc));
        call.arg("foldedGradDesc", static_cast<const void *>(foldedGradDesc));
        call.arg("filterFoldTransDesc", static_cast<const void *>(filterFoldTransDesc));
        call.arg("diffPadTransDesc", static_cast<const void *>(diffPadTransDesc));
        call.arg("gradFoldTransDesc", static_cast<const void *>(gradFoldTransDesc));
        call.arg("gradUnfoldTransDesc", static_cast<const void *>(gradUnfoldTransDesc));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(foldedFilterDesc);
        LIBREDNN_REQUIRE_NOT_NULL(paddedDiffDesc);
        LIBREDNN_REQUIRE_NOT_NULL(foldedConvDesc);
        LIBREDNN_REQUIRE_NOT_NULL(foldedGradDesc);
        LIBREDNN_REQUIRE_NOT_NULL(filterFoldTransDesc);
        LIBREDNN_REQUIRE_NOT_NULL(diffPadTransDesc);
        LIBREDNN_REQUIRE_NOT_NULL(gradFoldTransDesc);
        LIBREDNN_REQUIRE_NOT_NULL(gradUnfoldTransDesc);
        LIBREDNN_CHECK(librednn::require_tensor_set(gradDesc, "gradDesc"));
        LIBREDNN_CHECK(librednn::require_tensor_set(diffDesc, "diffDesc"));
        if (gradDesc->nb_dims > 4 || diffDesc->nb_dims > 4) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "gradDesc has %d dims and diffDesc %d: folding takes 4-d tensors (2-d convolutions)",
                                  gradDesc->nb_dims, diffDesc->nb_dims);
        }
        LIBREDNN_CHECK(librednn::check_tensor_format(transformFormat, "transformFormat"));
        if (transformFormat == CUDNN_TENSOR_NCHW_VECT_C) {
            return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED,
                                  "transformFormat is CUDNN_TENSOR_NCHW_VECT_C: the folded tensors are packed "
                                  "CUDNN_TENSOR_NCHW or CUDNN_TENSOR_NHWC");
        }
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(librednn::api::convolution_problem_of(librednn::ConvDirection::backward_data, gradDesc,
                                                             filterDesc, convDesc, diffDesc, &problem));
        librednn::ConvFolding folding;
        std::string reason;
        if (!librednn::fold_backward_data(problem, &folding, &reason)) {
            return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED, "cudnnGetFoldedConvBackwardDataDescriptors %s",
                                  reason.c_str());
        }

        // Everything is built aside, then written: a failure leaves the outputs as they were.
        const int nb_dims = gradDesc->nb_dims;
        int dims[CUDNN_DIM_MAX] = {};
        cudnnFilterStruct folded_filter;
        to_int(folding.folded_filter, nb_dims, dims);
        LIBREDNN_CHECK(librednn::set_filter(&folded_filter, filterDesc->data_type, transformFormat, nb_dims, dims));
        cudnnTensorStruct padded_diff = *diffDesc;
        if (folding.pads_diff()) {
            to_int(folding.padded_diff, nb_dims, dims);
            LIBREDNN_CHECK(
                librednn::set_tensor_packed(&padded_diff, transformFormat, diffDesc->data_type, nb_dims, dims));
        }
        cudnnTensorStruct folded_grad;
        to_int(folding.folded_grad, nb_dims, dims);
        LIBREDNN_CHECK(librednn::set_tensor_packed(&folded_grad, transformFormat, gradDesc->data_type, nb_dims, dims));
        cudnnConvolutionStruct folded_conv = *convDesc;
        if (!folding.identity) {
            const int zeros[2] = {0, 0}, ones[2] = {1, 1};
            LIBREDNN_CHECK(librednn::set_convolution(&folded_conv, librednn::ConvolutionSetter::n_d, 2, zeros, ones,
                                                     ones, CUDNN_CROSS_CORRELATION, convDesc->compute_type));
            folded_conv.group_count = 1;
        }
        // Unfolding lands in gradDesc's own layout; the rest in transformFormat.
        const cudnnTensorFormat_t grad_format =
            gradDesc->format == CUDNN_TENSOR_NHWC ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
        cudnnTensorTransformStruct filter_fold, diff_pad, grad_fold, grad_unfold;
        LIBREDNN_CHECK(set_spatial_transform(&filter_fold, nb_dims, transformFormat, nullptr, folding.filter_pad_after,
                                             folding.fold, false, CUDNN_TRANSFORM_FOLD));
        LIBREDNN_CHECK(set_spatial_transform(&diff_pad, nb_dims, transformFormat, nullptr, folding.diff_pad_after,
                                             nullptr, false, CUDNN_TRANSFORM_FOLD));
        LIBREDNN_CHECK(set_spatial_transform(&grad_fold, nb_dims, transformFormat, folding.grad_pad_before,
                                             folding.grad_pad_after, folding.fold, false, CUDNN_TRANSFORM_FOLD));
        LIBREDNN_CHECK(set_spatial_transform(&grad_unfold, nb_dims, grad_format, folding.grad_pad_before,
                                             folding.grad_pad_after, folding.fold, true, CUDNN_TRANSFORM_UNFOLD));

        *foldedFilterDesc = folded_filter;
        *paddedDiffDesc = padded_diff;
        *foldedConvDesc = folded_conv;
        *foldedGradDesc = folded_grad;
        *filterFoldTransDesc = filter_fold;
        *diffPadTransDesc = diff_pad;
        *gradFoldTransDesc = grad_fold;
        *gradUnfoldTransDesc = grad_unfold;
        return CUDNN_STATUS_SUCCESS;
    });
}
