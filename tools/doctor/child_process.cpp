// fork()-based isolation with captured output, a report channel and a deadline.
#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace librednn::doctor {
namespace {

constexpr size_t kMessageTail = 16 * 1024;    // enough for a loader error and a few log lines
constexpr size_t kProgramOutput = 4 << 20;    // `ldconfig -p` prints tens of kilobytes
constexpr size_t kReportLimit = 1024 * 1024;  // a child that says more than this is misbehaving

void write_all(int fd, const std::string &text) {
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t wrote = ::write(fd, text.data() + done, text.size() - done);
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote <= 0) return;
        done += static_cast<size_t>(wrote);
    }
}

std::string unescape(const std::string &text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) {
            ++i;
            out += text[i] == 'n' ? '\n' : text[i];
        } else {
            out += text[i];
        }
    }
    return out;
}

void parse_report(const std::string &text, std::map<std::string, std::string> *values) {
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();  // a child killed mid-line: keep what arrived
        const std::string line = text.substr(start, end - start);
        const size_t equals = line.find('=');
        if (equals != std::string::npos) (*values)[line.substr(0, equals)] = unescape(line.substr(equals + 1));
        start = end + 1;
    }
}

struct Pipe {
    int read_end = -1, write_end = -1;
    bool open() {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0) return false;
        read_end = fds[0];
        write_end = fds[1];
        return true;
    }
    void close_read() {
        if (read_end >= 0) ::close(read_end);
        read_end = -1;
    }
    void close_write() {
        if (write_end >= 0) ::close(write_end);
        write_end = -1;
    }
};

// Reads both pipes until they close, the child ends, or the deadline passes (then kills it).
void collect(pid_t pid, Pipe &report_pipe, Pipe &message_pipe, int timeout_ms, size_t message_limit,
             ChildOutcome *outcome) {
    std::string report_text, messages;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    int status = 0;
    bool reaped = false;
    auto drain = [&](Pipe &pipe, std::string *into, size_t limit, bool keep_tail) {
        if (pipe.read_end < 0) return;
        char buffer[4096];
        const ssize_t got = ::read(pipe.read_end, buffer, sizeof buffer);
        if (got > 0) {
            into->append(buffer, static_cast<size_t>(got));
            if (into->size() > limit) {
                if (keep_tail) {
                    into->erase(0, into->size() - limit);
                } else {
                    into->resize(limit);
                }
            }
        } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
            pipe.close_read();
        }
    };
    while (report_pipe.read_end >= 0 || message_pipe.read_end >= 0) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            ::kill(pid, SIGKILL);
            outcome->kind = ChildOutcome::Kind::timed_out;
            break;
        }
        pollfd fds[2] = {{report_pipe.read_end, POLLIN, 0}, {message_pipe.read_end, POLLIN, 0}};
        const int ready = ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 100)));
        if (ready > 0) {
            if (fds[0].revents != 0) drain(report_pipe, &report_text, kReportLimit, false);
            if (fds[1].revents != 0) drain(message_pipe, &messages, message_limit, true);
        }
        // A grandchild may keep the pipes open after the child is gone: stop when the child ends.
        if (!reaped && ::waitpid(pid, &status, WNOHANG) == pid) {
            reaped = true;
            ::fcntl(report_pipe.read_end, F_SETFL, O_NONBLOCK);
            ::fcntl(message_pipe.read_end, F_SETFL, O_NONBLOCK);
            for (int i = 0; i < 256 && (report_pipe.read_end >= 0 || message_pipe.read_end >= 0); ++i) {
                drain(report_pipe, &report_text, kReportLimit, false);
                drain(message_pipe, &messages, message_limit, true);
            }
            break;
        }
    }
    report_pipe.close_read();
    message_pipe.close_read();
    if (!reaped) {
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    if (outcome->kind != ChildOutcome::Kind::timed_out) {
        if (WIFEXITED(status)) {
            outcome->kind = ChildOutcome::Kind::exited;
            outcome->exit_code = WEXITSTATUS(status);
        } else if (WIFSIGNALED(status)) {
            outcome->kind = ChildOutcome::Kind::signaled;
            outcome->signal = WTERMSIG(status);
        }
    }
    parse_report(report_text, &outcome->values);
    outcome->messages = std::move(messages);
}

}  // namespace

