// Static and loading probes of one library file.
#include "library_probe.hpp"

#include "child_process.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace librednn::doctor {
namespace {

constexpr uint64_t kLargestReadable = uint64_t{4} << 30;
constexpr char kMarker[] = "LIBREDNN_BUILD_ID=";
constexpr size_t kMarkerLength = sizeof kMarker - 1;
constexpr size_t kBuildIdLength = 16;

std::string find_build_id(const std::vector<uint8_t> &bytes) {
    const uint8_t *begin = bytes.data(), *end = bytes.data() + bytes.size();
    const uint8_t *at = begin;
    while (true) {
        at = std::search(at, end, kMarker, kMarker + kMarkerLength);
        if (at == end) return {};
        const size_t start = static_cast<size_t>(at - begin) + kMarkerLength;
        if (start + kBuildIdLength <= bytes.size()) {
            const std::string id(reinterpret_cast<const char *>(begin + start), kBuildIdLength);
            if (is_build_id(id)) return id;
        }
        ++at;
    }
}

}  // namespace

bool is_build_id(const std::string &text) {
    if (text.size() != kBuildIdLength) return false;
    return std::all_of(text.begin(), text.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

StaticProbe probe_statically(const std::string &path) {
    StaticProbe probe;
    probe.path = path;
    struct stat info;
    if (::stat(path.c_str(), &info) != 0) {
        probe.error = "cannot read " + path + ": " + std::strerror(errno);
        return probe;
    }
    probe.size = static_cast<uint64_t>(info.st_size);
    if (probe.size > kLargestReadable) {
        probe.error = path + " is " + std::to_string(probe.size >> 30) + " GiB, too large for a shared library";
        return probe;
    }
    std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) {
        probe.error = "cannot read " + path + ": " + std::strerror(errno);
        return probe;
    }
    std::vector<uint8_t> bytes(static_cast<size_t>(probe.size));
    const size_t got = bytes.empty() ? 0 : std::fread(bytes.data(), 1, bytes.size(), file.get());
    if (got != bytes.size()) {
        probe.error = "cannot read " + path + ": " + (std::ferror(file.get()) ? std::strerror(errno) : "short read");
        return probe;
    }
    probe.readable = true;
    std::string error;
    probe.elf_ok = tools::parse_elf(bytes, &probe.elf, &error);
    if (!probe.elf_ok) probe.error = error;
    probe.librednn_build_id = find_build_id(bytes);
    for (const tools::ElfSymbol &symbol : probe.elf.dynamic_symbols) {
        if (symbol.name == "cudnnGetVersion" && symbol.defined) probe.exports_cudnn_get_version = true;
    }
    return probe;
}

LoadProbe probe_by_loading(const std::string &path, int timeout_ms) {
    const ChildOutcome outcome = run_in_child(
        [&](ChildReport &report) {
            void *library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (library == nullptr) {
                const char *why = ::dlerror();
                report.put("dlerror", why ? why : "dlopen failed without a reason");
                return 3;
            }
            report.put("loaded", "1");
            using SizeFunction = size_t (*)();
            using TextFunction = const char *(*)();
            if (auto get_version = reinterpret_cast<SizeFunction>(::dlsym(library, "cudnnGetVersion"))) {
                report.put("cudnn_version", static_cast<long long>(get_version()));
            }
            if (auto get_cudart = reinterpret_cast<SizeFunction>(::dlsym(library, "cudnnGetCudartVersion"))) {
                report.put("cudart_version", static_cast<long long>(get_cudart()));
            }
            if (auto get_max = reinterpret_cast<SizeFunction>(::dlsym(library, "cudnnGetMaxDeviceVersion"))) {
                report.put("max_device_version", static_cast<long long>(get_max()));
            }
            if (auto version = reinterpret_cast<TextFunction>(::dlsym(library, "librednnGetVersionString"))) {
                const char *text = version();
                report.put("librednn_version", text ? text : "");
            }
            if (auto build_id = reinterpret_cast<TextFunction>(::dlsym(library, "librednnGetBuildId"))) {
                const char *text = build_id();
                report.put("librednn_build_id", text ? text : "");
            }
            return 0;
        },
        timeout_ms);

    LoadProbe probe;
    probe.messages = outcome.last_message_line();
    probe.loaded = outcome.get("loaded") == "1";
    auto number = [&](const char *key) { return outcome.has(key) ? std::atoll(outcome.get(key).c_str()) : -1; };
    probe.cudnn_version = number("cudnn_version");
    probe.cudart_version = number("cudart_version");
    probe.max_device_version = number("max_device_version");
    probe.librednn_version = outcome.get("librednn_version");
    probe.librednn_build_id = outcome.get("librednn_build_id");
    if (outcome.has("dlerror")) {
        probe.error = outcome.get("dlerror");
    } else if (!outcome.ok()) {
        // Loaded (or not) and then died: a constructor or a version function aborted or crashed.
        probe.loaded = false;
        probe.error = "the process loading it " + outcome.describe();
        if (!probe.messages.empty()) probe.error += "; it printed: " + probe.messages;
    }
    return probe;
}

}  // namespace librednn::doctor
