// Initial contents of launch-spec buffers: deterministic on every machine (SplitMix64,
// no standard-library distributions).
#include <fmt/format.h>

#include <cmath>
#include <fstream>

#include "sim/foundation/error.hpp"
#include "sim/launch/launch_spec.hpp"
#include "sim/launch/splitmix64.hpp"

namespace warpsim {
namespace {

void fill_iota(HostBuffer& out, const BufferInit& init) {
  bool real = elem_is_float(out.type) || !init.start.is_integer || !init.step.is_integer;
  for (uint64_t k = 0; k < out.count; ++k) {
    if (real)
      out.set_real(k, init.start.as_real() + static_cast<double>(k) * init.step.as_real());
    else  // wraps to the element width, like the unsigned arithmetic of a counter
      out.set_int(k, static_cast<int64_t>(static_cast<uint64_t>(init.start.integer) +
                                          k * static_cast<uint64_t>(init.step.integer)));
  }
}

void fill_random(HostBuffer& out, const BufferInit& init) {
  SplitMix64 rng(init.seed);
  if (init.integers) {
    auto lo = static_cast<int64_t>(std::ceil(init.min.as_real()));
    auto hi = static_cast<int64_t>(std::floor(init.max.as_real()));
    if (init.min.is_integer) lo = init.min.integer;
    if (init.max.is_integer) hi = init.max.integer;
    for (uint64_t k = 0; k < out.count; ++k) {
      int64_t v = rng.next_in(lo, hi);
      if (elem_is_float(out.type))
        out.set_real(k, static_cast<double>(v));
      else
        out.set_int(k, v);
    }
    return;
  }
  double lo = init.min.as_real(), span = init.max.as_real() - lo;
  for (uint64_t k = 0; k < out.count; ++k) out.set_real(k, lo + rng.next_unit() * span);
}

void fill_offsets(HostBuffer& out, const BufferInit& init) {
  SplitMix64 rng(init.seed);
  int64_t offset = 0;
  for (uint64_t k = 0; k < out.count; ++k) {
    out.set_int(k, offset);
    offset += rng.next_in(init.min.integer, init.max.integer);
  }
}

void fill_file(HostBuffer& out, const BufferInit& init, const std::string& where) {
  std::ifstream in(init.file, std::ios::binary);
  if (!in) throw ConfigError(fmt::format("{}: cannot open {}", where, init.file));
  in.read(reinterpret_cast<char*>(out.bytes.data()), static_cast<std::streamsize>(out.bytes.size()));
  if (static_cast<uint64_t>(in.gcount()) != out.bytes.size() || in.peek() != std::char_traits<char>::eof())
    throw ConfigError(fmt::format("{}: {} must hold exactly {} bytes", where, init.file, out.bytes.size()));
}

}  // namespace

HostBuffer initial_contents(const LaunchSpec& spec, const BufferSpec& buffer) {
  HostBuffer out(buffer.type, buffer.count);
  const BufferInit& init = buffer.init;
  switch (init.kind) {
    case BufferInit::Kind::Zero:
      break;
    case BufferInit::Kind::Value:
      for (uint64_t k = 0; k < out.count; ++k) {
        if (init.value.is_integer)
          out.set_int(k, init.value.integer);
        else
          out.set_real(k, init.value.real);
      }
      break;
    case BufferInit::Kind::Iota:
      fill_iota(out, init);
      break;
    case BufferInit::Kind::Random:
      fill_random(out, init);
      break;
    case BufferInit::Kind::Offsets:
      fill_offsets(out, init);
      break;
    case BufferInit::Kind::File:
      fill_file(out, init, fmt::format("{}: buffers.{}.init.file", spec.path, buffer.name));
      break;
  }
  return out;
}

}  // namespace warpsim
