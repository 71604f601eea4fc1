// Isolation: runs code (loading a library, calling into it) or a program in a child process, so that
// a library that crashes, aborts or hangs takes only the child with it, and the doctor says so.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace librednn::doctor {

// What the child sends back: key=value lines. Values may hold any bytes but newlines and backslashes
// are escaped on the way.
class ChildReport {
public:
    explicit ChildReport(int fd) : fd_(fd) {}
    void put(const std::string &key, const std::string &value);
    void put(const std::string &key, long long value) { put(key, std::to_string(value)); }

private:
    int fd_;
};

struct ChildOutcome {
    enum class Kind { exited, signaled, timed_out, not_started };
    Kind kind = Kind::not_started;
    int exit_code = -1;
    int signal = 0;
    std::map<std::string, std::string> values;  // what the child put(); the last value of a key wins
    std::string messages;                       // the child's stdout and stderr (the library's own words), tail
    std::string start_error;                    // why it could not start (not_started)

    bool ok() const { return kind == Kind::exited && exit_code == 0; }
    bool has(const std::string &key) const { return values.count(key) != 0; }
    std::string get(const std::string &key, const std::string &fallback = {}) const;
    // "exited with status 3", "was killed by signal 6 (Aborted)", "did not finish within 30 s".
    std::string describe() const;
    // The last non-empty line the child printed, for one-line diagnoses ("Could not load library ...").
    std::string last_message_line() const;
};

using Environment = std::vector<std::pair<std::string, std::string>>;

// Forks; the child sets `environment`, runs body(report) and exits with its return value. The child's
// stdout and stderr are captured. The child is killed after timeout_ms. The calling process must not
// have initialised CUDA (a forked child cannot use the parent's CUDA state): the doctor never does.
ChildOutcome run_in_child(const std::function<int(ChildReport &)> &body, int timeout_ms,
                          const Environment &environment = {});

// Runs a program (argv[0] searched on PATH) with stdout and stderr captured into messages.
ChildOutcome run_program(const std::vector<std::string> &argv, int timeout_ms);

}  // namespace librednn::doctor
