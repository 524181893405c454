// Recording and writing one rank's trace (see trace.hpp for the format and its guarantees).
#include <tessera/runtime/error.hpp>
#include <tessera/runtime/handler_registry.hpp>
#include <tessera/runtime/trace.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <system_error>

namespace tessera {
namespace {

std::string json_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        else out += c;
    }
  }
  return out;
}

// A collection's element handler is sent as the `layout` member of a wire type templated on the
// member function (ElementWire<&Color::push, ...>): the member function is the name users know.
std::string handler_trace_name(std::string_view slot_name) {
  std::string_view name = detail::readable_handler_name(slot_name);
  const auto wire = name.find("Wire<&");
  if (wire == std::string_view::npos) return std::string(name.starts_with('&') ? name.substr(1) : name);
  const auto from = wire + 6;
  int depth = 0;
  std::size_t to = from;
  for (; to < name.size(); ++to) {
    if (name[to] == '<' || name[to] == '(') ++depth;
    else if (name[to] == '>' || name[to] == ')') {
      if (depth == 0) break;
      --depth;
    } else if (name[to] == ',' && depth == 0) {
      break;
    }
  }
  return std::string(name.substr(from, to - from));
}

// splitmix64: the flow sample must be the same function of (source, dest, n) on both ranks.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

Tracer::Tracer(const TraceFlags& flags, int rank, int size, std::int64_t origin_ns, ClockOffset offset, int process)
    : rank_(rank), size_(size), process_(process < 0 ? rank : process), process_name_(fmt::format("rank {}", rank)),
      origin_ns_(origin_ns), offset_ns_(offset.offset_ns),
      max_bytes_(static_cast<std::uint64_t>(flags.max_mb * 1024 * 1024)), sent_(size), received_(size) {
  const double fraction = flags.flow_fraction();
  flow_all_ = fraction >= 1.0;
  flow_threshold_ = static_cast<std::uint64_t>(std::ldexp(fraction, 64) >= std::ldexp(1.0, 64)
                                                   ? ~0ull
                                                   : static_cast<std::uint64_t>(std::ldexp(fraction, 64)));
  std::error_code ec;
  std::filesystem::create_directories(flags.dir, ec);
  path_ = std::filesystem::path(flags.dir) / fmt::format("rank.{}.json", process_);
  file_ = std::fopen(path_.c_str(), "w");
  if (file_ == nullptr)
    throw Error(fmt::format("--tessera_trace={}: cannot write {}: {}", flags.dir, path_.string(),
                            ec ? ec.message() : std::strerror(errno)));
  std::fputs("[\n", file_);
  bytes_written_ = 2;
  events_.reserve(kWriteEvents + 1024);
  names_.emplace_back();  // id 0: no name
  idle_name_ = intern("idle");
  element_name_ = intern("element");
  flow_name_ = intern("message");
}

Tracer::~Tracer() {
  if (file_ != nullptr) std::fclose(file_);
}

std::uint32_t Tracer::intern(std::string_view name) {
  auto [it, inserted] = name_ids_.try_emplace(std::string(name), static_cast<std::uint32_t>(names_.size()));
  if (inserted) names_.push_back(json_escape(name));
  return it->second;
}

void Tracer::push(Kind kind, std::uint32_t name, std::uint32_t category, std::uint64_t id, std::int64_t arg) {
  events_.push_back(Event{trace_clock_ns(), id, arg, name, category, 0, kind});
  // The size limit counts what is written and what waits (about 40 bytes an event in memory,
  // about three times that once written: the estimate errs towards stopping early).
  if (bytes_written_ + events_.size() * 128 > max_bytes_) stop();
}

void Tracer::begin_id(std::uint32_t name) {
  if (!active_) return;
  open_is_handler_.push_back(false);
  push(Kind::begin, name);
}

void Tracer::begin(std::string_view name) {
  if (!active_) return;
  begin_id(intern(name));
}

void Tracer::end() {
  if (!active_ || open_is_handler_.empty()) return;
  if (open_is_handler_.back()) --handler_depth_;
  open_is_handler_.pop_back();
  push(Kind::end, 0);
}

