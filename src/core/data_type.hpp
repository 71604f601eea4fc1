// Facts about cudnnDataType_t values: element sizes, vectorised types, names.
#pragma once

#include <cudnn.h>

#include <cstddef>

namespace librednn {

// True for a value cudnnDataType_t defines.
bool is_valid_data_type(cudnnDataType_t type);

// Bytes of one element; for vectorised types (INT8x4, UINT8x4, INT8x32) the bytes of one vector.
// 0 for values that are not data types.
size_t data_type_size(cudnnDataType_t type);

// Elements packed in one value: 4 for INT8x4/UINT8x4, 32 for INT8x32, else 1.
int vector_count(cudnnDataType_t type);

// "float", "half", "int8x4", ... as the bench problem strings spell them.
const char *data_type_short_name(cudnnDataType_t type);

}  // namespace librednn
