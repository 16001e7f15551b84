// shardscope-opt end to end: -verify-diagnostics, hostile inputs and failing
// outputs give exit status 1 and a message, never a crash or a silent 0. The
// tool is looked up next to this test binary; the test is skipped when it was
// not built.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tool_run.h"

namespace fs = std::filesystem;

namespace {

using shardscope::testing::ToolRun;

fs::path tool() { return shardscope::testing::toolPath("shardscope-opt"); }

ToolRun run(const std::string& args, bool captureOut = true) {
  return shardscope::testing::runTool("shardscope-opt", args, captureOut);
}

std::string write(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("shardscope_opt_cli_" + name);
  std::ofstream(p) << text;
  return p.string();
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

class ShardscopeOptCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(tool())) GTEST_SKIP() << "shardscope-opt not built next to the test";
  }
};

// A mesh axis used twice: the verifier reports it at line 3.
const char kDuplicateAxis[] =
    "sdy.mesh @mesh = <[\"a\"=2]>\n"
    "// expected-error@+1 {{%s}}\n"
    "func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\", \"a\"}]>}) {\n"
    "  return\n"
    "}\n";

std::string withExpectation(const std::string& expected) {
  std::string text = kDuplicateAxis;
  text.replace(text.find("%s"), 2, expected);
  return text;
}

const char kValid[] =
    "sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"
    "func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}, "
    "{}]>}) -> tensor<4x8xf32> {\n"
    "  %0 = stablehlo.add %arg0, %arg0 : tensor<4x8xf32>\n"
    "  return %0 : tensor<4x8xf32>\n"
    "}\n";

}  // namespace

TEST_F(ShardscopeOptCli, VerifyDiagnosticsPassesWhenTheErrorIsAsExpected) {
  ToolRun r = run(write("ok.mlir", withExpectation("duplicate axis")) + " -verify-diagnostics");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST_F(ShardscopeOptCli, VerifyDiagnosticsFailsOnAMismatch) {
  const std::string file = write("bad.mlir", withExpectation("a message nobody emits"));
  ToolRun r = run(file + " -verify-diagnostics");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.err, file + ":3:"));
  EXPECT_TRUE(contains(r.err, ": error: unexpected error: ")) << r.err;
  EXPECT_TRUE(contains(
      r.err, file + ":2:4: error: expected error \"a message nobody emits\" was not produced"))
      << r.err;
}

TEST_F(ShardscopeOptCli, VerifyDiagnosticsFailsWhenTheErrorIsMissing) {
  std::string text = kValid;
  text.insert(text.find("  %0"), "  // expected-error@+1 {{never}}\n");
  ToolRun r = run(write("missing.mlir", text) + " -verify-diagnostics");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.err, ":3:6: error: expected error \"never\" was not produced")) << r.err;
}

TEST_F(ShardscopeOptCli, VerifyDiagnosticsChecksEachSplitChunk) {
  const std::string good = withExpectation("duplicate axis");
  ToolRun ok = run(write("split_ok.mlir", good + "// -----\n" + good) +
                   " -split-input-file -verify-diagnostics");
  EXPECT_EQ(ok.status, 0) << ok.err;
  // The second chunk's error is on file line 9; its annotation expects line 9
  // too but with the wrong text.
  ToolRun bad = run(write("split_bad.mlir", good + "// -----\n" + withExpectation("other")) +
                    " -split-input-file -verify-diagnostics");
  EXPECT_EQ(bad.status, 1);
  EXPECT_TRUE(contains(bad.err, ":8:4: error: expected error \"other\" was not produced"))
      << bad.err;
  EXPECT_TRUE(contains(bad.err, ":9:")) << bad.err;
}

TEST_F(ShardscopeOptCli, WithoutVerifyDiagnosticsAnErrorStillFails) {
  ToolRun r = run(write("plain.mlir", withExpectation("duplicate axis")));
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.err, ":3:")) << r.err;
}

TEST_F(ShardscopeOptCli, RefusesDevicesDirectoriesAndEndlessInput) {
  ToolRun device = run("/dev/zero");
  EXPECT_EQ(device.status, 1);
  EXPECT_TRUE(contains(device.err, "shardscope-opt: /dev/zero: is a device, not a file"))
      << device.err;
  ToolRun endless = run("- < /dev/zero");
  EXPECT_EQ(endless.status, 1);
  EXPECT_TRUE(
      contains(endless.err, "shardscope-opt: <stdin>: larger than the input limit of 256 MiB"))
      << endless.err;
  ToolRun capped = run("--max-input-mib=1 - < /dev/zero");
  EXPECT_EQ(capped.status, 1);
  EXPECT_TRUE(contains(capped.err, "input limit of 1 MiB")) << capped.err;
  const std::string dir = (fs::temp_directory_path() / "shardscope_opt_cli_dir").string();
  fs::create_directories(dir);
  ToolRun directory = run(dir);
  EXPECT_EQ(directory.status, 1);
  EXPECT_TRUE(contains(directory.err, dir + ": is a directory, not a file")) << directory.err;
  EXPECT_EQ(directory.out, "");
}

