// Helpers for the loader tests: line numbers of text in a PTX source, instruction
// lookup by text, and the standard module header (from the engine tests' fixture).
#pragma once
#include <catch2/catch.hpp>

#include <string>

#include "200_engine/ptx_fixture.hpp"
#include "sim/isa/ir.hpp"

namespace isatest {

using ptxtest::module;
using ptxtest::ptx_error;

// 1-based line of the first occurrence of `needle` in `text`.
inline uint32_t line_of(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  uint32_t line = 1;
  for (size_t i = 0; i < at; ++i) line += text[i] == '\n';
  return line;
}

// 1-based column of the first occurrence of `needle` on its line.
inline uint32_t col_of(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  size_t ls = text.rfind('\n', at);
  return static_cast<uint32_t>(ls == std::string::npos ? at + 1 : at - ls);
}

// Index of the instruction whose (flattened) text starts with `prefix`.
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

}  // namespace isatest
