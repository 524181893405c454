#include "tessera/pic/driver/recut.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "tessera/pic/color_cuts.hpp"

namespace tessera::pic::driver {

Recutter::Recutter(MPI_Comm comm, const TileGrid& grid, const Problem& problem, std::uint64_t placed)
    : comm_(comm),
      grid_(grid),
      min_width_(problem.x_travel()),
      min_height_(std::max<std::int64_t>(problem.y_travel(), 1)),
      share_limit_(0.0) {
  grid_.check_travel(problem);
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  share_limit_ = static_cast<double>(placed) / (kColorsPerRankShare * ranks);
}

std::uint64_t Recutter::heaviest_color(const collections::CollectionProxy<Color>& colors) const {
  std::uint64_t heaviest = 0;
  colors.manager().for_each_local([&heaviest](const Color& c) { heaviest = std::max(heaviest, c.held()); });
  MPI_Allreduce(MPI_IN_PLACE, &heaviest, 1, MPI_UINT64_T, MPI_MAX, comm_);
  return heaviest;
}

bool Recutter::maybe_recut(Runtime& rt, const collections::CollectionProxy<Color>& colors, bool balancer_stuck) {
  const auto heaviest = static_cast<double>(heaviest_color(colors));
  if (heaviest <= std::max(regrown_, balancer_stuck ? 0.0 : share_limit_)) return false;
  recut(rt, colors);
  ++recuts_;
  regrown_ = kRegrowth * static_cast<double>(heaviest_color(colors));
  return true;
}

void Recutter::recut(Runtime& rt, const collections::CollectionProxy<Color>& colors) {
  const auto L = static_cast<std::size_t>(grid_.grid_size());
  // Columns then rows, in one buffer for one reduction.
  std::vector<std::uint64_t> counts(2 * L, 0);
  colors.manager().for_each_local([&counts, L](Color& c) {
    c.settle();
    for (const Particle& p : c.tile().particles()) {
      ++counts[static_cast<std::size_t>(p.x)];
      ++counts[L + static_cast<std::size_t>(p.y)];
    }
  });
  MPI_Allreduce(MPI_IN_PLACE, counts.data(), static_cast<int>(counts.size()), MPI_UINT64_T, MPI_SUM, comm_);
  const ColorCuts cuts = ColorCuts::balanced(grid_, std::span(counts).first(L), std::span(counts).subspan(L),
                                             min_width_, min_height_, kAreaWeight);

  // Every local color takes its new shape before any particle is sent, so an adopting color
  // (possibly on this rank) already covers the cells it is sent.
  std::vector<std::pair<TileCoord, std::vector<Particle>>> outgoing;
  colors.manager().for_each_local([&outgoing, &cuts](Color& c) {
    for (auto& entry : c.reshape(cuts)) outgoing.push_back(std::move(entry));
  });
  // A color on this rank takes its particles directly; the others get a message each.
  for (const auto& [to, particles] : outgoing) {
    const collections::Index3D index{to.i, to.j, 0};
    if (Color* local = colors.local(index)) {
      local->tile().accept(particles);
    } else {
      colors[index].send<&Color::adopt>(std::as_bytes(std::span(particles)));
    }
  }
  rt.drain();
}

lb::LoadModel recut_load_model(std::unordered_map<std::uint64_t, std::uint64_t> counts,
                                       double seconds_per_particle) {
  return [counts = std::move(counts), seconds_per_particle](const lb::LbObject& measured, lb::PhaseId) {
    if (!measured.migratable) return 0.0;
    const auto it = counts.find(measured.id.value);
    return it == counts.end() ? measured.load : static_cast<double>(it->second) * seconds_per_particle;
  };
}

}  // namespace tessera::pic::driver
