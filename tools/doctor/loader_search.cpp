// The loader's search for a library by name, step by step (glibc's order, see loader_search.hpp).
#include "loader_search.hpp"

#include "child_process.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace librednn::doctor {
namespace {

#if defined(__x86_64__)
constexpr const char *kTriplet = "x86_64-linux-gnu";
constexpr const char *kPlatform = "x86_64";
constexpr const char *kInterpreter = "/lib64/ld-linux-x86-64.so.2";
constexpr uint16_t kHostMachine = 62;
#elif defined(__aarch64__)
constexpr const char *kTriplet = "aarch64-linux-gnu";
constexpr const char *kPlatform = "aarch64";
constexpr const char *kInterpreter = "/lib/ld-linux-aarch64.so.1";
constexpr uint16_t kHostMachine = 183;
#else
constexpr const char *kTriplet = "";
constexpr const char *kPlatform = "";
constexpr const char *kInterpreter = "";
constexpr uint16_t kHostMachine = 0;
#endif

bool is_directory(const std::string &path) {
    struct stat info;
    return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

bool exists(const std::string &path) {
    struct stat info;
    return ::stat(path.c_str(), &info) == 0;
}

std::string join(const std::string &directory, const std::string &name) {
    if (directory.empty()) return name;  // an empty entry is the current directory
    return directory.back() == '/' ? directory + name : directory + "/" + name;
}

// The system directories as the loader itself lists them (glibc 2.33 and later print them).
std::vector<std::string> loader_system_dirs() {
    std::vector<std::string> dirs;
    if (kInterpreter[0] == '\0' || !exists(kInterpreter)) return dirs;
    const ChildOutcome help = run_program({kInterpreter, "--help"}, 5000);
    if (!help.ok()) return dirs;
    std::istringstream lines(help.messages);
    std::string line;
    while (std::getline(lines, line)) {
        const size_t tag = line.find(" (system search path)");
        if (tag == std::string::npos) continue;
        const size_t start = line.find_first_not_of(" \t");
        if (start < tag) dirs.push_back(line.substr(start, tag - start));
    }
    return dirs;
}

std::string lib_expansion() {
    const std::string multiarch = std::string("lib/") + kTriplet;
    return kTriplet[0] != '\0' && is_directory("/" + multiarch) ? multiarch : "lib64";
}

}  // namespace

std::string directory_of(const std::string &path) {
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

std::string base_name(const std::string &path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::vector<std::string> split_search_path(const std::string &text) {
    std::vector<std::string> parts;
    if (text.empty()) return parts;
    size_t start = 0;
    while (true) {
        const size_t colon = text.find(':', start);
        parts.push_back(text.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    return parts;
}

std::string expand_search_entry(const std::string &entry, const std::string &origin) {
    std::string out;
    for (size_t i = 0; i < entry.size();) {
        if (entry[i] != '$') {
            out += entry[i++];
            continue;
        }
        auto token = [&](const char *name, const std::string &value) {
            const std::string plain = std::string("$") + name, braced = std::string("${") + name + "}";
            if (entry.compare(i, braced.size(), braced) == 0) {
                out += value;
                i += braced.size();
                return true;
            }
            // $ORIGIN must not be the prefix of a longer name ($ORIGINAL is not $ORIGIN).
            if (entry.compare(i, plain.size(), plain) == 0) {
                const size_t after = i + plain.size();
                if (after == entry.size() ||
                    !(std::isalnum(static_cast<unsigned char>(entry[after])) || entry[after] == '_')) {
                    out += value;
                    i = after;
                    return true;
                }
            }
            return false;
        };
        if (token("ORIGIN", origin) || token("LIB", lib_expansion()) || token("PLATFORM", kPlatform)) continue;
        out += entry[i++];
    }
    return out;
}

bool loadable_by(const std::string &path, int elf_class, uint16_t machine, std::string *why) {
    FILE *file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) {
        *why = std::string("cannot open: ") + std::strerror(errno);
        return false;
    }
    unsigned char header[20] = {};
    const size_t got = std::fread(header, 1, sizeof header, file);
    std::fclose(file);
    if (got < sizeof header || std::memcmp(header,
                                           "\x7f"
                                           "ELF",
                                           4) != 0) {
        *why = got < 4 ? "not an ELF file (too short)" : "not an ELF file";
        return false;
    }
    const int file_class = header[4] == 2 ? 64 : header[4] == 1 ? 32 : 0;
    if (file_class != elf_class) {
        *why = "ELF " + std::to_string(file_class) + "-bit, the process is " + std::to_string(elf_class) + "-bit";
        return false;
    }
    const uint16_t file_machine = header[5] == 2 ? static_cast<uint16_t>(header[18] << 8 | header[19])
                                                 : static_cast<uint16_t>(header[19] << 8 | header[18]);
    if (machine != 0 && file_machine != machine) {
        *why =
            "built for ELF machine " + std::to_string(file_machine) + ", the process needs " + std::to_string(machine);
        return false;
    }
    return true;
}

LoaderEnvironment current_loader_environment(const std::string &cache_path,
                                             const std::vector<std::string> &system_dirs) {
    LoaderEnvironment loader;
    const char *ld_library_path = std::getenv("LD_LIBRARY_PATH");
    // glibc splits LD_LIBRARY_PATH at ':' and ';'.
    std::string normalized = ld_library_path ? ld_library_path : "";
    for (char &c : normalized) {
        if (c == ';') c = ':';
    }
    loader.ld_library_path = split_search_path(normalized);
    loader.cache = load_ld_cache(cache_path);
    loader.machine = kHostMachine;
    loader.elf_class = sizeof(void *) == 8 ? 64 : 32;
    if (!system_dirs.empty()) {
        loader.system_dirs = system_dirs;
    } else {
        loader.system_dirs = loader_system_dirs();
    }
    if (loader.system_dirs.empty()) {
        const std::string triplet = kTriplet;
        const bool multiarch = !triplet.empty() && is_directory("/usr/lib/" + triplet);
        if (multiarch) {
            loader.system_dirs = {"/lib/" + triplet, "/usr/lib/" + triplet, "/lib", "/usr/lib"};
        } else {
            loader.system_dirs = {"/lib64", "/usr/lib64", "/lib", "/usr/lib"};
        }
    }
    return loader;
}

std::string SearchResult::explain() const {
    if (!found) return "not found (tried " + std::to_string(steps.size()) + " places)";
    return path + " (via " + source + ")";
}

SearchResult find_library(const std::string &name, const Requester &requester, const LoaderEnvironment &loader) {
    SearchResult result;
    // One candidate: stat, then the ELF class/machine check the loader applies before accepting it.
    auto try_file = [&](const std::string &source, const std::string &candidate) {
        SearchStep step{source, candidate, "not there"};
        std::string why;
        if (exists(candidate)) {
            if (loadable_by(candidate, loader.elf_class, loader.machine, &why)) {
                step.outcome = "found";
                result.found = true;
                result.path = candidate;
                result.source = source;
            } else {
                step.outcome = "skipped: " + why;
            }
        }
        result.steps.push_back(std::move(step));
        return result.found;
    };
    auto try_dirs = [&](const std::string &source, const std::string &raw, const std::string &origin) {
        for (const std::string &entry : split_search_path(raw)) {
            if (try_file(source, join(expand_search_entry(entry, origin), name))) return true;
        }
        return false;
    };

    if (name.find('/') != std::string::npos) {
        try_file("the path itself", name);
        return result;
    }
    const std::string requester_name = requester.path.empty() ? "the program" : base_name(requester.path);
    if (requester.runpath.empty()) {
        if (try_dirs("DT_RPATH of " + requester_name, requester.rpath, directory_of(requester.path))) return result;
        for (const Requester &parent : requester.loaders) {
            if (!parent.runpath.empty()) continue;
            if (try_dirs("DT_RPATH of " + base_name(parent.path) + " (which loaded " + requester_name + ")",
                         parent.rpath, directory_of(parent.path))) {
                return result;
            }
        }
    }
    for (const std::string &entry : loader.ld_library_path) {
        if (try_file("LD_LIBRARY_PATH", join(entry, name))) return result;
    }
    if (try_dirs("DT_RUNPATH of " + requester_name, requester.runpath, directory_of(requester.path))) return result;
    if (const LdCacheEntry *cached = loader.cache.find(name)) {
        if (try_file("ld.so.cache", cached->path)) return result;
    } else {
        result.steps.push_back({"ld.so.cache", name, loader.cache.source == "none" ? "no cache" : "no entry"});
    }
    for (const std::string &dir : loader.system_dirs) {
        if (try_file("system directory", join(dir, name))) return result;
    }
    return result;
}

}  // namespace librednn::doctor
