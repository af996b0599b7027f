// The two-direction interconnect and its config section.
#include <catch2/catch.hpp>

#include "sim/foundation/config_reader.hpp"
#include "sim/foundation/error.hpp"
#include "sim/memory/interconnect.hpp"

using namespace warpsim;
using namespace warpsim::mem;

namespace {

Json c2070_icnt() {
  return Json::parse(R"({
    "latency": 2, "flit_bytes": 32, "flits_per_cycle": 1, "cycles_per_flit": 2,
    "input_buffer_flits": 8, "output_buffer_flits": 40,
    "notes": {"flit_bytes": "GPGPU-Sim config_fermi_islip.icnt flit_size = 32"}
  })");
}

std::string icnt_error(const Json& doc) {
  try {
    ConfigReader r(doc, "test.json", "interconnect");
    parse_interconnect_spec(r);
    r.finish();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("interconnect section parses", "[icnt][config]") {
  Json doc = c2070_icnt();
  ConfigReader r(doc, "test.json", "interconnect");
  InterconnectSpec s = parse_interconnect_spec(r);
  r.finish();
  CHECK(s.latency == 2);
  CHECK(s.flit_bytes == 32);
  CHECK(s.cycles_per_flit == 2);
  CHECK(s.input_buffer_flits == 8);
  CHECK(s.output_buffer_flits == 40);
  CHECK(s.sms_per_port == 1);
  CHECK(s.flits(8) == 1);
  CHECK(s.flits(136) == 5);
  CHECK(s.ports_for_sms(14) == 14);
}

TEST_CASE("GT200 TPCs: three SMs share one port", "[icnt][config]") {
  Json doc = c2070_icnt();
  doc["sms_per_port"] = 3;
  ConfigReader r(doc, "test.json", "interconnect");
  InterconnectSpec s = parse_interconnect_spec(r);
  CHECK(s.ports_for_sms(30) == 10);
  CHECK(s.port_of_sm(0) == 0);
  CHECK(s.port_of_sm(2) == 0);
  CHECK(s.port_of_sm(3) == 1);
  CHECK(s.port_of_sm(29) == 9);
}

TEST_CASE("interconnect config errors name the key path", "[icnt][config]") {
  Json doc = c2070_icnt();
  doc["flit_bytes"] = 0;
  CHECK(icnt_error(doc) == "test.json: interconnect.flit_bytes: expected a positive integer, got 0");
  doc = c2070_icnt();
  doc.erase("latency");
  CHECK(icnt_error(doc) == "test.json: interconnect.latency: missing required key");
  doc = c2070_icnt();
  doc["bandwidth"] = 1;
  CHECK(icnt_error(doc) == "test.json: interconnect.bandwidth: unknown key");
}

TEST_CASE("request and reply networks: a round trip costs both latencies", "[icnt]") {
  InterconnectSpec s;
  s.latency = 7;
  s.flit_bytes = 32;
  s.input_buffer_flits = 8;
  s.output_buffer_flits = 8;
  Interconnect net(s, /*sm_ports=*/14, /*mem_ports=*/12);
  CHECK(net.requests().sources() == 14);
  CHECK(net.requests().destinations() == 12);
  CHECK(net.replies().sources() == 12);
  CHECK(net.replies().destinations() == 14);

  Packet req;
  req.id = 5;
  req.src = 3;
  req.dst = 11;
  req.bytes = 8;
  req.type = PacketType::ReadRequest;
  req.user = 0xABCD;
  net.requests().push(req, 100);
  uint64_t t = 100;
  // Drive the network by its own event times (idle skipping), as the device loop will.
  while (!net.requests().has_packet(11)) {
    net.tick(t);
    if (net.requests().has_packet(11)) break;
    t = std::max(t + 1, net.next_event_cycle());
  }
  CHECK(t == 107);
  Packet at_l2 = net.requests().pop(11);
  CHECK(at_l2.user == 0xABCD);

  Packet rep = at_l2;
  rep.type = PacketType::ReadReply;
  rep.src = at_l2.dst;
  rep.dst = at_l2.src;
  rep.bytes = 136;  // 5 flits
  net.replies().push(rep, t);
  while (!net.replies().has_packet(3)) {
    net.tick(t);
    if (net.replies().has_packet(3)) break;
    t = std::max(t + 1, net.next_event_cycle());
  }
  CHECK(t == 107 + 4 + 7);  // serialization of 5 flits, then the latency
  CHECK(net.replies().pop(3).id == 5);
  CHECK(net.idle());
  CHECK(net.next_event_cycle() == kNoEvent);
}
