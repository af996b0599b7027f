// Reads the fatbinary that nvcc embeds in a program (.nv_fatbin) and hands out its PTX.
// A fatbinary is a header followed by entries, each an ELF (SASS for one sm_XX) or the PTX
// of one compute_XX, stored plain or compressed (nvcc 12.8+/13 compress with zstd by
// default; older toolkits and `-compress-mode=speed` use LZ4).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace warpsim::runtime {

struct FatbinEntry {
  enum class Kind { Ptx, Elf, Other };
  Kind kind = Kind::Other;
  uint32_t arch = 0;            // 75 for sm_75 / compute_75
  uint32_t ptx_version = 0;     // PTX ISA major*10+minor of a PTX entry (e.g. 90)
  std::string compression;      // "", "zstd" or "lz4"
  uint64_t stored_bytes = 0;
  uint64_t bytes = 0;           // after decompression
};

struct Fatbin {
  std::vector<FatbinEntry> entries;
  std::vector<std::string> ptx;  // decompressed text of each PTX entry, in entry order
  // The PTX to run: the entry for the newest architecture. Throws FatbinError when the
  // fatbinary holds SASS only, naming the architectures and how to rebuild with PTX.
  const std::string& best_ptx(const std::string& program) const;
  std::string describe() const;  // "sm_75 ELF, compute_75 PTX (zstd)"
};

// `image` points at a fatbinary header (magic 0xBA55ED50). `limit` bounds how many bytes
// may be read (the wrapper gives no size; the header does). Throws FatbinError on a
// malformed or truncated image, an unknown compression, or corrupt compressed data.
Fatbin read_fatbin(std::span<const uint8_t> image);
// Reads the header only and returns the fatbinary's total size (header + entries).
uint64_t fatbin_size(const uint8_t* header);
// Whether `image` starts with a fatbinary's header (magic 0xBA55ED50), or with nvcc's
// wrapper of one (cuda_abi.hpp's FatbinWrapper, magic 0x466243B1). Reads 4 bytes, or fewer
// when a NUL comes first (text shorter than a magic, which has no zero byte).
bool is_fatbin(const void* image);
bool is_fatbin_wrapper(const void* image);

// A program built with relocatable device code (-rdc=true) keeps each translation unit's
// PTX in a fatbinary of its own: their PTX linked into one module (isa/ptx_link.hpp), leaving
// out libcudadevrt's unit (the device runtime, which warpsim implements). `program` names
// them in messages. Throws FatbinError for no unit, a unit without PTX, or a link error.
std::string link_unit_ptx(const std::vector<Fatbin>& units, const std::string& program);

}  // namespace warpsim::runtime
