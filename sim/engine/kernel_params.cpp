#include "sim/engine/kernel_params.hpp"

#include <fmt/format.h>

#include <cstring>
#include <limits>

#include "sim/foundation/error.hpp"

namespace warpsim {

namespace {

template <class T>
void put(std::vector<uint8_t>& buf, uint32_t off, T v) {
  std::memcpy(buf.data() + off, &v, sizeof(T));
}

const char* kind_name(KernelArg::Kind k) {
  switch (k) {
    case KernelArg::Kind::Pointer: return "a device pointer";
    case KernelArg::Kind::Int: return "an integer";
    case KernelArg::Kind::Real: return "a real number";
    case KernelArg::Kind::Bytes: return "raw bytes";
  }
  return "?";
}

}  // namespace

std::vector<uint8_t> build_param_buffer(const isa::Kernel& k, std::span<const KernelArg> args) {
  using isa::DType;
  if (args.size() != k.params.size())
    throw LaunchError(fmt::format("invalid argument: kernel '{}' takes {} argument{}, {} given", k.name, k.params.size(),
                                  k.params.size() == 1 ? "" : "s", args.size()));
  std::vector<uint8_t> buf(k.param_bytes, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const isa::Param& p = k.params[i];
    const KernelArg& a = args[i];
    auto bad = [&](const std::string& why) {
      return LaunchError(fmt::format("invalid argument: kernel '{}' argument {} ('{}', .{}{}): {}", k.name, i, p.name,
                                     isa::dtype_name(p.type), p.size != uint32_t(isa::dtype_bytes(p.type))
                                                                  ? fmt::format("[{}]", p.size / std::max(1, isa::dtype_bytes(p.type)))
                                                                  : "",
                                     why));
    };
    bool scalar = p.size == uint32_t(isa::dtype_bytes(p.type));
    if (a.kind == KernelArg::Kind::Bytes) {
      if (a.bytes.size() != p.size) throw bad(fmt::format("{} bytes given for a {}-byte parameter", a.bytes.size(), p.size));
      std::memcpy(buf.data() + p.offset, a.bytes.data(), p.size);
      continue;
    }
    if (!scalar) throw bad(fmt::format("{} given for a by-value aggregate parameter", kind_name(a.kind)));
    auto check_int = [&](int64_t v, int64_t lo, uint64_t hi) {
      if (v < lo || (v > 0 && uint64_t(v) > hi))
        throw bad(fmt::format("value {} does not fit the parameter type", v));
    };
    switch (a.kind) {
      case KernelArg::Kind::Pointer:
        if (p.size != 8 || p.type == DType::F64) throw bad("a device pointer needs a 64-bit integer parameter");
        put<uint64_t>(buf, p.offset, a.u);
        break;
      case KernelArg::Kind::Int:
        switch (p.type) {
          case DType::S8: check_int(a.i, INT8_MIN, INT8_MAX); put<int8_t>(buf, p.offset, int8_t(a.i)); break;
          case DType::U8: case DType::B8: check_int(a.i, INT8_MIN, UINT8_MAX); put<uint8_t>(buf, p.offset, uint8_t(a.i)); break;
          case DType::S16: check_int(a.i, INT16_MIN, INT16_MAX); put<int16_t>(buf, p.offset, int16_t(a.i)); break;
          case DType::U16: case DType::B16: check_int(a.i, INT16_MIN, UINT16_MAX); put<uint16_t>(buf, p.offset, uint16_t(a.i)); break;
          case DType::S32: check_int(a.i, INT32_MIN, INT32_MAX); put<int32_t>(buf, p.offset, int32_t(a.i)); break;
          case DType::U32: case DType::B32: check_int(a.i, INT32_MIN, UINT32_MAX); put<uint32_t>(buf, p.offset, uint32_t(a.i)); break;
          case DType::S64: case DType::U64: case DType::B64: put<int64_t>(buf, p.offset, a.i); break;
          case DType::F32: put<float>(buf, p.offset, float(a.i)); break;
          case DType::F64: put<double>(buf, p.offset, double(a.i)); break;
          default: throw bad("unsupported parameter type");
        }
        break;
      case KernelArg::Kind::Real:
        if (p.type == DType::F32) put<float>(buf, p.offset, float(a.f));
        else if (p.type == DType::F64) put<double>(buf, p.offset, a.f);
        else throw bad(fmt::format("a real number ({}) given for an integer parameter", a.f));
        break;
      default: break;
    }
  }
  return buf;
}

}  // namespace warpsim
