// Shared memory between processes for CUDA IPC (runtime_ipc*.cpp). An anonymous file
// (memfd) mapped into this process is the storage behind cudaIpcMemHandle_t and
// cudaIpcEventHandle_t: device memory exported with cudaIpcGetMemHandle moves into one, and
// another process running under warpsim maps the same file, so both simulated devices read
// and write the same bytes; an interprocess event's state lives in a small one. A file
// descriptor with mappings of its parts is the memfd behind a pool shared with
// cudaMemPoolExportToShareableHandle or a shareable cuMemCreate allocation.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

namespace warpsim::runtime {

// A file descriptor this process owns (closed with it): a shareable memory pool's memfd,
// or one imported from another process.
class OwnedFd {
 public:
  explicit OwnedFd(int fd = -1) : fd_(fd) {}
  ~OwnedFd();
  OwnedFd(OwnedFd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  OwnedFd& operator=(OwnedFd&& o) noexcept;
  OwnedFd(const OwnedFd&) = delete;
  OwnedFd& operator=(const OwnedFd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// `bytes` of a file from `offset`, mapped shared and read-write.
class FileMapping {
 public:
  // Null with the reason in *why if it cannot be mapped.
  static std::unique_ptr<FileMapping> map(int fd, uint64_t offset, uint64_t bytes, std::string* why);
  // The same after making the file `offset + bytes` long (new bytes read as zeros).
  static std::unique_ptr<FileMapping> extend_and_map(int fd, uint64_t offset, uint64_t bytes, std::string* why);
  ~FileMapping();
  FileMapping(const FileMapping&) = delete;
  FileMapping& operator=(const FileMapping&) = delete;
  uint8_t* data() const { return data_; }
  uint64_t size() const { return bytes_; }

 private:
  FileMapping(uint8_t* data, uint64_t bytes) : data_(data), bytes_(bytes) {}
  uint8_t* data_;
  uint64_t bytes_;
};

// Memory another process opens by a handle: an anonymous file (memfd) named `label`, opened
// there through /proc/PID/fd/FD. No name outlives the process that created it, whatever
// ends it (a shared-memory object in /dev/shm would stay behind a killed process).
class SharedSegment {
 public:
  // Creates the file, `bytes` long and zero-filled, and maps it; null with the reason in
  // *why if it cannot.
  static std::unique_ptr<SharedSegment> create(const std::string& label, uint64_t bytes, std::string* why);
  // Maps process `pid`'s segment `label`, its descriptor `fd`, which must be at least
  // `bytes` long. Refused if that descriptor is not that segment (a stale or made-up handle).
  static std::unique_ptr<SharedSegment> open(int32_t pid, int32_t fd, const std::string& label, uint64_t bytes,
                                             std::string* why);
  ~SharedSegment();
  SharedSegment(const SharedSegment&) = delete;
  SharedSegment& operator=(const SharedSegment&) = delete;

  uint8_t* data() const { return mapping_->data(); }
  uint64_t size() const { return mapping_->size(); }
  // The descriptor other processes open it by (-1 once withdrawn or if opened here).
  int fd() const { return fd_.get(); }
  // No other process can open it any more (the mappings stay): closes the descriptor.
  void withdraw() { fd_ = OwnedFd(); }

 private:
  SharedSegment(OwnedFd fd, std::unique_ptr<FileMapping> mapping) : fd_(std::move(fd)), mapping_(std::move(mapping)) {}
  OwnedFd fd_;
  std::unique_ptr<FileMapping> mapping_;
};

}  // namespace warpsim::runtime
