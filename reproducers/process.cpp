#include "reproducers/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "common/error.hpp"

namespace faultline::reproducers {

namespace {

using Clock = std::chrono::steady_clock;

// Closes a file descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

long long millis_until(Clock::time_point deadline) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
}

// Appends, then drops from the front what exceeds `limit`, counting what was dropped.
void keep_tail(ProcessResult& result, const char* data, size_t n, size_t limit) {
  result.output.append(data, n);
  if (result.output.size() > limit) {
    size_t excess = result.output.size() - limit;
    result.output.erase(0, excess);
    result.bytes_dropped += excess;
  }
}

// The child's exit status, or nothing when it has not exited by `deadline` (a child can close its output
// and keep running, e.g. after handing it to a daemon).
bool wait_until(pid_t pid, Clock::time_point deadline, int& status) {
  while (true) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) return true;
    if (millis_until(deadline) <= 0) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, int timeout_s, size_t output_limit) {
  if (timeout_s <= 0) throw Error("a process timeout must be positive, not " + std::to_string(timeout_s));
  int fds[2];
  if (pipe(fds) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  Fd read_end{fds[0]};
  Fd write_end{fds[1]};
  auto start = Clock::now();
  pid_t pid = fork();
  if (pid < 0) throw Error(std::string("cannot start a process: ") + std::strerror(errno));
  if (pid == 0) {
    setpgid(0, 0);
    dup2(write_end.fd, STDOUT_FILENO);
    dup2(write_end.fd, STDERR_FILENO);
    close(read_end.fd);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);
  close(write_end.fd);
  write_end.fd = -1;

  ProcessResult result;
  auto deadline = start + std::chrono::seconds(timeout_s);
  char buffer[65536];
  bool open = true;
  while (open) {
    auto left = millis_until(deadline);
    if (left <= 0) {
      result.timed_out = true;
      break;
    }
    pollfd p{read_end.fd, POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno != EINTR) break;
    if (ready > 0) {
      ssize_t n = read(read_end.fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        open = false;
      } else {
        keep_tail(result, buffer, static_cast<size_t>(n), output_limit);
      }
    }
  }
  int status = 0;
  if (result.timed_out || !wait_until(pid, deadline, status)) {
    result.timed_out = true;
    kill(-pid, SIGKILL);
    // Bounded too: a child stuck in the kernel (a wedged driver call) dies only when that call returns.
    wait_until(pid, Clock::now() + std::chrono::seconds(5), status);
  }
  if (!result.timed_out && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace faultline::reproducers
