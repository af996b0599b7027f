#include "sim/launch/host_buffer.hpp"

#include <fmt/format.h>

#include <array>

namespace warpsim {
namespace {

struct ElemInfo {
  ElemType type;
  std::string_view name;
  uint32_t size;
  bool is_float, is_signed;
};

constexpr std::array<ElemInfo, 10> kElems = {{
    {ElemType::U8, "u8", 1, false, false},   {ElemType::S8, "s8", 1, false, true},
    {ElemType::U16, "u16", 2, false, false}, {ElemType::S16, "s16", 2, false, true},
    {ElemType::U32, "u32", 4, false, false}, {ElemType::S32, "s32", 4, false, true},
    {ElemType::U64, "u64", 8, false, false}, {ElemType::S64, "s64", 8, false, true},
    {ElemType::F32, "f32", 4, true, true},   {ElemType::F64, "f64", 8, true, true},
}};

const ElemInfo& info(ElemType t) { return kElems[static_cast<size_t>(t)]; }

template <class T>
T load(const std::vector<uint8_t>& bytes, uint64_t i) {
  T v;
  std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

template <class T>
void store(std::vector<uint8_t>& bytes, uint64_t i, T v) {
  std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
}

}  // namespace

uint32_t elem_size(ElemType t) { return info(t).size; }
bool elem_is_float(ElemType t) { return info(t).is_float; }
bool elem_is_signed(ElemType t) { return info(t).is_signed; }
std::string_view elem_name(ElemType t) { return info(t).name; }

std::optional<ElemType> parse_elem_type(std::string_view name) {
  for (const auto& e : kElems)
    if (e.name == name) return e.type;
  return std::nullopt;
}

std::string elem_type_names() {
  std::string s;
  for (const auto& e : kElems) {
    if (!s.empty()) s += ' ';
    s += e.name;
  }
  return s;
}

double HostBuffer::get_real(uint64_t i) const {
  switch (type) {
    case ElemType::F32: return load<float>(bytes, i);
    case ElemType::F64: return load<double>(bytes, i);
    case ElemType::U64: return static_cast<double>(load<uint64_t>(bytes, i));
    default: return static_cast<double>(get_int(i));
  }
}

int64_t HostBuffer::get_int(uint64_t i) const {
  switch (type) {
    case ElemType::U8: return load<uint8_t>(bytes, i);
    case ElemType::S8: return load<int8_t>(bytes, i);
    case ElemType::U16: return load<uint16_t>(bytes, i);
    case ElemType::S16: return load<int16_t>(bytes, i);
    case ElemType::U32: return load<uint32_t>(bytes, i);
    case ElemType::S32: return load<int32_t>(bytes, i);
    case ElemType::U64: return static_cast<int64_t>(load<uint64_t>(bytes, i));
    case ElemType::S64: return load<int64_t>(bytes, i);
    case ElemType::F32: return static_cast<int64_t>(load<float>(bytes, i));
    case ElemType::F64: return static_cast<int64_t>(load<double>(bytes, i));
  }
  return 0;
}

uint64_t HostBuffer::get_bits(uint64_t i) const {
  uint64_t v = 0;
  std::memcpy(&v, bytes.data() + i * elem_size(type), elem_size(type));
  return v;
}

void HostBuffer::set_real(uint64_t i, double v) {
  switch (type) {
    case ElemType::F32: store<float>(bytes, i, static_cast<float>(v)); break;
    case ElemType::F64: store<double>(bytes, i, v); break;
    default: set_int(i, static_cast<int64_t>(v)); break;
  }
}

void HostBuffer::set_int(uint64_t i, int64_t v) {
  switch (type) {
    case ElemType::F32: store<float>(bytes, i, static_cast<float>(v)); break;
    case ElemType::F64: store<double>(bytes, i, static_cast<double>(v)); break;
    default: {
      uint64_t bits = static_cast<uint64_t>(v);
      std::memcpy(bytes.data() + i * elem_size(type), &bits, elem_size(type));
      break;
    }
  }
}

std::string HostBuffer::format(uint64_t i) const {
  switch (type) {
    case ElemType::F32: return fmt::format("{}", load<float>(bytes, i));
    case ElemType::F64: return fmt::format("{}", load<double>(bytes, i));
    case ElemType::U64: return fmt::format("{}", load<uint64_t>(bytes, i));
    default: return fmt::format("{}", get_int(i));
  }
}

}  // namespace warpsim
