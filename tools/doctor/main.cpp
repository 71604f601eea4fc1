// cudnn-doctor: says exactly why cuDNN does or does not work on this machine (docs/DOCTOR.md).
#include "cuda_check.hpp"
#include "discovery.hpp"
#include "installation.hpp"
#include "loader_order.hpp"
#include "options.hpp"
#include "report.hpp"
#include "selftest.hpp"
#include "windows_package.hpp"

#include <cstdio>
#include <exception>
#include <random>
#include <set>

#ifndef LIBREDNN_DOCTOR_VERSION
#define LIBREDNN_DOCTOR_VERSION "unknown"
#endif

namespace librednn::doctor {
namespace {

// The installations the self-test tests: those in --lib directories, else the copies a program
// without RPATH loads for each major.
std::vector<const InstallationFacts *> self_test_targets(const Options &options,
                                                         const std::vector<InstallationFacts> &facts,
                                                         const LoaderEnvironment &loader) {
    std::vector<const InstallationFacts *> targets;
    std::set<std::string> lib_dirs;
    for (const std::string &dir : options.lib_dirs) lib_dirs.insert(real_path(dir));
    for (const InstallationFacts &item : facts) {
        if (!lib_dirs.empty() && lib_dirs.count(item.installation->real_directory)) targets.push_back(&item);
    }
    if (!lib_dirs.empty()) return targets;
    std::set<int> majors;
    for (const InstallationFacts &item : facts) majors.insert(item.installation->major);
    for (int major : majors) {
        const SearchResult found = find_library(soname_of("cudnn", major), Requester{}, loader);
        if (!found.found) continue;
        const std::string real_dir = real_path(directory_of(found.path));
        for (const InstallationFacts &item : facts) {
            if (item.installation->real_directory == real_dir && item.installation->major == major)
                targets.push_back(&item);
        }
    }
    return targets;
}

int run(int argc, char **argv) {
    Options options;
    std::string error;
    Report report;
    if (!parse_options(argc, argv, &options, &error)) {
        std::fprintf(stderr, "cudnn-doctor: %s\n", error.c_str());
        if (options.json) {
            report.doctor_error = error;
            std::string out;
            print_json(report, options.strict, &out);
            std::fputs(out.c_str(), stdout);
        }
        return 2;
    }
    if (options.help) {
        std::fputs(usage().c_str(), stdout);
        return 0;
    }
    if (options.version) {
        std::printf("cudnn-doctor %s\n", LIBREDNN_DOCTOR_VERSION);
        return 0;
    }
    if (!options.seed_given) options.seed = std::random_device{}() & 0x7fffffff;

    // --inspect alone checks the Windows package only; anything else examines this machine too.
    const bool examine_machine = options.inspect_dirs.empty() || !options.lib_dirs.empty() ||
                                 !options.for_programs.empty() || options.self_test_level > 0;
    if (examine_machine) {
        const LoaderEnvironment loader = current_loader_environment(options.ld_cache, options.system_dirs);
        const CudaFacts cuda = gather_cuda_facts(loader, options.load);
        report_cuda(cuda, &report);
        if (!loader.cache.error.empty()) {
            report.sections.front().add("loader.cache", loader.cache.source == "none" ? Verdict::warn : Verdict::info,
                                        "loader cache: " + loader.cache.error + "; using " + loader.cache.source,
                                        "Run ldconfig (as root) to rebuild /etc/ld.so.cache.");
        }

        DiscoveryOptions discovery = discovery_options_from_environment();
        discovery.extra_dirs = options.lib_dirs;
        discovery.search_machine = options.discover;
        const std::vector<Installation> installations = find_installations(candidate_places(discovery, loader));
        Section &summary =
            report.section("installations", "cuDNN installations found: " + std::to_string(installations.size()));
        summary.facts["count"] = std::to_string(installations.size());
        if (installations.empty()) {
            summary.add("installations.none", Verdict::warn, "no cuDNN library found in any place searched",
                        "Install cuDNN (or LibreDNN), or name its directory with --lib DIR.");
        }
        for (const std::string &dir : options.lib_dirs) {
            if (real_path(dir).empty()) {
                summary.add("installations.lib", Verdict::fail, "--lib " + dir + ": no such directory",
                            "Check the path given to --lib.");
            }
        }
        const InstallationContext context{loader, installations, cuda, discovery.cuda_home, options.load};
        std::vector<InstallationFacts> facts;
        for (const Installation &installation : installations) {
            facts.push_back(examine_installation(installation, context, &report));
        }
        // The overview, now that each copy has a name.
        Section *overview = nullptr;
        for (Section &section : report.sections) {
            if (section.id == "installations") overview = &section;
        }
        for (const InstallationFacts &item : facts) {
            overview->add("installations.found", item.failures ? Verdict::warn : Verdict::info,
                          item.vendor_title + " at " + item.installation->real_directory +
                              (item.failures ? " (" + std::to_string(item.failures) + " problem(s), see below)" : ""),
                          item.failures ? "See the checks of this installation below." : "");
        }
        report_default_loading(installations, facts, loader, &report);
        for (const std::string &program : options.for_programs) {
            report_program_loading(program, installations, facts, loader, &report);
        }
        if (options.self_test_level > 0) {
            const std::vector<const InstallationFacts *> targets = self_test_targets(options, facts, loader);
            if (targets.empty()) {
                Section &section = report.section("selftest", "Self-test");
                section.add("selftest.target", Verdict::fail,
                            options.lib_dirs.empty()
                                ? "nothing to test: no cuDNN on the default search path"
                                : "nothing to test: no cuDNN installation in the --lib directories",
                            "Name the directory of the library to test with --lib DIR.");
            }
            SelfTestOptions self_test;
            self_test.level = options.self_test_level;
            self_test.seed = options.seed;
            self_test.stem_batch = options.stem_batch;
            for (const InstallationFacts *target : targets) run_self_test(*target, cuda, self_test, &report);
        }
    }
    for (const std::string &dir : options.inspect_dirs) inspect_windows_package(dir, &report);

    std::string out;
    if (options.json) {
        print_json(report, options.strict, &out);
    } else {
        out = std::string("cudnn-doctor ") + LIBREDNN_DOCTOR_VERSION +
              ": where cuDNN is on this machine, which copy programs load, and whether it works\n";
        print_human(report, options.strict, options.verbose, &out);
    }
    std::fputs(out.c_str(), stdout);
    std::fflush(stdout);
    return report.exit_status(options.strict);
}

}  // namespace
}  // namespace librednn::doctor

int main(int argc, char **argv) {
    try {
        return librednn::doctor::run(argc, argv);
    } catch (const std::exception &error) {
        std::fprintf(stderr, "cudnn-doctor failed: %s\n", error.what());
    } catch (...) {
        std::fprintf(stderr, "cudnn-doctor failed with an unknown error\n");
    }
    return 2;
}
