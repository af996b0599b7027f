// Memory pools shared between processes that each run under warpsim (cuda-samples'
// streamOrderedAllocationIPC). A pool made with cudaMemHandleTypePosixFileDescriptor keeps
// its chunks in one memfd, one after another: each chunk's device allocation moves into its
// part of the file (GlobalMemory::share). cudaMemPoolExportToShareableHandle hands out a
// duplicate of that descriptor, which the program passes to another process as it likes
// (a Unix socket, inheritance across exec); the importing process maps the chunk a pointer
// lies in when the pointer is imported, so both simulated devices see the same bytes.
// Error codes are an H200's (docs/measurements/h200_pool_ipc_2026-11-29.txt).
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

constexpr int kHandlePosixFd = 1;  // cudaMemHandleTypePosixFileDescriptor
constexpr char kPointerMagic[8] = {'w', 'a', 'r', 'p', 's', 'i', 'm', 'P'};

// cudaMemPoolPtrExportData: 64 opaque bytes; warpsim's say where in the pool's file the
// allocation lies.
struct PointerData {
  char magic[8];
  uint64_t inode;         // the pool's memfd
  uint64_t chunk_offset;  // where the allocation's chunk starts in it
  uint64_t chunk_bytes;
  uint64_t in_chunk;  // the allocation's offset in its chunk
  uint8_t unused[24];
};
static_assert(sizeof(PointerData) == 64);

uint64_t inode_of(int fd) {
  struct stat st{};
  return ::fstat(fd, &st) == 0 ? static_cast<uint64_t>(st.st_ino) : 0;
}

void check_handle_type(int type, const char* call) {
  if (type != kHandlePosixFd)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: handle type {} (warpsim shares pools through POSIX file descriptors, "
                               "handle type 1)",
                               call, type));
}

}  // namespace

void Runtime::ipc_pool_created(MemPool& p, int handle_types, const char* call) {
  if (handle_types & ~kHandlePosixFd)
    throw ApiError(cuda::ErrorNotSupported,
                   fmt::format("{}: handleTypes {:#x}: warpsim shares pools through POSIX file "
                               "descriptors only (handle type 1; the device's supported pool handle types "
                               "attribute is 1)",
                               call, handle_types));
  const int fd = ::memfd_create("warpsim-pool", MFD_CLOEXEC);
  if (fd < 0)
    throw ApiError(cuda::ErrorMemoryAllocation,
                   fmt::format("{}: cannot make the shareable pool's memory file: {}", call, std::strerror(errno)));
  p.handle_types = handle_types;
  ipc_->pool_exports[&p].memfd = OwnedFd(fd);
}

void Runtime::ipc_pool_chunk_reserved(const MemPool& p, DevPtr base, uint64_t bytes) {
  IpcTable::PoolExport& e = ipc_->pool_exports.at(&p);
  const uint64_t offset = e.file_bytes;
  std::string why;
  auto mapping = FileMapping::extend_and_map(e.memfd.get(), offset, bytes, &why);
  if (!mapping) {
    device_->free(base);
    throw ApiError(cuda::ErrorMemoryAllocation,
                   fmt::format("stream-ordered allocation: the shareable pool's memory file: {}", why));
  }
  device_->share_allocation(base, mapping->data());
  e.file_bytes = offset + bytes;
  e.chunks[base] = IpcTable::PoolExport::Chunk{offset, std::move(mapping)};
}

void Runtime::ipc_pool_chunk_freed(DevPtr base) {
  for (auto it = ipc_->pool_exports.begin(); it != ipc_->pool_exports.end(); ++it) {
    auto c = it->second.chunks.find(base);
    if (c == it->second.chunks.end()) continue;
    // The file keeps its length (later chunks lie after it); its pages go back to the system.
    ::fallocate(it->second.memfd.get(), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                static_cast<off_t>(c->second.offset), static_cast<off_t>(c->second.mapping->size()));
    it->second.chunks.erase(c);
    if (it->second.destroyed && it->second.chunks.empty()) ipc_->pool_exports.erase(it);
    return;
  }
}

void Runtime::ipc_pool_export(void* handle, void* pool_handle, int handle_type, unsigned flags, const char* call) {
  if (!handle) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: shareableHandle is NULL", call));
  MemPool& p = pool(pool_handle, call);
  check_handle_type(handle_type, call);
  if (flags) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: flags must be 0", call));
  if (p.imported || !(p.handle_types & kHandlePosixFd))
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: pool {} was not created with the POSIX file descriptor handle type in its "
                               "handleTypes",
                               call, pool_handle));
  const int fd = ::dup(ipc_->pool_exports.at(&p).memfd.get());
  if (fd < 0)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: no descriptor: {}", call, std::strerror(errno)));
  std::memcpy(handle, &fd, sizeof fd);
}

void Runtime::ipc_pool_export_pointer(void* data, void* ptr, const char* call) {
  if (!data) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: exportData is NULL", call));
  const DevPtr p = reinterpret_cast<DevPtr>(ptr);
  MemPool* owner = find_pool([p](const MemPool& m) { return m.owns(p); });
  if (!owner || owner->imported || !(owner->handle_types & kHandlePosixFd))
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}({}): not the start of a live allocation of a pool created with the POSIX "
                               "file descriptor handle type",
                               call, ptr));
  const auto chunk = owner->chunk_of(p);
  const IpcTable::PoolExport& e = ipc_->pool_exports.at(owner);
  const auto& c = e.chunks.at(chunk->first);
  PointerData d{};
  std::memcpy(d.magic, kPointerMagic, sizeof kPointerMagic);
  d.inode = inode_of(e.memfd.get());
  d.chunk_offset = c.offset;
  d.chunk_bytes = chunk->second;
  d.in_chunk = p - chunk->first;
  std::memcpy(data, &d, sizeof d);
}

