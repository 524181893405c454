#pragma once
/// Rectangles of cells and the eight directions to a tile's neighbours.
#include <array>
#include <cstdint>

namespace tessera::pic {

/// The cells x0 <= x < x0 + width, y0 <= y < y0 + height of the grid.
struct CellRect {
  std::int64_t x0 = 0;
  std::int64_t y0 = 0;
  std::int64_t width = 0;
  std::int64_t height = 0;

  bool contains(std::int64_t x, std::int64_t y) const {
    return x >= x0 && x < x0 + width && y >= y0 && y < y0 + height;
  }
  std::int64_t cells() const { return width * height; }

  template <class Archive>
  void serialize(Archive& archive) {
    archive(x0, y0, width, height);
  }
};

/// A neighbour of a tile, x growing east and y growing north; indices 0..7.
enum class Direction : std::uint8_t { east, north_east, north, north_west, west, south_west, south, south_east };

inline constexpr std::size_t kDirections = 8;

inline constexpr std::array<Direction, kDirections> kAllDirections = {
    Direction::east, Direction::north_east, Direction::north, Direction::north_west,
    Direction::west, Direction::south_west, Direction::south, Direction::south_east};

/// The step (dx, dy) in tiles, each -1, 0 or 1.
struct Offset {
  int dx = 0;
  int dy = 0;
};

inline constexpr Offset offset(Direction d) {
  constexpr std::array<Offset, kDirections> table = {
      Offset{1, 0}, Offset{1, 1}, Offset{0, 1}, Offset{-1, 1},
      Offset{-1, 0}, Offset{-1, -1}, Offset{0, -1}, Offset{1, -1}};
  return table[static_cast<std::size_t>(d)];
}

inline constexpr Direction opposite(Direction d) {
  return static_cast<Direction>((static_cast<std::size_t>(d) + 4) % kDirections);
}

inline constexpr std::size_t index_of(Direction d) { return static_cast<std::size_t>(d); }

/// The direction of a non-zero offset.
inline constexpr Direction direction_of(int dx, int dy) {
  for (Direction d : kAllDirections) {
    if (offset(d).dx == dx && offset(d).dy == dy) {
      return d;
    }
  }
  return Direction::east;
}

}  // namespace tessera::pic
