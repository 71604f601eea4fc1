// Per-installation checks (see installation.hpp); each adds one check with a one-sentence fix.
#include "installation.hpp"

#include "headers.hpp"

#include <algorithm>
#include <set>

namespace librednn::doctor {
namespace {

#if defined(__x86_64__)
constexpr uint16_t kExpectedMachine = 62;
#elif defined(__aarch64__)
constexpr uint16_t kExpectedMachine = 183;
#else
constexpr uint16_t kExpectedMachine = 0;
#endif

std::string join_words(const std::vector<std::string> &words) {
    std::string text;
    for (size_t i = 0; i < words.size(); ++i) text += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + words[i];
    return text;
}

// The most specific version a file's names give: its link target's ("libcudnn.so.8.9.7") or its own.
Version name_version(const LibraryFile &file) {
    LibraryName target;
    if (!file.resolved.empty() && parse_library_name(base_name(file.resolved), &target) && target.version.minor >= 0) {
        return target.version;
    }
    return file.parsed.version;
}

Verdict worst(Verdict a, Verdict b) {
    auto rank = [](Verdict v) { return v == Verdict::fail ? 3 : v == Verdict::warn ? 2 : v == Verdict::skip ? 1 : 0; };
    return rank(a) >= rank(b) ? a : b;
}

class Examiner {
public:
    Examiner(const Installation &installation, const InstallationContext &context, Report *report)
        : installation_(installation), context_(context), report_(report) {}

    InstallationFacts run() {
        facts_.installation = &installation_;
        probe();
        section_ = &report_->section("installation", title(), installation_.real_directory);
        section_->facts["directory"] = installation_.real_directory;
        section_->facts["major"] = std::to_string(installation_.major);
        section_->facts["version"] = facts_.version.text();
        section_->facts["vendor"] = facts_.librednn ? "LibreDNN" : "NVIDIA";
        if (facts_.cudart_version > 0) section_->facts["cudart_version"] = std::to_string(facts_.cudart_version);
        check_found();
        check_complete();
        check_files();
        check_links();
        check_versions();
        check_loads();
        check_dependencies();
        check_runtime_libraries();
        check_headers();
        check_cuda();
        check_gpu();
        for (const Check &check : section_->checks) facts_.failures += check.verdict == Verdict::fail;
        return facts_;
    }

private:
    void probe() {
        for (const std::string &stem : set()) {
            const LibraryFile *file = installation_.soname_file(stem);
            if (file == nullptr || file->resolved.empty()) {
                missing_.push_back(stem);
                continue;
            }
            present_.push_back(stem);
            facts_.statics[stem] = probe_statically(file->path);
            if (!facts_.statics[stem].librednn_build_id.empty()) facts_.librednn = true;
        }
        if (context_.load_libraries) {
            for (const std::string &stem : present_) {
                facts_.loads[stem] = probe_by_loading(installation_.soname_file(stem)->path);
            }
        }
        // The release: what the libraries say when loaded, else what their file names say.
        for (const std::string &stem : present_) {
            const auto load = facts_.loads.find(stem);
            if (load == facts_.loads.end() || !load->second.loaded) continue;
            if (stem == "cudnn") facts_.entry_loads = true;
            if (!facts_.version.known() && load->second.cudnn_version > 0) {
                facts_.version = decode_cudnn_version(load->second.cudnn_version);
            }
            if (facts_.cudart_version <= 0 && load->second.cudart_version > 0) {
                facts_.cudart_version = load->second.cudart_version;
            }
            if (!load->second.librednn_version.empty()) librednn_version_ = load->second.librednn_version;
        }
        if (!facts_.version.known()) {
            for (const std::string &stem : present_) {
                const Version version = name_version(*installation_.soname_file(stem));
                if (version.minor >= 0 || !facts_.version.known()) facts_.version = version;
                if (version.minor >= 0) break;
            }
        }
        if (!facts_.version.known()) facts_.version.major = installation_.major;
    }

    const std::vector<std::string> &set() const { return library_set(std::max(installation_.major, 0)); }

