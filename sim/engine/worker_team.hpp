// A fixed team of threads that runs one job at a time, split by share: run() starts share
// t on worker t (share 0 on the calling thread) and returns when every share has returned.
// Built for jobs of about a microsecond (one simulated cycle of the SMs): workers spin
// briefly between jobs and only then sleep on a futex (std::atomic::wait). The results of
// a job never depend on timing; only its cost does.
#pragma once
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace warpsim {

class WorkerTeam {
 public:
  using Job = void (*)(void* ctx, uint32_t share);

  // `shares` >= 1; starts shares - 1 threads.
  explicit WorkerTeam(uint32_t shares);
  ~WorkerTeam();  // stops and joins the workers (no job may be running)
  WorkerTeam(const WorkerTeam&) = delete;
  WorkerTeam& operator=(const WorkerTeam&) = delete;

  uint32_t shares() const { return shares_; }
  // Runs job(ctx, t) for every share t concurrently. The job must not throw. Returns
  // false if a worker was not at hand (asleep when the job came, or the caller had to
  // sleep waiting for it): the host is busier than the team, and the job cost microseconds
  // of wake-ups.
  bool run(Job job, void* ctx);

 private:
  void worker(uint32_t share);

  uint32_t shares_;
  Job job_ = nullptr;
  void* ctx_ = nullptr;
  // Each on its own cache line: the caller writes epoch_, the workers write pending_.
  alignas(64) std::atomic<uint64_t> epoch_{0};  // bumped per job (and to stop)
  std::atomic<uint32_t> sleepers_{0};           // workers blocked in epoch_.wait
  bool stop_ = false;
  alignas(64) std::atomic<uint32_t> pending_{0};  // shares of the current job not done
  std::atomic<bool> caller_sleeps_{false};
  std::vector<std::thread> threads_;
};

}  // namespace warpsim
