// Error types. Every user-facing failure is one of these, with a message that
// already names the place (file:line, key path, kernel/block/thread).
#pragma once
#include <stdexcept>
#include <string>

namespace warpsim {

// Base of all warpsim errors; `what()` is the full, user-readable message.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Malformed or unsupported PTX ("file:line:col: ...").
class PtxError : public Error {
 public:
  using Error::Error;
};

// Invalid device config or launch spec ("file: key.path: ...").
class ConfigError : public Error {
 public:
  using Error::Error;
};

// A launch CUDA itself would refuse (too many resources, bad dimensions, wrong arguments).
class LaunchError : public Error {
 public:
  using Error::Error;
};

// A fault while a kernel runs: out-of-bounds or misaligned access, barrier deadlock,
// or a resource limit (cycles, instructions, host time) hit.
class KernelFault : public Error {
 public:
  enum class Kind { MemoryAccess, Deadlock, LimitExceeded, Trap, Assert };
  KernelFault(Kind kind, const std::string& msg) : Error(msg), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

}  // namespace warpsim
