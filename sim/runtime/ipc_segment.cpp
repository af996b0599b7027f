#include "sim/runtime/ipc_segment.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace warpsim::runtime {

OwnedFd::~OwnedFd() {
  if (fd_ >= 0) ::close(fd_);
}

OwnedFd& OwnedFd::operator=(OwnedFd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

std::unique_ptr<FileMapping> FileMapping::map(int fd, uint64_t offset, uint64_t bytes, std::string* why) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, static_cast<off_t>(offset));
  if (p == MAP_FAILED) {
    *why = fmt::format("cannot map {} bytes at offset {} of descriptor {}: {}", bytes, offset, fd, std::strerror(errno));
    return nullptr;
  }
  return std::unique_ptr<FileMapping>(new FileMapping(static_cast<uint8_t*>(p), bytes));
}

std::unique_ptr<FileMapping> FileMapping::extend_and_map(int fd, uint64_t offset, uint64_t bytes, std::string* why) {
  if (::ftruncate(fd, static_cast<off_t>(offset + bytes)) != 0) {
    *why = fmt::format("cannot make descriptor {}'s file {} bytes long: {}", fd, offset + bytes, std::strerror(errno));
    return nullptr;
  }
  return map(fd, offset, bytes, why);
}

FileMapping::~FileMapping() { ::munmap(data_, bytes_); }

std::unique_ptr<SharedSegment> SharedSegment::create(const std::string& label, uint64_t bytes, std::string* why) {
  OwnedFd fd(::memfd_create(label.c_str(), MFD_CLOEXEC));
  if (fd.get() < 0) {
    *why = fmt::format("cannot create the shared memory {}: {}", label, std::strerror(errno));
    return nullptr;
  }
  auto mapping = FileMapping::extend_and_map(fd.get(), 0, bytes, why);
  if (!mapping) {
    *why = fmt::format("shared memory {}: {}", label, *why);
    return nullptr;
  }
  return std::unique_ptr<SharedSegment>(new SharedSegment(std::move(fd), std::move(mapping)));
}

std::unique_ptr<SharedSegment> SharedSegment::open(int32_t pid, int32_t fd, const std::string& label, uint64_t bytes,
                                                   std::string* why) {
  const std::string path = fmt::format("/proc/{}/fd/{}", pid, fd);
  // The descriptor must still be the segment the handle names: the process may have freed
  // it and reused the number, or ended.
  char target[256];
  const ssize_t n = pid > 0 && fd >= 0 ? ::readlink(path.c_str(), target, sizeof target - 1) : -1;
  // Another user's process (or one that forbids tracing) hides its descriptors: say so,
  // rather than that the memory is gone.
  if (n < 0 && (errno == EACCES || errno == EPERM)) {
    *why = fmt::format("cannot see process {}'s descriptors ({}: {}); CUDA IPC here needs both processes "
                       "to run as the same user",
                       pid, path, std::strerror(errno));
    return nullptr;
  }
  const std::string expected = "/memfd:" + label + " (deleted)";
  if (n < 0 || std::string(target, static_cast<size_t>(n)) != expected) {
    *why = fmt::format("process {} no longer shares {} (it freed the memory or ended)", pid, label);
    return nullptr;
  }
  const OwnedFd opened(::open(path.c_str(), O_RDWR | O_CLOEXEC));
  if (opened.get() < 0) {
    *why = fmt::format("cannot open process {}'s shared memory {} ({}): {}", pid, label, path, std::strerror(errno));
    return nullptr;
  }
  struct stat st{};
  if (::fstat(opened.get(), &st) != 0 || static_cast<uint64_t>(st.st_size) < bytes) {
    *why = fmt::format("process {}'s shared memory {} is smaller than the handle's {} bytes", pid, label, bytes);
    return nullptr;
  }
  auto mapping = FileMapping::map(opened.get(), 0, bytes, why);
  if (!mapping) {
    *why = fmt::format("shared memory {}: {}", label, *why);
    return nullptr;
  }
  return std::unique_ptr<SharedSegment>(new SharedSegment(OwnedFd(), std::move(mapping)));
}

SharedSegment::~SharedSegment() = default;

}  // namespace warpsim::runtime
