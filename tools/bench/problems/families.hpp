// The op families the bench knows: one parser per family, each in problems/<family>.cpp. Adding an op
// is one file, one line here and one line in problem.cpp's table (room is left for ctc, attention).
#pragma once

#include "problem.hpp"

namespace librednn::bench {

using ProblemParser = ParseResult (*)(const ProblemString &text, const ProblemDefaults &defaults,
                                      std::unique_ptr<Problem> *problem, std::string *error);

ParseResult parse_convolution(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *,
                              std::string *);
ParseResult parse_batch_norm(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);
ParseResult parse_activation(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);
ParseResult parse_softmax(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);
ParseResult parse_pooling(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);
ParseResult parse_lrn(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);
ParseResult parse_divnorm(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);
ParseResult parse_spatial_tf(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);
ParseResult parse_op_tensor(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);
ParseResult parse_add_tensor(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);
ParseResult parse_transform(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);
ParseResult parse_reduce(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);
ParseResult parse_set_tensor(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);
ParseResult parse_scale_tensor(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *,
                               std::string *);
// RNNs through the v8 API: LibreDNN's RNN problem strings, plus dir=step (a whole training step).
ParseResult parse_rnn(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);
// CTC loss through cudnnCTCLoss (lengths in host memory): LibreDNN's CTC problem strings.
ParseResult parse_ctc_loss(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);
// The bench's own device-to-device copy (no library call): the run's copy ceiling.
ParseResult parse_copy(const ProblemString &, const ProblemDefaults &, std::unique_ptr<Problem> *, std::string *);

// The forward/backward direction of an op without a key of its own for it: the problem's `dir` key
// when present, else --dir mapped (fwd and inference -> "fwd", bwd -> "bwd"). Returns false when --dir
// names a direction the op does not have (bwd_data, bwd_filter).
bool forward_or_backward(const ProblemString &text, const ProblemDefaults &defaults, std::string *dir);

}  // namespace librednn::bench
