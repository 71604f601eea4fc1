// librednn-bench: loads one or two cuDNN libraries, runs the problems asked for on each (interleaved),
// and reports times and rates (perf) or errors against a reference (check).
#include "cli.hpp"
#include "memory.hpp"
#include "report.hpp"
#include "runner.hpp"
#include "sets.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <iostream>

namespace librednn::bench {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm parts{};
    gmtime_r(&now, &parts);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &parts);
    return buffer;
}

std::string command_line(int argc, char **argv) {
    std::string text;
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool quote = arg.find_first_of(" \t\"'") != std::string::npos;
        text += (i ? " " : "") + (quote ? "'" + arg + "'" : arg);
    }
    return text;
}

int run(int argc, char **argv) {
    Options options;
    std::string error;
    if (!parse_command_line(std::vector<std::string>(argv + 1, argv + argc), &options, &error)) {
        std::cerr << "librednn-bench: " << error << "\n(librednn-bench --help lists the options)\n";
        return kExitUsage;
    }
    if (options.help) {
        std::cout << usage();
        return kExitOk;
    }

    std::vector<ProblemSource> sources;
    for (const std::string &text : options.problems) {
        ProblemSource source;
        if (!ProblemString::parse(text, &source.text, &error)) {
            std::cerr << "librednn-bench: --problem '" << text << "': " << error << "\n";
            return kExitUsage;
        }
        sources.push_back(std::move(source));
    }
    for (const std::string &path : options.sets) {
        if (!read_problem_set(path, &sources, &error)) {
            std::cerr << "librednn-bench: " << error << "\n";
            return kExitUsage;
        }
    }
    std::vector<Case> cases;
    if (!build_cases(sources, options.dirs, options.defaults, &cases, &error)) {
        std::cerr << "librednn-bench: " << error << "\n";
        return kExitUsage;
    }
    if (options.list) {
        for (const Case &entry : cases) std::cout << entry.problem->text() << "\n";
        return kExitOk;
    }

    RunSettings settings;
    settings.check = options.check;
    settings.runs = options.runs;
    settings.warmup = options.warmup;
    settings.seed = options.seed;
    // LIBREDNN_BACKEND=host makes LibreDNN compute on the host whatever the machine has: so must the bench.
    const char *backend = std::getenv("LIBREDNN_BACKEND");
    const bool host_requested = options.host || (backend != nullptr && std::string(backend) == "host");
    settings.platform = detect_platform(host_requested);
    // LibreDNN picks its backend when the handle is created: with host memory it must compute on the host.
    if (settings.platform.memory == MemoryKind::host) setenv("LIBREDNN_BACKEND", "host", 1);

    // Open every library before any handle exists, non-LibreDNN ones first, and make each load its
    // sub-libraries now: a cuDNN 8 from NVIDIA finds its sub-libraries by soname, and must not be
    // handed LibreDNN's (which LibreDNN's shim loads by path from its own directory).
    std::vector<std::pair<std::string, std::string>> wanted = {{"lib", options.lib}};
    if (!options.vs.empty()) wanted.emplace_back("vs", options.vs);
    std::vector<std::unique_ptr<Library>> libraries(wanted.size());
    for (size_t i = 0; i < wanted.size(); ++i) {
        libraries[i] = Library::open(wanted[i].second, &error);
        if (!libraries[i]) {
            std::cerr << "librednn-bench: --" << wanted[i].first << ": " << error << "\n";
            return kExitFailed;
        }
    }
    for (int librednn_pass = 0; librednn_pass < 2; ++librednn_pass)
        for (const auto &library : libraries)
            if (library->is_librednn() == (librednn_pass == 1))
                for (const std::string &warning : library->load_sub_libraries())
                    std::cerr << "librednn-bench: warning: " << library->describe() << ": " << warning << "\n";

    RunInfo info;
    info.check = options.check;
    info.platform = settings.platform;
    info.runs = options.runs;
    info.warmup = options.warmup;
    info.seed = options.seed;
    info.date = utc_now();
    info.command = command_line(argc, argv);
    std::vector<std::unique_ptr<Session>> sessions;
    for (size_t i = 0; i < libraries.size(); ++i) {
        const bool librednn = libraries[i]->is_librednn();
        if (settings.platform.memory == MemoryKind::host && !librednn) {
            std::cerr << "librednn-bench: --" << wanted[i].first << ": " << libraries[i]->describe()
                      << " computes on a GPU only, and this run uses host memory ("
                      << (host_requested ? "--host or LIBREDNN_BACKEND=host" : "no usable CUDA device") << ")\n";
            return kExitFailed;
        }
        info.libraries.push_back(LibraryInfo{wanted[i].first, wanted[i].second, libraries[i]->describe(),
                                             libraries[i]->version(), librednn});
        sessions.push_back(Session::start(std::move(libraries[i]), wanted[i].first, &error));
        if (!sessions.back()) {
            std::cerr << "librednn-bench: --" << wanted[i].first << ": " << error << "\n";
            return kExitFailed;
        }
    }
    std::vector<Session *> session_pointers;
    for (const auto &session : sessions) session_pointers.push_back(session.get());

    const bool progress = isatty(STDERR_FILENO);
    std::vector<CaseResult> results;
    for (size_t i = 0; i < cases.size(); ++i) {
        if (progress)
            std::cerr << "\r[" << i + 1 << "/" << cases.size() << "] " << cases[i].group << " " << cases[i].name
                      << "\033[K" << std::flush;
        results.push_back(run_case(cases[i], session_pointers, settings));
    }
    if (progress) std::cerr << "\r\033[K" << std::flush;

    print_report(std::cout, info, results);
    int status = kExitOk;
    for (const CaseResult &result : results)
        for (const LibraryResult &library : result.libraries)
            if (library.outcome.kind() == Outcome::Kind::failed) status = kExitFailed;
    const auto write = [&](const std::string &path, bool (*writer)(const std::string &, const RunInfo &,
                                                                   const std::vector<CaseResult> &, std::string *)) {
        if (path.empty()) return;
        if (!writer(path, info, results, &error)) {
            std::cerr << "librednn-bench: " << error << "\n";
            status = kExitFailed;
        }
    };
    write(options.json, write_json);
    write(options.csv, write_csv);
    write(options.markdown, write_markdown);
    return status;
}

}  // namespace
}  // namespace librednn::bench

int main(int argc, char **argv) {
    try {
        return librednn::bench::run(argc, argv);
    } catch (const std::exception &exception) {
        std::cerr << "librednn-bench: " << exception.what() << "\n";
        return 1;
    }
}
