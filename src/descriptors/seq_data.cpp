// Rules of the sequence data descriptor's setter, its strides and its one-line description.
#include "descriptors/seq_data.hpp"

#include "core/data_type.hpp"
#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"

#include <cinttypes>

namespace librednn {

namespace {

// One letter per axis, as in the order string "TNBV".
char axis_letter(cudnnSeqDataAxis_t axis) {
    switch (axis) {
        case CUDNN_SEQDATA_TIME_DIM: return 'T';
        case CUDNN_SEQDATA_BATCH_DIM: return 'N';
        case CUDNN_SEQDATA_BEAM_DIM: return 'B';
        case CUDNN_SEQDATA_VECT_DIM: return 'V';
    }
    return '?';
}

}  // namespace

Status set_seq_data(cudnnSeqDataStruct *seq, cudnnDataType_t data_type, int nb_dims, const int *dims,
                    const cudnnSeqDataAxis_t *axes, size_t seq_lengths_size, const int *seq_lengths,
                    const void *padding_fill) {
    if (!is_valid_data_type(data_type))
        return fail(CUDNN_STATUS_BAD_PARAM, "dataType is %d, not a cudnnDataType_t", static_cast<int>(data_type));
    if (nb_dims <= 0)
        return fail(CUDNN_STATUS_BAD_PARAM, "nbDims is %d, must be CUDNN_SEQDATA_DIM_COUNT (%d)", nb_dims,
                    CUDNN_SEQDATA_DIM_COUNT);
    if (nb_dims != CUDNN_SEQDATA_DIM_COUNT)
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "nbDims is %d, only CUDNN_SEQDATA_DIM_COUNT (%d) is supported", nb_dims,
                    CUDNN_SEQDATA_DIM_COUNT);
    if (dims == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "dimA is NULL, must hold %d dims", nb_dims);
    if (axes == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "axes is NULL, must hold %d axes", nb_dims);
    for (int i = 0; i < nb_dims; ++i) {
        if (dims[i] <= 0)
            return fail(CUDNN_STATUS_BAD_PARAM, "dimA[%s] is %d, must be positive",
                        enum_name(static_cast<cudnnSeqDataAxis_t>(i)), dims[i]);
    }
    bool seen[CUDNN_SEQDATA_DIM_COUNT] = {};
    for (int i = 0; i < nb_dims; ++i) {
        const char *name = enum_name(axes[i]);
        if (name == nullptr)
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "axes[%d] is %d, not a cudnnSeqDataAxis_t (CUDNN_SEQDATA_TIME_DIM, CUDNN_SEQDATA_BATCH_DIM, "
                        "CUDNN_SEQDATA_BEAM_DIM or CUDNN_SEQDATA_VECT_DIM)",
                        i, static_cast<int>(axes[i]));
        if (seen[axes[i]])
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "axes[%d] repeats %s; axes must name each of the %d cudnnSeqDataAxis_t values once", i, name,
                        CUDNN_SEQDATA_DIM_COUNT);
        seen[axes[i]] = true;
    }
    const int64_t expected = static_cast<int64_t>(dims[CUDNN_SEQDATA_BATCH_DIM]) * dims[CUDNN_SEQDATA_BEAM_DIM];
    if (seq_lengths_size != static_cast<uint64_t>(expected))
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "seqLengthArraySize is %zu, must be dimA[CUDNN_SEQDATA_BATCH_DIM] x dimA[CUDNN_SEQDATA_BEAM_DIM] "
                    "= %d x %d = %" PRId64,
                    seq_lengths_size, dims[CUDNN_SEQDATA_BATCH_DIM], dims[CUDNN_SEQDATA_BEAM_DIM], expected);
    if (seq_lengths == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM, "seqLengthArray is NULL, must hold %zu lengths", seq_lengths_size);
    const int max_length = dims[CUDNN_SEQDATA_TIME_DIM];
    for (size_t i = 0; i < seq_lengths_size; ++i) {
        if (seq_lengths[i] < 0 || seq_lengths[i] > max_length)
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "seqLengthArray[%zu] is %d, must be between 0 and dimA[CUDNN_SEQDATA_TIME_DIM] (%d)", i,
                        seq_lengths[i], max_length);
    }
    if (data_type != CUDNN_DATA_HALF && data_type != CUDNN_DATA_FLOAT && data_type != CUDNN_DATA_DOUBLE)
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "dataType is %s; sequence data must be CUDNN_DATA_HALF, CUDNN_DATA_FLOAT or CUDNN_DATA_DOUBLE",
                    enum_name(data_type));
    if (padding_fill != nullptr)
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "paddingFill is not NULL; padding fill values are not supported, "
                    "pass NULL");

    seq->data_type = data_type;
    for (int i = 0; i < CUDNN_SEQDATA_DIM_COUNT; ++i) {
        seq->dims[i] = dims[i];
        seq->axes[i] = axes[i];
    }
    seq->seq_lengths.assign(seq_lengths, seq_lengths + seq_lengths_size);
    seq->is_set = true;
    return CUDNN_STATUS_SUCCESS;
}

Status require_seq_data_set(const cudnnSeqDataStruct &seq, const char *name) {
    if (!seq.is_set)
        return fail(CUDNN_STATUS_BAD_PARAM, "%s has not been set (call cudnnSetSeqDataDescriptor first)", name);
    return CUDNN_STATUS_SUCCESS;
}

int64_t seq_data_stride(const cudnnSeqDataStruct &seq, cudnnSeqDataAxis_t axis) {
    int64_t stride = 1;
    for (int i = CUDNN_SEQDATA_DIM_COUNT - 1; i >= 0; --i) {
        if (seq.axes[i] == axis) return stride;
        stride *= seq.dims[seq.axes[i]];
    }
    return 0;
}

int64_t seq_data_element_count(const cudnnSeqDataStruct &seq) {
    int64_t count = 1;
    for (int dim : seq.dims) count *= dim;
    return count;
}

std::string seq_data_to_string(const cudnnSeqDataStruct &seq) {
    if (!seq.is_set) return "unset";
    std::string text = std::string(data_type_short_name(seq.data_type)) +
                       " T=" + std::to_string(seq.dims[CUDNN_SEQDATA_TIME_DIM]) +
                       " N=" + std::to_string(seq.dims[CUDNN_SEQDATA_BATCH_DIM]) +
                       " B=" + std::to_string(seq.dims[CUDNN_SEQDATA_BEAM_DIM]) +
                       " V=" + std::to_string(seq.dims[CUDNN_SEQDATA_VECT_DIM]) + " order ";
    for (cudnnSeqDataAxis_t axis : seq.axes) text += axis_letter(axis);
    text += " lengths [";
    const size_t shown = seq.seq_lengths.size() < 16 ? seq.seq_lengths.size() : 16;
    for (size_t i = 0; i < shown; ++i) text += (i ? "," : "") + std::to_string(seq.seq_lengths[i]);
    if (shown < seq.seq_lengths.size()) text += ",...";
    return text + "]";
}

namespace api {

std::string describe(const cudnnSeqDataStruct *desc) {
    if (desc == nullptr) return "NULL";
    return "SeqDataDescriptor{" + seq_data_to_string(*desc) + "}";
}

}  // namespace api

}  // namespace librednn