TEST_F(ShardscopeOptCli, ReadsStdinAndPipes) {
  const std::string file = write("valid.mlir", kValid);
  ToolRun r = run("- < " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "stablehlo.add")) << r.out;
  // A FIFO (what a shell's process substitution gives) is read as a stream.
  const std::string fifo = (fs::temp_directory_path() / "shardscope_opt_cli_fifo").string();
  fs::remove(fifo);
  ASSERT_EQ(std::system(("mkfifo '" + fifo + "'").c_str()), 0);
  ToolRun fromFifo = run("'" + fifo + "' & cat " + file + " > '" + fifo + "'; wait");
  EXPECT_EQ(fromFifo.status, 0) << fromFifo.err;
  fs::remove(fifo);
}

TEST_F(ShardscopeOptCli, WriteErrorsFail) {
  const std::string file = write("valid.mlir", kValid);
  ToolRun toFlag = run(file + " -o /dev/full");
  EXPECT_EQ(toFlag.status, 1);
  EXPECT_TRUE(contains(toFlag.err, "cannot write '/dev/full': No space left on device"))
      << toFlag.err;
  ToolRun toStdout = run(file + " > /dev/full", false);
  EXPECT_EQ(toStdout.status, 1);
  EXPECT_TRUE(contains(toStdout.err, "cannot write '<stdout>'")) << toStdout.err;
  ToolRun trace = run(file + " -sdy-basic-propagate --trace=/dev/full");
  EXPECT_EQ(trace.status, 1);
  EXPECT_TRUE(contains(trace.err, "trace file: cannot write '/dev/full'")) << trace.err;
  ToolRun help = run("--help > /dev/full", false);
  EXPECT_EQ(help.status, 1);
}

TEST_F(ShardscopeOptCli, BadPassOptionValuesFailAsMlirReportsThem) {
  const std::string file = (fs::temp_directory_path() / "shardscope_opt_cli_options.mlir").string();
  std::ofstream(file) << kValid;
  ToolRun r = run("'" + file + "' '-sdy-propagation-pipeline=conservative-propagation=maybe'");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "shardscope-opt: for the --conservative-propagation option: 'maybe' is invalid value for boolean "
            "argument! Try 0 or 1\n<unknown>:0: error: failed to add `sdy-propagation-pipeline` with options "
            "`conservative-propagation=maybe`\n");
  EXPECT_EQ(r.out, "");
}

// sdy_opt warns about a function body copied for a second call once per
// process: with -split-input-file, only the first module that copies one.
TEST_F(ShardscopeOptCli, CopiedFunctionBodyIsWarnedAboutOncePerProcess) {
  const std::string module =
      "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
      "  %1 = call @foo(%0) : (tensor<8xf32>) -> tensor<8xf32>\n"
      "  return %1 : tensor<8xf32>\n"
      "}\n"
      "func.func private @foo(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  return %arg0 : tensor<8xf32>\n"
      "}\n";
  const std::string file = write("copied_body.mlir", module + "// -----\n" + module);
  ToolRun r = run(file + " -split-input-file -sdy-import-func-calls");
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string warning = file + ":3:3: warning: function @foo has multiple call ops";
  ASSERT_TRUE(contains(r.err, warning)) << r.err;
  EXPECT_EQ(r.err.find("has multiple call ops", r.err.find(warning) + warning.size()),
            std::string::npos)
      << r.err;
}

