// The communication a document's shardings cause, for the GUI: every
// collective with its cost and cause as plain data (no Qt, no pointers into
// a module that may be gone).
//
// A document with no reshards or collectives yet (a module as written, or
// the result of propagation) is analysed on a copy on which
// -sdy-insert-explicit-reshards (full version) has run, so the report says
// what the partitioner would need. Example: sample_models/mlp_megatron.mlir
// after propagation gives one entry
//   {kind "all-reduce", op "sdy.all_reduce", value "%5", function "@main",
//    line 26 (the second dot_general, which the all-reduce follows),
//    axes "\"model\"", 3072 bytes per device, cause "all-reduce on "model"
//    before func.return ...: reduction factor k is sharded on {"model"} ..."}
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api/document.h"

namespace shardscope::api {

struct CollectiveEntry {
  std::string kind;       // "all-gather", "all-reduce", ...
  std::string op;         // "sdy.all_gather"; "sdy.reshard" for a planned one
  bool planned = false;   // one of the collectives a reshard will become
  bool inserted = false;  // not in the document: added by the analysis
  std::string value;      // the op's result in the analysed module: "%5"
  std::string function;   // "@main"
  // Position in the document's text: the collective's own, or for an
  // inserted one, the op it was inserted for (see opAtLocation).
  uint32_t line = 0, column = 0;
  std::string axes;       // "\"x\", \"y\":(2)2"
  int64_t groupSize = 1;  // devices per group
  std::string elementType;
  std::vector<int64_t> globalShape, inShape, outShape;  // per device before/after
  std::string inSharding, outSharding;                  // as printed
  double bytesPerDevice = 0;
  double seconds = 0;
  std::string consumer;  // "%5 = stablehlo.dot_general", "func.return", ""
  uint32_t consumerLine = 0;
  std::string cause;  // the sentence
};

struct CommunicationTotals {
  int64_t count = 0;
  double bytesPerDevice = 0;
  double seconds = 0;
};

struct CommunicationReport {
  std::string chip;                          // "tpu-v5p"
  std::string chipDescription;               // "Cloud TPU v5p (ICI, 3D torus), 600 GB/s one way"
  bool reshardsInserted = false;             // the analysis ran explicit reshards on a copy
  std::vector<CollectiveEntry> collectives;  // in program order
  CommunicationTotals total;
  bool ok = false;
  std::string error;  // why there is no report (errors in the module, ...)
};

struct CommunicationOptions {
  std::string chip;  // a built-in chip name; empty: the default chip
};

// The names of the built-in chips ("tpu-v4", ..., "gpu-h100-nvlink").
std::vector<std::string> communicationChips();

// The communication report of `doc` (a document as loaded, or the result of
// propagateDocument). `doc` is never changed. Safe on any thread.
CommunicationReport analyzeCommunication(const Document& doc,
                                         const CommunicationOptions& options = {});

// The op of `module` at `line`:`column` that is not itself a collective or a
// reshard (the op an entry belongs to); the first op on `line` when no op
// starts at that column; nullptr when none.
const ir::Op* opAtLocation(const ir::Module& module, uint32_t line, uint32_t column);

// What changed between two reports: api/communication_diff.h.

// "3.00 KiB", "48.0 MiB"; "5.12 ns", "1.30 ms".
std::string bytesText(double bytes);
std::string secondsText(double seconds);

}  // namespace shardscope::api
