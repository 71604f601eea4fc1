// Reading an op's keys from a problem string: typed values with defaults, one clear error for the first
// bad key ("op=conv: key 'pad' must be HxW, e.g. 1x1; got '1'"), and unknown keys rejected at the end.
#pragma once

#include "problem.hpp"

#include <string>
#include <utility>
#include <vector>

namespace librednn::bench {

// Strides in elements, NCHW order, of a packed tensor of `layout`.
std::vector<int64_t> packed_strides(const Shape &shape, Layout layout);

// The packed layout `strides` describe (dims of extent 1 may carry any stride); false for others.
bool layout_of_strides(const Shape &shape, const std::vector<int64_t> &strides, Layout *layout);

// True when every extent of `small` equals `full`'s or is 1.
bool broadcasts_to(const Shape &small, const Shape &full);

// True when `a` and `b` have the same extents.
bool same_extents(const Shape &a, const Shape &b);

// Tensors written as LibreDNN's op problems write them (docs/PROBLEMS.md): the main tensor's
// dtype= and dims=, then per operand <name>type= and <name>dims= where they differ from the main
// tensor's, and <name>strides= always.
void write_main_tensor(ProblemString *text, const TensorOperand &main);
void write_operand(ProblemString *text, const char *name, const TensorOperand &operand, const TensorOperand &main);

class KeyReader {
public:
    KeyReader(const ProblemString &text, const std::string &op) : text_(text), op_(op) {}

    // Integers at least `minimum`; the fallback applies when the key is absent.
    int64_t integer(const char *key, int64_t fallback, int64_t minimum);
    double number(const char *key, double fallback);
    // One of `allowed`; the fallback applies when the key is absent.
    std::string choice(const char *key, const std::vector<std::string> &allowed, const std::string &fallback);
    // "HxW" (pad=1x1, window=3x3), each at least `minimum`.
    std::pair<int64_t, int64_t> pair(const char *key, std::pair<int64_t, int64_t> fallback, int64_t minimum);
    // `count` integers joined by x (pad_before=0x0x1x1), each from `minimum` to `maximum`; `what` says
    // what they are for the error ("one per dim, NxCxHxW").
    std::vector<int64_t> integers(const char *key, size_t count, const std::vector<int64_t> &fallback, int64_t minimum,
                                  int64_t maximum, const std::string &what);
    cudnnDataType_t data_type(const char *key, const std::string &fallback);
    Layout layout(const char *key, const std::string &fallback);
    // n c h w; n falls back to `default_n`, the others are required.
    Shape shape(int64_t default_n);
    // The main tensor: dtype= (else `defaults.dtype`) and dims=NxCxHxW or n= c= h= w= (n else `defaults.n`).
    TensorOperand main_tensor(const ProblemDefaults &defaults);
    // Operand `name`: <name>strides= (packed NCHW or NHWC; absent: layout=, else `default_layout`), and
    // where the op allows them <name>type= and <name>dims= (else main's). The bench runs packed tensors
    // only: other strides are an error that says so.
    TensorOperand operand(const char *name, const TensorOperand &main, const std::string &default_layout,
                          bool own_type = false, bool own_dims = false);

    // Records a failed cross-key check ("k must be divisible by g"); the first error wins.
    void fail(const std::string &message);
    bool failed() const { return !error_.empty(); }
    // Whether the string has `key` (read or not).
    bool present(const char *key) const { return text_.has(key); }

    // Ok when every key was valid and read; otherwise false with the first error or the unknown keys.
    bool finish(std::string *error) const;

private:
    void fail_value(const char *key, const std::string &expected, const std::string &got);

    const ProblemString &text_;
    std::string op_;
    std::string error_;
};

}  // namespace librednn::bench
