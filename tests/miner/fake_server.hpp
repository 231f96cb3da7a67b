// Starts tests/miner/fake_github.py on a free 127.0.0.1 port for one test and stops it afterwards.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>

#include "miner/http_client.hpp"
#include "tests/temp_dir.hpp"

namespace faultline::testing {

class FakeGitHub {
 public:
  explicit FakeGitHub(const nlohmann::json& config) {
    std::string config_path = dir_.write("config.json", config.dump());
    std::string port_file = dir_.file("port");
    std::string script = std::string(FAULTLINE_SOURCE_DIR) + "/tests/miner/fake_github.py";
    pid_ = fork();
    if (pid_ == 0) {
      execlp("python3", "python3", script.c_str(), "--config", config_path.c_str(), "--port-file",
             port_file.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 200 && !std::filesystem::exists(port_file); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::ifstream in(port_file);
    int port = 0;
    if (!(in >> port)) throw std::runtime_error("the fake GitHub server did not start");
    url_ = "http://127.0.0.1:" + std::to_string(port);
  }
  ~FakeGitHub() {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
  FakeGitHub(const FakeGitHub&) = delete;
  FakeGitHub& operator=(const FakeGitHub&) = delete;

  const std::string& url() const { return url_; }

  nlohmann::json control(const std::string& path_and_query) {
    miner::HttpClient http;
    miner::HttpResponse r;
    miner::TransportError e;
    if (!http.get(url_ + "/_control/" + path_and_query, {}, &r, &e)) throw std::runtime_error(e.message);
    return nlohmann::json::parse(r.body);
  }
  long requests() { return control("stats")["requests"].get<long>(); }

 private:
  TempDir dir_;
  pid_t pid_ = -1;
  std::string url_;
};

}  // namespace faultline::testing
