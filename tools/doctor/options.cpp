// Parsing cudnn-doctor's command line.
#include "options.hpp"

#include "loader_search.hpp"

#include <cstdlib>

namespace librednn::doctor {

std::string usage() {
    return "usage: cudnn-doctor [options]\n"
           "Finds every cuDNN on this machine, says which copy programs load and why, checks each installation\n"
           "(libraries, links, versions, dependencies, headers, CUDA) and runs a self-test.\n"
           "\n"
           "  --lib DIR            also look in DIR (repeatable); the self-test tests these\n"
           "  --no-discover        look only in the --lib directories\n"
           "  --for PATH           explain which cuDNN the program or shared library PATH loads (repeatable)\n"
           "  --inspect DIR        check an unpacked Windows cuDNN package (repeatable)\n"
           "  --self-test[=LEVEL]  1 loads, 2 computes correctly, 3 is fast (default 3); tests the --lib\n"
           "                       installations, else the copies a program loads by default\n"
           "  --json               print JSON instead of the report\n"
           "  --strict             count WARN as a problem (exit 1)\n"
           "  --verbose            show the details of passing checks too\n"
           "  --no-load            never load a library (static checks only; no self-test)\n"
           "  --seed N             seed of the self-test's random data (default: random, printed)\n"
           "  --stem-batch N       batch of the timed ResNet stem (default 8)\n"
           "  --ld-cache FILE      read this loader cache instead of /etc/ld.so.cache ('none': no cache)\n"
           "  --system-dirs D:D    the loader's system directories (default: what ld.so reports)\n"
           "  --help, --version\n"
           "\n"
           "Exit status: 0 healthy (no FAIL), 1 problems found, 2 the doctor itself failed.\n";
}

bool parse_options(int argc, char **argv, Options *options, std::string *error) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        // "--name VALUE" or "--name=VALUE".
        auto value = [&](const char *name, std::string *into) {
            const std::string flag = name;
            if (arg == flag) {
                if (i + 1 >= argc) {
                    *error = flag + " needs a value";
                    return false;
                }
                *into = argv[++i];
                return true;
            }
            if (arg.compare(0, flag.size() + 1, flag + "=") == 0) {
                *into = arg.substr(flag.size() + 1);
                return true;
            }
            return false;
        };
        auto number = [&](const std::string &text, long low, long high, long *into) {
            char *end = nullptr;
            const long parsed = std::strtol(text.c_str(), &end, 10);
            if (text.empty() || *end != '\0' || parsed < low || parsed > high) {
                *error = arg + ": expected a number from " + std::to_string(low) + " to " + std::to_string(high);
                return false;
            }
            *into = parsed;
            return true;
        };
        std::string text;
        long parsed = 0;
        if (arg == "--help" || arg == "-h") {
            options->help = true;
        } else if (arg == "--version") {
            options->version = true;
        } else if (arg == "--json") {
            options->json = true;
        } else if (arg == "--strict") {
            options->strict = true;
        } else if (arg == "--verbose" || arg == "-v") {
            options->verbose = true;
        } else if (arg == "--no-load") {
            options->load = false;
        } else if (arg == "--no-discover") {
            options->discover = false;
        } else if (arg == "--self-test") {
            options->self_test_level = 3;
        } else if (arg.compare(0, 12, "--self-test=") == 0) {
            if (!number(arg.substr(12), 1, 3, &parsed)) return false;
            options->self_test_level = static_cast<int>(parsed);
        } else if (value("--lib", &text)) {
            options->lib_dirs.push_back(text);
        } else if (value("--for", &text)) {
            options->for_programs.push_back(text);
        } else if (value("--inspect", &text)) {
            options->inspect_dirs.push_back(text);
        } else if (value("--seed", &text)) {
            if (!number(text, 0, 0x7fffffff, &parsed)) return false;
            options->seed = static_cast<unsigned>(parsed);
            options->seed_given = true;
        } else if (value("--stem-batch", &text)) {
            if (!number(text, 1, 256, &parsed)) return false;
            options->stem_batch = static_cast<int>(parsed);
        } else if (value("--ld-cache", &text)) {
            options->ld_cache = text;
        } else if (value("--system-dirs", &text)) {
            options->system_dirs = split_search_path(text);
        } else if (!error->empty()) {
            return false;  // a value-taking flag without its value
        } else {
            *error = "unknown option " + arg + " (see --help)";
            return false;
        }
        if (!error->empty()) return false;
    }
    if (!options->load && options->self_test_level > 0) {
        *error = "--self-test loads libraries; it cannot run with --no-load";
        return false;
    }
    return true;
}

}  // namespace librednn::doctor
