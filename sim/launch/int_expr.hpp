// Integer expressions of launch specs: "width/16", "ceil_div(n, 256)", "2*tile+1".
//
// Grammar: + - * / % (C precedence, left associative), unary minus, parentheses,
// ceil_div(a, b), min(a, b), max(a, b), decimal literals and variable names. Arithmetic
// is on int64; division and remainder truncate toward zero like C. Errors (bad syntax,
// unknown name, division by zero, overflow) throw ConfigError "<where>: <message>" so the
// caller can name the file and key path.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace warpsim {

using IntVars = std::map<std::string, int64_t>;

int64_t eval_int_expr(std::string_view text, const IntVars& vars, const std::string& where);

}  // namespace warpsim
