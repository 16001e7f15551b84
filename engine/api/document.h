// The GUI's view of the engine: a loaded document (text, module,
// diagnostics) plus read-only queries on it. No Qt here; widgets/ and app/
// only use this header and the IR/sharding value types.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/operation.h"
#include "sharding/sharding.h"

namespace shardscope::api {

// The stage of opening a document whose errors it holds: opening stops at
// the first stage with errors, so they all come from one stage.
//   Read:   the file is missing, a directory or a device, too large, or binary
//   Parse:  the text is not valid MLIR ("expected '>'")
//   Verify: the module parses but breaks a rule ("unknown axis name: \"z\"")
enum class LoadStage { Read, Parse, Verify };
// "file error", "parse error", "verifier error": what the GUI calls each.
const char* loadStageName(LoadStage stage);

// One opened file. `module` is null when the text could not be parsed;
// diagnostics from the parser and the verifier are in `diagnostics`, in
// source order.
struct Document {
  std::string path;  // as given (may be empty for pasted text)
  std::string name;  // file name used in diagnostics
  std::string text;
  std::unique_ptr<ir::Module> module;
  std::vector<ir::Diagnostic> diagnostics;
  // Set when the file carried GSPMD shardings (`mhlo.sharding`) and no sdy
  // mesh: they were imported as `-xla-sdy-import-shardings` does, and this
  // says so (the text keeps the original strings). Also a note diagnostic.
  std::string gspmdImportNote;
  // Set when `diagnostics` holds errors: the stage they come from.
  std::optional<LoadStage> failedStage;
  // The open was stopped by LoadProgress::cancelRequested: no text, no
  // module, one note saying so. Never half a document.
  bool cancelled = false;

  bool hasErrors() const;
  int errorCount() const;
};

// How far an open is, and a way to stop it: a GUI's progress bar and Cancel.
// Both are called on the reading thread, a few hundred times per open at
// most (the reader checks every ir::kOpsPerProgressCall ops), so they must
// be cheap and thread-safe (store an atomic, read an atomic).
//   std::atomic<bool> stop{false};
//   LoadProgress p{[&](double f) { bar = f; }, [&] { return stop.load(); }};
//   auto doc = loadDocument(path, &p);   // doc->cancelled once stop is set
struct LoadProgress {
  // The fraction of the whole open done, 0..1: reading the file, parsing
  // (by bytes read, most of it), verifying.
  std::function<void(double fraction)> report;
  // True stops the open at the next check; the document is then `cancelled`.
  std::function<bool()> cancelRequested;

  void at(double fraction) const {
    if (report) report(fraction);
  }
  bool stopped() const { return cancelRequested && cancelRequested(); }
};

// Read `path` and parse it. An unreadable file (missing, a directory, a
// device, larger than io::kDefaultMaxInputBytes, binary data such as an
// executable or MLIR bytecode) gives a document with one error diagnostic
// saying why, no text and no module (failedStage Read).
// `progress` (may be null) follows the open and can stop it.
std::shared_ptr<Document> loadDocument(const std::string& path,
                                       const LoadProgress* progress = nullptr);
// Parse `text`; `name` is used in diagnostics. Verifier errors about a
// named mesh axis point at the axis in the text (the command line reports
// them at the op, as sdy_opt does): see diagnostic_location.h.
std::shared_ptr<Document> parseDocument(std::string text, std::string name,
                                        const LoadProgress* progress = nullptr);

// --- Queries used by the views -------------------------------------------

// Name of a `func.func` (its sym_name), or "" for other ops.
std::string symbolName(const ir::Op& op);

// The sharding attached to `value`, if any:
// - op result: `sdy.sharding` per-value entry of the defining op (or the
//   `sharding` of sdy.sharding_constraint / data_flow_edge);
// - function argument: `sdy.sharding` in the function's arg_attrs;
// - manual/named computation body argument: its in_shardings entry;
// - stablehlo.while block argument: the sharding of the matching result;
// - without any of these, the sharding of an `sdy.data_flow_edge` taking the
//   value (the propagation pipeline's edges, between import and export).
std::optional<TensorSharding> valueSharding(const ir::Value& value);
// The sharding of function result `index` (res_attrs), if any.
std::optional<TensorSharding> functionResultSharding(const ir::Op& func, unsigned index);

// Display name of a value: `%arg0`, `%3`, `%3#1`. Uses sourceName when
// present, else a position-derived name.
std::string valueName(const ir::Value& value);

// `8x16xf32` for `tensor<8x16xf32>`, the type text otherwise.
std::string shortType(const ir::Type& type);

// The mesh a sharding uses in `module` (inline or @name), or nullptr.
const Mesh* meshFor(const ir::Module& module, const TensorSharding& sharding);

// All `sdy.mesh` symbols in file order: (name, mesh).
std::vector<std::pair<std::string, Mesh>> meshes(const ir::Module& module);

// What each device holds of a tensor (the mesh view's data).
struct DeviceShard {
  int64_t linearIndex = 0;          // row-major position in the mesh
  int64_t deviceId = 0;             // device id (custom device_ids respected)
  std::vector<int64_t> coords;      // coordinate per mesh axis
  std::vector<int64_t> shardIndex;  // per tensor dim: which shard (0-based)
  std::vector<int64_t> offset;      // per tensor dim: first global index held
  std::vector<int64_t> localShape;  // per tensor dim: local size (incl. padding)
  std::vector<int64_t> validShape;  // per tensor dim: real (unpadded) elements
  int64_t replicaGroup = 0;         // devices with equal shardIndex share a group id
  int replicaRank = 0;              // 0 for the first copy in its group, 1.. for copies
};
struct ShardLayout {
  std::vector<int64_t> globalShape;
  std::vector<int64_t> localShape;  // from shardscope::localShape
  std::vector<int64_t> padding;     // per dim: shards*local - global
  std::vector<int64_t> shardsPerDim;
  int64_t replicaCount = 1;          // copies of each shard
  int64_t deviceCount = 0;           // devices in the mesh
  std::vector<DeviceShard> devices;  // one per device, row-major; empty for a large mesh
  std::string error;                 // non-empty when the sharding does not fit the mesh
  bool devicesListed() const { return error.empty() && !devices.empty(); }
};
// Meshes with more devices are summarised: computeShardLayout fills the
// shapes and counts but lists no devices (a 2^40-device mesh cannot be).
inline constexpr int64_t kMaxListedDevices = 1024;
// Compute which shard each device of `mesh` holds of a tensor of
// `globalShape` sharded by `sharding`. Sub-axes ("x":(2)2) select the matching
// slice of the device coordinate along the axis. Meshes the verifier rejects
// (an axis of size 0, more devices than int64 holds, a sub-axis that does not
// divide its axis) give `error`, never a crash.
ShardLayout computeShardLayout(const std::vector<int64_t>& globalShape,
                               const TensorSharding& sharding, const Mesh& mesh,
                               int64_t maxListedDevices = kMaxListedDevices);

}  // namespace shardscope::api
