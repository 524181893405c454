#include <tessera/collections/checkpoint/checkpoint.hpp>
#include <tessera/collections/phase.hpp>
#include <tessera/runtime/collectives.hpp>
#include <tessera/runtime/runtime.hpp>

#include <algorithm>

namespace tessera::collections::checkpoint {

namespace {

constexpr const char* kAppStateName = "app.bin";

std::string error_text(const std::filesystem::filesystem_error& e, const std::filesystem::path& path,
                       const char* what) {
  return path.string() + ": " + what + ": " + e.code().message();
}

}  // namespace

std::string agree_on_error(Runtime& rt, const std::string& local_error) {
  return rt.collectives().allreduce(local_error,
                                    [](std::string a, const std::string& b) { return a.empty() ? b : a; });
}

Manifest write_checkpoint(Runtime& rt, PhaseManager& phases, const std::filesystem::path& dir,
                          const std::string& program, std::span<const std::byte> app_state) {
  rt.drain();  // element states are read between handlers, with nothing in flight
  const int rank = rt.rank();
  const int ranks = rt.size();
  std::string error;
  if (rank == 0) {
    try {
      std::filesystem::create_directories(dir);
      std::filesystem::remove(dir / kManifestName);  // what follows overwrites: not complete meanwhile
    } catch (const std::filesystem::filesystem_error& e) {
      error = error_text(e, dir, "cannot create the checkpoint directory");
    }
  }
  error = agree_on_error(rt, error);
  if (!error.empty()) throw Error(error);

  FileSummary mine;
  FileSummary app;
  try {
    RankFileWriter writer(dir / rank_file_name(rank), rank, ranks);
    for (const auto& [id, collection] : phases.collections()) collection->write_elements(writer);
    mine = writer.finish();
    if (rank == 0) app = write_blob(dir / kAppStateName, app_state);
  } catch (const Error& e) {
    error = e.what();
  }
  error = agree_on_error(rt, error);
  if (!error.empty()) throw Error(error);

  // Every rank's size and checksum, for the manifest, in one reduction: rank r fills slots 2r
  // (size) and 2r + 1 (checksum), every other slot is 0.
  std::vector<std::uint64_t> summaries(2 * static_cast<std::size_t>(ranks), 0);
  summaries[2 * static_cast<std::size_t>(rank)] = mine.bytes;
  summaries[2 * static_cast<std::size_t>(rank) + 1] = mine.checksum;
  summaries = rt.collectives().allreduce(std::move(summaries), op::sum{});

  Manifest manifest;
  manifest.program = program;
  manifest.ranks = ranks;
  manifest.phase = phases.phase();
  for (const auto& [id, collection] : phases.collections())
    manifest.collections.push_back(CollectionEntry{collection->ordinal(), id, collection->type_tag(), collection->shape()});
  for (int r = 0; r < ranks; ++r) {
    FileEntry file{rank_file_name(r), {}};
    file.summary.bytes = summaries[2 * static_cast<std::size_t>(r)];
    file.summary.checksum = static_cast<Checksum>(summaries[2 * static_cast<std::size_t>(r) + 1]);
    manifest.files.push_back(std::move(file));
  }
  if (rank == 0) {
    manifest.app_state = FileEntry{kAppStateName, app};
    try {
      write_manifest(dir, manifest);
    } catch (const Error& e) {
      error = e.what();
    }
  }
  error = agree_on_error(rt, error);
  if (!error.empty()) throw Error(error);
  return manifest;
}

std::shared_ptr<RestartImage> RestartImage::open(Runtime& rt, const std::filesystem::path& path,
                                                 const std::string& program) {
  std::shared_ptr<RestartImage> image(new RestartImage());
  image->rank_ = rt.rank();
  const int ranks = rt.size();
  std::string error;
  try {
    const std::optional<std::filesystem::path> found = newest_complete(path);
    if (!found)
      throw Error(path.string() + ": no complete checkpoint here (no " + kManifestName +
                  " in it or in any directory inside it)");
    image->dir_ = *found;
    image->manifest_ = read_manifest(image->dir_);
    if (image->manifest_.program != program)
      throw Error((image->dir_ / kManifestName).string() + ": written by program '" + image->manifest_.program +
                  "', not by '" + program + "'");
  } catch (const Error& e) {
    error = e.what();
  }
  error = agree_on_error(rt, error);
  if (!error.empty()) throw Error(error);

  const Manifest& manifest = image->manifest_;
  image->keep_placement_ = manifest.ranks == ranks;
  try {
    auto load = [&](int f, bool keep) {
      const FileEntry& entry = manifest.files[static_cast<std::size_t>(f)];
      RankFile file = RankFile::load(image->dir_ / entry.name, &entry.summary);
      if (file.rank() != f)
        throw Error((image->dir_ / entry.name).string() + ": holds rank " + std::to_string(file.rank()) +
                    "'s elements, the manifest lists it for rank " + std::to_string(f));
      if (keep) image->files_.push_back(std::move(file));
    };
    if (image->keep_placement_) {
      load(image->rank_, true);
    } else {
      // Rank r verifies files r, r + P, ...; then every rank reads the records it needs.
      for (int f = image->rank_; f < manifest.ranks; f += ranks) load(f, false);
      for (const FileEntry& entry : manifest.files) image->files_.push_back(RankFile::open_index(image->dir_ / entry.name));
    }
    image->app_state_ = read_blob(image->dir_ / manifest.app_state.name, manifest.app_state.summary);
  } catch (const Error& e) {
    error = e.what();
  }
  error = agree_on_error(rt, error);
  if (!error.empty()) throw Error(error);
  return image;
}

void RestartImage::restore(std::uint64_t ordinal, const std::function<int(std::uint64_t)>& home_of,
                           const std::function<void(std::uint64_t, std::uint64_t, std::span<const std::byte>)>& restore) {
  for (RankFile& file : files_)
    for (const IndexEntry& entry : file.entries())
      if (entry.collection == ordinal && (keep_placement_ || home_of(entry.element) == rank_))
        restore(entry.element, entry.migrations, file.record(entry));
  restored_.push_back(ordinal);
  const bool all = std::all_of(manifest_.collections.begin(), manifest_.collections.end(), [this](const CollectionEntry& c) {
    return std::find(restored_.begin(), restored_.end(), c.ordinal) != restored_.end();
  });
  if (all)
    for (RankFile& file : files_) file.release();
}

}  // namespace tessera::collections::checkpoint
