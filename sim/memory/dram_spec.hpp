// The typed, validated description of a DRAM system (the `dram` object of a device config
// or of configs/dram/*.json). Parsing checks every key; the running model never sees JSON.
//
// Units: every timing value is in DRAM command-clock cycles. A burst of `burst_length`
// transfers occupies the data bus for burst_cycles() = burst_length / transfers_per_clock
// command cycles (GPGPU-Sim's BL / dram_data_command_freq_ratio).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/foundation/config_reader.hpp"
#include "sim/memory/address_map.hpp"

namespace warpsim::mem {

enum class PagePolicy : uint8_t { Open, Closed };

// Datasheet timing, in command cycles. Derived command-to-command spacings (write-to-read,
// read-to-write, write-to-precharge) are computed in dram_timing.cpp from these.
struct DramTimingSpec {
  uint32_t tRCD = 0;    // ACT -> RD, same bank
  uint32_t tRCDWR = 0;  // ACT -> WR, same bank (defaults to tRCD)
  uint32_t tRP = 0;     // PRE -> ACT, same bank
  uint32_t tRAS = 0;    // ACT -> PRE, same bank
  uint32_t tRC = 0;     // ACT -> ACT, same bank
  uint32_t tCL = 0;     // RD -> first read data
  uint32_t tWL = 0;     // WR -> first write data
  uint32_t tCCD = 0;    // column -> column (RD->RD, WR->WR), any bank
  uint32_t tCCDL = 0;   // column -> column, same bank group (defaults to tCCD)
  uint32_t tRRD = 0;    // ACT -> ACT, different banks
  uint32_t tWTR = 0;    // end of write data -> RD (GDDR datasheets: tCDLR)
  uint32_t tWR = 0;     // end of write data -> PRE, same bank (write recovery)
  uint32_t tRTP = 0;    // RD -> PRE, same bank (GPGPU-Sim: RTPL; defaults to burst_cycles())
  uint32_t tFAW = 0;    // at most 4 ACTs in any tFAW window; 0 = not modelled
  uint32_t tREFI = 0;   // all-bank refresh interval; 0 = no refresh
  uint32_t tRFC = 0;    // REF -> ACT / REF
  uint32_t tRTRS = 2;   // bus turnaround gap in read-to-write (tRTW = tCL + BL + tRTRS - tWL)
};

struct DramSpec {
  std::string file;                 // config file (for messages)
  uint32_t channels = 0;            // independent controllers (GPGPU-Sim gpgpu_n_mem)
  uint32_t chips_per_channel = 0;   // chips side by side on one channel's bus
  uint32_t chip_width_bits = 0;     // data pins per chip (x32 GDDR: 32)
  uint32_t transfers_per_clock = 0; // data transfers per command clock: SDR 1, DDR 2, QDR 4
  double command_clock_mhz = 0;
  uint32_t burst_length = 0;        // transfers per column command
  uint32_t banks = 0;               // per channel (all chips of a channel act as one)
  uint32_t bank_groups = 1;         // banks are grouped by their high index bits
  uint32_t columns = 0;             // column bursts (access atoms) per row
  uint32_t queue_size = 0;          // request-queue entries per channel
  std::string scheduler = "fr-fcfs";
  PagePolicy page_policy = PagePolicy::Open;
  AddressMapSpec address_map;
  DramTimingSpec timing;

  uint32_t channel_bytes_per_transfer() const { return chips_per_channel * chip_width_bits / 8; }
  // Bytes one column command moves: GPGPU-Sim's dram_atom_size.
  uint32_t atom_bytes() const { return channel_bytes_per_transfer() * burst_length; }
  uint32_t burst_cycles() const { return burst_length / transfers_per_clock; }
  uint32_t banks_per_group() const { return banks / bank_groups; }
  uint64_t row_bytes() const { return uint64_t(columns) * atom_bytes(); }
  // Data-bus bytes per command cycle of one channel.
  double channel_bytes_per_cycle() const {
    return double(channel_bytes_per_transfer()) * transfers_per_clock;
  }
  // Peak bandwidth of all channels, in GB/s (1e9 bytes per second).
  double peak_bandwidth_gbps() const {
    return channels * channel_bytes_per_cycle() * command_clock_mhz * 1e6 / 1e9;
  }
  double cycle_ns() const { return 1e3 / command_clock_mhz; }
};

// Parse and validate the `dram` object that `r` reads. Errors are ConfigError naming the
// file and the full key path (e.g. "c.json: dram.timing.tRC: ...").
DramSpec parse_dram_spec(ConfigReader& r);

// Load a JSON file that has a top-level `dram` object (a device config or a
// configs/dram preset), apply "--set dram.x=v" overrides, and parse only `dram`.
DramSpec load_dram_spec(const std::string& path, const std::vector<std::string>& overrides = {});

}  // namespace warpsim::mem