    std::string title() {
        std::string name;
        if (facts_.librednn) {
            name = librednn_version_.empty() ? "LibreDNN (cuDNN API " + facts_.version.text() + ")"
                                             : "LibreDNN " + librednn_version_;
        } else if (installation_.major < 0) {
            name = "cuDNN of unknown version";
        } else {
            name = "NVIDIA cuDNN " + facts_.version.text();
        }
        facts_.vendor_title = name;
        return name + " at " + installation_.real_directory;
    }

    std::string path_of(const std::string &stem) const {
        const LibraryFile *file = installation_.soname_file(stem);
        return file ? file->path : installation_.real_directory + "/" + soname_of(stem, installation_.major);
    }

    void check_found() {
        std::string summary = std::to_string(installation_.files.size()) + " cuDNN " +
                              (installation_.major >= 0 ? std::to_string(installation_.major) + " " : "") +
                              "files, found via " + join_words(installation_.found_via);
        if (!installation_.also_named.empty()) summary += "; also reached as " + join_words(installation_.also_named);
        if (installation_.directory != installation_.real_directory)
            summary += "; listed as " + installation_.directory;
        Check &check = section_->add("install.found", Verdict::info, summary);
        for (const LibraryFile &file : installation_.files) {
            check.details.push_back(file.name + (file.is_symlink ? " -> " + file.link_target : std::string()));
        }
    }

    void check_complete() {
        const int major = installation_.major;
        if (major < 8) {
            section_->add(
                "install.complete", major < 0 ? Verdict::warn : Verdict::info,
                major < 0 ? "no file here says which cuDNN version it belongs to"
                          : "cuDNN " + std::to_string(major) + " is a single library",
                major < 0 ? "Remove the stray libcudnn files or reinstall cuDNN so that its soname links exist." : "");
            return;
        }
        if (missing_.empty()) {
            section_->add("install.complete", Verdict::pass,
                          "all " + std::to_string(set().size()) + " libraries of the cuDNN " + std::to_string(major) +
                              " set are present");
            return;
        }
        std::vector<std::string> names;
        for (const std::string &stem : missing_) names.push_back(soname_of(stem, major));
        Check &check = section_->add("install.complete", Verdict::fail,
                                     "missing " + join_words(names) + " (" + std::to_string(present_.size()) + " of " +
                                         std::to_string(set().size()) + " present)",
                                     "Install every library of one cuDNN " + std::to_string(major) + " release into " +
                                         installation_.real_directory +
                                         ", or remove this partial copy so that programs find a complete one.");
        for (const std::string &stem : missing_) {
            check.details.push_back(soname_of(stem, major) + ": " + role_of(stem) + " -- calls that need it fail" +
                                    (facts_.librednn ? " with CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING"
                                                     : " (cuDNN 8 prints 'Could not load library' and aborts)"));
        }
    }

    void check_files() {
        Verdict verdict = Verdict::pass;
        std::vector<std::string> problems;
        std::string fix;
        for (const std::string &stem : present_) {
            const StaticProbe &probe = facts_.statics[stem];
            const std::string name = soname_of(stem, installation_.major);
            if (!probe.readable) {
                problems.push_back(probe.error);
                fix = "Make the files readable (chmod a+r) or reinstall them.";
            } else if (!probe.elf.is_elf) {
                problems.push_back(
                    name + " is not an ELF file (" + std::to_string(probe.size) +
                    " bytes): a failed download, an HTML page or a Git LFS pointer saved under a library's name");
                fix = "Download and reinstall the damaged files.";
            } else if (!probe.elf_ok && probe.elf.elf_class == 0) {
                problems.push_back(name + ": " + probe.error);
                fix = "Download and reinstall the damaged files.";
            } else if (probe.elf.elf_class != (sizeof(void *) == 8 ? 64 : 32) ||
                       (kExpectedMachine != 0 && probe.elf.machine != kExpectedMachine)) {
                problems.push_back(name + " is a " + std::to_string(probe.elf.elf_class) + "-bit " +
                                   probe.elf.machine_name + " library; this machine's programs are " +
                                   std::to_string(sizeof(void *) * 8) + "-bit " +
                                   tools::elf_machine_name(kExpectedMachine) + ", so the loader skips it");
                fix = "Install the cuDNN package built for " + tools::elf_machine_name(kExpectedMachine) + " Linux.";
            } else if (!probe.elf_ok) {
                problems.push_back(name + " is damaged: " + probe.error);
                fix = "Reinstall the damaged files: a truncated library fails to load or crashes when used.";
            } else if (probe.elf.type != 3) {
                problems.push_back(name + " is an ELF file but not a shared library (e_type " +
                                   std::to_string(probe.elf.type) + ")");
                fix = "Replace it with the real shared library from the cuDNN package.";
            }
        }
        if (!problems.empty()) verdict = Verdict::fail;
        const std::string machine =
            std::to_string(sizeof(void *) * 8) + "-bit " + tools::elf_machine_name(kExpectedMachine);
        Check &check = section_->add("install.files", verdict,
                                     problems.empty() ? "all " + std::to_string(present_.size()) +
                                                            " libraries are intact " + machine + " shared objects"
                                                      : std::to_string(problems.size()) + " of " +
                                                            std::to_string(present_.size()) + " libraries are unusable",
                                     fix);
        check.details = problems;
    }

