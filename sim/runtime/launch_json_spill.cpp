#include "sim/runtime/launch_json_spill.hpp"

#include <stdexcept>
#include <vector>

#include "sim/runtime/exec_report.hpp"

namespace warpsim::runtime {

LaunchJsonSpill::~LaunchJsonSpill() {
  if (file_) std::fclose(file_);
}

void LaunchJsonSpill::add(const LaunchRecord& r) {
  std::string text = count_ ? ",\n" : "";
  text += launch_json_element(r);
  if (!file_ && !in_memory_) {
    file_ = std::tmpfile();
    in_memory_ = file_ == nullptr;
  }
  if (in_memory_) {
    memory_ += text;
  } else if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) {
    throw std::runtime_error("the JSON report's temporary file could not be written");
  }
  ++count_;
}

void LaunchJsonSpill::write_array(std::ostream& out) const {
  if (count_ == 0) {
    out << "[]";
    return;
  }
  out << "[\n";
  if (in_memory_) {
    out << memory_;
  } else {
    std::fflush(file_);
    std::rewind(file_);
    std::vector<char> buffer(1 << 16);
    for (size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), file_)) > 0;) out.write(buffer.data(), n);
    std::fseek(file_, 0, SEEK_END);  // later launches append
  }
  out << "\n  ]";
}

}  // namespace warpsim::runtime
