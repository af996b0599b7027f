// Shared by the JSON-reading fuzz targets: the input as a JSON document, or null when it
// does not parse (syntax errors are nlohmann's business, not the readers').
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <nlohmann/json.hpp>

namespace warpsim::fuzz {

inline std::optional<nlohmann::json> parse_json(const uint8_t* data, size_t size) {
  auto doc = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return std::nullopt;
  return doc;
}

}  // namespace warpsim::fuzz
