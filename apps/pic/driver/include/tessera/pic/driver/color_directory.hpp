#pragma once
/// What every rank of the AMT mode knows about the colors as a whole: which color holds each cell
/// (a PieceMap), and how many colors arrived on this rank by migration. One instance per rank, in
/// an object group, so a color's handlers reach their own rank's instance through the group proxy
/// they carry (two runtimes in one process each have theirs).
///
/// With whole colors (no --tessera_lb_split_above / _merge_below), a color sends its departing
/// particles to its 8 neighbours by direction and never asks the map. When colors split and merge,
/// a color's neighbours are no longer fixed, so each departing particle goes to the color the map
/// names for its cell (`by_cell()`), and the driver rebuilds the map after every balancing that
/// split or merged colors.
#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

#include <tessera/collections.hpp>
#include <tessera/runtime/objgroup.hpp>

#include "tessera/pic/color_pieces.hpp"

namespace tessera::pic::driver {

/// The collection index of a color: (i, j, piece - 1), so whole colors are (i, j, 0).
inline collections::Index3D index_of(const PieceId& id) {
  return {id.tile.i, id.tile.j, static_cast<std::int64_t>(id.piece) - 1};
}
inline PieceId piece_of(const collections::Index3D& idx) {
  return {{idx[0], idx[1]}, static_cast<std::uint64_t>(idx[2]) + 1};
}

class ColorDirectory {
 public:
  /// Every tile of `cuts` one whole color; `by_cell`: route departures through the map.
  ColorDirectory(ColorCuts cuts, bool by_cell) : map_(std::move(cuts)), by_cell_(by_cell) {}

  const PieceMap& map() const { return map_; }
  bool by_cell() const { return by_cell_; }

  /// Collective on `comm`: rebuilds the map from every rank's `local` colors (MPI_Allgatherv of
  /// 3 integers per color). Throws std::invalid_argument if they do not tile the grid.
  void rebuild(MPI_Comm comm, std::span<const PieceId> local);

  void count_arrival() { ++arrivals_; }
  /// Colors that arrived on this rank by migration since the last reset_arrivals().
  std::uint64_t arrivals() const { return arrivals_; }
  void reset_arrivals() { arrivals_ = 0; }

 private:
  PieceMap map_;
  bool by_cell_;
  std::uint64_t arrivals_ = 0;
};

}  // namespace tessera::pic::driver
