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
    int32_t pid = 0;
    uint64_t serial = 0;
    std::shared_ptr<SharedSegment> segment;  // null until its handle is made
  };
  std::map<DevPtr, Export> exports;  // by allocation base
  std::map<DevPtr, Import> imports;  // by address in this process
  std::map<const void*, Event> events;
  uint64_t next_serial = 1;
  // The segments of a device cudaDeviceReset retired: its memory still points into them.
  std::vector<std::unique_ptr<SharedSegment>> retired;
};

}  // namespace warpsim::runtime
