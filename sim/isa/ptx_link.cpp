// Linking PTX modules of separately compiled units (ptx_link.hpp): statements at module
// scope are found with the lexer, and each unit's text is copied statement by statement,
// with its renamed identifiers and renumbered file indices replaced token by token.
#include "sim/isa/ptx_link.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "sim/foundation/error.hpp"
#include "sim/isa/ptx_lexer.hpp"

namespace warpsim::isa {

namespace {

enum class Linkage { Internal, Visible, Extern, Weak };

struct Stmt {
  size_t first = 0, end = 0;  // tokens [first, end)
  Linkage linkage = Linkage::Internal;
  std::string_view kind;      // ".entry", ".func", ".global", ".version", ...
  std::string name;           // the symbol it declares ("" for directives without one)
  bool body = false;          // a function with its body
  bool is_var() const { return kind == ".global" || kind == ".const" || kind == ".shared"; }
  bool defines() const { return linkage != Linkage::Extern && (is_var() || body); }
};

struct Unit {
  const PtxUnit* src = nullptr;
  std::vector<Token> toks;
  std::vector<Stmt> stmts;
  std::map<std::string, std::string, std::less<>> rename;
  uint64_t file_offset = 0, max_file = 0;
};

[[noreturn]] void fail(const Unit& u, const Token& at, const std::string& why) {
  throw PtxError(fmt::format("{}:{}:{}: link: {}", u.src->name, at.line, at.col, why));
}

// The statements at module scope, with what each declares.
void find_statements(Unit& u) {
  const std::vector<Token>& t = u.toks;
  size_t i = 0;
  auto at_end = [&] { return i >= t.size() || t[i].kind == Tok::End; };
  while (!at_end()) {
    Stmt s;
    s.first = i;
    while (!at_end() && t[i].kind == Tok::Directive &&
           (t[i].text == ".visible" || t[i].text == ".extern" || t[i].text == ".weak")) {
      s.linkage = t[i].text == ".visible" ? Linkage::Visible : t[i].text == ".extern" ? Linkage::Extern : Linkage::Weak;
      ++i;
    }
    if (at_end() || t[i].kind != Tok::Directive) fail(u, t[std::min(i, t.size() - 1)], "expected a directive");
    s.kind = t[i].text;
    const size_t k = i++;
    if (s.kind == ".version" || s.kind == ".address_size") {
      ++i;
    } else if (s.kind == ".target" || s.kind == ".file") {
      if (s.kind == ".file" && i < t.size() && t[i].kind == Tok::Int) u.max_file = std::max(u.max_file, t[i].int_value);
      ++i;
      while (i < t.size() && (t[i].kind == Tok::Ident || t[i].kind == Tok::String || t[i].kind == Tok::Int) &&
             s.kind == ".file")
        ++i;
      while (i + 1 < t.size() && t[i].kind == Tok::Comma) i += 2;
    } else {
      // The symbol: a kernel's name, a function's after its return parameters, a variable's
      // first identifier.
      size_t j = k + 1;
      if (s.kind == ".func") {
        while (j < t.size() && t[j].kind == Tok::Directive) ++j;
        if (j < t.size() && t[j].kind == Tok::LParen)
          for (int depth = 0; j < t.size(); ++j) {
            depth += t[j].kind == Tok::LParen ? 1 : t[j].kind == Tok::RParen ? -1 : 0;
            if (depth == 0) {
              ++j;
              break;
            }
          }
      }
      while (j < t.size() && t[j].kind != Tok::Ident && t[j].kind != Tok::Semi && t[j].kind != Tok::LBrace &&
             t[j].kind != Tok::End)
        ++j;
      if (j < t.size() && t[j].kind == Tok::Ident) s.name = std::string(t[j].text);
      // To its ';' or the end of its body (a variable's braces are its initialiser's).
      for (int init = 0; !at_end() && !(init == 0 && t[i].kind == Tok::Semi); ++i) {
        if (!s.is_var() && init == 0 && t[i].kind == Tok::LBrace) break;
        init += t[i].kind == Tok::LBrace ? 1 : t[i].kind == Tok::RBrace ? -1 : 0;
      }
      if (at_end()) fail(u, t[k], fmt::format("'{}' is not terminated", s.kind));
      if (t[i].kind == Tok::LBrace) {
        s.body = s.kind == ".func" || s.kind == ".entry";
        for (int depth = 0; !at_end(); ++i) {
          depth += t[i].kind == Tok::LBrace ? 1 : t[i].kind == Tok::RBrace ? -1 : 0;
          if (depth == 0) break;
        }
        if (at_end()) fail(u, t[k], fmt::format("'{}' has no closing brace", s.kind));
      }
      ++i;
    }
    s.end = i;
    u.stmts.push_back(std::move(s));
  }
}

// "major.minor" as a number to compare.
double version_of(std::string_view v) { return std::atof(std::string(v).c_str()); }

}  // namespace

std::string link_ptx(const std::vector<PtxUnit>& units) {
  if (units.size() == 1) return units.front().text;
  std::vector<Unit> us(units.size());
  for (size_t i = 0; i < units.size(); ++i) {
    us[i].src = &units[i];
    us[i].toks = lex_ptx(units[i].text, units[i].name);
    find_statements(us[i]);
  }
  // Who defines each shared name: the first .visible definition, else the first .weak one.
  struct Definer {
    size_t unit = 0, stmt = 0;
    bool weak = true;
  };
  std::map<std::string, Definer, std::less<>> definer;
  // Module-scope names: the units that have each as an internal name, and as a shared one.
  std::map<std::string, std::set<size_t>, std::less<>> internal_in, shared_in;
  for (size_t u = 0; u < us.size(); ++u)
    for (size_t s = 0; s < us[u].stmts.size(); ++s) {
      const Stmt& st = us[u].stmts[s];
      if (st.name.empty()) continue;
      (st.linkage == Linkage::Internal ? internal_in : shared_in)[st.name].insert(u);
      if (st.linkage == Linkage::Internal || !st.defines()) continue;
      const bool weak = st.linkage == Linkage::Weak;
      auto it = definer.find(st.name);
      if (it == definer.end()) definer.emplace(st.name, Definer{u, s, weak});
      else if (!weak && !it->second.weak)
        fail(us[u], us[u].toks[st.first],
             fmt::format("'{}' is defined in {} and in {}", st.name, units[it->second.unit].name, units[u].name));
      else if (!weak) it->second = Definer{u, s, false};
    }
  // An internal name is renamed where another unit shares it (a static function with the
  // mangled name of another unit's visible one), and in every unit but the first that has
  // it as an internal name too.
  uint64_t files = 0;
  for (size_t u = 0; u < us.size(); ++u) {
    us[u].file_offset = files;
    files += us[u].max_file;
    for (const Stmt& st : us[u].stmts)
      if (st.linkage == Linkage::Internal && !st.name.empty() &&
          (shared_in.count(st.name) || *internal_in[st.name].begin() != u))
        us[u].rename.emplace(st.name, fmt::format("{}_${}", st.name, u));
  }
  // One statement's text with the unit's renames and file indices applied.
  auto copy = [&](const Unit& u, const Stmt& st, std::string& out) {
    const std::string_view src = u.src->text;
    const size_t from = size_t(u.toks[st.first].text.data() - src.data());
    const Token& last = u.toks[st.end - 1];
    const size_t to = size_t(last.text.data() - src.data()) + last.text.size();
    size_t at = from;
    for (size_t i = st.first; i < st.end; ++i) {
      const Token& t = u.toks[i];
      std::string with;
      if (t.kind == Tok::Ident) {
        auto r = u.rename.find(t.text);
        if (r == u.rename.end()) continue;
        with = r->second;
      } else if (t.kind == Tok::Int && u.file_offset && i > 0 &&
                 ((u.toks[i - 1].kind == Tok::Directive &&
                   (u.toks[i - 1].text == ".file" || u.toks[i - 1].text == ".loc")) ||
                  (u.toks[i - 1].kind == Tok::Ident && u.toks[i - 1].text == "inlined_at"))) {
        with = std::to_string(t.int_value + u.file_offset);
      } else {
        continue;
      }
      const size_t pos = size_t(t.text.data() - src.data());
      out.append(src.substr(at, pos - at));
      out += with;
      at = pos + t.text.size();
    }
    out.append(src.substr(at, to - at));
    out += '\n';
  };
  // The header: the newest .version of the units, the first unit's target.
  std::string out;
  std::string_view version, target_unit;
  for (size_t u = 0; u < us.size(); ++u)
    for (const Stmt& st : us[u].stmts)
      if (st.kind == ".version" && st.first + 1 < us[u].toks.size()) {
        const std::string_view v = us[u].toks[st.first + 1].text;
        if (version.empty() || version_of(v) > version_of(version)) version = v;
      }
  if (!version.empty()) out += fmt::format(".version {}\n", version);
  for (const Stmt& st : us[0].stmts)
    if (st.kind == ".target" || st.kind == ".address_size") copy(us[0], st, out);
  auto keep = [&](size_t u, size_t s) {
    const Stmt& st = us[u].stmts[s];
    if (st.kind == ".version" || st.kind == ".target" || st.kind == ".address_size") return false;
    if (st.name.empty() || st.linkage == Linkage::Internal) return true;
    auto d = definer.find(st.name);
    if (d == definer.end()) return true;           // nobody defines it: as written (vprintf, ...)
    if (!st.defines()) return false;               // a declaration of what another statement defines
    return d->second.unit == u && d->second.stmt == s;  // the definition that serves all
  };
  // Variables first (a kernel may use another unit's), .extern .shared arrays once.
  std::set<std::string, std::less<>> extern_shared;
  for (size_t u = 0; u < us.size(); ++u)
    for (size_t s = 0; s < us[u].stmts.size(); ++s) {
      const Stmt& st = us[u].stmts[s];
      if (!st.is_var()) continue;
      if (st.kind == ".shared" && st.linkage == Linkage::Extern && !extern_shared.insert(st.name).second) continue;
      if (keep(u, s)) copy(us[u], st, out);
    }
  for (size_t u = 0; u < us.size(); ++u)
    for (size_t s = 0; s < us[u].stmts.size(); ++s)
      if (!us[u].stmts[s].is_var() && keep(u, s)) copy(us[u], us[u].stmts[s], out);
  return out;
}

}  // namespace warpsim::isa
