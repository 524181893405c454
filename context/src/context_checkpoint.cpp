// tessera::Context's checkpoints: the collective write, --tessera_checkpoint_dir's naming and
// retention, and the one way a checkpoint error stops the run.
#include <tessera/tessera.hpp>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tessera {

namespace cp = collections::checkpoint;

// At start-up rather than at the first checkpoint, which may come hours into the run.
void Context::check_checkpoint_dir() const {
  std::string error;
  if (runtime_->rank() == 0) {
    const std::filesystem::path dir(options_.checkpoint.dir);
    const std::filesystem::path probe = dir / ".tessera-write-probe";
    std::error_code code;
    std::filesystem::create_directories(dir, code);
    if (code) {
      error = dir.string() + ": cannot create the checkpoint directory: " + code.message();
    } else if (std::FILE* file = std::fopen(probe.c_str(), "w")) {
      std::fclose(file);
      std::filesystem::remove(probe, code);
    } else {
      error = dir.string() + ": cannot write in the checkpoint directory: " + std::strerror(errno);
    }
  }
  error = cp::agree_on_error(*runtime_, error);
  if (!error.empty()) runtime_->stop("--tessera_checkpoint_dir: " + error);
}

void Context::checkpoint(const std::filesystem::path& dir, std::span<const std::byte> app_state) {
  TraceSlice slice(runtime_->tracer(), "checkpoint");
  try {
    cp::write_checkpoint(*runtime_, *phases_, dir, program_, app_state);
  } catch (const Error& e) {
    runtime_->stop(std::string("checkpoint: ") + e.what());  // the same message on every rank
  }
}

std::filesystem::path Context::checkpoint_now(std::span<const std::byte> app_state) {
  if (options_.checkpoint.dir.empty())
    runtime_->stop("checkpoint_now: expected --tessera_checkpoint_dir to say where the checkpoint goes");
  const std::filesystem::path dir =
      std::filesystem::path(options_.checkpoint.dir) / cp::checkpoint_dir_name(phases_->phase());
  checkpoint(dir, app_state);
  if (runtime_->rank() == 0) remove_old_checkpoints(dir);
  return dir;
}

// Only once `newest` is complete: a run killed before this point still has the older ones.
void Context::remove_old_checkpoints(const std::filesystem::path& newest) const {
  std::error_code error;
  std::vector<std::filesystem::path> complete;
  std::vector<std::filesystem::path> incomplete;
  for (const auto& entry : std::filesystem::directory_iterator(options_.checkpoint.dir, error)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name.rfind("phase.", 0) != 0) continue;
    if (std::filesystem::exists(entry.path() / cp::kManifestName, error)) complete.push_back(entry.path());
    else if (entry.path().filename() < newest.filename()) incomplete.push_back(entry.path());
  }
  std::sort(complete.begin(), complete.end());
  const auto keep = static_cast<std::size_t>(options_.checkpoint.keep);
  if (keep > 0 && complete.size() > keep)
    incomplete.insert(incomplete.end(), complete.begin(), complete.end() - static_cast<std::ptrdiff_t>(keep));
  for (const std::filesystem::path& old : incomplete) {
    std::filesystem::remove(old / cp::kManifestName, error);  // incomplete first, then gone
    std::filesystem::remove_all(old, error);
    if (error) runtime_->log().warn("cannot remove the old checkpoint {}: {}", old.string(), error.message());
  }
}

}  // namespace tessera
