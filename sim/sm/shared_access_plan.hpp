// How a full warp's ld.shared/st.shared (one element or a vector per lane) at one
// instruction moved its data the last time, kept so that the next execution whose lanes
// sit at the same offsets from lane 0 (a tiled kernel's loads from one base register, each
// iteration and each warp) repeats it without a lane-by-lane gather: the lanes as runs at
// one address or at consecutive elements (vectors: consecutive spans of the vector's
// size). Also numbers the pattern (WarpMemAccess::pattern), so that the bank model can
// reuse its result without comparing the offsets again.
#pragma once
#include <array>
#include <cstdint>

namespace warpsim::sm {

// Lanes [first, first + count): all at the run's first address (same_address), or at
// consecutive elements from it.
struct SharedRun {
  uint8_t first = 0;
  uint8_t count = 0;
  bool same_address = false;
};

struct SharedAccessPlan {
  static constexpr int kMaxRuns = 8;  // more: the lanes one by one
  std::array<int64_t, 32> delta{};    // lane l's address minus lane 0's
  int64_t min_delta = 0, max_delta = 0;  // the least and greatest of delta
  uint64_t pattern = 0;               // nonzero; equal numbers from one executor: equal deltas
  uint8_t nruns = 0;                  // 0: no runs (lane by lane)
  // The commonest shape, two half-warp runs (a tiled kernel's row and column operands),
  // for the loads to take without walking the runs: kHalves set when runs are lanes 0-15
  // and 16-31, kFirstSame / kSecondSame when that half is at one address.
  static constexpr uint8_t kHalves = 1, kFirstSame = 2, kSecondSame = 4;
  uint8_t halves = 0;
  std::array<SharedRun, kMaxRuns> runs{};
};

// Makes `plan`'s deltas and runs from a full warp's addresses of `elem_bytes`-byte
// elements (the pattern number is the caller's).
void make_shared_plan(const uint64_t* addr, uint32_t elem_bytes, SharedAccessPlan& plan);

// A full warp's 32-bit shared offsets (base register plus offset, wrapped), written to
// `addr`; returns their OR (it bounds their maximum and shows misalignment) and sets
// `differs` nonzero unless every lane's offset minus lane 0's equals `delta`. The three
// arrays do not overlap.
uint64_t full_warp_offsets_against(const uint64_t* base, uint64_t off, const int64_t* delta, uint64_t* addr,
                                   uint64_t& differs);

// A full warp's 4-byte unsigned load by `plan`'s runs (nruns > 0) into the register lanes
// `d` (zero-extended); `lane0` points at lane 0's element in shared memory.
void load_runs_u32(const SharedAccessPlan& plan, const uint8_t* lane0, uint64_t* d);

// A full warp's 4-byte unsigned ld.shared from a base register (lane l at base[l] + off,
// wrapped to 32 bits) where its lanes sit at `plan`'s offsets again (plan.pattern nonzero,
// plan.nruns > 0), every lane aligned and in [0, limit): loads by the runs into `d` and
// returns lane 0's offset. Otherwise does nothing and returns kNotByPlan (the caller's
// general path then computes, checks or faults lane by lane).
constexpr uint64_t kNotByPlan = ~uint64_t(0);
uint64_t load_u32_by_plan(const SharedAccessPlan& plan, const uint64_t* base, uint64_t off, const uint8_t* sh,
                          uint64_t limit, uint64_t* d);

// load_u32_by_plan where the base register's lanes are known to sit at `plan`'s offsets
// from lane 0 (modulo 2^32; an earlier check of the unchanged register): only lane 0's
// value `base0` is read, and the same bounds are checked.
uint64_t load_u32_by_known_plan(const SharedAccessPlan& plan, uint64_t base0, uint64_t off, const uint8_t* sh,
                                uint64_t limit, uint64_t* d);

}  // namespace warpsim::sm
