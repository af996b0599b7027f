// What the Runtime keeps of CUDA IPC (runtime_ipc.cpp): the device memory this process
// exported and the memory and events it opened from other processes' handles.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "sim/engine/device.hpp"
#include "sim/runtime/ipc_segment.hpp"

namespace warpsim::runtime {

struct IpcTable {
  struct Export {  // a device allocation of this process, kept in `segment` since its handle was made
    uint64_t serial = 0;
    std::unique_ptr<SharedSegment> segment;
  };
  struct Import {  // another process's allocation, mapped here
    int32_t pid = 0;
    uint64_t serial = 0;
    uint64_t opens = 0;  // cudaIpcOpenMemHandle calls not yet closed
    std::unique_ptr<SharedSegment> segment;
  };
  struct Event {  // an interprocess event: made here (pid is ours) or opened from a handle
    int32_t pid = 0;  // the process whose shared object holds its records
    int32_t fd = -1;  // that process's descriptor of it
    uint64_t serial = 0;
    std::shared_ptr<SharedSegment> segment;  // null until its handle is made
  };
  // A pool made here with cudaMemHandleTypePosixFileDescriptor: its chunks live in `memfd`.
  struct PoolExport {
    OwnedFd memfd;
    uint64_t file_bytes = 0;  // the memfd's length: chunks are placed one after another
    struct Chunk {
      uint64_t offset = 0;
      std::unique_ptr<FileMapping> mapping;
    };
    std::map<DevPtr, Chunk> chunks;  // by chunk base
    bool destroyed = false;          // cudaMemPoolDestroy: the record goes with its last chunk
  };
  // A pool imported from another process's descriptor: its chunks are mapped as pointers
  // into them are imported.
  struct PoolImport {
    OwnedFd fd;
    uint64_t inode = 0;  // the file's, to tell whose pointers these are
    struct Chunk {
      DevPtr at = 0;
      uint64_t pointers = 0;  // imported pointers into it not yet freed
      std::unique_ptr<FileMapping> mapping;
    };
    std::map<uint64_t, Chunk> chunks;  // by offset in the file
  };
  struct ImportedPointer {
    const void* pool = nullptr;
    uint64_t chunk_offset = 0;
  };
  // A driver-API physical allocation made shareable (cuMemCreate with a POSIX descriptor
  // handle type) or imported from another process's descriptor: its bytes are `mapping`.
  struct VmmShare {
    OwnedFd fd;
    std::unique_ptr<FileMapping> mapping;
    bool exported = false;  // made here (its properties say so; an imported one's say 0, as an H200's)
  };
  std::map<DevPtr, Export> exports;  // by allocation base
  std::map<DevPtr, Import> imports;  // by address in this process
  std::map<const void*, Event> events;
  std::map<const void*, PoolExport> pool_exports;  // by pool handle
  std::map<const void*, PoolImport> pool_imports;  // by pool handle
  std::map<DevPtr, ImportedPointer> imported_pointers;
  // By physical allocation id; the physical allocation owns its VmmShare (its release
  // callback holds the last reference), so an entry expires when it is freed.
  std::map<uint64_t, std::weak_ptr<VmmShare>> vmm_shares;
  uint64_t next_serial = 1;
  // The segments of a device cudaDeviceReset retired: its memory still points into them.
  std::vector<std::unique_ptr<SharedSegment>> retired;
  std::vector<std::unique_ptr<FileMapping>> retired_mappings;
};

}  // namespace warpsim::runtime