    void check_links() {
        std::vector<std::string> problems, notes;
        Verdict verdict = Verdict::pass;
        std::string fix;
        for (const std::string &stem : set()) {
            const std::string soname = soname_of(stem, installation_.major);
            const LibraryFile *soname_file = installation_.soname_file(stem);
            const std::vector<const LibraryFile *> files = installation_.files_of(stem);
            if (soname_file == nullptr && !files.empty()) {
                std::string others;
                for (const LibraryFile *file : files) others += (others.empty() ? "" : ", ") + file->name;
                problems.push_back(soname + " is missing although " + others +
                                   " is here: the loader looks for the soname");
                verdict = Verdict::fail;
                fix = "Create the soname links (run ldconfig " + installation_.real_directory +
                      " or ln -s) or reinstall.";
            } else if (soname_file != nullptr && soname_file->resolved.empty()) {
                problems.push_back(soname + " -> " + soname_file->link_target + " points to nothing (dangling link)");
                verdict = Verdict::fail;
                fix = "Point the link at the library that is installed (ln -sf) or reinstall the package.";
            } else if (soname_file != nullptr) {
                const auto probe = facts_.statics.find(stem);
                if (probe != facts_.statics.end() && probe->second.elf_ok && !probe->second.elf.soname.empty() &&
                    probe->second.elf.soname != soname) {
                    problems.push_back(soname + " holds the SONAME " + probe->second.elf.soname +
                                       ": it is another library under this name");
                    verdict = worst(verdict, Verdict::warn);
                    if (fix.empty()) fix = "Replace the renamed file with the library this name belongs to.";
                }
                notes.push_back(soname + (soname_file->is_symlink ? " -> " + soname_file->link_target : " (a file)"));
            }
            // Several real files of one library: a leftover release beside the current one.
            std::set<std::string> real_files;
            for (const LibraryFile *file : files) {
                if (!file->resolved.empty() && directory_of(file->resolved) == installation_.real_directory) {
                    real_files.insert(base_name(file->resolved));
                }
            }
            if (real_files.size() > 1) {
                std::vector<std::string> listed(real_files.begin(), real_files.end());
                problems.push_back("lib" + stem + " has " + std::to_string(listed.size()) +
                                   " different files here: " + join_words(listed) + " (leftovers of another release)");
                verdict = worst(verdict, Verdict::warn);
                if (fix.empty()) fix = "Remove the files of the release you do not use, then run ldconfig.";
            }
            for (const LibraryFile *file : files) {
                if (file->parsed.suffix.empty() && file->resolved.empty()) {
                    problems.push_back(file->name + " -> " + file->link_target +
                                       " is dangling (the link used only when building with -l" + stem + ")");
                    verdict = worst(verdict, Verdict::warn);
                    if (fix.empty())
                        fix = "Fix or remove the dangling development link; programs already built are not affected.";
                }
            }
        }
        Check &check = section_->add("install.links", verdict,
                                     problems.empty() ? "every soname resolves to a file of this installation"
                                                      : std::to_string(problems.size()) + " link problem(s)",
                                     fix);
        check.details = problems.empty() ? notes : problems;
    }

