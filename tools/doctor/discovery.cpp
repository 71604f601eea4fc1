// Where cuDNN can be on a Linux machine, and grouping what is there into installations.
#include "discovery.hpp"

#include <dirent.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <map>
#include <set>

namespace librednn::doctor {
namespace {

std::string getenv_string(const char *name) {
    const char *value = std::getenv(name);
    return value ? value : "";
}

std::vector<std::string> expand_glob(const std::string &pattern) {
    std::vector<std::string> paths;
    glob_t matches{};
    if (::glob(pattern.c_str(), GLOB_NOSORT, nullptr, &matches) == 0) {
        for (size_t i = 0; i < matches.gl_pathc; ++i) paths.push_back(matches.gl_pathv[i]);
    }
    ::globfree(&matches);
    std::sort(paths.begin(), paths.end());
    return paths;
}

bool is_directory(const std::string &path) {
    struct stat info;
    return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// The site-packages (or dist-packages) directories under an environment prefix.
std::vector<std::string> python_package_dirs(const std::string &prefix) {
    std::vector<std::string> dirs;
    for (const char *kind : {"site-packages", "dist-packages"}) {
        for (const std::string &dir : expand_glob(prefix + "/lib/python3*/" + kind)) dirs.push_back(dir);
        for (const std::string &dir : expand_glob(prefix + "/lib64/python3*/" + kind)) dirs.push_back(dir);
    }
    return dirs;
}

}  // namespace

std::string real_path(const std::string &path) {
    char resolved[PATH_MAX];
    return ::realpath(path.c_str(), resolved) ? std::string(resolved) : std::string();
}

DiscoveryOptions discovery_options_from_environment() {
    DiscoveryOptions options;
    options.home = getenv_string("HOME");
    options.conda_prefix = getenv_string("CONDA_PREFIX");
    options.virtual_env = getenv_string("VIRTUAL_ENV");
    options.cuda_home = getenv_string("CUDA_HOME");
    if (options.cuda_home.empty()) options.cuda_home = getenv_string("CUDA_PATH");
    return options;
}

std::vector<Place> candidate_places(const DiscoveryOptions &options, const LoaderEnvironment &loader) {
    std::vector<Place> places;
    auto add = [&](const std::string &dir, const std::string &reason) {
        if (!dir.empty()) places.push_back({dir, reason});
    };
    for (const std::string &dir : options.extra_dirs) add(dir, "--lib");
    if (!options.search_machine) return places;

    for (const std::string &dir : loader.ld_library_path) add(dir, "LD_LIBRARY_PATH");
    for (const LdCacheEntry &entry : loader.cache.entries) {
        if (entry.soname.compare(0, 8, "libcudnn") == 0) add(directory_of(entry.path), "ld.so.cache");
    }
    for (const std::string &dir : loader.system_dirs) add(dir, "system directory");
    for (const char *dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
                            "/usr/local/lib", "/usr/local/lib64", "/opt/cudnn/lib", "/opt/cudnn/lib64"}) {
        add(dir, "system directory");
    }
    if (!options.cuda_home.empty()) {
        add(options.cuda_home + "/lib64", "$CUDA_HOME");
        add(options.cuda_home + "/lib", "$CUDA_HOME");
    }
    for (const char *pattern : {"/usr/local/cuda*/lib64", "/usr/local/cuda*/lib", "/usr/local/cuda*/targets/*/lib",
                                "/opt/cuda*/lib64", "/opt/nvidia/cudnn*/lib*"}) {
        for (const std::string &dir : expand_glob(pattern)) add(dir, "CUDA toolkit");
    }

    // Conda environments: the active one, then the usual install locations.
    std::vector<std::string> conda_prefixes;
    if (!options.conda_prefix.empty()) conda_prefixes.push_back(options.conda_prefix);
    std::vector<std::string> conda_roots = {"/opt/conda"};
    if (!options.home.empty()) {
        for (const char *root : {"miniconda3", "anaconda3", "miniforge3", "mambaforge", ".conda"}) {
            conda_roots.push_back(options.home + "/" + root);
        }
    }
    for (const std::string &root : conda_roots) {
        if (!is_directory(root)) continue;
        conda_prefixes.push_back(root);
        for (const std::string &env : expand_glob(root + "/envs/*")) conda_prefixes.push_back(env);
    }
    for (const std::string &prefix : conda_prefixes) add(prefix + "/lib", "conda environment");

