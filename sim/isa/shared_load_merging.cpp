#include "sim/isa/shared_load_merging.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/isa/cfg.hpp"
#include "sim/isa/code_removal.hpp"
#include "sim/isa/semantics.hpp"

namespace warpsim::isa {

namespace {

constexpr uint32_t kMaxAlign = 16;  // the widest vector load: 16 bytes
constexpr uint32_t kLookAhead = 64;  // instructions searched after a group's first load

uint32_t align_of_value(uint64_t v) {
  if (v == 0) return kMaxAlign;
  return static_cast<uint32_t>(std::min<uint64_t>(kMaxAlign, v & (~v + 1)));
}

uint32_t cap(uint64_t a) { return static_cast<uint32_t>(std::min<uint64_t>(kMaxAlign, a)); }

// Known power-of-two divisor (at most 16) of every data register's value in every thread,
// over all of its definitions: registers start at 16 when some instruction writes them (1
// otherwise: parameters come through ld.param, specials are set by the hardware) and each
// pass lowers a register to the smallest divisor one of its definitions guarantees.
class KnownAlignment {
 public:
  KnownAlignment(const Kernel& k, const std::vector<bool>& special)
      : k_(k), special_(special), align_(k.num_slots(), 1) {
    for (const Instr& in : k.code) {
      const RegisterRefs r = register_refs(in, special_);
      for (uint32_t i = 0; i < r.nwrites; ++i) align_[r.writes[i]] = kMaxAlign;
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (const Instr& in : k.code) {
        const RegisterRefs r = register_refs(in, special_);
        const bool scalar_def = r.nwrites == 1 && in.d[0].kind == Operand::Kind::Reg && in.d[1].kind == Operand::Kind::None;
        for (uint32_t i = 0; i < r.nwrites; ++i) {
          const uint32_t v = scalar_def ? of_definition(in) : 1;
          if (v < align_[r.writes[i]]) {
            align_[r.writes[i]] = v;
            changed = true;
          }
        }
      }
    }
  }

  uint32_t of(const Operand& o) const {
    if (o.kind == Operand::Kind::Const) return align_of_value(k_.consts[o.reg]);
    if (o.kind == Operand::Kind::Reg) return special_[o.reg] ? 1 : align_[o.reg];
    return 1;
  }

 private:
  uint32_t of_definition(const Instr& in) const {
    if (!is_int(in.type) && in.op != Op::Cvta && in.op != Op::CvtaTo) return 1;
    switch (in.op) {
      case Op::Mov:
      case Op::Cvta:
      case Op::CvtaTo:
        return of(in.a);
      case Op::Cvt:  // between integer types: the low bits are kept
        return is_int(in.stype) ? of(in.a) : 1;
      case Op::Add:
      case Op::Sub:
      case Op::Or:
      case Op::Xor:
        return std::min(of(in.a), of(in.b));
      case Op::And:
        return std::max(of(in.a), of(in.b));
      case Op::Mul:
        return in.width == Width::Lo || in.width == Width::Wide ? cap(uint64_t(of(in.a)) * of(in.b)) : 1;
      case Op::Mad:
        return in.width == Width::Lo || in.width == Width::Wide
                   ? std::min(cap(uint64_t(of(in.a)) * of(in.b)), of(in.c))
                   : 1;
      case Op::Shl:
        if (in.b.kind == Operand::Kind::Const) return cap(uint64_t(of(in.a)) << std::min<uint64_t>(4, k_.consts[in.b.reg]));
        return of(in.a);
      default:
        return 1;
    }
  }

