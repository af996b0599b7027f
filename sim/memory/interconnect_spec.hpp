// The immutable description of the SM <-> memory-partition interconnect, parsed from the
// "interconnect" JSON section. Both directions (requests and replies) use it.
#pragma once
#include <cstdint>

#include "sim/foundation/config_reader.hpp"

namespace warpsim::mem {

struct InterconnectSpec {
  uint32_t latency = 1;          // cycles from a packet's last flit leaving its input port to
                                 // its delivery (a 1-flit packet: from its grant)
  uint32_t flit_bytes = 32;      // a packet of B bytes is ceil(B / flit_bytes) flits (>= 1)
  // Port bandwidth: flits_per_cycle flits every cycles_per_flit cycles, on each input
  // port and on each output port (e.g. 1 and 2: one flit every second cycle).
  uint32_t flits_per_cycle = 1;
  uint32_t cycles_per_flit = 1;
  uint32_t input_buffer_flits = 8;    // per source port: packets waiting to enter
  uint32_t output_buffer_flits = 8;   // per destination port: in flight to it + delivered, unpopped
  uint32_t sms_per_port = 1;          // SMs sharing one source port (GT200: 3 per TPC)

  uint32_t flits(uint32_t bytes) const { return bytes == 0 ? 1 : (bytes + flit_bytes - 1) / flit_bytes; }
  // Largest packet the buffers can ever take (bigger ones are a configuration error).
  uint32_t max_packet_flits() const {
    return input_buffer_flits < output_buffer_flits ? input_buffer_flits : output_buffer_flits;
  }
  uint32_t port_of_sm(uint32_t sm) const { return sm / sms_per_port; }
  uint32_t ports_for_sms(uint32_t sms) const { return (sms + sms_per_port - 1) / sms_per_port; }
};

// Reads the interconnect keys of `r` (schema in docs/memory-hierarchy.md). Does not call
// r.finish(); errors name the file and key path.
InterconnectSpec parse_interconnect_spec(ConfigReader& r);

}  // namespace warpsim::mem
