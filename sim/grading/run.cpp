// Running one submission in-process, turning every failure into a verdict.
#include "sim/grading/run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <new>
#include <string_view>

#include "sim/foundation/error.hpp"
#include "sim/grading/compile.hpp"
#include "sim/grading/program.hpp"
#include "sim/grading/scope.hpp"
#include "sim/launch/launch_spec.hpp"
#include "sim/report/metrics.hpp"

namespace warpsim::grading {
namespace {

namespace fs = std::filesystem;

// Thrown inside the runner to end grading with a verdict; never leaves run_submission.
struct Stop {
  Failure failure;
};

// "warp_instructions", "cycles", "host_seconds" from LimitGuard's messages.
std::string limit_of(const std::string& message) {
  if (message.find("instruction limit") != std::string::npos) return "warp_instructions";
  if (message.find("cycle limit") != std::string::npos) return "cycles";
  if (message.find("host time limit") != std::string::npos) return "host_seconds";
  return "unknown";
}

std::string replace_all(const std::string& s, const std::string& from, const std::string& to) {
  std::string out;
  size_t done = 0;
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, done)) {
    out.append(s, done, at - done);
    out += to;
    done = at + from.size();
  }
  out.append(s, done, std::string::npos);
  return out;
}

std::map<std::string, double> metric_map(const LaunchStats& stats) {
  std::map<std::string, double> out;
  for (const auto& g : collect_metrics(stats))
    for (const auto& m : g.metrics) out[m.name] = m.value;
  return out;
}

std::map<std::string, HostBuffer> read_outputs(const Device& device, const PreparedLaunch& prepared) {
  std::map<std::string, HostBuffer> out;
  for (const auto& name : prepared.spec().check.outputs) {
    const auto& buf = prepared.buffer(name);
    HostBuffer copy(buf.initial.type, buf.initial.count);
    device.copy_from_device(copy.bytes.data(), buf.ptr, copy.bytes.size());
    out.emplace(name, std::move(copy));
  }
  return out;
}

// A module loaded on one device, with the assignment's kernel found in it.
struct LoadedKernel {
  std::unique_ptr<Device> device;
  const isa::Kernel* kernel = nullptr;
};

class Runner {
 public:
  Runner(const Assignment& a, const Submission& s, const RunnerOptions& o) : a_(a), s_(s), o_(o) {}

  SubmissionReport run() {
    auto start = std::chrono::steady_clock::now();
    SubmissionReport r;
    r.name = s_.name;
    r.path = s_.path;
    r.notes = s_.notes;
    try {
      grade(r);
    } catch (const Stop& stop) {
      r.failure = stop.failure;
    } catch (const std::bad_alloc&) {
      r.failure = Failure{Verdict::LimitExceeded, "address_space",
                          "the simulation ran out of host memory (limits.max_address_space_bytes)", stage_};
    } catch (const std::exception& e) {
      r.failure = Failure{Verdict::InternalError, "", e.what(), stage_};
    }
    // PTX compiled from a .cu lives in a temporary folder; messages name it by file name only.
    if (r.failure && (temp_dir_ || !o_.work_dir.empty()))
      r.failure->message = replace_all(r.failure->message, work_dir() + "/", "");
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }

 private:
  void stage(std::string s) {
    stage_ = std::move(s);
    if (o_.on_stage) o_.on_stage(stage_);
  }

  [[noreturn]] void stop(Verdict v, std::string message, std::string limit = "") const {
    throw Stop{Failure{v, std::move(limit), std::move(message), stage_}};
  }

  const std::string& nvcc() {
    if (!nvcc_) nvcc_ = o_.nvcc ? *o_.nvcc : find_nvcc();
    return *nvcc_;
  }

