// Calls of the warp executor: device functions (a frame per activation on each thread's
// stack in local memory, the callee's registers, predicates and parameters saved there and
// restored on return, so recursion works), and the builtins vprintf and __assertfail.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "sim/foundation/error.hpp"
#include "sim/sm/device_printf.hpp"
#include "sim/sm/warp_executor.hpp"

namespace warpsim::sm {

namespace {

uint32_t align16(uint64_t v) { return static_cast<uint32_t>((v + 15) / 16 * 16); }

}  // namespace

void set_local_layout(LaunchContext& ctx, const isa::Kernel& k, uint32_t stack_bytes) {
  ctx.local_stride = ctx.call_param_base = ctx.stack_base = k.local_bytes;
  if (k.calls.empty()) return;
  ctx.call_param_base = align16(k.local_bytes);
  ctx.stack_base = align16(uint64_t(ctx.call_param_base) + k.call_param_bytes);
  // As the CUDA driver does, the stack is at least what the deepest call chain needs when
  // that is known (no recursion); cudaLimitStackSize bounds recursive code only.
  const uint64_t need = k.static_stack_bytes.value_or(0);
  const uint64_t stack = std::max<uint64_t>(stack_bytes, need);
  ctx.local_stride = ctx.stack_base + (k.functions.empty() ? 0 : align16(stack));
}

void WarpExecutor::call(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask) {
  const isa::Kernel& k = *ctx_.kernel;
  const isa::CallSite& cs = k.calls[static_cast<size_t>(in.a.target)];
  if (cs.builtin == isa::Builtin::Vprintf) return builtin_printf(w, cs, pc, mask);
  if (cs.builtin == isa::Builtin::AssertFail) builtin_assert(w, cs, pc, mask);
  if (cs.builtin == isa::Builtin::Malloc) return builtin_malloc(w, cs, pc, mask);
  if (cs.builtin == isa::Builtin::Free) return builtin_free(w, cs, pc, mask);
  if (cs.builtin == isa::Builtin::GraphSetConditional) return builtin_set_conditional(w, cs, pc, mask);
  if (isa::is_device_runtime(cs.builtin)) return device_runtime_call(w, cs, pc, mask);
  const int32_t callee = cs.indirect ? indirect_target(w, in, pc, mask) : cs.callee;
  if (callee < 0) return;  // split into one path per target; each re-executes the call
  const isa::Function& f = k.functions[static_cast<size_t>(callee)];
  const uint32_t sp = w.frames.empty() ? ctx_.stack_base : w.frames.back().sp_end;
  const uint64_t end = uint64_t(sp) + f.frame_bytes;
  if (end > ctx_.local_stride)
    fault(w, std::countr_zero(mask), pc,
          fmt::format("stack overflow: the call of '{}' at call depth {} needs {} bytes of stack, more than the "
                      "thread's {}-byte stack (cudaLimitStackSize; each activation of '{}' takes {} bytes)",
                      f.name, w.frames.size() + 1, end - ctx_.stack_base, ctx_.local_stride - ctx_.stack_base, f.name,
                      f.frame_bytes));
  const uint32_t save_at = sp + align16(f.depot_bytes);
  exec::for_lanes(mask, [&](int l) {
    uint8_t* local = w.local + size_t(l) * ctx_.local_stride;
    uint8_t* p = local + save_at;
    for (uint32_t s = f.first_slot; s < f.end_slot; ++s) {
      const uint64_t v = w.regs[size_t(s) * isa::kWarpLanes + l];
      const size_t n = isa::dtype_bytes(k.regs[s].type) == 8 ? 8 : 4;
      std::memcpy(p, &v, n);  // little-endian: the low bytes
      p += n;
    }
    for (uint32_t q = f.first_pred; q < f.end_pred; ++q) *p++ = static_cast<uint8_t>(w.preds[q] >> l & 1);
    uint8_t* params = call_params(w, l);
    std::memcpy(p, params + f.param_base, f.param_bytes);
    for (size_t i = 0; i < cs.arg_offsets.size(); ++i)
      std::memcpy(params + f.arg_offsets[i], params + cs.arg_offsets[i], cs.arg_sizes[i]);
    w.regs[size_t(f.frame_slot) * isa::kWarpLanes + l] = sp;
  });
  w.frames.push_back(
      {pc, static_cast<uint32_t>(in.a.target), callee, mask, sp, static_cast<uint32_t>(end), w.stack.depth()});
  w.stack.push_call(f.entry, mask);
}

int32_t WarpExecutor::indirect_target(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask) {
  const isa::Kernel& k = *ctx_.kernel;
  const isa::CallSite& cs = k.calls[static_cast<size_t>(in.a.target)];
  const uint64_t* addr = w.regs + size_t(in.b.reg) * isa::kWarpLanes;
  auto resolve = [&](int l) -> int32_t {
    for (const isa::FunctionAddress& fa : k.function_addresses)
      if (fa.address == addr[l]) {
        const isa::Function& f = k.functions[static_cast<size_t>(fa.function)];
        if (f.arg_sizes != cs.arg_sizes || f.ret_sizes != cs.ret_sizes)
          fault(w, l, pc,
                fmt::format("indirect call of '{}' (address {:#x}) through a prototype with other parameters: it "
                            "takes {} argument(s) and {} result(s) of other sizes than the call passes",
                            f.name, addr[l], f.arg_sizes.size(), f.ret_sizes.size()));
        return fa.function;
      }
    fault(w, l, pc,
          fmt::format("indirect call of address {:#x}, which is not the address of a device function of this module",
                      addr[l]));
  };
  const int first = std::countr_zero(mask);
  const int32_t target = resolve(first);
  uint32_t rest = 0;
  exec::for_lanes(mask, [&](int l) {
    if (addr[l] != addr[first]) rest |= 1u << l;
    resolve(l);  // every calling thread's target is checked before any runs
  });
  if (!rest) return target;
  // Different targets: one path per target, the lowest lane's first (pushed last), each
  // reconverging at the return address, where the caller's entry already waits.
  std::vector<uint32_t> groups;
  for (uint32_t left = mask; left;) {
    const uint64_t a = addr[std::countr_zero(left)];
    uint32_t g = 0;
    exec::for_lanes(left, [&](int l) {
      if (addr[l] == a) g |= 1u << l;
    });
    groups.push_back(g);
    left &= ~g;
  }
  for (size_t i = groups.size(); i-- > 0;)
    w.stack.push_path(static_cast<int32_t>(pc), static_cast<int32_t>(pc + 1), groups[i]);
  return -1;
}

void WarpExecutor::func_return(Warp& w, uint32_t pc) {
  const isa::Kernel& k = *ctx_.kernel;
  if (w.frames.empty() || w.stack.depth() != w.frames.back().simt_depth + 1)
    fault(w, std::countr_zero(w.stack.top().mask), pc,
          "return from a device function whose threads have not reconverged (unstructured control flow)",
          KernelFault::Kind::Trap);
  const CallFrame fr = w.frames.back();
  const isa::CallSite& cs = k.calls[fr.callsite];
  const isa::Function& f = k.functions[static_cast<size_t>(fr.callee)];
  const uint32_t mask = w.stack.top().mask;
  const uint32_t save_at = fr.sp + align16(f.depot_bytes);
  std::vector<uint8_t> results;
  exec::for_lanes(mask, [&](int l) {
    uint8_t* params = call_params(w, l);
    // The results first (restoring the callee's parameters overwrites them), then the
    // callee's saved state, then the results into the caller's .params.
    results.clear();
    for (size_t i = 0; i < f.ret_offsets.size(); ++i)
      results.insert(results.end(), params + f.ret_offsets[i], params + f.ret_offsets[i] + f.ret_sizes[i]);
    const uint8_t* p = w.local + size_t(l) * ctx_.local_stride + save_at;
    for (uint32_t s = f.first_slot; s < f.end_slot; ++s) {
      uint64_t v = 0;
      const size_t n = isa::dtype_bytes(k.regs[s].type) == 8 ? 8 : 4;
      std::memcpy(&v, p, n);
      w.regs[size_t(s) * isa::kWarpLanes + l] = v;
      p += n;
    }
    for (uint32_t q = f.first_pred; q < f.end_pred; ++q) {
      w.preds[q] = (w.preds[q] & ~(1u << l)) | (uint32_t(*p++ & 1) << l);
    }
    std::memcpy(params + f.param_base, p, f.param_bytes);
    size_t at = 0;
    for (size_t i = 0; i < cs.ret_offsets.size(); ++i) {
      std::memcpy(params + cs.ret_offsets[i], results.data() + at, cs.ret_sizes[i]);
      at += cs.ret_sizes[i];
    }
  });
  w.frames.pop_back();
  w.stack.pop_call();
}

uint8_t* WarpExecutor::shared_or_local(const Warp& w, uint32_t lane, uint64_t a, uint32_t n, bool& windowed) const {
  windowed = true;
  if (a - isa::kSharedWindow < isa::kWindowSize) {
    const uint64_t off = a - isa::kSharedWindow;
    if (ctx_.clusters && (off >> isa::kClusterRankShift) != 0) {  // another block's, of the cluster
      const BlockState* b = cluster_block(w, off);
      const uint64_t in_block = off & isa::kSharedOffsetMask;
      return !b || in_block + n > b->shared_bytes ? nullptr : const_cast<uint8_t*>(b->shared.data()) + in_block;
    }
    return off + n > w.block->shared_bytes ? nullptr : w.block->shared.data() + off;
  }
  if (a - isa::kLocalWindow < isa::kWindowSize) {
    const uint64_t off = a - isa::kLocalWindow;
    return off + n > ctx_.local_stride ? nullptr : w.local + size_t(lane) * ctx_.local_stride + off;
  }
  windowed = false;
  return nullptr;
}

bool WarpExecutor::read_generic(const Warp& w, uint32_t lane, uint64_t a, void* out, uint32_t n) const {
  bool windowed = false;
  if (const uint8_t* p = shared_or_local(w, lane, a, n, windowed)) {
    std::memcpy(out, p, n);
    return true;
  }
  if (windowed) return false;
  const auto* al = ctx_.gmem->find(a, n);
  if (!al) return false;
  ctx_.gmem->read(*al, a, out, n);
  return true;
}

std::string WarpExecutor::read_string(const Warp& w, uint32_t lane, uint64_t a, uint32_t pc, const char* what) const {
  std::string s;
  constexpr size_t kMax = 1 << 16;
  for (char c; s.size() < kMax; ++a, s.push_back(c)) {
    if (!read_generic(w, lane, a, &c, 1))
      fault(w, lane, pc, fmt::format("{} at {:#x} is not a NUL-terminated string in device memory", what, a - s.size()));
    if (c == 0) return s;
  }
  return s;
}

void WarpExecutor::builtin_printf(Warp& w, const isa::CallSite& cs, uint32_t pc, uint32_t mask) {
  const uint32_t call = w.printf_calls++;
  exec::for_lanes(mask, [&](int l) {
    uint8_t* params = call_params(w, l);
    uint64_t format_at = 0, args_at = 0;
    std::memcpy(&format_at, params + cs.arg_offsets[0], 8);
    std::memcpy(&args_at, params + cs.arg_offsets[1], 8);
    const std::string format = read_string(w, l, format_at, pc, "printf's format");
    uint64_t offset = 0;
    PrintfArgs args;
    args.next = [&](uint32_t bytes) -> uint64_t {
      offset = (offset + bytes - 1) / bytes * bytes;
      uint64_t v = 0;
      if (!args_at || !read_generic(w, l, args_at + offset, &v, bytes))
        fault(w, l, pc, fmt::format("printf \"{}\": its argument at offset {} cannot be read (at {:#x})", format, offset,
                                    args_at + offset));
      offset += bytes;
      return v;
    };
    args.string_at = [&](uint64_t p) { return read_string(w, l, p, pc, "a printf %s argument"); };
    int consumed = 0;
    std::string text = format_device_printf(format, args, consumed);
    printf_.push_back({w.block->linear, w.index, call, static_cast<uint32_t>(l), std::move(text)});
    if (!cs.ret_offsets.empty()) {
      const int32_t r = consumed;
      std::memcpy(params + cs.ret_offsets[0], &r, std::min<size_t>(cs.ret_sizes[0], 4));
    }
  });
}

void WarpExecutor::builtin_assert(Warp& w, const isa::CallSite& cs, uint32_t pc, uint32_t mask) {
  const uint32_t l = static_cast<uint32_t>(std::countr_zero(mask));
  const uint8_t* params = call_params(w, l);
  uint64_t message = 0, file = 0, function = 0;
  uint32_t line = 0;
  std::memcpy(&message, params + cs.arg_offsets[0], 8);
  std::memcpy(&file, params + cs.arg_offsets[1], 8);
  std::memcpy(&line, params + cs.arg_offsets[2], 4);
  std::memcpy(&function, params + cs.arg_offsets[3], 8);
  fault(w, l, pc,
        fmt::format("device assert failed: {}:{}: {}: Assertion `{}` failed",
                    read_string(w, l, file, pc, "__assertfail's file"), line,
                    read_string(w, l, function, pc, "__assertfail's function"),
                    read_string(w, l, message, pc, "__assertfail's message")),
        KernelFault::Kind::Assert);
}

// malloc and free take effect lane by lane in lane order, so the blocks (and which lanes
// get NULL when the heap runs out) are the same in every run.
void WarpExecutor::builtin_malloc(Warp& w, const isa::CallSite& cs, uint32_t pc, uint32_t mask) {
  if (!ctx_.heap) fault(w, static_cast<uint32_t>(std::countr_zero(mask)), pc, "malloc: this launch has no device heap");
  exec::for_lanes(mask, [&](int l) {
    uint8_t* params = call_params(w, l);
    uint64_t bytes = 0;
    std::memcpy(&bytes, params + cs.arg_offsets[0], 8);
    const uint64_t p = ctx_.heap->allocate(bytes);
    std::memcpy(params + cs.ret_offsets[0], &p, 8);
  });
}

void WarpExecutor::builtin_free(Warp& w, const isa::CallSite& cs, uint32_t pc, uint32_t mask) {
  if (!ctx_.heap) fault(w, static_cast<uint32_t>(std::countr_zero(mask)), pc, "free: this launch has no device heap");
  exec::for_lanes(mask, [&](int l) {
    uint64_t p = 0;
    std::memcpy(&p, call_params(w, l) + cs.arg_offsets[0], 8);
    if (!ctx_.heap->release(p))
      fault(w, l, pc,
            fmt::format("free({:#x}): not a block that malloc returned in a kernel, or freed already ({})", p,
                        ctx_.gmem->describe(p, 1)));
  });
}

// A conditional handle is the device address of the condition's 32-bit word, which the
// runtime made when the handle was created and reads when the conditional node runs. Calls
// of several lanes race on hardware (undefined); here the lanes write in lane order.
void WarpExecutor::builtin_set_conditional(Warp& w, const isa::CallSite& cs, uint32_t pc, uint32_t mask) {
  exec::for_lanes(mask, [&](int l) {
    uint64_t handle = 0;
    uint32_t value = 0;
    std::memcpy(&handle, call_params(w, l) + cs.arg_offsets[0], 8);
    std::memcpy(&value, call_params(w, l) + cs.arg_offsets[1], 4);
    mem::GlobalMemory::Allocation* a = ctx_.gmem->find(handle, 4);
    if (!a || handle % 4 != 0)
      fault(w, l, pc,
            fmt::format("cudaGraphSetConditional({:#x}, {}): not a handle from cudaGraphConditionalHandleCreate ({})",
                        handle, value, ctx_.gmem->describe(handle, 4)));
    ctx_.gmem->write(*a, handle, &value, 4);
  });
}

void WarpExecutor::move_printf_to(WarpExecutor& into) {
  for (PrintfRecord& r : printf_) into.printf_.push_back(std::move(r));
  printf_.clear();
}

std::vector<std::string> WarpExecutor::take_printf_output() {
  std::stable_sort(printf_.begin(), printf_.end(), [](const PrintfRecord& a, const PrintfRecord& b) {
    if (a.block != b.block) return a.block < b.block;
    if (a.warp != b.warp) return a.warp < b.warp;
    if (a.call != b.call) return a.call < b.call;
    return a.lane < b.lane;
  });
  std::vector<std::string> out;
  out.reserve(printf_.size());
  for (auto& r : printf_) out.push_back(std::move(r.text));
  printf_.clear();
  return out;
}

}  // namespace warpsim::sm
