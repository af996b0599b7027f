#include "sim/memory/interconnect_spec.hpp"

#include <fmt/format.h>

namespace warpsim::mem {

namespace {
uint32_t get_u32(ConfigReader& r, const std::string& key, uint64_t v) {
  if (v > 1'000'000) r.fail(key, fmt::format("{} is unreasonably large (limit 1000000)", v));
  return uint32_t(v);
}
}  // namespace

InterconnectSpec parse_interconnect_spec(ConfigReader& r) {
  InterconnectSpec s;
  s.latency = get_u32(r, "latency", r.get_uint("latency"));
  s.flit_bytes = get_u32(r, "flit_bytes", r.get_positive("flit_bytes"));
  s.flits_per_cycle = get_u32(r, "flits_per_cycle", r.get_positive_or("flits_per_cycle", 1));
  s.cycles_per_flit = get_u32(r, "cycles_per_flit", r.get_positive_or("cycles_per_flit", 1));
  s.input_buffer_flits = get_u32(r, "input_buffer_flits", r.get_positive("input_buffer_flits"));
  s.output_buffer_flits = get_u32(r, "output_buffer_flits", r.get_positive("output_buffer_flits"));
  s.sms_per_port = get_u32(r, "sms_per_port", r.get_positive_or("sms_per_port", 1));
  return s;
}

}  // namespace warpsim::mem
