// The coalescer's registry of named rule sets, its config parser and the dispatch.
#include "sim/memory/coalescer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "sim/memory/coalescer_rules.hpp"

namespace warpsim::mem {

namespace {

using RuleFn = void (*)(const CoalescerSpec&, const WarpMemAccess&, std::vector<Transaction>&);

struct RuleSet {
  const char* name;
  CoalescerRules rules;
  RuleFn fn;
};

constexpr std::array<RuleSet, 5> kRuleSets{{
    {"cc1.0", CoalescerRules::Cc10, detail::coalesce_cc10},
    {"cc1.3", CoalescerRules::Cc13, detail::coalesce_cc13},
    {"cc2.0", CoalescerRules::Cc20, detail::coalesce_cc20},
    {"sector32", CoalescerRules::Sector32, detail::coalesce_sector32},
    {"segments", CoalescerRules::Segments, detail::coalesce_segments},
}};

const RuleSet& rule_set(CoalescerRules rules) {
  for (const auto& r : kRuleSets)
    if (r.rules == rules) return r;
  throw std::invalid_argument("unknown coalescer rule set");
}

// Keys that only one rule set reads; any other rule set rejects them by name.
void reject_unless(ConfigReader& r, const char* key, bool applies, const char* owner) {
  if (!applies && r.has(key)) r.fail(key, fmt::format("only applies to rules \"{}\"", owner));
}

}  // namespace

std::string rules_name(CoalescerRules rules) { return rule_set(rules).name; }

CoalescerSpec parse_coalescer_spec(ConfigReader& r) {
  std::vector<std::string> names;
  for (const auto& rs : kRuleSets) names.push_back(rs.name);
  const std::string name = r.get_choice("rules", names);
  CoalescerSpec s;
  for (const auto& rs : kRuleSets)
    if (name == rs.name) s.rules = rs.rules;

  const uint64_t sub = r.get_pow2("subwarp_size");
  if (sub > 32) r.fail("subwarp_size", "at most 32 lanes per sub-warp");
  s.subwarp_size = uint32_t(sub);
  if (s.rules == CoalescerRules::Cc10 && s.subwarp_size != 16)
    r.fail("subwarp_size", "the cc1.0 rules are defined for half-warps of 16 threads");

  const bool cc20 = s.rules == CoalescerRules::Cc20;
  const bool segments = s.rules == CoalescerRules::Segments;
  reject_unless(r, "l1_caching", cc20, "cc2.0");
  reject_unless(r, "l2_only_transactions", cc20, "cc2.0");
  reject_unless(r, "segment_bytes", segments, "segments");
  if (cc20) {
    s.l1_caching = r.get_bool("l1_caching");
    s.l2_only = r.get_choice("l2_only_transactions", {"segment32", "line"}) == "line"
                    ? L2OnlyTransactions::Line
                    : L2OnlyTransactions::Segment32;
  }
  if (segments) {
    const uint64_t bytes = r.get_pow2("segment_bytes");
    if (bytes > 4096) r.fail("segment_bytes", "at most 4096 bytes");
    s.segment_bytes = uint32_t(bytes);
  }
  r.finish();
  return s;
}

void coalesce(const CoalescerSpec& spec, const WarpMemAccess& access, std::vector<Transaction>& out) {
  out.clear();
  if (access.space != isa::Space::Global && access.space != isa::Space::Local)
    throw std::invalid_argument("coalesce: only global and local memory accesses are coalesced");
  if (access.bytes_per_lane() == 0) throw std::invalid_argument("coalesce: zero-byte access");
  if (!access.mask) return;
  rule_set(spec.rules).fn(spec, access, out);
}

CoalesceSummary summarize(const std::vector<Transaction>& txns) {
  CoalesceSummary s;
  s.transactions = uint32_t(txns.size());
  for (const auto& t : txns) s.bytes += t.size;
  return s;
}

uint64_t largest_unit_bytes(const CoalescerSpec& spec) {
  // cc1.x segments and cc2.0 lines are at most 128 bytes; every rule set marks sectors
  // within 128-byte lines; a `segments` rule's segment may be larger.
  constexpr uint64_t kLine = 128;
  return spec.rules == CoalescerRules::Segments ? std::max<uint64_t>(kLine, spec.segment_bytes) : kLine;
}

uint32_t transaction_count(const CoalescerSpec& spec, const WarpMemAccess& access) {
  std::vector<Transaction> out;
  coalesce(spec, access, out);
  return uint32_t(out.size());
}

}  // namespace warpsim::mem
