#pragma once
// The runtime a test main created for the whole run, for test bodies that are not handlers.
// The library has no process-wide runtime (this_runtime() works only inside a scheduler turn), so
// the tests keep their own one access point here.
#include <tessera/runtime.hpp>

#include <cstdio>
#include <cstdlib>

namespace tessera::testing {

inline Runtime*& main_runtime_slot() {
  static Runtime* runtime = nullptr;
  return runtime;
}

/// The test main's runtime; aborts if the main registered none (a test-harness bug).
inline Runtime& runtime() {
  if (main_runtime_slot() == nullptr) {
    std::fprintf(stderr, "tessera::testing::runtime(): the test main registered no runtime\n");
    std::abort();
  }
  return *main_runtime_slot();
}

/// Registers `rt` as the test main's runtime for this object's lifetime.
class MainRuntime {
 public:
  explicit MainRuntime(Runtime& rt) { main_runtime_slot() = &rt; }
  ~MainRuntime() { main_runtime_slot() = nullptr; }
  MainRuntime(const MainRuntime&) = delete;
  MainRuntime& operator=(const MainRuntime&) = delete;
};

}  // namespace tessera::testing
