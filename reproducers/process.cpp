#include "reproducers/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
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

void trim_to(ProcessResult& result, size_t limit) {
  if (result.output.size() <= limit) return;
  size_t excess = result.output.size() - limit;
  result.output.erase(0, excess);
  result.bytes_dropped += excess;
}

long long millis_until(Clock::time_point deadline) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
}

// Appends; once the buffer holds twice `limit`, drops from the front what exceeds `limit`, counting what
// was dropped (trimming at every read would move a megabyte per 64 KB read). `trim_to` finishes the cut.
void keep_tail(ProcessResult& result, const char* data, size_t n, size_t limit) {
  result.output.append(data, n);
  if (result.output.size() >= 2 * limit) trim_to(result, limit);
}

enum class Wait { exited, running, lost };

// Whether the child exited by `deadline` (a child can close its output and keep running, e.g. after
// handing it to a daemon), or its status was lost: waitpid failed, so nothing is known about how it ended.
Wait wait_until(pid_t pid, Clock::time_point deadline, int& status, int& error) {
  while (true) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return Wait::exited;
    if (done < 0 && errno != EINTR) {
      error = errno;
      return Wait::lost;
    }
    if (millis_until(deadline) <= 0) return Wait::running;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// With SIGCHLD ignored (or SA_NOCLDWAIT), which a parent can leave behind across exec, the kernel reaps
// children itself and waitpid fails: their exit status would be lost. The default disposition keeps it.
void keep_child_statuses() {
  struct sigaction current {};
  if (sigaction(SIGCHLD, nullptr, &current) != 0) return;
  if (current.sa_handler != SIG_IGN && !(current.sa_flags & SA_NOCLDWAIT)) return;
  struct sigaction standard {};
  standard.sa_handler = SIG_DFL;
  sigemptyset(&standard.sa_mask);
  sigaction(SIGCHLD, &standard, nullptr);
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, int timeout_s, size_t output_limit) {
  if (timeout_s <= 0 || timeout_s > kMaxTimeout)
    throw Error("a process timeout must be 1 to " + std::to_string(kMaxTimeout) + " seconds, not " +
                std::to_string(timeout_s));
  keep_child_statuses();
  int fds[2];
  if (pipe(fds) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  Fd read_end{fds[0]};
  Fd write_end{fds[1]};
  auto start = Clock::now();
  pid_t pid = fork();
  if (pid < 0) throw Error(std::string("cannot start a process: ") + std::strerror(errno));
  if (pid == 0) {
    setpgid(0, 0);
    signal(SIGXFSZ, SIG_DFL);  // faultline ignores it for itself (cli/main.cpp); a harness or nvcc does not
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
  trim_to(result, output_limit);
  int status = 0;
  int error = 0;
  Wait wait = result.timed_out ? Wait::running : wait_until(pid, deadline, status, error);
  if (wait == Wait::running) {
    result.timed_out = true;
    kill(-pid, SIGKILL);
    // Bounded too: a child stuck in the kernel (a wedged driver call) dies only when that call returns.
    wait_until(pid, Clock::now() + std::chrono::seconds(5), status, error);
  } else if (wait == Wait::lost) {
    result.status_lost = std::string("its exit status was lost (waitpid: ") + std::strerror(error) + ")";
  } else if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace faultline::reproducers
