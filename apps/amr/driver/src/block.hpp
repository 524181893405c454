#pragma once
// A block of tessera-amr as a collection element (internal to the driver): its cells, and the
// quarters it gathers when it is the first child of a parent being coarsened.
#include "tessera/amr/cells.hpp"
#include "tessera/amr/mesh.hpp"

#include <tessera/collections.hpp>

#include <cereal/types/array.hpp>
#include <cereal/types/vector.hpp>

#include <string_view>

namespace tessera::amr {

using collections::Index3D;

inline Index3D index_of(const BlockId& b) { return Index3D{b.level, b.i, b.j}; }

class Block : public collections::Element<Block, 3> {
 public:
  static constexpr std::string_view checkpoint_tag = "tessera.amr.Block";
  Block() = default;
  Block(const Index3D&, Cells cells) : cells_(std::move(cells)) {}

  BlockId id() const { return {index()[0], index()[1], index()[2]}; }
  const Cells& cells() const { return cells_; }

  /// Handler: one step of the block's diffusion.
  void advance(std::int64_t, std::int32_t passes) { cells_.step(passes); }

  /// Handler, on the first child of a parent being coarsened: quarter `q` of the parent. With
  /// all four, the parent is inserted on this rank and this block destroys itself.
  void take_quarter(std::int32_t q, Cells quarter) {
    quarters_[static_cast<std::size_t>(q)] = std::move(quarter);
    if (++gathered_ < 4) return;
    const BlockId parent = id().parent();
    proxy()[index_of(parent)].insert_at(runtime().rank(), Cells::assemble(quarters_));
    destroy();
  }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(cells_, quarters_, gathered_);
  }

 private:
  Cells cells_;
  std::array<Cells, 4> quarters_;
  std::int32_t gathered_ = 0;
};

}  // namespace tessera::amr
