// Hashing op problems (for Find caches and maps): two problems are equal exactly when their problem
// strings are, so the string's hash is the problem's.
#pragma once

#include "problem/problem_string.hpp"

#include <cstddef>
#include <functional>
#include <string>

namespace librednn {

// Usable as the Hash of an unordered container: std::unordered_map<ActivationProblem, T, ProblemHash>.
struct ProblemHash {
    template <class Problem>
    size_t operator()(const Problem &problem) const {
        return std::hash<std::string>{}(to_problem_string(problem).to_string());
    }
};

}  // namespace librednn