void Tracer::begin_handler(std::uint32_t handler, std::string_view slot_name, std::size_t bytes, std::uint64_t flow) {
  if (!active_) return;
  if (handler_names_.size() <= handler) handler_names_.resize(handler + 1, 0);
  if (handler_names_[handler] == 0) handler_names_[handler] = intern(handler_trace_name(slot_name));
  open_is_handler_.push_back(true);
  ++handler_depth_;
  push(Kind::handler, handler_names_[handler], 0, 0, static_cast<std::int64_t>(bytes));
  if (flow != 0 && active_) push(Kind::flow_end, flow_name_, 0, flow);
}

void Tracer::begin_element(std::uint64_t collection, std::uint64_t element) {
  if (!active_) return;
  open_is_handler_.push_back(false);
  push(Kind::element, element_name_, 0, element, static_cast<std::int64_t>(collection));
}

void Tracer::thread_slice(int tid, std::string_view name, std::int64_t start_ns, std::int64_t end_ns,
                          std::uint64_t count) {
  if (!active_) return;
  threads_ = std::max(threads_, tid + 1);
  const std::uint32_t id = intern(name);
  const auto thread = static_cast<std::uint16_t>(tid);
  events_.push_back(Event{start_ns, 0, static_cast<std::int64_t>(count), id, 0, thread, Kind::thread_begin});
  events_.push_back(Event{end_ns, 0, 0, 0, 0, thread, Kind::end});
  if (bytes_written_ + events_.size() * 128 > max_bytes_) stop();
}

void Tracer::complete(std::string_view name, std::int64_t start_ns, std::int64_t end_ns) {
  if (!active_) return;
  events_.push_back(Event{start_ns, 0, std::max<std::int64_t>(0, end_ns - start_ns), intern(name), 0, 0, Kind::complete});
  if (bytes_written_ + events_.size() * 128 > max_bytes_) stop();
}

void Tracer::renumber(int rank, int size, int rescales) {
  if (rank != rank_) process_name_ += fmt::format(" -> {} (rescale {})", rank, rescales);
  rank_ = rank;
  size_ = size;
  salt_ = static_cast<std::uint64_t>(rescales);
  sent_.assign(static_cast<std::size_t>(size), 0);
  received_.assign(static_cast<std::size_t>(size), 0);
}

void Tracer::joined_at(int rescales) { process_name_ += fmt::format(" (joined at rescale {})", rescales); }

void Tracer::async_begin(std::string_view category, std::string_view name, std::uint64_t id) {
  if (!active_) return;
  push(Kind::async_begin, intern(name), intern(category), id);
}

void Tracer::async_end(std::string_view category, std::string_view name, std::uint64_t id) {
  if (!active_) return;
  push(Kind::async_end, intern(name), intern(category), id);
}

std::uint64_t Tracer::sample(int source, int dest, std::uint64_t n) const {
  std::uint64_t pair = static_cast<std::uint64_t>(source) * static_cast<std::uint64_t>(size_) + static_cast<std::uint64_t>(dest);
  if (salt_ != 0) pair ^= mix(salt_);  // the same pair after a rescale: other flow ids
  const std::uint64_t h = mix(mix(pair) ^ n);
  if (!flow_all_ && h >= flow_threshold_) return 0;
  return h | 1;  // never 0, which means "no flow"
}

std::uint64_t Tracer::on_send(int dest) {
  const std::uint64_t flow = sample(rank_, dest, sent_[dest]++);
  if (flow != 0 && active_) push(Kind::flow_start, flow_name_, 0, flow);
  return flow;
}

std::uint64_t Tracer::on_receive(int source) { return active_ ? sample(source, rank_, received_[source]++) : 0; }

