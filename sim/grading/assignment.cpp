// Parsing and validation of grading assignments (docs/grading.md).
#include "sim/grading/assignment.hpp"
#include "sim/foundation/file_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <regex>
#include <set>

#include "sim/foundation/config_reader.hpp"
#include "sim/foundation/error.hpp"
#include "sim/report/metrics.hpp"

namespace warpsim::grading {

namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxRegionName = 128;  // a `where.region` name
constexpr size_t kMaxPtxPattern = 256;  // a `where.ptx_text` regular expression

std::string describe(const Json& v) {
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::vector<std::string> names_of(const LaunchStats& s) {
  std::vector<std::string> out;
  for (const auto& g : collect_metrics(s))
    for (const auto& m : g.metrics) out.push_back(m.name);
  return out;
}

// Reads one assignment document; errors are "ASSIGNMENT: key.path: message".
class AssignmentParser {
 public:
  AssignmentParser(const Json& doc, std::string path) : doc_(doc) {
    a_.path = std::move(path);
    dir_ = fs::path(a_.path).parent_path();
  }

  Assignment parse() {
    ConfigReader r(doc_, a_.path);
    a_.title = r.get_string("title");
    a_.description = r.get_string_or("description", "");
    const bool program = r.has("program");
    if (program) {
      for (const char* key : {"kernel", "specs"})
        if (r.has(key))
          fail(key, "an assignment grades either a kernel (\"kernel\" and \"specs\") or a whole program "
                    "(\"program\"), not both");
    } else {
      a_.kernel = r.get_string("kernel");
      if (a_.kernel.empty()) r.fail("kernel", "must not be empty");
    }
    a_.mode = r.get_choice_or("mode", {"timing", "functional"}, "timing") == "timing" ? SimMode::Timing
                                                                                       : SimMode::Functional;
    if (const Json* s = r.raw_opt("solution")) {
      if (!s->is_string() || s->get<std::string>().empty()) fail("solution", "expected a module path (.cu or .ptx)");
      a_.solution = resolve(s->get<std::string>());
      std::string ext = fs::path(a_.solution).extension().string();
      if (ext != ".cu" && ext != ".ptx") fail("solution", fmt::format("{}: expected a .cu or .ptx file", a_.solution));
      bool exists = is_regular_file_noexcept(a_.solution) ||
                    (ext == ".cu" && is_regular_file_noexcept(fs::path(a_.solution).replace_extension(".ptx")));
      if (!exists) fail("solution", fmt::format("no such file: {}", a_.solution));
      if (program && (ext != ".cu" || !is_regular_file_noexcept(a_.solution)))
        fail("solution", fmt::format("{}: a program assignment's solution is a whole program (.cu)", a_.solution));
    }
    if (const Json* h = r.raw_opt("headers")) parse_headers(*h);
    if (r.has("limits")) parse_limits(r.child("limits"));
    parse_configs(r);
    if (program) {
      parse_program(r.child("program"));
      parse_program_correctness(r.child("correctness"));
    } else {
      parse_specs(r);
      parse_correctness(r.child("correctness"));
    }
    if (const Json* c = r.raw_opt("criteria")) parse_criteria(*c);
    r.finish();
    if (a_.needs_reference_measurements() && a_.solution.empty())
      fail("solution", "missing: a within_factor_of_reference criterion needs the reference solution");
    if (a_.max_score() <= 0) fail("correctness.points", "the assignment gives no points at all");
    return std::move(a_);
  }

 private:
  [[noreturn]] void fail(const std::string& key, const std::string& msg) const {
    throw ConfigError(fmt::format("{}: {}: {}", a_.path, key, msg));
  }

  void parse_headers(const Json& h) {
    if (!h.is_array()) fail("headers", "expected an array of header files (.h, .cuh, .hpp)");
    std::set<std::string> names;
    for (size_t i = 0; i < h.size(); ++i) {
      std::string key = fmt::format("headers[{}]", i);
      if (!h[i].is_string() || h[i].get<std::string>().empty()) fail(key, "expected a header file path");
      std::string path = resolve(h[i].get<std::string>());
      std::string ext = fs::path(path).extension().string();
      if (ext != ".h" && ext != ".cuh" && ext != ".hpp") fail(key, fmt::format("{}: expected a .h, .cuh or .hpp file", path));
      if (!is_regular_file_noexcept(path)) fail(key, fmt::format("no such file: {}", path));
      if (!names.insert(fs::path(path).filename().string()).second)
        fail(key, fmt::format("a second header named {}", fs::path(path).filename().string()));
      a_.headers.push_back(path);
    }
  }

  std::string resolve(const std::string& file) const {
    fs::path p(file);
    return (p.is_absolute() ? p : dir_ / p).lexically_normal().string();
  }

  // "c2070" is configs/c2070.json of the source tree; anything with a '/' or ending in
  // .json is a path relative to the assignment.
  std::string resolve_config(const std::string& name, const std::string& key) const {
    bool bare = name.find('/') == std::string::npos && fs::path(name).extension() != ".json";
    std::string path = bare ? (fs::path(WARPSIM_SOURCE_DIR) / "configs" / (name + ".json")).string() : resolve(name);
    if (!is_regular_file_noexcept(path)) {
      if (bare) fail(key, fmt::format("no device config named '{}' ({} does not exist)", name, path));
      fail(key, fmt::format("no such file: {}", path));
    }
    return path;
  }

  void parse_limits(ConfigReader l) {
    GradingLimits& g = a_.limits;
    g.max_cycles = l.get_positive_or("max_cycles", g.max_cycles);
    g.max_warp_instructions = l.get_positive_or("max_warp_instructions", g.max_warp_instructions);
    g.max_device_memory_bytes = l.get_positive_or("max_device_memory_bytes", g.max_device_memory_bytes);
    g.max_host_seconds = l.get_positive_number_or("max_host_seconds", g.max_host_seconds);
    if (l.has("max_wall_seconds")) g.max_wall_seconds = l.get_positive_number("max_wall_seconds");
    if (l.has("max_program_seconds")) g.max_program_seconds = l.get_positive_number("max_program_seconds");
    g.max_address_space_bytes = l.get_uint_or("max_address_space_bytes", g.max_address_space_bytes);
    if (g.max_address_space_bytes && g.max_address_space_bytes < (uint64_t(256) << 20))
      l.fail("max_address_space_bytes", "less than 256 MiB leaves no room for the simulator itself (0: no limit)");
    l.finish();
  }

  void parse_configs(ConfigReader& r) {
    const Json* list = r.raw_opt("configs");
    Json def = Json::array({"c2070"});
    if (!list) list = &def;
    if (!list->is_array() || list->empty()) fail("configs", "expected an array of one or more device configs");
    std::set<std::string> labels;
    for (size_t i = 0; i < list->size(); ++i) {
      std::string key = fmt::format("configs[{}]", i);
      const Json& item = (*list)[i];
      AssignmentConfig c;
      std::string name;
      std::vector<std::string> sets;
      if (item.is_string()) {
        name = item.get<std::string>();
        c.label = name;
      } else if (item.is_object()) {
        ConfigReader cr(item, a_.path, key);
        name = cr.get_string("config");
        if (const Json* s = cr.raw_opt("set")) {
          if (!s->is_array()) cr.fail("set", "expected an array of \"key.path=value\" overrides");
          for (size_t j = 0; j < s->size(); ++j) {
            if (!(*s)[j].is_string()) fail(fmt::format("{}.set[{}]", key, j), "expected \"key.path=value\"");
            sets.push_back((*s)[j].get<std::string>());
          }
        }
        c.label = cr.get_string_or("label", sets.empty() ? name : name + "[" + join(sets, ",") + "]");
        cr.finish();
      } else {
        fail(key, fmt::format("expected a config name or {{\"config\": ..., \"set\": [...]}}, got {}", describe(item)));
      }
      if (!labels.insert(c.label).second) fail(key, fmt::format("config '{}' appears twice (give a distinct \"label\")", c.label));
      std::string path = resolve_config(name, item.is_object() ? key + ".config" : key);
      c.path = path;
      c.sets = sets;
      try {
        c.device = load_device_spec(path, sets);
      } catch (const ConfigError& e) {
        fail(key, e.what());
      }
      a_.configs.push_back(std::move(c));
    }
  }

  void parse_specs(ConfigReader& r) {
    const Json& list = r.raw("specs");
    if (!list.is_array() || list.empty()) fail("specs", "expected an array of one or more launch specs");
    std::set<std::string> labels;
    for (size_t i = 0; i < list.size(); ++i) {
      std::string key = fmt::format("specs[{}]", i);
      const Json& item = list[i];
      std::string file, label;
      std::map<std::string, int64_t> vars;
      if (item.is_string()) {
        file = label = item.get<std::string>();
      } else if (item.is_object()) {
        ConfigReader sr(item, a_.path, key);
        file = sr.get_string("spec");
        std::string suffix;
        if (const Json* v = sr.raw_opt("vars")) {
          if (!v->is_object()) sr.fail("vars", "expected an object of integer variables");
          for (const auto& [name, value] : v->items()) {
            if (!value.is_number_integer()) fail(key + ".vars." + name, fmt::format("expected an integer, got {}", describe(value)));
            vars[name] = value.get<int64_t>();
            suffix += fmt::format("{}{}={}", suffix.empty() ? "" : ",", name, vars[name]);
          }
        }
        label = sr.get_string_or("label", suffix.empty() ? file : file + "[" + suffix + "]");
        sr.finish();
      } else {
        fail(key, fmt::format("expected a spec path or {{\"spec\": ..., \"vars\": {{...}}}}, got {}", describe(item)));
      }
      if (!labels.insert(label).second) fail(key, fmt::format("spec '{}' appears twice (give a distinct \"label\")", label));
      AssignmentSpec s;
      s.label = label;
      std::string path = resolve(file);
      if (!is_regular_file_noexcept(path)) fail(item.is_object() ? key + ".spec" : key, fmt::format("no such file: {}", path));
      try {
        s.spec = load_launch_spec(path, vars);
      } catch (const ConfigError& e) {
        fail(key, e.what());
      }
      s.spec.kernel = a_.kernel;
      uint64_t bytes = 0;
      for (const auto& b : s.spec.buffers) bytes += b.count * elem_size(b.type);
      if (bytes > a_.limits.max_device_memory_bytes)
        fail(key, fmt::format("its buffers take {} bytes, more than limits.max_device_memory_bytes ({})", bytes,
                              a_.limits.max_device_memory_bytes));
      a_.specs.push_back(std::move(s));
    }
  }

  std::string existing_file(const std::string& file, const std::string& key) const {
    if (file.empty()) fail(key, "expected a file path");
    std::string path = resolve(file);
    if (!is_regular_file_noexcept(path)) fail(key, fmt::format("no such file: {}", path));
    return path;
  }

  void parse_program(ConfigReader p) {
    ProgramSpec g;
    if (const Json* args = p.raw_opt("args")) {
      if (!args->is_array()) p.fail("args", "expected an array of strings (the program's arguments)");
      for (size_t i = 0; i < args->size(); ++i) {
        if (!(*args)[i].is_string()) fail(fmt::format("program.args[{}]", i), "expected a string");
        g.args.push_back((*args)[i].get<std::string>());
      }
    }
    if (p.has("stdin")) g.stdin_file = existing_file(p.get_string("stdin"), "program.stdin");
    if (p.has("expected_stdout")) g.expected_stdout = existing_file(p.get_string("expected_stdout"), "program.expected_stdout");
    if (const Json* files = p.raw_opt("files")) {
      if (!files->is_array() || files->empty()) p.fail("files", "expected an array of {\"file\": ..., \"expected\": ...}");
      for (size_t i = 0; i < files->size(); ++i) {
        std::string key = fmt::format("program.files[{}]", i);
        if (!(*files)[i].is_object()) fail(key, "expected {\"file\": NAME, \"expected\": PATH}");
        ConfigReader f((*files)[i], a_.path, key);
        ExpectedFile e;
        e.file = f.get_string("file");
        fs::path rel(e.file);
        if (e.file.empty() || rel.is_absolute() || std::any_of(rel.begin(), rel.end(), [](const fs::path& c) { return c == ".."; }))
          f.fail("file", "a file name relative to the program's run folder, without \"..\"");
        if (f.has("expected")) e.expected = existing_file(f.get_string("expected"), key + ".expected");
        f.finish();
        g.files.push_back(std::move(e));
      }
    }
    if (p.has("tolerance")) {
      g.tolerance = p.get_number("tolerance");
      if (g.tolerance < 0) p.fail("tolerance", "must not be negative");
    }
    p.finish();
    a_.program = std::move(g);
  }

  void parse_program_correctness(ConfigReader c) {
    Correctness& k = a_.correctness;
    k.points = c.get_number("points");
    if (k.points < 0) c.fail("points", "must not be negative");
    k.against = c.get_choice_or("against", {"expected", "solution"}, "expected") == "expected"
                    ? Correctness::Against::Expected
                    : Correctness::Against::Solution;
    for (const char* key : {"outputs", "tolerance"})
      if (c.has(key)) c.fail(key, "not in a program assignment (program.files and program.tolerance say what is compared)");
    c.finish();
    const ProgramSpec& g = *a_.program;
    if (k.against == Correctness::Against::Solution) {
      if (a_.solution.empty()) fail("correctness.against", "\"solution\" needs the assignment's \"solution\" program");
      return;
    }
    if (g.expected_stdout.empty() && g.files.empty())
      fail("program", "nothing to check: give expected_stdout or files, or grade with correctness.against \"solution\"");
    for (size_t i = 0; i < g.files.size(); ++i)
      if (g.files[i].expected.empty())
        fail(fmt::format("program.files[{}].expected", i), "missing (needed unless correctness.against is \"solution\")");
  }

  void parse_correctness(ConfigReader c) {
    Correctness& k = a_.correctness;
    k.points = c.get_number("points");
    if (k.points < 0) c.fail("points", "must not be negative");
    k.against = c.get_choice_or("against", {"spec", "solution"}, "spec") == "spec" ? Correctness::Against::Spec
                                                                                   : Correctness::Against::Solution;
    if (k.against == Correctness::Against::Spec) {
      for (const char* key : {"outputs", "tolerance"})
        if (c.has(key)) c.fail(key, "only with \"against\": \"solution\" (the spec's own check has its outputs and tolerance)");
      for (size_t i = 0; i < a_.specs.size(); ++i)
        if (!a_.specs[i].spec.check.present)
          fail(fmt::format("specs[{}]", i), fmt::format("{} has no \"check\"; give it one or grade with "
                                                        "correctness.against \"solution\"", a_.specs[i].spec.path));
      c.finish();
      return;
    }
    if (a_.solution.empty()) c.fail("against", "\"solution\" needs the assignment's \"solution\" module");
    if (const Json* o = c.raw_opt("outputs")) {
      if (!o->is_array() || o->empty()) c.fail("outputs", "expected an array of one or more buffer names");
      for (size_t i = 0; i < o->size(); ++i) {
        if (!(*o)[i].is_string()) fail(fmt::format("correctness.outputs[{}]", i), "expected a buffer name");
        k.outputs.push_back((*o)[i].get<std::string>());
      }
    }
    bool has_tolerance = c.has("tolerance");
    if (has_tolerance) {
      k.tolerance = c.get_number("tolerance");
      if (k.tolerance < 0) c.fail("tolerance", "must not be negative");
    }
    c.finish();
    // Each spec's check becomes "compare these buffers with the solution's".
    for (size_t i = 0; i < a_.specs.size(); ++i) {
      CheckSpec& check = a_.specs[i].spec.check;
      std::vector<std::string> outputs = k.outputs.empty() ? check.outputs : k.outputs;
      if (outputs.empty())
        fail("correctness.outputs", fmt::format("missing: {} has no check naming its outputs", a_.specs[i].spec.path));
      for (size_t j = 0; j < outputs.size(); ++j)
        if (!a_.specs[i].spec.find_buffer(outputs[j]))
          fail(k.outputs.empty() ? fmt::format("specs[{}]", i) : fmt::format("correctness.outputs[{}]", j),
               fmt::format("'{}' is not a buffer of {}", outputs[j], a_.specs[i].spec.path));
      double tolerance = has_tolerance ? k.tolerance : (check.present ? check.tolerance : 0);
      check = CheckSpec{};
      check.present = true;
      check.outputs = outputs;
      check.tolerance = tolerance;
    }
  }

  Where parse_where(const Json& v, const std::string& key) const {
    if (!v.is_object() || v.size() != 1)
      fail(key, "expected an object with exactly one of source_lines, region, ptx_text");
    ConfigReader w(v, a_.path, key);
    Where out;
    if (w.has("source_lines")) {
      const Json& l = w.raw("source_lines");
      if (!l.is_array() || l.size() != 2 || !l[0].is_number_unsigned() || !l[1].is_number_unsigned() ||
          l[0].get<uint64_t>() < 1 || l[0].get<uint64_t>() > l[1].get<uint64_t>() || l[1].get<uint64_t>() > UINT32_MAX)
        w.fail("source_lines", fmt::format("expected [FIRST, LAST] with 1 <= FIRST <= LAST, got {}", describe(l)));
      out.kind = Where::Kind::SourceLines;
      out.first_line = l[0].get<uint32_t>();
      out.last_line = l[1].get<uint32_t>();
    } else if (w.has("region")) {
      out.kind = Where::Kind::Region;
      out.region = w.get_string("region");
      // Checked by hand: std::regex recurses once per character (a long name overflowed the
      // stack under fuzzing, docs/fuzzing.md).
      auto ident = [](const std::string& r) {
        if (r.empty() || r.size() > kMaxRegionName || !(std::isalpha(uint8_t(r[0])) || r[0] == '_')) return false;
        for (char ch : r)
          if (!(std::isalnum(uint8_t(ch)) || ch == '_' || ch == '.' || ch == '-')) return false;
        return true;
      };
      if (!ident(out.region))
        w.fail("region", fmt::format("a region name is letters, digits, '_', '.', '-', at most {} characters",
                                     kMaxRegionName));
    } else if (w.has("ptx_text")) {
      out.kind = Where::Kind::PtxText;
      out.ptx_pattern = w.get_string("ptx_text");
      // std::regex compiles and matches recursively: a bounded pattern keeps the stack bounded.
      if (out.ptx_pattern.size() > kMaxPtxPattern)
        w.fail("ptx_text", fmt::format("a pattern of {} characters; at most {}", out.ptx_pattern.size(), kMaxPtxPattern));
      try {
        std::regex re(out.ptx_pattern);
      } catch (const std::regex_error& e) {
        w.fail("ptx_text", fmt::format("not a valid regular expression: {}", e.what()));
      }
    }
    w.finish();
    return out;
  }

  std::vector<std::string> parse_labels(const Json& v, const std::string& key, const std::vector<std::string>& known) {
    if (!v.is_array() || v.empty()) fail(key, "expected an array of one or more labels");
    std::vector<std::string> out;
    for (size_t i = 0; i < v.size(); ++i) {
      std::string k = fmt::format("{}[{}]", key, i);
      if (!v[i].is_string()) fail(k, "expected a label");
      std::string s = v[i].get<std::string>();
      if (std::find(known.begin(), known.end(), s) == known.end())
        fail(k, fmt::format("'{}' is none of the assignment's ({})", s, join(known)));
      out.push_back(s);
    }
    return out;
  }

  void parse_criteria(const Json& list) {
    if (!list.is_array()) fail("criteria", "expected an array of criteria");
    std::vector<std::string> known = metric_names(SimMode::Timing), available = metric_names(a_.mode);
    std::vector<std::string> spec_labels, config_labels;
    for (const auto& s : a_.specs) spec_labels.push_back(s.label);
    for (const auto& c : a_.configs) config_labels.push_back(c.label);
    std::set<std::string> names;
    for (size_t i = 0; i < list.size(); ++i) {
      std::string key = fmt::format("criteria[{}]", i);
      if (!list[i].is_object()) fail(key, fmt::format("expected an object, got {}", describe(list[i])));
      ConfigReader c(list[i], a_.path, key);
      Criterion k;
      k.name = c.get_string("name");
      if (k.name.empty() || k.name == "correctness" || k.name.find_first_of(",\"\n") != std::string::npos)
        c.fail("name", "a criterion needs a name other than \"correctness\", without commas, quotes or newlines");
      if (!names.insert(k.name).second) c.fail("name", fmt::format("'{}' names two criteria", k.name));
      k.description = c.get_string_or("description", "");
      k.metric = c.get_string("metric");
      if (std::find(known.begin(), known.end(), k.metric) == known.end())
        c.fail("metric", fmt::format("unknown metric '{}' (valid: {})", k.metric, join(known)));
      if (std::find(available.begin(), available.end(), k.metric) == available.end())
        c.fail("metric", fmt::format("'{}' is measured in timing mode only; the assignment's mode is functional", k.metric));
      std::string op = c.get_choice("op", {"==", "!=", "<", "<=", ">", ">=", "within_factor_of_reference"});
      static const std::map<std::string, CompareOp> ops = {
          {"==", CompareOp::Eq}, {"!=", CompareOp::Ne}, {"<", CompareOp::Lt},
          {"<=", CompareOp::Le}, {">", CompareOp::Gt}, {">=", CompareOp::Ge},
          {"within_factor_of_reference", CompareOp::WithinFactorOfReference}};
      k.op = ops.at(op);
      k.value = c.get_number("value");
      if (k.op == CompareOp::WithinFactorOfReference) {
        if (k.value <= 0) c.fail("value", "the factor must be positive");
        k.higher_is_better = c.get_choice_or("better", {"lower", "higher"}, "lower") == "higher";
      } else if (c.has("better")) {
        c.fail("better", "only with \"op\": \"within_factor_of_reference\"");
      }
      k.points = c.get_number("points");
      if (k.points < 0) c.fail("points", "must not be negative");
      if (const Json* w = c.raw_opt("where")) {
        k.where = parse_where(*w, key + ".where");
        const auto& scoped = scoped_metric_names();
        if (std::find(scoped.begin(), scoped.end(), k.metric) == scoped.end())
          c.fail("where", fmt::format("'{}' is not counted per instruction; a \"where\" takes one of: {}", k.metric,
                                      join(scoped)));
      }
      if (a_.program) {
        for (const char* only_kernel : {"where", "specs"})
          if (c.has(only_kernel)) c.fail(only_kernel, "not in a program assignment (criteria pick launches by \"kernel\")");
        k.over_launches = true;
        k.kernel = c.get_string_or("kernel", "");
        static const std::map<std::string, Aggregate> aggs = {
            {"max", Aggregate::Max}, {"min", Aggregate::Min}, {"sum", Aggregate::Sum}, {"mean", Aggregate::Mean}};
        k.aggregate = aggs.at(c.get_choice_or("aggregate", {"max", "min", "sum", "mean"}, "max"));
      } else {
        for (const char* only_program : {"kernel", "aggregate"})
          if (c.has(only_program)) c.fail(only_program, "only in a program assignment");
      }
      if (const Json* s = c.raw_opt("specs")) k.specs = parse_labels(*s, key + ".specs", spec_labels);
      if (const Json* s = c.raw_opt("configs")) k.configs = parse_labels(*s, key + ".configs", config_labels);
      c.finish();
      a_.criteria.push_back(std::move(k));
    }
  }

  const Json& doc_;
  fs::path dir_;
  Assignment a_;
};

}  // namespace

const char* aggregate_name(Aggregate a) {
  switch (a) {
    case Aggregate::Max: return "max";
    case Aggregate::Min: return "min";
    case Aggregate::Sum: return "sum";
    case Aggregate::Mean: return "mean";
  }
  return "?";
}

const char* op_name(CompareOp op) {
  switch (op) {
    case CompareOp::Eq: return "==";
    case CompareOp::Ne: return "!=";
    case CompareOp::Lt: return "<";
    case CompareOp::Le: return "<=";
    case CompareOp::Gt: return ">";
    case CompareOp::Ge: return ">=";
    case CompareOp::WithinFactorOfReference: return "within_factor_of_reference";
  }
  return "?";
}

std::string Where::describe() const {
  switch (kind) {
    case Kind::All: return "";
    case Kind::SourceLines:
      return first_line == last_line ? fmt::format("source line {}", first_line)
                                     : fmt::format("source lines {}-{}", first_line, last_line);
    case Kind::Region: return fmt::format("region '{}'", region);
    case Kind::PtxText: return fmt::format("PTX matching /{}/", ptx_pattern);
  }
  return "";
}

bool Criterion::applies_to(const std::string& spec_label, const std::string& config_label) const {
  auto in = [](const std::vector<std::string>& v, const std::string& s) {
    return v.empty() || std::find(v.begin(), v.end(), s) != v.end();
  };
  return in(specs, spec_label) && in(configs, config_label);
}

std::string Criterion::requirement() const {
  std::string scope = where.kind == Where::Kind::All ? "" : " in " + where.describe();
  if (over_launches)
    scope = fmt::format(" ({} over {})", aggregate_name(aggregate),
                        kernel.empty() ? std::string("all launches") : "the launches of " + kernel);
  if (op == CompareOp::WithinFactorOfReference)
    return fmt::format("{}{} {} {:g} x reference", metric, scope, higher_is_better ? ">=" : "<=",
                       higher_is_better ? 1.0 / value : value);
  return fmt::format("{}{} {} {:g}", metric, scope, op_name(op), value);
}

double Assignment::max_score() const {
  double s = correctness.points;
  for (const auto& c : criteria) s += c.points;
  return s;
}

double Assignment::program_seconds() const {
  return limits.max_program_seconds > 0 ? limits.max_program_seconds : 2 * limits.max_host_seconds;
}

double Assignment::wall_seconds() const {
  if (limits.max_wall_seconds > 0) return limits.max_wall_seconds;
  if (program)  // compiling (twice with a solution to run), then each run of the program
    return 60 + program_seconds() * static_cast<double>(runs()) *
                    (correctness.against == Correctness::Against::Solution ? 2 : 1);
  double per_run = 2 * limits.max_host_seconds * (correctness.against == Correctness::Against::Solution ? 2 : 1);
  return 30 + per_run * static_cast<double>(runs());
}

bool Assignment::needs_reference_measurements() const {
  for (const auto& c : criteria)
    if (c.op == CompareOp::WithinFactorOfReference) return true;
  return false;
}

std::vector<std::string> Assignment::part_names() const {
  std::vector<std::string> out = {"correctness"};
  for (const auto& c : criteria) out.push_back(c.name);
  return out;
}

std::vector<std::string> metric_names(SimMode mode) {
  LaunchStats s;
  s.mem_valid = true;
  s.mem.has_l1 = s.mem.has_l2 = true;
  s.timing.valid = s.dram.valid = mode == SimMode::Timing;
  return names_of(s);
}

const std::vector<std::string>& scoped_metric_names() {
  static const std::vector<std::string> names = {
      "inst_executed", "thread_inst_executed", "warp_execution_efficiency", "branch", "divergent_branch",
      "branch_efficiency", "gld_requests", "gst_requests", "gld_transactions", "gst_transactions",
      "gld_transactions_per_request", "gst_transactions_per_request", "shared_load_requests",
      "shared_store_requests", "shared_load_transactions", "shared_store_transactions",
      "shared_load_transactions_per_request", "shared_store_transactions_per_request"};
  return names;
}

Assignment load_assignment(const std::string& path) { return parse_assignment(load_json_file(path), path); }

Assignment parse_assignment(const Json& doc, const std::string& path) { return AssignmentParser(doc, path).parse(); }

}  // namespace warpsim::grading
