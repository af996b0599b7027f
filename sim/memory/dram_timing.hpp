// DRAM timing as data plus one generic timing-constraint engine (Ramulator 2 style).
//
// A constraint says: after `prev` is issued to a node of `level` (the channel, the bank
// group, or the bank that contains the target bank), `next` may not be issued to any bank
// under that same node until `latency` cycles later. With window = N > 1 the constraint
// counts the N-th most recent `prev` instead (tFAW: at most 4 ACTs in any tFAW window).
// build_timing_table() turns a DramSpec into the table; TimingEngine enforces any table.
// The engine checks timing only; bank state (which row is open) lives in the controller.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace warpsim::mem {

struct DramSpec;

enum class DramCommand : uint8_t { ACT, PRE, RD, WR, REF };

// Observer of every command a channel issues (the timeline uses it); optional.
class DramCommandSink {
 public:
  virtual ~DramCommandSink() = default;
  virtual void on_dram_command(uint32_t channel, DramCommand c, uint32_t bank, uint64_t cycle) = 0;
};
inline constexpr int kDramCommandCount = 5;
std::string_view command_name(DramCommand c);
inline bool is_column(DramCommand c) { return c == DramCommand::RD || c == DramCommand::WR; }

enum class TimingLevel : uint8_t { Channel, BankGroup, Bank };

struct TimingConstraint {
  std::string_view name;   // "tRCD", "tWTR", ... (what the latency comes from)
  TimingLevel level;
  DramCommand prev;
  DramCommand next;
  uint32_t latency;        // command cycles
  uint32_t window = 1;
};

// The constraint table of a spec, all in command cycles (BL = spec.burst_cycles()):
//   bank:    ACT->ACT tRC, ACT->PRE tRAS, ACT->RD tRCD, ACT->WR tRCDWR, PRE->ACT tRP,
//            RD->PRE tRTP, WR->PRE tWL+BL+tWR ("tWR")
//   group:   RD->RD, WR->WR tCCDL (only with more than one bank group)
//   channel: RD->RD, WR->WR tCCD; RD->WR tCL+BL+tRTRS-tWL ("tRTW", at least 1);
//            WR->RD tWL+BL+tWTR ("tWTR"); ACT->ACT tRRD; ACT x4 tFAW (if > 0);
//            with refresh: PRE->REF tRP, REF->ACT tRFC, REF->REF tRFC.
std::vector<TimingConstraint> build_timing_table(const DramSpec& spec);

class TimingEngine {
 public:
  // `banks` per channel, split into `bank_groups` groups of consecutive bank indices
  // (both powers of two).
  TimingEngine(std::span<const TimingConstraint> table, uint32_t banks, uint32_t bank_groups);

  // Earliest cycle at which `c` to `bank` meets every constraint (0 if never constrained).
  uint64_t ready_cycle(DramCommand c, uint32_t bank) const {
    const int ci = int(c);
    uint64_t r = channel_[ci];
    uint64_t g = group_[(bank >> group_shift_) * kDramCommandCount + ci];
    uint64_t b = bank_[bank * kDramCommandCount + ci];
    r = r > g ? r : g;
    return r > b ? r : b;
  }
  // Read-only snapshot of the ready cycles for tight loops (valid until the next issue).
  struct ReadyView {
    const uint64_t* channel;
    const uint64_t* group;
    const uint64_t* bank;
    uint32_t group_shift;
    uint64_t operator()(DramCommand c, uint32_t b) const {
      const int ci = int(c);
      const uint64_t r = channel[ci];
      const uint64_t g = group[(b >> group_shift) * kDramCommandCount + ci];
      const uint64_t k = bank[b * kDramCommandCount + ci];
      const uint64_t m = r > g ? r : g;
      return m > k ? m : k;
    }
  };
  ReadyView view() const { return ReadyView{channel_.data(), group_.data(), bank_.data(), group_shift_}; }

  bool can_issue(DramCommand c, uint32_t bank, uint64_t now) const {
    return now >= ready_cycle(c, bank);
  }
  // Record `c` issued to `bank` at `now` (REF: pass any bank; it is channel-wide).
  // `now` may lie in the future of earlier issues (auto-precharge is recorded that way).
  void issue(DramCommand c, uint32_t bank, uint64_t now);

 private:
  struct Update {
    TimingLevel level;
    uint8_t next;
    uint32_t latency;
  };
  struct Window {
    TimingLevel level;
    uint8_t next;
    uint32_t latency;
    uint32_t size;
    uint32_t ring_base;  // this constraint's first ring (one ring per node)
    uint32_t slot_base;  // its first slot in history_ (rings of `size` slots each)
  };
  uint64_t* node(TimingLevel level, uint32_t bank);
  uint32_t node_index(TimingLevel level, uint32_t bank) const;

  uint32_t group_shift_ = 0;
  std::array<std::vector<Update>, kDramCommandCount> updates_;
  std::array<std::vector<Window>, kDramCommandCount> windows_;
  std::array<uint64_t, kDramCommandCount> channel_{};
  std::vector<uint64_t> group_, bank_;
  std::vector<uint64_t> history_;        // ring slots
  std::vector<uint32_t> history_head_;   // per ring: next slot to write
  std::vector<uint32_t> history_count_;  // per ring: entries written (saturates at size)
};

}  // namespace warpsim::mem
