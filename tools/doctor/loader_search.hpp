// How the dynamic loader (glibc ld.so) finds a library by name: the requesting object's DT_RPATH,
// LD_LIBRARY_PATH, its DT_RUNPATH, /etc/ld.so.cache, the system directories; $ORIGIN expanded,
// files of the wrong ELF class or machine skipped. Every place tried is recorded, so the doctor can
// explain a choice, not just state it.
#pragma once

#include "ld_cache.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace librednn::doctor {

// What the loader must know about this machine and process.
struct LoaderEnvironment {
    std::vector<std::string> ld_library_path;  // entries in order; empty ones mean the current directory
    LdCache cache;
    std::vector<std::string> system_dirs;  // "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", ...
    int elf_class = 64;                    // of the process: libraries of another class are skipped
    uint16_t machine = 62;
};

// The environment of this process: $LD_LIBRARY_PATH, the cache (cache_path "" = /etc/ld.so.cache,
// "none" = empty), and system_dirs when given, else the loader's own list (`ld.so --help`) or glibc's
// usual one.
LoaderEnvironment current_loader_environment(const std::string &cache_path,
                                             const std::vector<std::string> &system_dirs);

// The object whose dependency (or dlopen) is being resolved, and the executable that loaded it.
struct Requester {
    std::string path;     // the file, as the loader found it ($ORIGIN is its directory)
    std::string rpath;    // DT_RPATH, raw (colon-separated, $ORIGIN not yet expanded)
    std::string runpath;  // DT_RUNPATH, raw
    // DT_RPATH of the objects that loaded this one, nearest first, each with its own path for
    // $ORIGIN: the loader also searches these when the requester has no DT_RUNPATH.
    std::vector<Requester> loaders;
};

struct SearchStep {
    std::string source;     // "DT_RUNPATH of libtorch_cuda.so", "LD_LIBRARY_PATH", "ld.so.cache", ...
    std::string candidate;  // the file tried
    std::string outcome;    // "not there", "skipped: ELF 32-bit, this process is 64-bit", "found"
};

struct SearchResult {
    bool found = false;
    std::string path;    // the file the loader opens
    std::string source;  // the search step that found it
    std::vector<SearchStep> steps;

    // "found via DT_RUNPATH of X at /dir/libfoo.so.1" or "not found (tried 9 places)".
    std::string explain() const;
};

// Resolves `name` (a soname like "libcudnn.so.8", or a path when it holds a '/') as the loader would.
SearchResult find_library(const std::string &name, const Requester &requester, const LoaderEnvironment &loader);

// Expands $ORIGIN, ${ORIGIN}, $LIB and $PLATFORM in one search path entry. `origin` is the directory
// of the object that carries the entry.
std::string expand_search_entry(const std::string &entry, const std::string &origin);

// Splits "a:b::c" at colons; empty entries are kept (the loader reads them as the current directory).
std::vector<std::string> split_search_path(const std::string &text);

// Whether the file at `path` is an ELF object the loader would accept for a process of
// `elf_class`/`machine`; *why gets a reason when not ("ELF 32-bit", "not an ELF file", "cannot open").
bool loadable_by(const std::string &path, int elf_class, uint16_t machine, std::string *why);

// The directory part of a path ("/a/b/libx.so" -> "/a/b"; "libx.so" -> ".").
std::string directory_of(const std::string &path);
std::string base_name(const std::string &path);

}  // namespace librednn::doctor