    void check_versions() {
        std::map<std::string, std::vector<std::string>> by_version, by_build;
        for (const std::string &stem : present_) {
            const LibraryFile *file = installation_.soname_file(stem);
            Version version = name_version(*file);
            const auto load = facts_.loads.find(stem);
            if (load != facts_.loads.end() && load->second.cudnn_version > 0) {
                version = decode_cudnn_version(load->second.cudnn_version);
            }
            if (version.minor >= 0) by_version[version.text()].push_back(soname_of(stem, installation_.major));
            const std::string &build = facts_.statics[stem].librednn_build_id;
            if (!build.empty()) by_build[build].push_back(soname_of(stem, installation_.major));
        }
        if (by_version.size() > 1) {
            Check &check =
                section_->add("install.versions", Verdict::fail,
                              "the libraries come from " + std::to_string(by_version.size()) + " different releases",
                              "Install all libraries from one release: mixed sub-libraries fail with "
                              "CUDNN_STATUS_VERSION_MISMATCH, undefined symbols or crashes.");
            for (const auto &[version, names] : by_version) check.details.push_back(version + ": " + join_words(names));
            return;
        }
        if (by_build.size() > 1) {
            Check &check = section_->add("install.versions", Verdict::fail,
                                         "the libraries come from " + std::to_string(by_build.size()) +
                                             " different LibreDNN builds: cudnn*VersionCheck returns "
                                             "CUDNN_STATUS_VERSION_MISMATCH",
                                         "Install all seven libraries from one build (cmake --install).");
            for (const auto &[build, names] : by_build)
                check.details.push_back("build " + build + ": " + join_words(names));
            return;
        }
        std::string summary = by_version.empty() ? "release " + facts_.version.text() + " (no library states more)"
                                                 : "every library is " + by_version.begin()->first;
        const auto entry = facts_.loads.find("cudnn");
        if (entry != facts_.loads.end() && entry->second.cudnn_version > 0) {
            summary += " (cudnnGetVersion " + std::to_string(entry->second.cudnn_version) + ")";
        }
        if (!by_build.empty()) summary += ", one LibreDNN build (" + by_build.begin()->first + ")";
        section_->add("install.versions", Verdict::pass, summary);
        if (!by_build.empty()) section_->facts["librednn_build_id"] = by_build.begin()->first;
    }

    void check_loads() {
        if (!context_.load_libraries) {
            section_->add("install.loads", Verdict::skip, "not loaded (--no-load)");
            return;
        }
        std::vector<std::string> problems;
        std::string fix;
        for (const std::string &stem : present_) {
            const LoadProbe &load = facts_.loads[stem];
            if (load.loaded) continue;
            problems.push_back(soname_of(stem, installation_.major) + ": " + load.error);
            if (load.error.find("cannot open shared object file") != std::string::npos) {
                fix = "Install the library named in the error, or add its directory to LD_LIBRARY_PATH.";
            } else if (load.error.find("undefined symbol") != std::string::npos) {
                fix = "Reinstall one complete release: an undefined symbol means libraries of two releases are mixed.";
            } else if (fix.empty()) {
                fix = "Reinstall the failing library; the error above is what the loader or the library said.";
            }
        }
        Check &check = section_->add(
            "install.loads", problems.empty() ? Verdict::pass : Verdict::fail,
            problems.empty()
                ? "all " + std::to_string(present_.size()) + " libraries load (each in a child process)"
                : std::to_string(problems.size()) + " of " + std::to_string(present_.size()) + " libraries do not load",
            fix);
        check.details = problems;
    }

    Requester requester_for(const std::string &stem) {
        Requester requester;
        requester.path = path_of(stem);
        const auto probe = facts_.statics.find(stem);
        if (probe != facts_.statics.end()) {
            requester.rpath = probe->second.elf.rpath;
            requester.runpath = probe->second.elf.runpath;
        }
        return requester;
    }

