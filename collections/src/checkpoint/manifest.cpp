#include <tessera/collections/checkpoint/manifest.hpp>
#include <tessera/runtime/error.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <fstream>
#include <sstream>

namespace tessera::collections::checkpoint {

namespace {

using nlohmann::json;

constexpr const char* kFormatName = "tessera-checkpoint";
constexpr int kVersion = 1;

json file_json(const FileEntry& file) {
  return json{{"name", file.name}, {"bytes", file.summary.bytes}, {"crc32c", to_hex(file.summary.checksum)}};
}

FileEntry file_from(const json& j) {
  FileEntry file;
  file.name = j.at("name").get<std::string>();
  if (file.name.empty() || file.name.find('/') != std::string::npos)
    throw std::invalid_argument("a file name must be a plain name inside the checkpoint directory");
  file.summary.bytes = j.at("bytes").get<std::uint64_t>();
  const std::optional<Checksum> checksum = checksum_from_hex(j.at("crc32c").get<std::string>());
  if (!checksum) throw std::invalid_argument("crc32c is not 8 hexadecimal digits");
  file.summary.checksum = *checksum;
  return file;
}

void sync_path(const std::filesystem::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) throw Error(path.string() + ": cannot open to sync: " + std::strerror(errno));
  const int synced = ::fsync(fd);
  ::close(fd);
  if (synced != 0) throw Error(path.string() + ": cannot sync to disk: " + std::strerror(errno));
}

}  // namespace

const CollectionEntry* Manifest::collection(std::uint64_t ordinal) const {
  for (const CollectionEntry& entry : collections)
    if (entry.ordinal == ordinal) return &entry;
  return nullptr;
}

std::string rank_file_name(int rank) { return fmt::format("rank.{}.tck", rank); }

std::string checkpoint_dir_name(std::int64_t phase) { return fmt::format("phase.{:012}", phase); }

void write_manifest(const std::filesystem::path& dir, const Manifest& manifest) {
  json collections = json::array();
  for (const CollectionEntry& c : manifest.collections)
    collections.push_back(json{{"ordinal", c.ordinal}, {"id", c.id}, {"type", c.type}, {"shape", c.shape}});
  json files = json::array();
  for (const FileEntry& f : manifest.files) files.push_back(file_json(f));
  const json document{{"format", kFormatName}, {"version", kVersion},  {"program", manifest.program},
                      {"ranks", manifest.ranks}, {"phase", manifest.phase}, {"collections", collections},
                      {"files", files},           {"app_state", file_json(manifest.app_state)}};
  const std::filesystem::path final_path = dir / kManifestName;
  const std::filesystem::path temporary = dir / (std::string(kManifestName) + ".tmp");
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << document.dump(1) << '\n';
    out.flush();
    if (!out) throw Error(temporary.string() + ": cannot write the manifest");
  }
  sync_path(temporary, O_RDONLY);
  std::error_code error;
  std::filesystem::rename(temporary, final_path, error);
  if (error) throw Error(final_path.string() + ": cannot rename the manifest into place: " + error.message());
  sync_path(dir, O_RDONLY | O_DIRECTORY);
}

Manifest read_manifest(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / kManifestName;
  std::ifstream in(path);
  if (!in) throw Error(path.string() + ": missing: no complete checkpoint here (the manifest is written last)");
  std::stringstream text;
  text << in.rdbuf();
  json document;
  try {
    document = json::parse(text.str());
  } catch (const json::exception& e) {
    throw Error(path.string() + ": not valid JSON (" + e.what() + ")");
  }
  Manifest manifest;
  try {
    if (!document.is_object() || document.value("format", std::string()) != kFormatName)
      throw std::invalid_argument(std::string("\"format\" is not \"") + kFormatName + "\": not a Tessera checkpoint manifest");
    if (document.at("version").get<int>() != kVersion)
      throw std::invalid_argument(fmt::format("version {}, expected {}", document.at("version").dump(), kVersion));
    manifest.program = document.at("program").get<std::string>();
    manifest.ranks = document.at("ranks").get<int>();
    manifest.phase = document.at("phase").get<std::int64_t>();
    for (const json& c : document.at("collections")) {
      CollectionEntry entry;
      entry.ordinal = c.at("ordinal").get<std::uint64_t>();
      entry.id = c.at("id").get<std::uint64_t>();
      entry.type = c.at("type").get<std::string>();
      entry.shape = c.at("shape").get<std::vector<std::int64_t>>();
      manifest.collections.push_back(std::move(entry));
    }
    for (const json& f : document.at("files")) manifest.files.push_back(file_from(f));
    manifest.app_state = file_from(document.at("app_state"));
    if (manifest.ranks < 1 || manifest.files.size() != static_cast<std::size_t>(manifest.ranks))
      throw std::invalid_argument(fmt::format("{} rank files listed for {} ranks", manifest.files.size(), manifest.ranks));
  } catch (const json::exception& e) {
    throw Error(path.string() + ": malformed manifest (" + e.what() + ")");
  } catch (const std::invalid_argument& e) {
    throw Error(path.string() + ": malformed manifest (" + e.what() + ")");
  }
  return manifest;
}

std::optional<std::filesystem::path> newest_complete(const std::filesystem::path& path) {
  std::error_code error;
  if (std::filesystem::exists(path / kManifestName, error)) return path;
  std::optional<std::filesystem::path> newest;
  if (!std::filesystem::is_directory(path, error)) return newest;
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    if (!entry.is_directory() || !std::filesystem::exists(entry.path() / kManifestName, error)) continue;
    if (!newest || entry.path().filename() > newest->filename()) newest = entry.path();
  }
  return newest;
}

}  // namespace tessera::collections::checkpoint
