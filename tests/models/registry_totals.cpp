// Sums the FLOPs registry over a recorded op stream (record_ops.py's JSON lines) and prints the totals as
// JSON: {"ops", "macs", "flops", "bytes_read", "bytes_written", "estimates", "unknown": {name: count}}.
// Exit code 2 with a one-line error when the file cannot be read or a line is not valid.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "analyzer/flops/registry.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: flopscope_registry_totals OPS.jsonl\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "error: %s: cannot open\n", argv[1]);
    return 2;
  }
  const auto& registry = flopscope::FlopsRegistry::builtin();
  double macs = 0, flops = 0, read = 0, written = 0;
  long ops = 0, estimates = 0, line_no = 0;
  std::map<std::string, long> unknown;
  std::string line;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("name") || !j.contains("args")) {
      std::fprintf(stderr, "error: %s:%ld: not an op record\n", argv[1], line_no);
      return 2;
    }
    std::vector<flopscope::OpArg> args;
    for (const auto& a : j["args"]) {
      flopscope::OpArg arg;
      arg.is_tensor = a.value("tensor", false);
      if (arg.is_tensor) {
        arg.dtype = a.value("dtype", "");
        arg.shape = a.value("shape", std::vector<std::int64_t>{});
      } else {
        arg.value = a.value("value", "");
      }
      args.push_back(std::move(arg));
    }
    std::string name = j["name"].get<std::string>();
    auto r = registry.evaluate(name, args);
    ++ops;
    if (!r.known) {
      ++unknown[name];
      continue;
    }
    macs += r.macs;
    flops += r.flops;
    read += r.bytes_read;
    written += r.bytes_written;
    estimates += r.estimate ? 1 : 0;
  }
  nlohmann::json out = {{"ops", ops},
                        {"macs", macs},
                        {"flops", flops},
                        {"bytes_read", read},
                        {"bytes_written", written},
                        {"estimates", estimates},
                        {"unknown", unknown}};
  std::cout << out.dump() << "\n";
  return 0;
}
