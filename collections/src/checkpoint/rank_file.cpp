#include <tessera/collections/checkpoint/rank_file.hpp>
#include <tessera/runtime/error.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace tessera::collections::checkpoint {

namespace {

constexpr char kMagic[8] = {'T', 'E', 'S', 'S', 'C', 'K', 'P', '1'};
constexpr char kEndMagic[8] = {'T', 'E', 'S', 'S', 'E', 'N', 'D', '1'};
constexpr std::uint32_t kFormat = 1;
constexpr std::size_t kHeaderBytes = 64;
constexpr std::size_t kTrailerBytes = 2 * sizeof(std::uint64_t) + 2 * sizeof(std::uint32_t) + sizeof kEndMagic;
// The checksum covers every byte before its own field.
constexpr std::size_t kChecksumFromEnd = 2 * sizeof(std::uint32_t) + sizeof kEndMagic;
// Large enough that a write costs little beyond its copy, small enough to stay in cache while it
// is hashed and written.
constexpr std::size_t kWriteChunk = std::size_t{8} << 20;

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw Error(path.string() + ": " + what);
}

std::string errno_text() { return std::strerror(errno); }

void write_all(int fd, const std::byte* data, std::size_t n, const std::filesystem::path& path) {
  while (n > 0) {
    const ssize_t done = ::write(fd, data, n);
    if (done < 0) {
      if (errno == EINTR) continue;
      fail(path, "cannot write: " + errno_text());
    }
    data += done;
    n -= static_cast<std::size_t>(done);
  }
}

void read_all(int fd, std::byte* data, std::size_t n, std::uint64_t offset, const std::filesystem::path& path) {
  while (n > 0) {
    const ssize_t done = ::pread(fd, data, n, static_cast<off_t>(offset));
    if (done < 0) {
      if (errno == EINTR) continue;
      fail(path, "cannot read: " + errno_text());
    }
    if (done == 0) fail(path, "truncated: the file ended before its size said it would");
    data += done;
    n -= static_cast<std::size_t>(done);
    offset += static_cast<std::uint64_t>(done);
  }
}

int open_for_reading(const std::filesystem::path& path, std::uint64_t& size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, errno == ENOENT ? "missing: the checkpoint has no such file" : "cannot open: " + errno_text());
  const off_t end = ::lseek(fd, 0, SEEK_END);
  if (end < 0) {
    ::close(fd);
    fail(path, "cannot read: " + errno_text());
  }
  size = static_cast<std::uint64_t>(end);
  return fd;
}

template <class T>
T load_at(std::span<const std::byte> bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

}  // namespace

RankFileWriter::RankFileWriter(std::filesystem::path path, int rank, int ranks) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) fail(path_, "cannot create: " + errno_text());
  staged_.reserve(kWriteChunk + kWriteChunk / 4);
  std::byte* header = staged_.grow(kHeaderBytes);
  std::memset(header, 0, kHeaderBytes);
  const std::uint32_t fields[3] = {kFormat, static_cast<std::uint32_t>(rank), static_cast<std::uint32_t>(ranks)};
  std::memcpy(header, kMagic, sizeof kMagic);
  std::memcpy(header + sizeof kMagic, fields, sizeof fields);
}

RankFileWriter::~RankFileWriter() {
  if (fd_ >= 0) ::close(fd_);
}

Buffer& RankFileWriter::begin_element(std::uint64_t collection, std::uint64_t element, std::uint64_t migrations) {
  index_.push_back(IndexEntry{collection, element, migrations, written_ + staged_.size(), 0});
  return staged_;
}

void RankFileWriter::end_element() {
  IndexEntry& entry = index_.back();
  entry.bytes = written_ + staged_.size() - entry.offset;
  if (staged_.size() >= kWriteChunk) write_out();
}

void RankFileWriter::write_out() {
  crc_.update(staged_.view());
  write_all(fd_, staged_.data(), staged_.size(), path_);
  written_ += staged_.size();
  staged_.clear();
}

