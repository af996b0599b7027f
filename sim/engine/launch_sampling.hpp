// Sampling over repeated launches (`warpsim exec --sample-launches N`). Of each launch shape
// (kernel, grid, block, dynamic shared memory) the first N launches run in the timing
// model. Later ones run functionally while the shape's work is steady: the last timed
// launch (the N-th or later) did the same work as the one before it (with N = 1 the first
// is enough), and no untimed launch since did other work. "The same work": warp instructions, memory transactions, the busiest SM's and the
// longest warp's instructions all within 5 %. A launch whose work differs ends the streak,
// and the shape's next launch is timed again (a data-dependent kernel, such as a
// breadth-first search whose frontier grows, is timed nearly every time). A kernel that
// reads %clock, %clock64 or %globaltimer is always timed: it computes what the time makes
// it compute (a wait for a timeout spins longer in a functional run).
//
// Every count that execution produces (instructions, requests, transactions, bank
// conflicts, divergence) stays exact. An untimed launch takes its time and timing-only
// counters (stalls, issue, cache hits, DRAM) from the shape's last timed launch, scaled by
// its work: time and stalls by the busiest SM's warp instructions (blocks spread
// round-robin), issue by the warp instructions, caches and DRAM by the memory
// transactions. An untimed launch leaves the caches and DRAM as the last timed launch left
// them (LaunchOptions::cache_control): the next timed launch finds that launch's state, not
// the streak's, which is the same on programs that repeat their work.
#pragma once
#include <cstdint>
#include <map>
#include <tuple>

#include "sim/foundation/dim3.hpp"
#include "sim/sm/carveout.hpp"
#include "sim/foundation/launch_stats.hpp"
#include "sim/spec/device_spec.hpp"

namespace warpsim {

namespace isa {
struct Kernel;
}

struct LaunchShape {
  const isa::Kernel* kernel = nullptr;
  Dim3 grid, block;
  uint32_t dynamic_shared = 0;
  sm::SharedPreference preference;  // another L1/shared split is another shape

  auto key() const {
    return std::tuple(kernel, grid.x, grid.y, grid.z, block.x, block.y, block.z, dynamic_shared,
                      preference.function_cache, preference.device_cache, preference.carveout_percent);
  }
  bool operator<(const LaunchShape& o) const { return key() < o.key(); }
};

class LaunchSampler {
 public:
  // timed_per_shape 0: sampling off, every launch is timed. same_work: the relative
  // difference of each work measure below which two launches did the same work.
  explicit LaunchSampler(uint32_t timed_per_shape = 0, double same_work = 0.05)
      : timed_per_shape_(timed_per_shape), same_work_(same_work) {}

  // Whether the next launch of this shape runs in the timing model.
  bool time_next(const LaunchShape& shape) const;
  // A timed launch of the shape finished; `index` is its place among the program's launches.
  void on_timed(const LaunchShape& shape, const LaunchStats& stats, uint64_t index);
  // Gives `functional`, an untimed launch of the shape that ran functionally, the time and
  // timing-only counters of the shape's last timed launch, scaled by the work.
  void estimate(const LaunchShape& shape, LaunchStats& functional, const DeviceSpec& spec);

  uint64_t estimated_launches() const { return estimated_; }

 private:
  struct Timed {
    uint32_t count = 0;     // timed launches of the shape so far
    bool steady = false;    // later launches may go untimed
    bool reads_time = false;  // the kernel reads %clock or %globaltimer: always timed
    uint64_t index = 0;     // the last one's place among the program's launches
    LaunchStats last;       // ... and its statistics (traces dropped)
  };
  bool same_work(const LaunchStats& a, const LaunchStats& b) const;
  uint32_t timed_per_shape_;
  double same_work_;
  std::map<LaunchShape, Timed> shapes_;
  uint64_t estimated_ = 0;
};

}  // namespace warpsim