void Tracer::write() {
  if (file_ == nullptr) return;
  fmt::memory_buffer out;
  for (const Event& e : events_) {
    const double ts = (static_cast<double>(e.ts_ns - origin_ns_) + offset_ns_) / 1000.0;
    auto head = [&](char ph) {
      fmt::format_to(std::back_inserter(out), R"({{"ph":"{}","pid":{},"tid":{},"ts":{:.3f})", ph, process_, e.tid, ts);
    };
    switch (e.kind) {
      case Kind::begin:
        head('B');
        fmt::format_to(std::back_inserter(out), R"(,"name":"{}"}},)", names_[e.name]);
        break;
      case Kind::end:
        head('E');
        fmt::format_to(std::back_inserter(out), "}},");
        break;
      case Kind::handler:
        head('B');
        fmt::format_to(std::back_inserter(out), R"(,"name":"{}","cat":"handler","args":{{"bytes":{}}}}},)",
                       names_[e.name], e.arg);
        break;
      case Kind::thread_begin:
        head('B');
        fmt::format_to(std::back_inserter(out), R"(,"name":"{}","args":{{"count":{}}}}},)", names_[e.name], e.arg);
        break;
      case Kind::element:
        head('B');
        fmt::format_to(std::back_inserter(out), R"(,"name":"element","args":{{"collection":{},"element":{}}}}},)",
                       e.arg, e.id);
        break;
      case Kind::async_begin:
      case Kind::async_end:
        head(e.kind == Kind::async_begin ? 'b' : 'e');
        fmt::format_to(std::back_inserter(out), R"(,"cat":"{}","name":"{}","id":"0x{:x}"}},)", names_[e.category],
                       names_[e.name], e.id);
        break;
      case Kind::complete:
        head('X');
        fmt::format_to(std::back_inserter(out), R"(,"dur":{:.3f},"name":"{}"}},)", static_cast<double>(e.arg) / 1000.0,
                       names_[e.name]);
        break;
      case Kind::flow_start:
      case Kind::flow_end:
        head(e.kind == Kind::flow_start ? 's' : 'f');
        fmt::format_to(std::back_inserter(out), R"(,"cat":"flow","name":"message","id":"0x{:x}"{}}},)", e.id,
                       e.kind == Kind::flow_end ? R"(,"bp":"e")" : "");
        break;
    }
    out.push_back('\n');
  }
  events_.clear();
  if (out.size() != 0 && std::fwrite(out.data(), 1, out.size(), file_) != out.size())
    fatal("--tessera_trace: writing {} failed: {}", path_.string(), std::strerror(errno));
  bytes_written_ += out.size();
}

void Tracer::stop() {
  // Close what is open so the trace stays well formed, then record nothing more.
  while (!open_is_handler_.empty()) {
    open_is_handler_.pop_back();
    events_.push_back(Event{trace_clock_ns(), 0, 0, 0, 0, 0, Kind::end});
  }
  handler_depth_ = 0;
  active_ = false;
  std::fprintf(stderr,
               "tessera warning on rank %d: the trace reached --tessera_trace_max_mb=%g MiB; tracing stops "
               "here, the run goes on\n",
               rank_, static_cast<double>(max_bytes_) / (1024.0 * 1024.0));
}

void Tracer::close() {
  if (file_ == nullptr) return;
  const std::int64_t now = trace_clock_ns();
  while (!open_is_handler_.empty()) {
    open_is_handler_.pop_back();
    events_.push_back(Event{now, 0, 0, 0, 0, 0, Kind::end});
  }
  handler_depth_ = 0;
  write();
  std::fprintf(file_,
               R"({"ph":"M","pid":%d,"tid":0,"name":"process_name","args":{"name":"%s"}},)"
               "\n"
               R"({"ph":"M","pid":%d,"tid":0,"name":"process_sort_index","args":{"sort_index":%d}},)"
               "\n"
               R"({"ph":"M","pid":%d,"tid":0,"name":"thread_name","args":{"name":"scheduler"}})",
               process_, json_escape(process_name_).c_str(), process_, process_, process_);
  for (int tid = 1; tid < threads_; ++tid)
    std::fprintf(file_, ",\n" R"({"ph":"M","pid":%d,"tid":%d,"name":"thread_name","args":{"name":"worker %d"}})",
                 process_, tid, tid);
  std::fputs("\n]\n", file_);
  if (std::fclose(file_) != 0) {
    file_ = nullptr;
    fatal("--tessera_trace: closing {} failed: {}", path_.string(), std::strerror(errno));
  }
  file_ = nullptr;
  active_ = false;
}

}  // namespace tessera
