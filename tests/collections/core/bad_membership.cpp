// Bad dynamic membership requests, chosen by argv[1]: each must stop every rank with one message.
//   static   insert into a collection whose elements are fixed at creation
//   rank     insert on a rank outside [0, size)
//   bounds   insert at an index outside the bounds
#include <tessera/collections.hpp>

#include <string_view>

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
  const std::string_view what = argc > 1 ? argv[1] : "";
  auto fixed = tessera::collections::make_collection<Cell>(rt, {4, 4});
  auto dynamic = tessera::collections::make_dynamic_collection<Cell>(rt, {4, 4});
  if (rt.rank() == 0) {
    if (what == "static") fixed[{1, 2}].insert();
    if (what == "rank") dynamic[{1, 2}].insert_at(rt.size());
    if (what == "bounds") dynamic[{4, 0}].insert();
  }
  rt.drain();
  return 0;
}
