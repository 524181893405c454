// Sends to an index outside a 4x4 collection's bounds: must abort every rank with one message.
#include <tessera/collections.hpp>

namespace {
struct Cell : tessera::collections::Element<Cell, 2> {
  void poke() {}
  template <class Archive>
  void serialize(Archive&) {}
};
}  // namespace

int main(int argc, char** argv) {
  tessera::Runtime rt(argc, argv);
  tessera::collections::PhaseManager::install(rt, tessera::collections::LoadClock::wall);
  auto cells = tessera::collections::make_collection<Cell>(rt, {4, 4});
  if (rt.rank() == 0) cells[{3, 9}].send<&Cell::poke>();
  rt.drain();
  return 0;
}
