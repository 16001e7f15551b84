// Running one of the command-line tools from a test: exit status, stdout and
// stderr. The tools are looked up next to the test binary (both land in
// <build>/bin).
//
//   ToolRun r = runTool("shardscope-opt", "in.mlir -o /dev/full");
//   EXPECT_EQ(r.status, 1);
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace shardscope::testing {

struct ToolRun {
  int status = -1;  // the exit code, or 128 + the signal that ended it
  std::string out, err;
};

inline std::filesystem::path toolPath(const std::string& name) {
  return std::filesystem::read_symlink("/proc/self/exe").parent_path() / name;
}

// Runs `NAME ARGS` through the shell (ARGS may redirect stdin). Stdout is
// captured unless `captureOut` is false (then ARGS may redirect it).
inline ToolRun runTool(const std::string& name, const std::string& args, bool captureOut = true) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  // Per process: other builds may run the same tests at the same time.
  const std::string tag = name + "_test_" + std::to_string(getpid());
  const std::string out = (dir / (tag + "_out.txt")).string(),
                    err = (dir / (tag + "_err.txt")).string();
  std::string cmd = "'" + toolPath(name).string() + "' " + args;
  if (captureOut) cmd += " >'" + out + "'";
  cmd += " 2>'" + err + "'";
  ToolRun r;
  const int raw = std::system(cmd.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  auto slurp = [](const std::string& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  r.out = captureOut ? slurp(out) : "";
  r.err = slurp(err);
  return r;
}

}  // namespace shardscope::testing
