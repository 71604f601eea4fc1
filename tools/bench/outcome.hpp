// The outcome of one step of a benchmark (a cuDNN call, an allocation, a choice): it worked, the
// library does not offer it, or it failed; with one sentence saying which and why.
#pragma once

#include <string>
#include <utility>

namespace librednn::bench {

class Outcome {
public:
    enum class Kind { ok, unsupported, failed };

    Outcome() = default;
    static Outcome success() { return Outcome(); }
    // The library lacks the function or answers NOT_SUPPORTED: a fact about the library, not an error.
    static Outcome unsupported(std::string why) { return Outcome(Kind::unsupported, std::move(why)); }
    static Outcome failed(std::string why) { return Outcome(Kind::failed, std::move(why)); }

    bool ok() const { return kind_ == Kind::ok; }
    Kind kind() const { return kind_; }
    const std::string &message() const { return message_; }
    // "ok", "unsupported" or "failed", as the JSON and CSV reports spell them.
    const char *kind_name() const {
        return kind_ == Kind::ok ? "ok" : kind_ == Kind::unsupported ? "unsupported" : "failed";
    }

private:
    Outcome(Kind kind, std::string message) : kind_(kind), message_(std::move(message)) {}

    Kind kind_ = Kind::ok;
    std::string message_;
};

}  // namespace librednn::bench

// Returns the outcome from the enclosing function unless it is ok.
#define BENCH_TRY(expr)                                     \
    do {                                                    \
        ::librednn::bench::Outcome bench_outcome_ = (expr); \
        if (!bench_outcome_.ok()) return bench_outcome_;    \
    } while (0)
