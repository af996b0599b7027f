// The include check of submitted .cu files (see grading_includes.hpp).
#include "sim/grading/includes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <string_view>

namespace warpsim::grading {
namespace {

namespace fs = std::filesystem;

// The C++ standard library's headers and the C headers a kernel file plausibly uses; they
// come from the host compiler's own folders.
const std::set<std::string, std::less<>>& standard_headers() {
  static const std::set<std::string, std::less<>> names = {
      "algorithm", "array", "atomic", "bit", "bitset", "cassert", "cctype", "cerrno", "cfloat", "chrono",
      "cinttypes", "climits", "cmath", "complex", "cstddef", "cstdint", "cstdio", "cstdlib", "cstring", "ctime",
      "functional", "initializer_list", "iomanip", "iostream", "iterator", "limits", "memory", "new", "numeric",
      "ostream", "random", "ratio", "sstream", "string", "string_view", "tuple", "type_traits", "utility",
      "vector", "assert.h", "ctype.h", "errno.h", "float.h", "inttypes.h", "limits.h", "math.h", "stdbool.h",
      "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h", "time.h"};
  return names;
}

struct Line {
  size_t number;     // physical line where the logical line starts (1-based)
  std::string text;  // backslash-newline continuations joined
};

// Lines after translation phase 2 (backslash-newline joins lines). Comments are left in:
// the scan below must not depend on getting comment and literal boundaries right.
std::vector<Line> spliced_lines(const std::string& src) {
  std::vector<Line> out;
  Line cur{1, {}};
  size_t physical = 1;
  for (size_t i = 0; i < src.size(); ++i) {
    char c = src[i];
    if (c == '\\' && i + 1 < src.size() &&
        (src[i + 1] == '\n' || (src[i + 1] == '\r' && i + 2 < src.size() && src[i + 2] == '\n'))) {
      i += src[i + 1] == '\r' ? 2 : 1;
      ++physical;
      continue;
    }
    if (c == '\n') {
      out.push_back(std::move(cur));
      cur = Line{++physical, {}};
      continue;
    }
    cur.text += c;
  }
  out.push_back(std::move(cur));
  return out;
}

std::string_view trim_left(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  return s;
}

std::string_view trim(std::string_view s) {
  s = trim_left(s);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Why `name` may not be included ("" when it may).
std::string refusal(const std::string& name, bool quoted, const IncludePolicy& policy) {
  if (name.empty()) return "an empty file name";
  if (name.front() == '/' || name.find('\\') != std::string::npos || name.find(':') != std::string::npos)
    return "only relative header names are allowed";
  for (const auto& part : fs::path(name))
    if (part == "..") return "\"..\" is not allowed in a header name";
  if (quoted && name.find('/') == std::string::npos)
    for (const auto& h : policy.assignment_headers)
      if (h == name) return "";
  if (standard_headers().count(name)) return "";
  std::error_code ec;
  if (!policy.toolkit_include_dir.empty() && fs::is_regular_file(fs::path(policy.toolkit_include_dir) / name, ec))
    return "";
  std::string own = "none";
  if (!policy.assignment_headers.empty()) {
    own.clear();
    for (const auto& h : policy.assignment_headers) own += (own.empty() ? "" : ", ") + h;
  }
  return fmt::format("a submission may include only the CUDA toolkit's headers, the C/C++ standard library's "
                     "and the assignment's own ({})",
                     own);
}

}  // namespace

std::string toolkit_include_dir(const std::string& nvcc) {
  if (nvcc.empty()) return "";
  std::error_code ec;
  fs::path dir = fs::path(nvcc).parent_path().parent_path() / "include";
  fs::path canon = fs::canonical(dir, ec);
  if (ec || !fs::is_directory(canon, ec)) return "";
  return canon.string();
}

namespace {

// Skips white space and block comments closed on this line. `unclosed` is set when a block
// comment starts but does not end on the line (the directive would go on past it).
std::string_view skip_blank(std::string_view s, bool* unclosed) {
  while (true) {
    s = trim_left(s);
    if (!s.starts_with("/*")) return s;
    size_t end = s.find("*/", 2);
    if (end == std::string_view::npos) {
      *unclosed = true;
      return {};
    }
    s.remove_prefix(end + 2);
  }
}

// The message for one directive candidate starting at `s` (just after a line start or a
// "*/"); "" when it is no include directive or an allowed one.
std::string check_directive(std::string_view s, size_t line, const std::string& file_name,
                            const IncludePolicy& policy) {
  bool unclosed = false;
  s = skip_blank(s, &unclosed);
  if (s.starts_with("#")) {
    s.remove_prefix(1);
  } else if (s.starts_with("%:") || s.starts_with("?\?=")) {  // digraph, trigraph
    s.remove_prefix(s[0] == '%' ? 2 : 3);
  } else {
    return "";
  }
  std::string_view after_hash = s;
  s = skip_blank(s, &unclosed);
  auto refuse = [&](std::string_view shown_text, const std::string& why) {
    std::string shown = fmt::format("#{}", trim(shown_text));
    if (shown.size() > 80) shown = shown.substr(0, 77) + "...";
    return fmt::format("{}:{}: {} is not allowed: {}", file_name, line, shown, why);
  };
  if (unclosed) return refuse(after_hash, "a comment that goes on past the line inside a directive");
  size_t n = 0;
  while (n < s.size() && (std::isalnum(static_cast<unsigned char>(s[n])) || s[n] == '_')) ++n;
  std::string_view directive = s.substr(0, n);
  if (directive != "include" && directive != "include_next" && directive != "import" && directive != "embed")
    return "";
  if (directive != "include") return refuse(s, fmt::format("#{} is not supported in submissions", directive));
  std::string_view rest = trim(skip_blank(s.substr(n), &unclosed));
  if (unclosed) return refuse(s, "a comment that goes on past the line inside a directive");
  if (rest.empty()) return refuse(s, "no file name");
  char open = rest.front();
  if (open != '<' && open != '"')
    return refuse(s, "the file name must be written out as <name> or \"name\", not come from a macro");
  size_t close = rest.find(open == '<' ? '>' : '"', 1);
  if (close == std::string_view::npos) return refuse(s, "the file name is not closed");
  bool tail_unclosed = false;
  if (!skip_blank(rest.substr(close + 1), &tail_unclosed).empty() && !rest.substr(close + 1).starts_with("//"))
    return refuse(s, "text after the file name");
  std::string why = refusal(std::string(rest.substr(1, close - 1)), open == '"', policy);
  return why.empty() ? "" : refuse(s, why);
}

}  // namespace

// Every place where the preprocessor could see a directive is checked: the start of each
// line and the end of every block comment ("/* ...\n */ #include" is a directive too).
// Comments and string literals are not tracked, so a line in a comment that looks like a
// refused include is refused as well: stricter than the compiler, never looser.
std::string check_includes(const std::string& source, const std::string& file_name, const IncludePolicy& policy) {
  for (const Line& line : spliced_lines(source)) {
    std::string_view text = line.text;
    std::string m = check_directive(text, line.number, file_name, policy);
    for (size_t at = text.find("*/"); m.empty() && at != std::string_view::npos; at = text.find("*/", at + 2))
      m = check_directive(text.substr(at + 2), line.number, file_name, policy);
    if (!m.empty()) return m;
  }
  return "";
}

}  // namespace warpsim::grading
