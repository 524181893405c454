#pragma once
/// Collectives over the spanning tree (spanning_tree.hpp, branching `--tessera_tree_fanout`):
/// barrier, reduce and allreduce of any encodable value (arithmetic values, vectors, user types)
/// with op::sum / op::min / op::max or any callable `T(T, const T&)`.
///
/// Every rank must call the same collectives in the same order (as with MPI): the n-th call on
/// each rank is the same operation. Partial results are combined in a fixed order (own value,
/// then children by rank), so floating-point results are identical from run to run.
///
/// Non-blocking forms take a callback, run from the progress loop when the result is ready (on
/// the root for reduce, on every rank for allreduce). Blocking forms run the progress loop until
/// then; call them from the application's flow, not from inside a handler.
#include <tessera/runtime/resident.hpp>
#include <tessera/runtime/runtime.hpp>
#include <tessera/runtime/spanning_tree.hpp>

#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace tessera {

namespace op {
namespace detail {
template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

template <class T, class F>
T combine(T a, const T& b, F f) {
  if constexpr (is_vector<T>::value) {
    if (a.size() != b.size())
      fatal("element-wise reduction of vectors of different lengths ({} and {})", a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = f(a[i], b[i]);
    return a;
  } else {
    return f(a, b);
  }
}
}  // namespace detail

/// Sum (element-wise for vectors).
struct sum {
  template <class T>
  T operator()(T a, const T& b) const {
    return detail::combine(std::move(a), b, [](const auto& x, const auto& y) { return x + y; });
  }
};
/// Minimum (element-wise for vectors).
struct min {
  template <class T>
  T operator()(T a, const T& b) const {
    return detail::combine(std::move(a), b, [](const auto& x, const auto& y) { return y < x ? y : x; });
  }
};
/// Maximum (element-wise for vectors).
struct max {
  template <class T>
  T operator()(T a, const T& b) const {
    return detail::combine(std::move(a), b, [](const auto& x, const auto& y) { return x < y ? y : x; });
  }
};
}  // namespace op

/// One per runtime (Runtime::collectives() makes it on first use), so it is a detail::Resident the
/// runtime owns without knowing its type.
class Collectives : public detail::Resident {
 public:
  explicit Collectives(Runtime& rt) : rt_(rt) {}

  /// The number the next collective will have: every rank numbers them alike, so a process that
  /// joins at an expand continues from the running ranks' (rank_change.hpp).
  std::uint64_t next_sequence() const { return next_seq_; }
  void continue_at(std::uint64_t sequence) { next_seq_ = sequence; }

  /// Combines every rank's `value` with `op`; `done(result)` runs on `root`.
  template <class T, class Op>
  void reduce(int root, T value, Op op, std::function<void(T)> done) {
    start<T>(root, std::move(value), std::move(op), false, std::move(done));
  }

  /// Combines every rank's `value`; `done(result)` runs on every rank.
  template <class T, class Op>
  void allreduce(T value, Op op, std::function<void(T)> done) {
    start<T>(0, std::move(value), std::move(op), true, std::move(done));
  }

  /// Combines every rank's `value` and runs free handler F(result) on `root`.
  template <auto F, class T, class Op>
  void reduce_to(int root, T value, Op op) {
    start<T>(root, std::move(value), std::move(op), false, [](T result) { F(std::move(result)); });
  }

  /// `done()` runs on every rank once every rank has entered the barrier.
  void barrier(std::function<void()> done) {
    allreduce<char>(0, op::max{}, [done = std::move(done)](char) { done(); });
  }

  /// Blocking allreduce: the combined value, on every rank.
  template <class T, class Op>
  T allreduce(T value, Op op) {
    std::optional<T> result;
    allreduce<T>(std::move(value), std::move(op), [&result](T r) { result = std::move(r); });
    rt_.run_until([&result] { return result.has_value(); });
    return std::move(*result);
  }

  /// Blocking reduce: the combined value on `root`, std::nullopt elsewhere.
  template <class T, class Op>
  std::optional<T> reduce(int root, T value, Op op) {
    std::optional<T> result;
    const std::uint64_t seq = next_seq_;
    reduce<T>(root, std::move(value), std::move(op), [&result](T r) { result = std::move(r); });
    // Non-roots return once their subtree's partial has left; the root waits for everyone.
    if (rt_.rank() == root) rt_.run_until([&result] { return result.has_value(); });
    else rt_.run_until([this, seq] { return pending_.count(seq) == 0; });
    return result;
  }

  /// Blocking barrier.
  void barrier() {
    bool done = false;
    barrier([&done] { done = true; });
    rt_.run_until([&done] { return done; });
  }

  /// A child's partial result for collective `seq` (from the system handlers).
  void absorb_partial(std::uint64_t seq, int child, std::span<const std::byte> value);
  /// The final result of allreduce `seq`, coming down from `root`.
  void receive_result(std::uint64_t seq, int root, std::span<const std::byte> value);

 private:
  struct Pending {
    bool contributed = false;
    std::size_t expected = 0;
    std::map<int, Buffer> partials;  // by child rank: the fixed combine order
    std::function<void(std::map<int, Buffer>&)> finish;
  };

  template <class T, class Op>
  void start(int root, T value, Op op, bool all, std::function<void(T)> done) {
    const std::uint64_t seq = next_seq_++;
    Pending& pending = pending_[seq];
    pending.contributed = true;
    pending.expected =
        spanning_tree_children(rt_.rank(), root, rt_.size(), rt_.flags().tree_fanout).size();
    pending.finish = [this, seq, root, all, value = std::move(value), op = std::move(op),
                      done = std::move(done)](std::map<int, Buffer>& partials) mutable {
      T acc = std::move(value);
      for (auto& [child, bytes] : partials) {
        serial::Reader reader(bytes.view(), &rt_);
        acc = op(std::move(acc), serial::decode<T>(reader));
      }
      Buffer encoded;
      serial::encode<T>(encoded, acc);
      const int parent = spanning_tree_parent(rt_.rank(), root, rt_.size(), rt_.flags().tree_fanout);
      if (parent >= 0) {
        if (all)
          results_[seq] = [done, &rt = rt_](std::span<const std::byte> bytes) mutable {
            serial::Reader reader(bytes, &rt);
            done(serial::decode<T>(reader));
          };
        send_partial(parent, seq, encoded);
      } else {
        if (all) send_result_down(seq, root, encoded.view());
        done(std::move(acc));
      }
    };
    complete_if_ready(seq);
  }

  void complete_if_ready(std::uint64_t seq);
  void send_partial(int parent, std::uint64_t seq, const Buffer& encoded);
  void send_result_down(std::uint64_t seq, int root, std::span<const std::byte> encoded);

  Runtime& rt_;
  std::uint64_t next_seq_ = 0;
  std::unordered_map<std::uint64_t, Pending> pending_;
  std::unordered_map<std::uint64_t, std::function<void(std::span<const std::byte>)>> results_;
};

}  // namespace tessera
