#include <catch2/catch.hpp>

#include "fatbin_builder.hpp"
#include "sim/runtime/fatbin.hpp"
#include "sim/runtime/runtime_error.hpp"

using namespace warpsim::runtime;
using rttest::EntrySpec;
using rttest::make_fatbin;

namespace {
const std::string kPtx = "//\n.version 9.0\n.target sm_75\n.address_size 64\n// some PTX text, long enough to compress "
                         "compress compress compress compress compress\n";
}

TEST_CASE("fatbin: PTX stored plain, zstd or LZ4 comes back byte for byte") {
  for (std::string c : {"", "zstd", "lz4"}) {
    auto img = make_fatbin({{2, 75, "", std::string(40, 'E')}, {1, 75, c, kPtx}});
    Fatbin fb = read_fatbin(img);
    REQUIRE(fb.entries.size() == 2);
    CHECK(fb.entries[0].kind == FatbinEntry::Kind::Elf);
    CHECK(fb.entries[1].kind == FatbinEntry::Kind::Ptx);
    CHECK(fb.entries[1].compression == c);
    CHECK(fb.entries[1].ptx_version == 90);
    REQUIRE(fb.ptx.size() == 1);
    CHECK(fb.ptx[0] == kPtx);
    CHECK(fb.best_ptx("app") == kPtx);
    CHECK(fatbin_size(img.data()) == img.size());
  }
}

TEST_CASE("fatbin: the newest architecture's PTX is the one run") {
  auto img = make_fatbin({{1, 52, "zstd", "old"}, {1, 80, "", "new"}, {1, 75, "lz4", "mid"}});
  CHECK(read_fatbin(img).best_ptx("app") == "new");
  CHECK(read_fatbin(img).describe() == "compute_52 PTX (zstd), compute_80 PTX, compute_75 PTX (lz4)");
}

TEST_CASE("fatbin: machine code only is refused with the rebuild advice") {
  auto img = make_fatbin({{2, 75, "", std::string(64, 'E')}, {2, 80, "", std::string(64, 'E')}});
  Fatbin fb = read_fatbin(img);
  CHECK_THROWS_WITH(fb.best_ptx("./app"),
                    Catch::Contains("./app: the program carries GPU machine code only (sm_75 ELF, sm_80 ELF) and no PTX") &&
                        Catch::Contains("nvcc -arch=sm_75"));
}

TEST_CASE("fatbin: malformed images are errors, never reads outside the image") {
  auto good = make_fatbin({{1, 75, "zstd", kPtx}});
  SECTION("bad magic") {
    auto img = good;
    img[0] ^= 0xFF;
    CHECK_THROWS_AS(read_fatbin(img), FatbinError);
  }
  SECTION("truncated") {
    auto img = good;
    img.resize(img.size() - 8);
    CHECK_THROWS_WITH(read_fatbin(img), Catch::Contains("only"));
    CHECK_THROWS_WITH(read_fatbin(std::span<const uint8_t>(good.data(), 8)), Catch::Contains("truncated header"));
  }
  SECTION("entry size past the end") {
    auto img = good;
    rttest::put<uint64_t>(img, 16 + 8, 1 << 20);
    CHECK_THROWS_WITH(read_fatbin(img), Catch::Contains("overruns the image"));
  }
  SECTION("compressed size larger than the stored bytes") {
    auto img = good;
    rttest::put<uint32_t>(img, 16 + 16, 1 << 20);
    CHECK_THROWS_WITH(read_fatbin(img), Catch::Contains("implausible sizes"));
  }
  SECTION("corrupt compressed data") {
    auto img = good;
    for (size_t i = 16 + 64 + 4; i < img.size(); ++i) img[i] = 0x5A;
    CHECK_THROWS_WITH(read_fatbin(img), Catch::Contains("corrupt zstd data in the compute_75 PTX"));
    auto lz = make_fatbin({{1, 75, "lz4", kPtx}});
    for (size_t i = 16 + 64; i < lz.size(); ++i) lz[i] = 0xFF;
    CHECK_THROWS_WITH(read_fatbin(lz), Catch::Contains("corrupt LZ4 data"));
  }
}