void* Runtime::ipc_pool_import(void* shareable, int handle_type, unsigned flags, const char* call) {
  check_handle_type(handle_type, call);
  if (flags) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: flags must be 0", call));
  const int given = static_cast<int>(reinterpret_cast<intptr_t>(shareable));
  const int fd = ::fcntl(given, F_DUPFD_CLOEXEC, 0);  // the program may close its own
  if (fd < 0)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: {} is not an open file descriptor", call, given));
  OwnedFd owned(fd);
  auto p = std::make_unique<MemPool>();
  p->imported = true;
  p->handle_types = kHandlePosixFd;
  void* h = p.get();
  IpcTable::PoolImport& imp = ipc_->pool_imports[h];
  imp.inode = inode_of(fd);
  imp.fd = std::move(owned);
  pools_[h] = std::move(p);
  return h;
}

void* Runtime::ipc_pool_import_pointer(void* pool_handle, const void* data, const char* call) {
  if (!data) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: exportData is NULL", call));
  pool(pool_handle, call);
  auto it = ipc_->pool_imports.find(pool_handle);
  if (it == ipc_->pool_imports.end())
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: pool {} was not imported from another process (by an import from a "
                               "shareable handle)",
                               call, pool_handle));
  IpcTable::PoolImport& imp = it->second;
  PointerData d;
  std::memcpy(&d, data, sizeof d);
  if (std::memcmp(d.magic, kPointerMagic, sizeof kPointerMagic) != 0 || d.inode != imp.inode ||
      d.in_chunk >= d.chunk_bytes)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: exportData is not the pointer export of an allocation of this pool", call));
  IpcTable::PoolImport::Chunk& c = imp.chunks[d.chunk_offset];
  if (!c.mapping) {
    std::string why;
    auto mapping = FileMapping::map(imp.fd.get(), d.chunk_offset, d.chunk_bytes, &why);
    if (!mapping) {
      imp.chunks.erase(d.chunk_offset);
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {}", call, why));
    }
    c.at = device_->map_external_anywhere(mapping->data(), d.chunk_bytes, "imported memory pool");
    c.mapping = std::move(mapping);
  }
  const DevPtr p = c.at + d.in_chunk;
  // Importing it again gives the same pointer, not counted: one free releases it (an H200,
  // drv_pool_ipc.expected).
  auto [at, inserted] = ipc_->imported_pointers.try_emplace(p);
  if (inserted) ++c.pointers;
  IpcTable::ImportedPointer& ip = at->second;
  ip.pool = pool_handle;
  ip.chunk_offset = d.chunk_offset;
  return reinterpret_cast<void*>(p);
}

bool Runtime::ipc_pool_free_imported(DevPtr p, const char* call) {
  auto it = ipc_->imported_pointers.find(p);
  if (it == ipc_->imported_pointers.end()) {
    // Inside an imported pool's memory but no live imported pointer: freed already, or
    // inside one. Refused: the mapping stays for the pool's other pointers.
    for (const auto& [pool_handle, imp] : ipc_->pool_imports)
      for (const auto& [offset, c] : imp.chunks)
        if (p >= c.at && p < c.at + c.mapping->size())
          throw ApiError(cuda::ErrorInvalidValue,
                         fmt::format("{}({}): not a live pointer imported into pool {} (freed already, or inside "
                                     "one; a pointer imported twice is one pointer, freed once)",
                                     call, reinterpret_cast<void*>(p), pool_handle));
    return false;
  }
  IpcTable::PoolImport& imp = ipc_->pool_imports.at(it->second.pool);
  auto c = imp.chunks.find(it->second.chunk_offset);
  ipc_->imported_pointers.erase(it);
  if (--c->second.pointers == 0) {
    device_->free(c->second.at);
    released(reinterpret_cast<void*>(c->second.at));
    imp.chunks.erase(c);
  }
  return true;
}

void Runtime::ipc_pool_destroyed(const MemPool& p) {
  auto imp = ipc_->pool_imports.find(&p);
  if (imp != ipc_->pool_imports.end()) {  // its mappings go with it
    for (auto it = ipc_->imported_pointers.begin(); it != ipc_->imported_pointers.end();)
      it = it->second.pool == &p ? ipc_->imported_pointers.erase(it) : std::next(it);
    for (auto& [offset, c] : imp->second.chunks) {
      device_->free(c.at);
      released(reinterpret_cast<void*>(c.at));
    }
    ipc_->pool_imports.erase(imp);
    return;
  }
  auto e = ipc_->pool_exports.find(&p);
  if (e == ipc_->pool_exports.end()) return;
  e->second.destroyed = true;  // its live allocations may outlive the handle (doomed_pools_)
  if (e->second.chunks.empty()) ipc_->pool_exports.erase(e);
}

}  // namespace warpsim::runtime
