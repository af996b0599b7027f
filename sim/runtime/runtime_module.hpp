// A registered fatbinary: its PTX, loaded onto the device on first use (internal to Runtime).
#pragma once
#include <map>
#include <string>

#include "sim/isa/ir.hpp"
#include "sim/runtime/fatbin.hpp"
#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

struct Runtime::Module {
  std::string name;                      // the program (for messages)
  Fatbin fatbin;
  std::string ptx;                       // the entry chosen to run
  std::string load_error;                // why it cannot run ("" while it can)
  const isa::Module* module = nullptr;   // after the first use
  void* slot = nullptr;                  // its address is the handle nvcc's code keeps
  void* handle_storage() { return &slot; }
  // Loaded by the program itself (cuModuleLoad*): its CUfunction handles by kernel name.
  bool program_loaded = false;
  bool unloaded = false;                 // cuModuleUnload: its handles are invalid
  std::map<std::string, void*> functions;
  // Across cudaDeviceReset: where its __managed__ variables are (host memory still mapped
  // there, holding their values), until the module is loaded on the new device.
  std::map<std::string, DevPtr> managed_kept;
};

}  // namespace warpsim::runtime
