// The command line of librednn-bench: options, their checks, and the help text.
#pragma once

#include "problem.hpp"

#include <string>
#include <vector>

namespace librednn::bench {

struct Options {
    std::string lib = "libcudnn.so.8";  // found through the loader's search path unless it holds a '/'
    std::string vs;                     // a second library measured beside the first
    std::vector<std::string> problems;  // --problem strings
    std::vector<std::string> sets;      // --set files
    ProblemDefaults defaults;           // --n --dtype --layout --math --find
    std::vector<std::string> dirs = {"fwd"};
    bool check = false;  // --check instead of --perf
    bool list = false;   // print the problems and stop
    bool host = false;   // host memory and wall-clock timing even with a GPU
    bool help = false;
    int runs = 30;
    int warmup = 5;
    unsigned long long seed = 1;
    std::string json, csv, markdown;  // result files
};

// Parses argv[1..]. Returns false with one sentence in *error on an unknown option, a missing or bad
// value, or a run without problems (main exits with code 2).
bool parse_command_line(const std::vector<std::string> &args, Options *options, std::string *error);

std::string usage();

}  // namespace librednn::bench
