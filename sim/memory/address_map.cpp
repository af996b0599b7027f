#include "sim/memory/address_map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <optional>

#include "sim/memory/dram_spec.hpp"

namespace warpsim::mem {

namespace {

uint32_t log2_exact(uint64_t v) { return uint32_t(std::countr_zero(v)); }

std::string repeat(char c, uint32_t n) { return std::string(n, c); }

// row | bank | column | byte: consecutive atoms stay in one row (good locality).
std::string layout_row_bank_column(uint32_t banks, uint32_t columns, uint32_t atom) {
  return repeat('B', log2_exact(banks)) + repeat('C', log2_exact(columns)) +
         repeat('S', log2_exact(atom));
}

// row | column | bank | byte: consecutive atoms go to consecutive banks.
std::string layout_row_column_bank(uint32_t banks, uint32_t columns, uint32_t atom) {
  return repeat('C', log2_exact(columns)) + repeat('B', log2_exact(banks)) +
         repeat('S', log2_exact(atom));
}

constexpr std::array<AddressSchemeEntry, 3> kSchemes{{
    {"row_bank_column", "row | bank | column | byte-in-atom, MSB to LSB", layout_row_bank_column},
    {"row_column_bank", "row | column | bank | byte-in-atom: consecutive atoms in consecutive banks",
     layout_row_column_bank},
    {"bits", "explicit GPGPU-Sim-style layout in the `bits` key", nullptr},
}};

bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace

std::span<const AddressSchemeEntry> address_schemes() { return kSchemes; }

std::string address_scheme_names() {
  std::string s;
  for (const auto& e : kSchemes) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

AddressMapSpec parse_address_map_spec(ConfigReader& r, const DramSpec& g) {
  AddressMapSpec m;
  const uint32_t atom = g.atom_bytes();

  std::optional<uint64_t> interleave;
  if (r.has("channel_interleave_bytes")) interleave = r.get_pow2("channel_interleave_bytes");

  bool has_bits = r.has("bits");
  m.scheme = r.get_string_or("scheme", has_bits ? "bits" : "row_bank_column");
  const AddressSchemeEntry* scheme = nullptr;
  for (const auto& e : kSchemes)
    if (e.name == m.scheme) scheme = &e;
  if (!scheme)
    r.fail("scheme", fmt::format("unknown address-mapping scheme \"{}\"; valid: {}", m.scheme,
                                 address_scheme_names()));

  if (scheme->make_layout) {
    if (has_bits)
      r.fail("bits", fmt::format("only used with scheme \"bits\" (scheme is \"{}\")", m.scheme));
    m.layout = scheme->make_layout(g.banks, g.columns, atom);
  } else {
    if (!has_bits) r.fail("bits", "missing required key (scheme \"bits\" takes its layout from it)");
    m.bits = r.get_string("bits");
    std::string_view s = m.bits;
    // Optional GPGPU-Sim prefix "dramid@N;": the channel field starts at bit N.
    if (s.starts_with("dramid@")) {
      auto semi = s.find(';');
      if (semi == std::string_view::npos) r.fail("bits", "\"dramid@N\" must be followed by ';'");
      std::string num(s.substr(7, semi - 7));
      uint32_t n = 0;
      bool ok = !num.empty() && num.size() <= 2;
      for (char c : num) ok = ok && c >= '0' && c <= '9';
      if (ok) n = uint32_t(std::stoul(num));
      if (!ok || n > 40) r.fail("bits", fmt::format("bad channel position \"dramid@{}\"", num));
      uint64_t from_bits = uint64_t(1) << n;
      if (interleave && *interleave != from_bits)
        r.fail("bits", fmt::format("dramid@{} means {}-byte channel interleaving, but "
                                   "channel_interleave_bytes is {}",
                                   n, from_bits, *interleave));
      interleave = from_bits;
      s = s.substr(semi + 1);
    }
    for (char c : s) {
      switch (c) {
        case 'R': case 'r': m.layout += 'R'; break;
        case 'B': case 'b': m.layout += 'B'; break;
        case 'C': case 'c': m.layout += 'C'; break;
        case 'S': case 's': m.layout += 'S'; break;
        case '0': m.layout += '0'; break;
        case '.': case ' ': case '|': case '_': break;
        case 'D': case 'd':
          r.fail("bits", "explicit channel bits (D) are not supported; give the channel position "
                         "as a \"dramid@N;\" prefix or with channel_interleave_bytes");
        default:
          r.fail("bits", fmt::format("invalid character '{}' (expected R, B, C, S, 0 or a "
                                     "separator . | _ space)", c));
      }
    }
    if (m.layout.size() > 64) r.fail("bits", fmt::format("{} bits; at most 64", m.layout.size()));
    // GPGPU-Sim pads its strings to 64 bits with leading 0s; dropping them lets the bits above
    // the highest letter continue the row instead of aliasing large addresses.
    m.layout.erase(0, std::min(m.layout.find_first_not_of('0'), m.layout.size()));
    auto count = [&](char c) { return uint32_t(std::count(m.layout.begin(), m.layout.end(), c)); };
    auto check = [&](char c, const char* what, const char* key, uint64_t value) {
      uint32_t need = log2_exact(value);
      if (count(c) != need)
        r.fail("bits", fmt::format("has {} {} ({}) bits, but {} = {} needs {}", count(c), what,
                                   c, key, value, need));
    };
    check('B', "bank", "banks", g.banks);
    check('C', "column", "columns", g.columns);
    check('S', "byte-in-atom", "the access atom (bytes)", atom);
  }
  if (!interleave) r.fail("channel_interleave_bytes", "missing required key");
  m.interleave_bytes = *interleave;
  if (m.interleave_bytes < atom)
    r.fail("channel_interleave_bytes",
           fmt::format("{} bytes is smaller than the {}-byte access atom, so one column burst "
                       "would span channels",
                       m.interleave_bytes, atom));

  std::string ch = r.get_choice_or("channel_hash", {"none", "xor"}, "none");
  m.channel_hash = ch == "xor" ? ChannelHash::Xor : ChannelHash::None;
  std::string bh = r.get_choice_or("bank_hash", {"none", "xor"}, "none");
  m.bank_hash = bh == "xor" ? BankHash::Xor : BankHash::None;
  r.finish();
  return m;
}

AddressMap::AddressMap(const DramSpec& spec) {
  const AddressMapSpec& m = spec.address_map;
  channels_ = spec.channels;
  channels_pow2_ = is_pow2(channels_);
  channel_bits_ = channels_pow2_ ? log2_exact(channels_) : 0;
  ilv_shift_ = log2_exact(m.interleave_bytes);
  channel_hash_ = channels_ > 1 ? m.channel_hash : ChannelHash::None;
  fold_bits_ = std::max<uint32_t>(1, uint32_t(std::bit_width(uint64_t(channels_ - 1))));
  bank_hash_ = m.bank_hash;
  bank_mask_ = spec.banks - 1;
  bank_group_shift_ = log2_exact(spec.banks_per_group());

  // Layout string is MSB first; walk it LSB first and collect runs per field.
  layout_bits_ = uint32_t(m.layout.size());
  uint32_t dst_row = 0, dst_bank = 0, dst_col = 0;
  for (uint32_t bit = 0; bit < layout_bits_; ++bit) {
    char c = m.layout[layout_bits_ - 1 - bit];
    std::vector<Run>* runs = nullptr;
    uint32_t* dst = nullptr;
    if (c == 'R') runs = &row_runs_, dst = &dst_row;
    else if (c == 'B') runs = &bank_runs_, dst = &dst_bank;
    else if (c == 'C') runs = &col_runs_, dst = &dst_col;
    if (!runs) continue;
    if (!runs->empty() && runs->back().src + runs->back().len == bit)
      runs->back().len++;
    else
      runs->push_back(Run{uint8_t(bit), 1, uint8_t(*dst)});
    ++*dst;
  }
  row_bits_ = dst_row;
}

uint64_t AddressMap::gather(uint64_t v, const std::vector<Run>& runs) {
  uint64_t out = 0;
  for (const Run& r : runs) out |= ((v >> r.src) & ((uint64_t(1) << r.len) - 1)) << r.dst;
  return out;
}

uint32_t AddressMap::split(uint64_t addr, uint64_t& rest) const {
  uint64_t chunk = addr >> ilv_shift_;
  uint64_t upper;
  uint32_t ch;
  if (channels_pow2_) {
    ch = uint32_t(chunk & (channels_ - 1));
    upper = chunk >> channel_bits_;
  } else {
    ch = uint32_t(chunk % channels_);
    upper = chunk / channels_;
  }
  rest = (upper << ilv_shift_) | (addr & ((uint64_t(1) << ilv_shift_) - 1));
  if (channel_hash_ == ChannelHash::Xor) {
    uint64_t fold = 0, u = upper;
    const uint64_t mask = (uint64_t(1) << fold_bits_) - 1;
    while (u) {
      fold ^= u & mask;
      u >>= fold_bits_;
    }
    ch = channels_pow2_ ? uint32_t(ch ^ fold) : uint32_t((ch + fold) % channels_);
  }
  return ch;
}

uint32_t AddressMap::channel_of(uint64_t addr) const {
  uint64_t rest;
  return split(addr, rest);
}

DramAddress AddressMap::decode(uint64_t addr) const {
  DramAddress a;
  uint64_t rest;
  a.channel = split(addr, rest);
  a.row = gather(rest, row_runs_);
  if (layout_bits_ < 64) a.row |= (rest >> layout_bits_) << row_bits_;
  a.bank = uint32_t(gather(rest, bank_runs_));
  a.column = uint32_t(gather(rest, col_runs_));
  if (bank_hash_ == BankHash::Xor) a.bank ^= uint32_t(a.row) & bank_mask_;
  a.bank_group = a.bank >> bank_group_shift_;
  return a;
}

}  // namespace warpsim::mem
