// Physical address -> (channel, bank group, bank, row, column) for the DRAM model; the L2
// and the interconnect use channel_of() to pick the memory partition.
//
// Decoding, GPGPU-Sim style:
//  1. channel: chunk = addr / interleave_bytes; channel = chunk mod channels, and the
//     channel field is removed: rest = (chunk / channels) * interleave_bytes + addr mod
//     interleave_bytes (GPGPU-Sim's "dramid@N"; with a power-of-two channel count this is
//     the same as taking log2(channels) bits at bit N).
//  2. rest is split by a bit layout (MSB first, one letter per bit): R row, B bank,
//     C column (access-atom index in the row), S byte within the atom, 0 ignored bit.
//     Leading 0s are dropped and the bits above the layout's top continue the row (so
//     GPGPU-Sim's 64-bit strings do not alias addresses above their row bits). Bits of one
//     field need not be contiguous; the lowest-placed bit of a field is its bit 0.
//  3. optional hashes: channel_hash "xor" folds every address bit above the channel field
//     (chunk / channels) by XOR into ceil(log2 channels)-bit slices and combines the fold
//     with the channel by XOR (power-of-two counts) or by addition mod channels (other
//     counts); both keep the mapping one-to-one. bank_hash "xor" XORs the bank with the
//     row's low bits (permutation-based interleaving).
//  4. bank group = bank / (banks / bank_groups), as GPGPU-Sim numbers them.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/foundation/config_reader.hpp"

namespace warpsim::mem {

struct DramSpec;

enum class ChannelHash : uint8_t { None, Xor };
enum class BankHash : uint8_t { None, Xor };

// Settings of the `dram.address_map` object (validated).
struct AddressMapSpec {
  uint64_t interleave_bytes = 256;   // bytes of one channel before the next channel's
  std::string scheme = "row_bank_column";
  std::string bits;                  // the layout string as written (scheme "bits")
  std::string layout;                // resolved layout: MSB first, only R B C S 0
  ChannelHash channel_hash = ChannelHash::None;
  BankHash bank_hash = BankHash::None;
};

// Layout schemes, chosen by name in `dram.address_map.scheme` (the one registry of mappers).
struct AddressSchemeEntry {
  std::string_view name;
  std::string_view description;
  // Layout (MSB first) for this geometry; null for "bits", whose layout is the `bits` key.
  std::string (*make_layout)(uint32_t banks, uint32_t columns, uint32_t atom_bytes);
};
std::span<const AddressSchemeEntry> address_schemes();
std::string address_scheme_names();  // "row_bank_column, row_column_bank, bits"

// Parse `dram.address_map`; `geometry` must already hold channels, banks, bank_groups,
// columns and the atom size (burst length, bus width, chips).
AddressMapSpec parse_address_map_spec(ConfigReader& r, const DramSpec& geometry);

struct DramAddress {
  uint32_t channel = 0;
  uint32_t bank_group = 0;
  uint32_t bank = 0;     // flat bank index within the channel, 0 .. banks-1
  uint64_t row = 0;
  uint32_t column = 0;   // access-atom index within the row
  bool operator==(const DramAddress&) const = default;
};

class AddressMap {
 public:
  explicit AddressMap(const DramSpec& spec);

  DramAddress decode(uint64_t addr) const;
  uint32_t channel_of(uint64_t addr) const;
  // The address with the channel field removed (step 1 above): the addresses one channel
  // serves, numbered densely from 0, so consecutive chunks of a channel are adjacent here.
  uint64_t channel_local(uint64_t addr) const {
    uint64_t rest;
    split(addr, rest);
    return rest;
  }
  uint32_t channels() const { return channels_; }
  uint64_t interleave_bytes() const { return uint64_t(1) << ilv_shift_; }

 private:
  struct Run {
    uint8_t src, len, dst;
  };
  // Channel index (after hashing) and the address with the channel field removed.
  uint32_t split(uint64_t addr, uint64_t& rest) const;
  static uint64_t gather(uint64_t v, const std::vector<Run>& runs);

  uint32_t channels_ = 1;
  bool channels_pow2_ = true;
  uint32_t channel_bits_ = 0;     // log2(channels) when a power of two
  uint32_t ilv_shift_ = 8;
  ChannelHash channel_hash_ = ChannelHash::None;
  uint32_t fold_bits_ = 1;
  BankHash bank_hash_ = BankHash::None;
  uint32_t bank_mask_ = 0;
  uint32_t bank_group_shift_ = 0;
  uint32_t layout_bits_ = 0;      // bits the layout covers
  uint32_t row_bits_ = 0;         // R bits in the layout
  std::vector<Run> row_runs_, bank_runs_, col_runs_;
};

}  // namespace warpsim::mem
