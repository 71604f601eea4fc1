// Inspecting a Windows cuDNN package with the PE reader (see windows_package.hpp).
#include "windows_package.hpp"

#include "cudnn_names.hpp"
#include "headers.hpp"
#include "pe_file.hpp"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace librednn::doctor {
namespace {

constexpr int kMaxDepth = 8;
constexpr size_t kMaxEntries = 50000;

std::string lowercase(std::string text) {
    for (char &c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

bool ends_with(const std::string &text, const std::string &suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

struct PackageFile {
    std::string path, directory, name, lower;
};

void walk(const std::string &directory, int depth, std::vector<PackageFile> *files, size_t *entries) {
    if (depth > kMaxDepth) return;
    DIR *dir = ::opendir(directory.c_str());
    if (dir == nullptr) return;
    while (const dirent *entry = ::readdir(dir)) {
        if (++*entries > kMaxEntries) break;
        const std::string name = entry->d_name;
        if (name == "." || name == "..") continue;
        const std::string path = directory + "/" + name;
        struct stat info;
        if (::lstat(path.c_str(), &info) != 0) continue;
        if (S_ISDIR(info.st_mode)) {
            walk(path, depth + 1, files, entries);
        } else if (S_ISREG(info.st_mode)) {
            files->push_back({path, directory, name, lowercase(name)});
        }
    }
    ::closedir(dir);
}

std::string join_words(const std::vector<std::string> &words) {
    std::string text;
    for (size_t i = 0; i < words.size(); ++i) text += (i ? ", " : "") + words[i];
    return text;
}

// "cudnn_ops_infer64_8.dll" -> major 8 (the digits after the last "64_").
int cudnn_dll_major(const std::string &lower) {
    if (lower.compare(0, 5, "cudnn") != 0 || !ends_with(lower, ".dll")) return -1;
    const size_t marker = lower.rfind("64_");
    if (marker == std::string::npos) return -1;
    const std::string digits = lower.substr(marker + 3, lower.size() - 4 - marker - 3);
    if (digits.empty() || digits.size() > 2 || !std::all_of(digits.begin(), digits.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c)) != 0;
        }))
        return -1;
    return std::atoi(digits.c_str());
}

bool is_msvc_runtime(const std::string &lower) {
    return lower.compare(0, 6, "msvcp1") == 0 || lower.compare(0, 9, "vcruntime") == 0 ||
           lower.compare(0, 11, "api-ms-win-") == 0 || lower == "ucrtbase.dll";
}

void inspect_set(const std::string &directory, int major, const std::vector<PackageFile> &all, Report *report) {
    Section &section =
        report->section("windows", "Windows cuDNN " + std::to_string(major) + " DLLs in " + directory, directory);
    section.facts["major"] = std::to_string(major);

    // 1. The set.
    std::map<std::string, const PackageFile *> here;
    for (const PackageFile &file : all) {
        if (file.directory == directory) here[file.lower] = &file;
    }
    std::vector<std::string> missing, present;
    for (const std::string &stem : library_set(major)) {
        const std::string dll = dll_name_of(stem, major);
        (here.count(dll) ? present : missing).push_back(dll);
    }
    if (missing.empty()) {
        section.add("windows.complete", Verdict::pass,
                    "all " + std::to_string(present.size()) + " DLLs of the cuDNN " + std::to_string(major) +
                        " set are present");
    } else {
        Check &check =
            section.add("windows.complete", Verdict::fail,
                        "missing " + join_words(missing) + " (" + std::to_string(present.size()) + " of " +
                            std::to_string(present.size() + missing.size()) + " present)",
                        "Unpack the complete cuDNN package: every DLL of the set must sit in one directory on PATH.");
        for (const std::string &stem : library_set(major)) {
            if (!here.count(dll_name_of(stem, major)))
                check.details.push_back(dll_name_of(stem, major) + ": " + role_of(stem));
        }
    }

    // 2. PE facts of each DLL.
    std::map<std::string, tools::PeInfo> infos;
    std::vector<std::string> unreadable;
    for (const std::string &dll : present) {
        tools::PeInfo info;
        std::string error;
        if (tools::read_pe_file(here[dll]->path, &info, &error)) {
            infos[dll] = info;
        } else {
            unreadable.push_back(error);
        }
    }
    std::set<std::string> machines;
    for (const auto &[dll, info] : infos) machines.insert(info.machine_name);
    if (!unreadable.empty()) {
        Check &check = section.add("windows.files", Verdict::fail,
                                   std::to_string(unreadable.size()) + " DLL(s) are damaged or not PE files",
                                   "Download and unpack the package again.");
        check.details = unreadable;
    }
    if (!infos.empty()) {
        const bool all_x64 =
            machines.size() == 1 && *machines.begin() == tools::pe_machine_name(tools::kPeMachineAmd64);
        const bool any_x86 = machines.count(tools::pe_machine_name(tools::kPeMachineI386)) != 0;
        Verdict verdict = all_x64 ? Verdict::pass : (any_x86 || machines.size() > 1) ? Verdict::fail : Verdict::info;
        Check &check =
            section.add("windows.machine", verdict,
                        "PE machine: " + join_words(std::vector<std::string>(machines.begin(), machines.end())),
                        verdict == Verdict::fail ? "Use the x64 package throughout: a 64-bit program cannot load a "
                                                   "32-bit DLL (error 193), and one package must not mix machines."
                                                 : "");
        for (const auto &[dll, info] : infos) check.details.push_back(dll + ": " + info.machine_name);
    }

    // 3. Imports: CUDA majors, zlib, the MSVC runtime.
    std::map<int, std::set<std::string>> cuda_majors;  // major -> DLLs that need it
    std::set<std::string> cuda_dlls, msvc, zlib_users;
    for (const auto &[dll, info] : infos) {
        std::vector<std::string> imports = info.imports;
        imports.insert(imports.end(), info.delay_imports.begin(), info.delay_imports.end());
        for (const std::string &import : imports) {
            const std::string lower = lowercase(import);
            const int cuda = cuda_major_of_dll(lower);
            if (cuda > 0) {
                cuda_majors[cuda].insert(dll);
                cuda_dlls.insert(lower);
            }
            if (is_msvc_runtime(lower)) msvc.insert(lower);
            if (lower == "zlibwapi.dll") zlib_users.insert(dll);
        }
    }
    if (cuda_majors.size() > 1) {
        Check &check = section.add("windows.cuda_imports", Verdict::fail,
                                   "the DLLs need CUDA DLLs of " + std::to_string(cuda_majors.size()) +
                                       " different major versions: the package mixes builds",
                                   "Use DLLs from one cuDNN package, built for the CUDA version installed.");
        for (const auto &[cuda, users] : cuda_majors) {
            check.details.push_back("CUDA " + std::to_string(cuda) + ": " + join_words({users.begin(), users.end()}));
        }
    } else if (cuda_majors.size() == 1) {
        std::vector<std::string> shipped, on_path;
        for (const std::string &dll : cuda_dlls) {
            bool found = false;
            for (const PackageFile &file : all) found |= file.lower == dll;
            (found ? shipped : on_path).push_back(dll);
        }
        Check &check = section.add("windows.cuda_imports", Verdict::pass,
                                   "built for CUDA " + std::to_string(cuda_majors.begin()->first) + ": imports " +
                                       join_words({cuda_dlls.begin(), cuda_dlls.end()}));
        if (!on_path.empty()) {
            check.details.push_back("must be on PATH (from the CUDA " + std::to_string(cuda_majors.begin()->first) +
                                    " toolkit): " + join_words(on_path));
        }
        if (!shipped.empty()) check.details.push_back("shipped in this package: " + join_words(shipped));
        check.show_details = true;
        section.facts["cuda_major"] = std::to_string(cuda_majors.begin()->first);
    } else if (!infos.empty()) {
        section.add("windows.cuda_imports", Verdict::info,
                    "no CUDA DLL imports (the CUDA runtime is linked statically)");
    }
    if (!zlib_users.empty()) {
        const PackageFile *zlib = nullptr;
        for (const PackageFile &file : all) {
            if (file.lower == "zlibwapi.dll") zlib = &file;
        }
        if (zlib == nullptr) {
            section.add("windows.zlib", Verdict::warn,
                        join_words({zlib_users.begin(), zlib_users.end()}) +
                            " import zlibwapi.dll, which is not in the package",
                        "Put a 64-bit zlibwapi.dll on PATH (cuDNN 8.3 and later need it; without it they fail with "
                        "'Could not locate zlibwapi.dll').");
        } else {
            tools::PeInfo info;
            std::string error;
            if (!tools::read_pe_file(zlib->path, &info, &error)) {
                section.add("windows.zlib", Verdict::fail, "zlibwapi.dll is damaged: " + error,
                            "Replace zlibwapi.dll with a 64-bit build of zlib's DLL.");
            } else if (info.machine != tools::kPeMachineAmd64) {
                section.add(
                    "windows.zlib", Verdict::fail,
                    "zlibwapi.dll at " + zlib->path + " is " + info.machine_name + ", not x64",
                    "Replace it with the 64-bit zlibwapi.dll: a 64-bit process cannot load a 32-bit DLL (error 193).");
            } else {
                section.add("windows.zlib", Verdict::pass, "zlibwapi.dll is present and 64-bit (" + zlib->path + ")");
            }
        }
    }
    if (!msvc.empty()) {
        section.add("windows.msvc_runtime", Verdict::info,
                    "needs the Microsoft Visual C++ runtime: " + join_words({msvc.begin(), msvc.end()}) +
                        " (the Visual C++ 2015-2022 Redistributable, x64)");
    }

    // 4. Version resources.
    std::map<std::string, std::vector<std::string>> by_version;
    std::vector<std::string> without;
    for (const auto &[dll, info] : infos) {
        if (info.has_version) {
            by_version[info.file_version.text()].push_back(dll);
        } else {
            without.push_back(dll);
        }
    }
    std::string dll_version;
    if (by_version.size() > 1) {
        Check &check =
            section.add("windows.versions", Verdict::fail,
                        "the DLLs carry " + std::to_string(by_version.size()) + " different file versions",
                        "Use the DLLs of one release: mixing them fails with CUDNN_STATUS_VERSION_MISMATCH.");
        for (const auto &[version, dlls] : by_version) check.details.push_back(version + ": " + join_words(dlls));
    } else if (by_version.size() == 1) {
        dll_version = by_version.begin()->first;
        Check &check =
            section.add("windows.versions", without.empty() ? Verdict::pass : Verdict::warn,
                        "file version " + dll_version + (without.empty() ? " in every DLL" : ""),
                        without.empty() ? "" : "Check the DLLs without a version resource: they may not be NVIDIA's.");
        if (!without.empty()) check.details.push_back("no version resource: " + join_words(without));
        section.facts["file_version"] = dll_version;
    } else if (!infos.empty()) {
        section.add("windows.versions", Verdict::warn, "no DLL has a version resource",
                    "Check where these DLLs come from: NVIDIA's carry version resources.");
    }

    // 5. Headers and import libraries anywhere in the package.
    std::vector<HeaderInfo> headers;
    for (const PackageFile &file : all) {
        HeaderInfo header;
        if ((file.lower == "cudnn_version.h" || file.lower == "cudnn_version_v" + std::to_string(major) + ".h") &&
            read_header_version(file.path, &header)) {
            headers.push_back(header);
        }
    }
    if (headers.empty()) {
        section.add("windows.headers", Verdict::warn, "no cudnn_version.h in the package",
                    "Keep the package's include directory: programs are built against its headers.");
    } else {
        const Version declared = headers.front().version;
        const Version resource = parse_version(dll_version);
        const bool comparable = resource.major == major;
        const bool matches =
            !comparable || declared.compatible_with(Version{resource.major, resource.minor, resource.patch});
        section.add("windows.headers", matches ? Verdict::pass : Verdict::fail,
                    "cudnn_version.h (" + headers.front().path + ") declares " + declared.text() +
                        (comparable ? (matches ? ", matching the DLLs" : ", the DLLs are " + dll_version) : ""),
                    matches ? "" : "Use headers and DLLs of the same release.");
    }
    std::vector<std::string> libs_present, libs_missing;
    for (const std::string &stem : library_set(major)) {
        const std::string lib = stem + ".lib";
        bool found = false;
        for (const PackageFile &file : all) found |= file.lower == lib;
        (found ? libs_present : libs_missing).push_back(lib);
    }
    const bool has_main_lib = std::find(libs_present.begin(), libs_present.end(), "cudnn.lib") != libs_present.end();
    Check &libs = section.add(
        "windows.import_libraries", has_main_lib ? Verdict::pass : Verdict::warn,
        has_main_lib ? "import libraries present: " + join_words(libs_present)
                     : "no cudnn.lib: programs cannot be linked against this package",
        has_main_lib ? "" : "Keep the package's lib\\x64 directory (cudnn.lib and the per-library .lib files).");
    if (!libs_missing.empty() && has_main_lib) libs.details.push_back("not present: " + join_words(libs_missing));
}

}  // namespace

