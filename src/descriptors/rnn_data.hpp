// The RNN data descriptor (cudnnRNNDataDescriptor_t): data type, layout, sizes, per-sequence lengths
// and the padding fill value, with cuDNN's rules.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <string>
#include <vector>

struct cudnnRNNDataStruct {
    bool is_set = false;  // false until cudnnSetRNNDataDescriptor succeeds
    cudnnDataType_t data_type = CUDNN_DATA_FLOAT;
    cudnnRNNDataLayout_t layout = CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED;
    int max_seq_length = 0;
    int batch_size = 0;
    int vector_size = 0;
    std::vector<int> seq_lengths;  // batch_size values, each in [0, max_seq_length]
    bool has_padding_fill = false;
    // The caller's fill value as stored bytes of data_type (2, 4 or 8 of them); zeros when none was given.
    unsigned char padding_fill[8] = {};
};

namespace librednn {

// Checks cuDNN's rules and, when they hold, sets `data`; `padding_fill` may be NULL (no fill value) or
// points to one value of `data_type` in host memory.
Status set_rnn_data(cudnnRNNDataStruct *data, cudnnDataType_t data_type, cudnnRNNDataLayout_t layout,
                    int max_seq_length, int batch_size, int vector_size, const int *seq_lengths,
                    const void *padding_fill);

// CUDNN_STATUS_BAD_PARAM naming `name` when `data` has not been set yet.
Status require_rnn_data_set(const cudnnRNNDataStruct &data, const char *name);

// The padding fill value as a double (0 when none was given).
double rnn_data_padding_value(const cudnnRNNDataStruct &data);

// "float seq_major_unpacked T=10 N=3 C=32 lengths [10,7,2] fill 0", for log lines and problem strings.
std::string rnn_data_to_string(const cudnnRNNDataStruct &data);

}  // namespace librednn
