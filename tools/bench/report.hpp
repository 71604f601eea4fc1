// Reporting a run: the aligned table on stdout, the per-direction summary (count-weighted whole-set
// time, geometric means, ratio lib/vs), and the same results as JSON, CSV or markdown files.
#pragma once

#include "memory.hpp"
#include "runner.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace librednn::bench {

struct LibraryInfo {
    std::string role;         // "lib" or "vs"
    std::string path;         // as given
    std::string description;  // "NVIDIA cuDNN 9.19.0 at /path"
    long version = 0;
    bool librednn = false;
};

struct RunInfo {
    bool check = false;
    std::vector<LibraryInfo> libraries;
    Platform platform;
    int runs = 0, warmup = 0;
    unsigned long long seed = 0;
    std::string date;     // UTC, ISO 8601
    std::string command;  // the command line, for reproducing the run
};

struct LibrarySummary {
    int ran = 0;                // problems the library ran
    double total_ms = 0;        // sum over them of count * median
    double geomean_tflops = 0;  // over compute-bound problems (0 when none)
    double geomean_gbps = 0;    // over memory-bound problems (0 when none)
};

struct GroupSummary {
    std::string group;
    int problems = 0;
    std::vector<LibrarySummary> libraries;
    int compared = 0;          // problems every library ran
    double geomean_ratio = 0;  // of lib/vs time over them
    double total_ratio = 0;    // lib/vs whole-set time over them
};

std::vector<GroupSummary> summarize(const std::vector<CaseResult> &results, size_t library_count);

void print_report(std::ostream &out, const RunInfo &info, const std::vector<CaseResult> &results);
bool write_json(const std::string &path, const RunInfo &info, const std::vector<CaseResult> &results,
                std::string *error);
bool write_csv(const std::string &path, const RunInfo &info, const std::vector<CaseResult> &results,
               std::string *error);
bool write_markdown(const std::string &path, const RunInfo &info, const std::vector<CaseResult> &results,
                    std::string *error);

}  // namespace librednn::bench
