#include "sim/runtime/ipc_segment.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace warpsim::runtime {

namespace {

// Maps `fd` (closed afterwards) read-write; null with the reason in *why.
uint8_t* map_fd(int fd, uint64_t bytes, const std::string& name, std::string* why) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int err = errno;
  ::close(fd);
  if (p == MAP_FAILED) {
    *why = fmt::format("cannot map the shared memory object {} ({} bytes): {}", name, bytes, std::strerror(err));
    return nullptr;
  }
  return static_cast<uint8_t*>(p);
}

}  // namespace

std::unique_ptr<SharedSegment> SharedSegment::create(const std::string& name, uint64_t bytes, std::string* why) {
  const int fd = ::shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0) {
    *why = fmt::format("cannot create the shared memory object {}: {}", name, std::strerror(errno));
    return nullptr;
  }
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    *why = fmt::format("cannot size the shared memory object {} to {} bytes: {}", name, bytes, std::strerror(errno));
    ::close(fd);
    ::shm_unlink(name.c_str());
    return nullptr;
  }
  uint8_t* p = map_fd(fd, bytes, name, why);
  if (!p) {
    ::shm_unlink(name.c_str());
    return nullptr;
  }
  return std::unique_ptr<SharedSegment>(new SharedSegment(name, p, bytes, ::getpid()));
}

std::unique_ptr<SharedSegment> SharedSegment::open(const std::string& name, uint64_t bytes, std::string* why) {
  const int fd = ::shm_open(name.c_str(), O_RDWR, 0);
  if (fd < 0) {
    *why = fmt::format("cannot open the shared memory object {}: {} (the exporting process freed the memory or "
                       "ended)",
                       name, std::strerror(errno));
    return nullptr;
  }
  struct stat st{};
  if (::fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_size) < bytes) {
    *why = fmt::format("the shared memory object {} is smaller than the handle's {} bytes", name, bytes);
    ::close(fd);
    return nullptr;
  }
  uint8_t* p = map_fd(fd, bytes, name, why);
  if (!p) return nullptr;
  return std::unique_ptr<SharedSegment>(new SharedSegment(name, p, bytes, 0));
}

void SharedSegment::unlink() {
  if (creator_ && creator_ == ::getpid()) ::shm_unlink(name_.c_str());
  creator_ = 0;
}

SharedSegment::~SharedSegment() {
  unlink();
  ::munmap(data_, bytes_);
}

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

FileMapping::~FileMapping() { ::munmap(data_, bytes_); }

}  // namespace warpsim::runtime
