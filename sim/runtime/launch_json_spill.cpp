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
  if (!in_memory_) {
    // Flushed at once, so that a full disk shows here and file_bytes_ is what the file holds.
    if (std::fwrite(text.data(), 1, text.size(), file_) == text.size() && std::fflush(file_) == 0) {
      file_bytes_ += text.size();
      ++count_;
      return;
    }
    move_to_memory();
  }
  memory_ += text;
  ++count_;
}

void LaunchJsonSpill::move_to_memory() {
  // The temporary file could not take a launch (a full disk): what it holds in full comes
  // back into memory, and the report goes on there.
  std::clearerr(file_);
  std::rewind(file_);
  memory_.resize(file_bytes_);
  const size_t got = file_bytes_ ? std::fread(memory_.data(), 1, file_bytes_, file_) : 0;
  std::fclose(file_);
  file_ = nullptr;
  in_memory_ = true;
  if (got != file_bytes_) throw std::runtime_error("the JSON report's temporary file cannot be read back");
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
