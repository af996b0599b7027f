#include "sim/memory/cache_replay.hpp"

#include <utility>

namespace warpsim::mem {

CacheReplay::CacheReplay(Apply apply) : apply_(std::move(apply)) {
  cur_.accesses.reserve(kBatchAccesses);
}

CacheReplay::~CacheReplay() {
  try {
    drain();
  } catch (...) {
    // The launch is being unwound or its error was reported by drain(); nothing to add.
  }
  if (thread_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
      work_.notify_one();
    }
    thread_.join();
  }
}

void CacheReplay::push(const CacheAccess& access, const Transaction* txns, uint32_t n) {
  cur_.push(access, txns, n);
  if (cur_.accesses.size() >= kBatchAccesses) submit();
}

void CacheReplay::apply(const Batch& b) { apply_(b); }

void CacheReplay::submit() {
  if (cur_.accesses.empty()) return;
  {
    std::unique_lock<std::mutex> lock(m_);
    if (!thread_.joinable()) thread_ = std::thread([this] { consume(); });
    space_.wait(lock, [&] { return queued_.size() < kQueuedBatches || error_; });
    queued_.push_back(std::move(cur_));
    if (!spare_.empty()) {
      cur_ = std::move(spare_.back());
      spare_.pop_back();
    } else {
      cur_ = Batch{};
      cur_.accesses.reserve(kBatchAccesses);
    }
    work_.notify_one();  // notified under the lock throughout (helgrind checks that too)
  }
  cur_.accesses.clear();
  cur_.txns.clear();
}

void CacheReplay::consume() {
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    work_.wait(lock, [&] { return stop_ || !queued_.empty(); });
    if (queued_.empty()) return;  // stop_ with nothing left
    if (error_) {  // the caches are in an unknown state: apply nothing more
      queued_.clear();
      idle_.notify_all();
      space_.notify_one();
      continue;
    }
    Batch b = std::move(queued_.front());
    queued_.pop_front();
    busy_ = true;
    space_.notify_one();
    lock.unlock();
    std::exception_ptr err;
    try {
      apply(b);
    } catch (...) {
      err = std::current_exception();
    }
    lock.lock();
    busy_ = false;
    if (err && !error_) error_ = err;
    if (error_) queued_.clear();
    spare_.push_back(std::move(b));
    idle_.notify_all();
    space_.notify_one();
  }
}

void CacheReplay::drain() {
  if (!thread_.joinable()) {
    // Never started: a launch of fewer accesses than a batch is applied here.
    Batch b = std::move(cur_);
    cur_ = Batch{};
    apply(b);
    return;
  }
  submit();
  std::unique_lock<std::mutex> lock(m_);
  idle_.wait(lock, [&] { return (queued_.empty() && !busy_) || error_; });
  if (error_) std::rethrow_exception(error_);
}

}  // namespace warpsim::mem