FileSummary RankFileWriter::finish() {
  const std::uint64_t index_offset = written_ + staged_.size();
  staged_.append(index_.data(), index_.size() * sizeof(IndexEntry));
  const std::uint64_t counts[2] = {index_offset, index_.size()};
  staged_.append(counts, sizeof counts);
  write_out();
  const std::uint32_t fields[2] = {crc_.value(), 0};
  staged_.append(fields, sizeof fields);
  staged_.append(kEndMagic, sizeof kEndMagic);
  write_all(fd_, staged_.data(), staged_.size(), path_);
  written_ += staged_.size();
  staged_.clear();
  if (::fsync(fd_) != 0) fail(path_, "cannot sync to disk: " + errno_text());
  if (::close(fd_) != 0) fail(path_, "cannot close: " + errno_text());
  fd_ = -1;
  return FileSummary{written_, fields[0]};
}

FileSummary write_blob(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, "cannot create: " + errno_text());
  try {
    write_all(fd, bytes.data(), bytes.size(), path);
    if (::fsync(fd) != 0) fail(path, "cannot sync to disk: " + errno_text());
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) fail(path, "cannot close: " + errno_text());
  Crc32c crc;
  crc.update(bytes);
  return FileSummary{bytes.size(), crc.value()};
}

std::vector<std::byte> read_blob(const std::filesystem::path& path, const FileSummary& expected) {
  std::uint64_t size = 0;
  const int fd = open_for_reading(path, size);
  std::vector<std::byte> bytes(size);
  try {
    read_all(fd, bytes.data(), bytes.size(), 0, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  if (size != expected.bytes)
    fail(path, "holds " + std::to_string(size) + " bytes, the manifest says " + std::to_string(expected.bytes));
  Crc32c crc;
  crc.update(bytes);
  if (crc.value() != expected.checksum) fail(path, "corrupted: its CRC-32C differs from the manifest's");
  return bytes;
}

RankFile::RankFile(RankFile&& other) noexcept
    : path_(std::move(other.path_)),
      rank_(other.rank_),
      size_(other.size_),
      mapped_(std::exchange(other.mapped_, nullptr)),
      scratch_(std::move(other.scratch_)),
      fd_(std::exchange(other.fd_, -1)),
      entries_(std::move(other.entries_)) {}

RankFile& RankFile::operator=(RankFile&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    rank_ = other.rank_;
    size_ = other.size_;
    mapped_ = std::exchange(other.mapped_, nullptr);
    scratch_ = std::move(other.scratch_);
    fd_ = std::exchange(other.fd_, -1);
    entries_ = std::move(other.entries_);
  }
  return *this;
}

RankFile::~RankFile() { release(); }

void RankFile::parse(std::span<const std::byte> head, std::span<const std::byte> tail, std::uint64_t size) {
  if (std::memcmp(head.data(), kMagic, sizeof kMagic) != 0) fail(path_, "not a Tessera checkpoint file (bad magic)");
  if (load_at<std::uint32_t>(head, sizeof kMagic) != kFormat)
    fail(path_, "checkpoint format " + std::to_string(load_at<std::uint32_t>(head, sizeof kMagic)) + ", expected " +
                    std::to_string(kFormat));
  rank_ = static_cast<int>(load_at<std::uint32_t>(head, sizeof kMagic + 4));
  if (std::memcmp(tail.data() + tail.size() - sizeof kEndMagic, kEndMagic, sizeof kEndMagic) != 0)
    fail(path_, "truncated or corrupted: no trailer at its end");
  const auto index_offset = load_at<std::uint64_t>(tail, 0);
  const auto count = load_at<std::uint64_t>(tail, sizeof(std::uint64_t));
  if (index_offset < kHeaderBytes || count > size / sizeof(IndexEntry) ||
      index_offset + count * sizeof(IndexEntry) + kTrailerBytes != size)
    fail(path_, "corrupted: its index does not fit the file");
}

RankFile RankFile::load(const std::filesystem::path& path, const FileSummary* expected) {
  RankFile file;
  file.path_ = path;
  const int fd = open_for_reading(path, file.size_);
  const std::uint64_t size = file.size_;
  if (expected != nullptr && size != expected->bytes) {
    ::close(fd);
    fail(path, "truncated or changed: " + std::to_string(size) + " bytes, the manifest says " +
                   std::to_string(expected->bytes));
  }
  if (size < kHeaderBytes + kTrailerBytes) {
    ::close(fd);
    fail(path, "truncated: " + std::to_string(size) + " bytes is less than an empty checkpoint file");
  }
  // Mapped, not read into a buffer: a buffer of the file's size would be faulted in page by page
  // and the states copied out of it again (0.3 s per 512 MiB here); from the mapping the checksum
  // reads the page cache once and each element copies its state once.
  void* map = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) fail(path, "cannot map: " + errno_text());
  ::madvise(map, static_cast<std::size_t>(size), MADV_SEQUENTIAL);
  file.mapped_ = static_cast<const std::byte*>(map);
  const std::span<const std::byte> all(file.mapped_, size);
  file.parse(all.first(kHeaderBytes), all.last(kTrailerBytes), size);
  Crc32c crc;
  crc.update(all.first(size - kChecksumFromEnd));
  const auto stored = load_at<std::uint32_t>(all, size - kChecksumFromEnd);
  if (crc.value() != stored) fail(path, "corrupted: its CRC-32C differs from the one in its trailer");
  if (expected != nullptr && stored != expected->checksum)
    fail(path, "belongs to another checkpoint: its CRC-32C differs from the manifest's");
  const auto index_offset = load_at<std::uint64_t>(all.last(kTrailerBytes), 0);
  const auto count = load_at<std::uint64_t>(all.last(kTrailerBytes), sizeof(std::uint64_t));
  file.entries_.resize(count);
  // An empty index leaves data() null, which memcpy may not be given even for 0 bytes.
  if (count != 0) std::memcpy(file.entries_.data(), all.data() + index_offset, count * sizeof(IndexEntry));
  for (const IndexEntry& entry : file.entries_)
    if (entry.offset < kHeaderBytes || entry.offset + entry.bytes > index_offset)
      fail(path, "corrupted: an index entry points outside the records");
  return file;
}

