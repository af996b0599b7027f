// A child process per submission: fork + exec with resource limits, a wall-clock kill, and
// every way the child can end turned into a report.
#include "sim/grading/isolation.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "sim/foundation/error.hpp"
#include "sim/foundation/sanitizers.hpp"
#include "sim/grading/compile.hpp"

namespace warpsim::grading {
namespace {

namespace fs = std::filesystem;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string tail(const std::string& text, size_t max_chars) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  if (t.size() <= max_chars) return t;
  size_t from = t.find('\n', t.size() - max_chars);
  return "..." + t.substr(from == std::string::npos ? t.size() - max_chars : from);
}

// In the child, between fork and exec: only async-signal-safe calls.
[[noreturn]] void exec_child(char* const* argv, int out_fd, int null_fd, pid_t parent, rlim_t as_bytes, rlim_t cpu_s) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(126);  // the grader died before prctl
  struct rlimit core = {0, 0};
  setrlimit(RLIMIT_CORE, &core);
  if (as_bytes && !kAddressSanitizer) {  // (foundation/sanitizers.hpp)
    struct rlimit as = {as_bytes, as_bytes};
    setrlimit(RLIMIT_AS, &as);
  }
  struct rlimit cpu = {cpu_s, cpu_s + 2};
  setrlimit(RLIMIT_CPU, &cpu);
  dup2(null_fd, 0);
  dup2(out_fd, 1);
  dup2(out_fd, 2);
  execv(argv[0], argv);
  static const char msg[] = "warpsim grade: cannot execute the grading child\n";
  ssize_t ignored = write(2, msg, sizeof msg - 1);
  (void)ignored;
  _exit(127);
}

}  // namespace

std::vector<std::string> child_arguments(const IsolationOptions& o, const Submission& s, const std::string& report) {
  std::vector<std::string> args = {"grade", o.assignment_path, s.path, "--one", report, "--name", s.name};
  args.insert(args.end(), o.extra_args.begin(), o.extra_args.end());
  return args;
}

void write_stage(const std::string& report_path, const std::string& stage) {
  std::ofstream(report_path + ".stage", std::ios::trunc) << stage;
}

void write_report(const std::string& report_path, const SubmissionReport& report) {
  std::string tmp = report_path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << report_to_json(report).dump() << "\n";
    if (!out) throw Error(fmt::format("{}: cannot write the grading report", tmp));
  }
  fs::rename(tmp, report_path);
}

SubmissionReport run_isolated(const IsolationOptions& o, const Submission& s) {
  SubmissionReport r;
  r.name = s.name;
  r.path = s.path;
  r.notes = s.notes;
  auto start = std::chrono::steady_clock::now();
  auto failed = [&](Verdict v, std::string limit, std::string message, std::string stage) {
    r.failure = Failure{v, std::move(limit), std::move(message), std::move(stage)};
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  if (o.program.empty()) return failed(Verdict::InternalError, "", "no grading program given", "");
  // Decided while listing: no child is started for a submission that must not be read.
  if (!s.refused.empty()) return failed(Verdict::BadSubmission, "", s.refused, "reading the submission");

  std::unique_ptr<TempDir> dir;
  try {
    dir = std::make_unique<TempDir>("warpsim-grade-child");
  } catch (const Error& e) {
    return failed(Verdict::InternalError, "", e.what(), "");
  }
  const std::string report = (fs::path(dir->path()) / "report.json").string();
  const std::string log = (fs::path(dir->path()) / "child.log").string();

  std::vector<std::string> args = o.program;
  for (auto& a : child_arguments(o, s, report)) args.push_back(std::move(a));
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int out_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (out_fd < 0 || null_fd < 0) {
    if (out_fd >= 0) ::close(out_fd);
    if (null_fd >= 0) ::close(null_fd);
    return failed(Verdict::InternalError, "", fmt::format("cannot open {}: {}", log, strerror(errno)), "");
  }
  const rlim_t cpu_s = static_cast<rlim_t>(std::ceil(o.wall_seconds)) + 1;
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) exec_child(argv.data(), out_fd, null_fd, parent, o.address_space_bytes, cpu_s);
  ::close(out_fd);
  ::close(null_fd);
  if (pid < 0) return failed(Verdict::InternalError, "", fmt::format("fork failed: {}", strerror(errno)), "");
  setpgid(pid, pid);  // also done by the child; whichever runs first

  // Wait for the child without reaping it (its pid keeps naming the group), up to the deadline.
  const auto deadline = start + std::chrono::duration<double>(o.wall_seconds);
  bool killed = false;
  auto nap = std::chrono::milliseconds(1);
  for (;;) {
    siginfo_t info{};
    int w = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
    if (w == 0 && info.si_pid == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      killed = true;
      siginfo_t done{};
      while (waitid(P_PID, static_cast<id_t>(pid), &done, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(nap);
    nap = std::min(nap * 2, std::chrono::milliseconds(20));
  }
  kill(-pid, SIGKILL);  // anything the child left behind in its group (nvcc, ...)
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }

  std::string stage = read_text(report + ".stage");
  std::string log_tail = tail(read_text(log), 1500);
  std::string with_log = log_tail.empty() ? "" : "\noutput of the grading process:\n" + log_tail;
  if (killed)
    return failed(Verdict::LimitExceeded, "wall_seconds",
                  fmt::format("grading took longer than the wall-clock limit of {:g} s (limits.max_wall_seconds); "
                              "the grading process was killed",
                              o.wall_seconds),
                  stage);
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    if (sig == SIGXCPU)
      return failed(Verdict::LimitExceeded, "cpu_seconds",
                    fmt::format("the grading process used more than {} s of CPU time", cpu_s), stage);
    return failed(Verdict::Crashed, "",
                  fmt::format("the grading process died of signal {} ({}){}", sig, strsignal(sig), with_log), stage);
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (!fs::is_regular_file(report))
    return failed(Verdict::InternalError, "",
                  fmt::format("the grading process exited with status {} without a report{}", code, with_log), stage);
  try {
    SubmissionReport child = report_from_json(Json::parse(read_text(report)));
    std::vector<std::string> notes = s.notes;
    notes.insert(notes.end(), child.notes.begin(), child.notes.end());
    child.notes = notes;
    child.name = s.name;
    return child;
  } catch (const std::exception& e) {
    return failed(Verdict::InternalError, "", fmt::format("unreadable grading report: {}{}", e.what(), with_log), stage);
  }
}

}  // namespace warpsim::grading
