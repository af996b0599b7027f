// Running a whole-program submission under warpsim's CUDA runtime and reading what it did.
#include "sim/grading/program.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "sim/foundation/error.hpp"
#include "sim/foundation/sanitizers.hpp"

extern char** environ;

namespace warpsim::grading {
namespace {

namespace fs = std::filesystem;

std::string read_head(const fs::path& p, uint64_t max_bytes, bool* truncated) {
  std::ifstream in(p, std::ios::binary);
  std::string out(max_bytes + 1, '\0');
  in.read(out.data(), static_cast<std::streamsize>(out.size()));
  out.resize(static_cast<size_t>(in.gcount()));
  if (truncated) *truncated = out.size() > max_bytes;
  if (out.size() > max_bytes) out.resize(max_bytes);
  return out;
}

// The last `lines` lines of a file, at most 4 KiB.
std::string read_tail(const fs::path& p, size_t lines) {
  std::error_code ec;
  const uint64_t size = fs::file_size(p, ec);
  if (ec) return "";
  constexpr uint64_t kMax = 4096;
  std::ifstream in(p, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(size > kMax ? size - kMax : 0));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && text.back() == '\n') text.pop_back();
  size_t at = text.size();
  for (size_t n = 0; n < lines && at != std::string::npos && at > 0; ++n) at = text.rfind('\n', at - 1);
  return at == std::string::npos || at == 0 ? text : text.substr(at + 1);
}

std::string demangled_base(const std::string& demangled) {
  // "reduce(int const*, int*)" -> "reduce"; "void ns::k<int>(int)" has no return type here.
  int depth = 0;
  for (size_t i = 0; i < demangled.size(); ++i) {
    if (demangled[i] == '<') ++depth;
    else if (demangled[i] == '>') --depth;
    else if (demangled[i] == '(' && depth == 0) return demangled.substr(0, i);
  }
  return demangled;
}

std::vector<std::string> environment(const ProgramRun& r, const std::string& json_path) {
  std::vector<std::string> env;
  auto keep = [](const std::string& kv) {
    return !kv.starts_with("WARPSIM_") && !kv.starts_with("LD_PRELOAD=") && !kv.starts_with("LD_LIBRARY_PATH=") &&
           !kv.starts_with("ASAN_OPTIONS=");
  };
  std::string old_ld, old_asan;
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    if (kv.starts_with("LD_LIBRARY_PATH=")) old_ld = kv.substr(16);
    if (kv.starts_with("ASAN_OPTIONS=")) old_asan = kv.substr(13);
    if (keep(kv)) env.push_back(std::move(kv));
  }
  std::string sets;
  for (const auto& s : r.sets) sets += (sets.empty() ? "" : ";") + s;
  env.push_back("LD_LIBRARY_PATH=" + r.cudart_dir + (old_ld.empty() ? "" : ":" + old_ld));
  env.push_back("LD_PRELOAD=" + preload_list(r.cudart_dir + "/libcudart.so.13", ""));
  if (kAddressSanitizer) env.push_back("ASAN_OPTIONS=" + child_asan_options(old_asan));
  env.push_back("WARPSIM_CONFIG=" + r.config_path);
  env.push_back("WARPSIM_SET=" + sets);
  env.push_back(std::string("WARPSIM_MODE=") + (r.mode == SimMode::Timing ? "timing" : "functional"));
  env.push_back("WARPSIM_JSON=" + json_path);
  env.push_back("WARPSIM_SUMMARY=0");
  env.push_back("WARPSIM_BY_LINE=0");
  env.push_back(fmt::format("WARPSIM_MAX_INSTRUCTIONS={}", r.limits.max_warp_instructions));
  env.push_back(fmt::format("WARPSIM_MAX_CYCLES={}", r.limits.max_cycles));
  env.push_back(fmt::format("WARPSIM_MAX_SECONDS={}", r.limits.max_host_seconds));
  env.push_back("WARPSIM_PROGRAM=" + fs::path(r.program).filename().string());
  return env;
}

bool parse_number(const std::string& token, double* v) {
  if (token.empty()) return false;
  char* end = nullptr;
  errno = 0;
  *v = std::strtod(token.c_str(), &end);
  return end == token.c_str() + token.size() && errno == 0;
}

struct Token {
  std::string text;
  size_t line;
};

