// What a run measures: problems from --problem strings and from problem-set files (bench/sets/*.tsv),
// expanded over the --dir list into cases, each with its name, count and group.
#pragma once

#include "problem.hpp"

#include <memory>
#include <string>
#include <vector>

namespace librednn::bench {

// One row of a problem set, or one --problem string, before --dir and the other defaults apply.
struct ProblemSource {
    std::string name;   // the set's name column; empty for a --problem string
    int64_t count = 1;  // occurrences in the network the set describes
    ProblemString text;
    bool from_set = false;
};

struct Case {
    std::unique_ptr<Problem> problem;
    std::string name;  // "conv1", or "problem 2" for a --problem string
    int64_t count = 1;
    std::string
        group;  // the --dir pass it belongs to (a string fixing its own direction: that one); summaries are per group
};

// Reads a problem set. Three kinds, told apart by their header:
//   convolutions: name count c h w k r s pad_h pad_w stride_h stride_w dil_h dil_w groups
//   strings:      name count problem   (a whole problem string, e.g. "op=rnn cell=lstm ...")
//   other ops:    op name count c h w params   (op: bn relu maxpool avgpool add softmax; params: key=value
//                 tokens, a bare word is the mode, rows=N sets the batch)
// Blank lines and lines starting with '#' are skipped. Errors name the file and line.
bool read_problem_set(const std::string &path, std::vector<ProblemSource> *sources, std::string *error);

// Parses each source once per direction of `dirs` (with `defaults.dir` set to it). A direction an op
// does not have is skipped; a --problem string that fixes its own direction (dir= or phase=) is parsed
// once, and repeated --problem strings are measured once. Set rows are never merged across directions:
// each direction's pass is a whole network's worth.
bool build_cases(const std::vector<ProblemSource> &sources, const std::vector<std::string> &dirs,
                 const ProblemDefaults &defaults, std::vector<Case> *cases, std::string *error);

}  // namespace librednn::bench
