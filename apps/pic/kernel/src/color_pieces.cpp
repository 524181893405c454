#include "tessera/pic/color_pieces.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace tessera::pic {

namespace {

// The halves of `rect` along its longer side: (west or south, east or north).
std::pair<CellRect, CellRect> halves(const CellRect& rect) {
  if (rect.width >= rect.height) {
    const std::int64_t w = rect.width / 2;
    return {{rect.x0, rect.y0, w, rect.height}, {rect.x0 + w, rect.y0, rect.width - w, rect.height}};
  }
  const std::int64_t h = rect.height / 2;
  return {{rect.x0, rect.y0, rect.width, h}, {rect.x0, rect.y0 + h, rect.width, rect.height - h}};
}

}  // namespace

bool splittable(const CellRect& rect) { return std::max(rect.width, rect.height) >= 2; }

CellRect piece_rect(const CellRect& tile, std::uint64_t piece) {
  if (piece == 0) throw std::logic_error("piece 0 does not exist (pieces count from 1)");
  CellRect rect = tile;
  // The bits below the leading 1, most significant first: 0 the first half, 1 the second.
  for (int bit = std::bit_width(piece) - 2; bit >= 0; --bit) {
    if (!splittable(rect)) {
      throw std::logic_error(fmt::format("piece {} of a {} x {} tile does not exist", piece, tile.width, tile.height));
    }
    const auto [first, second] = halves(rect);
    rect = ((piece >> bit) & 1U) != 0 ? second : first;
  }
  return rect;
}

std::uint64_t piece_bound(std::int64_t width, std::int64_t height) {
  // Each split at least halves one side (rounding up), so a piece is one cell after at most
  // ceil(log2 w) + ceil(log2 h) splits.
  const auto levels = std::bit_width(static_cast<std::uint64_t>(std::max<std::int64_t>(width, 1) - 1)) +
                      std::bit_width(static_cast<std::uint64_t>(std::max<std::int64_t>(height, 1) - 1));
  return std::uint64_t{2} << levels;
}

PieceMap::PieceMap(ColorCuts cuts)
    : cuts_(std::move(cuts)), split_(static_cast<std::size_t>(cuts_.tiles_x() * cuts_.tiles_y())) {}

void PieceMap::assign(std::span<const PieceId> leaves) {
  const auto tiles = static_cast<std::size_t>(cuts_.tiles_x() * cuts_.tiles_y());
  std::vector<std::vector<std::uint64_t>> split(tiles);
  std::vector<std::vector<std::uint64_t>> leaf(tiles);
  std::vector<std::int64_t> area(tiles, 0);
  for (const PieceId& l : leaves) {
    if (l.tile.i < 0 || l.tile.i >= cuts_.tiles_x() || l.tile.j < 0 || l.tile.j >= cuts_.tiles_y() || l.piece == 0) {
      throw std::invalid_argument(fmt::format("color ({}, {}) piece {} is not on the grid", l.tile.i, l.tile.j, l.piece));
    }
    const auto t = static_cast<std::size_t>(l.tile.i + l.tile.j * cuts_.tiles_x());
    area[t] += piece_rect(cuts_.rect(l.tile), l.piece).cells();
    leaf[t].push_back(l.piece);
    for (std::uint64_t p = l.piece / 2; p >= 1; p /= 2) split[t].push_back(p);
  }
  std::size_t count = 0;
  for (std::size_t t = 0; t < tiles; ++t) {
    std::sort(split[t].begin(), split[t].end());
    split[t].erase(std::unique(split[t].begin(), split[t].end()), split[t].end());
    std::sort(leaf[t].begin(), leaf[t].end());
    const bool nested = std::any_of(leaf[t].begin(), leaf[t].end(), [&](std::uint64_t p) {
      return std::binary_search(split[t].begin(), split[t].end(), p);
    });
    const bool twice = std::adjacent_find(leaf[t].begin(), leaf[t].end()) != leaf[t].end();
    const TileCoord coord{static_cast<std::int64_t>(t) % cuts_.tiles_x(), static_cast<std::int64_t>(t) / cuts_.tiles_x()};
    if (nested || twice || area[t] != cuts_.rect(coord).cells()) {
      throw std::invalid_argument(fmt::format("the colors of tile ({}, {}) do not cover it exactly once", coord.i, coord.j));
    }
    count += split[t].size();
  }
  split_ = std::move(split);
  split_count_ = count;
}

bool PieceMap::is_split(std::size_t tile, std::uint64_t piece) const {
  const std::vector<std::uint64_t>& s = split_[tile];
  return !s.empty() && std::binary_search(s.begin(), s.end(), piece);
}

PieceId PieceMap::locate(std::int64_t x, std::int64_t y) const {
  const TileCoord tile = cuts_.tile_of_cell(x, y);
  const auto t = static_cast<std::size_t>(tile.i + tile.j * cuts_.tiles_x());
  std::uint64_t piece = 1;
  if (split_[t].empty()) return {tile, piece};
  CellRect rect = cuts_.rect(tile);
  while (is_split(t, piece)) {
    const auto [first, second] = halves(rect);
    const bool in_first = first.contains(x, y);
    piece = 2 * piece + (in_first ? 0 : 1);
    rect = in_first ? first : second;
  }
  return {tile, piece};
}

}  // namespace tessera::pic