    void check_dependencies() {
        std::vector<std::string> problems, resolved;
        std::set<std::string> listed;
        Verdict verdict = Verdict::pass;
        std::string fix;
        for (const std::string &stem : present_) {
            const StaticProbe &probe = facts_.statics[stem];
            if (!probe.elf_ok) continue;
            const Requester requester = requester_for(stem);
            const std::string name = soname_of(stem, installation_.major);
            for (const std::string &needed : probe.elf.needed) {
                const SearchResult found = find_library(needed, requester, context_.loader);
                if (!found.found) {
                    problems.push_back(name + " needs " + needed + ", which the loader cannot find");
                    verdict = Verdict::fail;
                    fix =
                        "Install the missing libraries (or add their directory to LD_LIBRARY_PATH); the loader refuses "
                        "to load a library whose dependencies are missing.";
                    continue;
                }
                LibraryName sibling;
                const std::string real = real_path(found.path);
                if (parse_library_name(needed, &sibling) && directory_of(real) != installation_.real_directory &&
                    real_path(directory_of(found.path)) != installation_.real_directory) {
                    // A cuDNN library of this set that resolves elsewhere: another copy shadows ours.
                    const LibraryFile *own = installation_.soname_file(sibling.stem);
                    LibraryName theirs;
                    const Version their_version =
                        parse_library_name(base_name(real), &theirs) ? theirs.version : Version{};
                    const Version our_version = own ? name_version(*own) : Version{};
                    const bool differs =
                        their_version.minor >= 0 && our_version.minor >= 0 && !(their_version == our_version);
                    problems.push_back(name + " loads " + needed + " from " + found.path + " (via " + found.source +
                                       "), not from its own directory" +
                                       (differs
                                            ? ": release " + their_version.text() + " instead of " + our_version.text()
                                            : std::string()));
                    verdict = worst(verdict, differs ? Verdict::fail : Verdict::warn);
                    if (fix.empty()) {
                        fix =
                            "Remove the other copy's directory from LD_LIBRARY_PATH (it is searched before this "
                            "library's "
                            "RUNPATH) or make both copies the same release.";
                    }
                    continue;
                }
                if (listed.insert(needed).second)
                    resolved.push_back(needed + " -> " + found.path + " (" + found.source + ")");
            }
        }
        Check &check = section_->add("install.dependencies", verdict,
                                     problems.empty() ? "every DT_NEEDED of every library resolves (" +
                                                            std::to_string(listed.size()) + " distinct)"
                                                      : std::to_string(problems.size()) + " dependency problem(s)",
                                     fix);
        check.details = problems.empty() ? resolved : problems;
    }

    // Libraries cuDNN opens itself at run time (dlopen), which DT_NEEDED does not show.
    void check_runtime_libraries() {
        if (facts_.librednn || installation_.major < 8) return;  // LibreDNN opens only libcuda.so.1, optionally
        struct Wanted {
            std::string name, requester_stem, why;
            Verdict when_missing;
        };
        std::vector<Wanted> wanted;
        const int cuda_major = decode_cuda_version(facts_.cudart_version).major;
        if (installation_.major == 8) {
            if (std::find(present_.begin(), present_.end(), "cudnn_cnn_infer") != present_.end()) {
                wanted.push_back({"libnvrtc.so", "cudnn_cnn_infer",
                                  "cnn_infer opens it for runtime-compiled kernels and aborts the process without it",
                                  Verdict::fail});
                if (!context_.cuda.driver_path.empty()) {
                    wanted.push_back({"libcuda.so", "cudnn_cnn_infer",
                                      "cnn_infer opens the driver by this name and aborts the process without it",
                                      Verdict::fail});
                }
            }
            const bool needs_zlib = facts_.version.minor < 0 || facts_.version.minor >= 3;
            if (needs_zlib && std::find(present_.begin(), present_.end(), "cudnn_ops_infer") != present_.end()) {
                wanted.push_back({"libz.so.1", "cudnn_ops_infer", "cuDNN 8.3 and later need zlib", Verdict::fail});
            }
        } else if (cuda_major > 0 && std::find(present_.begin(), present_.end(), "cudnn_graph") != present_.end()) {
            const std::string suffix = ".so." + std::to_string(cuda_major);
            wanted.push_back({"libcublasLt" + suffix, "cudnn_graph",
                              "cuDNN 9 opens cuBLASLt for its matmul-based engines", Verdict::warn});
            wanted.push_back({"libnvrtc" + suffix, "cudnn_graph",
                              "cuDNN 9 opens NVRTC for its runtime-compiled engines", Verdict::warn});
        }
        if (wanted.empty()) return;
        std::vector<std::string> problems, found_lines;
        Verdict verdict = Verdict::pass;
        std::string fix;
        for (const Wanted &item : wanted) {
            const SearchResult found = find_library(item.name, requester_for(item.requester_stem), context_.loader);
            if (found.found) {
                found_lines.push_back(item.name + " -> " + found.path + " (" + found.source + ")");
                continue;
            }
            problems.push_back(item.name + " is not found: " + item.why);
            verdict = worst(verdict, item.when_missing);
            if (item.name == "libnvrtc.so" || item.name == "libcuda.so") {
                fix = "Install the CUDA development links (the unversioned " + item.name +
                      ", e.g. from the cuda-nvrtc-dev / driver dev packages) or create one in a directory on the "
                      "loader path.";
            } else if (item.name == "libz.so.1") {
                fix = "Install zlib (Debian and Ubuntu: apt install zlib1g).";
            } else if (fix.empty()) {
                fix = "Install the CUDA " + std::to_string(cuda_major) +
                      " libraries named above (or add them to LD_LIBRARY_PATH).";
            }
        }
        Check &check = section_->add("install.runtime_libraries", verdict,
                                     problems.empty() ? "the libraries cuDNN opens at run time are there"
                                                      : std::to_string(problems.size()) +
                                                            " library(ies) cuDNN opens at run "
                                                            "time are missing",
                                     fix);
        check.details = problems;
        check.details.insert(check.details.end(), found_lines.begin(), found_lines.end());
    }

