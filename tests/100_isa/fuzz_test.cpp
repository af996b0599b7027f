// Robustness of the loader on broken input: truncations of a real nvcc module at every
// token boundary and at random bytes, random byte mutations, and pathological nesting.
// Every input must either load or throw PtxError: no crash, no hang, no other exception.
// Deterministic (fixed seeds) and bounded (a few thousand parses of small modules).
#include <catch2/catch.hpp>

#include <fstream>
#include <random>
#include <sstream>

#include "200_engine/ptx_fixture.hpp"
#include "sim/isa/ptx_lexer.hpp"
#include "sim/isa/ptx_parser.hpp"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Parses `text`; returns the outcome type ("none" or "PtxError" are the only acceptable ones).
std::string outcome(const std::string& text) {
  auto t = ptxtest::catch_error([&] { warpsim::isa::parse_ptx(text, "fuzz.ptx"); });
  if (t.type != "none" && t.type != "PtxError") {
    UNSCOPED_INFO("input of " << text.size() << " bytes threw " << t.type << ": " << t.what);
  }
  return t.type;
}

bool acceptable(const std::string& type) { return type == "none" || type == "PtxError"; }

}  // namespace

TEST_CASE("a real module truncated at every token boundary loads or is rejected cleanly", "[isa][fuzz]") {
  // matmul_tiled_bounds has inlined-call .loc attributes, a .section and .file at the end.
  const std::string text = read_file(ptxtest::source_path("kernels/matmul/matmul_tiled_bounds.ptx"));
  auto toks = warpsim::isa::lex_ptx(text, "x.ptx");
  REQUIRE(toks.size() > 500);
  size_t rejected = 0, loaded = 0;
  for (const auto& t : toks) {
    size_t start = static_cast<size_t>(t.text.data() - text.data());
    if (t.kind == warpsim::isa::Tok::End) start = text.size();
    for (size_t cut : {start, start + t.text.size()}) {
      if (cut > text.size()) continue;
      std::string type = outcome(text.substr(0, cut));
      REQUIRE(acceptable(type));
      (type == "none" ? loaded : rejected)++;
    }
  }
  // Only cuts after the kernel's closing brace can load.
  CHECK(loaded > 0);
  CHECK(rejected > toks.size());
}

TEST_CASE("a real module truncated at random bytes loads or is rejected cleanly", "[isa][fuzz]") {
  const std::string text = read_file(ptxtest::source_path("kernels/reduction/kirk_reduction.ptx"));
  std::mt19937_64 rng(20240601);
  for (int i = 0; i < 300; ++i) {
    size_t cut = rng() % (text.size() + 1);
    INFO("cut at byte " << cut);
    REQUIRE(acceptable(outcome(text.substr(0, cut))));
  }
}

TEST_CASE("random byte mutations, insertions and deletions load or are rejected cleanly", "[isa][fuzz]") {
  const std::string interesting = "{}[]()<>;:,.%$@!|+-_0123456789xXfFdDbB\"/*\n\t .abcrpuvs";
  for (const char* file : {"kernels/vecadd/vecadd.ptx", "kernels/transpose/transpose.ptx",
                           "kernels/matmul/matmul_tiled_bounds.ptx"}) {
    const std::string base = read_file(ptxtest::source_path(file));
    std::mt19937_64 rng(7);
    size_t loaded = 0;
    for (int i = 0; i < 2000; ++i) {
      std::string text = base;
      int edits = 1 + int(rng() % 3);
      for (int e = 0; e < edits; ++e) {
        size_t at = rng() % text.size();
        char c = (rng() % 4 == 0) ? char(rng() % 256) : interesting[rng() % interesting.size()];
        switch (rng() % 3) {
          case 0: text[at] = c; break;
          case 1: text.insert(text.begin() + at, c); break;
          default: text.erase(at, 1 + rng() % 8); break;
        }
      }
      std::string type = outcome(text);
      INFO(file << " mutation " << i);
      REQUIRE(acceptable(type));
      loaded += type == "none";
    }
    // Many edits hit comments, debug sections or register numbers and still load.
    CHECK(loaded > 10);
  }
}

