// Just enough of ELF64 to look at a CUDA program before running it: the shared libraries
// it needs (is libcudart linked dynamically?) and the bytes of a named section (the
// embedded fatbinaries in .nv_fatbin).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpsim::runtime {

struct ElfFile {
  std::string path;
  std::vector<uint8_t> bytes;
  std::vector<std::string> needed;  // DT_NEEDED entries
  struct Section {
    std::string name;
    uint64_t offset = 0, size = 0;
    uint32_t type = 0;
  };
  std::vector<Section> sections;

  const Section* section(const std::string& name) const;
  bool needs_prefix(const std::string& prefix) const;  // e.g. "libcudart.so"
};

// Nullopt when the file is not an ELF64 little-endian object (a script, say). Throws
// Error when it cannot be read or its headers point outside the file.
std::optional<ElfFile> read_elf(const std::string& path);

// Every fatbinary in a program's .nv_fatbin section (nvcc places one per translation unit,
// each 8-byte aligned), decoded; empty if it has none.
struct Fatbin;
std::vector<Fatbin> program_fatbins(const ElfFile& elf);
// A -rdc=true program's translation units' own fatbinaries (section __nv_relfatbin), which
// hold their PTX (link_unit_ptx in fatbin.hpp); empty for a program without.
std::vector<Fatbin> program_unit_fatbins(const ElfFile& elf);

}  // namespace warpsim::runtime