  const Kernel& k_;
  const std::vector<bool>& special_;
  std::vector<uint32_t> align_;
};

bool mergeable_load(const Instr& in) {
  return in.op == Op::Ld && in.space == Space::Shared && in.vec == 1 && !in.is_volatile && !in.call_param &&
         !in.has_guard && in.cache == CacheOp::Default && in.d[0].kind == Operand::Kind::Reg &&
         in.a.kind == Operand::Kind::Addr && (dtype_bytes(in.type) == 4 || dtype_bytes(in.type) == 8);
}

bool same_address_base(const Instr& x, const Instr& y) {
  return x.a.has_base == y.a.has_base && (!x.a.has_base || x.a.base == y.a.base);
}

struct Group {
  uint32_t members[4];
  uint32_t n = 0;
};

// The loads at first's offset + e * size (e = 1 .. n-1) that can join the load at `first`.
bool find_group(const Kernel& k, const std::vector<bool>& special, const std::vector<bool>& taken, uint32_t first,
                uint32_t last, uint32_t n, Group& g) {
  const Instr& head = k.code[first];
  const uint32_t size = static_cast<uint32_t>(dtype_bytes(head.type));
  g.n = 1;
  g.members[0] = first;
  // Registers written and read since `first` (the head's own destination counts as written):
  // a later load joins only if its destination is neither, as the group writes it at
  // `first`. Uses after the load's own place are unaffected.
  std::vector<uint16_t> written{head.d[0].reg}, read;
  for (uint32_t pc = first + 1; pc <= last && pc <= first + kLookAhead && g.n < n; ++pc) {
    const Instr& in = k.code[pc];
    if (stores_or_orders(in.op)) return false;  // no load moves across one
    const RegisterRefs r = register_refs(in, special);
    const int64_t want = head.a.offset + int64_t(g.n) * size;
    if (!taken[pc] && mergeable_load(in) && in.type == head.type && same_address_base(in, head) &&
        in.a.offset == want) {
      const uint16_t d = in.d[0].reg;
      const bool clash = std::find(written.begin(), written.end(), d) != written.end() ||
                         std::find(read.begin(), read.end(), d) != read.end() ||
                         (head.a.has_base && d == head.a.base);
      if (clash) return false;
      g.members[g.n++] = pc;
      written.push_back(d);
      continue;
    }
    for (uint32_t i = 0; i < r.nwrites; ++i) {
      if (head.a.has_base && r.writes[i] == head.a.base) return false;
      written.push_back(r.writes[i]);
    }
    for (uint32_t i = 0; i < r.nreads; ++i) read.push_back(r.reads[i]);
  }
  return g.n == n;
}

std::string merged_text(const Kernel& k, const Group& g) {
  const Instr& head = k.code[g.members[0]];
  std::string regs, lines;
  for (uint32_t m = 0; m < g.n; ++m) {
    const Instr& in = k.code[g.members[m]];
    regs += (m ? ", " : "") + k.regs[in.d[0].reg].name;
    lines += (m ? ", " : "") + std::to_string(in.ptx_line);
  }
  std::string addr = head.a.has_base ? k.regs[head.a.base].name : std::string();
  if (head.a.offset || !head.a.has_base)
    addr += head.a.has_base ? fmt::format("{:+d}", head.a.offset) : std::to_string(head.a.offset);
  return fmt::format("ld.shared.v{}.{} \t{{{}}}, [{}];  // PTX lines {} merged (issue.merge_shared_loads)", g.n,
                     dtype_name(head.type), regs, addr, lines);
}

}  // namespace

uint32_t merge_shared_loads(Kernel& k) {
  const std::vector<bool> special = special_slots(k);
  const KnownAlignment known(k, special);
  std::vector<bool> removed(k.code.size(), false), taken(k.code.size(), false);
  const bool has_text = k.text.size() == k.code.size();
  uint32_t merged = 0;
  for (const BasicBlock& b : build_basic_blocks(k))
    for (uint32_t pc = b.first; pc <= b.last; ++pc) {
      if (taken[pc] || !mergeable_load(k.code[pc])) continue;
      const Instr& head = k.code[pc];
      const uint32_t size = static_cast<uint32_t>(dtype_bytes(head.type));
      const uint32_t base_align = head.a.has_base ? known.of(Operand{Operand::Kind::Reg, false, head.a.base}) : kMaxAlign;
      for (uint32_t n : {4u, 2u}) {
        const uint32_t bytes = n * size;
        if (bytes > kMaxAlign || base_align < bytes || head.a.offset % int64_t(bytes) != 0) continue;
        Group g;
        if (!find_group(k, special, taken, pc, b.last, n, g)) continue;
        Instr v = head;
        v.vec = static_cast<uint8_t>(n);
        v.d[0] = Operand{};
        v.d[0].kind = Operand::Kind::Vec;
        v.d[0].nvec = static_cast<uint8_t>(n);
        for (uint32_t m = 0; m < n; ++m) v.d[0].vec[m] = k.code[g.members[m]].d[0].reg;
        bind_semantics(v, [&](const std::string& why) {
          throw std::logic_error("merge_shared_loads: " + why);
        });
        if (has_text) k.text[pc] = merged_text(k, g);
        k.code[pc] = v;
        for (uint32_t m = 0; m < n; ++m) taken[g.members[m]] = true;
        for (uint32_t m = 1; m < n; ++m) removed[g.members[m]] = true;
        merged += n - 1;
        break;
      }
    }
  if (merged) remove_instructions(k, removed);
  return merged;
}

}  // namespace warpsim::isa
