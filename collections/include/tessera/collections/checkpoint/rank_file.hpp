#pragma once
/// One rank's checkpoint file: the encoded states of the elements that rank held, an index, and a
/// trailer with the file's CRC-32C (checksum.hpp).
///
///   offset 0          header, 64 bytes: magic "TESSCKP1", format (u32), rank (u32), ranks (u32)
///   64                records: each element's state exactly as a migration encodes it
///                     (serialize.hpp: a trivially copyable element as its bytes, else a 64-bit
///                     length and a cereal binary archive), back to back
///   index_offset      index: one IndexEntry (5 x u64) per record, in the order written
///   size - 32         trailer: index_offset (u64), entry count (u64), CRC-32C (u32) of every byte
///                     before it, 4 zero bytes, magic "TESSEND1"
///
/// Integers are in the machine's byte order; a checkpoint is read back on the same kind of machine.
/// Every failure throws tessera::Error with the file's path and what is wrong (cannot create,
/// short write, no space left, truncated, not a checkpoint file, checksum mismatch).
#include <tessera/collections/checkpoint/checksum.hpp>
#include <tessera/runtime/buffer.hpp>

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace tessera::collections::checkpoint {

/// Where one element's state lies in a rank file.
struct IndexEntry {
  std::uint64_t collection = 0;  ///< the collection's ordinal (creation order, from 0)
  std::uint64_t element = 0;     ///< linear id
  std::uint64_t migrations = 0;  ///< migrations the element had made
  std::uint64_t offset = 0;      ///< bytes from the start of the file
  std::uint64_t bytes = 0;       ///< length of the encoded state
};

/// What restart checks a rank file against: its size and checksum.
struct FileSummary {
  std::uint64_t bytes = 0;
  Checksum checksum = 0;
};

/// Writes one rank file sequentially, hashing as it goes, in large writes.
class RankFileWriter {
 public:
  RankFileWriter(std::filesystem::path path, int rank, int ranks);
  ~RankFileWriter();
  RankFileWriter(const RankFileWriter&) = delete;
  RankFileWriter& operator=(const RankFileWriter&) = delete;

  /// Starts an element's record: encode its state into the returned buffer, then end_element().
  Buffer& begin_element(std::uint64_t collection, std::uint64_t element, std::uint64_t migrations);
  void end_element();
  /// Writes the index and trailer, then fsyncs the file. The writer is done afterwards.
  FileSummary finish();

 private:
  void write_out();

  std::filesystem::path path_;
  int fd_ = -1;
  Buffer staged_;                // bytes not yet written, starting at file offset written_
  std::uint64_t written_ = 0;
  std::vector<IndexEntry> index_;
  Crc32c crc_;
};

/// Writes `bytes` to `path` as one plain file (the application's state), fsync'd; returns its
/// size and checksum.
FileSummary write_blob(const std::filesystem::path& path, std::span<const std::byte> bytes);
/// Reads a file written by write_blob, checking its size and checksum.
std::vector<std::byte> read_blob(const std::filesystem::path& path, const FileSummary& expected);

/// A rank file opened for restart.
class RankFile {
 public:
  /// Maps the whole file and checks its structure, its trailer's checksum and, when given, the
  /// size and checksum the manifest recorded. Records are then read straight from the mapping
  /// (the page cache): no copy of the file is made in memory.
  static RankFile load(const std::filesystem::path& path, const FileSummary* expected);
  /// Reads the trailer and index only; records are read on demand (the rank that verifies the
  /// file is another one, see RestartImage).
  static RankFile open_index(const std::filesystem::path& path);

  const std::filesystem::path& path() const { return path_; }
  int rank() const { return rank_; }
  const std::vector<IndexEntry>& entries() const { return entries_; }
  /// The encoded state of `entry`, valid until the next call (for an index-only file) or for the
  /// life of this object (for a loaded one).
  std::span<const std::byte> record(const IndexEntry& entry);
  /// Frees the loaded bytes.
  void release();

  RankFile(RankFile&& other) noexcept;
  RankFile& operator=(RankFile&& other) noexcept;
  ~RankFile();

 private:
  RankFile() = default;
  void parse(std::span<const std::byte> head, std::span<const std::byte> tail, std::uint64_t size);

  std::filesystem::path path_;
  int rank_ = 0;
  std::uint64_t size_ = 0;
  const std::byte* mapped_ = nullptr;   // the whole file (load), or null (open_index)
  std::vector<std::byte> scratch_;
  int fd_ = -1;                          // open_index only
  std::vector<IndexEntry> entries_;
};

}  // namespace tessera::collections::checkpoint
