#include "sim/memory/dram_spec.hpp"

#include <fmt/format.h>

#include "sim/memory/dram_scheduler.hpp"

namespace warpsim::mem {

namespace {

constexpr uint64_t kMaxCycles = 1'000'000;  // sanity bound on any single timing value

uint32_t cycles(ConfigReader& r, const std::string& key, bool positive) {
  uint64_t v = positive ? r.get_positive(key) : r.get_uint(key);
  if (v > kMaxCycles) r.fail(key, fmt::format("{} cycles is implausibly large", v));
  return uint32_t(v);
}

uint32_t cycles_or(ConfigReader& r, const std::string& key, bool positive, uint32_t def) {
  return r.has(key) ? cycles(r, key, positive) : def;
}

DramTimingSpec parse_timing(ConfigReader& t, const DramSpec& s) {
  DramTimingSpec m;
  const uint32_t bl = s.burst_cycles();
  m.tRCD = cycles(t, "tRCD", true);
  m.tRCDWR = cycles_or(t, "tRCDWR", true, m.tRCD);
  m.tRP = cycles(t, "tRP", true);
  m.tRAS = cycles(t, "tRAS", true);
  m.tRC = cycles(t, "tRC", true);
  m.tCL = cycles(t, "tCL", true);
  m.tWL = cycles(t, "tWL", false);
  m.tCCD = cycles(t, "tCCD", true);
  if (t.has("tCCDL") && s.bank_groups == 1)
    t.fail("tCCDL", "only meaningful with bank_groups > 1");
  m.tCCDL = cycles_or(t, "tCCDL", true, m.tCCD);
  m.tRRD = cycles(t, "tRRD", true);
  m.tWTR = cycles(t, "tWTR", false);
  m.tWR = cycles(t, "tWR", false);
  m.tRTP = cycles_or(t, "tRTP", false, bl);
  m.tFAW = cycles_or(t, "tFAW", false, 0);
  m.tREFI = cycles_or(t, "tREFI", false, 0);
  m.tRFC = cycles_or(t, "tRFC", false, 0);
  m.tRTRS = cycles_or(t, "tRTRS", false, 2);

  if (m.tRAS < m.tRCD)
    t.fail("tRAS", fmt::format("{} is shorter than tRCD = {}: a row would close before it "
                               "could be read", m.tRAS, m.tRCD));
  if (m.tRC < m.tRAS + m.tRP)
    t.fail("tRC", fmt::format("{} is shorter than tRAS + tRP = {} + {} = {}", m.tRC, m.tRAS,
                              m.tRP, m.tRAS + m.tRP));
  if (m.tCCD < bl)
    t.fail("tCCD", fmt::format("{} is shorter than one burst ({} cycles: burst_length / "
                               "transfers per clock), so bursts would overlap on the data bus",
                               m.tCCD, bl));
  if (m.tCCDL < m.tCCD)
    t.fail("tCCDL", fmt::format("{} is shorter than tCCD = {}", m.tCCDL, m.tCCD));
  if ((m.tREFI > 0) != (m.tRFC > 0))
    t.fail(m.tREFI > 0 ? "tRFC" : "tREFI",
           "refresh needs both tREFI and tRFC (leave both out, or 0, for no refresh)");
  if (m.tREFI > 0 && m.tREFI <= m.tRFC + m.tRP)
    t.fail("tREFI", fmt::format("{} leaves no time between refreshes (tRFC = {}, tRP = {})",
                                m.tREFI, m.tRFC, m.tRP));
  t.finish();
  return m;
}

}  // namespace

DramSpec parse_dram_spec(ConfigReader& r) {
  DramSpec s;
  s.file = r.file();
  s.channels = uint32_t(r.get_positive("channels"));
  if (s.channels > 4096) r.fail("channels", "at most 4096");
  s.chips_per_channel = uint32_t(r.get_positive("chips_per_channel"));
  s.chip_width_bits = uint32_t(r.get_positive("chip_width_bits"));
  if (uint64_t(s.chips_per_channel) * s.chip_width_bits % 8 != 0 ||
      uint64_t(s.chips_per_channel) * s.chip_width_bits > 4096)
    r.fail("chip_width_bits",
           fmt::format("chips_per_channel x chip_width_bits = {} bits is not a whole number of "
                       "bytes up to 4096 bits",
                       uint64_t(s.chips_per_channel) * s.chip_width_bits));
  std::string rate = r.get_choice("data_rate", {"SDR", "DDR", "QDR"});
  s.transfers_per_clock = rate == "SDR" ? 1 : rate == "DDR" ? 2 : 4;
  s.command_clock_mhz = r.get_positive_number("command_clock_mhz");
  s.burst_length = uint32_t(r.get_positive("burst_length"));
  if (s.burst_length % s.transfers_per_clock != 0 || s.burst_length > 256)
    r.fail("burst_length",
           fmt::format("{} transfers is not a whole number of command cycles at {} ({} "
                       "transfers per clock)",
                       s.burst_length, rate, s.transfers_per_clock));
  uint64_t atom = uint64_t(s.channel_bytes_per_transfer()) * s.burst_length;
  if ((atom & (atom - 1)) != 0)
    r.fail("burst_length",
           fmt::format("the access atom (chips x width / 8 x burst_length = {} bytes) must be a "
                       "power of two",
                       atom));
  s.banks = uint32_t(r.get_pow2("banks"));
  if (s.banks > 64) r.fail("banks", "at most 64 banks per channel");
  s.bank_groups = uint32_t(r.get_pow2_or("bank_groups", 1));
  if (s.bank_groups > s.banks)
    r.fail("bank_groups", fmt::format("{} groups for {} banks", s.bank_groups, s.banks));
  s.columns = uint32_t(r.get_pow2("columns"));
  if (s.columns > (1u << 20)) r.fail("columns", "at most 2^20 column bursts per row");
  s.queue_size = uint32_t(r.get_positive("queue_size"));
  if (s.queue_size > 4096) r.fail("queue_size", "at most 4096 entries");
  s.scheduler = r.get_string_or("scheduler", "fr-fcfs");
  if (!find_dram_scheduler(s.scheduler))
    r.fail("scheduler", fmt::format("unknown DRAM scheduler \"{}\"; valid: {}", s.scheduler,
                                    dram_scheduler_names()));
  s.page_policy = r.get_choice_or("page_policy", {"open", "closed"}, "open") == "closed"
                      ? PagePolicy::Closed
                      : PagePolicy::Open;
  ConfigReader am = r.child("address_map");
  s.address_map = parse_address_map_spec(am, s);
  ConfigReader t = r.child("timing");
  s.timing = parse_timing(t, s);
  r.finish();
  return s;
}

DramSpec load_dram_spec(const std::string& path, const std::vector<std::string>& overrides) {
  Json doc = load_json_file(path);
  for (const std::string& o : overrides) apply_override(doc, o, path, /*allow_new=*/true);
  ConfigReader top(doc, path);
  ConfigReader dram = top.child("dram");  // other top-level keys belong to a device config
  return parse_dram_spec(dram);
}

}  // namespace warpsim::mem