RankFile RankFile::open_index(const std::filesystem::path& path) {
  RankFile file;
  file.path_ = path;
  file.fd_ = open_for_reading(path, file.size_);
  if (file.size_ < kHeaderBytes + kTrailerBytes)
    fail(path, "truncated: " + std::to_string(file.size_) + " bytes is less than an empty checkpoint file");
  std::vector<std::byte> head(kHeaderBytes), tail(kTrailerBytes);
  read_all(file.fd_, head.data(), head.size(), 0, path);
  read_all(file.fd_, tail.data(), tail.size(), file.size_ - kTrailerBytes, path);
  file.parse(head, tail, file.size_);
  const auto index_offset = load_at<std::uint64_t>(tail, 0);
  const auto count = load_at<std::uint64_t>(tail, sizeof(std::uint64_t));
  file.entries_.resize(count);
  if (count != 0) read_all(file.fd_, reinterpret_cast<std::byte*>(file.entries_.data()), count * sizeof(IndexEntry), index_offset, path);
  for (const IndexEntry& entry : file.entries_)
    if (entry.offset < kHeaderBytes || entry.offset + entry.bytes > index_offset)
      fail(path, "corrupted: an index entry points outside the records");
  return file;
}

std::span<const std::byte> RankFile::record(const IndexEntry& entry) {
  if (mapped_ != nullptr) return {mapped_ + entry.offset, static_cast<std::size_t>(entry.bytes)};
  if (fd_ < 0) fail(path_, "read after release");
  scratch_.resize(entry.bytes);
  read_all(fd_, scratch_.data(), scratch_.size(), entry.offset, path_);
  return scratch_;
}

void RankFile::release() {
  if (mapped_ != nullptr) ::munmap(const_cast<std::byte*>(mapped_), static_cast<std::size_t>(size_));
  mapped_ = nullptr;
  entries_.clear();
  entries_.shrink_to_fit();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace tessera::collections::checkpoint
