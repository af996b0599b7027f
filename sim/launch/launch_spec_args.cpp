// The kernel arguments of a launch spec, checked against the kernel's .param list.
#include <fmt/format.h>

#include <cstring>

#include "sim/foundation/error.hpp"
#include "sim/launch/launch_spec.hpp"

namespace warpsim {
namespace {

using isa::DType;

std::string param_text(const isa::Param& p, size_t index) {
  std::string type;
  switch (p.type) {
    case DType::B8: type = p.size == 1 ? ".b8" : fmt::format(".b8[{}]", p.size); break;
    case DType::B16: type = ".b16"; break;
    case DType::B32: type = ".b32"; break;
    case DType::B64: type = ".b64"; break;
    case DType::U8: type = ".u8"; break;
    case DType::U16: type = ".u16"; break;
    case DType::U32: type = ".u32"; break;
    case DType::U64: type = ".u64"; break;
    case DType::S8: type = ".s8"; break;
    case DType::S16: type = ".s16"; break;
    case DType::S32: type = ".s32"; break;
    case DType::S64: type = ".s64"; break;
    case DType::F16: type = ".f16"; break;
    case DType::F32: type = ".f32"; break;
    case DType::F64: type = ".f64"; break;
    default: type = fmt::format("({} bytes)", p.size); break;
  }
  return fmt::format("parameter {} ({} {})", index, type, p.name);
}

bool is_byte_array(const isa::Param& p) { return p.type == DType::B8 && p.size > 1; }

// Whether integer v fits a parameter of `size` bytes (signed, unsigned, or either for .b).
bool fits(int64_t v, const isa::Param& p) {
  if (p.size >= 8) return !(p.type == DType::U64 && v < 0);
  int bits = 8 * static_cast<int>(p.size);
  int64_t smin = -(int64_t{1} << (bits - 1)), smax = (int64_t{1} << (bits - 1)) - 1, umax = (int64_t{1} << bits) - 1;
  if (isa::is_signed(p.type)) return v >= smin && v <= smax;
  if (p.type == DType::U8 || p.type == DType::U16 || p.type == DType::U32) return v >= 0 && v <= umax;
  return v >= smin && v <= umax;  // .b types
}

// A by-value struct with natural alignment: pointers are 8 bytes, scalars their size.
std::vector<uint8_t> pack_struct(const ArgSpec& arg, const std::map<std::string, DevPtr>& buffer_ptr) {
  std::vector<uint8_t> bytes;
  size_t max_align = 1;
  for (const auto& f : arg.fields) {
    size_t size = f.buffer.empty() ? elem_size(f.type) : 8;
    max_align = std::max(max_align, size);
    bytes.resize((bytes.size() + size - 1) / size * size);
    uint8_t raw[8] = {};
    if (!f.buffer.empty()) {
      uint64_t ptr = buffer_ptr.at(f.buffer);
      std::memcpy(raw, &ptr, 8);
    } else if (f.type == ElemType::F32) {
      float v = static_cast<float>(f.value.as_real());
      std::memcpy(raw, &v, 4);
    } else if (f.type == ElemType::F64) {
      double v = f.value.as_real();
      std::memcpy(raw, &v, 8);
    } else {
      int64_t v = f.value.integer;
      std::memcpy(raw, &v, size);  // little-endian truncation
    }
    bytes.insert(bytes.end(), raw, raw + size);
  }
  bytes.resize((bytes.size() + max_align - 1) / max_align * max_align);
  return bytes;
}

}  // namespace

std::vector<KernelArg> build_kernel_args(const LaunchSpec& spec, const std::map<std::string, DevPtr>& buffer_ptr,
                                         const std::vector<isa::Param>* params) {
  auto fail = [&](size_t i, const std::string& msg) -> void {
    throw ConfigError(fmt::format("{}: args[{}]: {}", spec.path, i, msg));
  };
  if (params && params->size() != spec.args.size())
    throw ConfigError(fmt::format("{}: args: kernel {} takes {} parameters, the spec passes {}", spec.path,
                                  spec.kernel, params->size(), spec.args.size()));
  std::vector<KernelArg> out;
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const ArgSpec& a = spec.args[i];
    const isa::Param* p = params ? &(*params)[i] : nullptr;
    KernelArg k;
    switch (a.kind) {
      case ArgSpec::Kind::Buffer:
        if (p && !p->is_pointer_sized())
          fail(i, fmt::format("buffer '{}' is passed as a 64-bit pointer, but {} is not", a.buffer, param_text(*p, i)));
        k = KernelArg::ptr(buffer_ptr.at(a.buffer));
        break;
      case ArgSpec::Kind::Int:
        if (p && is_byte_array(*p)) fail(i, fmt::format("{} is a struct; pass {{\"struct\": [...]}}", param_text(*p, i)));
        if (p && isa::is_float(p->type)) {
          k = KernelArg::real(static_cast<double>(a.integer));
        } else {
          if (p && !fits(a.integer, *p)) fail(i, fmt::format("{} does not fit {}", a.integer, param_text(*p, i)));
          k = KernelArg::integer(a.integer);
        }
        break;
      case ArgSpec::Kind::Real:
        if (p && !isa::is_float(p->type))
          fail(i, fmt::format("{} is not an integer, but {} is", a.real, param_text(*p, i)));
        k = KernelArg::real(a.real);
        break;
      case ArgSpec::Kind::Struct:
        k.kind = KernelArg::Kind::Bytes;
        k.bytes = pack_struct(a, buffer_ptr);
        if (p && (!is_byte_array(*p) || p->size != k.bytes.size()))
          fail(i, fmt::format("the struct packs to {} bytes, but {} is {}", k.bytes.size(), param_text(*p, i),
                              is_byte_array(*p) ? fmt::format("{} bytes", p->size) : "not a struct"));
        break;
    }
    out.push_back(std::move(k));
  }
  return out;
}

}  // namespace warpsim
