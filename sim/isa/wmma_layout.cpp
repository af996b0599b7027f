#include "sim/isa/wmma_layout.hpp"

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

}  // namespace warpsim::isa
