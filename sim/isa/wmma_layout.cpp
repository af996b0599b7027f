#include "sim/isa/wmma_layout.hpp"

#include <iterator>

namespace warpsim::isa {

MmaDims mma_dims(MmaShape shape) {
  switch (shape) {
    case MmaShape::M16N16K16: return {16, 16, 16};
    case MmaShape::M32N8K16: return {32, 8, 16};
    case MmaShape::M8N32K16: return {8, 32, 16};
    case MmaShape::M16N16K8: return {16, 16, 8};
    case MmaShape::M8N8K4: return {8, 8, 4};
    default: return {};
  }
}

MmaShape parse_mma_shape(std::string_view s) {
  for (MmaShape x : {MmaShape::M16N16K16, MmaShape::M32N8K16, MmaShape::M8N32K16, MmaShape::M16N16K8, MmaShape::M8N8K4})
    if (s == mma_shape_name(x)) return x;
  return MmaShape::None;
}

std::string_view mma_shape_name(MmaShape shape) {
  switch (shape) {
    case MmaShape::M16N16K16: return "m16n16k16";
    case MmaShape::M32N8K16: return "m32n8k16";
    case MmaShape::M8N32K16: return "m8n32k16";
    case MmaShape::M16N16K8: return "m16n16k8";
    case MmaShape::M8N8K4: return "m8n8k4";
    default: return "?";
  }
}

namespace {

// The shapes of the 16-, 8-bit and k16 families (f16, bf16, s8, u8 inputs).
bool k16(MmaShape s) { return s == MmaShape::M16N16K16 || s == MmaShape::M32N8K16 || s == MmaShape::M8N32K16; }

}  // namespace

std::optional<FragmentGeometry> fragment_geometry(MmaShape shape, MmaFrag frag, DType elem) {
  const MmaDims d = mma_dims(shape);
  FragmentGeometry g;
  switch (frag) {
    case MmaFrag::A: g.rows = d.m, g.cols = d.k; break;
    case MmaFrag::B: g.rows = d.k, g.cols = d.n; break;
    case MmaFrag::C: g.rows = d.m, g.cols = d.n; break;
  }
  if (frag == MmaFrag::C) {
    if (shape == MmaShape::M8N8K4) {
      if (elem != DType::F64) return std::nullopt;
      g.elements = g.unique = g.regs = 2, g.elem_bytes = 8;
      return g;
    }
    const bool tf32_shape = shape == MmaShape::M16N16K8;
    if (elem == DType::F32 || (elem == DType::S32 && !tf32_shape)) g.elements = g.unique = g.regs = 8, g.elem_bytes = 4;
    else if (elem == DType::F16 && !tf32_shape) g.elements = g.unique = 8, g.regs = 4, g.elem_bytes = 2;
    else return std::nullopt;
    return g;
  }
  // a and b: one lane holds (rows x cols) / 32 distinct elements.
  const uint32_t distinct = g.rows * g.cols / 32;
  if (elem == DType::F16 || elem == DType::BF16 || elem == DType::S8 || elem == DType::U8) {
    if (!k16(shape)) return std::nullopt;
    g.unique = distinct;
    g.elem_bytes = dtype_bytes(elem);
    // f16 fragments keep Volta's 16 elements in 8 registers whatever the shape; on an H100
    // a shape with fewer distinct elements repeats them (8 of m16n16k16 twice, 4 of the
    // narrow side four times). The others hold each element once.
    g.elements = elem == DType::F16 ? 16 : distinct;
    g.regs = g.elements * g.elem_bytes / 4;
    return g;
  }
  if (elem == DType::TF32 && shape == MmaShape::M16N16K8) {
    g.elements = g.unique = g.regs = 4, g.elem_bytes = 4;
    return g;
  }
  if (elem == DType::F64 && shape == MmaShape::M8N8K4) {
    g.elements = g.unique = g.regs = 1, g.elem_bytes = 8;
    return g;
  }
  return std::nullopt;
}

MatrixCoord fragment_element(MmaShape shape, MmaFrag frag, DType elem, uint32_t lane, uint32_t e) {
  // A lane is thread t of group g: the groups of four lanes share rows (or columns).
  const uint32_t g = lane >> 2, t = lane & 3;
  if (frag == MmaFrag::C) {
    if (shape == MmaShape::M8N8K4) return {g, 2 * t + e};
    if (shape == MmaShape::M32N8K16) return {g + 8 * (e >> 1), 2 * t + (e & 1)};
    if (shape == MmaShape::M8N32K16) return {2 * t + (e & 1), g + 8 * (e >> 1)};
    return {g + 8 * ((e >> 1) & 1), 2 * t + (e & 1) + 8 * ((e >> 2) & 1)};  // m16n16k16, m16n16k8
  }
  const bool a = frag == MmaFrag::A;
  if (elem == DType::F16 || elem == DType::BF16) {
    const auto geo = fragment_geometry(shape, frag, elem);
    e %= geo ? geo->unique : 1;
    if (a) {
      if (shape == MmaShape::M32N8K16) return {g + 8 * ((e >> 1) & 1) + 16 * ((e >> 3) & 1), 2 * t + (e & 1) + 8 * ((e >> 2) & 1)};
      if (shape == MmaShape::M8N32K16) return {g, 2 * t + (e & 1) + 8 * ((e >> 1) & 1)};
      return {g + 8 * ((e >> 1) & 1), 2 * t + (e & 1) + 8 * ((e >> 2) & 1)};
    }
    if (shape == MmaShape::M32N8K16) return {2 * t + (e & 1) + 8 * ((e >> 1) & 1), g};
    if (shape == MmaShape::M8N32K16) return {2 * t + (e & 1) + 8 * ((e >> 2) & 1), g + 8 * ((e >> 1) & 1) + 16 * ((e >> 3) & 1)};
    return {2 * t + (e & 1) + 8 * ((e >> 1) & 1), g + 8 * ((e >> 2) & 1)};
  }
  if (elem == DType::S8 || elem == DType::U8) {
    if (a) return {g + 8 * (e >> 2), 4 * t + (e & 3)};
    return {4 * t + (e & 3), g + 8 * (e >> 2)};
  }
  if (elem == DType::TF32) {
    if (a) return {g + 8 * (e & 1), t + 4 * (e >> 1)};
    return {t + 4 * (e & 1), g + 8 * (e >> 1)};
  }
  return a ? MatrixCoord{g, t} : MatrixCoord{t, g};  // f64 m8n8k4
}

namespace {

constexpr MmaShape kShapes[] = {MmaShape::M16N16K16, MmaShape::M32N8K16, MmaShape::M8N32K16, MmaShape::M16N16K8,
                                MmaShape::M8N8K4};
constexpr DType kElemTypes[] = {DType::F16, DType::BF16, DType::TF32, DType::F64,
                                DType::S8,  DType::U8,   DType::F32,  DType::S32};

// The slot of a (shape, fragment, element type) in the table, or -1.
int map_slot(MmaShape shape, MmaFrag frag, DType elem) {
  int si = -1, ti = -1;
  for (int i = 0; i < int(std::size(kShapes)); ++i)
    if (kShapes[i] == shape) si = i;
  for (int i = 0; i < int(std::size(kElemTypes)); ++i)
    if (kElemTypes[i] == elem) ti = i;
  if (si < 0 || ti < 0) return -1;
  return (si * 3 + static_cast<int>(frag)) * int(std::size(kElemTypes)) + ti;
}

struct FragmentMaps {
  std::array<std::optional<FragmentMap>, std::size(kShapes) * 3 * std::size(kElemTypes)> maps;
  FragmentMaps() {
    for (MmaShape shape : kShapes)
      for (MmaFrag frag : {MmaFrag::A, MmaFrag::B, MmaFrag::C})
        for (DType elem : kElemTypes) {
          const auto g = fragment_geometry(shape, frag, elem);
          if (!g) continue;
          FragmentMap& m = maps[map_slot(shape, frag, elem)].emplace();
          m.g = *g;
          for (uint32_t lane = 0; lane < 32; ++lane)
            for (uint32_t e = 0; e < g->elements; ++e)
              m.coords[lane * FragmentMap::kMaxElements + e] = fragment_element(shape, frag, elem, lane, e);
        }
  }
};

}  // namespace

const FragmentMap* fragment_map(MmaShape shape, MmaFrag frag, DType elem) {
  static const FragmentMaps tables;  // immutable once built
  const int slot = map_slot(shape, frag, elem);
  if (slot < 0 || !tables.maps[slot]) return nullptr;
  return &*tables.maps[slot];
}

}  // namespace warpsim::isa
