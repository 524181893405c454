// tessera-bench-pingpong: one-way latency of a Tessera active message against a raw
// MPI_Send/MPI_Recv ping-pong of the same bytes, measured in the same run on ranks 0 and 1.
// One-way latency = round trip / 2. Each figure is the best of several interleaved trials, so
// a burst of noise from another process hits one trial, not the comparison.
//
// A third figure, raw MPI moving as many bytes as Tessera puts on the wire for the same payload
// (record length, envelope, argument length, payload), separates what the runtime's software
// costs from what MPI charges for the larger message: on Open MPI's shared-memory path an 8-byte
// message is markedly cheaper than any larger one.
#include <tessera/runtime.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace {

int pongs = 0;
int pings = 0;

void pong(std::span<const std::byte>) { ++pongs; }
void ping(tessera::Runtime& rt, std::span<const std::byte> bytes) {
  ++pings;
  rt.send<&pong>(0, bytes);
}

double tessera_one_way_us(tessera::Runtime& rt, std::size_t bytes, int iterations) {
  std::vector<std::byte> payload(bytes, std::byte{1});
  pongs = pings = 0;
  rt.collectives().barrier();
  const double start = tessera::wall_time();
  if (rt.rank() == 0) {
    for (int i = 0; i < iterations; ++i) {
      rt.send<&ping>(1, std::span<const std::byte>(payload));
      rt.run_until([i] { return pongs == i + 1; });
    }
  } else if (rt.rank() == 1) {
    rt.run_until([iterations] { return pings == iterations; });
  }
  const double elapsed = tessera::wall_time() - start;
  rt.collectives().barrier();
  return elapsed / iterations / 2 * 1e6;
}

// What one active message with a byte-view payload occupies on the wire: the batch's record
// length, the envelope, the view's length, the bytes.
std::size_t wire_bytes(std::size_t payload) {
  return sizeof(std::uint64_t) + sizeof(tessera::Envelope) + sizeof(std::uint64_t) + payload;
}

double mpi_one_way_us(MPI_Comm comm, int rank, std::size_t bytes, int iterations) {
  std::vector<std::byte> payload(bytes, std::byte{1});
  MPI_Barrier(comm);
  const double start = tessera::wall_time();
  const int n = static_cast<int>(bytes);
  for (int i = 0; i < iterations; ++i) {
    if (rank == 0) {
      MPI_Send(payload.data(), n, MPI_BYTE, 1, 0, comm);
      MPI_Recv(payload.data(), n, MPI_BYTE, 1, 0, comm, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(payload.data(), n, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE);
      MPI_Send(payload.data(), n, MPI_BYTE, 0, 0, comm);
    }
  }
  const double elapsed = tessera::wall_time() - start;
  MPI_Barrier(comm);
  return elapsed / iterations / 2 * 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  tessera::Runtime rt(argc, argv);
  CLI::App app{"Tessera active-message latency against raw MPI"};
  std::string report;
  int iterations = 20000;
  int trials = 5;
  std::vector<std::size_t> sizes{8, 1024, 65536};
  app.add_option("--report", report, "Output format: json prints one JSON object on the last line")
      ->check(CLI::IsMember({"json", "text"}));
  app.add_option("--iterations", iterations, "Round trips per trial (8 B; fewer for larger sizes)")
      ->check(CLI::PositiveNumber);
  app.add_option("--trials", trials, "Interleaved trials; the best of each is kept")->check(CLI::PositiveNumber);
  app.add_option("--sizes", sizes, "Payload sizes in bytes (the issue's figures: 8 1024 65536)")
      ->check(CLI::PositiveNumber);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return rt.rank() == 0 ? app.exit(e) : 1;
  }
  if (rt.size() < 2) {
    if (rt.rank() == 0) std::fprintf(stderr, "tessera-bench-pingpong needs at least 2 ranks\n");
    return 1;
  }
  MPI_Comm app_comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &app_comm);
  std::string json = fmt::format(R"({{"benchmark":"pingpong","transport":"{}","provider":"{}","shm":{},"hosts":{},"results":[)",
                                 rt.flags().transport,
                                 rt.network_provider(), rt.flags().shm, rt.num_nodes());
  bool first = true;
  for (std::size_t bytes : sizes) {
    const int n = bytes >= 65536 ? std::max(1, iterations / 10) : iterations;
    const std::size_t wire = wire_bytes(bytes);
    double best_tessera = 1e30;
    double best_mpi = 1e30;
    double best_mpi_wire = 1e30;
    tessera_one_way_us(rt, bytes, n / 10 + 1);  // warm-up: pools, connections, caches
    mpi_one_way_us(app_comm, rt.rank(), bytes, n / 10 + 1);
    for (int t = 0; t < trials; ++t) {
      best_mpi = std::min(best_mpi, mpi_one_way_us(app_comm, rt.rank(), bytes, n));
      best_tessera = std::min(best_tessera, tessera_one_way_us(rt, bytes, n));
      best_mpi_wire = std::min(best_mpi_wire, mpi_one_way_us(app_comm, rt.rank(), wire, n));
    }
    if (rt.rank() == 0) {
      fmt::print("{:>7} B  tessera {:8.3f} us  mpi {:8.3f} us  ratio {:.3f}   (mpi with Tessera's {} wire bytes "
                 "{:.3f} us, ratio {:.3f})\n",
                 bytes, best_tessera, best_mpi, best_tessera / best_mpi, wire, best_mpi_wire,
                 best_tessera / best_mpi_wire);
      json += fmt::format(
          R"({}{{"bytes":{},"tessera_us":{:.4f},"mpi_us":{:.4f},"ratio":{:.4f},"wire_bytes":{},"mpi_wire_us":{:.4f},"ratio_to_wire":{:.4f}}})",
          first ? "" : ",", bytes, best_tessera, best_mpi, best_tessera / best_mpi, wire, best_mpi_wire,
          best_tessera / best_mpi_wire);
      first = false;
    }
  }
  json += "]}";
  if (rt.rank() == 0 && report == "json") fmt::print("{}\n", json);
  MPI_Comm_free(&app_comm);
  return 0;
}
