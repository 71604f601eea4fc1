// Helpers for the librednn-bench tests: running the executable and reading what it wrote.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace librednn::bench::test {

struct CommandResult {
    int exit_code = -1;
    std::string out, err;
};

inline std::string read_file(const std::string &path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

inline std::string shell_quote(const std::string &text) {
    std::string quoted = "'";
    for (char ch : text) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return quoted + "'";
}

// A fresh directory for one test's files, removed when the object goes.
class TempDir {
public:
    TempDir() {
        char pattern[] = "/tmp/librednn-bench-test-XXXXXX";
        path_ = mkdtemp(pattern) ? pattern : "/tmp";
    }
    ~TempDir() {
        // A temporary folder left behind is not worth failing a test over.
        if (path_ != "/tmp" && std::system(("rm -rf " + shell_quote(path_)).c_str()) != 0) path_.clear();
    }
    std::string file(const std::string &name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

// Runs librednn-bench with `args`; `environment` is prepended as VAR=value words.
inline CommandResult run_bench(const std::vector<std::string> &args, const std::string &environment = "") {
    TempDir dir;
    std::string command = environment + " " + shell_quote(LIBREDNN_BENCH_EXE);
    for (const std::string &arg : args) command += " " + shell_quote(arg);
    command += " >" + shell_quote(dir.file("out")) + " 2>" + shell_quote(dir.file("err"));
    const int status = std::system(command.c_str());
    CommandResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = read_file(dir.file("out"));
    result.err = read_file(dir.file("err"));
    return result;
}

inline bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

}  // namespace librednn::bench::test