  // The PTX of the submission: the file itself, or the .cu compiled.
  std::string submission_ptx() {
    if (!s_.refused.empty()) stop(Verdict::BadSubmission, s_.refused);
    fs::path p(s_.path);
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) {
      std::string why = s_.notes.empty() ? fmt::format("{}: not a .cu or .ptx file", s_.path) : s_.notes.back();
      stop(Verdict::BadSubmission, fs::exists(p, ec) ? why : fmt::format("{}: no such file", s_.path));
    }
    if (p.extension() == ".ptx") return s_.path;
    if (p.extension() != ".cu") stop(Verdict::BadSubmission, fmt::format("{}: expected a .cu or .ptx file", s_.path));
    stage(fmt::format("compiling {}", p.filename().string()));
    if (nvcc().empty())
      stop(Verdict::NvccNotFound, fmt::format("{} is CUDA source and nvcc was not found (looked in $NVCC, PATH, "
                                              "/usr/local/cuda/bin); submit the PTX (nvcc -ptx -lineinfo) instead",
                                              p.filename().string()));
    CompileResult c = compile_submission(nvcc(), s_.path, work_dir(), a_.headers);
    if (!c.ok) stop(Verdict::CompileError, c.refused ? c.log : summarize_nvcc_log(c.log));
    return c.ptx_path;
  }

  const std::string& work_dir() {
    if (!o_.work_dir.empty()) return o_.work_dir;
    if (!temp_dir_) temp_dir_ = std::make_unique<TempDir>("warpsim-grade");
    return temp_dir_->path();
  }

  std::unique_ptr<Device> make_device(const AssignmentConfig& c) const {
    auto d = std::make_unique<Device>(c.device);
    // The grader's limit, never more than the device itself has.
    d->set_memory_capacity(std::min(a_.limits.max_device_memory_bytes, d->memory_capacity()));
    return d;
  }

  LaunchOptions launch_options(SimMode mode) const {
    LaunchOptions lo;
    lo.mode = mode;
    lo.limits.max_cycles = a_.limits.max_cycles;
    lo.limits.max_warp_instructions = a_.limits.max_warp_instructions;
    lo.limits.max_host_seconds = a_.limits.max_host_seconds;
    return lo;
  }

  // The spec with the submission's (or solution's) module; registers from the loader.
  static LaunchSpec with_module(const LaunchSpec& spec, const std::string& ptx) {
    LaunchSpec s = spec;
    s.module_path = ptx;
    s.module_is_cu = false;
    s.registers = 0;
    return s;
  }

  LoadedKernel load(const std::string& ptx, const AssignmentConfig& c) {
    LoadedKernel k;
    k.device = make_device(c);
    const isa::Module* module = nullptr;
    try {
      module = &k.device->load_ptx_file(ptx);
    } catch (const PtxError& e) {
      stop(Verdict::PtxError, e.what());
    }
    try {
      k.kernel = &module->kernel(a_.kernel);
    } catch (const Error& e) {
      stop(Verdict::MissingKernel, e.what());
    }
    return k;
  }

  // The solution's outputs for spec `si` (run once, functional, on the first config).
  const std::map<std::string, HostBuffer>& solution_outputs(size_t si) {
    auto it = solution_outputs_.find(si);
    if (it != solution_outputs_.end()) return it->second;
    const AssignmentSpec& as = a_.specs[si];
    std::string saved = stage_;
    stage(fmt::format("running the reference solution on {}", as.label));
    try {
      std::string module = pick_module(a_.solution, !nvcc().empty());
      if (fs::path(module).extension() == ".cu") {
        // Its own folder: a submission of the same file name must not overwrite it.
        std::string dir = (fs::path(work_dir()) / "solution").string();
        fs::create_directories(dir);
        CompileResult c = compile_cu(nvcc(), module, dir);
        if (!c.ok) throw Error(summarize_nvcc_log(c.log));
        module = c.ptx_path;
      }
      auto device = make_device(a_.configs.front());
      const isa::Kernel& kernel = device->load_ptx_file(module).kernel(a_.kernel);
      PreparedLaunch prepared = prepare(*device, with_module(as.spec, module), &kernel);
      LaunchOptions lo = launch_options(SimMode::Functional);
      lo.no_caches = true;  // only its outputs are read
      launch(*device, prepared, lo);
      it = solution_outputs_.emplace(si, read_outputs(*device, prepared)).first;
    } catch (const Stop&) {
      throw;
    } catch (const std::exception& e) {
      stop(Verdict::InternalError, fmt::format("the reference solution {} failed: {}", a_.solution, e.what()));
    }
    stage(saved);
    return it->second;
  }

  CriterionMeasure measure(size_t ci, const Criterion& c, const AssignmentSpec& as, const AssignmentConfig& ac,
                           const isa::Kernel& kernel, const LaunchStats& stats,
                           const std::map<std::string, double>& metrics) {
    CriterionMeasure m;
    m.applies = c.applies_to(as.label, ac.label);
    if (!m.applies) return m;
    if (c.where.kind == Where::Kind::All) {
      auto it = metrics.find(c.metric);
      if (it == metrics.end()) {
        m.note = fmt::format("{} is not measured on {}", c.metric, ac.label);
      } else {
        m.measured = true;
        m.value = it->second;
      }
      return m;
    }
    auto sel = selections_.find(ci);
    if (sel == selections_.end()) sel = selections_.emplace(ci, select_instructions(kernel, c.where)).first;
    if (!sel->second.error.empty()) {
      m.note = sel->second.error;
      return m;
    }
    m.measured = true;
    m.value = scoped_metric(c.metric, kernel, stats, sel->second.pcs);
    return m;
  }

  RunMeasurement run_one(size_t si, const AssignmentConfig& ac, LoadedKernel& lk, const std::string& ptx) {
    const AssignmentSpec& as = a_.specs[si];
    Device& device = *lk.device;
    stage(fmt::format("running {} on {}", as.label, ac.label));
    LaunchSpec spec = with_module(as.spec, ptx);
    std::optional<PreparedLaunch> prepared;
    try {
      prepared.emplace(prepare(device, spec, lk.kernel));
    } catch (const ConfigError& e) {
      stop(Verdict::BadSignature, fmt::format("kernel '{}' does not take the assignment's arguments: {}", a_.kernel,
                                              e.what()));
    } catch (const LaunchError& e) {
      stop(Verdict::LimitExceeded, e.what(), "device_memory");
    }
    LaunchStats stats;
    try {
      stats = launch(device, *prepared, launch_options(a_.mode));
    } catch (const LaunchError& e) {
      stop(Verdict::LaunchError, e.what());
    } catch (const KernelFault& e) {
      switch (e.kind()) {
        case KernelFault::Kind::MemoryAccess: stop(Verdict::MemoryFault, e.what());
        case KernelFault::Kind::Deadlock: stop(Verdict::Deadlock, e.what());
        case KernelFault::Kind::Trap:
        case KernelFault::Kind::Assert: stop(Verdict::Trap, e.what());  // a failed device assert stops like trap
        case KernelFault::Kind::LimitExceeded: stop(Verdict::LimitExceeded, e.what(), limit_of(e.what()));
      }
      stop(Verdict::InternalError, e.what());
    }
    RunMeasurement m;
    m.spec = as.label;
    m.config = ac.label;
    stage(fmt::format("checking the output of {} on {}", as.label, ac.label));
    CheckResult check;
    if (a_.correctness.against == Correctness::Against::Spec) {
      check = check_outputs(device, *prepared);
    } else {
      auto got = read_outputs(device, *prepared);
      check = compare_outputs(spec, got, solution_outputs(si));
    }
    m.correct = check.passed;
    m.check_message = check.message;
    m.mismatches = check.mismatches;
    m.metrics = metric_map(stats);
    for (size_t ci = 0; ci < a_.criteria.size(); ++ci)
      m.criteria.push_back(measure(ci, a_.criteria[ci], as, ac, *lk.kernel, stats, m.metrics));
    return m;
  }

  // ---- program assignments --------------------------------------------------------------

  // The submission's program, built.
  std::string submission_program() {
    if (!s_.refused.empty()) stop(Verdict::BadSubmission, s_.refused);
    fs::path p(s_.path);
    std::error_code ec;
    if (!fs::is_regular_file(p, ec) || p.extension() != ".cu")
      stop(Verdict::BadSubmission, fs::exists(p, ec) ? fmt::format("{}: a program assignment takes one .cu file with "
                                                                    "main()", s_.path)
                                                     : fmt::format("{}: no such file", s_.path));
    stage(fmt::format("compiling {}", p.filename().string()));
    if (nvcc().empty())
      stop(Verdict::NvccNotFound, fmt::format("{} is a program and nvcc was not found (looked in $NVCC, PATH, "
                                              "/usr/local/cuda/bin)", p.filename().string()));
    CompileResult c = compile_program(nvcc(), s_.path, work_dir(), a_.headers);
    if (!c.ok) stop(Verdict::CompileError, c.refused ? c.log : summarize_nvcc_log(c.log));
    return c.program_path;
  }

  ProgramOutcome run_program_on(const std::string& program, const AssignmentConfig& ac, const std::string& dir) {
    if (o_.cudart_dir.empty() || !fs::exists(fs::path(o_.cudart_dir) / "libcudart.so.13"))
      stop(Verdict::InternalError, "warpsim's CUDA runtime (libcudart.so.13) was not found; build the warpsim_cudart "
                                   "target");
    ProgramRun run;
    run.program = program;
    run.run_dir = dir;
    run.cudart_dir = o_.cudart_dir;
    run.config_path = ac.path;
    run.sets = ac.sets;
    // The grader's device-memory limit, never more than the device has.
    run.sets.push_back(fmt::format("memory.size_bytes={}",
                                   std::min(a_.limits.max_device_memory_bytes, ac.device.memory_bytes)));
    run.mode = a_.mode;
    run.limits = launch_options(a_.mode).limits;
    run.spec = &*a_.program;
    run.wall_seconds = a_.program_seconds();
    run.max_address_space_bytes = a_.limits.max_address_space_bytes;
    return run_program(run);
  }

  // What the reference solution printed and wrote on config `ci` (run once per config).
  const ProgramOutcome& solution_outcome(size_t ci) {
    auto it = solution_runs_.find(ci);
    if (it != solution_runs_.end()) return it->second;
    std::string saved = stage_;
    stage(fmt::format("running the reference solution on {}", a_.configs[ci].label));
    const fs::path dir = fs::path(work_dir()) / "solution";
    fs::create_directories(dir);
    CompileResult c = compile_program(nvcc(), a_.solution, dir.string(), a_.headers);
    if (!c.ok) stop(Verdict::InternalError, fmt::format("the reference solution {} does not build: {}", a_.solution,
                                                        summarize_nvcc_log(c.log)));
    ProgramOutcome o = run_program_on(c.program_path, a_.configs[ci], (dir / "run").string());
    if (o.exit_status != 0)
      stop(Verdict::InternalError, fmt::format("the reference solution {} failed (exit status {}, signal {}): {}",
                                               a_.solution, o.exit_status, o.signal, o.stderr_tail));
    std::error_code ec;
    for (const auto& f : a_.program->files)
      if (!fs::is_regular_file(dir / "run" / f.file, ec))
        stop(Verdict::InternalError, fmt::format("the reference solution {} wrote no {}", a_.solution, f.file));
    fs::rename(dir / "run", dir / fmt::format("run{}", ci), ec);
    stage(saved);
    return solution_runs_.emplace(ci, std::move(o)).first->second;
  }

  // "" when the program's output and files are what the assignment expects.
  std::string check_program_output(const ProgramOutcome& o, size_t ci, const fs::path& run_dir) {
    const ProgramSpec& g = *a_.program;
    const bool vs_solution = a_.correctness.against == Correctness::Against::Solution;
    if (o.stdout_truncated)
      return fmt::format("the program printed more than {} bytes", ProgramRun{}.max_output_bytes);
    std::string want;
    if (vs_solution) want = solution_outcome(ci).stdout_text;
    else if (!g.expected_stdout.empty()) want = read_head_text(g.expected_stdout);
    if (vs_solution || !g.expected_stdout.empty())
      if (std::string d = compare_output(o.stdout_text, want, g.tolerance); !d.empty()) return "standard output: " + d;
    for (const auto& f : g.files) {
      const fs::path got = run_dir / f.file;
      std::error_code ec;
      if (!fs::is_regular_file(got, ec)) return fmt::format("{}: the program did not write it", f.file);
      const std::string expected = vs_solution
                                       ? (fs::path(work_dir()) / "solution" / fmt::format("run{}", ci) / f.file).string()
                                       : f.expected;
      if (std::string d = compare_output(read_head_text(got.string()), read_head_text(expected), g.tolerance); !d.empty())
        return f.file + ": " + d;
    }
    return "";
  }

  static std::string read_head_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string s(ProgramRun{}.max_output_bytes, '\0');
    in.read(s.data(), static_cast<std::streamsize>(s.size()));
    s.resize(static_cast<size_t>(in.gcount()));
    return s;
  }

  // A kernel fault the runtime recorded ends grading with its verdict, as in kernel mode.
  void stop_on_fault(const Json& report) {
    if (!report.contains("faults") || report["faults"].empty()) return;
    const Json& f = report["faults"][0];
    const std::string kind = f.value("kind", ""), msg = f.value("message", "");
    if (kind == "memory_access") stop(Verdict::MemoryFault, msg);
    if (kind == "deadlock") stop(Verdict::Deadlock, msg);
    if (kind == "trap" || kind == "assert") stop(Verdict::Trap, msg);
    if (kind == "limit_exceeded") stop(Verdict::LimitExceeded, msg, limit_of(msg));
    stop(Verdict::InternalError, msg);
  }

  void grade_program(SubmissionReport& r) {
    stage("reading the submission");
    const std::string program = submission_program();
    for (size_t ci = 0; ci < a_.configs.size(); ++ci) {
      const AssignmentConfig& ac = a_.configs[ci];
      stage(fmt::format("running the program on {}", ac.label));
      const fs::path run_dir = fs::path(work_dir()) / "run";
      ProgramOutcome o = run_program_on(program, ac, run_dir.string());
      if (o.timed_out)
        stop(Verdict::LimitExceeded, fmt::format("the program ran past {:g} s of wall time (limits.max_program_seconds)",
                                                 a_.program_seconds()),
             "wall_seconds");
      if (o.report) stop_on_fault(*o.report);
      if (o.signal)
        stop(Verdict::Crashed, fmt::format("the program died of signal {} ({}){}", o.signal, strsignal(o.signal),
                                           o.stderr_tail.empty() ? "" : ":\n" + o.stderr_tail));
      RunMeasurement m;
      m.spec = "program";
      m.config = ac.label;
      stage(fmt::format("checking the output of the program on {}", ac.label));
      if (o.exit_status != 0) {
        m.check_message = fmt::format("the program exited with status {}{}", o.exit_status,
                                      o.stderr_tail.empty() ? "" : ":\n" + o.stderr_tail);
      } else {
        m.check_message = check_program_output(o, ci, run_dir);
        m.correct = m.check_message.empty();
        if (m.correct) m.check_message = "the program's output is correct";
      }
      m.mismatches = m.correct ? 0 : 1;
      const Json empty = Json::object();
      const Json& report = o.report ? *o.report : empty;
      m.metrics["launches"] = report.contains("launches") ? double(report["launches"].size()) : 0.0;
      for (const auto& c : a_.criteria) {
        CriterionMeasure cm;
        cm.applies = c.applies_to(m.spec, ac.label);
        if (cm.applies) {
          if (auto v = program_metric(report, c, &cm.note)) cm.measured = true, cm.value = *v;
        }
        m.criteria.push_back(std::move(cm));
      }
      r.runs.push_back(std::move(m));
    }
  }

  void grade(SubmissionReport& r) {
    if (a_.program) return grade_program(r);
    stage("reading the submission");
    std::string ptx = submission_ptx();
    std::vector<LoadedKernel> loaded;
    for (const auto& c : a_.configs) {
      stage(fmt::format("loading {} for {}", fs::path(ptx).filename().string(), c.label));
      loaded.push_back(load(ptx, c));
    }
    for (size_t si = 0; si < a_.specs.size(); ++si)
      for (size_t ci = 0; ci < a_.configs.size(); ++ci)
        r.runs.push_back(run_one(si, a_.configs[ci], loaded[ci], ptx));
  }

  const Assignment& a_;
  const Submission& s_;
  const RunnerOptions& o_;
  std::string stage_;
  std::optional<std::string> nvcc_;
  std::unique_ptr<TempDir> temp_dir_;
  std::map<size_t, std::map<std::string, HostBuffer>> solution_outputs_;
  std::map<size_t, Selection> selections_;  // per criterion (the same code on every config)
  std::map<size_t, ProgramOutcome> solution_runs_;  // program mode, per config
};

}  // namespace

SubmissionReport run_submission(const Assignment& assignment, const Submission& submission,
                                const RunnerOptions& options) {
  return Runner(assignment, submission, options).run();
}

}  // namespace warpsim::grading