    // Python environments: pip's nvidia-cudnn-cu* wheels put cuDNN in site-packages/nvidia/cudnn/lib;
    // older torch wheels carried their own copy in torch/lib.
    std::vector<std::string> python_prefixes = {"/usr", "/usr/local"};
    if (!options.virtual_env.empty()) python_prefixes.push_back(options.virtual_env);
    python_prefixes.insert(python_prefixes.end(), conda_prefixes.begin(), conda_prefixes.end());
    if (!options.home.empty()) python_prefixes.push_back(options.home + "/.local");
    for (const std::string &venv : expand_glob("/opt/*/.venv")) python_prefixes.push_back(venv);
    for (const std::string &venv : expand_glob("/opt/*/venv")) python_prefixes.push_back(venv);
    if (!options.home.empty()) {
        for (const std::string &venv : expand_glob(options.home + "/*/.venv")) python_prefixes.push_back(venv);
        for (const std::string &venv : expand_glob(options.home + "/.virtualenvs/*")) python_prefixes.push_back(venv);
    }
    for (const std::string &prefix : python_prefixes) {
        for (const std::string &packages : python_package_dirs(prefix)) {
            add(packages + "/nvidia/cudnn/lib", "Python site-packages");
            add(packages + "/torch/lib", "Python site-packages");
        }
    }
    return places;
}

const LibraryFile *Installation::soname_file(const std::string &stem) const {
    const std::string wanted = soname_of(stem, major);
    for (const LibraryFile &file : files) {
        if (file.name == wanted) return &file;
    }
    return nullptr;
}

std::vector<const LibraryFile *> Installation::files_of(const std::string &stem) const {
    std::vector<const LibraryFile *> found;
    for (const LibraryFile &file : files) {
        if (file.parsed.stem == stem) found.push_back(&file);
    }
    return found;
}

std::vector<Installation> find_installations(const std::vector<Place> &places) {
    std::vector<Installation> installations;
    std::map<std::string, std::vector<size_t>> by_real_directory;  // real dir -> installations in it
    std::set<std::string> listed;
    for (const Place &place : places) {
        const std::string real = real_path(place.directory);
        if (real.empty() || !is_directory(real)) continue;
        if (listed.count(real)) {
            // Seen before under this or another name: remember the extra reason and spelling.
            for (size_t index : by_real_directory[real]) {
                Installation &known = installations[index];
                if (std::find(known.found_via.begin(), known.found_via.end(), place.reason) == known.found_via.end()) {
                    known.found_via.push_back(place.reason);
                }
                if (place.directory != known.directory && std::find(known.also_named.begin(), known.also_named.end(),
                                                                    place.directory) == known.also_named.end()) {
                    known.also_named.push_back(place.directory);
                }
            }
            continue;
        }
        listed.insert(real);

        std::vector<LibraryFile> files;
        if (DIR *dir = ::opendir(place.directory.c_str())) {
            while (const dirent *entry = ::readdir(dir)) {
                LibraryFile file;
                file.name = entry->d_name;
                if (!parse_library_name(file.name, &file.parsed)) continue;
                file.path = place.directory + (place.directory.back() == '/' ? "" : "/") + file.name;
                struct stat info;
                file.is_symlink = ::lstat(file.path.c_str(), &info) == 0 && S_ISLNK(info.st_mode);
                if (file.is_symlink) {
                    char target[PATH_MAX];
                    const ssize_t length = ::readlink(file.path.c_str(), target, sizeof target - 1);
                    if (length > 0) file.link_target.assign(target, static_cast<size_t>(length));
                }
                file.resolved = real_path(file.path);
                files.push_back(std::move(file));
            }
            ::closedir(dir);
        }
        if (files.empty()) continue;
        std::sort(files.begin(), files.end(),
                  [](const LibraryFile &a, const LibraryFile &b) { return a.name < b.name; });

        // The major of each file: its own name's, else its link target's ("libcudnn.so -> libcudnn.so.9").
        std::map<int, std::vector<LibraryFile>> by_major;
        for (LibraryFile &file : files) {
            int major = file.parsed.version.major;
            if (major < 0 && !file.resolved.empty()) {
                LibraryName target;
                if (parse_library_name(base_name(file.resolved), &target)) major = target.version.major;
            }
            by_major[major].push_back(file);
        }
        // Development links whose target says nothing join the only major present.
        if (by_major.count(-1) && by_major.size() == 2) {
            auto &unknown = by_major[-1];
            auto &known = std::next(by_major.begin())->second;
            known.insert(known.end(), unknown.begin(), unknown.end());
            by_major.erase(-1);
        }
        for (auto &[major, group] : by_major) {
            Installation installation;
            installation.directory = place.directory;
            installation.real_directory = real;
            installation.found_via = {place.reason};
            installation.major = major;
            installation.files = std::move(group);
            by_real_directory[real].push_back(installations.size());
            installations.push_back(std::move(installation));
        }
    }
    return installations;
}

const Installation *installation_holding(const std::vector<Installation> &installations, const std::string &path) {
    const std::string real_dir = real_path(directory_of(path));
    LibraryName name;
    int major = -1;
    if (parse_library_name(base_name(path), &name)) major = name.version.major;
    for (const Installation &installation : installations) {
        if (installation.real_directory == real_dir && (major < 0 || installation.major == major)) return &installation;
    }
    return nullptr;
}

}  // namespace librednn::doctor
