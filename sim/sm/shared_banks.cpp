// Shared-memory bank conflicts (CUDA C Programming Guide, appendix "Compute
// Capabilities", "Shared Memory" for cc 1.x and cc 2.x).
#include "sim/sm/shared_banks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <string>

namespace warpsim::sm {

namespace {

using mem::AccessKind;
using mem::WarpMemAccess;

// One bank-width word a lane touches within a request.
struct WordRef {
  uint64_t byte;  // the lane's byte address within this request (start of its piece)
  uint64_t word;  // byte / bank_width
  uint32_t bank;
  uint32_t lane;
};

uint32_t max_per_bank(const std::vector<WordRef>& refs, uint32_t banks, bool distinct_words) {
  std::array<uint32_t, 64> count{};
  std::vector<WordRef> seen;
  for (const auto& r : refs) {
    if (distinct_words) {
      bool dup = std::any_of(seen.begin(), seen.end(), [&](const WordRef& s) { return s.word == r.word; });
      if (dup) continue;
      seen.push_back(r);
    }
    ++count[r.bank];
  }
  return *std::max_element(count.begin(), count.begin() + banks);
}

// cc 1.x reads, the PG's procedure: each step selects a broadcast word and services all
// addresses within it plus one address for each other bank. The PG leaves both choices
// unspecified; warpsim picks the word with the most pending addresses (ties: the word of
// the lowest-numbered pending thread) and, in every other bank, the lowest-numbered
// pending thread. `refs` is in lane order; returns the number of steps.
uint32_t cc1_read_steps(const std::vector<WordRef>& refs, uint32_t banks) {
  std::vector<bool> pending(refs.size(), true);
  size_t left = refs.size();
  uint32_t steps = 0;
  while (left) {
    ++steps;
    size_t best = refs.size();
    uint32_t best_count = 0;
    for (size_t i = 0; i < refs.size(); ++i) {
      if (!pending[i]) continue;
      uint32_t n = 0;
      for (size_t j = 0; j < refs.size(); ++j) n += pending[j] && refs[j].word == refs[i].word;
      if (n > best_count) {
        best = i;
        best_count = n;
      }
    }
    const uint64_t word = refs[best].word;
    const uint32_t bcast_bank = refs[best].bank;
    for (size_t j = 0; j < refs.size(); ++j)
      if (pending[j] && refs[j].word == word) {
        pending[j] = false;
        --left;
      }
    std::array<bool, 64> served{};
    for (size_t j = 0; j < refs.size(); ++j) {
      if (!pending[j] || refs[j].bank == bcast_bank || served[refs[j].bank]) continue;
      served[refs[j].bank] = true;
      pending[j] = false;
      --left;
    }
  }
  (void)banks;
  return steps;
}

// cc 1.x: one request per (32-bit piece, half-warp). Reads use the broadcast procedure;
// stores write each location once (same-address stores: one thread wins, no conflict) and
// serialize distinct addresses in one bank; atomics serialize every thread in a bank.
uint32_t cc1_degree(const SharedBankSpec& spec, const WarpMemAccess& a, std::vector<WordRef>& refs) {
  if (a.kind == AccessKind::Load) return cc1_read_steps(refs, spec.banks);
  if (a.kind == AccessKind::Store) {
    std::vector<WordRef> unique;
    for (const auto& r : refs)
      if (std::none_of(unique.begin(), unique.end(), [&](const WordRef& u) { return u.byte == r.byte; }))
        unique.push_back(r);
    return max_per_bank(unique, spec.banks, false);
  }
  return max_per_bank(refs, spec.banks, false);
}

// cc 2.x: threads reading (or writing) within one word never conflict, so a request's
// degree is the largest number of distinct words in one bank; 128-bit requests add one
// (PG: "add 1 to the maximum number of threads in a quarter-warp that access different
// addresses belonging to the same bank"). Atomics serialize every access to a bank.
uint32_t cc2_degree(const SharedBankSpec& spec, const WarpMemAccess& a, const std::vector<WordRef>& refs,
                    uint32_t chunk_bytes) {
  if (a.kind == AccessKind::Atomic) return max_per_bank(refs, spec.banks, false);
  uint32_t d = max_per_bank(refs, spec.banks, true);
  return chunk_bytes == 4 * spec.bank_width ? d + 1 : d;
}

void add_request(SharedConflicts& out, const SharedBankSpec& spec, SharedRequest req) {
  out.passes += req.degree;
  out.requests += 1;
  out.max_degree = std::max(out.max_degree, req.degree);
  const uint32_t p = req.first_lane / spec.partition;
  out.partition_degree[p] = std::max(out.partition_degree[p], req.degree);
  out.partition_passes[p] += req.degree;
  out.per_request.push_back(req);
}

// The words lanes [first, first+count) touch in [offset, offset+bytes) of their access.
void collect(const SharedBankSpec& spec, const WarpMemAccess& a, uint32_t first, uint32_t count,
             uint32_t offset, uint32_t bytes, std::vector<WordRef>& refs, uint32_t& active) {
  refs.clear();
  active = 0;
  for (uint32_t lane = first; lane < first + count && lane < 32; ++lane) {
    if (!(a.mask >> lane & 1u)) continue;
    active |= 1u << lane;
    const uint64_t start = a.addr[lane] + offset;
    for (uint64_t w = start / spec.bank_width; w <= (start + bytes - 1) / spec.bank_width; ++w)
      refs.push_back(WordRef{start, w, uint32_t(w % spec.banks), lane});
  }
}

// cc 9.0 (measured on an H100 with Nsight Compute, tools/ncu/shared_wide.sh and
// docs/measurements/h100_shared_wide.csv), 64- and 128-bit accesses: a "unit" is the lanes
// whose pieces fill the 32 banks once (16 lanes of 8 bytes, 8 of 16), served with broadcast
// inside it; a unit costs the largest number of distinct words in one bank. Stores are
// served unit by unit. Loads pair up the two units of a group (a warp for 8 bytes, a
// half-warp for 16) and serve them as one, broadcast across both, when no even/odd lane pair
// of the group has both lanes active at different addresses. The rule reproduces the
// wavefronts and bank conflicts of 144 of the 147 load and all 147 store patterns measured;
// the exceptions are listed in tests/650_hardware/shared_wide_test.cpp.
void cc9_wide(const SharedBankSpec& spec, const WarpMemAccess& a, uint32_t piece, uint32_t chunk,
              SharedConflicts& out) {
  const uint32_t unit = std::max<uint32_t>(1, spec.banks * spec.bank_width / chunk);
  const uint32_t group = std::min<uint32_t>(32, 2 * unit);
  std::vector<WordRef> refs;
  uint32_t active = 0;
  for (uint32_t g = 0; g < 32; g += group) {
    // Together when no even/odd lane pair of the group has both lanes active at two addresses.
    bool together = a.kind == AccessKind::Load;
    for (uint32_t lane = g; together && lane + 1 < g + group; lane += 2)
      together = !((a.mask >> lane & 3u) == 3u && a.addr[lane] != a.addr[lane + 1]);
    if (together) {
      collect(spec, a, g, group, piece * chunk, chunk, refs, active);
      if (active) add_request(out, spec, SharedRequest{g, group, piece, active, max_per_bank(refs, spec.banks, true)});
      continue;
    }
    for (uint32_t u = g; u < g + group; u += unit) {
      collect(spec, a, u, unit, piece * chunk, chunk, refs, active);
      if (active) add_request(out, spec, SharedRequest{u, unit, piece, active, max_per_bank(refs, spec.banks, true)});
    }
  }
}

}  // namespace

SharedBankSpec parse_shared_bank_spec(ConfigReader& r) {
  SharedBankSpec s;
  const std::string rules = r.get_choice("rules", {"cc1", "cc2", "cc9"});
  s.rules = rules == "cc1" ? BankRules::Cc1 : rules == "cc2" ? BankRules::Cc2 : BankRules::Cc9;
  const uint64_t banks = r.get_pow2("banks");
  if (banks > 64) r.fail("banks", "at most 64 banks are supported");
  const uint64_t width = r.get_pow2("bank_width");
  if (width > 16) r.fail("bank_width", "at most 16 bytes per bank word");
  const uint64_t part = r.get_pow2("partition");
  if (part > 32) r.fail("partition", "at most 32 lanes (a warp)");
  s.banks = uint32_t(banks);
  s.bank_width = uint32_t(width);
  s.partition = uint32_t(part);
  r.finish();
  return s;
}

SharedConflicts shared_conflicts(const SharedBankSpec& spec, const WarpMemAccess& a) {
  SharedConflicts out;
  const uint32_t parts = std::max<uint32_t>(1, 32 / spec.partition);
  out.partition_degree.assign(parts, 0);
  out.partition_passes.assign(parts, 0);
  const uint32_t bytes = a.bytes_per_lane();
  if (!a.mask || bytes == 0) return out;
  std::vector<WordRef> refs;
  uint32_t active = 0;

  if (spec.rules == BankRules::Cc1) {
    // Accesses wider than a bank word are split into separate word-sized requests (PG:
    // "split into 32-bit accesses"), each serviced per half-warp.
    const uint32_t piece = std::min(bytes, spec.bank_width);
    const uint32_t pieces = (bytes + piece - 1) / piece;
    for (uint32_t k = 0; k < pieces; ++k)
      for (uint32_t first = 0; first < 32; first += spec.partition) {
        collect(spec, a, first, spec.partition, k * piece, piece, refs, active);
        if (!active) continue;
        add_request(out, spec, SharedRequest{first, spec.partition, k, active, cc1_degree(spec, a, refs)});
      }
    return out;
  }

  if (spec.rules == BankRules::Cc9 && bytes > spec.bank_width && a.kind != AccessKind::Atomic) {
    // Wider than 128 bits: 128-bit pieces, each as a 128-bit access (not measured).
    const uint32_t chunk = std::min(bytes, 4 * spec.bank_width);
    for (uint32_t k = 0; k < (bytes + chunk - 1) / chunk; ++k) cc9_wide(spec, a, k, chunk, out);
    return out;
  }

  // cc 2.x: up to 32-bit per warp, 64-bit per half-warp, 128-bit per quarter-warp; wider
  // accesses are split into 128-bit accesses (PG: "split into 32-bit, 64-bit, or 128-bit").
  const uint32_t chunk = std::min(bytes, 4 * spec.bank_width);
  const uint32_t pieces = (bytes + chunk - 1) / chunk;
  const uint32_t words_per_lane = std::max<uint32_t>(1, chunk / spec.bank_width);
  const uint32_t lanes = std::max<uint32_t>(1, spec.partition / words_per_lane);
  for (uint32_t k = 0; k < pieces; ++k)
    for (uint32_t first = 0; first < 32; first += lanes) {
      collect(spec, a, first, lanes, k * chunk, chunk, refs, active);
      if (!active) continue;
      add_request(out, spec, SharedRequest{first, lanes, k, active, cc2_degree(spec, a, refs, chunk)});
    }
  return out;
}

namespace {

// Largest number of distinct words (or of accesses, when !distinct) in one bank among
// n (word, bank) pairs; fixed-size arrays, no allocation.
uint32_t max_in_bank(const uint64_t* words, const uint32_t* banks, uint32_t n, uint32_t nbanks, bool distinct) {
  uint64_t seen[64][32];
  uint32_t count[64] = {};
  uint32_t best = 0;
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t b = banks[i];
    if (distinct) {
      bool dup = false;
      for (uint32_t k = 0; k < count[b]; ++k)
        if (seen[b][k] == words[i]) {
          dup = true;
          break;
        }
      if (dup) continue;
      seen[b][count[b]] = words[i];
    }
    best = std::max(best, ++count[b]);
  }
  (void)nbanks;
  return best;
}

// The cc 1.x broadcast procedure of cc1_read_steps() on fixed arrays (n <= 32).
uint32_t cc1_steps_fast(const uint64_t* words, const uint32_t* banks, uint32_t n) {
  uint32_t pending = n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1);
  uint32_t steps = 0;
  while (pending) {
    ++steps;
    uint32_t best = 0, best_count = 0;
    for (uint32_t p = pending; p; p &= p - 1) {
      uint32_t i = std::countr_zero(p);
      uint32_t c = 0;
      for (uint32_t q = pending; q; q &= q - 1) c += words[std::countr_zero(q)] == words[i];
      if (c > best_count) {
        best = i;
        best_count = c;
      }
    }
    const uint64_t w = words[best];
    const uint32_t bb = banks[best];
    for (uint32_t q = pending; q; q &= q - 1) {
      uint32_t j = std::countr_zero(q);
      if (words[j] == w) pending &= ~(1u << j);
    }
    uint64_t served = 0;
    for (uint32_t q = pending; q; q &= q - 1) {
      uint32_t j = std::countr_zero(q);
      if (banks[j] == bb || (served >> banks[j] & 1)) continue;
      served |= uint64_t(1) << banks[j];
      pending &= ~(1u << j);
    }
  }
  return steps;
}

}  // namespace

