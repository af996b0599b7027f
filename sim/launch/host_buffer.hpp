// A typed array on the host: the initial contents of a launch-spec buffer, the expected
// image a CPU reference computes, or a copy read back from the device.
#pragma once
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace warpsim {

enum class ElemType { U8, S8, U16, S16, U32, S32, U64, S64, F32, F64 };

uint32_t elem_size(ElemType t);
bool elem_is_float(ElemType t);
bool elem_is_signed(ElemType t);
std::string_view elem_name(ElemType t);                // "f32"
std::optional<ElemType> parse_elem_type(std::string_view name);
std::string elem_type_names();                         // "u8 s8 ... f64", for messages

// The ElemType of a C++ element type (float -> F32, int32_t -> S32, ...).
template <class T>
constexpr ElemType elem_type_of() {
  if constexpr (std::is_same_v<T, uint8_t>) return ElemType::U8;
  else if constexpr (std::is_same_v<T, int8_t>) return ElemType::S8;
  else if constexpr (std::is_same_v<T, uint16_t>) return ElemType::U16;
  else if constexpr (std::is_same_v<T, int16_t>) return ElemType::S16;
  else if constexpr (std::is_same_v<T, uint32_t>) return ElemType::U32;
  else if constexpr (std::is_same_v<T, int32_t>) return ElemType::S32;
  else if constexpr (std::is_same_v<T, uint64_t>) return ElemType::U64;
  else if constexpr (std::is_same_v<T, int64_t>) return ElemType::S64;
  else if constexpr (std::is_same_v<T, float>) return ElemType::F32;
  else {
    static_assert(std::is_same_v<T, double>, "unsupported element type");
    return ElemType::F64;
  }
}

struct HostBuffer {
  ElemType type = ElemType::U8;
  uint64_t count = 0;
  std::vector<uint8_t> bytes;  // count * elem_size(type), little-endian

  HostBuffer() = default;
  HostBuffer(ElemType t, uint64_t n) : type(t), count(n), bytes(n * elem_size(t), 0) {}

  template <class T>
  std::span<T> as() {
    return {reinterpret_cast<T*>(bytes.data()), static_cast<size_t>(count)};
  }
  template <class T>
  std::span<const T> as() const {
    return {reinterpret_cast<const T*>(bytes.data()), static_cast<size_t>(count)};
  }

  // Element i widened to double / int64 (for comparisons and messages).
  double get_real(uint64_t i) const;
  int64_t get_int(uint64_t i) const;    // u64 values above INT64_MAX wrap
  uint64_t get_bits(uint64_t i) const;  // the raw element, zero-extended
  void set_real(uint64_t i, double v);  // converts to the element type (floats: rounded)
  void set_int(uint64_t i, int64_t v);  // truncates to the element width
  std::string format(uint64_t i) const; // the element as text ("1.5", "-3")
};

}  // namespace warpsim
