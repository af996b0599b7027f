// Parsing and validation of launch specs (docs/launch-spec.md).
#include "sim/launch/launch_spec.hpp"
#include "sim/foundation/file_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "kernels/references/reference.hpp"
#include "sim/foundation/config_reader.hpp"
#include "sim/foundation/error.hpp"

namespace warpsim {
namespace {

namespace fs = std::filesystem;

std::string describe(const Json& v) {
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// Reads one spec document; `where(key)` gives "file: key" for messages.
class SpecParser {
 public:
  SpecParser(const Json& doc, std::string path, const std::map<std::string, int64_t>& overrides)
      : doc_(doc), overrides_(overrides) {
    spec_.path = std::move(path);
    dir_ = fs::path(spec_.path).parent_path();
  }

  LaunchSpec parse() {
    ConfigReader r(doc_, spec_.path);
    spec_.description = r.get_string_or("description", "");
    parse_module(r);
    spec_.kernel = r.get_string("kernel");
    parse_vars(r);
    spec_.grid = parse_dim(r, "grid");
    spec_.block = parse_dim(r, "block");
    if (const Json* v = r.raw_opt("shared_bytes")) spec_.shared_bytes = to_u32(eval(*v, "shared_bytes"), "shared_bytes", 0);
    spec_.registers = static_cast<uint32_t>(r.get_uint_or("registers", 0));
    if (spec_.registers > 255) r.fail("registers", fmt::format("{} registers per thread is more than any GPU allows", spec_.registers));
    {
      static const std::vector<std::string> kCacheConfigs = {"none", "prefer_shared", "prefer_l1", "prefer_equal"};
      const std::string c = r.get_choice_or("cache_config", kCacheConfigs, "none");
      spec_.cache_config = int(std::find(kCacheConfigs.begin(), kCacheConfigs.end(), c) - kCacheConfigs.begin());
      const int64_t carveout = r.has("shared_carveout_percent") ? r.get_int("shared_carveout_percent") : -1;
      if (carveout < -1 || carveout > 100)
        r.fail("shared_carveout_percent", fmt::format("{}: a percentage from 0 to 100, or -1 for none", carveout));
      spec_.shared_carveout_percent = int(carveout);
    }
    parse_buffers(r);
    parse_args(r);
    if (auto c = r.child_opt("check")) parse_check(*c);
    r.finish();
    return std::move(spec_);
  }

 private:
  std::string where(const std::string& key) const { return fmt::format("{}: {}", spec_.path, key); }
  [[noreturn]] void fail(const std::string& key, const std::string& msg) const {
    throw ConfigError(fmt::format("{}: {}", where(key), msg));
  }

  std::string resolve(const std::string& file) const {
    fs::path p(file);
    return (p.is_absolute() ? p : dir_ / p).lexically_normal().string();
  }

  // An integer: a JSON integer or an integer-expression string.
  int64_t eval(const Json& v, const std::string& key) const {
    if (v.is_number_integer()) {
      if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
        fail(key, fmt::format("{} is too large", describe(v)));
      return v.get<int64_t>();
    }
    if (v.is_number_float()) {
      double d = v.get<double>();
      if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e18) return static_cast<int64_t>(d);
      fail(key, fmt::format("expected an integer, got {}", describe(v)));
    }
    if (v.is_string()) return eval_int_expr(v.get<std::string>(), spec_.vars, where(key));
    fail(key, fmt::format("expected an integer or an integer expression, got {}", describe(v)));
  }

  uint32_t to_u32(int64_t v, const std::string& key, int64_t min) const {
    if (v < min || v > std::numeric_limits<uint32_t>::max())
      fail(key, fmt::format("{} is out of range (expected {} to {})", v, min, std::numeric_limits<uint32_t>::max()));
    return static_cast<uint32_t>(v);
  }

  SpecNumber number(const Json& v, const std::string& key) const {
    SpecNumber n;
    if (v.is_number_integer() || v.is_string()) {
      n.integer = eval(v, key);
      return n;
    }
    if (v.is_number_float() && std::isfinite(v.get<double>())) {
      n.is_integer = false;
      n.real = v.get<double>();
      return n;
    }
    fail(key, fmt::format("expected a number, got {}", describe(v)));
  }

  void parse_module(ConfigReader& r) {
    bool has_ptx = r.has("ptx"), has_cu = r.has("cu");
    if (has_ptx == has_cu) r.fail_here("give exactly one of \"ptx\" and \"cu\"");
    const char* key = has_ptx ? "ptx" : "cu";
    spec_.module_is_cu = has_cu;
    spec_.module_path = resolve(r.get_string(key));
    if (!is_regular_file_noexcept(spec_.module_path)) r.fail(key, fmt::format("no such file: {}", spec_.module_path));
  }

  void parse_vars(ConfigReader& r) {
    if (const Json* vars = r.raw_opt("vars")) {
      if (!vars->is_object()) fail("vars", "expected an object of integer variables");
      for (const auto& [name, value] : vars->items()) {
        std::string key = "vars." + name;
        if (!is_identifier(name)) fail(key, "a variable name must be an identifier");
        if (name == "ceil_div" || name == "min" || name == "max") fail(key, "this name is a function");
        if (!value.is_number_integer()) fail(key, fmt::format("expected an integer, got {}", describe(value)));
        spec_.vars[name] = eval(value, key);
      }
    }
    for (const auto& [name, value] : overrides_) {
      auto it = spec_.vars.find(name);
      if (it == spec_.vars.end()) {
        std::string known;
        for (const auto& [k, v] : spec_.vars) known += (known.empty() ? "" : ", ") + k;
        fail("vars", fmt::format("cannot override '{}': the spec defines no such variable ({})", name,
                                 known.empty() ? "it defines none" : "variables: " + known));
      }
      it->second = value;
    }
  }

  Dim3 parse_dim(ConfigReader& r, const std::string& key) {
    const Json& v = r.raw(key);
    if (v.is_number() || v.is_string()) return Dim3{to_u32(eval(v, key), key, 1), 1, 1};
    if (!v.is_array() || v.empty() || v.size() > 3) fail(key, "expected 1 to 3 dimensions");
    uint32_t d[3] = {1, 1, 1};
    for (size_t i = 0; i < v.size(); ++i) {
      std::string k = fmt::format("{}[{}]", key, i);
      d[i] = to_u32(eval(v[i], k), k, 1);
    }
    return Dim3{d[0], d[1], d[2]};
  }

  void parse_buffers(ConfigReader& r) {
    const Json& buffers = r.raw("buffers");
    if (!buffers.is_object() || buffers.empty()) fail("buffers", "expected an object of one or more buffers");
    for (const auto& [name, value] : buffers.items()) {
      std::string key = "buffers." + name;
      if (!is_identifier(name)) fail(key, "a buffer name must be an identifier");
      if (spec_.vars.count(name)) fail(key, fmt::format("'{}' is also a variable; names must differ", name));
      ConfigReader b(value, spec_.path, key);
      BufferSpec buf;
      buf.name = name;
      std::string type = b.get_string("type");
      auto t = parse_elem_type(type);
      if (!t) b.fail("type", fmt::format("unknown type '{}' (valid: {})", type, elem_type_names()));
      buf.type = *t;
      int64_t count = eval(b.raw("count"), key + ".count");
      if (count < 1) b.fail("count", fmt::format("{} elements: a buffer needs at least one", count));
      buf.count = static_cast<uint64_t>(count);
      // No device holds 2^48 bytes; the bound keeps count x element size far from overflow.
      if (buf.count > (kMaxBufferBytes / elem_size(buf.type)))
        b.fail("count", fmt::format("{} elements of {} bytes exceed {} bytes, more than any device holds", count,
                                    elem_size(buf.type), kMaxBufferBytes));
      if (const Json* init = b.raw_opt("init")) buf.init = parse_init(*init, key + ".init", buf);
      b.finish();
      spec_.buffers.push_back(std::move(buf));
    }
  }

  void check_in_range(const SpecNumber& n, ElemType type, const std::string& key) const {
    if (elem_is_float(type)) return;
    if (!n.is_integer) fail(key, fmt::format("{} is not an integer, the buffer is {}", n.real, elem_name(type)));
    uint32_t bits = 8 * elem_size(type);
    if (type == ElemType::U64) {
      if (n.integer < 0) fail(key, fmt::format("{} is out of range for u64", n.integer));
      return;
    }
    if (type == ElemType::S64) return;
    int64_t lo = elem_is_signed(type) ? -(int64_t{1} << (bits - 1)) : 0;
    int64_t hi = elem_is_signed(type) ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
    if (n.integer < lo || n.integer > hi)
      fail(key, fmt::format("{} is out of range for {} ({} to {})", n.integer, elem_name(type), lo, hi));
  }

  BufferInit parse_init(const Json& v, const std::string& key, const BufferSpec& buf) const {
    BufferInit init;
    if (v.is_string()) {
      std::string s = v.get<std::string>();
      if (s == "zero") return init;
      if (s == "iota") {
        init.kind = BufferInit::Kind::Iota;
        init.step.integer = 1;
        return init;
      }
      fail(key, fmt::format("unknown init '{}' (valid: \"zero\", \"iota\", or an object with one of value, iota, "
                            "random, file, offsets)", s));
    }
    if (!v.is_object() || v.size() != 1)
      fail(key, "expected \"zero\", \"iota\" or an object with exactly one of value, iota, random, file, offsets");
    ConfigReader r(v, spec_.path, key);
    if (r.has("value")) {
      init.kind = BufferInit::Kind::Value;
      init.value = number(r.raw("value"), key + ".value");
      check_in_range(init.value, buf.type, key + ".value");
    } else if (r.has("iota")) {
      init.kind = BufferInit::Kind::Iota;
      ConfigReader i = r.child("iota");
      init.start = i.has("start") ? number(i.raw("start"), key + ".iota.start") : SpecNumber{};
      init.step = i.has("step") ? number(i.raw("step"), key + ".iota.step") : SpecNumber{true, 1, 0};
      check_in_range(init.start, buf.type, key + ".iota.start");
      check_in_range(init.step, buf.type == ElemType::U64 ? ElemType::S64 : buf.type, key + ".iota.step");
      i.finish();
    } else if (r.has("random")) {
      init.kind = BufferInit::Kind::Random;
      ConfigReader g = r.child("random");
      init.seed = g.get_uint("seed");
      init.min = number(g.raw("min"), key + ".random.min");
      init.max = number(g.raw("max"), key + ".random.max");
      init.integers = g.get_bool_or("integers", !elem_is_float(buf.type));
      if (!elem_is_float(buf.type) && !init.integers)
        g.fail("integers", fmt::format("a {} buffer holds integers", elem_name(buf.type)));
      check_in_range(init.min, buf.type, key + ".random.min");
      check_in_range(init.max, buf.type, key + ".random.max");
      if (init.min.as_real() > init.max.as_real()) g.fail("max", "max is less than min");
      if (init.integers && std::ceil(init.min.as_real()) > std::floor(init.max.as_real()))
        g.fail("max", "no whole number lies between min and max");
      g.finish();
    } else if (r.has("file")) {
      init.kind = BufferInit::Kind::File;
      init.file = resolve(r.get_string("file"));
      check_file_size(init.file, buf.count * elem_size(buf.type), key + ".file");
    } else if (r.has("offsets")) {
      init.kind = BufferInit::Kind::Offsets;
      if (elem_is_float(buf.type)) fail(key + ".offsets", "offsets need an integer buffer type");
      ConfigReader o = r.child("offsets");
      init.seed = o.get_uint("seed");
      init.min = number(o.raw("min"), key + ".offsets.min");
      init.max = number(o.raw("max"), key + ".offsets.max");
      if (!init.min.is_integer || !init.max.is_integer || init.min.integer < 0 || init.max.integer < init.min.integer)
        o.fail("max", "segment lengths need integers 0 <= min <= max");
      SpecNumber last{true, 0, 0};
      if (__builtin_mul_overflow(init.max.integer, static_cast<int64_t>(buf.count - 1), &last.integer))
        o.fail("max", "the offsets overflow");
      check_in_range(last, buf.type, key + ".offsets.max");
      o.finish();
    } else {
      r.fail_here("expected one of value, iota, random, file, offsets");
    }
    r.finish();
    return init;
  }

  void check_file_size(const std::string& file, uint64_t want, const std::string& key) const {
    std::error_code ec;
    uint64_t size = fs::file_size(file, ec);
    if (ec) fail(key, fmt::format("cannot read {}: {}", file, ec.message()));
    if (size != want) fail(key, fmt::format("{} has {} bytes, the buffer needs {}", file, size, want));
  }

  void parse_args(ConfigReader& r) {
    const Json& args = r.raw("args");
    if (!args.is_array()) fail("args", "expected an array");
    for (size_t i = 0; i < args.size(); ++i) spec_.args.push_back(parse_arg(args[i], fmt::format("args[{}]", i)));
  }

  ArgSpec parse_arg(const Json& v, const std::string& key) const {
    ArgSpec a;
    if (v.is_string() && spec_.find_buffer(v.get<std::string>())) {
      a.kind = ArgSpec::Kind::Buffer;
      a.buffer = v.get<std::string>();
    } else if (v.is_string() || v.is_number_integer()) {
      a.kind = ArgSpec::Kind::Int;
      a.integer = eval_arg(v, key);
    } else if (v.is_number_float()) {
      a.kind = ArgSpec::Kind::Real;
      a.real = v.get<double>();
    } else if (v.is_object()) {
      ConfigReader r(v, spec_.path, key);
      const Json& fields = r.raw("struct");
      if (!fields.is_array() || fields.empty()) r.fail("struct", "expected an array of members");
      a.kind = ArgSpec::Kind::Struct;
      for (size_t i = 0; i < fields.size(); ++i)
        a.fields.push_back(parse_field(fields[i], fmt::format("{}.struct[{}]", key, i)));
      r.finish();
    } else {
      fail(key, fmt::format("expected a buffer name, a number, an integer expression or {{\"struct\": [...]}}, got {}",
                            describe(v)));
    }
    return a;
  }

  // An integer argument; an unknown name may be a misspelt buffer, so the message lists both.
  int64_t eval_arg(const Json& v, const std::string& key) const {
    try {
      return eval(v, key);
    } catch (const ConfigError& e) {
      std::string msg = e.what();
      if (msg.find("unknown variable") == std::string::npos) throw;
      std::string names;
      for (const auto& b : spec_.buffers) names += (names.empty() ? "" : ", ") + b.name;
      throw ConfigError(fmt::format("{}; buffers: {}", msg, names));
    }
  }

  StructField parse_field(const Json& v, const std::string& key) const {
    StructField f;
    if (v.is_string()) {
      if (!spec_.find_buffer(v.get<std::string>()))
        fail(key, fmt::format("'{}' is not a buffer (a struct member is a buffer name or {{\"s32\": value}})",
                              v.get<std::string>()));
      f.buffer = v.get<std::string>();
      return f;
    }
    if (!v.is_object() || v.size() != 1)
      fail(key, "expected a buffer name or an object with one type key, e.g. {\"s32\": 4}");
    auto it = v.begin();
    auto t = parse_elem_type(it.key());
    if (!t) fail(key, fmt::format("unknown type '{}' (valid: {})", it.key(), elem_type_names()));
    f.type = *t;
    f.value = number(it.value(), key + "." + it.key());
    check_in_range(f.value, f.type, key + "." + it.key());
    return f;
  }

  void parse_check(ConfigReader& c) {
    CheckSpec& check = spec_.check;
    check.present = true;
    check.tolerance = c.get_number_or("tolerance", 0);
    if (check.tolerance < 0) c.fail("tolerance", "must not be negative");
    bool has_ref = c.has("reference"), has_expected = c.has("expected");
    if (has_ref == has_expected) c.fail_here("give exactly one of \"reference\" and \"expected\"");
    if (has_ref) {
      check.reference = c.get_string("reference");
      auto registry = ref::reference_registry();
      if (!registry.count(check.reference)) {
        std::string names;
        for (const auto& [n, fn] : registry) names += (names.empty() ? "" : ", ") + n;
        c.fail("reference", fmt::format("unknown reference '{}' (valid: {})", check.reference, names));
      }
      const Json& outputs = c.raw("outputs");
      if (!outputs.is_array() || outputs.empty()) c.fail("outputs", "expected an array of one or more buffer names");
      for (size_t i = 0; i < outputs.size(); ++i) {
        std::string k = fmt::format("check.outputs[{}]", i);
        if (!outputs[i].is_string() || !spec_.find_buffer(outputs[i].get<std::string>()))
          fail(k, fmt::format("{} is not a buffer of the spec", describe(outputs[i])));
        check.outputs.push_back(outputs[i].get<std::string>());
      }
    } else {
      const Json& expected = c.raw("expected");
      if (!expected.is_object() || expected.empty()) c.fail("expected", "expected an object buffer -> file");
      for (const auto& [name, file] : expected.items()) {
        std::string k = "check.expected." + name;
        const BufferSpec* buf = spec_.find_buffer(name);
        if (!buf) fail(k, fmt::format("'{}' is not a buffer of the spec", name));
        if (!file.is_string()) fail(k, "expected a file name");
        std::string path = resolve(file.get<std::string>());
        check_file_size(path, buf->count * elem_size(buf->type), k);
        check.expected_files[name] = path;
        check.outputs.push_back(name);
      }
    }
    c.finish();
  }

  const Json& doc_;
  const std::map<std::string, int64_t>& overrides_;
  LaunchSpec spec_;
  fs::path dir_;
};

}  // namespace

const BufferSpec* LaunchSpec::find_buffer(const std::string& name) const {
  for (const auto& b : buffers)
    if (b.name == name) return &b;
  return nullptr;
}

LaunchSpec parse_launch_spec(const Json& doc, const std::string& path, const std::map<std::string, int64_t>& var_overrides) {
  return SpecParser(doc, path, var_overrides).parse();
}

LaunchSpec load_launch_spec(const std::string& path, const std::map<std::string, int64_t>& var_overrides) {
  return parse_launch_spec(load_json_file(path), path, var_overrides);
}

}  // namespace warpsim
