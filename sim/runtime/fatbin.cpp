#include "sim/runtime/fatbin.hpp"

#include <fmt/format.h>
#include <lz4.h>
#include <zstd.h>

#include <cstring>

#include "sim/isa/ptx_link.hpp"
#include "sim/runtime/runtime_error.hpp"

namespace warpsim::runtime {

namespace {

constexpr uint32_t kFatbinMagic = 0xBA55ED50;
constexpr uint64_t kFlagLz4 = 0x2000;
constexpr uint64_t kFlagZstd = 0x8000;
// No single PTX module of a real program comes near this; a larger claimed size is a
// corrupt header, not a reason to allocate gigabytes.
constexpr uint64_t kMaxEntryBytes = uint64_t(1) << 30;

template <class T>
T load(std::span<const uint8_t> s, uint64_t off) {
  T v;
  std::memcpy(&v, s.data() + off, sizeof(T));
  return v;
}

std::string decompress(const FatbinEntry& e, std::span<const uint8_t> payload) {
  std::string out(e.bytes, '\0');
  if (e.compression == "zstd") {
    size_t n = ZSTD_decompress(out.data(), out.size(), payload.data(), payload.size());
    if (ZSTD_isError(n))
      throw FatbinError(fmt::format("fatbinary: corrupt zstd data in the compute_{} PTX: {}", e.arch,
                                    ZSTD_getErrorName(n)));
    out.resize(n);
  } else if (e.compression == "lz4") {
    int n = LZ4_decompress_safe(reinterpret_cast<const char*>(payload.data()), out.data(),
                                static_cast<int>(payload.size()), static_cast<int>(out.size()));
    if (n < 0) throw FatbinError(fmt::format("fatbinary: corrupt LZ4 data in the compute_{} PTX", e.arch));
    out.resize(static_cast<size_t>(n));
  } else {
    out.assign(reinterpret_cast<const char*>(payload.data()), payload.size());
  }
  // The stored text is NUL-terminated and padded.
  if (auto nul = out.find('\0'); nul != std::string::npos) out.resize(nul);
  return out;
}

}  // namespace

namespace {
bool starts_with_word(const void* image, uint32_t word) {
  if (strnlen(static_cast<const char*>(image), 4) != 4) return false;
  uint32_t w;
  std::memcpy(&w, image, sizeof w);
  return w == word;
}
}  // namespace

bool is_fatbin(const void* image) { return starts_with_word(image, kFatbinMagic); }
bool is_fatbin_wrapper(const void* image) { return starts_with_word(image, 0x466243b1u); }

uint64_t fatbin_size(const uint8_t* header) {
  uint32_t magic;
  std::memcpy(&magic, header, 4);
  if (magic != kFatbinMagic)
    throw FatbinError(fmt::format("fatbinary: bad magic {:#010x} (expected {:#010x})", magic, kFatbinMagic));
  uint16_t header_size;
  uint64_t fat_size;
  std::memcpy(&header_size, header + 6, 2);
  std::memcpy(&fat_size, header + 8, 8);
  if (header_size < 16 || fat_size > kMaxEntryBytes * 16)
    throw FatbinError(fmt::format("fatbinary: implausible header (header {} bytes, body {} bytes)", header_size, fat_size));
  return header_size + fat_size;
}

Fatbin read_fatbin(std::span<const uint8_t> image) {
  if (image.size() < 16) throw FatbinError("fatbinary: truncated header");
  const uint64_t total = fatbin_size(image.data());
  if (total > image.size())
    throw FatbinError(fmt::format("fatbinary: header claims {} bytes, only {} available", total, image.size()));
  const uint64_t first = load<uint16_t>(image, 6);
  Fatbin fb;
  for (uint64_t off = first; off < total;) {
    if (total - off < 64) throw FatbinError(fmt::format("fatbinary: truncated entry header at byte {}", off));
    const uint16_t kind = load<uint16_t>(image, off);
    const uint32_t header_size = load<uint32_t>(image, off + 4);
    const uint64_t padded = load<uint64_t>(image, off + 8);
    const uint32_t stored = load<uint32_t>(image, off + 16);
    const uint32_t version = load<uint32_t>(image, off + 24);
    const uint32_t arch = load<uint32_t>(image, off + 28);
    const uint64_t flags = load<uint64_t>(image, off + 40);
    const uint64_t uncompressed = load<uint64_t>(image, off + 56);
    if (header_size < 64 || header_size > total - off || padded > total - off - header_size)
      throw FatbinError(fmt::format("fatbinary: entry at byte {} overruns the image ({} + {} bytes)", off, header_size,
                                    padded));
    FatbinEntry e;
    e.kind = kind == 1 ? FatbinEntry::Kind::Ptx : kind == 2 ? FatbinEntry::Kind::Elf : FatbinEntry::Kind::Other;
    e.arch = arch;
    if (flags & kFlagZstd) e.compression = "zstd";
    else if (flags & kFlagLz4) e.compression = "lz4";
    e.stored_bytes = e.compression.empty() ? padded : stored;
    e.bytes = e.compression.empty() ? padded : uncompressed;
    if (e.stored_bytes > padded || e.bytes > kMaxEntryBytes)
      throw FatbinError(fmt::format("fatbinary: entry at byte {} has implausible sizes ({} stored, {} bytes)", off,
                                    e.stored_bytes, e.bytes));
    if (e.kind == FatbinEntry::Kind::Ptx) {
      e.ptx_version = (version >> 16) * 10 + (version & 0xFFFF);
      fb.ptx.push_back(decompress(e, image.subspan(off + header_size, e.stored_bytes)));
    }
    fb.entries.push_back(e);
    off += header_size + padded;
  }
  return fb;
}

const std::string& Fatbin::best_ptx(const std::string& program) const {
  size_t best = ptx.size();
  uint32_t best_arch = 0;
  size_t k = 0;
  for (const auto& e : entries) {
    if (e.kind != FatbinEntry::Kind::Ptx) continue;
    if (best == ptx.size() || e.arch > best_arch) best = k, best_arch = e.arch;
    ++k;
  }
  if (best == ptx.size())
    throw FatbinError(fmt::format(
        "{}: the program carries GPU machine code only ({}) and no PTX, which is what warpsim runs; rebuild it "
        "keeping PTX, e.g. nvcc -arch=sm_75 (which embeds compute_75 PTX) or -gencode arch=compute_75,code=compute_75",
        program, describe()));
  return ptx[best];
}

std::string Fatbin::describe() const {
  std::string s;
  for (const auto& e : entries) {
    if (!s.empty()) s += ", ";
    switch (e.kind) {
      case FatbinEntry::Kind::Ptx: s += fmt::format("compute_{} PTX", e.arch); break;
      case FatbinEntry::Kind::Elf: s += fmt::format("sm_{} ELF", e.arch); break;
      case FatbinEntry::Kind::Other: s += "unknown entry"; break;
    }
    if (!e.compression.empty()) s += fmt::format(" ({})", e.compression);
  }
  return s.empty() ? "no entries" : s;
}

namespace {
// Whether a module's PTX defines the device runtime's cudaLaunchDeviceV2 (a line
// ".visible .func (...) cudaLaunchDeviceV2(" as libcudadevrt's has).
bool defines_device_runtime(const std::string& ptx) {
  for (size_t at = ptx.find(" cudaLaunchDeviceV2("); at != std::string::npos;
       at = ptx.find(" cudaLaunchDeviceV2(", at + 1)) {
    const size_t line = ptx.rfind('\n', at);
    if (ptx.compare(line == std::string::npos ? 0 : line + 1, 14, ".visible .func") == 0) return true;
  }
  return false;
}
}  // namespace

std::string link_unit_ptx(const std::vector<Fatbin>& units, const std::string& program) {
  std::vector<std::string> ptx;
  for (const Fatbin& f : units) {
    std::string text = f.best_ptx(program);
    if (!defines_device_runtime(text)) ptx.push_back(std::move(text));
  }
  if (ptx.empty())
    throw FatbinError(fmt::format("{}: relocatable device code (-rdc=true) without any translation unit's PTX",
                                  program));
  if (ptx.size() == 1) return ptx.front();
  // Several units: their PTX linked into one module, as nvlink links their machine code.
  std::vector<isa::PtxUnit> linked;
  for (size_t i = 0; i < ptx.size(); ++i)
    linked.push_back({fmt::format("{} (device code of translation unit {} of {})", program, i + 1, ptx.size()),
                      std::move(ptx[i])});
  try {
    return isa::link_ptx(linked);
  } catch (const PtxError& e) {
    throw FatbinError(e.what());
  }
}

}  // namespace warpsim::runtime
