#pragma once
/// What tessera-lulesh prints, on rank 0: the original's start banner and its verification block
/// ("Run completed:" ... "FOM"), with the domain and rank counts, and with --report=json one JSON
/// object on the last line.
///
/// Grind time is the original's per-domain figure: elapsed microseconds per cycle per element of
/// one domain (edge^3); FOM is elements of every domain updated per second, over 1000.
#include "tessera/lulesh/driver/options.hpp"
#include "tessera/lulesh/driver/run.hpp"

#include <string>

namespace tessera::lulesh {

/// The banner the original prints before its first cycle (unless -q).
void print_banner(const Options& options, int ranks);
/// The verification block (unless -q), then the JSON line with --report=json.
void print_result(const Options& options, const Result& result, int ranks);
/// The JSON object of a result (no newline): iterations, final_origin_energy and its exact bits
/// (final_origin_energy_hex, "%a"), the symmetry figures, elapsed_s, grind_us_per_zone_cycle,
/// fom_zones_per_s, ranks, domains, edge and the LB figures.
std::string result_json(const Options& options, const Result& result, int ranks);

}  // namespace tessera::lulesh
