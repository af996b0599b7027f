// Parsing of the "carveout" section (docs/memory-hierarchy.md, "The L1/shared split").
#pragma once
#include "sim/spec/device_spec.hpp"

namespace warpsim {

// Reads and checks the section against the already parsed "sm" and "l1" sections; every
// error names the key path. Calls r.finish().
sm::CarveoutSpec parse_carveout_spec(ConfigReader& r, const SmSpec& sm, bool has_l1, const mem::CacheSpec& l1);

}  // namespace warpsim
