// The reproducers' oracles can fail: each rewritten harness runs with its bug's trigger removed (an input,
// a build flag, a deployed library swapped or deleted) and its buggy variant must then come out correct
// (exit 0), or, for the loaders, a load failure of another kind must not read as the symptom. Every test
// also runs the harness as the suite does, so both directions of each verdict are shown.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "common/text_file.hpp"
#include "reproducers/manifest.hpp"
#include "reproducers/process.hpp"
#include "tests/temp_dir.hpp"

namespace fs = std::filesystem;
using faultline::reproducers::run_process;

namespace {

constexpr int kCorrect = 0;
constexpr int kSymptom = 10;
constexpr int kSkipped = 77;
constexpr int kHarnessError = 3;

std::string kernels_dir(const std::string& id) {
  return std::string(FAULTLINE_BINARY_DIR) + "/kernels/" + id;
}

std::string host_harness(const std::string& id, const std::string& variant) {
  return kernels_dir(id) + "/repro_" + id + "_" + variant + "_host";
}

faultline::reproducers::ProcessResult run(const std::string& path, std::vector<std::string> args = {}) {
  args.insert(args.begin(), path);
  return run_process(args, 60);
}

int exit_of(const std::string& id, const std::string& variant, const std::vector<std::string>& args = {}) {
  return run(host_harness(id, variant), args).exit_code;
}

// A copy of a loader reproducer's build output (harnesses, extensions, runtimes) that a test may change.
void copy_build_output(const std::string& id, const fs::path& to) {
  fs::copy(kernels_dir(id), to, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::remove_all(to / "CMakeFiles");
}

// Replaces the deployed library directory `deployed` by a copy of `other`.
void deploy_instead(const fs::path& tree, const std::string& deployed, const std::string& other) {
  fs::remove_all(tree / deployed);
  fs::copy(tree / other, tree / deployed, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
}

const faultline::reproducers::Expectation& build_expectation(const std::string& variant) {
  static const auto manifests = faultline::reproducers::load_manifests(FAULTLINE_SOURCE_DIR "/reproducers");
  return faultline::reproducers::find_manifest(manifests, "fma-contraction-orientation")
      .modes.at("build")
      .at(variant);
}

// The build mode's PTX check of the manifest, applied to `ptx`.
bool ptx_check_holds(const faultline::reproducers::Expectation& x, const std::string& ptx) {
  using faultline::reproducers::pattern_found;
  return pattern_found(x.artifact_matches, ptx) &&
         (x.artifact_lacks.empty() || !pattern_found(x.artifact_lacks, ptx));
}

// The PTX of the build mode's probe kernel, compiled as kernels/fma-contraction-orientation/CMakeLists.txt
// does, plus `extra` flags.
std::string probe_ptx(const faultline::testing::TempDir& dir, int fixed,
                      const std::vector<std::string>& extra) {
  const std::string src = FAULTLINE_SOURCE_DIR "/kernels/fma-contraction-orientation";
  const std::string out = dir.file("probe_" + std::to_string(fixed) + ".ptx");
  std::vector<std::string> argv{FAULTLINE_NVCC,
                                "-ptx",
                                "-arch=compute_90",
                                "-DFAULTLINE_FIXED=" + std::to_string(fixed),
                                "-I" + src,
                                "-I" FAULTLINE_SOURCE_DIR "/kernels/common",
                                src + "/ptx_probe.cu",
                                "-o",
                                out};
  argv.insert(argv.end(), extra.begin(), extra.end());
  auto p = run_process(argv, 300);
  EXPECT_EQ(p.exit_code, 0) << p.output;
  return faultline::common::read_text_file(out);
}

// Counts of the register-form FFMA and FADD instructions in the machine code of an sm_90 cubin. Each
// instruction is 128 bits; the low 12 bits of its first word are the opcode, 0x223 for FFMA and 0x221 for
// FADD in the encodings cuobjdump -sass prints for Hopper (e.g. FFMA R5, R2, R5, -R0 is 0x...7223).
struct FloatOps {
  int ffma = 0;
  int fadd = 0;
};

FloatOps float_ops_of_cubin(const std::string& path) {
  const std::string elf = faultline::common::read_text_file(path);
  auto u16 = [&](size_t at) {
    uint16_t v;
    std::memcpy(&v, elf.data() + at, 2);
    return size_t(v);
  };
  auto u64 = [&](size_t at) {
    uint64_t v;
    std::memcpy(&v, elf.data() + at, 8);
    return size_t(v);
  };
  const size_t shoff = u64(0x28), shentsize = u16(0x3A), shnum = u16(0x3C), shstrndx = u16(0x3E);
  const size_t names = u64(shoff + shstrndx * shentsize + 0x18);
  FloatOps ops;
  for (size_t i = 0; i < shnum; ++i) {
    const size_t header = shoff + i * shentsize;
    uint32_t name_at;
    std::memcpy(&name_at, elf.data() + header, 4);
    if (std::string(elf.data() + names + name_at).rfind(".text.", 0) != 0) continue;
    const size_t offset = u64(header + 0x18), size = u64(header + 0x20);
    for (size_t at = offset; at + 16 <= offset + size; at += 16) {
      const size_t opcode = u64(at) & 0xFFF;
      ops.ffma += opcode == 0x223;
      ops.fadd += opcode == 0x221;
    }
  }
  return ops;
}

}  // namespace

TEST(CausalMaskCornerOracle, BuggyMaskDiffersFromFullSequenceAttentionOnlyWhenQueriesAreFewerThanKeys) {
  EXPECT_EQ(exit_of("causal-mask-corner", "buggy"), kSymptom);
  EXPECT_EQ(exit_of("causal-mask-corner", "buggy", {"--seq-q", "8"}), kCorrect);
  EXPECT_EQ(exit_of("causal-mask-corner", "fixed"), kCorrect);
  EXPECT_EQ(exit_of("causal-mask-corner", "fixed", {"--seq-q", "1"}), kCorrect);
}

TEST(GroupSizeDispatchOracle, BuggyDecodeCallRaisesOnlyForAGroupSizeWithoutKernel) {
  auto buggy = run(host_harness("group-size-dispatch", "buggy"));
  EXPECT_EQ(buggy.exit_code, kSymptom);
  EXPECT_NE(buggy.output.find("Unsupported group_size: 3"), std::string::npos) << buggy.output;
  EXPECT_EQ(exit_of("group-size-dispatch", "buggy", {"--query-heads", "8"}), kCorrect);
  EXPECT_EQ(exit_of("group-size-dispatch", "fixed"), kCorrect);
  EXPECT_EQ(exit_of("group-size-dispatch", "fixed", {"--query-heads", "20"}), kCorrect);
}

TEST(BoolIndexAfterSwapOracle, BuggyBlockExceedsTheThreadLimitOnlyWhenOperandsAreSwapped) {
  EXPECT_EQ(exit_of("bool-index-after-swap", "buggy"), kSymptom);
  EXPECT_EQ(exit_of("bool-index-after-swap", "buggy", {"--swap-ab", "0"}), kCorrect);
  EXPECT_EQ(exit_of("bool-index-after-swap", "fixed"), kCorrect);
}

TEST(Int16BoundOverflowOracle, BuggyRowOutputIsWrongOnlyWhenTheRowOutgrowsSixteenBits) {
  // 32767 is the largest int16_t: a row of that many keys keeps its bound. 40000 wraps to -25536 (no column
  // kept, NaN); 70000 wraps to 70000 - 65536 = 4464 and 98303 to 32767, positive bounds that keep only the
  // head of the row, which a check of the softmax mass alone would miss.
  EXPECT_EQ(exit_of("int16-bound-overflow", "buggy"), kSymptom);
  EXPECT_EQ(exit_of("int16-bound-overflow", "buggy", {"--keys", "32767"}), kCorrect);
  EXPECT_EQ(exit_of("int16-bound-overflow", "buggy", {"--keys", "1000"}), kCorrect);
  EXPECT_EQ(exit_of("int16-bound-overflow", "buggy", {"--keys", "32768"}), kSymptom);
  EXPECT_EQ(exit_of("int16-bound-overflow", "buggy", {"--keys", "70000"}), kSymptom);
  EXPECT_EQ(exit_of("int16-bound-overflow", "buggy", {"--keys", "98303"}), kSymptom);
  EXPECT_EQ(exit_of("int16-bound-overflow", "fixed"), kCorrect);
  EXPECT_EQ(exit_of("int16-bound-overflow", "fixed", {"--keys", "32768"}), kCorrect);
  EXPECT_EQ(exit_of("int16-bound-overflow", "fixed", {"--keys", "70000"}), kCorrect);
  EXPECT_EQ(exit_of("int16-bound-overflow", "fixed", {"--keys", "98303"}), kCorrect);
}

TEST(Tf32VsFp32ReferenceOracle, OnlyAProductThatMatchesTheTf32ReferenceReadsAsTheSymptom) {
  EXPECT_EQ(exit_of("tf32-vs-fp32-reference", "buggy"), kSymptom);
  EXPECT_EQ(exit_of("tf32-vs-fp32-reference", "fixed"), kCorrect);
  // One element off by 0.1%: wrong against both references, so neither variant may call it TF32 rounding.
  EXPECT_EQ(exit_of("tf32-vs-fp32-reference", "buggy", {"--perturb", "1e-3"}), kHarnessError);
  EXPECT_EQ(exit_of("tf32-vs-fp32-reference", "fixed", {"--perturb", "1e-3"}), kHarnessError);
  // Off by 1e-7, within the tolerance: the verdicts stand.
  EXPECT_EQ(exit_of("tf32-vs-fp32-reference", "buggy", {"--perturb", "1e-7"}), kSymptom);
  EXPECT_EQ(exit_of("tf32-vs-fp32-reference", "fixed", {"--perturb", "1e-7"}), kCorrect);
}

TEST(SmemStagesOverflowOracle, BuggyStagesOverflowSharedMemoryOnlyBelowHeadDimensionThirtyTwo) {
  // Hand-worked in kernels/smem-stages-overflow/stages.cuh: at 16 (and 8) the buggy pick needs 262144 bytes
  // of the 232448 a Hopper CTA may use; at 32 its 14 stages need 229376.
  EXPECT_EQ(exit_of("smem-stages-overflow", "buggy"), kSymptom);
  EXPECT_EQ(exit_of("smem-stages-overflow", "buggy", {"--head-dim", "8"}), kSymptom);
  EXPECT_EQ(exit_of("smem-stages-overflow", "buggy", {"--head-dim", "32"}), kCorrect);
  EXPECT_EQ(exit_of("smem-stages-overflow", "buggy", {"--head-dim", "128"}), kCorrect);
  EXPECT_EQ(exit_of("smem-stages-overflow", "fixed"), kCorrect);
  EXPECT_EQ(exit_of("smem-stages-overflow", "fixed", {"--head-dim", "8"}), kCorrect);
}

TEST(ConstexprRecompileOracle, BuggyCacheRecompilesOnlyWhenTheSequenceLengthChanges) {
  if (!fs::exists(host_harness("constexpr-recompile", "buggy")))
    GTEST_SKIP() << "no NVRTC: configured without CUDA";
  EXPECT_EQ(exit_of("constexpr-recompile", "buggy"), kSymptom);
  // Eight calls with one repeated length: one compilation, which is no recompilation.
  EXPECT_EQ(exit_of("constexpr-recompile", "buggy", {"--seq-len", "256"}), kCorrect);
  EXPECT_EQ(exit_of("constexpr-recompile", "fixed"), kCorrect);
}

TEST(BarrierIdlePeerHangOracle, BuggyProducerTimesOutOnlyWhenItsPeerIsAnotherCta) {
  EXPECT_EQ(exit_of("barrier-idle-peer-hang", "buggy"), kSymptom);
  auto alone = run(host_harness("barrier-idle-peer-hang", "buggy"), {"--cluster-size", "1"});
  EXPECT_EQ(alone.exit_code, kCorrect) << alone.output;
  EXPECT_NE(alone.output.find("2 arrivals on the producer's barrier"), std::string::npos) << alone.output;
  EXPECT_EQ(exit_of("barrier-idle-peer-hang", "fixed"), kCorrect);
}

TEST(MissingCapabilityCheckOracle, BuggyDispatchFindsAnImageOnADeviceThatHasTheFeature) {
  EXPECT_EQ(exit_of("missing-capability-check", "buggy"), kSymptom);
  EXPECT_EQ(exit_of("missing-capability-check", "buggy", {"--device-arch", "100"}), kCorrect);
  EXPECT_EQ(exit_of("missing-capability-check", "fixed"), kCorrect);
  EXPECT_EQ(exit_of("missing-capability-check", "fixed", {"--device-arch", "120"}), kCorrect);
}

TEST(PtxVersionMismatchOracle, BuggyChoiceIsRefusedOnlyWhenTheGeneratorIsNewerThanTheAssembler) {
  EXPECT_EQ(exit_of("ptx-version-mismatch", "buggy"), kSymptom);
  EXPECT_EQ(exit_of("ptx-version-mismatch", "buggy", {"--generator", "8.5"}), kCorrect);
  EXPECT_EQ(exit_of("ptx-version-mismatch", "fixed"), kCorrect);
}

TEST(FmaContractionHostOracle, BuggyOrientationIsWrongOnlyWhenTheHostCompilerContracts) {
  const int contracted = exit_of("fma-contraction-orientation", "buggy");
  if (contracted == kSkipped) GTEST_SKIP() << "this CPU has no fused multiply-add";
  EXPECT_EQ(contracted, kSymptom);
  // The same buggy source, compiled with -ffp-contract=off (tests/reproducers/oracle_controls.cmake).
  auto uncontracted =
      run(std::string(FAULTLINE_BINARY_DIR) + "/tests/oracle_control_fma_buggy_no_contraction");
  EXPECT_EQ(uncontracted.exit_code, kCorrect) << uncontracted.output;
  EXPECT_EQ(exit_of("fma-contraction-orientation", "fixed"), kCorrect);
}

TEST(FmaContractionPtxOracle, BuggyPtxCheckFailsWhenContractionIsDisabled) {
  if (std::string(FAULTLINE_NVCC).empty()) GTEST_SKIP() << "no nvcc: configured without CUDA";
  faultline::testing::TempDir dir;
  EXPECT_TRUE(ptx_check_holds(build_expectation("buggy"), probe_ptx(dir, 0, {})));
  EXPECT_FALSE(ptx_check_holds(build_expectation("buggy"), probe_ptx(dir, 0, {"-fmad=false"})));
  EXPECT_TRUE(ptx_check_holds(build_expectation("fixed"), probe_ptx(dir, 1, {})));
  EXPECT_FALSE(ptx_check_holds(build_expectation("fixed"), probe_ptx(dir, 0, {})));
}

// The premise of the PTX check: nvcc leaves a*d - b*c as contractible mul.f32/sub.f32 and ptxas fuses
// them; with --fmad=false it keeps the subtraction.
TEST(FmaContractionPtxOracle, PtxasFusesTheBuggyContractiblePtxIntoAnFfma) {
  if (std::string(FAULTLINE_NVCC).empty()) GTEST_SKIP() << "no nvcc: configured without CUDA";
  faultline::testing::TempDir dir;
  dir.write("buggy.ptx", probe_ptx(dir, 0, {}));
  const std::string ptxas = (fs::path(FAULTLINE_NVCC).parent_path() / "ptxas").string();
  for (const std::string fmad : {"true", "false"}) {
    const std::string cubin = dir.file("buggy_fmad_" + fmad + ".cubin");
    auto p = run_process({ptxas, "-arch=sm_90", "--fmad=" + fmad, dir.file("buggy.ptx"), "-o", cubin}, 300);
    ASSERT_EQ(p.exit_code, 0) << p.output;
    const FloatOps ops = float_ops_of_cubin(cubin);
    EXPECT_EQ(ops.ffma, fmad == "true" ? 1 : 0) << "--fmad=" << fmad;
    EXPECT_EQ(ops.fadd, fmad == "true" ? 0 : 1) << "--fmad=" << fmad;
  }
}

TEST(SymbolVersionSkewOracle, OnlyTheLoadersVersionErrorReadsAsTheSymptom) {
  auto deployed = run(host_harness("symbol-version-skew", "buggy"));
  EXPECT_EQ(deployed.exit_code, kSymptom);
  EXPECT_NE(deployed.output.find("version `RT_2.0' not found"), std::string::npos) << deployed.output;

  faultline::testing::TempDir dir;
  copy_build_output("symbol-version-skew", dir.path() / "k");
  const std::string harness = (dir.path() / "k" / "repro_symbol-version-skew_buggy_host").string();
  ASSERT_EQ(run(harness).exit_code, kSymptom);  // the copy behaves as the build does
  deploy_instead(dir.path() / "k", "runtime_v1", "runtime_v2");
  EXPECT_EQ(run(harness).exit_code, kCorrect) << "the newer runtime provides RT_2.0";
  fs::remove(dir.path() / "k" / "ext_buggy" / "libext.so");
  auto missing = run(harness);
  EXPECT_EQ(missing.exit_code, kHarnessError) << missing.output;
  EXPECT_EQ(exit_of("symbol-version-skew", "fixed"), kCorrect);
}

TEST(Cxx11AbiMismatchOracle, BuggyExtensionFailsAtImportOnlyNextToTheOtherAbisFramework) {
  auto deployed = run(host_harness("cxx11-abi-mismatch", "buggy"));
  EXPECT_EQ(deployed.exit_code, kSymptom);
  EXPECT_NE(deployed.output.find("undefined symbol"), std::string::npos) << deployed.output;
  EXPECT_NE(deployed.output.find("describe_kernel(std::string const&)"), std::string::npos)
      << deployed.output;

  faultline::testing::TempDir dir;
  copy_build_output("cxx11-abi-mismatch", dir.path() / "k");
  const std::string harness = (dir.path() / "k" / "repro_cxx11-abi-mismatch_buggy_host").string();
  ASSERT_EQ(run(harness).exit_code, kSymptom);
  deploy_instead(dir.path() / "k", "framework_abi1", "framework_abi0");
  EXPECT_EQ(run(harness).exit_code, kCorrect) << "an old-ABI framework exports the old-ABI name";
  fs::remove(dir.path() / "k" / "ext_buggy" / "libext.so");
  auto missing = run(harness);
  EXPECT_EQ(missing.exit_code, kHarnessError) << missing.output;
  EXPECT_EQ(exit_of("cxx11-abi-mismatch", "fixed"), kCorrect);
}
