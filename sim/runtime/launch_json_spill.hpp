// Each launch's part of the exit report's JSON, made when the launch ends and kept in a
// temporary file until the program exits: a program's thousands of launches cost no memory
// for it (each LaunchRecord keeps only what the summary needs).
#pragma once
#include <cstddef>
#include <cstdio>
#include <ostream>
#include <string>

namespace warpsim::runtime {

struct LaunchRecord;

class LaunchJsonSpill {
 public:
  LaunchJsonSpill() = default;
  ~LaunchJsonSpill();
  LaunchJsonSpill(const LaunchJsonSpill&) = delete;
  LaunchJsonSpill& operator=(const LaunchJsonSpill&) = delete;

  void add(const LaunchRecord& r);
  size_t size() const { return count_; }
  // The report's "launches" value: "[\n", the launches separated by ",\n" and indented as
  // the document's dump(2) indents them, "\n  ]"; "[]" when there are none.
  void write_array(std::ostream& out) const;

 private:
  void move_to_memory();

  std::FILE* file_ = nullptr;  // std::tmpfile(), made at the first launch
  size_t file_bytes_ = 0;      // written to it in full
  bool in_memory_ = false;     // no temporary file could be made or written: the text is here
  std::string memory_;
  size_t count_ = 0;
};

}  // namespace warpsim::runtime
