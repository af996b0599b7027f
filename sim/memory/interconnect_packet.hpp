// What travels on the interconnect: a small record the network never interprets beyond
// src, dst and bytes. `id`, `addr`, `sector_mask`, `type` and `user` are the caller's.
#pragma once
#include <cstdint>

namespace warpsim::mem {

enum class PacketType : uint8_t { ReadRequest, WriteRequest, AtomicRequest, ReadReply, WriteAck };

struct Packet {
  uint64_t id = 0;            // caller's request id
  uint64_t addr = 0;          // line or sector address
  uint32_t bytes = 0;         // size on the wire (control + data), sets the flit count
  uint32_t sector_mask = 0;
  PacketType type = PacketType::ReadRequest;
  uint32_t src = 0;           // input port
  uint32_t dst = 0;           // output port
  uint64_t user = 0;          // opaque to the network (e.g. SM and warp of the requester)
  uint64_t pushed_at = 0;     // set by push()
  uint64_t delivered_at = 0;  // set when it reaches the output queue
};

}  // namespace warpsim::mem
