#pragma once
/// A checkpoint's manifest, `manifest.json`: what a restart needs to know before it reads a rank
/// file, and what makes a checkpoint complete. It is written last (to a temporary name, fsync'd,
/// then renamed into place), so a directory without one holds an incomplete checkpoint.
///
///   {"format": "tessera-checkpoint", "version": 1, "program": "tessera-pic", "ranks": 4,
///    "phase": 20,
///    "collections": [{"ordinal": 0, "id": 1, "type": "pic.Color", "shape": [12, 8]}],
///    "files": [{"name": "rank.0.tck", "bytes": 1234, "crc32c": "89abcdef"}, ...],   one per rank
///    "app_state": {"name": "app.bin", "bytes": 16, "crc32c": "89abcdef"}}
#include <tessera/collections/checkpoint/rank_file.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tessera::collections::checkpoint {

struct CollectionEntry {
  std::uint64_t ordinal = 0;        ///< creation order among the program's collections, from 0
  std::uint64_t id = 0;             ///< runtime target id when written (informative)
  std::string type;                 ///< the element type's tag (`Collection<T>::type_tag`)
  std::vector<std::int64_t> shape;  ///< bounds per dimension
};

struct FileEntry {
  std::string name;  ///< relative to the checkpoint directory
  FileSummary summary;
};

struct Manifest {
  std::string program;  ///< the program that wrote it (argv[0]'s file name)
  int ranks = 0;        ///< ranks of the run that wrote it; files has one entry per rank
  std::int64_t phase = 0;  ///< the phase the next run starts in
  std::vector<CollectionEntry> collections;
  std::vector<FileEntry> files;
  FileEntry app_state;

  const CollectionEntry* collection(std::uint64_t ordinal) const;
};

inline constexpr const char* kManifestName = "manifest.json";

/// Name of rank `rank`'s file in a checkpoint directory.
std::string rank_file_name(int rank);

/// Writes dir/manifest.json atomically (temporary file, fsync, rename, fsync of the directory).
/// Throws tessera::Error naming the path.
void write_manifest(const std::filesystem::path& dir, const Manifest& manifest);

/// Reads dir/manifest.json. Throws tessera::Error naming the file and what is wrong: missing
/// (an incomplete checkpoint), not JSON, not a Tessera manifest, or missing fields.
Manifest read_manifest(const std::filesystem::path& dir);

/// The checkpoint directory a restart from `path` uses: `path` itself when it holds a manifest,
/// else the subdirectory of `path` holding a manifest whose name sorts last (checkpoint
/// directories are named phase.<12 digits>). nullopt when there is none.
std::optional<std::filesystem::path> newest_complete(const std::filesystem::path& path);

/// Subdirectory name of the checkpoint taken at `phase` under --tessera_checkpoint_dir.
std::string checkpoint_dir_name(std::int64_t phase);

}  // namespace tessera::collections::checkpoint
