// Checking a launch's outputs against a CPU reference or expected files.
#include <fmt/format.h>

#include <cmath>
#include <fstream>

#include "kernels/references/reference.hpp"
#include "sim/foundation/error.hpp"
#include "sim/launch/launch_spec.hpp"

namespace warpsim {
namespace {

constexpr size_t kReportedMismatches = 10;

bool elements_match(const HostBuffer& got, const HostBuffer& want, uint64_t i, double tolerance) {
  if (!elem_is_float(want.type)) return got.get_bits(i) == want.get_bits(i);
  double g = got.get_real(i), w = want.get_real(i);
  if (std::isnan(w) || std::isnan(g)) return std::isnan(w) && std::isnan(g);
  if (std::isinf(w) || std::isinf(g)) return g == w;
  return std::fabs(g - w) <= tolerance * std::max(1.0, std::fabs(w));
}

HostBuffer read_expected(const LaunchSpec& spec, const std::string& name) {
  const BufferSpec* buf = spec.find_buffer(name);
  HostBuffer out(buf->type, buf->count);
  const std::string& file = spec.check.expected_files.at(name);
  std::ifstream in(file, std::ios::binary);
  in.read(reinterpret_cast<char*>(out.bytes.data()), static_cast<std::streamsize>(out.bytes.size()));
  if (!in || static_cast<uint64_t>(in.gcount()) != out.bytes.size())
    throw ConfigError(fmt::format("{}: check.expected.{}: cannot read {} bytes from {}", spec.path, name,
                                  out.bytes.size(), file));
  return out;
}

}  // namespace

CheckResult compare_outputs(const LaunchSpec& spec, const std::map<std::string, HostBuffer>& got,
                            const std::map<std::string, HostBuffer>& want) {
  CheckResult result;
  result.checked = true;
  std::string details;
  std::vector<std::string> summaries;
  for (const auto& name : spec.check.outputs) {
    const HostBuffer& g = got.at(name);
    const HostBuffer& w = want.at(name);
    if (g.type != w.type || g.count != w.count)
      throw ConfigError(fmt::format("{}: check: {} holds {} {} elements, the expected image {} {}", spec.path, name,
                                    g.count, elem_name(g.type), w.count, elem_name(w.type)));
    uint64_t bad = 0;
    for (uint64_t i = 0; i < w.count; ++i) {
      if (elements_match(g, w, i, spec.check.tolerance)) continue;
      ++bad;
      if (result.first.size() < kReportedMismatches) result.first.push_back({name, i, g.format(i), w.format(i)});
    }
    result.compared += w.count;
    result.mismatches += bad;
    summaries.push_back(bad ? fmt::format("{}: {} of {} elements differ", name, bad, w.count)
                            : fmt::format("{}: {} elements match", name, w.count));
  }
  result.passed = result.mismatches == 0;
  std::string summary;
  for (const auto& s : summaries) summary += (summary.empty() ? "" : "; ") + s;
  result.message = fmt::format("{} ({}{})", result.passed ? "passed" : "FAILED", summary,
                               spec.check.tolerance > 0 ? fmt::format(", tolerance {}", spec.check.tolerance) : "");
  for (const auto& m : result.first)
    result.message += fmt::format("\n  {}[{}]: got {}, want {}", m.buffer, m.index, m.got, m.want);
  if (result.mismatches > result.first.size())
    result.message += fmt::format("\n  ... and {} more", result.mismatches - result.first.size());
  return result;
}

CheckResult check_outputs(Device& device, const PreparedLaunch& prepared) {
  const LaunchSpec& spec = prepared.spec();
  if (!spec.check.present) return CheckResult{};
  std::map<std::string, HostBuffer> got, want;
  for (const auto& name : spec.check.outputs) {
    const auto& buf = prepared.buffer(name);
    HostBuffer copy(buf.initial.type, buf.initial.count);
    device.copy_from_device(copy.bytes.data(), buf.ptr, copy.bytes.size());
    got.emplace(name, std::move(copy));
  }
  if (!spec.check.reference.empty()) {
    std::map<std::string, HostBuffer> memory;
    for (const auto& b : prepared.buffers) memory.emplace(b.name, b.initial);
    ref::ReferenceContext ctx(spec, memory);
    ref::run_reference(spec.check.reference, ctx);
    for (const auto& name : spec.check.outputs) want.emplace(name, std::move(memory.at(name)));
  } else {
    for (const auto& name : spec.check.outputs) want.emplace(name, read_expected(spec, name));
  }
  return compare_outputs(spec, got, want);
}

}  // namespace warpsim
