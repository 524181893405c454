#include "tessera/uts/tree.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace tessera::uts {

TreeGenerator::TreeGenerator(const TreeParams& params, Sha1Backend backend)
    : params_(params), rng_(backend) {
  validate(params_);
}

Node TreeGenerator::root() { return Node{rng_.root(params_.root_seed), 0}; }

Node TreeGenerator::child(const Node& parent, std::int32_t index) {
  Node node{{}, parent.height + 1};
  for (std::int32_t i = 0; i < params_.granularity; ++i) {
    node.state = rng_.spawn(parent.state, index);
  }
  return node;
}

std::int32_t TreeGenerator::geometric_children(const Node& node) const {
  const double b0 = params_.root_branching;
  const double depth = node.height;
  const double d = params_.depth;
  double target = b0;
  if (node.height > 0) {
    switch (params_.shape) {
      case GeoShape::expdec:
        target = b0 * std::pow(depth, -std::log(b0) / std::log(d));
        break;
      case GeoShape::cyclic:
        target = depth > 5 * d ? 0.0 : std::pow(b0, std::sin(2.0 * std::numbers::pi * depth / d));
        break;
      case GeoShape::fixed:
        target = depth < d ? b0 : 0.0;
        break;
      case GeoShape::linear:
        target = b0 * (1.0 - depth / d);
        break;
    }
  }
  // Inverse CDF of the geometric distribution with mean `target`. The expression must stay
  // exactly this one: the published counts depend on its rounding.
  const double p = 1.0 / (1.0 + target);
  const double u = rng_probability(rng_value(node.state));
  const double children = std::floor(std::log(1.0 - u) / std::log(1.0 - p));
  // Truncate before converting: a huge b would otherwise overflow the integer.
  return static_cast<std::int32_t>(std::min(children, double{kMaxChildren}));
}

std::int32_t TreeGenerator::binomial_children(const Node& node) const {
  const double u = rng_probability(rng_value(node.state));
  return u < params_.nonleaf_probability ? params_.nonleaf_children : 0;
}

std::int32_t TreeGenerator::num_children(const Node& node) const {
  std::int32_t children = 0;
  switch (params_.type) {
    case TreeType::binomial:
      if (node.height == 0) {
        return static_cast<std::int32_t>(std::floor(params_.root_branching));
      }
      children = binomial_children(node);
      break;
    case TreeType::geometric:
      children = geometric_children(node);
      break;
    case TreeType::hybrid:
      children = node.height < params_.shift_depth * params_.depth ? geometric_children(node)
                                                                   : binomial_children(node);
      break;
  }
  return std::min(children, kMaxChildren);
}

}  // namespace tessera::uts
