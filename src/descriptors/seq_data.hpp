// The sequence data descriptor (cudnnSeqDataDescriptor_t): data type, the four dims (time, batch,
// beam, vector), their order in memory and the per-sequence lengths, with cuDNN's rules.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <cstdint>
#include <string>
#include <vector>

struct cudnnSeqDataStruct {
    bool is_set = false;  // false until cudnnSetSeqDataDescriptor succeeds
    cudnnDataType_t data_type = CUDNN_DATA_FLOAT;
    int dims[CUDNN_SEQDATA_DIM_COUNT] = {};  // indexed by cudnnSeqDataAxis_t, as the API's dimA[]
    // The memory order, outermost first (axes[3] is the innermost, unit-stride dim).
    cudnnSeqDataAxis_t axes[CUDNN_SEQDATA_DIM_COUNT] = {CUDNN_SEQDATA_TIME_DIM, CUDNN_SEQDATA_BATCH_DIM,
                                                        CUDNN_SEQDATA_BEAM_DIM, CUDNN_SEQDATA_VECT_DIM};
    std::vector<int> seq_lengths;  // batch x beam values, as given, each in [0, dims[CUDNN_SEQDATA_TIME_DIM]]
};

namespace librednn {

// Checks cuDNN's rules and, when they hold, sets `seq`.
Status set_seq_data(cudnnSeqDataStruct *seq, cudnnDataType_t data_type, int nb_dims, const int *dims,
                    const cudnnSeqDataAxis_t *axes, size_t seq_lengths_size, const int *seq_lengths,
                    const void *padding_fill);

// CUDNN_STATUS_BAD_PARAM naming `name` when `seq` has not been set yet.
Status require_seq_data_set(const cudnnSeqDataStruct &seq, const char *name);

// The stride, in elements, of one step along `axis` in the packed buffer the axes order describes.
int64_t seq_data_stride(const cudnnSeqDataStruct &seq, cudnnSeqDataAxis_t axis);

// Elements the buffer holds (product of the four dims).
int64_t seq_data_element_count(const cudnnSeqDataStruct &seq);

// "float T=10 N=4 B=1 V=64 order TNBV lengths [10,9,3,1]", for log lines and problem strings.
std::string seq_data_to_string(const cudnnSeqDataStruct &seq);

}  // namespace librednn
