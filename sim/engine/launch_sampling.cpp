#include "sim/engine/launch_sampling.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/engine/sampling.hpp"
#include "sim/isa/ir.hpp"

namespace warpsim {

namespace {

// The busiest SM's warp instructions with blocks spread round-robin (the whole launch's
// when that is not known).
uint64_t busiest_sm_work(const LaunchStats& s) {
  const auto& per_sm = s.exec.round_robin_sm_instructions;
  return per_sm.empty() ? s.exec.inst_executed : *std::max_element(per_sm.begin(), per_sm.end());
}

// Whether the kernel (or a device function linked into it) reads a clock: what it computes
// then depends on simulated time, and a functional run would compute something else.
bool reads_time(const isa::Kernel& k) {
  return std::any_of(k.code.begin(), k.code.end(), [](const isa::Instr& in) {
    return in.op == isa::Op::ReadClock || in.op == isa::Op::ReadGlobalTimer;
  });
}

}  // namespace

bool LaunchSampler::same_work(const LaunchStats& a, const LaunchStats& b) const {
  auto near = [&](uint64_t x, uint64_t y) { return double(x > y ? x - y : y - x) <= same_work_ * double(std::max(x, y)); };
  return near(a.exec.inst_executed, b.exec.inst_executed) &&
         near(timed_work(a).transactions, timed_work(b).transactions) &&
         near(busiest_sm_work(a), busiest_sm_work(b)) &&
         near(a.exec.longest_warp_instructions, b.exec.longest_warp_instructions);
}

bool LaunchSampler::time_next(const LaunchShape& shape) const {
  if (timed_per_shape_ == 0) return true;
  auto it = shapes_.find(shape);
  return it == shapes_.end() || it->second.count < timed_per_shape_ || !it->second.steady || it->second.reads_time;
}

void LaunchSampler::on_timed(const LaunchShape& shape, const LaunchStats& stats, uint64_t index) {
  if (timed_per_shape_ == 0) return;
  Timed& t = shapes_[shape];
  if (t.count == 0) t.reads_time = shape.kernel && reads_time(*shape.kernel);
  // Steady once N launches were timed and the last two did the same work (one is enough
  // when N is 1).
  t.steady = t.count + 1 >= timed_per_shape_ && (t.count == 0 || same_work(t.last, stats));
  ++t.count;
  t.index = index;
  t.last = stats;
  t.last.traces.clear();
}

void LaunchSampler::estimate(const LaunchShape& shape, LaunchStats& s, const DeviceSpec& spec) {
  auto it = shapes_.find(shape);
  if (it == shapes_.end()) throw std::logic_error("launch sampling: an untimed launch of a shape never timed");
  const LaunchStats& ref = it->second.last;
  // Other work than the timed launch's ends the streak: the shape's next launch is timed.
  if (!same_work(s, ref)) it->second.steady = false;
  const TimedWork ran = timed_work(s), was = timed_work(ref);
  // Time follows the busiest SM's work (the whole launch's over many waves of blocks, the
  // longest block's when there is less than one).
  const uint64_t work = busiest_sm_work(s), ref_work = busiest_sm_work(ref);
  const double time_scale = ref_work ? double(work) / double(ref_work) : 1.0;
  const double inst_scale = was.instructions ? double(ran.instructions) / double(was.instructions) : 1.0;
  const double mem_scale = was.transactions ? double(ran.transactions) / double(was.transactions) : inst_scale;

  s.timing_mode = true;
  s.timing = ref.timing;
  TimingStats& t = s.timing;
  t.sample = {};  // this launch ran no blocks in the timing model (the reference may have sampled its own)
  t.from_launch.estimated = true;
  t.from_launch.launch = it->second.index;
  t.from_launch.scale = time_scale;
  t.elapsed_cycles_sm = static_cast<uint64_t>(std::llround(double(ref.timing.elapsed_cycles_sm) * time_scale));
  t.duration_ns = double(t.elapsed_cycles_sm) * 1000.0 / spec.clock_mhz;
  // What only the timing model counts comes from the timed launch; what execution counts
  // (instructions, requests, transactions, bank conflicts) stays this launch's own.
  {
    const auto mine = s.mem.cache_counters();
    const auto theirs = ref.mem.cache_counters();
    for (size_t i = 0; i < mine.size(); ++i) *mine[i] = *theirs[i];
    s.mem.gpc_merging = ref.mem.gpc_merging;
  }
  s.dram = ref.dram;
  for (size_t pc = 0; pc < s.per_pc.size() && pc < ref.per_pc.size(); ++pc)
    s.per_pc[pc].stall_cycles = ref.per_pc[pc].stall_cycles;
  scale_timing_counters(s, spec, time_scale, inst_scale, mem_scale);
  ++estimated_;
}

}  // namespace warpsim
