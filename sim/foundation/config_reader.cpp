#include "sim/foundation/config_reader.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <sstream>

namespace warpsim {

ConfigReader::ConfigReader(const Json& obj, std::string file, std::string path)
    : obj_(obj), file_(std::move(file)), path_(std::move(path)) {
  if (!obj_.is_object()) fail_here(fmt::format("expected an object, got {}", obj_.type_name()));
}

std::string ConfigReader::key_path(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

void ConfigReader::fail(const std::string& key, const std::string& msg) const {
  throw ConfigError(fmt::format("{}: {}: {}", file_, key_path(key), msg));
}

void ConfigReader::fail_here(const std::string& msg) const {
  throw ConfigError(fmt::format("{}: {}: {}", file_, path_.empty() ? "(top level)" : path_, msg));
}

bool ConfigReader::has(const std::string& key) const { return obj_.contains(key); }

const Json& ConfigReader::value(const std::string& key) {
  auto it = obj_.find(key);
  if (it == obj_.end()) fail(key, "missing required key");
  read_.insert(key);
  return *it;
}

const Json* ConfigReader::value_opt(const std::string& key) {
  auto it = obj_.find(key);
  if (it == obj_.end()) return nullptr;
  read_.insert(key);
  return &*it;
}

static std::string describe(const Json& v) {
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

static bool as_integer(const Json& v, int64_t& out) {
  if (v.is_number_integer()) {
    out = v.get<int64_t>();
    return true;
  }
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e18) {
      out = static_cast<int64_t>(d);
      return true;
    }
  }
  return false;
}

int64_t ConfigReader::get_int(const std::string& key) {
  const Json& v = value(key);
  int64_t x;
  if (!as_integer(v, x)) fail(key, fmt::format("expected an integer, got {}", describe(v)));
  return x;
}

uint64_t ConfigReader::get_uint(const std::string& key) {
  const Json& v = value(key);
  int64_t x;
  if (!as_integer(v, x) || x < 0)
    fail(key, fmt::format("expected a non-negative integer, got {}", describe(v)));
  return static_cast<uint64_t>(x);
}

uint64_t ConfigReader::get_positive(const std::string& key) {
  const Json& v = value(key);
  int64_t x;
  if (!as_integer(v, x) || x < 1)
    fail(key, fmt::format("expected a positive integer, got {}", describe(v)));
  return static_cast<uint64_t>(x);
}

uint64_t ConfigReader::get_pow2(const std::string& key) {
  const Json& v = value(key);
  int64_t x;
  if (!as_integer(v, x) || x < 1 || (x & (x - 1)) != 0)
    fail(key, fmt::format("expected a power of two, got {}", describe(v)));
  return static_cast<uint64_t>(x);
}

uint64_t ConfigReader::get_positive_at_most(const std::string& key, uint64_t max, const std::string& why) {
  uint64_t x = get_positive(key);
  if (x > max) fail(key, fmt::format("{} is above the supported maximum of {} ({})", x, max, why));
  return x;
}

double ConfigReader::get_number(const std::string& key) {
  const Json& v = value(key);
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    fail(key, fmt::format("expected a number, got {}", describe(v)));
  return v.get<double>();
}

double ConfigReader::get_positive_number(const std::string& key) {
  double d = get_number(key);
  if (!(d > 0)) fail(key, fmt::format("expected a positive number, got {}", d));
  return d;
}

bool ConfigReader::get_bool(const std::string& key) {
  const Json& v = value(key);
  if (!v.is_boolean()) fail(key, fmt::format("expected true or false, got {}", describe(v)));
  return v.get<bool>();
}

std::string ConfigReader::get_string(const std::string& key) {
  const Json& v = value(key);
  if (!v.is_string()) fail(key, fmt::format("expected a string, got {}", describe(v)));
  return v.get<std::string>();
}

std::string ConfigReader::get_choice(const std::string& key, const std::vector<std::string>& choices) {
  std::string s = get_string(key);
  for (const auto& c : choices)
    if (c == s) return s;
  std::string list;
  for (size_t i = 0; i < choices.size(); ++i) list += (i ? ", " : "") + choices[i];
  fail(key, fmt::format("\"{}\" is not one of: {}", s, list));
}

uint64_t ConfigReader::get_uint_or(const std::string& key, uint64_t def) {
  return has(key) ? get_uint(key) : def;
}
uint64_t ConfigReader::get_positive_or(const std::string& key, uint64_t def) {
  return has(key) ? get_positive(key) : def;
}
uint64_t ConfigReader::get_pow2_or(const std::string& key, uint64_t def) {
  return has(key) ? get_pow2(key) : def;
}
double ConfigReader::get_number_or(const std::string& key, double def) {
  return has(key) ? get_number(key) : def;
}
double ConfigReader::get_positive_number_or(const std::string& key, double def) {
  return has(key) ? get_positive_number(key) : def;
}
bool ConfigReader::get_bool_or(const std::string& key, bool def) {
  return has(key) ? get_bool(key) : def;
}
std::string ConfigReader::get_string_or(const std::string& key, const std::string& def) {
  return has(key) ? get_string(key) : def;
}
std::string ConfigReader::get_choice_or(const std::string& key, const std::vector<std::string>& choices,
                                        const std::string& def) {
  return has(key) ? get_choice(key, choices) : def;
}

ConfigReader ConfigReader::child(const std::string& key) {
  const Json& v = value(key);
  if (!v.is_object()) fail(key, fmt::format("expected an object, got {}", v.type_name()));
  return ConfigReader(v, file_, key_path(key));
}

std::optional<ConfigReader> ConfigReader::child_opt(const std::string& key) {
  if (!has(key)) return std::nullopt;
  return child(key);
}

const Json& ConfigReader::raw(const std::string& key) { return value(key); }
const Json* ConfigReader::raw_opt(const std::string& key) { return value_opt(key); }

void ConfigReader::finish() {
  for (auto it = obj_.begin(); it != obj_.end(); ++it) {
    const std::string& k = it.key();
    if (k == "notes") {
      if (!it->is_object()) fail(k, "expected an object mapping keys to their source notes");
      for (auto n = it->begin(); n != it->end(); ++n) {
        if (!obj_.contains(n.key()) || n.key() == "notes")
          fail(k + "." + n.key(), "note for a key that this object does not have");
        if (!n->is_string()) fail(k + "." + n.key(), "a note must be a string");
      }
      continue;
    }
    if (!read_.count(k)) fail(k, "unknown key");
  }
}

void apply_override(Json& doc, const std::string& assignment, const std::string& file, bool allow_new) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError(fmt::format("--set \"{}\": expected KEY.PATH=VALUE", assignment));
  std::string path = assignment.substr(0, eq);
  std::string text = assignment.substr(eq + 1);
  Json value;
  try {
    value = Json::parse(text);
  } catch (const Json::parse_error&) {
    value = text;
  }
  Json* node = &doc;
  size_t start = 0;
  std::string walked;
  while (true) {
    size_t dot = path.find('.', start);
    std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (key.empty()) throw ConfigError(fmt::format("--set \"{}\": empty key in path", assignment));
    walked = walked.empty() ? key : walked + "." + key;
    if (!node->is_object())
      throw ConfigError(fmt::format("{}: {}: --set: not an object, cannot set a key inside it", file, walked));
    bool last = dot == std::string::npos;
    if (!node->contains(key)) {
      if (!(last && allow_new))
        throw ConfigError(fmt::format("{}: {}: --set: no such key in the config", file, walked));
    }
    if (last) {
      (*node)[key] = value;
      return;
    }
    node = &(*node)[key];
    start = dot + 1;
  }
}

Json load_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(fmt::format("{}: cannot open file", path));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    // Translate the byte offset into line:column.
    size_t off = std::min<size_t>(e.byte, text.size());
    size_t line = 1, col = 1;
    for (size_t i = 0; i + 1 < off; ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    std::string what = e.what();
    auto p = what.find("parse error");
    throw ConfigError(fmt::format("{}:{}:{}: invalid JSON: {}", path, line, col,
                                  p == std::string::npos ? what : what.substr(p)));
  }
}

}  // namespace warpsim
