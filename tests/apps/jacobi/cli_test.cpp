// Runs tessera-jacobi under mpirun: the plain MPI solver and the collection of tiles must give the
// same iterations, residual bits and field fingerprint on 1, 2 and 4 ranks for several tilings.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <string>

namespace {

struct Outcome {
  int iterations = 0;
  std::string residual_bits;
  std::string fingerprint;
};

// The JSON summary of one run (the last line of its output); a failed run fails the test.
Outcome run_jacobi(int ranks, const std::string& args) {
  const std::string command = std::string(TESSERA_TEST_MPIRUN) + " -np " + std::to_string(ranks) + " " +
                              TESSERA_JACOBI_BINARY + " --report=json " + args + " 2>&1";
  std::string output;
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "cannot run " << command;
    return {};
  }
  std::array<char, 4096> chunk{};
  std::size_t n = 0;
  while ((n = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0) output.append(chunk.data(), n);
  const int status = pclose(pipe);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    ADD_FAILURE() << command << " failed:\n" << output;
    return {};
  }
  while (!output.empty() && output.back() == '\n') output.pop_back();
  const auto json = nlohmann::json::parse(output.substr(output.rfind('\n') + 1));
  EXPECT_EQ(json.at("ranks").get<int>(), ranks);
  return Outcome{json.at("iterations").get<int>(), json.at("residual_bits").get<std::string>(),
             json.at("fingerprint").get<std::string>()};
}

void expect_same(const Outcome& expected, const Outcome& actual, const std::string& what) {
  EXPECT_EQ(actual.iterations, expected.iterations) << what;
  EXPECT_EQ(actual.residual_bits, expected.residual_bits) << what;
  EXPECT_EQ(actual.fingerprint, expected.fingerprint) << what;
}

constexpr const char* kGrid = "--ny 24 --nx 30 --iterations 40";

TEST(JacobiModes, MpiOnOneTwoAndFourRanksAgree) {
  const Outcome reference = run_jacobi(1, std::string("--mode mpi ") + kGrid);
  EXPECT_EQ(reference.iterations, 40);
  EXPECT_EQ(reference.residual_bits.size(), 16U);
  expect_same(reference, run_jacobi(2, std::string("--mode mpi ") + kGrid), "mpi on 2 ranks");
  expect_same(reference, run_jacobi(4, std::string("--mode mpi ") + kGrid), "mpi on 4 ranks");
}

TEST(JacobiModes, TilesMatchMpiForSeveralTilings) {
  const Outcome reference = run_jacobi(1, std::string("--mode mpi ") + kGrid);
  struct Case {
    int ranks;
    const char* tiles;
  };
  for (const Case c : {Case{1, "1x1"}, Case{1, "3x4"}, Case{2, "2x2"}, Case{2, "5x3"}, Case{4, "4x4"},
                       Case{4, "1x6"}, Case{4, "24x1"}}) {
    const std::string args = std::string("--mode tiles --tiles ") + c.tiles + " " + kGrid;
    expect_same(reference, run_jacobi(c.ranks, args), args + " on " + std::to_string(c.ranks) + " ranks");
  }
}

TEST(JacobiModes, ToleranceStopsBothModesAtTheSameSweep) {
  const std::string args = "--ny 12 --nx 12 --iterations 500 --tolerance 1e-3";
  const Outcome mpi = run_jacobi(2, "--mode mpi " + args);
  EXPECT_GT(mpi.iterations, 1);
  EXPECT_LT(mpi.iterations, 500);
  expect_same(mpi, run_jacobi(2, "--mode tiles --tiles 3x3 " + args), "tiles 3x3 with a tolerance");
}

}  // namespace