    void check_headers() {
        std::vector<std::string> directories = {installation_.real_directory};
        if (installation_.directory != installation_.real_directory) directories.push_back(installation_.directory);
        const std::vector<HeaderInfo> headers = find_headers(directories, installation_.major, context_.cuda_home);
        if (headers.empty()) {
            section_->add("install.headers", Verdict::info,
                          "no cudnn_version.h found: headers are needed only to build programs against this copy");
            return;
        }
        const HeaderInfo &first = headers.front();
        const bool matches = facts_.version.compatible_with(first.version);
        const std::string found = "cudnn_version.h at " + first.path + " declares " + first.version.text() +
                                  (first.librednn ? " (LibreDNN's)" : "");
        Check *check = nullptr;
        if (matches) {
            check = &section_->add("install.headers", Verdict::pass, found + ", matching the libraries");
        } else if (first.near) {
            check = &section_->add("install.headers", Verdict::fail,
                                   found + " but the libraries beside it are " + facts_.version.text(),
                                   "Install headers and libraries of the same release: code compiled against other "
                                   "headers may pass wrong enum values or struct layouts.");
        } else {
            check = &section_->add(
                "install.headers", Verdict::warn,
                "no cudnn_version.h beside the libraries; the one compilers find, " + found +
                    ", does not match the libraries (" + facts_.version.text() + ")",
                "Build against this copy with -I pointing at headers of release " + facts_.version.text() + ".");
        }
        for (size_t i = 1; i < headers.size(); ++i) {
            check->details.push_back("also: " + headers[i].path + " declares " + headers[i].version.text());
        }
    }

