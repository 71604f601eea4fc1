// Which copy of cuDNN the dynamic loader picks, and why: for a program without RPATH (the default),
// and for a given program or Python extension (--for), by walking its dependency tree the way ld.so
// does (breadth first, each soname loaded once, RPATH/RUNPATH/$ORIGIN of the object that needs it).
#pragma once

#include "discovery.hpp"
#include "installation.hpp"
#include "loader_search.hpp"
#include "report.hpp"

#include <string>
#include <vector>

namespace librednn::doctor {

// The "loader" section: for each cuDNN major present, the file a program linked with -lcudnn loads,
// what it shadows, and where that library's sub-libraries come from.
void report_default_loading(const std::vector<Installation> &installations, const std::vector<InstallationFacts> &facts,
                            const LoaderEnvironment &loader, Report *report);

// The "for" section: what `program` (an executable or a shared object such as a Python extension)
// loads, through which chain of objects, and every place the loader tried for cuDNN.
void report_program_loading(const std::string &program, const std::vector<Installation> &installations,
                            const std::vector<InstallationFacts> &facts, const LoaderEnvironment &loader,
                            Report *report);

}  // namespace librednn::doctor