SharedPasses shared_passes(const SharedBankSpec& spec, const WarpMemAccess& a) {
  SharedPasses out;
  if (!a.mask || a.bytes_per_lane() == 0) return out;
  if (a.bytes_per_lane() != spec.bank_width) {
    SharedConflicts c = shared_conflicts(spec, a);
    out.passes = c.passes;
    out.requests = c.requests;
    out.max_degree = c.max_degree;
    return out;
  }
  // One bank-width word per lane: requests are groups of `partition` lanes on both rules.
  const uint32_t group = spec.partition;
  uint64_t words[32];
  uint32_t banks[32];
  // bank_width and banks are powers of two (the parser checks): shifts and masks.
  const int width_shift = std::countr_zero(spec.bank_width);
  const uint64_t bank_mask = spec.banks - 1;
  for (uint32_t first = 0; first < 32; first += group) {
    const uint32_t group_mask = group >= 32 ? 0xFFFFFFFFu : (((1u << group) - 1) << first);
    const uint32_t m = a.mask & group_mask;
    if (!m) continue;
    // One pass decides the common cases without the general procedures: no bank holds
    // two different words (cc2, and cc1 stores: 1 pass); for cc1 loads additionally at most
    // one word is read by several threads (it is the broadcast word: 1 step).
    uint64_t used = 0, multi_seen = 0;
    uint64_t word_of_bank[64];
    bool bank_clash = false;  // two different words in one bank
    bool shared_word = false; // some bank's word touched by more than one lane
    uint32_t multi_reader_words = 0;
    uint32_t n = 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
      const uint64_t w = a.addr[std::countr_zero(mm)] >> width_shift;
      const uint32_t b = uint32_t(w & bank_mask);
      const uint64_t bit = uint64_t(1) << b;
      ++n;
      if (!(used & bit)) {
        used |= bit;
        word_of_bank[b] = w;
      } else if (word_of_bank[b] != w) {
        bank_clash = true;
        shared_word = true;
      } else {
        shared_word = true;
        if (!(multi_seen & bit)) {
          multi_seen |= bit;
          ++multi_reader_words;
        }
      }
    }
    const bool cc1_load_multi = spec.rules == BankRules::Cc1 && a.kind == AccessKind::Load && multi_reader_words > 1;
    const bool simple = a.kind == AccessKind::Atomic ? !shared_word : (!bank_clash && !cc1_load_multi);
    if (simple) {
      out.passes += 1;
      out.requests += 1;
      out.max_degree = std::max(out.max_degree, 1u);
      continue;
    }
    // The general procedures need the lanes' words and banks in lane order.
    n = 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
      words[n] = a.addr[std::countr_zero(mm)] >> width_shift;
      banks[n] = uint32_t(words[n] & bank_mask);
      ++n;
    }
    uint32_t degree;
    if (a.kind == AccessKind::Atomic) degree = max_in_bank(words, banks, n, spec.banks, false);
    else if (spec.rules == BankRules::Cc1 && a.kind == AccessKind::Load) degree = cc1_steps_fast(words, banks, n);
    else degree = max_in_bank(words, banks, n, spec.banks, true);
    out.passes += degree;
    out.requests += 1;
    out.max_degree = std::max(out.max_degree, degree);
  }
  return out;
}

}  // namespace warpsim::sm
