// What one library file is, read two ways: statically (ELF headers, dynamic section, LibreDNN's build
// marker) without running any of its code, and by loading it in a child process (dlopen, then the
// version functions), so that a library that aborts or crashes on load takes only the child with it.
#pragma once

#include "elf_file.hpp"

#include <cstdint>
#include <string>

namespace librednn::doctor {

struct StaticProbe {
    std::string path;
    bool readable = false;
    std::string error;  // unreadable, not ELF, truncated: one sentence
    uint64_t size = 0;
    bool elf_ok = false;
    tools::ElfInfo elf;
    std::string librednn_build_id;  // the 16 hex digits after LIBREDNN_BUILD_ID=, when present
    bool exports_cudnn_get_version = false;
};

// Reads and parses the whole file once (libraries over 4 GiB are reported, not read).
StaticProbe probe_statically(const std::string &path);

struct LoadProbe {
    bool loaded = false;
    std::string error;                  // dlerror(), or how the child died ("was killed by signal 6 (Aborted)")
    std::string messages;               // what the library printed while loading (the last line)
    long long cudnn_version = -1;       // cudnnGetVersion()
    long long cudart_version = -1;      // cudnnGetCudartVersion()
    long long max_device_version = -1;  // cudnnGetMaxDeviceVersion() (cuDNN 9)
    std::string librednn_version;       // librednnGetVersionString(), LibreDNN's ops_infer only
    std::string librednn_build_id;      // librednnGetBuildId()
};

// dlopen(path, RTLD_NOW | RTLD_LOCAL) in a child, then the version functions it exports.
LoadProbe probe_by_loading(const std::string &path, int timeout_ms = 120000);

// True for a well-formed 16-hex-digit build id.
bool is_build_id(const std::string &text);

}  // namespace librednn::doctor
