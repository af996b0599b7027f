// Links the PTX modules of separately compiled translation units (nvcc -rdc=true, or several
// PTX inputs to cuLinkAddData) into one module the parser loads, as nvlink links their
// machine code:
//  - an .extern declaration of a kernel, device function or variable that another module
//    defines is dropped (the definition serves every module);
//  - a .weak definition (an inline function both units compiled) is kept once, and a
//    .visible one wins over it; two .visible definitions of one name are an error;
//  - module-internal names (static functions and variables, nvcc's $str) that another module
//    also uses are renamed in their own module;
//  - .extern .shared arrays (dynamic shared memory) are declared once;
//  - variables come first, in module order, so a kernel may use another unit's variable;
//  - .file indices are renumbered so each unit's line info keeps its own files.
// Everything else is copied as written. One module is returned as it is.
#pragma once
#include <string>
#include <vector>

namespace warpsim::isa {

struct PtxUnit {
  std::string name;  // for messages ("unit 2 of app")
  std::string text;
};

// Throws PtxError naming the units on a name defined twice or a malformed module.
std::string link_ptx(const std::vector<PtxUnit>& units);

}  // namespace warpsim::isa
