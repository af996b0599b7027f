#include "sim/memory/cache_spec.hpp"

#include <fmt/format.h>

#include <bit>
#include <stdexcept>
#include <utility>

#include "sim/memory/replacement.hpp"

namespace warpsim::mem {

namespace {

bool is_pow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

WritePolicy parse_write_policy(const std::string& s) {
  return s == "write_through" ? WritePolicy::WriteThrough : WritePolicy::WriteBack;
}

const std::vector<std::string> kWritePolicies = {"write_back", "write_through"};

// Reads the cache keys. The capacity of one instance is size_bytes / `instances`;
// `instances_why` explains the division in error messages ("" when instances == 1).
// `l2`: the section is an L2's (slice_xor is allowed).
CacheSpec parse_cache_keys(ConfigReader& r, uint64_t instances, const std::string& instances_why, bool l2) {
  CacheSpec s;
  // 1 GiB: 100x today's largest L2; the tag arrays are simulated state.
  uint64_t total = r.get_positive_at_most("size_bytes", uint64_t(1) << 30, "1 GiB, the cache's tags are simulated state");
  CacheGeometry g;
  g.line_bytes = r.get_pow2("line_bytes");
  g.sector_bytes = r.get_pow2_or("sector_bytes", g.line_bytes);
  g.ways = r.get_positive("ways");
  std::string index = r.get_choice_or("index", {"linear", "fermi_hash", "xor", "slice_xor"}, "linear");
  g.index = index == "xor"          ? IndexFunction::XorFold
            : index == "slice_xor"  ? IndexFunction::SliceXor
            : index == "fermi_hash" ? IndexFunction::FermiHash
                                    : IndexFunction::Linear;
  if (g.index == IndexFunction::SliceXor && !l2)
    r.fail("index", "slice_xor numbers a line among the lines of its L2 slice (its address with the DRAM "
                    "channel removed); only an l2 section has slices: use xor");

  if (total % instances != 0)
    r.fail("size_bytes", fmt::format("{} bytes do not divide evenly over {}", total, instances_why));
  g.size_bytes = total / instances;
  std::string what = instances == 1 ? fmt::format("{} bytes", g.size_bytes)
                                     : fmt::format("{} bytes per slice ({} / {})", g.size_bytes, total, instances_why);
  if (auto problem = cache_geometry_problem(g, what)) r.fail(problem->key, problem->why);

  s.size_bytes = g.size_bytes;
  s.line_bytes = uint32_t(g.line_bytes);
  s.sector_bytes = uint32_t(g.sector_bytes);
  s.ways = uint32_t(g.ways);
  s.sets = uint32_t(g.size_bytes / (g.line_bytes * g.ways));
  s.index = g.index;

  s.replacement = r.get_choice("replacement", replacement_policy_names());

  s.write_policy = parse_write_policy(r.get_choice("write_policy", kWritePolicies));
  s.local_write_policy = r.has("local_write_policy")
                             ? parse_write_policy(r.get_choice("local_write_policy", kWritePolicies))
                             : s.write_policy;
  s.write_allocate = r.get_bool("write_allocate");
  s.invalidate_on_write = r.get_bool_or("invalidate_on_write", false);
  if (s.invalidate_on_write && s.write_policy != WritePolicy::WriteThrough)
    r.fail("invalidate_on_write", "needs write_policy \"write_through\" (a write-back cache would "
                                  "lose the written data)");
  if (s.invalidate_on_write && s.write_allocate)
    r.fail("invalidate_on_write", "contradicts write_allocate: true (a write would both allocate "
                                  "and evict the line)");

  s.hit_latency = uint32_t(r.get_uint("hit_latency"));
  s.mshr_entries = uint32_t(r.get_positive_at_most("mshr_entries", 65536, "MSHRs are simulated state"));
  s.mshr_max_merge = uint32_t(r.get_positive_at_most("mshr_max_merge", 65536, "merged requests are simulated state"));
  s.fetch_bytes = s.sector_bytes;
  if (r.has("fetch_bytes")) {
    const uint64_t f = r.get_positive("fetch_bytes");
    if (!is_pow2(f) || f < s.sector_bytes || f > s.line_bytes)
      r.fail("fetch_bytes", fmt::format("expected a power of two from sector_bytes ({}) to line_bytes ({}), got {}",
                                        s.sector_bytes, s.line_bytes, f));
    else
      s.fetch_bytes = uint32_t(f);
  }
  return s;
}

}  // namespace

std::optional<CacheGeometryProblem> cache_geometry_problem(const CacheGeometry& g, const std::string& size_what) {
  auto problem = [](const char* key, std::string why) { return CacheGeometryProblem{key, std::move(why)}; };
  if (!is_pow2(g.line_bytes))
    return problem("line_bytes", fmt::format("expected a power of two, got {}", g.line_bytes));
  if (g.line_bytes > 65536)
    return problem("line_bytes", fmt::format("{} bytes is larger than the 65536 supported", g.line_bytes));
  if (!is_pow2(g.sector_bytes))
    return problem("sector_bytes", fmt::format("expected a power of two, got {}", g.sector_bytes));
  if (g.sector_bytes > g.line_bytes)
    return problem("sector_bytes", fmt::format("{} is larger than line_bytes ({})", g.sector_bytes, g.line_bytes));
  if (g.line_bytes / g.sector_bytes > 32)
    return problem("sector_bytes", fmt::format("{} sectors per line (line_bytes {} / sector_bytes {}); at most 32",
                                               g.line_bytes / g.sector_bytes, g.line_bytes, g.sector_bytes));
  if (g.ways == 0 || g.ways > kMaxWays)
    return problem("ways", fmt::format("{} ways (1 to {} are supported)", g.ways, kMaxWays));
  const uint64_t set_bytes = g.line_bytes * g.ways;
  if (g.size_bytes % set_bytes != 0)
    return problem("size_bytes", fmt::format("{} is not a multiple of line_bytes * ways = {} * {}", size_what,
                                             g.line_bytes, g.ways));
  const uint64_t sets = g.size_bytes / set_bytes;
  if (!is_pow2(sets))
    return problem("size_bytes", fmt::format("{} with line_bytes {} and ways {} gives {} sets; the set count must "
                                             "be a power of two",
                                             size_what, g.line_bytes, g.ways, sets));
  if (g.index == IndexFunction::FermiHash && ((sets != 32 && sets != 64) || g.line_bytes != 128))
    return problem("index", fmt::format("{} with line_bytes {} and ways {} gives {} sets; index fermi_hash needs "
                                        "128-byte lines and 32 or 64 sets",
                                        size_what, g.line_bytes, g.ways, sets));
  return std::nullopt;
}

uint32_t CacheSpec::sector_mask(uint64_t addr, uint32_t bytes) const {
  uint64_t offset = addr & (line_bytes - 1);
  if (bytes == 0 || offset + bytes > line_bytes)
    throw std::invalid_argument(fmt::format("sector_mask: {} bytes at 0x{:x} cross a {}-byte line",
                                            bytes, addr, line_bytes));
  uint32_t first = uint32_t(offset >> sector_shift());
  uint32_t last = uint32_t((offset + bytes - 1) >> sector_shift());
  uint32_t upto = last >= 31 ? 0xFFFFFFFFu : ((1u << (last + 1)) - 1);
  return upto & ~((1u << first) - 1);
}

uint32_t xor_fold_set(uint64_t line_number, uint32_t sets) {
  const uint32_t bits = uint32_t(std::countr_zero(sets));
  if (bits == 0) return 0;
  uint64_t set = 0;
  for (; line_number; line_number >>= bits) set ^= line_number & (sets - 1);
  return uint32_t(set);
}

uint32_t address_set_index(IndexFunction f, uint32_t line_bytes, uint32_t sets, uint64_t addr) {
  switch (f) {
    case IndexFunction::FermiHash: {
      // Nugteren et al., "A Detailed GPU Cache Model Based on Reuse Distance Theory",
      // HPCA 2014, as used by GPGPU-Sim: line bits 7..11 XOR address bits 13,14,15,17,19;
      // with 64 sets (48 KB L1) bit 12 becomes the top index bit.
      uint32_t lower = uint32_t(addr >> 7) & 0x1F;
      uint32_t upper = uint32_t((addr >> 13) & 0x7) | uint32_t(((addr >> 17) & 1) << 3) |
                       uint32_t(((addr >> 19) & 1) << 4);
      uint32_t set = lower ^ upper;
      if (sets == 64) set |= uint32_t((addr >> 12) & 1) << 5;
      return set;
    }
    // line_bytes is a power of two (the parser and Cache check): the line number by a shift.
    case IndexFunction::XorFold: return xor_fold_set(addr >> std::countr_zero(line_bytes), sets);
    case IndexFunction::SliceXor:
      throw std::logic_error("set index: slice_xor needs the DRAM address map (SetIndex)");
    case IndexFunction::Linear:
    default:
      return uint32_t((addr >> std::countr_zero(line_bytes)) & (sets - 1));
  }
}

uint32_t CacheSpec::set_index(uint64_t addr) const { return address_set_index(index, line_bytes, sets, addr); }

CacheSpec parse_cache_spec(ConfigReader& r) { return parse_cache_keys(r, 1, "", false); }

L2Spec parse_l2_spec(ConfigReader& r, uint32_t channels) {
  if (channels == 0) r.fail_here("the memory system has no channels to attach L2 slices to");
  L2Spec l2;
  l2.slices_per_channel = uint32_t(r.get_positive("slices_per_channel"));
  l2.slices = channels * l2.slices_per_channel;
  l2.slice = parse_cache_keys(
      r, l2.slices,
      fmt::format("{} slices ({} channels x {} slices_per_channel)", l2.slices, channels,
                  l2.slices_per_channel),
      true);
  l2.total_bytes = l2.slice.size_bytes * l2.slices;
  // (Not checked against the L2's size, which --set may shrink: the set-aside's share of a
  // set's ways leaves normal lines at least one way whatever the numbers; l2_access_policy.)
  l2.persisting_max_bytes = r.get_uint_or("persisting_max_bytes", 0);
  l2.persisting_kept_share = r.get_number_or("persisting_kept_share", 1.0);
  if (l2.persisting_kept_share < 0 || l2.persisting_kept_share > 1)
    r.fail("persisting_kept_share", fmt::format("expected a share from 0 to 1, got {}", l2.persisting_kept_share));
  l2.access_policy_max_window_bytes = r.get_uint_or("access_policy_max_window_bytes", 0);
  if (l2.access_policy_max_window_bytes && !l2.persisting_max_bytes)
    r.fail("access_policy_max_window_bytes", "an access policy window needs persisting_max_bytes (the set-aside)");
  return l2;
}

void parse_l2_partitions(ConfigReader& r, L2Spec& l2, uint32_t channels, uint32_t sm_count) {
  l2.partitions = uint32_t(r.get_positive_at_most("count", 64, "partitions hold whole channels"));
  if (channels % l2.partitions != 0)
    r.fail("count", fmt::format("{} partitions do not split {} channels evenly", l2.partitions, channels));
  l2.far_latency = uint32_t(r.get_uint("far_latency"));
  l2.partition_of_sm.clear();
  if (l2.partitions == 1) {  // one partition: the SM list does not matter (--set l2.partitions.count=1)
    r.raw_opt("sm_partition");
    return;
  }
  const Json& list = r.raw("sm_partition");
  if (!list.is_array() || list.size() != sm_count)
    r.fail("sm_partition", fmt::format("expected an array of {} partition numbers (one per SM)", sm_count));
  for (size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_number_unsigned() || list[i].get<uint64_t>() >= l2.partitions)
      r.fail("sm_partition", fmt::format("entry {} (SM {}): expected a partition number below {}", i, i,
                                         l2.partitions));
    l2.partition_of_sm.push_back(uint8_t(list[i].get<uint64_t>()));
  }
}

const char* write_policy_name(WritePolicy p) {
  return p == WritePolicy::WriteThrough ? "write_through" : "write_back";
}

const char* index_function_name(IndexFunction f) {
  switch (f) {
    case IndexFunction::FermiHash: return "fermi_hash";
    case IndexFunction::XorFold: return "xor";
    case IndexFunction::SliceXor: return "slice_xor";
    case IndexFunction::Linear: break;
  }
  return "linear";
}

}  // namespace warpsim::mem
