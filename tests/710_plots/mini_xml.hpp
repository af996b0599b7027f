// A tiny XML well-formedness checker and DOM for the SVG tests: elements, attributes
// (quoted, unique), text with the five predefined entities and numeric references,
// comments, the XML declaration. Throws std::runtime_error("offset N: ...") on the first
// error. Enough to prove an SVG parses as XML; not a general XML parser (no DTD, no CDATA).
#pragma once
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mini_xml {

struct Element {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::vector<std::unique_ptr<Element>> children;
  std::string text;  // direct text content, entities decoded

  std::string attr(const std::string& k) const {
    auto it = attrs.find(k);
    return it == attrs.end() ? "" : it->second;
  }
  // Every descendant (and this) with the element name, or any name when empty, whose
  // attribute `key` equals `value` when key is given; in document order.
  void find_all(const std::string& tag, std::vector<const Element*>& out, const std::string& key = "",
                const std::string& value = "") const {
    if ((tag.empty() || name == tag) && (key.empty() || attr(key) == value)) out.push_back(this);
    for (const auto& c : children) c->find_all(tag, out, key, value);
  }
  std::vector<const Element*> all(const std::string& tag, const std::string& key = "", const std::string& value = "") const {
    std::vector<const Element*> out;
    find_all(tag, out, key, value);
    return out;
  }
  // Text of this element and all its descendants.
  std::string all_text() const {
    std::string s = text;
    for (const auto& c : children) s += c->all_text();
    return s;
  }
};

class Parser {
 public:
  explicit Parser(const std::string& s) : s_(s) {}

  std::unique_ptr<Element> document() {
    skip_space();
    if (s_.compare(i_, 5, "<?xml") == 0) {
      auto end = s_.find("?>", i_);
      if (end == std::string::npos) fail("unterminated XML declaration");
      i_ = end + 2;
    }
    skip_misc();
    if (i_ >= s_.size() || s_[i_] != '<') fail("expected the root element");
    auto root = element();
    skip_misc();
    if (i_ != s_.size()) fail("content after the root element");
    return root;
  }

 private:
  const std::string& s_;
  size_t i_ = 0;

  [[noreturn]] void fail(const std::string& m) const { throw std::runtime_error("offset " + std::to_string(i_) + ": " + m); }
  static bool name_char(char c) {
    return std::isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.' || c == ':' || (unsigned char)c >= 0x80;
  }
  void skip_space() {
    while (i_ < s_.size() && std::isspace((unsigned char)s_[i_])) ++i_;
  }
  void skip_misc() {
    while (true) {
      skip_space();
      if (s_.compare(i_, 4, "<!--") == 0) {
        auto end = s_.find("-->", i_);
        if (end == std::string::npos) fail("unterminated comment");
        i_ = end + 3;
      } else {
        return;
      }
    }
  }
  std::string name() {
    size_t b = i_;
    if (i_ >= s_.size() || !(std::isalpha((unsigned char)s_[i_]) || s_[i_] == '_' || s_[i_] == ':')) fail("expected a name");
    while (i_ < s_.size() && name_char(s_[i_])) ++i_;
    return s_.substr(b, i_ - b);
  }
  std::string decode(const std::string& raw) {
    std::string out;
    for (size_t k = 0; k < raw.size(); ++k) {
      char c = raw[k];
      if (c == '<') fail("'<' in text or an attribute");
      if (c != '&') {
        out += c;
        continue;
      }
      auto semi = raw.find(';', k);
      if (semi == std::string::npos) fail("'&' without ';'");
      std::string ent = raw.substr(k + 1, semi - k - 1);
      if (ent == "amp") out += '&';
      else if (ent == "lt") out += '<';
      else if (ent == "gt") out += '>';
      else if (ent == "quot") out += '"';
      else if (ent == "apos") out += '\'';
      else if (ent.size() > 1 && ent[0] == '#') out += '?';
      else fail("unknown entity &" + ent + ";");
      k = semi;
    }
    return out;
  }
  std::unique_ptr<Element> element() {
    ++i_;  // '<'
    auto e = std::make_unique<Element>();
    e->name = name();
    while (true) {
      skip_space();
      if (i_ >= s_.size()) fail("unterminated start tag <" + e->name);
      if (s_.compare(i_, 2, "/>") == 0) {
        i_ += 2;
        return e;
      }
      if (s_[i_] == '>') {
        ++i_;
        break;
      }
      std::string key = name();
      skip_space();
      if (i_ >= s_.size() || s_[i_] != '=') fail("attribute " + key + " without '='");
      ++i_;
      skip_space();
      if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\'')) fail("attribute " + key + " not quoted");
      char q = s_[i_++];
      auto end = s_.find(q, i_);
      if (end == std::string::npos) fail("unterminated attribute " + key);
      if (e->attrs.count(key)) fail("duplicate attribute " + key);
      e->attrs[key] = decode(s_.substr(i_, end - i_));
      i_ = end + 1;
    }
    while (true) {
      auto lt = s_.find('<', i_);
      if (lt == std::string::npos) fail("unterminated element <" + e->name + ">");
      e->text += decode(s_.substr(i_, lt - i_));
      i_ = lt;
      if (s_.compare(i_, 4, "<!--") == 0) {
        skip_misc();
      } else if (s_.compare(i_, 2, "</") == 0) {
        i_ += 2;
        std::string closing = name();
        if (closing != e->name) fail("</" + closing + "> closes <" + e->name + ">");
        skip_space();
        if (i_ >= s_.size() || s_[i_] != '>') fail("bad end tag");
        ++i_;
        return e;
      } else {
        e->children.push_back(element());
      }
    }
  }
};

inline std::unique_ptr<Element> parse(const std::string& text) { return Parser(text).document(); }

}  // namespace mini_xml
