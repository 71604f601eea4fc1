// How op problems write their tensors into problem strings and read them back. One tensor is the
// problem's main tensor (`dtype=`, `dims=`); every tensor has `<name>strides=`, and `<name>type=` /
// `<name>dims=` only where it differs from the main one. A missing `<name>strides` means packed in
// `layout=` (nchw, the default, or nhwc; vectorised types are always nchw_vect_c).
#pragma once

#include "ops/common/direction.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <cudnn.h>

#include <string>

namespace librednn {

// dtype= and dims= of the main tensor.
void write_main_tensor(ProblemString *out, const TensorGeometry &main);

// <name>type= (if not main's), <name>dims= (if not main's) and <name>strides=.
void write_tensor(ProblemString *out, const char *name, const TensorGeometry &tensor, const TensorGeometry &main);

// Reads dtype= and dims= (and layout=) into `main`'s type and dims; strides are left for read_tensor.
bool read_main_tensor(const ProblemString &in, TensorGeometry *main, std::string *error);

// Reads tensor `name`, taking type and dims from `main` where the string gives none.
bool read_tensor(const ProblemString &in, const char *name, const TensorGeometry &main, TensorGeometry *tensor,
                 std::string *error);

// Fails with "unknown key ..." when the string holds keys nothing read (typos).
bool reject_unread_keys(const ProblemString &in, std::string *error);

// "float", "half", ... and back; false for names that are not data types.
bool data_type_from_short_name(const std::string &name, cudnnDataType_t *type);

// nan=propagate | nan=not_propagate (the default when absent).
const char *nan_option_name(cudnnNanPropagation_t option);
bool read_nan_option(const ProblemString &in, cudnnNanPropagation_t *option, std::string *error);

// dir=fwd | dir=bwd (fwd when absent).
bool read_direction(const ProblemString &in, Direction *direction, std::string *error);

// <key>=yes | <key>=no (no when absent), for flags such as in_place.
bool read_yes_no(const ProblemString &in, const char *key, bool *value, std::string *error);

// The compute type a problem string without compute= means: double for double tensors, float otherwise
// (librednn-bench reads it the same way).
cudnnDataType_t default_compute_type(cudnnDataType_t data_type);

// compute=<data type>; without it, default_compute_type.
bool read_compute_type(const ProblemString &in, cudnnDataType_t data_type, cudnnDataType_t *compute,
                       std::string *error);

// Enum values spelled in problem strings: one lower-case word per value, parsed back by the same
// table. `names` holds `count` entries indexed by the enum's value.
bool enum_from_name(const std::string &text, const char *const *names, int count, int *value);

}  // namespace librednn
