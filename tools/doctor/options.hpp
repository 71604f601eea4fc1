// cudnn-doctor's command line.
#pragma once

#include <string>
#include <vector>

namespace librednn::doctor {

struct Options {
    std::vector<std::string> lib_dirs;      // --lib DIR
    bool discover = true;                   // --no-discover turns the machine-wide search off
    std::vector<std::string> for_programs;  // --for PATH
    std::vector<std::string> inspect_dirs;  // --inspect DIR
    int self_test_level = 0;                // --self-test[=LEVEL]; 0: no self-test
    bool json = false, strict = false, verbose = false, load = true;
    unsigned seed = 0;
    bool seed_given = false;
    int stem_batch = 8;
    std::string ld_cache;                  // --ld-cache FILE|none (tests)
    std::vector<std::string> system_dirs;  // --system-dirs DIR:DIR (tests)
    bool help = false, version = false;
};

// False with *error (one sentence) on a bad command line.
bool parse_options(int argc, char **argv, Options *options, std::string *error);

std::string usage();

}  // namespace librednn::doctor