    void check_cuda() {
        if (facts_.cudart_version <= 0) return;
        const Version built = decode_cuda_version(facts_.cudart_version);
        const std::string built_text = "built with CUDA " + built.text() + " (cudnnGetCudartVersion " +
                                       std::to_string(facts_.cudart_version) + ")";
        Verdict verdict = Verdict::pass;
        std::string summary = built_text, fix;
        const CudaFacts &cuda = context_.cuda;
        if (cuda.driver_version > 0) {
            const Version driver = decode_cuda_version(cuda.driver_version);
            if (driver.major < built.major) {
                verdict = Verdict::fail;
                summary += "; the driver supports only CUDA " + driver.text();
                fix = "Update the NVIDIA driver to one that supports CUDA " + std::to_string(built.major) +
                      ", or install the cuDNN build for CUDA " + std::to_string(driver.major) + ".";
            } else {
                summary += "; the driver supports CUDA " + driver.text();
            }
        } else {
            summary += "; no driver to check against";
        }
        if (!facts_.librednn && !cuda.runtimes.empty()) {
            bool same_major = false;
            std::vector<std::string> majors;
            for (const CudaRuntimeInfo &runtime : cuda.runtimes) {
                const Version version = runtime.version > 0
                                            ? decode_cuda_version(runtime.version)
                                            : parse_version(runtime.soname.substr(runtime.soname.find(".so.") + 4));
                same_major |= version.major == built.major;
                majors.push_back(runtime.soname + " (CUDA " + version.text() + ")");
            }
            if (same_major) {
                summary += "; the CUDA runtime on the loader path is of the same major: " + join_words(majors);
            } else {
                verdict = worst(verdict, Verdict::warn);
                summary += "; the CUDA runtimes on the loader path are " + join_words(majors);
                if (fix.empty()) {
                    fix =
                        "Use the cuDNN build for the CUDA version your program uses: cudnnGetCudartVersion and "
                        "cudaRuntimeGetVersion should agree in their major version.";
                }
            }
        }
        section_->add("install.cuda", verdict, summary, fix);
    }

    void check_gpu() {
        const CudaFacts &cuda = context_.cuda;
        if (!cuda.gpu_usable()) {
            section_->add("install.gpu", Verdict::skip, "no GPU: compute capability not checked");
            return;
        }
        if (facts_.librednn) {
            section_->add("install.gpu", Verdict::info,
                          "LibreDNN's kernels for this GPU are checked by running them (--self-test)");
            return;
        }
        const int cuda_major = decode_cuda_version(facts_.cudart_version).major;
        const int lowest = minimum_compute_capability(cuda_major);
        int highest = installation_.major == 8 ? 90 : 0;
        const auto entry = facts_.loads.find("cudnn");
        if (entry != facts_.loads.end() && entry->second.max_device_version > 0) {
            const long long v = entry->second.max_device_version;
            highest = static_cast<int>(v / 100 * 10 + v % 100 / 10);
        }
        Verdict verdict = Verdict::pass;
        std::vector<std::string> lines;
        std::string fix;
        auto cc = [](int value) { return std::to_string(value / 10) + "." + std::to_string(value % 10); };
        for (const GpuInfo &gpu : cuda.gpus) {
            const int capability = gpu.major * 10 + gpu.minor;
            std::string line = "GPU " + std::to_string(gpu.index) + " (" + gpu.name + ", " + cc(capability) + ")";
            if (cuda_major > 0 && capability < lowest) {
                verdict = Verdict::fail;
                line +=
                    " is older than CUDA " + std::to_string(cuda_major) + " supports (" + cc(lowest) + " and newer)";
                fix = "Install a cuDNN built for an older CUDA that still supports this GPU.";
            } else if (highest > 0 && capability > highest) {
                verdict = worst(verdict, Verdict::warn);
                line += " is newer than this cuDNN's kernels (up to " + cc(highest) + ")";
                if (fix.empty())
                    fix = "Install a cuDNN release that supports compute capability " + cc(capability) + ".";
            } else {
                line += " is supported";
            }
            lines.push_back(line);
        }
        std::string range = cuda_major > 0 ? cc(lowest) : std::string("?");
        range += highest > 0 ? " to " + cc(highest) : " and newer";
        Check &check = section_->add("install.gpu", verdict,
                                     join_words(lines) + " (this cuDNN: compute capability " + range + ")", fix);
        (void)check;
    }

    const Installation &installation_;
    const InstallationContext &context_;
    Report *report_;
    Section *section_ = nullptr;
    InstallationFacts facts_;
    std::vector<std::string> present_, missing_;
    std::string librednn_version_;
};

}  // namespace

std::string InstallationFacts::entry_path() const {
    if (installation == nullptr) return {};
    const LibraryFile *file = installation->soname_file("cudnn");
    return file ? file->path : std::string();
}

InstallationFacts examine_installation(const Installation &installation, const InstallationContext &context,
                                       Report *report) {
    return Examiner(installation, context, report).run();
}

}  // namespace librednn::doctor
