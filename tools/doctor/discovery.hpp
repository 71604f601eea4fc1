// Discovery: every directory a program could load cuDNN from (LD_LIBRARY_PATH, the loader cache,
// system and CUDA directories, conda, Python environments, --lib), and the installations in them.
#pragma once

#include "cudnn_names.hpp"
#include "loader_search.hpp"

#include <string>
#include <vector>

namespace librednn::doctor {

struct Place {
    std::string directory;
    std::string reason;  // "LD_LIBRARY_PATH", "ld.so.cache", "CUDA toolkit", "Python site-packages", "--lib"
};

struct DiscoveryOptions {
    std::vector<std::string> extra_dirs;  // --lib
    bool search_machine = true;           // false: only extra_dirs (--no-discover)
    std::string home;                     // $HOME
    std::string conda_prefix, virtual_env, cuda_home;
};

DiscoveryOptions discovery_options_from_environment();

// The places to look, in a stable order, duplicates (same real directory) merged.
std::vector<Place> candidate_places(const DiscoveryOptions &options, const LoaderEnvironment &loader);

// One cuDNN file in a directory.
struct LibraryFile {
    std::string path;  // directory + "/" + name
    std::string name;
    LibraryName parsed;
    bool is_symlink = false;
    std::string link_target;  // readlink(), raw
    std::string resolved;     // realpath(); empty when the link is dangling
};

// The cuDNN files of one major version in one directory.
struct Installation {
    std::string directory;                // as first found ("/usr/local/cuda/lib64")
    std::string real_directory;           // realpath ("/usr/local/cuda-13.0/lib")
    std::vector<std::string> found_via;   // reasons of every place that led here
    std::vector<std::string> also_named;  // other spellings of the directory that were found
    int major = -1;                       // -1 when no file says which
    std::vector<LibraryFile> files;

    // The file named lib<stem>.so.<major>, or nullptr.
    const LibraryFile *soname_file(const std::string &stem) const;
    // All files of a stem (soname link, versioned file, development link).
    std::vector<const LibraryFile *> files_of(const std::string &stem) const;
};

// Lists each place and groups its cuDNN files by major version. Never follows a place twice.
std::vector<Installation> find_installations(const std::vector<Place> &places);

// The installation that holds `path` (compared by real directory and major), or nullptr.
const Installation *installation_holding(const std::vector<Installation> &installations, const std::string &path);

std::string real_path(const std::string &path);  // realpath(); empty when it does not resolve

}  // namespace librednn::doctor
