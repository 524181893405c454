#include <fmt/format.h>

#include <array>

#include "tessera/pic/driver/collective.hpp"
#include "tessera/pic/driver/modes.hpp"
#include "tessera/pic/driver/neighbour_exchange.hpp"
#include "tessera/pic/driver/own_communicator.hpp"
#include "tessera/pic/driver/time_to_solution.hpp"
#include "tessera/pic/decomposition.hpp"
#include "tessera/pic/id_table.hpp"
#include "tessera/pic/tile.hpp"
#include "tessera/pic/tile_grid.hpp"

namespace tessera::pic::driver {

RunSummary run_spmd(const Options& options, MPI_Comm parent) {
  const Problem& problem = options.problem;
  OwnCommunicator own(parent);
  const MPI_Comm comm = own.get();
  int rank = 0;
  int ranks = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);

  problem.validate();
  const TileGrid grid = Decomposition(problem, ranks, 1).colors();
  check_writable(comm, "--dump_particles", options.dump_particles);

  const TileCoord me = grid.coord(rank);
  Tile tile(grid.rect(me), problem.grid_size);
  IdTable ids(grid);
  ids.record(me, tile.draw(problem));
  combine_id_table(comm, ids);
  tile.place(problem, ids.first_ids(me));

  std::array<int, kDirections> neighbours{};
  for (Direction d : kAllDirections) {
    neighbours[index_of(d)] = static_cast<int>(grid.index(grid.neighbour(me, d)));
  }
  NeighbourExchange exchange(comm, neighbours);

  if (rank == 0 && !options.json) {
    const CellRect first = grid.rect({0, 0});
    fmt::print("tessera-pic: mode spmd, {} rank(s) as {} x {} tiles of about {} x {} cells\n", ranks,
               grid.tiles_x(), grid.tiles_y(), first.width, first.height);
    fmt::print("  L {}, {}, k {}, m {}, {} steps, {} particles placed (n = {})\n", problem.grid_size,
               problem.distribution.describe(), problem.k, problem.m, options.steps, ids.total(),
               problem.particles);
    std::fflush(stdout);
  }

  StepRecorder recorder(comm, options.json ? 0 : options.print_every);
  Breakdown parts;
  const double init_s = seconds_since(options.started);
  const Clock::time_point run_start = Clock::now();
  const double run_start_cpu = thread_cpu_seconds();
  for (std::int64_t step = 1; step <= options.steps; ++step) {
    const std::uint64_t moved = tile.size();
    const UpdateTime update = tile.move();
    const Clock::time_point exchange_start = Clock::now();
    tile.accept(exchange.exchange(tile.take_departures()));
    const Clock::time_point stats_start = Clock::now();
    recorder.record(step, {update, moved});
    parts.update_s += update.wall_s;
    parts.exchange_s += std::chrono::duration<double>(stats_start - exchange_start).count();
    parts.spmd_s += seconds_since(stats_start);
  }

  const Verification total = reduce_verification(comm, tile.verify(problem, options.steps));
  const double total_s = seconds_since(run_start);
  const double total_cpu_s = thread_cpu_seconds() - run_start_cpu;
  const TimeToSolution time = reduce_time_to_solution(comm, init_s, total_s, total_cpu_s, parts);
  if (!options.dump_particles.empty()) {
    dump_particles(comm, tile.particles(), options.dump_particles);
  }

  RunSummary summary;
  summary.mode = "spmd";
  summary.lb = "none";
  summary.ranks = ranks;
  summary.steps = options.steps;
  summary.particles = ids.total();
  summary.validated = total.passed(ids.total());
  summary.time = time;
  summary.per_step = recorder.records();
  add_totals(summary);
  return summary;
}

}  // namespace tessera::pic::driver
