#include "sim/runtime/elf_file.hpp"

#include <fmt/format.h>

#include <cstring>
#include <fstream>

#include "sim/foundation/error.hpp"
#include "sim/runtime/fatbin.hpp"
#include "sim/runtime/runtime_error.hpp"

namespace warpsim::runtime {

namespace {

constexpr uint64_t kMaxProgramBytes = uint64_t(4) << 30;

template <class T>
T load(const std::vector<uint8_t>& b, uint64_t off, const std::string& path) {
  if (off > b.size() || b.size() - off < sizeof(T))
    throw Error(fmt::format("{}: malformed ELF file (a header points past its end)", path));
  T v;
  std::memcpy(&v, b.data() + off, sizeof(T));
  return v;
}

}  // namespace

const ElfFile::Section* ElfFile::section(const std::string& name) const {
  for (const auto& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

bool ElfFile::needs_prefix(const std::string& prefix) const {
  for (const auto& n : needed)
    if (n.rfind(prefix, 0) == 0) return true;
  return false;
}

std::optional<ElfFile> read_elf(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(fmt::format("{}: cannot open", path));
  char ident[16] = {};
  f.read(ident, 16);
  if (f.gcount() < 16 || std::memcmp(ident, "\x7f" "ELF", 4) != 0 || ident[4] != 2 || ident[5] != 1)
    return std::nullopt;
  f.seekg(0, std::ios::end);
  const auto size = static_cast<uint64_t>(f.tellg());
  if (size > kMaxProgramBytes) throw Error(fmt::format("{}: {} bytes is larger than any program warpsim reads", path, size));
  ElfFile e;
  e.path = path;
  e.bytes.resize(size);
  f.seekg(0);
  f.read(reinterpret_cast<char*>(e.bytes.data()), static_cast<std::streamsize>(size));
  const auto shoff = load<uint64_t>(e.bytes, 0x28, path);
  const auto shentsize = load<uint16_t>(e.bytes, 0x3A, path);
  const auto shnum = load<uint16_t>(e.bytes, 0x3C, path);
  const auto shstrndx = load<uint16_t>(e.bytes, 0x3E, path);
  if (shnum == 0) return e;
  if (shentsize < 64 || shstrndx >= shnum) throw Error(fmt::format("{}: malformed ELF section table", path));
  auto sh = [&](uint32_t i) { return shoff + uint64_t(i) * shentsize; };
  const uint64_t strtab = load<uint64_t>(e.bytes, sh(shstrndx) + 0x18, path);
  for (uint32_t i = 0; i < shnum; ++i) {
    ElfFile::Section s;
    const uint32_t name_off = load<uint32_t>(e.bytes, sh(i), path);
    s.type = load<uint32_t>(e.bytes, sh(i) + 4, path);
    s.offset = load<uint64_t>(e.bytes, sh(i) + 0x18, path);
    s.size = load<uint64_t>(e.bytes, sh(i) + 0x20, path);
    for (uint64_t p = strtab + name_off; p < e.bytes.size() && e.bytes[p]; ++p) s.name += char(e.bytes[p]);
    if (s.type != 8 /*NOBITS*/ && (s.offset > size || s.size > size - s.offset))
      throw Error(fmt::format("{}: malformed ELF: section '{}' lies outside the file", path, s.name));
    e.sections.push_back(std::move(s));
  }
  // DT_NEEDED names are offsets into the string table the dynamic section links to.
  const ElfFile::Section* dyn = e.section(".dynamic");
  const ElfFile::Section* dynstr = e.section(".dynstr");
  if (dyn && dynstr) {
    for (uint64_t off = dyn->offset; off + 16 <= dyn->offset + dyn->size; off += 16) {
      const auto tag = load<int64_t>(e.bytes, off, path);
      if (tag == 0) break;
      if (tag != 1 /*DT_NEEDED*/) continue;
      const auto val = load<uint64_t>(e.bytes, off + 8, path);
      std::string name;
      for (uint64_t p = dynstr->offset + val; p < dynstr->offset + dynstr->size && e.bytes[p]; ++p) name += char(e.bytes[p]);
      e.needed.push_back(name);
    }
  }
  return e;
}

namespace {
std::vector<Fatbin> fatbins_in(const ElfFile& elf, const char* section) {
  std::vector<Fatbin> out;
  const ElfFile::Section* s = elf.section(section);
  if (!s) return out;
  std::span<const uint8_t> all(elf.bytes.data() + s->offset, s->size);
  for (uint64_t off = 0; off + 16 <= all.size();) {
    uint32_t magic;
    std::memcpy(&magic, all.data() + off, 4);
    if (magic != 0xBA55ED50) {  // padding between fatbinaries
      off += 8;
      continue;
    }
    const uint64_t n = fatbin_size(all.data() + off);
    if (n > all.size() - off) throw FatbinError(fmt::format("{}: truncated fatbinary in {}", elf.path, section));
    out.push_back(read_fatbin(all.subspan(off, n)));
    off += (n + 7) / 8 * 8;
  }
  return out;
}
}  // namespace

std::vector<Fatbin> program_fatbins(const ElfFile& elf) { return fatbins_in(elf, ".nv_fatbin"); }
std::vector<Fatbin> program_unit_fatbins(const ElfFile& elf) { return fatbins_in(elf, "__nv_relfatbin"); }

}  // namespace warpsim::runtime
