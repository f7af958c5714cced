// Fuzz target: .ge text (ge-lint's and ge-dump's graphs) → ParseGraphText.
// A graph it accepts must print (GraphToText) and read back with as many
// nodes: the printer and the parser agree on every graph either makes.
#include <cstdint>
#include <string>

#include "fuzz_common.h"
#include "ge/ir/text_form.h"
#include "ge/ir/text_parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::fuzz::Quiet();
  auto g = ge::ParseGraphText(std::string(reinterpret_cast<const char*>(data), size), "fuzz.ge");
  if (!g.ok()) return 0;
  const std::string text = ge::GraphToText(**g);
  auto back = ge::ParseGraphText(text, "printed.ge");
  if (!back.ok()) ge::fuzz::Fail("a parsed graph's text does not read back: " + back.status().message());
  if ((*back)->num_nodes() != (*g)->num_nodes())
    ge::fuzz::Fail("a parsed graph's text reads back with " + std::to_string((*back)->num_nodes()) + " nodes, not " +
                   std::to_string((*g)->num_nodes()));
  return 0;
}
