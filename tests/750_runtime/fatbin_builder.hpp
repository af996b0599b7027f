// Builds fatbinaries the way nvcc lays them out (header, entries with 64-byte headers,
// 8-byte padding), with PTX stored plain, zstd- or LZ4-compressed, for the reader and
// runtime tests. The layout is what tests/750_runtime/programs' nvcc output shows.
#pragma once
#include <lz4.h>
#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace rttest {

struct EntrySpec {
  uint16_t kind = 1;  // 1 PTX, 2 ELF
  uint32_t arch = 75;
  std::string compression;  // "", "zstd", "lz4"
  std::string payload;      // PTX text, or ELF bytes
};

template <class T>
void put(std::vector<uint8_t>& b, size_t off, T v) {
  std::memcpy(b.data() + off, &v, sizeof(T));
}

inline std::vector<uint8_t> make_fatbin(const std::vector<EntrySpec>& entries) {
  std::vector<uint8_t> body;
  for (const auto& e : entries) {
    std::string raw = e.payload;
    if (e.kind == 1) raw.push_back('\0');
    std::vector<uint8_t> stored(raw.begin(), raw.end());
    uint64_t flags = 0x11;
    if (e.compression == "zstd") {
      stored.resize(ZSTD_compressBound(raw.size()));
      stored.resize(ZSTD_compress(stored.data(), stored.size(), raw.data(), raw.size(), 3));
      flags |= 0x8000;
    } else if (e.compression == "lz4") {
      stored.resize(LZ4_compressBound(static_cast<int>(raw.size())));
      stored.resize(LZ4_compress_default(raw.data(), reinterpret_cast<char*>(stored.data()),
                                         static_cast<int>(raw.size()), static_cast<int>(stored.size())));
      flags |= 0x2000;
    }
    const size_t padded = (stored.size() + 7) / 8 * 8;
    std::vector<uint8_t> h(64, 0);
    put<uint16_t>(h, 0, e.kind);
    put<uint16_t>(h, 2, 0x101);
    put<uint32_t>(h, 4, 64);
    put<uint64_t>(h, 8, padded);
    put<uint32_t>(h, 16, e.compression.empty() ? 0 : static_cast<uint32_t>(stored.size()));
    put<uint32_t>(h, 24, e.kind == 1 ? 0x90000 : 0x10008);
    put<uint32_t>(h, 28, e.arch);
    put<uint64_t>(h, 40, flags);
    put<uint64_t>(h, 56, e.compression.empty() ? 0 : raw.size());
    body.insert(body.end(), h.begin(), h.end());
    stored.resize(padded, 0);
    body.insert(body.end(), stored.begin(), stored.end());
  }
  std::vector<uint8_t> out(16, 0);
  put<uint32_t>(out, 0, 0xBA55ED50);
  put<uint16_t>(out, 4, 1);
  put<uint16_t>(out, 6, 16);
  put<uint64_t>(out, 8, body.size());
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

}  // namespace rttest
