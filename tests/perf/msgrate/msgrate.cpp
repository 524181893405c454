// tessera-bench-msgrate: rate of 8-byte messages from rank 0 to rank 1, Tessera active messages
// against raw MPI in the same run. Raw MPI is a windowed stream (64 MPI_Isend / pre-posted
// MPI_Irecv per window, as in OSU's message-rate test); Tessera is a plain loop of sends whose
// handler counts arrivals. Both end when rank 1 has every message and has acknowledged.
#include <tessera/runtime.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace {

std::uint64_t arrived = 0;
std::uint64_t arrived_sum = 0;
bool acknowledged = false;

void count(std::uint64_t value) {
  ++arrived;
  arrived_sum += value;
}
void ack() { acknowledged = true; }

double tessera_rate(tessera::Runtime& rt, std::uint64_t messages) {
  arrived = arrived_sum = 0;
  acknowledged = false;
  rt.collectives().barrier();
  const double start = tessera::wall_time();
  if (rt.rank() == 0) {
    for (std::uint64_t i = 0; i < messages; ++i) {
      rt.send<&count>(1, i);
      if ((i & 63) == 63) rt.progress();  // let completed sends retire, as MPI's window does
    }
    rt.run_until([] { return acknowledged; });
  } else if (rt.rank() == 1) {
    rt.run_until([messages] { return arrived == messages; });
    if (arrived_sum != messages * (messages - 1) / 2) tessera::fatal("message rate: payloads corrupted");
    rt.send<&ack>(0);
  }
  const double elapsed = tessera::wall_time() - start;
  rt.collectives().barrier();
  return static_cast<double>(messages) / elapsed;
}

double mpi_rate(MPI_Comm comm, int rank, std::uint64_t messages) {
  constexpr int window = 64;
  std::vector<std::uint64_t> values(window);
  std::vector<MPI_Request> requests(window);
  MPI_Barrier(comm);
  const double start = tessera::wall_time();
  for (std::uint64_t sent = 0; sent < messages; sent += window) {
    const int n = static_cast<int>(std::min<std::uint64_t>(window, messages - sent));
    for (int i = 0; i < n; ++i) {
      if (rank == 0) {
        values[i] = sent + i;
        MPI_Isend(&values[i], 1, MPI_UINT64_T, 1, 1, comm, &requests[i]);
      } else if (rank == 1) {
        MPI_Irecv(&values[i], 1, MPI_UINT64_T, 0, 1, comm, &requests[i]);
      }
    }
    if (rank <= 1) MPI_Waitall(n, requests.data(), MPI_STATUSES_IGNORE);
  }
  char token = 0;
  if (rank == 1) MPI_Send(&token, 1, MPI_CHAR, 0, 2, comm);
  if (rank == 0) MPI_Recv(&token, 1, MPI_CHAR, 1, 2, comm, MPI_STATUS_IGNORE);
  const double elapsed = tessera::wall_time() - start;
  MPI_Barrier(comm);
  return static_cast<double>(messages) / elapsed;
}

}  // namespace

int main(int argc, char** argv) {
  tessera::Runtime rt(argc, argv);
  CLI::App app{"Tessera message rate against raw MPI"};
  std::string report;
  std::uint64_t messages = 1000000;
  int trials = 5;
  app.add_option("--report", report, "Output format: json prints one JSON object on the last line")
      ->check(CLI::IsMember({"json", "text"}));
  app.add_option("--messages", messages, "Messages per trial")->check(CLI::PositiveNumber);
  app.add_option("--trials", trials, "Interleaved trials; the best of each is kept")->check(CLI::PositiveNumber);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return rt.rank() == 0 ? app.exit(e) : 1;
  }
  if (rt.size() < 2) {
    if (rt.rank() == 0) std::fprintf(stderr, "tessera-bench-msgrate needs at least 2 ranks\n");
    return 1;
  }
  MPI_Comm app_comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &app_comm);
  tessera_rate(rt, messages / 10 + 1);
  mpi_rate(app_comm, rt.rank(), messages / 10 + 1);
  double best_tessera = 0;
  double best_mpi = 0;
  for (int t = 0; t < trials; ++t) {
    best_mpi = std::max(best_mpi, mpi_rate(app_comm, rt.rank(), messages));
    best_tessera = std::max(best_tessera, tessera_rate(rt, messages));
  }
  if (rt.rank() == 0) {
    fmt::print("8 B messages 0 -> 1: tessera {:.0f}/s  mpi {:.0f}/s  ratio {:.3f}\n", best_tessera, best_mpi,
               best_tessera / best_mpi);
    if (report == "json")
      fmt::print(R"({{"benchmark":"message_rate","transport":"{}","provider":"{}","shm":{},)"
                 R"("tessera_msgs_per_s":{:.0f},"mpi_msgs_per_s":{:.0f},"ratio":{:.4f},"hosts":{}}})"
                 "\n",
                 rt.flags().transport, rt.network_provider(),
                 rt.flags().shm, best_tessera, best_mpi, best_tessera / best_mpi, rt.num_nodes());
  }
  MPI_Comm_free(&app_comm);
  return 0;
}
