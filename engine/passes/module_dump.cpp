#include "passes/module_dump.h"

#include <cstdio>
#include <filesystem>

#include "io/output_file.h"
#include "ir/printer.h"

namespace shardscope::passes {

std::string dumpIndexPrefix(int index) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02d", index);
  return buf;
}

bool saveModuleDump(const ir::Module& module, const std::string& directory,
                    const std::string& name, std::optional<int> index, ir::DiagnosticSink& diags) {
  if (directory.empty()) return true;
  const std::string file = (index ? dumpIndexPrefix(*index) + "." : std::string()) + name + ".mlir";
  const std::filesystem::path path = std::filesystem::path(directory) / file;
  std::error_code made;
  std::filesystem::create_directories(directory, made);
  io::OutputFile out;
  std::string error;
  if (made || !out.open(path.string(), error)) {
    diags.warning(module.op->loc(), "error when writing file " + path.string() + ": " +
                                        (made ? made.message() : error));
    return false;
  }
  ir::printModule(module, out.stream());
  if (!out.close(error)) {
    diags.warning(module.op->loc(), "error when writing file " + path.string() + ": " + error);
    return false;
  }
  return true;
}

}  // namespace shardscope::passes
