// Strict reader for JSON configuration objects.
//
// Contract: every key of an object must be read (or be "notes") before finish(),
// otherwise finish() reports the unknown key. Every error names the file and the
// full key path, e.g. "configs/c2070.json: dram.timing.tRCD: expected a positive integer".
// A "notes" object may sit beside any keys; its keys must name keys of the same object
// (notes carry the source of each number and are checked, not ignored).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/foundation/error.hpp"

namespace warpsim {

using Json = nlohmann::json;

class ConfigReader {
 public:
  ConfigReader(const Json& obj, std::string file, std::string path = "");

  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  std::string key_path(const std::string& key) const;

  bool has(const std::string& key) const;

  // Required values.
  uint64_t get_uint(const std::string& key);             // >= 0 integer
  uint64_t get_positive(const std::string& key);         // >= 1 integer
  uint64_t get_pow2(const std::string& key);             // power of two >= 1
  int64_t get_int(const std::string& key);
  double get_number(const std::string& key);             // any finite number
  double get_positive_number(const std::string& key);    // > 0
  bool get_bool(const std::string& key);
  std::string get_string(const std::string& key);
  // A positive integer no larger than `max`; `why` says where the bound comes from (e.g.
  // "the simulator keeps per-SM state for every SM"). Bounds keep a typo such as
  // --set sm.count=1000000 from becoming an hour-long run or an allocation failure.
  uint64_t get_positive_at_most(const std::string& key, uint64_t max, const std::string& why);
  // One of `choices`; the error lists them.
  std::string get_choice(const std::string& key, const std::vector<std::string>& choices);

  // Optional values with defaults.
  uint64_t get_uint_or(const std::string& key, uint64_t def);
  uint64_t get_positive_or(const std::string& key, uint64_t def);
  uint64_t get_pow2_or(const std::string& key, uint64_t def);
  double get_number_or(const std::string& key, double def);
  double get_positive_number_or(const std::string& key, double def);
  bool get_bool_or(const std::string& key, bool def);
  std::string get_string_or(const std::string& key, const std::string& def);
  std::string get_choice_or(const std::string& key, const std::vector<std::string>& choices,
                            const std::string& def);

  // Nested object (required / optional).
  ConfigReader child(const std::string& key);
  std::optional<ConfigReader> child_opt(const std::string& key);
  // Raw access for arrays and free-form values; marks the key as read.
  const Json& raw(const std::string& key);
  const Json* raw_opt(const std::string& key);

  // Reject keys never read (except "notes", which is validated).
  void finish();

  [[noreturn]] void fail(const std::string& key, const std::string& msg) const;
  [[noreturn]] void fail_here(const std::string& msg) const;

 private:
  const Json& value(const std::string& key);
  const Json* value_opt(const std::string& key);

  const Json& obj_;
  std::string file_;
  std::string path_;
  std::set<std::string> read_;
};

// Apply a "--set a.b.c=VALUE" override to a JSON document in place. The key path must
// already exist (so a typo is an error, not a silently added key) unless its parent is
// an object that the schema allows to grow, which the caller decides by `allow_new`.
// VALUE is parsed as JSON when it parses (numbers, true/false, arrays), else taken as a string.
void apply_override(Json& doc, const std::string& assignment, const std::string& file,
                    bool allow_new = false);

// Load a JSON file, turning syntax errors into ConfigError with line and column.
Json load_json_file(const std::string& path);

}  // namespace warpsim
