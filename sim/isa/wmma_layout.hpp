// The matrix fragments of wmma: which matrices a shape and element type make, how many
// elements a lane holds in how many registers, and which matrix element each one is.
// CUDA leaves the mapping unspecified; the one here is an H100's, measured element by
// element for every fragment kind (tests/750_runtime/programs/wmma_layout.cu,
// docs/measurements/h100_wmma_layout.txt). It does not depend on the memory layout a
// fragment is loaded from.
#pragma once
#include <array>
#include <cstdint>
#include <optional>

#include "sim/isa/ir.hpp"

namespace warpsim::isa {

struct FragmentGeometry {
  uint32_t rows = 0, cols = 0;  // the matrix: a is M x K, b is K x N, c/d M x N
  uint32_t elements = 0;        // elements per lane (CUDA's fragment::num_elements)
  uint32_t unique = 0;          // distinct ones: element e holds what element e % unique does
  uint32_t regs = 0;            // PTX registers holding them
  uint32_t elem_bytes = 0;      // bytes per element, in memory and in its register's bits
  uint32_t per_reg() const { return elements / regs; }
  // Element e sits in register e / per_reg(), at this bit (the first element in the low bits).
  uint32_t reg_of(uint32_t e) const { return e / per_reg(); }
  uint32_t shift_of(uint32_t e) const { return (e % per_reg()) * elem_bytes * 8; }
  uint64_t elem_mask() const { return elem_bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (elem_bytes * 8)) - 1; }
};

// The fragment of `frag` for `shape` with elements of `elem` (a/b: f16, bf16, s8, u8, tf32,
// f64; c/d: f32, f16, s32, f64), or nullopt for a combination wmma does not have.
std::optional<FragmentGeometry> fragment_geometry(MmaShape shape, MmaFrag frag, DType elem);

struct MatrixCoord {
  uint32_t row = 0, col = 0;
};
// The matrix element that element e of `lane`'s fragment holds (e < elements).
MatrixCoord fragment_element(MmaShape shape, MmaFrag frag, DType elem, uint32_t lane, uint32_t e);

// fragment_geometry() and fragment_element() of one fragment kind for every lane and
// element, tabled once (the executor and wmma.mma look elements up per instruction).
struct FragmentMap {
  static constexpr uint32_t kMaxElements = 16;  // per lane
  FragmentGeometry g;
  std::array<MatrixCoord, 32 * kMaxElements> coords{};
  MatrixCoord at(uint32_t lane, uint32_t e) const { return coords[lane * kMaxElements + e]; }
  // The element's place in the matrix stored row-major (rows x cols).
  uint32_t dense_index(uint32_t lane, uint32_t e) const {
    const MatrixCoord c = at(lane, e);
    return c.row * g.cols + c.col;
  }
};
// The table of `frag` for `shape` with elements of `elem`, or null for a combination wmma
// does not have. The tables are immutable, built on first use (thread-safe).
const FragmentMap* fragment_map(MmaShape shape, MmaFrag frag, DType elem);

// M, N, K of a shape; "m16n16k16" and back.
struct MmaDims {
  uint32_t m = 0, n = 0, k = 0;
};
MmaDims mma_dims(MmaShape shape);
MmaShape parse_mma_shape(std::string_view s);
std::string_view mma_shape_name(MmaShape shape);

}  // namespace warpsim::isa
