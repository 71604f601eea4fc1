// Each built library exports exactly the functions its header owns (the shim all 264), carries
// cuDNN 8's soname and dependency graph, and needs no CUDA library at load time.
#include "api/support_table.hpp"
#include "elf_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

std::string build_dir() {
    const char *dir = std::getenv("LIBREDNN_BUILD_DIR");
    return dir ? dir : LIBREDNN_TEST_BUILD_DIR;
}

librednn::tools::ElfInfo read_library(const std::string &file) {
    librednn::tools::ElfInfo info;
    std::string error;
    const std::string path = build_dir() + "/src/" + file;
    EXPECT_TRUE(librednn::tools::read_elf_file(path, &info, &error)) << path << ": " << error;
    return info;
}

std::set<std::string> expected_exports(const std::string &library) {
    std::set<std::string> names;
    for (int i = 0; i < librednn::api::kSupportTableSize; ++i) {
        const auto &row = librednn::api::kSupportTable[i];
        if (library == "shim" || library == row.library) names.insert(row.function);
    }
    if (library == "ops_infer") {
        // LibreDNN's own additions (include/librednn/ documents them): the build id the other
        // libraries' version checks compare against, and LibreDNN's version string.
        names.insert("librednnGetBuildId");
        names.insert("librednnGetVersionString");
    }
    return names;
}

std::string difference(const std::set<std::string> &a, const std::set<std::string> &b) {
    std::string text;
    for (const auto &name : a)
        if (!b.count(name)) text += " " + name;
    return text.empty() ? " (none)" : text;
}

const std::vector<std::string> kSubLibraries = {"ops_infer", "ops_train", "cnn_infer",
                                                "cnn_train", "adv_infer", "adv_train"};

}  // namespace

TEST(Exports, EachSubLibraryExportsExactlyItsHeaderFunctions) {
    size_t total = 0;
    for (const auto &lib : kSubLibraries) {
        const auto info = read_library("libcudnn_" + lib + ".so.8");
        const auto exported = librednn::tools::exported_functions(info);
        const std::set<std::string> actual(exported.begin(), exported.end());
        const auto expected = expected_exports(lib);
        EXPECT_EQ(actual, expected) << "libcudnn_" << lib << ".so.8\n  missing:" << difference(expected, actual)
                                    << "\n  unexpected:" << difference(actual, expected);
        total += expected.size();
    }
    EXPECT_EQ(total, 264u + 2u);
}

TEST(Exports, ShimExportsAll264Functions) {
    const auto info = read_library("libcudnn.so.8");
    const auto exported = librednn::tools::exported_functions(info);
    const std::set<std::string> actual(exported.begin(), exported.end());
    const auto expected = expected_exports("shim");
    EXPECT_EQ(expected.size(), 264u);
    EXPECT_EQ(actual, expected) << "missing:" << difference(expected, actual)
                                << "\n  unexpected:" << difference(actual, expected);
}

TEST(Exports, NoOtherDynamicSymbolsAreDefined) {
    // Besides the functions, a library may define nothing a user could bind to (no C++ internals,
    // no CUDA runtime symbols): every defined global symbol of default visibility is an export.
    for (const auto &lib : kSubLibraries) {
        const auto info = read_library("libcudnn_" + lib + ".so.8");
        const auto expected = expected_exports(lib);
        for (const auto &sym : info.dynamic_symbols) {
            if (!sym.defined || !sym.global_or_weak || !sym.default_visibility) continue;
            EXPECT_TRUE(expected.count(sym.name)) << "libcudnn_" << lib << ".so.8 exports " << sym.name;
        }
    }
}

TEST(Libraries, SonamesAndDependencyGraphFollowCudnn8) {
    const std::map<std::string, std::set<std::string>> graph = {
        {"ops_infer", {}},
        {"ops_train", {"ops_infer"}},
        {"cnn_infer", {"ops_infer"}},
        {"cnn_train", {"cnn_infer", "ops_train", "ops_infer"}},
        {"adv_infer", {"ops_infer"}},
        {"adv_train", {"adv_infer", "ops_train", "ops_infer"}},
        {"", {}},  // the shim loads its sub-libraries at run time: none in DT_NEEDED
    };
    for (const auto &[lib, deps] : graph) {
        const std::string file = lib.empty() ? "libcudnn.so.8" : "libcudnn_" + lib + ".so.8";
        const auto info = read_library(file);
        EXPECT_EQ(info.soname, file);
        std::set<std::string> cudnn_needed;
        for (const auto &n : info.needed)
            if (n.rfind("libcudnn", 0) == 0) cudnn_needed.insert(n);
        std::set<std::string> expected;
        for (const auto &d : deps) expected.insert("libcudnn_" + d + ".so.8");
        EXPECT_EQ(cudnn_needed, expected) << file;
        EXPECT_EQ(info.runpath, "$ORIGIN") << file << " finds its sub-libraries beside itself";
    }
}

TEST(Libraries, NeedNoCudaLibraryAtLoadTime) {
    // The CUDA runtime is linked statically and the driver opened at run time, so the libraries load
    // on a machine without a GPU driver. Only the C and C++ runtimes and our own libraries may appear.
    const std::vector<std::string> allowed_prefixes = {"libc.so",  "libm.so",    "libstdc++.so",  "libgcc_s.so",
                                                       "ld-linux", "libdl.so",   "libpthread.so", "librt.so",
                                                       "libcudnn", "libasan.so", "libubsan.so"};  // sanitizer build
    for (const std::string lib : {"", "ops_infer", "ops_train", "cnn_infer", "cnn_train", "adv_infer", "adv_train"}) {
        const std::string file = lib.empty() ? "libcudnn.so.8" : "libcudnn_" + lib + ".so.8";
        const auto info = read_library(file);
        EXPECT_FALSE(info.needed.empty()) << file;
        for (const auto &needed : info.needed) {
            const bool ok = std::any_of(allowed_prefixes.begin(), allowed_prefixes.end(),
                                        [&](const std::string &p) { return needed.rfind(p, 0) == 0; });
            EXPECT_TRUE(ok) << file << " needs " << needed;
            EXPECT_EQ(needed.find("cuda"), std::string::npos) << file << " needs " << needed;
            EXPECT_EQ(needed.find("nvrtc"), std::string::npos) << file << " needs " << needed;
        }
    }
}
