// Tests for discovery: the places searched, and files grouped into installations by directory and major.
#include "discovery.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "doctor_test_util.hpp"

namespace librednn::doctor {
namespace {

using testing::TempDir;
using tools::testing::SyntheticElf;

bool has_place(const std::vector<Place> &places, const std::string &dir, const std::string &reason) {
    return std::any_of(places.begin(), places.end(),
                       [&](const Place &place) { return place.directory == dir && place.reason == reason; });
}

TEST(Discovery, PlacesIncludeLdLibraryPathCondaAndPythonEnvironments) {
    TempDir temp;
    const std::string venv = temp / "venv", conda = temp / "conda";
    testing::make_dirs(venv + "/lib/python3.11/site-packages/nvidia/cudnn/lib");
    testing::make_dirs(conda + "/lib/python3.10/site-packages");
    DiscoveryOptions options;
    options.extra_dirs = {temp / "extra"};
    options.virtual_env = venv;
    options.conda_prefix = conda;
    LoaderEnvironment loader;
    loader.ld_library_path = {temp / "env"};
    loader.cache.entries = {{"libcudnn.so.8", "/opt/cached/libcudnn.so.8"}, {"libz.so.1", "/lib/libz.so.1"}};
    const std::vector<Place> places = candidate_places(options, loader);
    EXPECT_TRUE(has_place(places, temp / "extra", "--lib"));
    EXPECT_TRUE(has_place(places, temp / "env", "LD_LIBRARY_PATH"));
    EXPECT_TRUE(has_place(places, "/opt/cached", "ld.so.cache"));
    EXPECT_FALSE(has_place(places, "/lib", "ld.so.cache"));  // only cuDNN's entries lead somewhere
    EXPECT_TRUE(has_place(places, conda + "/lib", "conda environment"));
    EXPECT_TRUE(has_place(places, venv + "/lib/python3.11/site-packages/nvidia/cudnn/lib", "Python site-packages"));
    EXPECT_TRUE(has_place(places, conda + "/lib/python3.10/site-packages/nvidia/cudnn/lib", "Python site-packages"));

    options.search_machine = false;
    EXPECT_EQ(candidate_places(options, loader).size(), 1u);
}

TEST(Discovery, OneDirectoryWithTwoMajorsIsTwoInstallations) {
    TempDir temp;
    const std::string dir = temp / "lib";
    testing::make_dirs(dir);
    for (const char *name :
         {"libcudnn.so.8.9.7", "libcudnn_ops_infer.so.8.9.7", "libcudnn.so.9.1.0", "libcudnn_graph.so.9.1.0"}) {
        testing::write_bytes(dir + "/" + name, SyntheticElf{}.build());
    }
    testing::link_to("libcudnn.so.8.9.7", dir + "/libcudnn.so.8");
    testing::link_to("libcudnn.so.9.1.0", dir + "/libcudnn.so.9");
    testing::link_to("libcudnn.so.9", dir + "/libcudnn.so");  // the development link joins cuDNN 9
    testing::write_file(dir + "/libcudnn.so.8.bak", "old");   // not a library name the loader uses
    const std::vector<Installation> found = find_installations({{dir, "--lib"}});
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].major, 8);
    EXPECT_EQ(found[0].files.size(), 3u);
    EXPECT_EQ(found[1].major, 9);
    EXPECT_EQ(found[1].files.size(), 4u);
    ASSERT_NE(found[1].soname_file("cudnn"), nullptr);
    EXPECT_TRUE(found[1].soname_file("cudnn")->is_symlink);
    EXPECT_EQ(found[1].soname_file("cudnn_graph"), nullptr);  // only libcudnn_graph.so.9.1.0, no soname link
}

TEST(Discovery, ADirectoryReachedTwiceIsOneInstallationWithBothNames) {
    TempDir temp;
    const std::string dir = temp / "real";
    testing::make_dirs(dir);
    testing::write_bytes(dir + "/libcudnn.so.9", SyntheticElf{}.build());
    testing::link_to(dir, temp / "alias");
    const std::vector<Installation> found =
        find_installations({{dir, "LD_LIBRARY_PATH"}, {temp / "alias", "CUDA toolkit"}, {temp / "missing", "--lib"}});
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].found_via, (std::vector<std::string>{"LD_LIBRARY_PATH", "CUDA toolkit"}));
    EXPECT_EQ(found[0].also_named, std::vector<std::string>{temp / "alias"});
    EXPECT_EQ(installation_holding(found, temp / "alias/libcudnn.so.9"), &found[0]);
}

}  // namespace
}  // namespace librednn::doctor
