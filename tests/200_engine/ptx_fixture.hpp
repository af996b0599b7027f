// Shared helpers for the loader, semantics and engine tests: a C2070 device in
// functional mode, hand-written PTX modules with the usual header, buffers in and out,
// and a catcher for the error a call throws.
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "sim/engine/device.hpp"
#include "sim/spec/device_spec.hpp"
#include "sim/foundation/error.hpp"
#include "sim/isa/ptx_parser.hpp"

namespace ptxtest {

using warpsim::DevPtr;
using warpsim::Dim3;
using warpsim::KernelArg;

inline const warpsim::DeviceSpec& c2070() {
  static const warpsim::DeviceSpec spec = warpsim::load_device_spec(WARPSIM_SOURCE_DIR "/configs/c2070.json");
  return spec;
}
inline const warpsim::DeviceSpec& h100_spec() {
  static const warpsim::DeviceSpec spec = warpsim::load_device_spec(WARPSIM_SOURCE_DIR "/configs/h100.json");
  return spec;
}

// The three directives every module starts with, then `body`. Line 1 is ".version".
inline std::string module(const std::string& body) {
  return ".version 7.0\n.target sm_75\n.address_size 64\n" + body;
}

inline std::string source_path(const std::string& relative) { return std::string(WARPSIM_SOURCE_DIR) + "/" + relative; }

// What a call threw: the message and, for KernelFault, its kind. `type` is one of
// "none", "PtxError", "LaunchError", "KernelFault", "Error" (other warpsim::Error),
// "other" (anything else: always a bug).
struct Thrown {
  std::string type = "none";
  std::string what;
  warpsim::KernelFault::Kind fault = warpsim::KernelFault::Kind::Trap;
};

inline Thrown catch_error(const std::function<void()>& f) {
  Thrown t;
  try {
    f();
  } catch (const warpsim::PtxError& e) {
    t.type = "PtxError";
    t.what = e.what();
  } catch (const warpsim::LaunchError& e) {
    t.type = "LaunchError";
    t.what = e.what();
  } catch (const warpsim::KernelFault& e) {
    t.type = "KernelFault";
    t.what = e.what();
    t.fault = e.kind();
  } catch (const warpsim::Error& e) {
    t.type = "Error";
    t.what = e.what();
  } catch (const std::exception& e) {
    t.type = "other";
    t.what = e.what();
  } catch (...) {
    t.type = "other";
    t.what = "(not a std::exception)";
  }
  return t;
}

// The message of the PtxError that parsing `text` as `file` throws ("" if it loads).
inline std::string ptx_error(const std::string& text, const std::string& file = "t.ptx") {
  Thrown t = catch_error([&] { warpsim::isa::parse_ptx(text, file); });
  if (t.type != "PtxError" && t.type != "none") FAIL("parse_ptx threw " << t.type << ": " << t.what);
  return t.what;
}

// A device with helpers for buffers and functional launches.
struct Sim {
  warpsim::Device dev{c2070()};

  const warpsim::isa::Module& load(const std::string& text, const std::string& file = "test.ptx") {
    return dev.load_ptx(text, file);
  }
  // Loads `text` and returns its only (or named) kernel.
  const warpsim::isa::Kernel& kernel(const std::string& text, const std::string& name = "",
                                     const std::string& file = "test.ptx") {
    const auto& m = load(text, file);
    if (name.empty()) {
      REQUIRE(m.kernels.size() == 1);
      return *m.kernels[0];
    }
    return m.kernel(name);
  }

  template <class T>
  DevPtr upload(const std::vector<T>& v) {
    DevPtr p = dev.malloc(std::max<uint64_t>(1, v.size() * sizeof(T)));
    if (!v.empty()) dev.copy_to_device(p, v.data(), v.size() * sizeof(T));
    return p;
  }
  template <class T>
  DevPtr zeros(size_t n) {
    return upload(std::vector<T>(n, T{}));
  }
  template <class T>
  std::vector<T> download(DevPtr p, size_t n) {
    std::vector<T> v(n);
    if (n) dev.copy_from_device(v.data(), p, n * sizeof(T));
    return v;
  }

  warpsim::LaunchStats run(const warpsim::isa::Kernel& k, Dim3 grid, Dim3 block, std::vector<KernelArg> args,
                           uint32_t dynamic_shared = 0, warpsim::Limits limits = {}) {
    warpsim::LaunchOptions o;
    o.mode = warpsim::SimMode::Functional;
    o.limits = limits;
    return dev.launch(k, grid, block, dynamic_shared, args, o);
  }
};

// Index of the instruction whose (flattened) text starts with `prefix`; it must be unique.
inline int pc_of(const warpsim::isa::Kernel& k, const std::string& prefix) {
  int found = -1;
  for (size_t i = 0; i < k.text.size(); ++i)
    if (k.text[i].rfind(prefix, 0) == 0) {
      INFO("instruction text '" << prefix << "' is not unique");
      REQUIRE(found < 0);
      found = static_cast<int>(i);
    }
  INFO("no instruction starts with '" << prefix << "'");
  REQUIRE(found >= 0);
  return found;
}

inline KernelArg ptr(DevPtr p) { return KernelArg::ptr(p); }
inline KernelArg integer(int64_t v) { return KernelArg::integer(v); }

inline uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bitsf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint64_t dbits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
inline double bitsd(uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

}  // namespace ptxtest
