// The Runtime options the unit tests construct a Runtime with: functional mode, a program
// name for messages.
#pragma once
#include "sim/runtime/runtime.hpp"

namespace rttest {

inline warpsim::runtime::RuntimeOptions functional_options() {
  warpsim::runtime::RuntimeOptions o;
  o.mode = warpsim::SimMode::Functional;
  o.program = "test";
  return o;
}

}  // namespace rttest
