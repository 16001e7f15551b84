// How long a pre-order walk over a parsed module takes per op, the step every
// pass repeats. On a module larger than the last-level cache this is a
// measure of memory layout: ops, their lists and regions lying side by side
// walk at close to cache speed, scattered ones wait on memory.
//
//   ir_walk_bench FILE [WALKS]      (default 20 walks, best of 3 rounds)
//
// Prints the op count and the nanoseconds per visited op.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "ir/operation.h"
#include "ir/parser.h"

using namespace shardscope;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: ir_walk_bench FILE [WALKS]\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "ir_walk_bench: cannot open " << argv[1] << "\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  const int walks = argc > 2 ? std::max(1, std::atoi(argv[2])) : 20;

  ir::DiagnosticSink diags;
  std::string source = text.str();
  std::unique_ptr<ir::Module> module = ir::parseModule(source, ir::ParseOptions{}, diags);
  if (!module) {
    std::cerr << "ir_walk_bench: " << argv[1] << " does not parse\n";
    return 1;
  }
  double best = 1e300;
  long visits = 0;
  long checksum = 0;  // keeps the walk's reads alive
  for (int round = 0; round < 3; ++round) {
    visits = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (int w = 0; w < walks; ++w)
      module->op->walkPreOrder([&](ir::Op& op) {
        ++visits;
        checksum += op.numOperands() + op.numRegions();
        return true;
      });
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, s);
  }
  std::printf("%ld ops, %.1f ns per op visit (best of 3 rounds of %d walks; checksum %ld)\n", visits / walks,
              best * 1e9 / static_cast<double>(visits), walks, checksum);
  return 0;
}
