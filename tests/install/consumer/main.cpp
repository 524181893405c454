// Uses the installed package: a broadcast and an allreduce, checked exactly.
#include <tessera/runtime.hpp>

#include <cstdio>

namespace {
int greetings = 0;
void greet(int from) { greetings += from + 1; }
}  // namespace

int main(int argc, char** argv) {
  tessera::Runtime rt(argc, argv);
  rt.broadcast_from_this_rank<&greet>(rt.rank());
  rt.drain();
  const int total = rt.collectives().allreduce(greetings, tessera::op::sum{});
  const int p = rt.size();
  const int expected = p * p * (p + 1) / 2;  // every rank got every rank's (from + 1)
  if (rt.rank() == 0) std::printf("consumer: total %d, expected %d\n", total, expected);
  return total == expected ? 0 : 1;
}
