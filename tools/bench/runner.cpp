// One case on every library: tensors allocated and filled once, each library bound, warmed up and
// timed in turn (or run once and compared).
#include "runner.hpp"

#include "timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace librednn::bench {

namespace {

// Perf-mode inputs repeat a random block of this many elements: generating every value of a
// 400 MB tensor on the host would take longer than measuring it.
constexpr size_t kPatternElements = size_t(1) << 18;
constexpr double kMinimumWarmupMs = 20;
constexpr int kMaximumWarmupRuns = 10000;

// The tensors of a case, `copies` times over, so that consecutive runs read cold data.
struct TensorSets {
    std::vector<std::vector<Buffer>> copies;  // [copy][tensor]
    std::vector<TensorPointers> pointers;     // [copy][tensor]
};

uint64_t tensor_seed(uint64_t seed, size_t tensor) { return seed * 0x100000001b3ull + tensor * 7919 + 1; }

std::vector<uint8_t> encoded(cudnnDataType_t type, const std::vector<double> &values) {
    std::vector<uint8_t> bytes(values.size() * data_type_size(type));
    encode(type, values.data(), values.size(), bytes.data());
    return bytes;
}

// Adds copies until there are `copies`; stops early (keeping at least one) when memory runs out.
Outcome allocate_sets(const std::vector<TensorSpec> &specs, MemoryKind kind, int copies, TensorSets *sets) {
    while (sets->copies.size() < static_cast<size_t>(copies)) {
        std::vector<Buffer> buffers(specs.size());
        TensorPointers pointers(specs.size());
        for (size_t i = 0; i < specs.size(); ++i) {
            const Outcome allocated = Buffer::allocate(kind, specs[i].bytes(), &buffers[i]);
            if (!allocated.ok()) return sets->copies.empty() ? allocated : Outcome::success();
            pointers[i] = buffers[i].data();
        }
        sets->copies.push_back(std::move(buffers));
        sets->pointers.push_back(std::move(pointers));
    }
    return Outcome::success();
}

// Perf mode: copies from `first` on filled with a repeated random block per tensor.
Outcome fill_for_timing(const std::vector<TensorSpec> &specs, uint64_t seed, size_t first, TensorSets *sets) {
    for (size_t i = 0; i < specs.size(); ++i) {
        const size_t count = std::min<size_t>(static_cast<size_t>(specs[i].elements), kPatternElements);
        const std::vector<uint8_t> pattern =
            encoded(specs[i].type, random_values(specs[i].type, specs[i].fill, count, tensor_seed(seed, i)));
        for (size_t copy = first; copy < sets->copies.size(); ++copy)
            BENCH_TRY(sets->copies[copy][i].fill_repeating(pattern));
    }
    return Outcome::success();
}

// Check mode: every value random (outputs poisoned: NaN, or 77 for integers, so that an output the
// library does not write shows), and the initial contents of what a run writes kept for restoring.
Outcome fill_for_check(const std::vector<TensorSpec> &specs, uint64_t seed, TensorSets *sets,
                       std::vector<std::vector<uint8_t>> *initial) {
    initial->assign(specs.size(), {});
    for (size_t i = 0; i < specs.size(); ++i) {
        const TensorSpec &spec = specs[i];
        std::vector<double> values;
        if (spec.role == Role::output)
            values.assign(static_cast<size_t>(spec.elements),
                          is_integer_type(spec.type) ? 77.0 : std::numeric_limits<double>::quiet_NaN());
        else
            values = random_values(spec.type, spec.fill, static_cast<size_t>(spec.elements), tensor_seed(seed, i));
        std::vector<uint8_t> bytes = encoded(spec.type, values);
        BENCH_TRY(sets->copies[0][i].upload(bytes.data(), bytes.size()));
        if (spec.role != Role::input) (*initial)[i] = std::move(bytes);
    }
    return Outcome::success();
}

Outcome download_tensor(const TensorSpec &spec, const Buffer &buffer, std::vector<double> *values) {
    std::vector<uint8_t> bytes(spec.bytes());
    BENCH_TRY(buffer.download(bytes.data(), bytes.size()));
    values->assign(static_cast<size_t>(spec.elements), 0.0);
    decode(spec.type, bytes.data(), values->size(), values->data());
    return Outcome::success();
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

Outcome time_operation(Operation &operation, const TensorSets &sets, const Buffer &workspace,
                       const RunSettings &settings, LibraryResult *result) {
    const MemoryKind kind = settings.platform.memory;
    const size_t copies = sets.pointers.size();
    size_t next = 0;
    const auto run_once = [&] {
        return operation.run(sets.pointers[next++ % copies], workspace.data(), workspace.bytes());
    };
    // Warm-up: the requested runs, then doubling batches until the GPU has been busy for a while.
    const auto warmup_start = std::chrono::steady_clock::now();
    int done = 0;
    for (; done < settings.warmup; ++done) BENCH_TRY(run_once());
    BENCH_TRY(synchronize(kind));
    while (settings.warmup > 0 && milliseconds_since(warmup_start) < kMinimumWarmupMs && done < kMaximumWarmupRuns) {
        for (int i = 0, batch = done; i < batch; ++i, ++done) BENCH_TRY(run_once());
        BENCH_TRY(synchronize(kind));
    }
    Stopwatch watch(kind, settings.runs);
    BENCH_TRY(watch.ready());
    for (int run = 0; run < settings.runs; ++run) {
        watch.start(run);
        const Outcome outcome = run_once();
        watch.stop(run);
        if (!outcome.ok()) return outcome;
    }
    std::vector<double> times;
    BENCH_TRY(watch.elapsed(&times));
    result->runs = settings.runs;
    result->median_ms = median(times);
    result->min_ms = *std::min_element(times.begin(), times.end());
    result->max_ms = *std::max_element(times.begin(), times.end());
    return Outcome::success();
}

Outcome run_for_check(Operation &operation, const std::vector<TensorSpec> &specs, TensorSets &sets,
                      const std::vector<std::vector<uint8_t>> &initial, const Buffer &workspace,
                      const RunSettings &settings, LibraryResult *result) {
    for (size_t i = 0; i < specs.size(); ++i)
        if (specs[i].role != Role::input) BENCH_TRY(sets.copies[0][i].upload(initial[i].data(), initial[i].size()));
    BENCH_TRY(operation.run(sets.pointers[0], workspace.data(), workspace.bytes()));
    BENCH_TRY(synchronize(settings.platform.memory));
    result->runs = 1;
    result->outputs.assign(specs.size(), {});
    for (size_t i = 0; i < specs.size(); ++i)
        if (specs[i].role != Role::input && operation.unwritten(i).empty())
            BENCH_TRY(download_tensor(specs[i], sets.copies[0][i], &result->outputs[i]));
    return Outcome::success();
}

// The worst output of `out` against `ref` (same tensor order; inputs, and outputs a library left
// unwritten, are empty and skipped).
void compare_outputs(const std::vector<TensorSpec> &specs, const HostTensors &out, const HostTensors &ref,
                     CheckResult *check) {
    bool first = true;
    for (size_t i = 0; i < specs.size(); ++i) {
        if (specs[i].role == Role::input || i >= out.size() || i >= ref.size() || out[i].empty() || ref[i].empty())
            continue;
        const ErrorStats stats = compare(out[i], ref[i]);
        if (stats.nan_both > 0)
            check->note += (check->note.empty() ? "" : "; ") + std::to_string(stats.nan_both) + " of " +
                           std::to_string(out[i].size()) + " elements of " + specs[i].name +
                           " are NaN in both (unwritten outputs stay NaN)";
        if (first || stats.relative > check->errors.relative ||
            (stats.relative == check->errors.relative && stats.max_abs > check->errors.max_abs)) {
            check->errors = stats;
            check->worst = specs[i].name;
            first = false;
        }
    }
    check->compared = !first;
}

// Check mode without --vs: LibreDNN's host reference, when the problem has one.
void check_against_reference(const Problem &problem, const std::vector<TensorSpec> &specs, const TensorSets &sets,
                             const std::vector<std::vector<uint8_t>> &initial, const LibraryResult &out,
                             CheckResult *check) {
    check->against = "reference";
    const Reference reference = reference_for(problem);
    if (!reference.compute) {
        check->note = reference.unavailable;
        return;
    }
    HostTensors tensors(specs.size());
    for (size_t i = 0; i < specs.size(); ++i) {
        if (specs[i].role == Role::input) {
            const Outcome read = download_tensor(specs[i], sets.copies[0][i], &tensors[i]);
            if (!read.ok()) {
                check->note = read.message();
                return;
            }
        } else {
            tensors[i].assign(static_cast<size_t>(specs[i].elements), 0.0);
            decode(specs[i].type, initial[i].data(), tensors[i].size(), tensors[i].data());
        }
    }
    const Outcome computed = reference.compute(&tensors);
    if (!computed.ok()) {
        check->note = "the reference failed: " + computed.message();
        return;
    }
    compare_outputs(specs, out.outputs, tensors, check);
}

}  // namespace

std::unique_ptr<Session> Session::start(std::unique_ptr<Library> library, const std::string &role, std::string *error) {
    std::unique_ptr<Session> session(new Session());
    session->library_ = std::move(library);
    session->role_ = role;
    const Outcome created = BENCH_CALL(*session->library_, cudnnCreate, &session->handle_);
    if (!created.ok()) {
        *error = "cannot create a handle with " + session->library_->describe() + ": " + created.message();
        session->handle_ = nullptr;
        return nullptr;
    }
    return session;
}

Session::~Session() {
    if (handle_ != nullptr && library_->api().cudnnDestroy) library_->api().cudnnDestroy(handle_);
}

CaseResult run_case(const Case &entry, const std::vector<Session *> &sessions, const RunSettings &settings) {
    const Problem &problem = *entry.problem;
    const std::vector<TensorSpec> specs = problem.tensors();
    CaseResult result;
    result.name = entry.name;
    result.group = entry.group;
    result.count = entry.count;
    result.problem = problem.text();
    result.flops = problem.flops();
    result.bytes = bytes_moved(specs);
    result.libraries.resize(sessions.size());
    const MemoryKind kind = settings.platform.memory;

    // One set of tensors first: enough to learn whether any library runs the problem at all.
    TensorSets sets;
    std::vector<std::vector<uint8_t>> initial;
    Outcome prepared = allocate_sets(specs, kind, 1, &sets);
    if (prepared.ok())
        prepared = settings.check ? fill_for_check(specs, settings.seed, &sets, &initial)
                                  : fill_for_timing(specs, settings.seed, 0, &sets);
    if (prepared.ok()) prepared = synchronize(kind);
    if (!prepared.ok()) {
        for (LibraryResult &library : result.libraries) library.outcome = prepared;
        return result;
    }

    // Bind the problem to every library first, so that inputs derived by one (y = forward(x) for a
    // backward op) are the inputs every library reads.
    std::vector<std::unique_ptr<Operation>> operations(sessions.size());
    for (size_t s = 0; s < sessions.size(); ++s) {
        const Context context{&sessions[s]->library(), sessions[s]->handle(), kind};
        operations[s] = problem.bind(context, &result.libraries[s].outcome);
    }
    Operation *deriver = nullptr;
    for (const auto &operation : operations) {
        if (!operation) continue;
        Outcome derived = operation->derive_inputs(sets.pointers[0]);
        if (derived.ok()) derived = synchronize(kind);
        if (derived.ok()) {
            deriver = operation.get();
            break;
        }  // else the next library tries; failing all, the inputs stay random
    }

    // Each library chooses its algorithm and makes one call: the check run, or the probe before timing.
    std::vector<Buffer> workspaces(sessions.size());
    bool any_ran = false;
    for (size_t s = 0; s < sessions.size(); ++s) {
        LibraryResult &library = result.libraries[s];
        if (!operations[s]) continue;
        Operation &operation = *operations[s];
        library.outcome = operation.choose(sets.pointers[0]);
        library.choice = operation.choice();
        if (!library.outcome.ok()) continue;
        library.workspace = operation.workspace_bytes();
        if (library.workspace > 0) library.outcome = Buffer::allocate(kind, library.workspace, &workspaces[s]);
        if (!library.outcome.ok()) continue;
        if (settings.check) {
            library.copies = 1;
            library.outcome = run_for_check(operation, specs, sets, initial, workspaces[s], settings, &library);
        } else {
            library.outcome = operation.run(sets.pointers[0], workspaces[s].data(), workspaces[s].bytes());
            if (library.outcome.ok()) library.outcome = synchronize(kind);
        }
        // A failed call may leave an asynchronous error behind; surface it here, not in the next case.
        if (!library.outcome.ok()) synchronize(kind);
        any_ran = any_ran || library.outcome.ok();
    }

    if (!settings.check && any_ran) {
        // Copies of the tensors beyond the cache, so that every timed run reads cold data.
        size_t bytes_per_copy = 0;
        for (const TensorSpec &spec : specs) bytes_per_copy += spec.bytes();
        const int copies = rotation_copies(bytes_per_copy, settings.platform.cache_bytes, free_memory(kind) / 4);
        Outcome extended = allocate_sets(specs, kind, copies, &sets);
        if (extended.ok()) extended = fill_for_timing(specs, settings.seed, 1, &sets);
        for (size_t copy = 1; extended.ok() && deriver && copy < sets.pointers.size(); ++copy)
            extended = deriver->derive_inputs(sets.pointers[copy]);
        if (extended.ok()) extended = synchronize(kind);
        for (size_t s = 0; s < sessions.size(); ++s) {
            LibraryResult &library = result.libraries[s];
            if (!library.outcome.ok()) continue;
            library.copies = static_cast<int>(sets.pointers.size());
            library.outcome =
                extended.ok() ? time_operation(*operations[s], sets, workspaces[s], settings, &library) : extended;
            if (!library.outcome.ok()) synchronize(kind);
        }
    }

    if (settings.check) {
        // Outputs a library that ran left unwritten are not compared; the note says which and why.
        for (size_t s = 0; s < sessions.size(); ++s) {
            if (!result.libraries[s].outcome.ok()) continue;
            for (size_t i = 0; i < specs.size(); ++i) {
                const std::string why = specs[i].role == Role::input ? "" : operations[s]->unwritten(i);
                if (!why.empty())
                    result.check.note += (result.check.note.empty() ? "" : "; ") + specs[i].name +
                                         " not compared: " + sessions[s]->role() + " " + why;
            }
        }
        if (sessions.size() >= 2) {
            result.check.against = "vs";
            if (result.libraries[0].outcome.ok() && result.libraries[1].outcome.ok())
                compare_outputs(specs, result.libraries[0].outputs, result.libraries[1].outputs, &result.check);
            else
                result.check.note = "not compared: a library did not run";
        } else if (result.libraries[0].outcome.ok()) {
            check_against_reference(problem, specs, sets, initial, result.libraries[0], &result.check);
        } else {
            result.check.against = "reference";
            result.check.note = "not compared: the library did not run";
        }
        for (LibraryResult &library : result.libraries) library.outputs.clear();
    }
    return result;
}

}  // namespace librednn::bench
