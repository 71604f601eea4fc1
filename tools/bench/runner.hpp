// Running one case on every library of the run, interleaved: the same tensors for each, timed (perf
// mode) or run once and compared (check mode).
#pragma once

#include "check.hpp"
#include "loader.hpp"
#include "memory.hpp"
#include "sets.hpp"

#include <memory>
#include <string>
#include <vector>

namespace librednn::bench {

// One library of the run and its handle.
class Session {
public:
    // Creates the handle. On failure returns null and sets *error (the status by name).
    static std::unique_ptr<Session> start(std::unique_ptr<Library> library, const std::string &role,
                                          std::string *error);
    ~Session();
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    const Library &library() const { return *library_; }
    cudnnHandle_t handle() const { return handle_; }
    const std::string &role() const { return role_; }  // "lib" or "vs"

private:
    Session() = default;
    std::unique_ptr<Library> library_;
    cudnnHandle_t handle_ = nullptr;
    std::string role_;
};

struct RunSettings {
    bool check = false;  // one run per library and a comparison, instead of timing
    int runs = 30;       // timed runs; the median is reported
    int warmup = 5;      // untimed runs first (more until 20 ms have passed, so that clocks settle)
    uint64_t seed = 1;   // of the random inputs
    Platform platform;
};

struct LibraryResult {
    Outcome outcome;
    double median_ms = 0, min_ms = 0, max_ms = 0;
    int runs = 0;    // timed runs behind the median
    int copies = 0;  // input copies rotated through
    size_t workspace = 0;
    std::string choice;   // what the library chose (convolution algorithm)
    HostTensors outputs;  // check mode: every output tensor, as doubles (empty where not an output)
};

struct CheckResult {
    bool compared = false;
    std::string against;  // "vs" or "reference"
    std::string note;     // why there was no comparison ("no reference yet")
    ErrorStats errors;    // the worst output tensor's
    std::string worst;    // its name
};

struct CaseResult {
    std::string name, group, problem;
    int64_t count = 1;
    double flops = 0, bytes = 0;
    std::vector<LibraryResult> libraries;  // one per session, in the run's order
    CheckResult check;
};

CaseResult run_case(const Case &entry, const std::vector<Session *> &sessions, const RunSettings &settings);

}  // namespace librednn::bench
