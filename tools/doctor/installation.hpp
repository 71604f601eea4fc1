// The checks of one installation: completeness of the library set, files (readable, ELF class and
// machine, intact), soname links, versions and build identity, loading, dependencies, the libraries
// cuDNN opens at run time, headers, and CUDA compatibility.
#pragma once

#include "cuda_check.hpp"
#include "discovery.hpp"
#include "library_probe.hpp"
#include "report.hpp"

#include <map>
#include <string>
#include <vector>

namespace librednn::doctor {

struct InstallationContext {
    const LoaderEnvironment &loader;
    const std::vector<Installation> &all;  // every installation found, for shadowing diagnoses
    const CudaFacts &cuda;
    std::string cuda_home;
    bool load_libraries = true;  // false (--no-load): static checks only
};

// What the checks learned, for the sections that come after (loader order, self-test).
struct InstallationFacts {
    const Installation *installation = nullptr;
    bool librednn = false;
    std::string vendor_title;  // "NVIDIA cuDNN 9.19.0", "LibreDNN 0.1.0 (cuDNN 8.9.7 API)"
    Version version;           // the release, from cudnnGetVersion where it loads, else from file names
    std::map<std::string, StaticProbe> statics;  // by stem, for the soname files present
    std::map<std::string, LoadProbe> loads;
    bool entry_loads = false;  // lib<cudnn>.so.<major> loaded in a child
    long long cudart_version = -1;
    int failures = 0;  // FAIL checks in its section

    std::string entry_path() const;  // the lib<cudnn>.so.<major> file, or empty
};

InstallationFacts examine_installation(const Installation &installation, const InstallationContext &context,
                                       Report *report);

}  // namespace librednn::doctor
