// The CUDA runtime's image lookup at launch, for the host harness. A fat binary holds machine code (SASS)
// for real architectures and PTX for virtual ones; a device of compute capability X.Y runs SASS built for
// X.Z with Z <= Y, or JIT-compiles PTX built for any virtual architecture <= X.Y (CUDA C++ Programming
// Guide, "Binary Compatibility" and "PTX Compatibility"). The images are read from the CUDA_ARCHITECTURES
// list CMake builds each kernel with, so the rule is applied to what the build ships, not to the
// capability threshold the fix tests.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

struct KernelImage {
  int arch = 0;  // compute capability times ten: 90, 100
  bool ptx = false;
};

// "90;100-real;120-virtual" → images; "NN" alone is SASS and PTX, as in CMake.
inline std::vector<KernelImage> images_of(const std::string& cuda_architectures) {
  std::vector<KernelImage> images;
  size_t begin = 0;
  while (begin <= cuda_architectures.size()) {
    size_t end = cuda_architectures.find(';', begin);
    if (end == std::string::npos) end = cuda_architectures.size();
    const std::string entry = cuda_architectures.substr(begin, end - begin);
    const size_t digits = entry.find_first_not_of("0123456789");
    const std::string suffix = digits == std::string::npos ? "" : entry.substr(digits);
    if (entry.empty() || digits == 0 || (suffix != "" && suffix != "-real" && suffix != "-virtual")) {
      throw std::runtime_error("unsupported CUDA_ARCHITECTURES entry '" + entry + "'");
    }
    const int arch = std::stoi(entry.substr(0, digits));
    if (suffix != "-virtual") images.push_back({arch, false});
    if (suffix != "-real") images.push_back({arch, true});
    begin = end + 1;
  }
  return images;
}

inline bool device_can_load(const std::vector<KernelImage>& images, int device_arch) {
  for (const KernelImage& image : images) {
    if (image.ptx ? image.arch <= device_arch
                  : image.arch / 10 == device_arch / 10 && image.arch % 10 <= device_arch % 10) {
      return true;
    }
  }
  return false;
}
