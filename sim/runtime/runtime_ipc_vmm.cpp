// The driver API's shareable physical allocations, as cuda-samples' memMapIPCDrv uses them:
// cuMemCreate with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR keeps the allocation's bytes in
// a memfd, cuMemExportToShareableHandle hands out a duplicate of that descriptor, and
// cuMemImportFromShareableHandle in another process maps the file as a physical allocation
// of its own device (not counted against its capacity: the memory is the exporter's), which
// the program then maps with cuMemMap as any other. Both simulated devices see the same bytes.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sim/runtime/runtime.hpp"
#include "sim/runtime/runtime_ipc.hpp"

namespace warpsim::runtime {

namespace {

// A physical allocation over `share`'s mapping; the allocation owns `share` from then on.
uint64_t physical_over(Device& device, std::shared_ptr<IpcTable::VmmShare> share, bool counted, const char* call) {
  uint64_t id = 0;
  uint8_t* storage = share->mapping->data();
  const uint64_t bytes = share->mapping->size();
  const std::string why = device.create_physical_external(bytes, storage, [share] {}, counted, &id);
  if (!why.empty()) throw ApiError(counted ? cuda::ErrorMemoryAllocation : cuda::ErrorInvalidValue, fmt::format("{}: {}", call, why));
  return id;
}

// Physical allocation `id`'s memfd if it was made shareable in this process and is live.
std::shared_ptr<IpcTable::VmmShare> exported_share(const IpcTable& ipc, const Device& device, uint64_t id) {
  auto it = ipc.vmm_shares.find(id);
  auto share = it == ipc.vmm_shares.end() ? nullptr : it->second.lock();
  return share && share->exported && device.physical_bytes(id) ? share : nullptr;
}

}  // namespace

uint64_t Runtime::vmm_create_shareable(uint64_t bytes) {
  const int fd = ::memfd_create("warpsim-vmm", MFD_CLOEXEC);
  if (fd < 0)
    throw ApiError(cuda::ErrorMemoryAllocation,
                   fmt::format("cuMemCreate: cannot make the shareable allocation's memory file: {}", std::strerror(errno)));
  auto share = std::make_shared<IpcTable::VmmShare>();
  share->fd = OwnedFd(fd);
  share->exported = true;
  std::string why;
  share->mapping = FileMapping::extend_and_map(fd, 0, bytes, &why);
  if (!share->mapping) throw ApiError(cuda::ErrorMemoryAllocation, fmt::format("cuMemCreate: its memory file: {}", why));
  const uint64_t id = physical_over(*device_, share, true, "cuMemCreate");
  ipc_->vmm_shares[id] = share;
  return id;
}

bool Runtime::vmm_shareable(uint64_t id) const { return exported_share(*ipc_, *device_, id) != nullptr; }

int Runtime::vmm_export(uint64_t id) {
  const auto share = exported_share(*ipc_, *device_, id);
  if (!share)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cuMemExportToShareableHandle: {:#x} is not a live allocation handle made with "
                               "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR in requestedHandleTypes",
                               id));
  const int fd = ::dup(share->fd.get());
  if (fd < 0)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("cuMemExportToShareableHandle: {}", std::strerror(errno)));
  return fd;
}

uint64_t Runtime::vmm_import(int given) {
  const int fd = ::fcntl(given, F_DUPFD_CLOEXEC, 0);  // the program may close its own
  if (fd < 0)  // CUDA_ERROR_UNKNOWN, as an H200 answers (docs/measurements/h200_vmm_ipc_2026-11-29.txt)
    throw ApiError(cuda::ErrorUnknown,
                   fmt::format("cuMemImportFromShareableHandle: {} is not an open file descriptor", given));
  auto share = std::make_shared<IpcTable::VmmShare>();
  share->fd = OwnedFd(fd);
  struct stat st{};
  std::string why;
  const uint64_t g = Device::vmm_granularity();
  if (::fstat(fd, &st) != 0 || st.st_size <= 0 || static_cast<uint64_t>(st.st_size) % g != 0)
    why = fmt::format("descriptor {} is not an allocation cuMemExportToShareableHandle exported", given);
  if (why.empty()) share->mapping = FileMapping::map(fd, 0, static_cast<uint64_t>(st.st_size), &why);
  if (!share->mapping) throw ApiError(cuda::ErrorInvalidValue, fmt::format("cuMemImportFromShareableHandle: {}", why));
  const uint64_t id = physical_over(*device_, share, false, "cuMemImportFromShareableHandle");
  ipc_->vmm_shares[id] = share;
  return id;
}

}  // namespace warpsim::runtime