// Bad collectives and reshards: sdy_opt's message, at the line and column
// MLIR reports (the op's first token; notes at where the operand is
// declared), exit status 1 and no crash.
TEST_F(ShardscopeOptCli, BadCollectivesAndReshardsAreReportedWhereSdyOptReportsThem) {
  const std::string prefix =
      "sdy.mesh @mesh = <[\"x\"=2, \"y\"=2, \"z\"=2, \"w\"=4]>\n"
      "sdy.mesh @other = <[\"a\"=4]>\n"
      "func.func @f(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\", \"y\"}, "
      "{\"z\"}]>}) -> tensor<16x8xf32> {\n";
  const std::string suffix = "  return %0 : tensor<16x8xf32>\n}\n";
  auto check = [&](const std::string& name, const std::string& line, const std::string& expected) {
    const std::string file = write(name + ".mlir", prefix + line + "\n" + suffix);
    ToolRun r = run(file);
    EXPECT_EQ(r.status, 1) << name;
    std::string want = expected;
    for (size_t at = want.find("FILE"); at != std::string::npos; at = want.find("FILE"))
      want.replace(at, 4, file);
    // sdy_opt's diagnostics first; our own notes pointing into the
    // attribute may follow.
    EXPECT_EQ(r.err.substr(0, want.size()), want) << name << "\n" << r.err;
  };
  // A collective naming an axis its mesh does not have.
  check("unknown_axis",
        "  %0 = sdy.all_gather [{\"y\"}, {\"q\"}] %arg0 out_sharding=<@mesh, [{\"x\"}, {}]> : "
        "tensor<16x8xf32>",
        "FILE:4:3: error: 'sdy.all_gather' op unknown axis name: \"q\"\n");
  // Shapes that disagree: an operand used with another type, a permute
  // whose result is cut into other sizes.
  check("operand_type",
        "  %0 = sdy.all_gather [{\"y\"}, {}] %arg0 out_sharding=<@mesh, [{\"x\"}, {\"z\"}]> : "
        "tensor<16x4xf32>",
        "FILE:4:35: error: use of value '%arg0' expects different type than prior uses: "
        "'tensor<16x4xf32>' vs 'tensor<16x8xf32>'\n");
  check("permute_sizes",
        "  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{\"y\", \"x\"}, {\"w\"}]> : "
        "tensor<16x8xf32>",
        "FILE:4:3: error: 'sdy.collective_permute' op sharded size of result doesn't match "
        "operand on dimension 1: 4 != 2\n");
  // A collective onto another mesh: the note is at %arg0 in the signature.
  check("other_mesh",
        "  %0 = sdy.all_slice [{}, {\"a\"}] %arg0 out_sharding=<@other, [{}, {\"a\"}]> : "
        "tensor<16x8xf32>",
        "FILE:4:3: error: 'sdy.all_slice' op result mesh does not match operand mesh\n"
        "FILE:3:14: note: operand mesh: #sdy.mesh<[\"x\"=2, \"y\"=2, \"z\"=2, \"w\"=4]>\n");
  // A reshard to another mesh is checked against that mesh.
  check("reshard_axis",
        "  %0 = sdy.reshard %arg0 <@other, [{\"x\"}, {}]> : tensor<16x8xf32>",
        "FILE:4:3: error: 'sdy.reshard' op unknown axis name: \"x\"\n");
  check("reshard_mesh", "  %0 = sdy.reshard %arg0 <@nowhere, [{}, {}]> : tensor<16x8xf32>",
        "FILE:4:3: error: 'sdy.reshard' op unknown mesh: @nowhere\n");
  // ... and is fine when the mesh has the axes.
  const std::string fine =
      write("reshard_fine.mlir",
            prefix + "  %0 = sdy.reshard %arg0 <@other, [{\"a\"}, {}]> : tensor<16x8xf32>\n" + suffix);
  ToolRun ok = run(fine);
  EXPECT_EQ(ok.status, 0) << ok.err;
  // Cut short: an error, not a crash.
  const std::string cut = write("cut.mlir", prefix + "  %0 = sdy.all_gather [{\"y\"}, {}] %arg0");
  ToolRun r = run(cut);
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.err, cut + ":")) << r.err;
}

// Issue 12 item 10: an error in an attribute stays at its op (3:1, where
// sdy_opt reports it and the conformance cases check it), and a note points
// at the duplicated axis; -verify-diagnostics gets no such note (the test
// above passes with only the error expected).
TEST_F(ShardscopeOptCli, AnAttributeErrorHasANoteAtTheAxis) {
  const std::string text = withExpectation("duplicate axis");
  const std::string file = write("axis_at.mlir", text);
  ToolRun r = run(file);
  EXPECT_EQ(r.status, 1);
  const std::string line3 = text.substr(text.find("func.func"));
  const size_t col = line3.find("\"a\"", line3.find("\"a\"") + 1) + 1;
  EXPECT_TRUE(contains(r.err, file + ":3:1: error: 'func.func' op arg 0 - duplicate axis ref: \"a\"\n" +
                                  file + ":3:" + std::to_string(col) +
                                  ": note: at \"a\" in 'sdy.sharding' of argument 0\n"))
      << r.err;
  // The module is read without the attribute sites first and again with
  // them once the verifier fails: the error is reported once, from the
  // second reading.
  size_t reports = 0;
  for (size_t at = r.err.find("duplicate axis ref"); at != std::string::npos;
       at = r.err.find("duplicate axis ref", at + 1))
    ++reports;
  EXPECT_EQ(reports, 1u) << r.err;
}
