#include "kernels/references/reference.hpp"

namespace warpsim::ref {

void ReferenceContext::fail(const std::string& msg) const {
  throw ConfigError(fmt::format("{}: check.reference: reference '{}': {}", spec_.path, spec_.check.reference, msg));
}

void ReferenceContext::expect_args(size_t n) const {
  if (spec_.args.size() != n)
    fail(fmt::format("expects the kernel's {} arguments, the spec passes {}", n, spec_.args.size()));
}

const ArgSpec& ReferenceContext::arg_at(size_t arg) const {
  if (arg >= spec_.args.size())
    fail(fmt::format("needs argument {}, the spec passes {}", arg, spec_.args.size()));
  return spec_.args[arg];
}

HostBuffer& ReferenceContext::named_buffer(const std::string& name, const std::string& what, ElemType want) {
  auto it = memory_.find(name);
  if (it == memory_.end()) fail(fmt::format("{}: no buffer '{}'", what, name));
  if (it->second.type != want)
    fail(fmt::format("{} must be a {} buffer, got '{}' ({})", what, elem_name(want), name,
                     elem_name(it->second.type)));
  return it->second;
}

HostBuffer& ReferenceContext::buffer_at(size_t arg, ElemType want) {
  const ArgSpec& a = arg_at(arg);
  std::string what = fmt::format("argument {}", arg);
  if (a.kind != ArgSpec::Kind::Buffer) fail(fmt::format("{} must be a {} buffer", what, elem_name(want)));
  return named_buffer(a.buffer, what, want);
}

ElemType ReferenceContext::buffer_type(size_t arg) {
  const ArgSpec& a = arg_at(arg);
  if (a.kind != ArgSpec::Kind::Buffer) fail(fmt::format("argument {} must be a buffer", arg));
  auto it = memory_.find(a.buffer);
  if (it == memory_.end()) fail(fmt::format("argument {}: no buffer '{}'", arg, a.buffer));
  return it->second.type;
}

HostBuffer& ReferenceContext::struct_buffer_at(size_t arg, size_t field, ElemType want) {
  const ArgSpec& a = arg_at(arg);
  std::string what = fmt::format("argument {} field {}", arg, field);
  if (a.kind != ArgSpec::Kind::Struct || field >= a.fields.size() || a.fields[field].buffer.empty())
    fail(fmt::format("{} must be a pointer to a {} buffer", what, elem_name(want)));
  return named_buffer(a.fields[field].buffer, what, want);
}

int64_t ReferenceContext::integer(size_t arg) const {
  const ArgSpec& a = arg_at(arg);
  if (a.kind != ArgSpec::Kind::Int) fail(fmt::format("argument {} must be an integer", arg));
  return a.integer;
}

double ReferenceContext::real(size_t arg) const {
  const ArgSpec& a = arg_at(arg);
  if (a.kind == ArgSpec::Kind::Int) return static_cast<double>(a.integer);
  if (a.kind != ArgSpec::Kind::Real) fail(fmt::format("argument {} must be a number", arg));
  return a.real;
}

}  // namespace warpsim::ref
