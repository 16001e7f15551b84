// The communication a document's shardings cause, for the GUI: every
// collective with its cost and cause as plain data (no Qt, no pointers into
// a module that may be gone).
//
// A document with no reshards or collectives yet (a module as written, or
// the result of propagation) is analysed on a copy on which
// -sdy-insert-explicit-reshards (full version) has run, so the report says
// what the partitioner would need. Example: sample_models/mlp_megatron.mlir
// after propagation gives one entry
//   {kind "all-reduce", op "sdy.all_reduce", value "%4" (the dot result it
//    reduces: the inserted op takes no number), function "@main",
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
  // The op's result: "%5"; for one the analysis inserted (not in the
  // document), the value it reshards, named as in the document, whose ops
  // every name in the entry follows.
  std::string value;
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
  // For each axis it moves that the tensor lacking it could not take, why:
  // `why not "x" on %arg1 dimension 0: used: "x" already shards dimension 1
  // of %arg1 {"x"}; an axis shards at most one dimension`.
  std::vector<std::string> blocked;
  // Where it sits in the dataflow of the document's module, by the pre-order
  // op numbering of propagation traces (every op inside the module, func.func
  // ops included; locateCollectives resolves it): it starts from result
  // `fromIndex` of op `fromOp` (with `fromArgument`: argument `fromIndex` of
  // the first block of region `fromRegion` of op `fromOp`), and op `toOp`
  // reads its end as operand `toOperand`. -1 where there is none (an unused
  // result, a reader the analysis added).
  int fromOp = -1, fromRegion = -1, fromIndex = -1;
  bool fromArgument = false;
  int toOp = -1, toOperand = -1;
  // The first dimension of the tensor whose axes the collective changes,
  // -1 when it changes none (an all-reduce, which only reduces).
  int dim = -1;
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

// The communication report of `doc` (a document as loaded, the result of
// propagateDocument, or a step of a run: a module the import passes changed
// is fine). `doc` is never changed. Safe on any thread while nothing changes
// `doc`'s module.
CommunicationReport analyzeCommunication(const Document& doc,
                                         const CommunicationOptions& options = {});

// What the analysis reads of a document, taken at one moment: its module as
// printed and each op's position in the document's text. Taking it reads the
// module; analysing it does not, so the analysis can go on while the module
// changes (a timeline step rewrites shardings in place):
//   auto snap = snapshotForCommunication(doc);   // while the module holds still
//   ... the module may move on ...
//   CommunicationReport r = analyzeCommunication(snap);   // any thread
struct CommunicationSnapshot {
  std::string name;                 // the document's name (diagnostics)
  std::string text;                 // the module as printed
  std::vector<ir::SourceLoc> locs;  // each op's position in the document, pre-order
  std::vector<std::string> opNames;  // each op's name, pre-order (a check of the copy)
  std::string error;                 // set when there is nothing to analyse
};
CommunicationSnapshot snapshotForCommunication(const Document& doc);
CommunicationReport analyzeCommunication(const CommunicationSnapshot& snapshot,
                                         const CommunicationOptions& options = {});

// The ops and value of `module` an entry refers to. `module` is the module
// the report was made for or another version of it with the same ops (a
// step of the same run). Null where the entry names none.
struct CollectiveSite {
  const ir::Op* op = nullptr;       // the op it belongs to (the dock selects it)
  // The collective's own op when the document has it (a written reshard or
  // collective; then also `op`), null for one the analysis inserted.
  const ir::Op* collective = nullptr;
  const ir::Value* from = nullptr;  // the value it moves
  const ir::Op* to = nullptr;       // the op reading the result
  int toOperand = -1;
};
std::vector<CollectiveSite> locateCollectives(const ir::Module& module,
                                              const CommunicationReport& report);

// The op of `module` at `line`:`column` that is not itself a collective or a
// reshard (the op an entry belongs to); the first op on `line` when no op
// starts at that column; nullptr when none.
const ir::Op* opAtLocation(const ir::Module& module, uint32_t line, uint32_t column);

// What changed between two reports: api/communication_diff.h.

// "3.00 KiB", "48.0 MiB"; "5.12 ns", "1.30 ms".
std::string bytesText(double bytes);
std::string secondsText(double seconds);

}  // namespace shardscope::api
