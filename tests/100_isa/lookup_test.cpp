// Kernel lookup by mangled (exact) name and by plain C++ name.
#include <catch2/catch.hpp>

#include "isa_util.hpp"
#include "sim/isa/ptx_parser.hpp"

using namespace warpsim::isa;

namespace {

const std::string kModule = isatest::module(R"(
.entry _Z3addPfS_(.param .u64 a, .param .u64 b)
{
ret;
}
.entry _Z3addPii(.param .u64 a, .param .u32 b)
{
ret;
}
.entry _Z5scalePf(.param .u64 a)
{
ret;
}
.entry _Z6reduceILj64EEvPi(.param .u64 a)
{
ret;
}
.entry plain_c(.param .u64 a)
{
ret;
}
.entry _Z4add2Pf(.param .u64 a)
{
ret;
}
)");

std::string lookup_error(const Module& m, const std::string& name) {
  auto t = ptxtest::catch_error([&] { m.kernel(name); });
  REQUIRE(t.type == "LaunchError");
  return t.what;
}

}  // namespace

TEST_CASE("kernels are found by exact mangled name and by unambiguous plain name", "[isa][lookup]") {
  auto m = parse_ptx(kModule, "mod.ptx");
  REQUIRE(m->kernels.size() == 6);
  CHECK(&m->kernel("_Z3addPii") == m->kernels[1].get());
  CHECK(&m->kernel("_Z3addPfS_") == m->kernels[0].get());
  CHECK(&m->kernel("scale") == m->kernels[2].get());
  CHECK(&m->kernel("reduce") == m->kernels[3].get());  // a single template instance
  CHECK(&m->kernel("plain_c") == m->kernels[4].get());  // extern "C": the name is not mangled
  CHECK(&m->kernel("add2") == m->kernels[5].get());
}

TEST_CASE("an ambiguous plain name lists exactly its overloads", "[isa][lookup]") {
  auto m = parse_ptx(kModule, "mod.ptx");
  CHECK(lookup_error(*m, "add") ==
        "mod.ptx: kernel name 'add' is ambiguous (overloads: _Z3addPfS_, _Z3addPii); use the mangled name");
}

TEST_CASE("an unknown name lists the module's kernels", "[isa][lookup]") {
  auto m = parse_ptx(kModule, "mod.ptx");
  CHECK(lookup_error(*m, "ad") ==
        "mod.ptx: no kernel named 'ad' (kernels in this module: _Z3addPfS_, _Z3addPii, _Z5scalePf, "
        "_Z6reduceILj64EEvPi, plain_c, _Z4add2Pf)");
  // A prefix of a plain name is not that name, and the length in the mangling must match.
  CHECK_THROWS_AS(m->kernel("scal"), warpsim::LaunchError);
  CHECK_THROWS_AS(m->kernel("_Z3add"), warpsim::LaunchError);
  CHECK_THROWS_AS(m->kernel(""), warpsim::LaunchError);
}
