// Thread block clusters at run time (cc 9.0): the blocks of each cluster that are resident,
// for distributed shared memory, and each cluster's barrier (barrier.cluster.arrive and
// .wait). One table per launch, shared by every SM (LaunchContext::clusters); a block joins
// when it is initialised and leaves when its last thread exits. A launch without clusters
// that uses the cluster instructions has clusters of one block.
#pragma once
#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/foundation/dim3.hpp"

namespace warpsim::sm {

struct BlockState;
struct Warp;

constexpr uint32_t kMaxClusterBlocks = 16;  // cc 9.0: 8 portable, 16 with the non-portable attribute

struct ClusterState {
  std::array<BlockState*, kMaxClusterBlocks> members{};  // by rank; null: not started or exited
  uint32_t live_threads = 0;  // threads of the cluster not exited (blocks not started count)
  uint32_t arrived = 0;       // live threads that arrived in the current phase
  uint32_t phase = 0;         // phases completed
  uint32_t left = 0;          // blocks that ended
  std::vector<Warp*> waiting; // warps at barrier.cluster.wait for the current phase
};

class ClusterTable {
 public:
  ClusterTable(Dim3 grid, Dim3 cluster, uint32_t threads_per_block)
      : grid_(grid), dims_(cluster), threads_per_block_(threads_per_block) {}

  Dim3 dims() const { return dims_; }
  uint32_t size() const { return uint32_t(dims_.count()); }
  // The cluster's place in the grid's clusters, linear (x fastest).
  uint64_t cluster_of(Dim3 block) const {
    const uint64_t nx = grid_.x / dims_.x, ny = grid_.y / dims_.y;
    return block.x / dims_.x + nx * (block.y / dims_.y + ny * uint64_t(block.z / dims_.z));
  }
  uint32_t rank_of(Dim3 block) const {
    return block.x % dims_.x + dims_.x * (block.y % dims_.y + dims_.y * (block.z % dims_.z));
  }
  // The linear block index of rank `rank` of cluster `cluster` (the blocks a dispatcher
  // starts together).
  uint64_t block_of(uint64_t cluster, uint32_t rank) const {
    const uint64_t nx = grid_.x / dims_.x, ny = grid_.y / dims_.y;
    const uint64_t cx = cluster % nx, cy = (cluster / nx) % ny, cz = cluster / (nx * ny);
    const uint64_t x = cx * dims_.x + rank % dims_.x, y = cy * dims_.y + (rank / dims_.x) % dims_.y,
                   z = cz * dims_.z + rank / (dims_.x * dims_.y);
    return x + grid_.x * (y + uint64_t(grid_.y) * z);
  }
  uint64_t count() const { return grid_.count() / dims_.count(); }

  ClusterState& join(uint64_t cluster, uint32_t rank, BlockState* b) {
    auto [it, fresh] = clusters_.try_emplace(cluster);
    if (fresh) it->second.live_threads = threads_per_block_ * size();
    it->second.members[rank] = b;
    return it->second;
  }
  ClusterState* find(uint64_t cluster) {
    auto it = clusters_.find(cluster);
    return it == clusters_.end() ? nullptr : &it->second;
  }
  // The block of `rank` ended: its shared memory is gone; the cluster too once all have.
  void leave(uint64_t cluster, uint32_t rank) {
    auto it = clusters_.find(cluster);
    if (it == clusters_.end()) return;
    it->second.members[rank] = nullptr;
    if (++it->second.left == size()) clusters_.erase(it);
  }

  // Warps a completed phase released (the timing runner wakes them on their SMs); the
  // functional runners just clear it.
  std::vector<Warp*> released;

 private:
  Dim3 grid_, dims_;
  uint32_t threads_per_block_;
  std::unordered_map<uint64_t, ClusterState> clusters_;
};

}  // namespace warpsim::sm