void ChildReport::put(const std::string &key, const std::string &value) {
    std::string line = key + "=";
    for (char c : value) {
        if (c == '\n') {
            line += "\\n";
        } else if (c == '\\') {
            line += "\\\\";
        } else {
            line += c;
        }
    }
    write_all(fd_, line + "\n");
}

std::string ChildOutcome::get(const std::string &key, const std::string &fallback) const {
    const auto found = values.find(key);
    return found == values.end() ? fallback : found->second;
}

std::string ChildOutcome::describe() const {
    switch (kind) {
        case Kind::exited: return "exited with status " + std::to_string(exit_code);
        case Kind::signaled: {
            const char *name = ::strsignal(signal);
            return "was killed by signal " + std::to_string(signal) + " (" + (name ? name : "unknown") + ")";
        }
        case Kind::timed_out: return "did not finish in time and was killed";
        case Kind::not_started: return "could not be started: " + start_error;
    }
    return "ended in an unknown way";
}

std::string ChildOutcome::last_message_line() const {
    size_t end = messages.size();
    while (end > 0) {
        while (end > 0 && (messages[end - 1] == '\n' || messages[end - 1] == '\r' || messages[end - 1] == ' ')) --end;
        if (end == 0) break;
        const size_t start = messages.rfind('\n', end - 1);
        const size_t from = start == std::string::npos ? 0 : start + 1;
        if (end > from) return messages.substr(from, end - from);
        end = from;
    }
    return {};
}

namespace {

ChildOutcome fork_and_collect(const std::function<int(ChildReport &)> &body, int timeout_ms,
                              const Environment &environment, size_t message_limit) {
    ChildOutcome outcome;
    Pipe report_pipe, message_pipe;
    if (!report_pipe.open() || !message_pipe.open()) {
        outcome.start_error = std::string("pipe() failed: ") + std::strerror(errno);
        report_pipe.close_read();
        report_pipe.close_write();
        return outcome;
    }
    std::fflush(nullptr);  // or the child would print the parent's buffered output a second time
    const pid_t pid = ::fork();
    if (pid < 0) {
        outcome.start_error = std::string("fork() failed: ") + std::strerror(errno);
        report_pipe.close_read();
        report_pipe.close_write();
        message_pipe.close_read();
        message_pipe.close_write();
        return outcome;
    }
    if (pid == 0) {
        ::dup2(message_pipe.write_end, STDOUT_FILENO);
        ::dup2(message_pipe.write_end, STDERR_FILENO);
        for (const auto &[name, value] : environment) ::setenv(name.c_str(), value.c_str(), 1);
        ChildReport report(report_pipe.write_end);
        const int code = body(report);
        std::fflush(nullptr);
        ::_exit(code);
    }
    report_pipe.close_write();
    message_pipe.close_write();
    collect(pid, report_pipe, message_pipe, timeout_ms, message_limit, &outcome);
    return outcome;
}

}  // namespace

ChildOutcome run_in_child(const std::function<int(ChildReport &)> &body, int timeout_ms,
                          const Environment &environment) {
    return fork_and_collect(body, timeout_ms, environment, kMessageTail);
}

ChildOutcome run_program(const std::vector<std::string> &argv, int timeout_ms) {
    if (argv.empty()) {
        ChildOutcome outcome;
        outcome.start_error = "no program given";
        return outcome;
    }
    return fork_and_collect(
        [&](ChildReport &) {
            std::vector<char *> args;
            for (const std::string &arg : argv) args.push_back(const_cast<char *>(arg.c_str()));
            args.push_back(nullptr);
            ::execvp(args[0], args.data());
            std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
            return 127;
        },
        timeout_ms, {}, kProgramOutput);
}

}  // namespace librednn::doctor
