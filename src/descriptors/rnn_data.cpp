// Rules of the RNN data descriptor's setter and its one-line description.
#include "descriptors/rnn_data.hpp"

#include "core/data_type.hpp"
#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

namespace librednn {

namespace {

double half_to_double(uint16_t bits) {
    const int sign = (bits >> 15) & 1;
    const int exponent = (bits >> 10) & 0x1f;
    const int mantissa = bits & 0x3ff;
    double value;
    if (exponent == 0) {
        value = std::ldexp(mantissa, -24);  // subnormal
    } else if (exponent == 31) {
        value = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    } else {
        value = std::ldexp(mantissa + 1024, exponent - 25);
    }
    return sign ? -value : value;
}

const char *layout_short_name(cudnnRNNDataLayout_t layout) {
    switch (layout) {
        case CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED: return "seq_major_unpacked";
        case CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED: return "seq_major_packed";
        case CUDNN_RNN_DATA_LAYOUT_BATCH_MAJOR_UNPACKED: return "batch_major_unpacked";
    }
    return "?";
}

}  // namespace

Status set_rnn_data(cudnnRNNDataStruct *data, cudnnDataType_t data_type, cudnnRNNDataLayout_t layout,
                    int max_seq_length, int batch_size, int vector_size, const int *seq_lengths,
                    const void *padding_fill) {
    if (enum_name(layout) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "layout is %d, not a cudnnRNNDataLayout_t (CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, "
                    "CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED or CUDNN_RNN_DATA_LAYOUT_BATCH_MAJOR_UNPACKED)",
                    static_cast<int>(layout));
    if (max_seq_length <= 0)
        return fail(CUDNN_STATUS_BAD_PARAM, "maxSeqLength is %d, must be positive", max_seq_length);
    if (batch_size <= 0) return fail(CUDNN_STATUS_BAD_PARAM, "batchSize is %d, must be positive", batch_size);
    if (vector_size <= 0) return fail(CUDNN_STATUS_BAD_PARAM, "vectorSize is %d, must be positive", vector_size);
    if (seq_lengths == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM, "seqLengthArray is NULL, must hold batchSize (%d) lengths", batch_size);
    for (int i = 0; i < batch_size; ++i) {
        if (seq_lengths[i] < 0 || seq_lengths[i] > max_seq_length)
            return fail(CUDNN_STATUS_BAD_PARAM, "seqLengthArray[%d] is %d, must be between 0 and maxSeqLength (%d)", i,
                        seq_lengths[i], max_seq_length);
    }
    if (layout == CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED) {
        for (int i = 1; i < batch_size; ++i) {
            if (seq_lengths[i] > seq_lengths[i - 1])
                return fail(CUDNN_STATUS_BAD_PARAM,
                            "seqLengthArray[%d] is %d, longer than seqLengthArray[%d] = %d; the packed layout "
                            "(CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED) needs lengths in descending order",
                            i, seq_lengths[i], i - 1, seq_lengths[i - 1]);
        }
    }
    if (data_type != CUDNN_DATA_HALF && data_type != CUDNN_DATA_FLOAT && data_type != CUDNN_DATA_DOUBLE) {
        const char *name = enum_name(data_type);
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "dataType is %s (%d); RNN data must be CUDNN_DATA_HALF, CUDNN_DATA_FLOAT or CUDNN_DATA_DOUBLE",
                    name ? name : "not a cudnnDataType_t", static_cast<int>(data_type));
    }

    data->data_type = data_type;
    data->layout = layout;
    data->max_seq_length = max_seq_length;
    data->batch_size = batch_size;
    data->vector_size = vector_size;
    data->seq_lengths.assign(seq_lengths, seq_lengths + batch_size);
    data->has_padding_fill = padding_fill != nullptr;
    std::memset(data->padding_fill, 0, sizeof data->padding_fill);
    if (padding_fill != nullptr) std::memcpy(data->padding_fill, padding_fill, data_type_size(data_type));
    data->is_set = true;
    return CUDNN_STATUS_SUCCESS;
}

Status require_rnn_data_set(const cudnnRNNDataStruct &data, const char *name) {
    if (!data.is_set)
        return fail(CUDNN_STATUS_BAD_PARAM, "%s has not been set (call cudnnSetRNNDataDescriptor first)", name);
    return CUDNN_STATUS_SUCCESS;
}

double rnn_data_padding_value(const cudnnRNNDataStruct &data) {
    switch (data.data_type) {
        case CUDNN_DATA_HALF: {
            uint16_t bits;
            std::memcpy(&bits, data.padding_fill, sizeof bits);
            return half_to_double(bits);
        }
        case CUDNN_DATA_FLOAT: {
            float value;
            std::memcpy(&value, data.padding_fill, sizeof value);
            return value;
        }
        case CUDNN_DATA_DOUBLE: {
            double value;
            std::memcpy(&value, data.padding_fill, sizeof value);
            return value;
        }
        default: return 0.0;
    }
}

std::string rnn_data_to_string(const cudnnRNNDataStruct &data) {
    if (!data.is_set) return "unset";
    std::string text = std::string(data_type_short_name(data.data_type)) + " " + layout_short_name(data.layout) +
                       " T=" + std::to_string(data.max_seq_length) + " N=" + std::to_string(data.batch_size) +
                       " C=" + std::to_string(data.vector_size) + " lengths [";
    const size_t shown = data.seq_lengths.size() < 16 ? data.seq_lengths.size() : 16;
    for (size_t i = 0; i < shown; ++i) text += (i ? "," : "") + std::to_string(data.seq_lengths[i]);
    if (shown < data.seq_lengths.size()) text += ",...";
    text += "]";
    if (data.has_padding_fill) {
        char fill[48];
        std::snprintf(fill, sizeof fill, " fill %g", rnn_data_padding_value(data));
        text += fill;
    }
    return text;
}

namespace api {

std::string describe(const cudnnRNNDataStruct *desc) {
    if (desc == nullptr) return "NULL";
    return "RNNDataDescriptor{" + rnn_data_to_string(*desc) + "}";
}

}  // namespace api

}  // namespace librednn
