// RFC 4180 CSV: quoting one field, writing a row, and reading a whole table back.
// Used by `warpsim sweep` (writes) and `warpsim plot` (reads).
#pragma once
#include <string>
#include <vector>

namespace warpsim::csv {

// The field as written in a row: quoted ("a ""b""") when it holds a comma, a double
// quote, a line break, or leading/trailing spaces; otherwise as is.
std::string quote(const std::string& field);

// Fields joined by commas and ended by "\n".
std::string format_row(const std::vector<std::string>& fields);

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each as long as the header

  // Index of a header column, or -1.
  int column(const std::string& name) const;
};

// Parses CSV text (quoted fields, "" escapes, CRLF or LF). The first record is the
// header; every row must have as many fields. Errors are ConfigError
// "<name>:<line>: <message>".
Table parse(const std::string& text, const std::string& name);
// The same from a file.
Table read_file(const std::string& path);

}  // namespace warpsim::csv
