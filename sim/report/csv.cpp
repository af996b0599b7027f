#include "sim/report/csv.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "sim/foundation/error.hpp"

namespace warpsim::csv {

std::string quote(const std::string& field) {
  bool needs = field.find_first_of(",\"\r\n") != std::string::npos ||
               (!field.empty() && (field.front() == ' ' || field.back() == ' '));
  if (!needs) return field;
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string format_row(const std::vector<std::string>& fields) {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    out += quote(fields[i]);
  }
  return out + "\n";
}

int Table::column(const std::string& name) const {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return int(i);
  return -1;
}

Table parse(const std::string& text, const std::string& name) {
  std::vector<std::vector<std::string>> records;
  std::vector<size_t> record_line;
  std::vector<std::string> record;
  std::string field;
  size_t line = 1, start_line = 1;
  bool in_quotes = false, field_started = false, any = false;
  auto end_field = [&] {
    record.push_back(std::move(field));
    field.clear();
    field_started = false;
  };
  auto end_record = [&] {
    end_field();
    records.push_back(std::move(record));
    record_line.push_back(start_line);
    record.clear();
    any = false;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          in_quotes = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (!any) start_line = line;
    switch (c) {
      case '"':
        if (field_started && !field.empty())
          throw ConfigError(fmt::format("{}:{}: a quote inside an unquoted field", name, line));
        in_quotes = true;
        field_started = any = true;
        break;
      case ',':
        end_field();
        any = true;
        break;
      case '\r':
        if (i + 1 < text.size() && text[i + 1] == '\n') break;
        [[fallthrough]];
      case '\n':
        end_record();
        ++line;
        break;
      default:
        field += c;
        field_started = any = true;
    }
  }
  if (in_quotes) throw ConfigError(fmt::format("{}:{}: unterminated quoted field", name, start_line));
  if (any || !field.empty()) end_record();
  // Blank lines carry no record.
  Table t;
  for (size_t r = 0; r < records.size(); ++r) {
    if (records[r].size() == 1 && records[r][0].empty()) continue;
    if (t.header.empty()) {
      t.header = std::move(records[r]);
      continue;
    }
    if (records[r].size() != t.header.size())
      throw ConfigError(fmt::format("{}:{}: {} fields, but the header has {}", name, record_line[r],
                                    records[r].size(), t.header.size()));
    t.rows.push_back(std::move(records[r]));
  }
  if (t.header.empty()) throw ConfigError(fmt::format("{}: empty CSV (no header)", name));
  return t;
}

Table read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(fmt::format("{}: cannot open file", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return parse(ss.str(), path);
}

}  // namespace warpsim::csv
