// The loader's choice of cuDNN, explained (see loader_order.hpp).
#include "loader_order.hpp"

#include "elf_dynamic.hpp"

#include <deque>
#include <map>
#include <set>

namespace librednn::doctor {
namespace {

constexpr size_t kMaxObjects = 4000;  // a framework loads a few hundred libraries; this bounds a loop

const InstallationFacts *facts_for(const std::vector<InstallationFacts> &facts, const Installation *installation) {
    for (const InstallationFacts &item : facts) {
        if (item.installation == installation) return &item;
    }
    return nullptr;
}

std::string describe_copy(const std::vector<Installation> &installations, const std::vector<InstallationFacts> &facts,
                          const std::string &path) {
    const InstallationFacts *item = facts_for(facts, installation_holding(installations, path));
    return item ? item->vendor_title : "a copy the doctor did not examine";
}

std::string step_line(const SearchStep &step) { return step.source + ": " + step.candidate + " -- " + step.outcome; }

// Where the entry library's sub-libraries come from when it loads them (cuDNN 8's libcudnn.so.8 and
// LibreDNN's shim open them on first use; cuDNN 9's libraries need each other through DT_NEEDED).
void check_sublibraries(const std::string &entry_path, const InstallationFacts *entry, const LoaderEnvironment &loader,
                        const std::string &check_id, Section *section) {
    if (entry == nullptr || entry->installation == nullptr || entry->installation->major < 8) return;
    const Installation &installation = *entry->installation;
    Requester requester;
    requester.path = entry_path;
    const auto probe = entry->statics.find("cudnn");
    if (probe != entry->statics.end()) {
        requester.rpath = probe->second.elf.rpath;
        requester.runpath = probe->second.elf.runpath;
    }
    std::vector<std::string> mixed, lines;
    for (const std::string &stem : library_set(installation.major)) {
        if (stem == "cudnn") continue;
        const std::string soname = soname_of(stem, installation.major);
        // LibreDNN's shim tries its own directory first, whatever the search path says.
        if (entry->librednn && installation.soname_file(stem) != nullptr) {
            lines.push_back(soname + " -> " + installation.soname_file(stem)->path + " (the shim's own directory)");
            continue;
        }
        const SearchResult found = find_library(soname, requester, loader);
        if (!found.found) continue;  // reported as incomplete by the installation's own checks
        lines.push_back(soname + " -> " + found.path + " (" + found.source + ")");
        if (real_path(directory_of(found.path)) != installation.real_directory) {
            mixed.push_back(soname + " comes from " + found.path + " (via " + found.source + ")");
        }
    }
    if (mixed.empty()) {
        Check &check =
            section->add(check_id + ".sublibraries", Verdict::pass, "its sub-libraries come from the same directory");
        check.details = lines;
        return;
    }
    Check &check = section->add(
        check_id + ".sublibraries", Verdict::fail,
        base_name(entry_path) + " from " + installation.real_directory + " would load sub-libraries of another copy",
        "Remove the other copy's directory from LD_LIBRARY_PATH or install one complete copy; "
        "sub-libraries of two installations fail with version mismatches or crashes.");
    check.details = mixed;
}

}  // namespace

void report_default_loading(const std::vector<Installation> &installations, const std::vector<InstallationFacts> &facts,
                            const LoaderEnvironment &loader, Report *report) {
    std::set<int> majors;
    for (const Installation &installation : installations) {
        if (installation.major >= 0) majors.insert(installation.major);
    }
    if (majors.empty()) return;
    Section &section = report->section("loader", "Which copy a program loads (no RPATH, this environment)");
    const Requester program;
    for (int major : majors) {
        const std::string soname = soname_of("cudnn", major);
        const std::string id = "loader." + soname;
        const SearchResult found = find_library(soname, program, loader);
        std::vector<std::string> elsewhere;
        for (const Installation &installation : installations) {
            const LibraryFile *file = installation.major == major ? installation.soname_file("cudnn") : nullptr;
            if (file == nullptr || (found.found && real_path(file->path) == real_path(found.path))) continue;
            const InstallationFacts *item = facts_for(facts, &installation);
            elsewhere.push_back((item ? item->vendor_title : std::string("cuDNN")) + " at " +
                                installation.real_directory);
        }
        if (!found.found) {
            Check &check = section.add(id, Verdict::info,
                                       "a program linked with -lcudnn finds no " + soname +
                                           " on the default search path; the copies here are used by programs whose "
                                           "RPATH or LD_LIBRARY_PATH names them",
                                       "To make one the default: export LD_LIBRARY_PATH=<its directory>, or add the "
                                       "directory to /etc/ld.so.conf.d/ and run ldconfig.");
            check.details = elsewhere;
            continue;
        }
        const Installation *chosen = installation_holding(installations, found.path);
        const InstallationFacts *item = facts_for(facts, chosen);
        const bool broken = item != nullptr && item->failures > 0;
        Check &check = section.add(id, broken ? Verdict::warn : Verdict::pass,
                                   "a program linked with -lcudnn loads " + found.path + " (" +
                                       describe_copy(installations, facts, found.path) + ") via " + found.source +
                                       (broken ? ", a copy with problems (see its section)" : ""),
                                   broken ? "Fix that copy, or put a healthy copy first on the search path." : "");
        for (const std::string &copy : elsewhere) check.details.push_back("not chosen: " + copy);
        // LD_LIBRARY_PATH ahead of the system's copy: say so, since the user may not know it is set.
        const LdCacheEntry *cached = loader.cache.find(soname);
        if (found.source == "LD_LIBRARY_PATH" && cached != nullptr &&
            real_path(cached->path) != real_path(found.path)) {
            check.details.push_back("LD_LIBRARY_PATH shadows the system's copy " + cached->path + " (" +
                                    describe_copy(installations, facts, cached->path) + ")");
        }
        check_sublibraries(found.path, item, loader, id, &section);
    }
}

void report_program_loading(const std::string &program, const std::vector<Installation> &installations,
                            const std::vector<InstallationFacts> &facts, const LoaderEnvironment &loader,
                            Report *report) {
    Section &section = report->section("for", "Which cuDNN " + program + " loads", program);
    ElfDynamic root;
    std::string error;
    if (!read_elf_dynamic(program, &root, &error)) {
        section.add("for.read", Verdict::fail, "cannot read " + program + ": " + error,
                    "Give --for the path of an executable or a shared library (e.g. a Python extension module).");
        return;
    }
    struct Node {
        std::string path;
        ElfDynamic dynamic;
        Requester requester;             // how this node searches for its own dependencies
        std::vector<std::string> chain;  // names from the root to this node
    };
    std::deque<Node> queue;
    Node first;
    first.path = program;
    first.dynamic = root;
    first.requester.path = program;
    first.requester.rpath = root.rpath;
    first.requester.runpath = root.runpath;
    first.chain = {base_name(program)};
    queue.push_back(first);

    std::map<std::string, std::string> loaded;  // needed name or soname -> path
    std::vector<std::string> missing;
    struct CudnnHit {
        std::string needed;
        SearchResult result;
        std::vector<std::string> chain;
    };
    std::vector<CudnnHit> hits;
    size_t objects = 0;
    while (!queue.empty() && objects < kMaxObjects) {
        Node node = std::move(queue.front());
        queue.pop_front();
        ++objects;
        for (const std::string &needed : node.dynamic.needed) {
            if (loaded.count(needed)) continue;
            const SearchResult found = find_library(needed, node.requester, loader);
            LibraryName name;
            const bool is_cudnn = parse_library_name(needed, &name);
            if (is_cudnn) hits.push_back({needed, found, node.chain});
            if (!found.found) {
                missing.push_back(needed + " (needed by " + base_name(node.path) + ")");
                loaded[needed] = "";
                continue;
            }
            Node child;
            child.path = found.path;
            std::string child_error;
            read_elf_dynamic(found.path, &child.dynamic, &child_error);
            loaded[needed] = found.path;
            if (!child.dynamic.soname.empty()) loaded[child.dynamic.soname] = found.path;
            child.requester.path = found.path;
            child.requester.rpath = child.dynamic.rpath;
            child.requester.runpath = child.dynamic.runpath;
            // The DT_RPATH of the objects above apply too (when the child has no RUNPATH).
            Requester parent = node.requester;
            parent.loaders.clear();
            child.requester.loaders.push_back(parent);
            child.requester.loaders.insert(child.requester.loaders.end(), node.requester.loaders.begin(),
                                           node.requester.loaders.end());
            child.chain = node.chain;
            child.chain.push_back(base_name(found.path));
            queue.push_back(std::move(child));
        }
    }
    section.facts["objects_walked"] = std::to_string(objects);

    if (!missing.empty()) {
        Check &check =
            section.add("for.missing", Verdict::fail,
                        program + " cannot start: " + std::to_string(missing.size()) + " dependency(ies) are not found",
                        "Install the missing libraries or add their directories to LD_LIBRARY_PATH.");
        check.details = missing;
    }
    if (hits.empty()) {
        Check &check = section.add("for.cudnn", Verdict::info,
                                   program + " does not link cuDNN, directly or through its dependencies (" +
                                       std::to_string(objects) +
                                       " objects); if it opens cuDNN with dlopen(), it "
                                       "searches as shown below");
        check.show_details = true;
        Requester requester;
        requester.path = program;
        requester.rpath = root.rpath;
        requester.runpath = root.runpath;
        for (int major : {8, 9}) {
            const SearchResult found = find_library(soname_of("cudnn", major), requester, loader);
            check.details.push_back("dlopen(\"" + soname_of("cudnn", major) + "\") from it: " + found.explain());
        }
        return;
    }
    for (const CudnnHit &hit : hits) {
        std::string chain;
        for (const std::string &link : hit.chain) chain += link + " -> ";
        chain += hit.needed;
        const std::string id = "for." + hit.needed;
        if (!hit.result.found) {
            Check &check =
                section.add(id, Verdict::fail, chain + ": not found, so " + program + " cannot start",
                            "Install cuDNN where the loader looks (see the places tried) or add its directory "
                            "to LD_LIBRARY_PATH.");
            for (const SearchStep &step : hit.result.steps) check.details.push_back(step_line(step));
            continue;
        }
        const Installation *chosen = installation_holding(installations, hit.result.path);
        const InstallationFacts *item = facts_for(facts, chosen);
        const bool broken = item != nullptr && item->failures > 0;
        Check &check =
            section.add(id, broken ? Verdict::warn : Verdict::pass,
                        chain + " = " + hit.result.path + " (" + describe_copy(installations, facts, hit.result.path) +
                            "), via " + hit.result.source + (broken ? ", a copy with problems (see its section)" : ""),
                        broken ? "Fix that copy, or make the loader find a healthy one first." : "");
        check.show_details = true;
        check.details.push_back(
            "search order: DT_RPATH (when the requester has no DT_RUNPATH), LD_LIBRARY_PATH, "
            "DT_RUNPATH, ld.so.cache, system directories; the first match wins");
        for (const SearchStep &step : hit.result.steps) check.details.push_back(step_line(step));
        LibraryName name;
        if (parse_library_name(hit.needed, &name) && name.stem == "cudnn") {
            check_sublibraries(hit.result.path, item, loader, id, &section);
        }
    }
}

}  // namespace librednn::doctor