TEST_CASE("mutants of vecadd that load run to completion or fault with a warpsim error", "[isa][fuzz][engine]") {
  const std::string base = read_file(ptxtest::source_path("kernels/vecadd/vecadd.ptx"));
  const std::string interesting = "0123456789%rdfp@!,;[]+-.";
  std::mt19937_64 rng(99);
  ptxtest::Sim sim;
  const uint32_t n = 64;
  auto a = sim.upload(std::vector<float>(n, 1.0f));
  auto b = sim.upload(std::vector<float>(n, 2.0f));
  auto c = sim.zeros<float>(n);
  warpsim::Limits limits;
  limits.max_warp_instructions = 20000;
  int ran = 0, completed = 0;
  for (int i = 0; i < 1500 && ran < 150; ++i) {
    std::string text = base;
    size_t first = text.find("ld.param.u64");
    size_t at = first + rng() % (text.size() - first);
    text[at] = interesting[rng() % interesting.size()];
    if (outcome(text) != "none") continue;
    ++ran;
    INFO("mutation " << i << " at byte " << at);
    auto t = ptxtest::catch_error([&] {
      const auto& k = sim.kernel(text);
      sim.run(k, {2, 1, 1}, {32, 1, 1}, {ptxtest::ptr(a), ptxtest::ptr(b), ptxtest::ptr(c), ptxtest::integer(n)}, 0,
              limits);
    });
    CHECK((t.type == "none" || t.type == "KernelFault" || t.type == "LaunchError"));
    completed += t.type == "none";
  }
  CHECK(ran >= 50);
  CHECK(completed > 0);
  // The device still works after all of that (mutants may have written into a and b).
  a = sim.upload(std::vector<float>(n, 1.0f));
  b = sim.upload(std::vector<float>(n, 2.0f));
  const auto& k = sim.kernel(base);
  sim.run(k, {2, 1, 1}, {32, 1, 1}, {ptxtest::ptr(a), ptxtest::ptr(b), ptxtest::ptr(c), ptxtest::integer(n)});
  CHECK(sim.download<float>(c, n) == std::vector<float>(n, 3.0f));
}

TEST_CASE("pathological nesting is rejected without exhausting the stack", "[isa][fuzz]") {
  const std::string head = ptxtest::module(".entry k()\n{\n.reg .b32 %r;\n.reg .pred %p;\n");
  // Before: each '{' or '!' recursed once in the operand parser, so these crashed (SIGSEGV).
  std::string braces = head + "mov.b32 %r, " + std::string(300000, '{') + "%r;\n}\n";
  CHECK(ptxtest::ptx_error(braces, "fuzz.ptx") == "fuzz.ptx:8:14: parse error: vector operands do not nest");
  std::string bangs = head + "not.pred %p, " + std::string(300000, '!') + "%p;\n}\n";
  CHECK(ptxtest::ptx_error(bangs, "fuzz.ptx") == "fuzz.ptx:8:14: parse error: '!' applies to a predicate register");
  // Deep scopes are fine (they are a stack of maps, not recursion).
  std::string scopes = head + std::string(20000, '{') + "mov.b32 %r, 1;" + std::string(20000, '}') + "\n}\n";
  CHECK(ptxtest::ptx_error(scopes, "fuzz.ptx") == "");
  std::string open_scopes = head + std::string(20000, '{') + "ret;\n";
  CHECK(ptxtest::ptx_error(open_scopes, "fuzz.ptx") == "fuzz.ptx:9:1: parse error: kernel 'k' is missing its closing '}'");
  // A single '!' or vector elements keep working.
  CHECK(ptxtest::ptx_error(head + "@!%p mov.b32 %r, 1;\nmov.b64 {%r, %r}, 0;\n}\n", "fuzz.ptx") == "");
}
