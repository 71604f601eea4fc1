// Helpers of the doctor's tests: temporary directories, files and links, copies of LibreDNN's built
// libraries laid out as an install, running the cudnn-doctor binary, and reading its JSON.
#pragma once

#include "json_reader.hpp"
#include "report.hpp"
#include "synthetic_elf.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#ifndef LIBREDNN_TEST_BUILD_DIR
#define LIBREDNN_TEST_BUILD_DIR "."
#endif

namespace librednn::doctor::testing {

// A fresh directory, removed with everything in it at the end of the test.
class TempDir {
public:
    TempDir() {
        const char *base = std::getenv("TMPDIR");
        std::string pattern = std::string(base && *base ? base : "/tmp") + "/doctor-test-XXXXXX";
        std::vector<char> buffer(pattern.begin(), pattern.end());
        buffer.push_back('\0');
        path_ = ::mkdtemp(buffer.data()) ? buffer.data() : "";
    }
    ~TempDir() {
        if (!path_.empty()) remove_tree(path_);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::string &path() const { return path_; }
    std::string operator/(const std::string &name) const { return path_ + "/" + name; }

    static void remove_tree(const std::string &path) {
        struct stat info;
        if (::lstat(path.c_str(), &info) != 0) return;
        if (S_ISDIR(info.st_mode)) {
            if (DIR *dir = ::opendir(path.c_str())) {
                while (const dirent *entry = ::readdir(dir)) {
                    const std::string name = entry->d_name;
                    if (name != "." && name != "..") remove_tree(path + "/" + name);
                }
                ::closedir(dir);
            }
            ::rmdir(path.c_str());
        } else {
            ::unlink(path.c_str());
        }
    }

private:
    std::string path_;
};

inline void make_dirs(const std::string &path) {
    for (size_t slash = 1; slash != std::string::npos; slash = path.find('/', slash + 1)) {
        ::mkdir(path.substr(0, slash).c_str(), 0755);
    }
    ::mkdir(path.c_str(), 0755);
}

inline void write_file(const std::string &path, const std::string &contents) {
    std::ofstream(path, std::ios::binary) << contents;
}

inline void write_bytes(const std::string &path, const std::vector<uint8_t> &bytes) {
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
}

inline std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline void link_to(const std::string &target, const std::string &path) {
    ASSERT_EQ(::symlink(target.c_str(), path.c_str()), 0) << "cannot link " << path << " -> " << target;
}

inline void copy_file(const std::string &from, const std::string &to) { write_file(to, read_file(from)); }

// Where the built libraries are (LIBREDNN_BUILD_DIR overrides the build tree the test was made in).
inline std::string build_dir() {
    const char *dir = std::getenv("LIBREDNN_BUILD_DIR");
    return dir && *dir ? dir : LIBREDNN_TEST_BUILD_DIR;
}

const char *const kLibreDnnStems[] = {"cudnn",           "cudnn_ops_infer", "cudnn_ops_train", "cudnn_cnn_infer",
                                      "cudnn_cnn_train", "cudnn_adv_infer", "cudnn_adv_train"};

// LibreDNN's seven built libraries copied into prefix/lib as an install lays them out
// (libX.so -> libX.so.8 -> libX.so.8.9.7), with the public headers in prefix/include.
inline void install_librednn_copy(const std::string &prefix) {
    make_dirs(prefix + "/lib");
    make_dirs(prefix + "/include");
    for (const char *stem : kLibreDnnStems) {
        const std::string name = std::string("lib") + stem + ".so";
        copy_file(build_dir() + "/src/" + name + ".8.9.7", prefix + "/lib/" + name + ".8.9.7");
        ::chmod((prefix + "/lib/" + name + ".8.9.7").c_str(), 0755);
        link_to(name + ".8.9.7", prefix + "/lib/" + name + ".8");
        link_to(name + ".8", prefix + "/lib/" + name);
    }
    write_file(prefix + "/include/cudnn_version.h",
               "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n"
               "#define LIBREDNN_VERSION_MAJOR 0\n");
}

// Rewrites the 16 hex digits after LIBREDNN_BUILD_ID= in a library: what a library from another
// build looks like.
inline bool rewrite_build_id(const std::string &path) {
    std::string bytes = read_file(path);
    const std::string marker = "LIBREDNN_BUILD_ID=";
    const size_t at = bytes.find(marker);
    if (at == std::string::npos) return false;
    const std::string other =
        bytes.compare(at + marker.size(), 16, "0123456789abcdef") == 0 ? "fedcba9876543210" : "0123456789abcdef";
    bytes.replace(at + marker.size(), 16, other);
    ::unlink(path.c_str());
    write_file(path, bytes);
    return true;
}

struct DoctorRun {
    int exit_status = -1;
    std::string output;  // stdout
    std::string errors;  // stderr
    Json json;
    std::string json_error;
};

// Runs the cudnn-doctor binary with `args` and LD_LIBRARY_PATH (unset when empty). With --json among
// the arguments, the output is parsed into `json`.
inline DoctorRun run_doctor(const std::vector<std::string> &args, const std::string &ld_library_path = {}) {
    DoctorRun run;
    int out_pipe[2], err_pipe[2];
    if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0) return run;
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(out_pipe[1], 1);
        ::dup2(err_pipe[1], 2);
        ::close(out_pipe[0]);
        ::close(err_pipe[0]);
        if (ld_library_path.empty()) {
            ::unsetenv("LD_LIBRARY_PATH");
        } else {
            ::setenv("LD_LIBRARY_PATH", ld_library_path.c_str(), 1);
        }
        std::vector<char *> argv;
        static std::string binary = LIBREDNN_DOCTOR_BINARY;
        argv.push_back(const_cast<char *>(binary.c_str()));
        for (const std::string &arg : args) argv.push_back(const_cast<char *>(arg.c_str()));
        argv.push_back(nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    // Read stderr after stdout; the doctor writes little to stderr, so this cannot deadlock.
    char buffer[65536];
    ssize_t got;
    while ((got = ::read(out_pipe[0], buffer, sizeof buffer)) > 0) run.output.append(buffer, got);
    while ((got = ::read(err_pipe[0], buffer, sizeof buffer)) > 0) run.errors.append(buffer, got);
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    run.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    for (const std::string &arg : args) {
        if (arg == "--json") {
            JsonParser parser(run.output);
            if (!parser.parse(&run.json)) run.json_error = parser.error();
        }
    }
    return run;
}

// Every check of a --json report whose id is `id` (and whose section subject holds `subject`).
inline std::vector<Json> checks_with_id(const Json &report, const std::string &id, const std::string &subject = {}) {
    std::vector<Json> found;
    for (const Json &section : report["sections"].items) {
        if (!subject.empty() && section["subject"].text.find(subject) == std::string::npos) continue;
        for (const Json &check : section["checks"].items) {
            if (check["id"].text == id) found.push_back(check);
        }
    }
    return found;
}

// The first check with this id in an in-process report (nullptr when none).
inline const Check *find_check(const Report &report, const std::string &id) {
    for (const Section &section : report.sections) {
        for (const Check &check : section.checks) {
            if (check.id == id) return &check;
        }
    }
    return nullptr;
}

// A check's summary and details in one string, for EXPECT_THAT-style searching.
inline std::string text_of(const Check &check) {
    std::string text = check.summary;
    for (const std::string &detail : check.details) text += "\n" + detail;
    return text + "\nfix: " + check.fix;
}

}  // namespace librednn::doctor::testing
