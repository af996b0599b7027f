// The shared memory behind CUDA IPC handles (sim/runtime/ipc_segment.*): another process
// opens a segment through /proc/PID/fd/FD, only while its maker shares it, and nothing is
// left behind however the maker ends.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>

#include "sim/runtime/ipc_segment.hpp"

using warpsim::runtime::SharedSegment;

namespace {

std::set<std::string> shm_names() {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/dev/shm", ec)) names.insert(e.path().filename().string());
  return names;
}

}  // namespace

TEST_CASE("ipc segment: opened by pid, descriptor and label, the same bytes, and refused once withdrawn or misnamed") {
  std::string why;
  auto made = SharedSegment::create("warpsim-ipc-test-1", 8192, &why);
  REQUIRE(made);
  CHECK(made->size() == 8192);
  CHECK(made->data()[0] == 0);
  CHECK(made->data()[8191] == 0);
  const int32_t pid = static_cast<int32_t>(::getpid());
  REQUIRE(made->fd() >= 0);

  auto opened = SharedSegment::open(pid, made->fd(), "warpsim-ipc-test-1", 4096, &why);
  REQUIRE(opened);
  CHECK(opened->fd() == -1);  // only the maker shares it
  std::memcpy(made->data() + 100, "abc", 3);
  CHECK(std::memcmp(opened->data() + 100, "abc", 3) == 0);
  opened->data()[4000] = 7;
  CHECK(made->data()[4000] == 7);

  // Another segment's label, a larger size than the file, a descriptor that is not a memfd.
  CHECK_FALSE(SharedSegment::open(pid, made->fd(), "warpsim-ipc-test-2", 4096, &why));
  CHECK_THAT(why, Catch::Contains("no longer shares warpsim-ipc-test-2"));
  CHECK_FALSE(SharedSegment::open(pid, made->fd(), "warpsim-ipc-test-1", 8193, &why));
  CHECK_THAT(why, Catch::Contains("smaller than the handle's 8193 bytes"));
  CHECK_FALSE(SharedSegment::open(pid, 0, "warpsim-ipc-test-1", 16, &why));
  CHECK_FALSE(SharedSegment::open(pid, -1, "warpsim-ipc-test-1", 16, &why));
  CHECK_FALSE(SharedSegment::open(0, made->fd(), "warpsim-ipc-test-1", 16, &why));

  // Withdrawn: no longer opened, while the mappings made before stay.
  const int fd = made->fd();
  made->withdraw();
  CHECK(made->fd() == -1);
  CHECK_FALSE(SharedSegment::open(pid, fd, "warpsim-ipc-test-1", 16, &why));
  CHECK_THAT(why, Catch::Contains("freed the memory or ended"));
  made->data()[5] = 9;
  CHECK(opened->data()[5] == 9);
}

TEST_CASE("ipc segment: a maker killed by a signal leaves nothing in /dev/shm, and its handle no longer opens") {
  const std::set<std::string> before = shm_names();
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {  // makes a segment, says which descriptor, and waits to be killed
    std::string why;
    auto s = SharedSegment::create("warpsim-ipc-test-killed", 4096, &why);
    int32_t fd = s ? s->fd() : -1;
    if (s) s->data()[0] = 42;
    (void)!::write(ready[1], &fd, sizeof fd);
    ::pause();
    ::_exit(0);
  }
  ::close(ready[1]);
  int32_t fd = -1;
  REQUIRE(::read(ready[0], &fd, sizeof fd) == sizeof fd);
  ::close(ready[0]);
  REQUIRE(fd >= 0);
  std::string why;
  {
    auto s = SharedSegment::open(child, fd, "warpsim-ipc-test-killed", 4096, &why);
    INFO(why);
    REQUIRE(s);
    CHECK(s->data()[0] == 42);
  }
  REQUIRE(::kill(child, SIGKILL) == 0);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK_FALSE(SharedSegment::open(child, fd, "warpsim-ipc-test-killed", 4096, &why));
  for (const std::string& name : shm_names()) {
    INFO(name);
    CHECK(before.count(name) == 1);
  }
}

TEST_CASE("ipc segment: a process of another user is told that it cannot see the maker's descriptors") {
  if (::geteuid() != 0) {
    WARN("skipped: needs root, to run the opening process as another user (nobody)");
    return;
  }
  std::string why;
  auto made = SharedSegment::create("warpsim-ipc-test-4", 4096, &why);
  REQUIRE(made);
  const int32_t pid = static_cast<int32_t>(::getpid());
  int pipefd[2];
  REQUIRE(::pipe(pipefd) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(pipefd[0]);
    // 65534: nobody. Without the same user the maker's /proc/PID/fd is hidden (EACCES).
    std::string msg;
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) msg = "setuid failed";
    else if (SharedSegment::open(pid, made->fd(), "warpsim-ipc-test-4", 4096, &msg)) msg = "opened";
    (void)!::write(pipefd[1], msg.data(), msg.size());
    ::_exit(0);
  }
  ::close(pipefd[1]);
  std::string heard;
  char buf[512];
  for (ssize_t n; (n = ::read(pipefd[0], buf, sizeof buf)) > 0;) heard.append(buf, static_cast<size_t>(n));
  ::close(pipefd[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK_THAT(heard, Catch::Contains("cannot see process " + std::to_string(pid) + "'s descriptors"));
  CHECK_THAT(heard, Catch::Contains("same user"));
}
