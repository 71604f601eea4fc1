// Tests for the loader's search emulation: the order of DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH, the cache
// and the system directories; $ORIGIN; libraries of the wrong class skipped as ld.so skips them.
#include "loader_search.hpp"

#include <gtest/gtest.h>

#include "doctor_test_util.hpp"

namespace librednn::doctor {
namespace {

using testing::TempDir;
using tools::testing::SyntheticElf;

// Four directories, each holding its own libfoo.so.1, and an empty loader environment.
struct SearchFixture {
    TempDir temp;
    std::string rpath_dir = temp / "rpath", env_dir = temp / "env", runpath_dir = temp / "runpath",
                system_dir = temp / "system", cache_dir = temp / "cache";
    LoaderEnvironment loader;

    SearchFixture() {
        for (const std::string &dir : {rpath_dir, env_dir, runpath_dir, system_dir, cache_dir}) {
            testing::make_dirs(dir);
            testing::write_bytes(dir + "/libfoo.so.1", SyntheticElf{}.build());
        }
        loader.cache.source = "none";
        loader.system_dirs = {system_dir};
    }
};

TEST(LoaderSearch, RpathComesBeforeLdLibraryPathWhenThereIsNoRunpath) {
    SearchFixture f;
    f.loader.ld_library_path = {f.env_dir};
    Requester requester;
    requester.path = f.temp / "program";
    requester.rpath = f.rpath_dir;
    const SearchResult found = find_library("libfoo.so.1", requester, f.loader);
    ASSERT_TRUE(found.found);
    EXPECT_EQ(found.path, f.rpath_dir + "/libfoo.so.1");
    EXPECT_EQ(found.source, "DT_RPATH of program");
}

TEST(LoaderSearch, RunpathDisablesRpathAndComesAfterLdLibraryPath) {
    SearchFixture f;
    f.loader.ld_library_path = {f.env_dir};
    Requester requester;
    requester.path = f.temp / "program";
    requester.rpath = f.rpath_dir;
    requester.runpath = f.runpath_dir;
    SearchResult found = find_library("libfoo.so.1", requester, f.loader);
    EXPECT_EQ(found.path, f.env_dir + "/libfoo.so.1");
    EXPECT_EQ(found.source, "LD_LIBRARY_PATH");
    f.loader.ld_library_path.clear();
    found = find_library("libfoo.so.1", requester, f.loader);
    EXPECT_EQ(found.path, f.runpath_dir + "/libfoo.so.1");
}

TEST(LoaderSearch, OriginExpandsToTheRequestersDirectory) {
    SearchFixture f;
    Requester requester;
    requester.path = f.runpath_dir + "/libneedsfoo.so";
    requester.runpath = "/nonexistent:$ORIGIN";
    const SearchResult found = find_library("libfoo.so.1", requester, f.loader);
    EXPECT_EQ(found.path, f.runpath_dir + "/libfoo.so.1");
    EXPECT_EQ(found.steps.size(), 2u);
    EXPECT_EQ(expand_search_entry("${ORIGIN}/../lib:$ORIGINAL", "/opt/x"), "/opt/x/../lib:$ORIGINAL");
}

TEST(LoaderSearch, RpathOfTheObjectsAboveApplies) {
    SearchFixture f;
    Requester parent;
    parent.path = f.temp / "program";
    parent.rpath = f.rpath_dir;
    Requester requester;
    requester.path = f.temp / "libmiddle.so";
    requester.loaders = {parent};
    const SearchResult found = find_library("libfoo.so.1", requester, f.loader);
    EXPECT_EQ(found.path, f.rpath_dir + "/libfoo.so.1");
    EXPECT_NE(found.source.find("which loaded libmiddle.so"), std::string::npos) << found.source;
}

TEST(LoaderSearch, CacheComesBeforeSystemDirectories) {
    SearchFixture f;
    f.loader.cache.source = "test";
    f.loader.cache.entries = {{"libfoo.so.1", f.cache_dir + "/libfoo.so.1"}};
    SearchResult found = find_library("libfoo.so.1", Requester{}, f.loader);
    EXPECT_EQ(found.path, f.cache_dir + "/libfoo.so.1");
    EXPECT_EQ(found.source, "ld.so.cache");
    f.loader.cache.entries.clear();
    found = find_library("libfoo.so.1", Requester{}, f.loader);
    EXPECT_EQ(found.path, f.system_dir + "/libfoo.so.1");
    EXPECT_EQ(found.source, "system directory");
}

TEST(LoaderSearch, LibrariesOfTheWrongClassOrMachineAreSkipped) {
    SearchFixture f;
    SyntheticElf thirty_two;
    thirty_two.is64 = false;
    thirty_two.machine = 3;
    testing::write_bytes(f.env_dir + "/libfoo.so.1", thirty_two.build());
    SyntheticElf arm;
    arm.machine = 183;
    testing::write_bytes(f.rpath_dir + "/libfoo.so.1", arm.build());
    f.loader.ld_library_path = {f.rpath_dir, f.env_dir};
    const SearchResult found = find_library("libfoo.so.1", Requester{}, f.loader);
    ASSERT_TRUE(found.found);
    EXPECT_EQ(found.path, f.system_dir + "/libfoo.so.1");
    ASSERT_GE(found.steps.size(), 2u);
    EXPECT_NE(found.steps[0].outcome.find("skipped: built for ELF machine 183"), std::string::npos)
        << found.steps[0].outcome;
    EXPECT_NE(found.steps[1].outcome.find("skipped: ELF 32-bit"), std::string::npos) << found.steps[1].outcome;
}

TEST(LoaderSearch, NotFoundListsEveryPlaceTried) {
    SearchFixture f;
    f.loader.ld_library_path = {f.env_dir};
    const SearchResult found = find_library("libnothere.so.3", Requester{}, f.loader);
    EXPECT_FALSE(found.found);
    EXPECT_EQ(found.steps.size(), 3u);  // LD_LIBRARY_PATH, the cache, the system directory
    EXPECT_EQ(found.explain(), "not found (tried 3 places)");
}

TEST(LoaderSearch, SplitKeepsEmptyEntries) {
    EXPECT_EQ(split_search_path("a::b"), (std::vector<std::string>{"a", "", "b"}));
    EXPECT_TRUE(split_search_path("").empty());
    EXPECT_EQ(directory_of("/a/b/libx.so"), "/a/b");
    EXPECT_EQ(base_name("/a/b/libx.so"), "libx.so");
}

}  // namespace
}  // namespace librednn::doctor
