#pragma once
// The baseline of tessera-bench-checkpoint: what the file system gives a rank that writes or reads
// the same bytes as plainly as dd does (large sequential write() / read() calls on one file, an
// fsync at the end of a write), and the page-cache controls both sides share.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

namespace tessera::bench::checkpoint {

/// dd's block size here, and the checkpoint writer's own chunk (rank_file.cpp's kWriteChunk).
inline constexpr std::size_t kRawChunk = std::size_t{8} << 20;

/// Writes `blocks` back to back into a new file at `path` with writev calls of at least kRawChunk
/// bytes each (the blocks are written from where they lie, no staging copy), then fsyncs and
/// closes it. Throws std::runtime_error naming the path on any failure.
void raw_write(const std::filesystem::path& path, std::span<const std::span<const std::byte>> blocks);

/// Reads the whole file at `path` sequentially into `buffer` (reused for every chunk, as dd does)
/// and returns the bytes read. Throws std::runtime_error naming the path on any failure.
std::uint64_t raw_read(const std::filesystem::path& path, std::span<std::byte> buffer);

/// Reads the whole file at `path` into one new allocation of its size, never touched before (as
/// the restart's own buffer is), in kRawChunk reads: the least any restart does, since the state
/// must end up in memory. Returns the buffer; `bytes` is its size.
std::unique_ptr<std::byte[]> raw_read_to_memory(const std::filesystem::path& path, std::uint64_t& bytes);

/// Asks the kernel to drop the file's pages from the page cache (posix_fadvise DONTNEED). Only
/// clean pages go, so call it after the file's fsync. Throws std::runtime_error on failure.
void drop_from_cache(const std::filesystem::path& path);

/// Pages of a file in the page cache now (mincore), of all its pages.
struct Residency {
  std::uint64_t resident = 0;
  std::uint64_t pages = 0;
};
Residency residency(const std::filesystem::path& path);

/// Every regular file under `dir`, recursively (the checkpoint's files, for drop_from_cache).
std::vector<std::filesystem::path> files_under(const std::filesystem::path& dir);

/// Bytes of every regular file under `dir`, recursively.
std::uint64_t bytes_under(const std::filesystem::path& dir);

}  // namespace tessera::bench::checkpoint
