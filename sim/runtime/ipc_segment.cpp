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

std::unique_ptr<SharedSegment> SharedSegment::create(const std::string& name, uint64_t bytes, std::string* why) {
  const OwnedFd fd(::shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600));
  if (fd.get() < 0) {
    *why = fmt::format("cannot create the shared memory object {}: {}", name, std::strerror(errno));
    return nullptr;
  }
  auto mapping = FileMapping::extend_and_map(fd.get(), 0, bytes, why);
  if (!mapping) {
    ::shm_unlink(name.c_str());
    *why = fmt::format("shared memory object {}: {}", name, *why);
    return nullptr;
  }
  return std::unique_ptr<SharedSegment>(new SharedSegment(name, std::move(mapping), ::getpid()));
}

std::unique_ptr<SharedSegment> SharedSegment::open(const std::string& name, uint64_t bytes, std::string* why) {
  const OwnedFd fd(::shm_open(name.c_str(), O_RDWR, 0));
  if (fd.get() < 0) {
    *why = fmt::format("cannot open the shared memory object {}: {} (the exporting process freed the memory or "
                       "ended)",
                       name, std::strerror(errno));
    return nullptr;
  }
  struct stat st{};
  if (::fstat(fd.get(), &st) != 0 || static_cast<uint64_t>(st.st_size) < bytes) {
    *why = fmt::format("the shared memory object {} is smaller than the handle's {} bytes", name, bytes);
    return nullptr;
  }
  auto mapping = FileMapping::map(fd.get(), 0, bytes, why);
  if (!mapping) {
    *why = fmt::format("shared memory object {}: {}", name, *why);
    return nullptr;
  }
  return std::unique_ptr<SharedSegment>(new SharedSegment(name, std::move(mapping), 0));
}

void SharedSegment::unlink() {
  if (creator_ && creator_ == ::getpid()) ::shm_unlink(name_.c_str());
  creator_ = 0;
}

SharedSegment::~SharedSegment() { unlink(); }

}  // namespace warpsim::runtime
