#pragma once
/// Checkpoint and restart of every live collection, the collective operations behind
/// tessera::Context::checkpoint and --tessera_restart.
///
/// A checkpoint is a directory: one file per rank with the states of the elements that rank held
/// (rank_file.hpp), the application's state as one file (`app.bin`), and `manifest.json`
/// (manifest.hpp), written last and renamed into place, so a checkpoint is complete or absent.
///
/// Restart works on any rank count. Every rank reads the manifest and checks that the same program
/// wrote it; rank r verifies the checksums of rank files r, r + P, ... (P ranks now); any failure on
/// any rank stops every rank with the same message before anything is restored. Elements are then
/// placed where they were when the rank count is the same (so a balanced placement survives), and
/// by the collection's mapper for the new rank count otherwise. Collections are matched by
/// creation order: the program creates its collections again, in the same order, and the k-th
/// one created is restored from the checkpoint's k-th (its element type tag and bounds must match).
#include <tessera/collections/checkpoint/manifest.hpp>
#include <tessera/collections/checkpoint/rank_file.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tessera {
class Runtime;
}

namespace tessera::collections {
class PhaseManager;
}

namespace tessera::collections::checkpoint {

/// The same message on every rank: the first non-empty `local_error` in rank order, or empty.
/// Collective.
std::string agree_on_error(Runtime& rt, const std::string& local_error);

/// Collective: writes every live collection's elements, the phase counter and `app_state` into
/// `dir` (created if missing; a complete checkpoint already there is first made incomplete by
/// removing its manifest, then overwritten). Returns the manifest (on every rank). Throws
/// tessera::Error with the same message on every rank when any rank fails (unwritable
/// directory, no space left), naming the path.
Manifest write_checkpoint(Runtime& rt, PhaseManager& phases, const std::filesystem::path& dir,
                          const std::string& program, std::span<const std::byte> app_state);

/// A verified checkpoint, ready to be restored collection by collection.
class RestartImage {
 public:
  /// Collective: finds the checkpoint at `path` (newest_complete), reads its manifest, verifies
  /// it (program, every rank file's checksum, the application state) and loads what this rank
  /// restores. Throws tessera::Error with the same message on every rank on any failure.
  static std::shared_ptr<RestartImage> open(Runtime& rt, const std::filesystem::path& path, const std::string& program);

  const std::filesystem::path& dir() const { return dir_; }
  const Manifest& manifest() const { return manifest_; }
  std::int64_t phase() const { return manifest_.phase; }
  std::span<const std::byte> app_state() const { return app_state_; }
  /// True when elements go back to the ranks that held them (same rank count).
  bool keeps_placement() const { return keep_placement_; }

  /// The recorded collection created `ordinal`-th, or nullptr when the checkpoint has none.
  const CollectionEntry* collection(std::uint64_t ordinal) const { return manifest_.collection(ordinal); }

  /// Calls restore(element, migrations, state) for each element of collection `ordinal` that this
  /// rank holds after the restart: those recorded on this rank when the placement is kept, else
  /// those whose home_of(element) is this rank. Frees the collection's bytes afterwards.
  void restore(std::uint64_t ordinal, const std::function<int(std::uint64_t)>& home_of,
               const std::function<void(std::uint64_t, std::uint64_t, std::span<const std::byte>)>& restore);

 private:
  RestartImage() = default;

  std::filesystem::path dir_;
  Manifest manifest_;
  int rank_ = 0;
  bool keep_placement_ = false;
  std::vector<std::byte> app_state_;
  std::vector<RankFile> files_;  // this rank's own file (kept placement), or every file's index
  std::vector<std::uint64_t> restored_;
};

}  // namespace tessera::collections::checkpoint
