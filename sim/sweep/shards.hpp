// Splitting a sweep over processes or cluster nodes (`warpsim sweep --shard I/N`) and
// joining their CSV files (`warpsim sweep --merge`) into exactly what one unsharded run
// writes.
//
// Shard I of N runs the points whose index is I mod N (neighbouring points, often of
// similar cost, land on different shards). Its CSV has one extra first column,
// `sweep_point`, holding "INDEX/TOTAL", which the merge uses to put rows back in point
// order and to check that every point is there exactly once.
#pragma once
#include <string>
#include <vector>

#include "sim/sweep/sweep.hpp"

namespace warpsim::sweep {

struct Shard {
  size_t index = 0;  // 0-based, as SLURM_ARRAY_TASK_ID counts
  size_t count = 1;
};

// "I/N" with 0 <= I < N. Errors are ConfigError naming --shard.
Shard parse_shard(const std::string& text);
// The points of shard `s`, in point order.
std::vector<Point> shard_points(const std::vector<Point>& all, Shard s);

inline constexpr const char* kShardColumn = "sweep_point";
// The shard file's cells around an unsharded row.
std::vector<std::string> shard_header(const std::vector<std::string>& header);
std::vector<std::string> shard_row(const Point& p, size_t total, const std::vector<std::string>& row);

// The unsharded CSV text from the shard files' texts (name, text). Throws ConfigError
// naming the file for a file that is not a shard file, headers or totals that differ,
// a point present twice, or points missing (listing the first few).
std::string merge_shards(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace warpsim::sweep
