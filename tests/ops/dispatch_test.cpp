// Dispatch: the solver of the handle's backend runs; without one the call answers NOT_SUPPORTED and
// says why; LIBREDNN_DISABLE_SOLVERS switches solvers off.
#include "ops/common/dispatch.hpp"
#include "ops/activation/solvers.hpp"
#include "ops/common/registry.hpp"
#include "ops/reduce/solvers.hpp"
#include "ops/softmax/solvers.hpp"
#include "ops/tensor/solvers.hpp"
#include "ops/transform/solvers.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

namespace {

using namespace librednn;

ActivationProblem small_problem() {
    const int64_t dims[] = {1, 2, 3, 4};
    ActivationProblem p;
    p.x = p.y = packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw);
    return p;
}

TEST(OpDispatch, EveryFamilyHasAHostSolver) {
    auto has_host = [](const auto &solvers) {
        for (const auto *solver : solvers) {
            if (solver->backend() == Backend::host) return true;
        }
        return false;
    };
    EXPECT_TRUE(has_host(activation_solvers()));
    EXPECT_TRUE(has_host(softmax_solvers()));
    EXPECT_TRUE(has_host(add_tensor_solvers()));
    EXPECT_TRUE(has_host(op_tensor_solvers()));
    EXPECT_TRUE(has_host(set_tensor_solvers()));
    EXPECT_TRUE(has_host(reduce_solvers()));
    EXPECT_TRUE(has_host(transform_solvers()));
}

TEST(OpDispatch, PicksTheFirstApplicableHostSolver) {
    const ActivationSolver *chosen = nullptr;
    ASSERT_EQ(select_solver(activation_solvers(), Backend::host, small_problem(), "activation", &chosen),
              CUDNN_STATUS_SUCCESS);
    ASSERT_NE(chosen, nullptr);
    EXPECT_STREQ(chosen->name(), "host_activation_packed");
}

TEST(OpDispatch, ABackendWithoutSolversAnswersNotSupportedWithAReason) {
    bool any_cuda = false;
    for (const ActivationSolver *solver : activation_solvers())
        any_cuda = any_cuda || solver->backend() == Backend::cuda;
    if (any_cuda) GTEST_SKIP() << "the CUDA activation solvers exist";
    clear_failure_reason();
    const ActivationSolver *chosen = nullptr;
    EXPECT_EQ(select_solver(activation_solvers(), Backend::cuda, small_problem(), "activation", &chosen),
              CUDNN_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(chosen, nullptr);
    EXPECT_NE(last_failure_reason().find("no cuda solver for activation"), std::string::npos) << last_failure_reason();
}

TEST(OpDispatch, SwitchedOffSolversAreSkippedWithTheirReason) {
    setenv("LIBREDNN_DISABLE_SOLVERS", "host_activation_packed,host_activation_strided", 1);
    clear_failure_reason();
    const ActivationSolver *chosen = nullptr;
    const Status status = select_solver(activation_solvers(), Backend::host, small_problem(), "activation", &chosen);
    unsetenv("LIBREDNN_DISABLE_SOLVERS");
    EXPECT_EQ(status, CUDNN_STATUS_NOT_SUPPORTED);
    const std::string &reason = last_failure_reason();
    EXPECT_NE(reason.find("host_activation_strided: switched off by LIBREDNN_DISABLE_SOLVERS"), std::string::npos)
        << reason;
    EXPECT_NE(reason.find("op=act"), std::string::npos) << reason;
}

// Every solver of the registry: a unique stable id and a unique name, the id in its backend's range.
TEST(SolverRegistry, IdsAndNamesAreUniqueAndIdsAreInTheirBackendsRange) {
    std::set<int> ids;
    std::set<std::string> names;
    size_t count = 0;
    auto check = [&](const auto &solvers) {
        for (const auto *solver : solvers) {
            ++count;
            const int id = static_cast<int>(solver->id());
            EXPECT_TRUE(ids.insert(id).second) << solver->name() << ": id " << id << " is taken";
            EXPECT_TRUE(names.insert(solver->name()).second) << solver->name() << " is registered twice";
            if (solver->backend() == Backend::host) {
                EXPECT_LT(id, 1000) << solver->name();
            } else {
                EXPECT_GE(id, 1001) << solver->name();
            }
        }
    };
    auto check_no_algorithm = [&](const auto &solvers) {
        check(solvers);
        for (const auto *solver : solvers)
            EXPECT_EQ(solver->algorithm(), kNoAlgorithm) << solver->name() << ": this family has no algorithm enum";
    };
    auto check_conv = [&](const auto &solvers, int algorithm_count) {
        check(solvers);
        for (const auto *solver : solvers) {
            EXPECT_GE(solver->algorithm(), 0) << solver->name();
            EXPECT_LT(solver->algorithm(), algorithm_count) << solver->name();
        }
    };
    const SolverRegistry &registry = solver_registry();
    check_no_algorithm(registry.activation);
    check_no_algorithm(registry.softmax);
    check_no_algorithm(registry.add_tensor);
    check_no_algorithm(registry.op_tensor);
    check_no_algorithm(registry.set_tensor);
    check_no_algorithm(registry.reduce);
    check_no_algorithm(registry.transform);
    check_conv(registry.conv_forward, CUDNN_CONVOLUTION_FWD_ALGO_COUNT);
    check_conv(registry.conv_backward_data, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT);
    check_conv(registry.conv_backward_filter, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT);
    EXPECT_GE(count, 17u);
}

TEST(OpDispatch, RankingListsApplicableSolversFirstAndTheOthersWithTheirReasons) {
    setenv("LIBREDNN_DISABLE_SOLVERS", "host_activation_packed", 1);
    const auto ranked = rank_solvers(activation_solvers(), Backend::host, small_problem());
    unsetenv("LIBREDNN_DISABLE_SOLVERS");
    ASSERT_EQ(ranked.size(), 2u);
    EXPECT_STREQ(ranked[0].solver->name(), "host_activation_strided");
    EXPECT_TRUE(ranked[0].answer.ok());
    EXPECT_STREQ(ranked[1].solver->name(), "host_activation_packed");
    EXPECT_EQ(ranked[1].answer.reason(), "switched off by LIBREDNN_DISABLE_SOLVERS");
}

TEST(OpDispatch, AskingForAnAlgorithmNoSolverImplementsIsNotSupported) {
    clear_failure_reason();
    const ActivationSolver *chosen = nullptr;
    EXPECT_EQ(select_solver_for_algorithm(activation_solvers(), Backend::host, small_problem(), 3, "ALGO_3",
                                          "activation", &chosen),
              CUDNN_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(chosen, nullptr);
    EXPECT_NE(last_failure_reason().find("activation with ALGO_3"), std::string::npos) << last_failure_reason();
}

}  // namespace
