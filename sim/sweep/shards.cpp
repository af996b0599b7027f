#include "sim/sweep/shards.hpp"

#include <fmt/format.h>

#include <charconv>
#include <optional>

#include "sim/report/csv.hpp"
#include "sim/foundation/error.hpp"

namespace warpsim::sweep {

namespace {

std::optional<size_t> parse_size(std::string_view s) {
  size_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

}  // namespace

Shard parse_shard(const std::string& text) {
  const size_t slash = text.find('/');
  auto bad = [&](const std::string& why) {
    return ConfigError(fmt::format("--shard \"{}\": {} (expected I/N with 0 <= I < N, e.g. 0/4 ... 3/4)", text, why));
  };
  if (slash == std::string::npos) throw bad("no '/'");
  auto i = parse_size(std::string_view(text).substr(0, slash));
  auto n = parse_size(std::string_view(text).substr(slash + 1));
  if (!i || !n) throw bad("not two whole numbers");
  if (*n == 0) throw bad("N must be at least 1");
  if (*i >= *n) throw bad(fmt::format("I must be below N ({})", *n));
  return Shard{*i, *n};
}

std::vector<Point> shard_points(const std::vector<Point>& all, Shard s) {
  std::vector<Point> out;
  for (const auto& p : all)
    if (p.index % s.count == s.index) out.push_back(p);
  return out;
}

std::vector<std::string> shard_header(const std::vector<std::string>& header) {
  std::vector<std::string> h{kShardColumn};
  h.insert(h.end(), header.begin(), header.end());
  return h;
}

std::vector<std::string> shard_row(const Point& p, size_t total, const std::vector<std::string>& row) {
  std::vector<std::string> r{fmt::format("{}/{}", p.index, total)};
  r.insert(r.end(), row.begin(), row.end());
  return r;
}

std::string merge_shards(const std::vector<std::pair<std::string, std::string>>& files) {
  if (files.empty()) throw ConfigError("--merge: no shard files given");
  std::vector<std::string> header;
  std::optional<size_t> total;
  std::vector<std::optional<std::vector<std::string>>> rows;
  std::vector<std::string> from;  // which file each row came from
  for (const auto& [name, text] : files) {
    csv::Table t = csv::parse(text, name);
    if (t.header.empty() || t.header[0] != kShardColumn)
      throw ConfigError(fmt::format("{}: not a shard file of `warpsim sweep --shard` (its first column is not '{}')",
                                    name, kShardColumn));
    std::vector<std::string> h(t.header.begin() + 1, t.header.end());
    if (header.empty()) header = h;
    else if (h != header)
      throw ConfigError(fmt::format("{}: its columns differ from {}'s: the shards come from different sweeps", name,
                                    files.front().first));
    for (size_t r = 0; r < t.rows.size(); ++r) {
      const std::string& cell = t.rows[r][0];
      const size_t slash = cell.find('/');
      auto k = slash == std::string::npos ? std::nullopt : parse_size(std::string_view(cell).substr(0, slash));
      auto n = slash == std::string::npos ? std::nullopt : parse_size(std::string_view(cell).substr(slash + 1));
      if (!k || !n || *k >= *n)
        throw ConfigError(fmt::format("{}: row {}: '{}' is not a point index INDEX/TOTAL", name, r + 2, cell));
      if (!total) {
        total = *n;
        rows.resize(*n);
        from.resize(*n);
      } else if (*n != *total) {
        throw ConfigError(fmt::format("{}: row {}: a sweep of {} points, but {} has {}", name, r + 2, *n,
                                      files.front().first, *total));
      }
      if (rows[*k])
        throw ConfigError(fmt::format("{}: point {} is also in {}: a shard was given twice or the shards overlap",
                                      name, *k, from[*k]));
      rows[*k] = std::vector<std::string>(t.rows[r].begin() + 1, t.rows[r].end());
      from[*k] = name;
    }
  }
  if (!total) throw ConfigError("--merge: the shard files hold no rows");
  std::vector<size_t> missing;
  for (size_t k = 0; k < rows.size(); ++k)
    if (!rows[k]) missing.push_back(k);
  if (!missing.empty()) {
    std::string list;
    for (size_t i = 0; i < std::min<size_t>(missing.size(), 8); ++i) list += fmt::format("{}{}", i ? ", " : "", missing[i]);
    throw ConfigError(fmt::format("--merge: {} of {} points are missing (points {}{}): a shard is missing or did not "
                                  "finish",
                                  missing.size(), *total, list, missing.size() > 8 ? ", ..." : ""));
  }
  std::string out = csv::format_row(header);
  for (const auto& r : rows) out += csv::format_row(*r);
  return out;
}

}  // namespace warpsim::sweep
