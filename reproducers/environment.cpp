#include "reproducers/environment.hpp"

#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "common/error.hpp"
#include "reproducers/process.hpp"

namespace faultline::reproducers {

namespace {

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// nvidia-smi from PATH, else from where drivers put it when PATH lacks it (containers often mount the
// driver under /usr/local/nvidia); empty when there is none.
std::string find_nvidia_smi() {
  auto which = run_process({"sh", "-c", "command -v nvidia-smi"}, 10);
  if (which.exit_code == 0) return trim(which.output);
  for (const char* path :
       {"/usr/local/nvidia/bin/nvidia-smi", "/usr/bin/nvidia-smi", "/usr/lib/wsl/lib/nvidia-smi"}) {
    if (access(path, X_OK) == 0) return path;
  }
  return "";
}

// nvcc prints "... release 13.0, V13.0.88": keep "13.0".
std::string nvcc_release(const std::string& nvcc) {
  auto version = run_process({nvcc, "--version"}, 20);
  auto pos = version.output.find("release ");
  if (version.exit_code != 0 || pos == std::string::npos) return "";
  auto end = version.output.find_first_of(",\n", pos);
  return trim(version.output.substr(pos + 8, end - pos - 8));
}

}  // namespace

// An installed faultline (cmake --install) keeps the manifests of its own version beside it; a faultline in
// its build tree reads the source tree's.
std::string default_manifest_dir() {
  std::error_code error;
  auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    auto installed = executable.parent_path().parent_path() / "share" / "faultline" / "reproducers";
    if (std::filesystem::is_directory(installed, error)) return installed.string();
  }
  return FAULTLINE_DEFAULT_MANIFEST_DIR;
}

Environment detect_environment() {
  Environment env;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) env.node = host;
  env.build_dir = FAULTLINE_DEFAULT_BUILD_DIR;
  env.manifest_dir = default_manifest_dir();
  env.have_cuda = FAULTLINE_HAVE_CUDA;
  env.nvcc = FAULTLINE_NVCC;
  if (env.have_cuda) env.cuda_toolkit = nvcc_release(env.nvcc);
  const std::string smi = find_nvidia_smi();
  if (smi.empty()) return env;
  auto query = run_process({smi, "--query-gpu=name,driver_version,compute_cap", "--format=csv,noheader"}, 20);
  if (query.exit_code == 0) {
    std::istringstream lines(query.output);
    std::string line;
    if (std::getline(lines, line)) {
      std::vector<std::string> fields;
      std::istringstream parts(line);
      std::string field;
      while (std::getline(parts, field, ',')) fields.push_back(trim(field));
      if (fields.size() == 3) {
        try {
          env.gpu = Gpu{fields[0], fields[1], std::stod(fields[2])};
        } catch (const std::exception&) {
        }
      }
    }
  }
  auto header = run_process({smi}, 20);
  auto pos = header.output.find("CUDA Version:");
  if (pos != std::string::npos) {
    std::istringstream rest(header.output.substr(pos + 13));
    rest >> env.cuda_driver_version;
  }
  return env;
}

bool build_dir_found(const Environment& env) {
  std::error_code unreadable;  // one it may not look into, or a name too long, is not found
  return std::filesystem::is_directory(env.build_dir, unreadable);
}

void require_build_dir(const Environment& env) {
  if (!build_dir_found(env)) {
    throw Error(env.build_dir + ": no such build directory (build the project, or pass --build-dir)");
  }
}

std::string compute_capability_text(const Environment& env) {
  if (!env.gpu) return "none";
  char cc[16];
  std::snprintf(cc, sizeof cc, "%.1f", env.gpu->compute_capability);
  return cc;
}

std::vector<std::pair<std::string, std::string>> describe(const Environment& env) {
  std::vector<std::pair<std::string, std::string>> out;
  if (env.gpu) {
    out.push_back({"GPU", env.gpu->name});
    out.push_back({"driver", env.gpu->driver});
    out.push_back({"CUDA (driver)", env.cuda_driver_version.empty() ? "unknown" : env.cuda_driver_version});
    out.push_back({"compute capability", compute_capability_text(env)});
  } else {
    out.push_back({"GPU", "none found (nvidia-smi absent or lists no GPU): gpu mode is skipped"});
  }
  if (env.have_cuda) {
    out.push_back(
        {"nvcc", env.nvcc + (env.cuda_toolkit.empty() ? "" : " (release " + env.cuda_toolkit + ")")});
  } else {
    out.push_back({"nvcc", "not found when the build was configured: GPU harnesses were not built"});
  }
  out.push_back({"build", env.build_dir + (build_dir_found(env)
                                               ? ""
                                               : " (no such directory: build the project, or pass --build-dir)")});
  return out;
}

}  // namespace faultline::reproducers
