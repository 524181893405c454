// ORDERTASKS and its alternatives (seed 003, Algorithm 2 line 2, Algorithms 4-6).

#include <algorithm>
#include <numeric>

#include "tessera/lb/tempered_transfer.hpp"

namespace tessera::lb::tempered {

namespace {

using Ordering = TemperedOptions::Ordering;

// Objects up to `pivot` by descending load, then heavier ones by ascending load: the shape shared
// by Algorithms 5 and 6 (their comparators c and c2). Stable, so equal loads keep storage order.
void pivot_order(std::vector<std::size_t>& order, std::span<const LbObject> objects, double pivot) {
  const auto light = std::stable_partition(order.begin(), order.end(),
                                           [&](std::size_t i) { return objects[i].load <= pivot; });
  std::stable_sort(order.begin(), light,
                   [&](std::size_t a, std::size_t b) { return objects[a].load > objects[b].load; });
  std::stable_sort(light, order.end(),
                   [&](std::size_t a, std::size_t b) { return objects[a].load < objects[b].load; });
}

void descending(std::vector<std::size_t>& order, std::span<const LbObject> objects) {
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return objects[a].load > objects[b].load; });
}

}  // namespace

std::vector<std::size_t> order_objects(Ordering ordering, std::span<const LbObject> objects,
                                       double average, double load) {
  std::vector<std::size_t> order;
  order.reserve(objects.size());
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (objects[i].migratable) order.push_back(i);
  }
  if (order.empty()) return order;
  const double excess = load - average;
  switch (ordering) {
    case Ordering::arbitrary:
      break;
    case Ordering::element_id:
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t a, std::size_t b) { return objects[a].id < objects[b].id; });
      break;
    case Ordering::load_intensive:
      descending(order, objects);
      break;
    case Ordering::fewest_migrations: {
      // Algorithm 5: the lightest object that alone removes the excess goes first.
      double cut = 0.0;
      bool found = false;
      for (std::size_t i : order) {
        if (objects[i].load > excess && (!found || objects[i].load < cut)) {
          cut = objects[i].load;
          found = true;
        }
      }
      if (found) {
        pivot_order(order, objects, cut);
      } else {
        descending(order, objects);
      }
      break;
    }
    case Ordering::lightweight: {
      // Algorithm 6: the marginal object, where the ascending running sum first reaches the excess.
      std::vector<std::size_t> ascending = order;
      std::stable_sort(ascending.begin(), ascending.end(),
                       [&](std::size_t a, std::size_t b) { return objects[a].load < objects[b].load; });
      double marginal = objects[ascending.back()].load;
      double sum = 0.0;
      for (std::size_t i : ascending) {
        sum += objects[i].load;
        if (sum >= excess) {
          marginal = objects[i].load;
          break;
        }
      }
      order = std::move(ascending);
      pivot_order(order, objects, marginal);
      break;
    }
  }
  return order;
}

void keep_heaviest(std::vector<std::size_t>& order, std::span<const LbObject> objects, double average) {
  if (order.empty()) return;
  auto heaviest = order.begin();
  for (auto it = order.begin(); it != order.end(); ++it) {
    if (objects[*it].load > objects[*heaviest].load ||
        (objects[*it].load == objects[*heaviest].load && *it < *heaviest)) {
      heaviest = it;
    }
  }
  if (objects[*heaviest].load > average) order.erase(heaviest);
}

}  // namespace tessera::lb::tempered
