// The dynamic loader's cache (/etc/ld.so.cache): which file each soname maps to, for this machine's
// architecture, read from the file itself or, when its format is unknown, from `ldconfig -p`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace librednn::doctor {

struct LdCacheEntry {
    std::string soname;  // "libcudnn.so.9"
    std::string path;    // "/usr/local/cuda-13.0/lib/libcudnn.so.9"
};

struct LdCache {
    std::string source;                 // "/etc/ld.so.cache", "ldconfig -p", or "none"
    std::string error;                  // why the cache could not be read, when it could not
    std::vector<LdCacheEntry> entries;  // in cache order, only entries for this machine's architecture

    // The first entry for `soname` (the loader takes the first that matches), or nullptr.
    const LdCacheEntry *find(const std::string &soname) const;
};

// Parses the new-format cache ("glibc-ld.so.cache1.1", alone or after the old "ld.so-1.7.0" table).
// `required_flags` selects the architecture (0x0300 for x86-64 libraries); entries of other
// architectures are dropped. Returns false with *error on anything malformed; never reads out of bounds.
bool parse_ld_cache(const std::vector<uint8_t> &bytes, uint32_t required_flags, LdCache *cache, std::string *error);

// Parses `ldconfig -p` output, keeping lines whose architecture tag names `arch_tag` ("x86-64").
void parse_ldconfig_output(const std::string &text, const std::string &arch_tag, LdCache *cache);

// This machine's cache: `path` (default /etc/ld.so.cache) parsed, else `ldconfig -p`. A path of
// "none" gives an empty cache (tests use it to isolate themselves from the machine).
LdCache load_ld_cache(const std::string &path);

// The ld.so.cache flags and the `ldconfig -p` tag of this build's architecture.
uint32_t host_cache_flags();
std::string host_arch_tag();

}  // namespace librednn::doctor
