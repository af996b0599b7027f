#include "sim/runtime/mem_pool.hpp"

#include <algorithm>

namespace warpsim::runtime {

namespace {
uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }
}  // namespace

uint64_t MemPool::chunk_bytes(uint64_t bytes) { return std::max(kChunk, round_up(bytes, kChunkGranularity)); }

std::optional<uint64_t> MemPool::allocate(uint64_t bytes, const Reserve& reserve) {
  const uint64_t need = round_up(bytes, kAlign);
  for (Chunk& c : chunks_) {
    // First fit: the lowest gap between live blocks (or after the last) that holds `need`.
    uint64_t at = 0;
    for (const auto& [off, len] : c.live) {
      if (off - at >= need) break;
      at = round_up(off + len, kAlign);
    }
    if (at + need <= c.bytes) {
      c.live[at] = bytes;
      used_ += bytes;
      used_high_ = std::max(used_high_, used_);
      return c.base + at;
    }
  }
  const uint64_t chunk = chunk_bytes(bytes);
  if (max_bytes_ && reserved_ + chunk > max_bytes_) return std::nullopt;
  Chunk c;
  c.base = reserve(chunk);
  c.bytes = chunk;
  c.live[0] = bytes;
  chunks_.push_back(std::move(c));
  reserved_ += chunk;
  reserved_high_ = std::max(reserved_high_, reserved_);
  used_ += bytes;
  used_high_ = std::max(used_high_, used_);
  return chunks_.back().base;
}

const MemPool::Chunk* MemPool::chunk_containing(uint64_t ptr) const {
  for (const Chunk& c : chunks_)
    if (ptr >= c.base && ptr < c.base + c.bytes) return &c;
  return nullptr;
}

std::optional<std::pair<uint64_t, uint64_t>> MemPool::chunk_of(uint64_t ptr) const {
  const Chunk* c = chunk_containing(ptr);
  if (!c) return std::nullopt;
  return std::make_pair(c->base, c->bytes);
}

bool MemPool::owns(uint64_t ptr) const {
  const Chunk* c = chunk_containing(ptr);
  return c && c->live.count(ptr - c->base);
}

bool MemPool::release(uint64_t ptr) {
  auto* c = const_cast<Chunk*>(chunk_containing(ptr));
  if (!c) return false;
  auto it = c->live.find(ptr - c->base);
  if (it == c->live.end()) return false;
  used_ -= it->second;
  c->live.erase(it);
  return true;
}

void MemPool::trim(uint64_t keep, const Unreserve& unreserve) {
  for (size_t i = chunks_.size(); i-- > 0 && reserved_ > keep;) {
    if (!chunks_[i].live.empty()) continue;
    unreserve(chunks_[i].base);
    reserved_ -= chunks_[i].bytes;
    chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

}  // namespace warpsim::runtime