int cuda_major_of_dll(const std::string &lower) {
    // cudart64_110.dll, cublas64_11.dll, cublasLt64_12.dll, nvrtc64_112_0.dll, cufft64_11.dll
    static const char *const kPrefixes[] = {"cudart64_",         "cublaslt64_", "cublas64_", "nvrtc64_",
                                            "nvrtc-builtins64_", "cufft64_",    "curand64_", "cusolver64_",
                                            "cusparse64_",       "nvjitlink_"};
    for (const char *prefix : kPrefixes) {
        const std::string p = prefix;
        if (lower.compare(0, p.size(), p) != 0 || !ends_with(lower, ".dll")) continue;
        std::string digits;
        for (size_t i = p.size(); i < lower.size() && std::isdigit(static_cast<unsigned char>(lower[i])); ++i) {
            digits += lower[i];
        }
        if (digits.empty()) return -1;
        // Two digits are the major (cublas64_12); three are major and minor (cudart64_110, nvrtc64_112_0).
        return std::atoi(digits.substr(0, digits.size() >= 3 ? digits.size() - 1 : digits.size()).c_str());
    }
    return -1;
}

void inspect_windows_package(const std::string &directory, Report *report) {
    struct stat info;
    if (::stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
        Section &section = report->section("windows", "Windows package " + directory, directory);
        section.add("windows.read", Verdict::fail, directory + " is not a readable directory",
                    "Give --inspect the directory the Windows cuDNN package was unpacked into.");
        return;
    }
    std::vector<PackageFile> files;
    size_t entries = 0;
    walk(directory, 0, &files, &entries);
    // Each directory with cuDNN DLLs is one set (cuDNN 9 packages hold one per CUDA major: bin/12.x, bin/13.x).
    std::map<std::pair<std::string, int>, int> sets;
    for (const PackageFile &file : files) {
        const int major = cudnn_dll_major(file.lower);
        if (major > 0) sets[{file.directory, major}]++;
    }
    if (sets.empty()) {
        Section &section = report->section("windows", "Windows package " + directory, directory);
        section.add("windows.complete", Verdict::fail,
                    "no cuDNN DLLs (cudnn64_8.dll, cudnn64_9.dll, ...) under " + directory,
                    "Point --inspect at the unpacked package (its bin directory holds the DLLs).");
        return;
    }
    for (const auto &[key, count] : sets) inspect_set(key.first, key.second, files, report);
}

}  // namespace librednn::doctor