std::vector<Token> tokens(const std::string& text) {
  std::vector<Token> out;
  size_t line = 1;
  std::string cur;
  for (char ch : text) {
    if (std::isspace(static_cast<unsigned char>(ch))) {
      if (!cur.empty()) out.push_back({std::move(cur), line}), cur.clear();
      if (ch == '\n') ++line;
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back({std::move(cur), line});
  return out;
}

std::string shorten(const std::string& s) { return s.size() > 40 ? s.substr(0, 37) + "..." : s; }

}  // namespace

ProgramOutcome run_program(const ProgramRun& r) {
  std::error_code ec;
  fs::remove_all(r.run_dir, ec);
  fs::create_directories(r.run_dir);
  const fs::path io = fs::path(r.run_dir).parent_path();
  const fs::path out_path = io / "program.stdout", err_path = io / "program.stderr", json_path = io / "warpsim.json";
  fs::remove(json_path, ec);
  const std::vector<std::string> env = environment(r, json_path.string());
  std::vector<char*> envp, argv;
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  std::vector<std::string> args = {r.program};
  if (r.spec)
    for (const auto& a : r.spec->args) args.push_back(a);
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::string stdin_path = r.spec && !r.spec->stdin_file.empty() ? r.spec->stdin_file : "/dev/null";

  const pid_t pid = fork();
  if (pid < 0) throw Error(fmt::format("cannot start {}: {}", r.program, std::strerror(errno)));
  if (pid == 0) {  // only async-signal-safe calls from here to exec
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (chdir(r.run_dir.c_str()) != 0) _exit(126);
    int in = open(stdin_path.c_str(), O_RDONLY);
    int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || out < 0 || err < 0) _exit(126);
    dup2(in, 0), dup2(out, 1), dup2(err, 2);
    struct rlimit fsize = {r.max_file_bytes, r.max_file_bytes};
    setrlimit(RLIMIT_FSIZE, &fsize);
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_CORE, &core);
    if (r.max_address_space_bytes && !kAddressSanitizer) {  // (foundation/sanitizers.hpp)
      struct rlimit as = {r.max_address_space_bytes, r.max_address_space_bytes};
      setrlimit(RLIMIT_AS, &as);
    }
    signal(SIGXFSZ, SIG_DFL);
    execve(r.program.c_str(), argv.data(), envp.data());
    _exit(127);
  }

  ProgramOutcome o;
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(r.wall_seconds);
  for (;;) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) throw Error(fmt::format("waiting for {}: {}", r.program, std::strerror(errno)));
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      o.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(-pid, SIGKILL);  // anything it left behind in its group
  if (WIFEXITED(status)) o.exit_status = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
  if (o.exit_status == 127 || o.exit_status == 126) {
    // Could be the program's own status; say so only when it never ran.
    if (!fs::exists(out_path)) throw Error(fmt::format("cannot run {}", r.program));
  }
  o.stdout_text = read_head(out_path, r.max_output_bytes, &o.stdout_truncated);
  o.stderr_tail = read_tail(err_path, 12);
  if (fs::exists(json_path)) {
    try {
      std::ifstream in(json_path);
      o.report = Json::parse(in);
    } catch (const std::exception&) {
      o.report.reset();  // cut short (the program was killed while it was written)
    }
  }
  return o;
}

std::string compare_output(const std::string& got, const std::string& want, double tolerance) {
  const std::vector<Token> g = tokens(got), w = tokens(want);
  for (size_t i = 0; i < std::min(g.size(), w.size()); ++i) {
    if (g[i].text == w[i].text) continue;
    double a, b;
    if (parse_number(g[i].text, &a) && parse_number(w[i].text, &b) && std::isfinite(a) && std::isfinite(b) &&
        std::fabs(a - b) <= tolerance * std::max(1.0, std::fabs(b)))
      continue;
    return fmt::format("line {}: got '{}', want '{}'", g[i].line, shorten(g[i].text), shorten(w[i].text));
  }
  if (g.size() < w.size())
    return fmt::format("the output ends{}; expected more: '{}' (line {})",
                       g.empty() ? " before anything" : fmt::format(" after line {}", g.back().line),
                       shorten(w[g.size()].text), w[g.size()].line);
  if (g.size() > w.size())
    return fmt::format("line {}: unexpected '{}' after the expected output", g[w.size()].line, shorten(g[w.size()].text));
  return "";
}

bool kernel_matches(const std::string& name, const std::string& mangled, const std::string& demangled) {
  return name == mangled || name == demangled || name == demangled_base(demangled);
}

std::optional<double> program_metric(const Json& report, const Criterion& c, std::string* note) {
  std::vector<double> values;
  bool kernel_seen = false;
  if (report.contains("launches"))
    for (const Json& l : report["launches"]) {
      const std::string mangled = l.value("kernel", ""), demangled = l.value("kernel_demangled", mangled);
      if (!c.kernel.empty() && !kernel_matches(c.kernel, mangled, demangled)) continue;
      kernel_seen = true;
      if (l.contains("metrics") && l["metrics"].contains(c.metric) && l["metrics"][c.metric].is_number())
        values.push_back(l["metrics"][c.metric].get<double>());
    }
  if (values.empty()) {
    if (note)
      *note = !kernel_seen ? (c.kernel.empty() ? std::string("the program launched no kernel")
                                               : fmt::format("the program never launched kernel '{}'", c.kernel))
                           : fmt::format("'{}' was not measured on its launches", c.metric);
    return std::nullopt;
  }
  double v = values.front();
  switch (c.aggregate) {
    case Aggregate::Max: for (double x : values) v = std::max(v, x); break;
    case Aggregate::Min: for (double x : values) v = std::min(v, x); break;
    case Aggregate::Sum:
    case Aggregate::Mean:
      v = 0;
      for (double x : values) v += x;
      if (c.aggregate == Aggregate::Mean) v /= double(values.size());
      break;
  }
  return v;
}

}  // namespace warpsim::grading
