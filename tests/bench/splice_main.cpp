// ./run bench's last step: writes the table rendered from RESULTS (bench.json) into README between its
// markers. usage: faultline_bench_table_splice RESULTS README
#include <cstdio>
#include <nlohmann/json.hpp>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/text_file.hpp"
#include "tests/bench/bench_table.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s RESULTS README\n", argv[0]);
    return 2;
  }
  try {
    auto results = nlohmann::json::parse(faultline::common::read_text_file(argv[1]));
    std::string readme = faultline::common::read_text_file(argv[2]);
    faultline::common::write_file_atomically(
        argv[2], faultline::bench::with_table(readme, faultline::bench::render_table(results)));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
  return 0;
}
