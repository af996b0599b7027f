#include "sim/sm/device_printf.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

namespace warpsim::sm {

namespace {

// snprintf into a string, growing as needed.
template <class T>
void append_formatted(std::string& out, const std::string& spec, T value) {
  char small[128];
  int n = std::snprintf(small, sizeof small, spec.c_str(), value);
  if (n < 0) return;
  if (static_cast<size_t>(n) < sizeof small) {
    out.append(small, static_cast<size_t>(n));
    return;
  }
  std::vector<char> big(static_cast<size_t>(n) + 1);
  std::snprintf(big.data(), big.size(), spec.c_str(), value);
  out.append(big.data(), static_cast<size_t>(n));
}

}  // namespace

std::string format_device_printf(std::string_view f, const PrintfArgs& args, int& consumed) {
  std::string out;
  consumed = 0;
  size_t i = 0;
  while (i < f.size()) {
    char ch = f[i];
    if (ch != '%') {
      out.push_back(ch);
      ++i;
      continue;
    }
    const size_t start = i++;
    if (i < f.size() && f[i] == '%') {
      out.push_back('%');
      ++i;
      continue;
    }
    std::string spec = "%";
    while (i < f.size() && std::strchr("-+ #0", f[i])) spec.push_back(f[i++]);
    auto number = [&] {  // width or precision: digits, or '*' taking an int argument
      if (i < f.size() && f[i] == '*') {
        ++i;
        ++consumed;
        spec += std::to_string(static_cast<int32_t>(args.next(4)));
        return;
      }
      while (i < f.size() && f[i] >= '0' && f[i] <= '9') spec.push_back(f[i++]);
    };
    number();
    if (i < f.size() && f[i] == '.') {
      spec.push_back(f[i++]);
      number();
    }
    int longs = 0, shorts = 0;
    while (i < f.size() && std::strchr("hlLqjzt", f[i])) {
      char m = f[i++];
      if (m == 'h') ++shorts;
      else if (m == 'l') ++longs;
      else longs = 2;  // L, q, j, z, t: 64-bit
    }
    if (i >= f.size()) {  // a format ending inside a conversion: copied as written
      out.append(f.substr(start));
      break;
    }
    const char conv = f[i++];
    switch (conv) {
      case 'd': case 'i': {
        ++consumed;
        long long v = longs ? static_cast<long long>(args.next(8)) : static_cast<int32_t>(args.next(4));
        if (!longs && shorts == 1) v = static_cast<short>(v);
        if (!longs && shorts >= 2) v = static_cast<signed char>(v);
        append_formatted(out, spec + "ll" + conv, v);
        break;
      }
      case 'u': case 'o': case 'x': case 'X': {
        ++consumed;
        unsigned long long v = longs ? args.next(8) : static_cast<uint32_t>(args.next(4));
        if (!longs && shorts == 1) v = static_cast<unsigned short>(v);
        if (!longs && shorts >= 2) v = static_cast<unsigned char>(v);
        append_formatted(out, spec + "ll" + conv, v);
        break;
      }
      case 'c':
        ++consumed;
        append_formatted(out, spec + 'c', static_cast<int>(static_cast<int32_t>(args.next(4))));
        break;
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
        ++consumed;
        uint64_t bits = args.next(8);
        double d;
        std::memcpy(&d, &bits, sizeof d);
        append_formatted(out, spec + conv, d);
        break;
      }
      case 's': {
        ++consumed;
        uint64_t p = args.next(8);
        std::string s = p ? args.string_at(p) : std::string("(null)");
        append_formatted(out, spec + 's', s.c_str());
        break;
      }
      case 'p': {
        ++consumed;
        uint64_t p = args.next(8);
        append_formatted(out, spec + 'p', reinterpret_cast<void*>(static_cast<uintptr_t>(p)));
        break;
      }
      default:  // %n and anything unknown: not interpreted
        out.append(f.substr(start, i - start));
        break;
    }
  }
  return out;
}

}  // namespace warpsim::sm
