#include "raw_io.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

namespace tessera::bench::checkpoint {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const char* what) {
  throw std::runtime_error(path.string() + ": " + what + ": " + std::strerror(errno));
}

// Closes the descriptor on every path out, so a failed run leaves no file open.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

void raw_write(const std::filesystem::path& path, std::span<const std::span<const std::byte>> blocks) {
  Fd file{::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)};
  if (file.fd < 0) fail(path, "cannot create");
  std::vector<iovec> batch;
  std::size_t next = 0;
  while (next < blocks.size()) {
    // One writev of at least kRawChunk bytes (or of what is left), like one of dd's blocks.
    batch.clear();
    std::size_t batch_bytes = 0;
    while (next < blocks.size() && batch_bytes < kRawChunk && batch.size() < IOV_MAX) {
      const std::span<const std::byte> b = blocks[next++];
      batch.push_back(iovec{const_cast<std::byte*>(b.data()), b.size()});
      batch_bytes += b.size();
    }
    std::size_t first = 0;
    while (first < batch.size()) {
      const ssize_t done = ::writev(file.fd, batch.data() + first, static_cast<int>(batch.size() - first));
      if (done < 0) {
        if (errno == EINTR) continue;
        fail(path, "cannot write");
      }
      // A short write: skip what went out and continue inside the iovec it stopped in.
      auto left = static_cast<std::size_t>(done);
      while (first < batch.size() && left >= batch[first].iov_len) left -= batch[first++].iov_len;
      if (first < batch.size()) {
        batch[first].iov_base = static_cast<char*>(batch[first].iov_base) + left;
        batch[first].iov_len -= left;
      }
    }
  }
  if (::fsync(file.fd) != 0) fail(path, "cannot fsync");
  const int fd = file.fd;
  file.fd = -1;
  if (::close(fd) != 0) fail(path, "cannot close");
}

std::uint64_t raw_read(const std::filesystem::path& path, std::span<std::byte> buffer) {
  Fd file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) fail(path, "cannot open");
  std::uint64_t total = 0;
  for (;;) {
    const ssize_t done = ::read(file.fd, buffer.data(), buffer.size());
    if (done < 0) {
      if (errno == EINTR) continue;
      fail(path, "cannot read");
    }
    if (done == 0) return total;
    total += static_cast<std::uint64_t>(done);
  }
}

std::unique_ptr<std::byte[]> raw_read_to_memory(const std::filesystem::path& path, std::uint64_t& bytes) {
  Fd file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) fail(path, "cannot open");
  const off_t size = ::lseek(file.fd, 0, SEEK_END);
  if (size < 0) fail(path, "cannot seek");
  bytes = static_cast<std::uint64_t>(size);
  std::unique_ptr<std::byte[]> buffer(new std::byte[bytes]);  // default-initialized: untouched
  std::uint64_t at = 0;
  while (at < bytes) {
    const std::size_t n = std::min<std::uint64_t>(kRawChunk, bytes - at);
    const ssize_t done = ::pread(file.fd, buffer.get() + at, n, static_cast<off_t>(at));
    if (done < 0) {
      if (errno == EINTR) continue;
      fail(path, "cannot read");
    }
    if (done == 0) throw std::runtime_error(path.string() + ": shorter than its size");
    at += static_cast<std::uint64_t>(done);
  }
  return buffer;
}

void drop_from_cache(const std::filesystem::path& path) {
  Fd file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) fail(path, "cannot open");
  const int error = ::posix_fadvise(file.fd, 0, 0, POSIX_FADV_DONTNEED);
  if (error != 0) {
    errno = error;
    fail(path, "posix_fadvise(DONTNEED) failed");
  }
}

Residency residency(const std::filesystem::path& path) {
  Fd file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) fail(path, "cannot open");
  const off_t size = ::lseek(file.fd, 0, SEEK_END);
  if (size <= 0) return {};
  void* map = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_SHARED, file.fd, 0);
  if (map == MAP_FAILED) fail(path, "cannot mmap");
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((static_cast<std::size_t>(size) + page - 1) / page);
  const int status = ::mincore(map, static_cast<std::size_t>(size), resident.data());
  ::munmap(map, static_cast<std::size_t>(size));
  if (status != 0) fail(path, "mincore failed");
  const auto in = std::count_if(resident.begin(), resident.end(), [](unsigned char c) { return (c & 1) != 0; });
  return {static_cast<std::uint64_t>(in), resident.size()};
}

std::vector<std::filesystem::path> files_under(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) files.push_back(entry.path());
  return files;
}

std::uint64_t bytes_under(const std::filesystem::path& dir) {
  std::uint64_t total = 0;
  for (const auto& file : files_under(dir)) total += std::filesystem::file_size(file);
  return total;
}

}  // namespace tessera::bench::checkpoint
