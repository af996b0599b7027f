// The functional cache model on a host thread of its own (functional mode with --threads 2
// or more): the executing thread hands its coalesced global and local accesses over in
// batches, in program order, and one consumer thread applies them to the caches in that
// order. Every cache counter, and every line the L2 keeps for the next launch, is what
// applying them inline gives: nothing the executing thread does depends on the caches, and
// the order they see is the same. A launch with less than one batch of accesses never starts
// the thread (drain() applies them inline).
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/memory/coalescer.hpp"
#include "sim/memory/mem_access.hpp"

namespace warpsim::mem {

// One warp access as the caches see it; its transactions follow in the batch.
struct CacheAccess {
  uint32_t sm = 0;
  uint32_t transactions = 0;
  AccessKind kind = AccessKind::Load;
  bool use_l1 = false;  // goes through the SM's L1
  bool local = false;   // local memory (the L1 keeps it however globals are cached)
};

// Accesses for the caches in the order they are to be applied, each followed by its
// transactions.
struct CacheLog {
  std::vector<CacheAccess> accesses;
  std::vector<Transaction> txns;
  void push(const CacheAccess& access, const Transaction* t, uint32_t n) {
    CacheAccess a = access;
    a.transactions = n;
    accesses.push_back(a);
    txns.insert(txns.end(), t, t + n);
  }
  void clear() {
    accesses.clear();
    txns.clear();
  }
  template <class Apply>
  void for_each(Apply&& apply) const {
    const Transaction* t = txns.data();
    for (const CacheAccess& a : accesses) {
      apply(a, t);
      t += a.transactions;
    }
  }
};

class CacheReplay {
 public:
  // Applies a batch of accesses, in order; called on the consumer thread, in push order.
  using Apply = std::function<void(const CacheLog&)>;
  explicit CacheReplay(Apply apply);
  // Applies everything pushed (also after the producer stopped with an exception, so the
  // caches end as an inline run's would), then joins. Never throws.
  ~CacheReplay();
  CacheReplay(const CacheReplay&) = delete;
  CacheReplay& operator=(const CacheReplay&) = delete;

  void push(const CacheAccess& access, const std::vector<Transaction>& txns) {
    push(access, txns.data(), uint32_t(txns.size()));
  }
  void push(const CacheAccess& access, const Transaction* txns, uint32_t n);
  // Returns once every access pushed so far has been applied; rethrows what Apply threw.
  void drain();

 private:
  using Batch = CacheLog;
  static constexpr size_t kBatchAccesses = 4096;
  static constexpr size_t kQueuedBatches = 4;  // the producer waits past this many

  void submit();  // hands cur_ to the consumer (starting it the first time)
  void consume();
  void apply(const Batch& b);

  Apply apply_;
  Batch cur_;
  std::mutex m_;
  std::condition_variable work_, space_, idle_;
  std::deque<Batch> queued_;
  std::vector<Batch> spare_;
  bool busy_ = false;  // the consumer is applying a batch
  bool stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace warpsim::mem
