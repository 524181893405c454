#pragma once
// Reading and writing vt's LBDatafile JSON: one file per rank, STEM.<rank>.json (vt-tv also
// writes STEM.<rank>.json.br). A file is brotli-compressed or plain JSON whatever its name says;
// the reader decides from the content. Format: vt's LBDatafile schema (lb/README.md).
//
// Every malformed input raises DataError whose message names the file, the phase and the field,
// e.g. "data.3.json: phase 2: tasks[17].time: expected a number".

#include <tessera/runtime/error.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tessera/lb/model.hpp"

namespace tessera::lb {

/// A malformed LB data file: a tessera::Error whose message names the file, phase and field.
class DataError : public Error {
 public:
  using Error::Error;
};

// Parses one rank's file. `rank` is the rank the file name gives; a metadata rank that disagrees
// is an error. Throws DataError.
RankData read_rank_file(const std::filesystem::path& file, Rank rank);

// Parses LBDatafile text (plain or brotli bytes); `origin` names the input in error messages.
RankData parse_rank_data(std::string_view bytes, Rank rank, const std::string& origin);

// Reads STEM.0.json ... STEM.<P-1>.json (or .json.br) where `stem` is DIR/STEM. Ranks must be
// contiguous from 0 and every rank must list the same phase ids in the same order.
// Throws DataError naming the missing file or the disagreeing file and phase.
LbData read_lb_data(const std::filesystem::path& stem);

struct WriteOptions {
  bool compress = false;  // brotli, as vt does by default
  int indent = -1;        // -1: compact; n >= 0: pretty-printed with n spaces
};

// Serializes one rank's data as LBDatafile text (uncompressed).
std::string to_lb_json(const RankData& data, int indent = -1);

// Writes STEM.<r>.json for every rank; creates DIR if needed. Throws DataError if a file
// cannot be written.
void write_lb_data(const LbData& data, const std::filesystem::path& stem,
                   const WriteOptions& options = {});

}  // namespace tessera::lb
