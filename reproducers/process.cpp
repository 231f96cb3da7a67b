#include "reproducers/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "common/error.hpp"

namespace faultline::reproducers {

namespace {

// Closes a file descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, int timeout_s) {
  int fds[2];
  if (pipe(fds) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  Fd read_end{fds[0]};
  Fd write_end{fds[1]};
  auto start = std::chrono::steady_clock::now();
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
  char buffer[4096];
  bool open = true;
  while (open) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
            .count();
    if (left <= 0) {
      result.timed_out = true;
      kill(-pid, SIGKILL);
      break;
    }
    pollfd p{read_end.fd, POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno != EINTR) break;
    if (ready > 0) {
      ssize_t n = read(read_end.fd, buffer, sizeof buffer);
      if (n <= 0) {
        open = false;
      } else {
        result.output.append(buffer, static_cast<size_t>(n));
      }
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!result.timed_out && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace faultline::reproducers
