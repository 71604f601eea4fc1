// Command-line parsing and help.
#include "cli.hpp"

#include <cstdlib>
#include <set>
#include <sstream>

namespace librednn::bench {

namespace {

bool parse_positive(const std::string &text, long long minimum, long long *value) {
    char *end = nullptr;
    const long long parsed = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || parsed < minimum) return false;
    *value = parsed;
    return true;
}

bool one_of(const std::string &value, std::initializer_list<const char *> allowed) {
    for (const char *option : allowed)
        if (value == option) return true;
    return false;
}

}  // namespace

std::string usage() {
    return R"(librednn-bench: measure any cuDNN against any other, on the same problems, in the same run.

usage: librednn-bench [--lib PATH] [--vs PATH] (--problem "op=... " | --set FILE)... [options]

libraries
  --lib PATH        the cuDNN to measure (default libcudnn.so.8 from the loader's search path):
                    LibreDNN's libcudnn.so.8, NVIDIA's libcudnn.so.8 or libcudnn.so.9
  --vs PATH         a second cuDNN, measured on the same problems in the same run, interleaved;
                    the table adds its figures and the ratio lib/vs
problems
  --problem STR     one problem string (keys: docs/PROBLEMS.md), e.g.
                    "op=conv dir=fwd dtype=half layout=nhwc n=32 c=64 h=56 w=56 k=64 r=3 s=3 pad=1x1"
  --set FILE        a problem set (bench/sets/*.tsv); its count column weights the whole-set time
                    (a set with a problem column holds whole problem strings, e.g. bench/sets/rnn.tsv)
  --n N             batch size for sets and for strings without n= (default 32)
  --dtype T         float, double, half, bfloat16 or int8 (default float)
  --layout L        nchw or nhwc (default nchw)
  --dir LIST        comma list of fwd, bwd, bwd_data, bwd_filter, inference, step (default fwd);
                    each direction is one pass over the problems with its own whole-set total
                    (convolutions: fwd bwd_data bwd_filter; bn: inference, fwd = training forward,
                    bwd; activation, softmax, pooling: fwd bwd; tensor ops, reductions, set and
                    scale: fwd inference; rnn: inference, fwd = training forward, bwd_data,
                    bwd_filter = backward weights, step = forward, backward data and weights)
  --math M          default, tensor_op, tensor_op_allow_conversion or fma (default: default)
  --find            convolution algorithm from cudnnFind*AlgorithmEx instead of the heuristic's
                    first choice (a string's algo= key names one: algo=heuristic|find|N)
  --list            print each problem's string and stop
modes
  --perf            time each problem (default): warm-up, then the median of --runs CUDA-event
                    timings, inputs rotated through copies larger than the L2 cache
  --check           run each problem once on random data and compare with --vs (or LibreDNN's
                    host reference): ||out-ref||/||ref|| and the largest element error
  --runs N          timed runs per problem and library (default 30; use at least 20)
  --warmup N        untimed runs first (default 5; more until 20 ms have passed)
  --seed N          seed of the random inputs (default 1)
  --host            host memory and wall-clock timing even when a GPU is usable (LibreDNN's host
                    backend; without a GPU this is automatic)
output
  --json FILE, --csv FILE, --markdown FILE   results beside the table on stdout

exit code: 0 when every problem ran or was reported unsupported, 1 when a call failed or a library
could not be used, 2 for a bad command line or problem.
)";
}

bool parse_command_line(const std::vector<std::string> &args, Options *options, std::string *error) {
    bool perf_given = false;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string option = args[i], value;
        bool has_inline_value = false;
        const size_t eq = option.find('=');
        if (option.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = option.substr(eq + 1);
            option = option.substr(0, eq);
            has_inline_value = true;
        }
        const auto take_value = [&]() -> bool {
            if (has_inline_value) return true;
            if (i + 1 >= args.size()) {
                *error = option + " needs a value";
                return false;
            }
            value = args[++i];
            return true;
        };
        const auto flag = [&]() -> bool {
            if (has_inline_value) {
                *error = option + " takes no value";
                return false;
            }
            return true;
        };
        long long number = 0;
        if (option == "--help" || option == "-h") {
            options->help = true;
        } else if (option == "--lib" || option == "--vs" || option == "--problem" || option == "--set" ||
                   option == "--json" || option == "--csv" || option == "--markdown") {
            if (!take_value()) return false;
            if (value.empty()) {
                *error = option + " needs a non-empty value";
                return false;
            }
            if (option == "--lib") options->lib = value;
            if (option == "--vs") options->vs = value;
            if (option == "--problem") options->problems.push_back(value);
            if (option == "--set") options->sets.push_back(value);
            if (option == "--json") options->json = value;
            if (option == "--csv") options->csv = value;
            if (option == "--markdown") options->markdown = value;
        } else if (option == "--n" || option == "--runs" || option == "--warmup" || option == "--seed") {
            if (!take_value()) return false;
            const long long minimum = option == "--warmup" || option == "--seed" ? 0 : 1;
            if (!parse_positive(value, minimum, &number) || (option != "--seed" && number > 1000000000)) {
                *error = option + " must be an integer >= " + std::to_string(minimum) + ", got '" + value + "'";
                return false;
            }
            if (option == "--n") options->defaults.n = number;
            if (option == "--runs") options->runs = static_cast<int>(number);
            if (option == "--warmup") options->warmup = static_cast<int>(number);
            if (option == "--seed") options->seed = static_cast<unsigned long long>(number);
        } else if (option == "--dtype") {
            if (!take_value()) return false;
            if (!one_of(value, {"float", "double", "half", "bfloat16", "int8"})) {
                *error = "--dtype must be float, double, half, bfloat16 or int8, got '" + value + "'";
                return false;
            }
            options->defaults.dtype = value;
        } else if (option == "--layout") {
            if (!take_value()) return false;
            if (!one_of(value, {"nchw", "nhwc"})) {
                *error = "--layout must be nchw or nhwc, got '" + value + "'";
                return false;
            }
            options->defaults.layout = value;
        } else if (option == "--math") {
            if (!take_value()) return false;
            if (!one_of(value, {"default", "tensor_op", "tensor_op_allow_conversion", "fma"})) {
                *error = "--math must be default, tensor_op, tensor_op_allow_conversion or fma, got '" + value + "'";
                return false;
            }
            options->defaults.math = value;
        } else if (option == "--dir") {
            if (!take_value()) return false;
            options->dirs.clear();
            std::set<std::string> seen;
            std::istringstream list(value);
            std::string dir;
            while (std::getline(list, dir, ',')) {
                if (!one_of(dir, {"fwd", "bwd", "bwd_data", "bwd_filter", "inference", "step"})) {
                    *error = "--dir takes a comma list of fwd, bwd, bwd_data, bwd_filter, inference, step; got '" +
                             dir + "'";
                    return false;
                }
                if (seen.insert(dir).second) options->dirs.push_back(dir);
            }
            if (options->dirs.empty()) {
                *error = "--dir needs at least one direction";
                return false;
            }
        } else if (option == "--find") {
            if (!flag()) return false;
            options->defaults.algo = "find";
        } else if (option == "--perf" || option == "--check") {
            if (!flag()) return false;
            (option == "--perf" ? perf_given : options->check) = true;
        } else if (option == "--list" || option == "--host") {
            if (!flag()) return false;
            (option == "--list" ? options->list : options->host) = true;
        } else {
            *error = "unknown option '" + args[i] + "'";
            return false;
        }
    }
    if (options->help) return true;
    if (perf_given && options->check) {
        *error = "--perf and --check exclude each other: choose one mode";
        return false;
    }
    if (options->problems.empty() && options->sets.empty()) {
        *error = "nothing to run: give --problem STRING or --set FILE";
        return false;
    }
    return true;
}

}  // namespace librednn::bench
