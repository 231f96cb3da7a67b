#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/text_file.hpp"
#include "tests/file_size_limit.hpp"
#include "tests/temp_dir.hpp"

using faultline::common::read_text_file;
using faultline::common::replace_directory_atomically;
using faultline::common::write_file_atomically;

namespace {

std::vector<std::string> entries(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string error_of(const std::function<void()>& work) {
  try {
    work();
  } catch (const faultline::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(AtomicFile, ReplacesTheFileWithTheWholeContentAndLeavesNothingElse) {
  faultline::testing::TempDir dir;
  std::string path = dir.write("out.csv", "old\n");
  std::string content(100000, 'x');
  write_file_atomically(path, content);
  EXPECT_EQ(read_text_file(path), content);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"out.csv"});
}

// An output named as the store (`export --out` the --db) replaced every label and decision in it: an SQLite
// database or write-ahead log, told by its first bytes, is never written over; a file that only begins like
// one's text is.
// Files staged together are replaced only when every one was written: a full disk at the third leaves the
// first two as they were (each file on its own was atomic, so two of three used to be new), and no temporary
// file of any of them. With room the same three are all replaced, through a link as a single file is.
TEST(StagedFiles, NoneIsReplacedUntilEveryOneIsWrittenWhole) {
  faultline::testing::TempDir dir;
  const std::string a = dir.write("a.csv", "old a\n"), b = dir.write("b.csv", "old b\n"),
                    c = dir.write("c.csv", "old c\n");
  std::string message;
  {
    faultline::common::StagedFiles staged;
    staged.add(a, "new a\n");
    staged.add(b, "new b\n");
    EXPECT_EQ(read_text_file(a), "old a\n");  // written, not yet in place
    faultline::testing::FileSizeLimit disk_full(4096);
    message = error_of([&] { staged.add(c, std::string(100000, 'x')); });
  }
  EXPECT_EQ(message.rfind(c + ": cannot write the file", 0), 0u) << message;
  EXPECT_EQ(read_text_file(a), "old a\n");
  EXPECT_EQ(read_text_file(b), "old b\n");
  EXPECT_EQ(read_text_file(c), "old c\n");
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"a.csv", "b.csv", "c.csv"}));

  std::filesystem::create_symlink("c.csv", dir.file("link.csv"));
  faultline::common::StagedFiles staged;
  staged.add(a, "new a\n");
  staged.add(b, [](const faultline::common::PieceWriter& write) { write("new "), write("b\n"); });
  staged.add(dir.file("link.csv"), std::string(100000, 'x'));
  staged.commit();
  EXPECT_EQ(read_text_file(a), "new a\n");
  EXPECT_EQ(read_text_file(b), "new b\n");
  EXPECT_EQ(read_text_file(c), std::string(100000, 'x'));
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("link.csv")));
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"a.csv", "b.csv", "c.csv", "link.csv"}));
}

// A file an earlier run wrote and this one does not goes at commit, not before: a failure before commit
// leaves it with the rest of the old files. One that is not there is no error.
TEST(StagedFiles, AFileNamedForRemovalGoesAtCommitWithTheRenames) {
  faultline::testing::TempDir dir;
  const std::string a = dir.write("a.csv", "old a\n"), stale = dir.write("stale.csv", "old\n");
  {
    faultline::common::StagedFiles staged;
    staged.add(a, "new a\n");
    staged.remove_on_commit(stale);
  }  // not committed
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"a.csv", "stale.csv"}));
  faultline::common::StagedFiles staged;
  staged.add(a, "new a\n");
  staged.remove_on_commit(stale);
  staged.remove_on_commit(dir.file("never-written.csv"));
  EXPECT_EQ(read_text_file(stale), "old\n");
  staged.commit();
  EXPECT_EQ(read_text_file(a), "new a\n");
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"a.csv"}));
  // A directory where a removed file would be: refused before any file is replaced.
  std::filesystem::create_directory(dir.file("gone.csv"));
  faultline::common::StagedFiles blocked;
  blocked.add(a, "newer a\n");
  blocked.remove_on_commit(dir.file("gone.csv"));
  EXPECT_EQ(error_of([&] { blocked.commit(); }),
            dir.file("gone.csv") +
                ": is a directory, where a file of an earlier run is removed: nothing was replaced");
  EXPECT_EQ(read_text_file(a), "new a\n");
}

TEST(AtomicFile, AnSqliteDatabaseOrItsLogIsNeverWrittenOver) {
  faultline::testing::TempDir dir;
  const std::string database = dir.write("s.db", std::string("SQLite format 3") + '\0' + "pages");
  EXPECT_EQ(error_of([&] { write_file_atomically(database, "{}\n"); }),
            database +
                ": is an SQLite database or its log (a store?); no output is written over one: name another "
                "file");
  EXPECT_EQ(read_text_file(database), std::string("SQLite format 3") + '\0' + "pages");
  const std::string log = dir.write("s.db-wal", std::string("\x37\x7f\x06\x82") + "frames");
  EXPECT_NE(error_of([&] { write_file_atomically(log, "{}\n"); }), "");
  const std::string text = dir.write("notes.txt", "SQLite format 3 is a file format\n");
  write_file_atomically(text, "replaced\n");
  EXPECT_EQ(read_text_file(text), "replaced\n");
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"notes.txt", "s.db", "s.db-wal"}));
  // The files SQLite keeps beside a database, empty or not there yet while it is open (SQLite removed an
  // output written as s.db-shm when the store closed): refused by their name beside a database.
  for (const std::string beside : {"s.db-shm", "s.db-journal"}) {
    EXPECT_NE(
        error_of([&] { write_file_atomically(dir.file(beside), "{}\n"); }).find("is an SQLite database"),
        std::string::npos)
        << beside;
  }
  dir.write("s.db-shm", "");
  EXPECT_NE(error_of([&] { write_file_atomically(dir.file("s.db-shm"), "{}\n"); }), "");
  // The trigger removed: the same names beside a file that is not a database are written.
  write_file_atomically(dir.file("notes.txt-shm"), "{}\n");
  write_file_atomically(dir.file("notes.txt-journal"), "{}\n");
  EXPECT_EQ(read_text_file(dir.file("notes.txt-journal")), "{}\n");
}

// A new directory swapped in for a file (`train --models` naming the store) deleted the file: refused
// before anything is filled, the file left as it was.
TEST(AtomicDirectory, AFileIsNeverReplacedByADirectory) {
  faultline::testing::TempDir dir;
  const std::string file = dir.write("s.db", "the store\n");
  bool filled = false;
  EXPECT_EQ(error_of([&] { replace_directory_atomically(file, [&](const std::string&) { filled = true; }); }),
            file + ": is a file, not a directory; a directory is never put in place of a file: name another");
  EXPECT_FALSE(filled);
  EXPECT_EQ(read_text_file(file), "the store\n");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"s.db"});
  // A missing path or a directory is what it is for.
  replace_directory_atomically(dir.file("models"),
                               [](const std::string& d) { std::ofstream(d + "/m") << "1"; });
  replace_directory_atomically(dir.file("models"),
                               [](const std::string& d) { std::ofstream(d + "/m") << "2"; });
  EXPECT_EQ(read_text_file(dir.file("models/m")), "2");
}

TEST(AtomicFile, AFullDiskLeavesTheOldFileNoTemporaryAndAnErrorNamingTheFile) {
  faultline::testing::TempDir dir;
  std::string path = dir.write("out.csv", "old\n");
  std::string message;
  {
    faultline::testing::FileSizeLimit disk_full(4096);
    message = error_of([&] { write_file_atomically(path, std::string(100000, 'x')); });
  }
  EXPECT_EQ(message.rfind(path + ": cannot write the file", 0), 0u) << message;
  EXPECT_EQ(read_text_file(path), "old\n");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"out.csv"});
  // The same write below the limit goes through: the limit, not the content, made it fail.
  faultline::testing::FileSizeLimit roomy(1 << 20);
  EXPECT_EQ(error_of([&] { write_file_atomically(path, std::string(100000, 'x')); }), "");
}

TEST(AtomicFile, PiecesHandedOnOneByOneMakeTheFileTheirConcatenationInOrder) {
  faultline::testing::TempDir dir;
  std::string path = dir.write("index.html", "old\n");
  // Pieces on both sides of any gathering size: many small ones, one far larger than a page, small ones
  // again, a last small one that no size would fill; each names its place, so a lost, repeated or
  // reordered piece shows.
  std::vector<std::string> pieces;
  for (int i = 0; i < 20000; ++i) pieces.push_back("<tr>" + std::to_string(i) + "</tr>");
  pieces.push_back(std::string(300000, 'L'));
  pieces.push_back("");
  pieces.push_back(std::string(40000, 'M'));  // does not fit beside what is gathered, is not large either
  for (int i = 0; i < 3000; ++i) pieces.push_back("<td>" + std::to_string(i) + "</td>");
  pieces.push_back("end\n");
  std::string whole;
  for (const auto& p : pieces) whole += p;
  write_file_atomically(path, [&](const faultline::common::PieceWriter& write) {
    for (const auto& p : pieces) write(p);
  });
  EXPECT_EQ(read_text_file(path), whole);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"index.html"});
}

TEST(AtomicFile, AProducerThatFailsPartWayLeavesTheOldFileAndNoTemporary) {
  faultline::testing::TempDir dir;
  std::string path = dir.write("index.html", "old\n");
  // More than any gathering size has gone out before the failure.
  auto fail_after = [](int pieces) {
    return [pieces](const faultline::common::PieceWriter& write) {
      for (int i = 0; i < pieces; ++i) write(std::string(100000, 'x'));
      throw faultline::Error("the report's data ran out");
    };
  };
  EXPECT_EQ(error_of([&] { write_file_atomically(path, fail_after(3)); }), "the report's data ran out");
  EXPECT_EQ(read_text_file(path), "old\n");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"index.html"});
}

TEST(AtomicFile, AFullDiskWhilePiecesAreGatheredLeavesTheOldFileAndNamesTheFile) {
  faultline::testing::TempDir dir;
  std::string path = dir.write("index.html", "old\n");
  auto small_pieces = [](const faultline::common::PieceWriter& write) {
    for (int i = 0; i < 20000; ++i) write("0123456789");
  };
  std::string message;
  {
    faultline::testing::FileSizeLimit disk_full(4096);
    message = error_of([&] { write_file_atomically(path, small_pieces); });
  }
  EXPECT_EQ(message.rfind(path + ": cannot write the file", 0), 0u) << message;
  EXPECT_EQ(read_text_file(path), "old\n");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"index.html"});
  // A producer that catches the failure and goes on still gets it at the end, and no cut file, even when
  // the disk has room again by then (the limit is lifted before the producer returns).
  auto swallowing = [](const faultline::common::PieceWriter& write) {
    faultline::testing::FileSizeLimit disk_full(4096);
    for (int i = 0; i < 20000; ++i) {
      try {
        write("0123456789");
      } catch (const faultline::Error&) {
      }
    }
  };
  message = error_of([&] { write_file_atomically(path, swallowing); });
  EXPECT_EQ(message.rfind(path + ": cannot write the file", 0), 0u) << message;
  EXPECT_EQ(read_text_file(path), "old\n");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"index.html"});
}

TEST(AtomicFile, NeverWritesThroughALinkAtAGuessableTemporaryName) {
  faultline::testing::TempDir dir;
  std::string victim = dir.write("victim", "keep me\n");
  std::filesystem::create_symlink(victim, dir.file("report.md.tmp"));
  write_file_atomically(dir.file("report.md"), "# report\n");
  EXPECT_EQ(read_text_file(victim), "keep me\n");
  EXPECT_EQ(read_text_file(dir.file("report.md")), "# report\n");
}

TEST(AtomicFile, ALinkIsFollowedAndStaysALink) {
  faultline::testing::TempDir dir;
  std::filesystem::create_directory(dir.file("real"));
  const std::string target = dir.write("real/report.md", "old\n");
  // A relative link to a relative link: each hop is read from its own directory.
  std::filesystem::create_symlink("real/report.md", dir.file("hop.md"));
  std::filesystem::create_symlink("hop.md", dir.file("report.md"));
  write_file_atomically(dir.file("report.md"), "# new\n");
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("report.md")));
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("hop.md")));
  EXPECT_EQ(read_text_file(target), "# new\n");
  // A link to a file that does not exist yet: the file is made where the link points.
  std::filesystem::create_symlink("real/fresh.md", dir.file("fresh.md"));
  write_file_atomically(dir.file("fresh.md"), "fresh\n");
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("fresh.md")));
  EXPECT_EQ(read_text_file(dir.file("real/fresh.md")), "fresh\n");
  // A link to a directory: an error, and the link stays (a rename would have put a file in its place).
  std::filesystem::create_directory(dir.file("adir"));
  std::filesystem::create_directory_symlink("adir", dir.file("linkdir"));
  EXPECT_EQ(error_of([&] { write_file_atomically(dir.file("linkdir"), "x"); }),
            dir.file("linkdir") + ": is a directory, not a file");
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("linkdir")));
  // Links in a loop are an error naming the path, not a hang.
  std::filesystem::create_symlink("loop_b", dir.file("loop_a"));
  std::filesystem::create_symlink("loop_a", dir.file("loop_b"));
  EXPECT_EQ(error_of([&] { write_file_atomically(dir.file("loop_a"), "x"); }),
            dir.file("loop_a") + ": too many levels of symbolic links");
}

TEST(AtomicFile, AFifoIsWrittenIntoAndStaysAFifo) {
  faultline::testing::TempDir dir;
  const std::string fifo = dir.file("out.fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // The reading end, open before the write (non-blocking, so that opening it waits for no writer); what is
  // written fits in the pipe, so the write needs no reader running beside it and nothing can hang.
  const int reader = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  const std::string content(4000, 'y');
  write_file_atomically(fifo, content);
  std::string received(content.size() + 1, '\0');
  const ssize_t got = read(reader, received.data(), received.size());
  close(reader);
  EXPECT_EQ(received.substr(0, static_cast<size_t>(std::max<ssize_t>(got, 0))), content);
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"out.fifo"});
}

TEST(AtomicFile, ADescriptorNamedByPathIsWrittenIntoAfterWhatItHoldsAlready) {
  // /dev/fd/N (as /dev/stdout is /dev/fd/1): a file a shell redirected into keeps what the process wrote to
  // it before, and stays the same file; opening the path anew would have started at its beginning, and a
  // rename would have replaced it.
  faultline::testing::TempDir dir;
  const std::string log = dir.file("log.txt");
  const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, "head\n", 5), 5);
  struct stat before {};
  ASSERT_EQ(stat(log.c_str(), &before), 0);
  // A descriptor the process opened itself (the store's, say) is refused; one it was handed is written.
  const std::string named = "/dev/fd/" + std::to_string(fd);
  EXPECT_EQ(error_of([&] { write_file_atomically(named, "body\n"); }),
            named + ": descriptor " + std::to_string(fd) + " was not open when faultline started");
  faultline::common::remember_inherited_descriptors();  // as if the shell had handed it over
  write_file_atomically(named, "body\n");
  ASSERT_EQ(write(fd, "tail\n", 5), 5);  // the descriptor is still open and where the body ended
  close(fd);
  EXPECT_EQ(read_text_file(log), "head\nbody\ntail\n");
  struct stat after {};
  ASSERT_EQ(stat(log.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"log.txt"});
}

TEST(AtomicFile, ADeviceIsWrittenIntoAndStaysADevice) {
  // Copies of /dev/null and /dev/full (character devices 1:3 and 1:7) in a scratch directory, so that no
  // failure of this test can touch the machine's own.
  faultline::testing::TempDir dir;
  const std::string null_device = dir.file("null"), full_device = dir.file("full");
  if (mknod(null_device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
      mknod(full_device.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
    GTEST_SKIP() << "cannot make device nodes here (needs root): " << std::strerror(errno);
  if (const int fd = open(null_device.c_str(), O_WRONLY); fd < 0) {
    GTEST_SKIP() << "device nodes cannot be opened here (a nodev file system): " << std::strerror(errno);
  } else {
    close(fd);
  }
  EXPECT_EQ(error_of([&] { write_file_atomically(null_device, std::string(100000, 'x')); }), "");
  EXPECT_TRUE(std::filesystem::is_character_file(null_device));
  // A device that refuses the bytes is an error naming the path, as a full disk is.
  const std::string message = error_of([&] { write_file_atomically(full_device, "x"); });
  EXPECT_EQ(message.rfind(full_device + ": cannot write the file", 0), 0u) << message;
  EXPECT_TRUE(std::filesystem::is_character_file(full_device));
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"full", "null"}));
}

TEST(AtomicFile, ADirectoryIsSwappedInOnlyWhenComplete) {
  faultline::testing::TempDir dir;
  std::string models = dir.file("store.db.models");
  std::filesystem::create_directories(models);
  dir.write("store.db.models/model.json", "old model\n");
  std::string message = error_of([&] {
    replace_directory_atomically(models, [](const std::string& staging) {
      write_file_atomically(staging + "/model.json", "new model\n");
      throw faultline::Error(staging + "/symptom.ftz: cannot write the file");
    });
  });
  EXPECT_NE(message.find("symptom.ftz"), std::string::npos);
  EXPECT_EQ(read_text_file(models + "/model.json"), "old model\n");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"store.db.models"});
  replace_directory_atomically(models, [](const std::string& staging) {
    write_file_atomically(staging + "/model.json", "new model\n");
  });
  EXPECT_EQ(read_text_file(models + "/model.json"), "new model\n");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"store.db.models"});
}

namespace {

// names_standard_output of each path while standard output is on `fd` (asked then, and judged after
// standard output is restored, so that a failure's message is seen).
std::vector<bool> names_stdout_while_on(int fd, const std::vector<std::string>& paths) {
  std::fflush(stdout);
  const int saved = dup(1);
  std::vector<bool> answers;
  if (saved < 0 || dup2(fd, 1) != 1) return answers;
  for (const auto& path : paths) answers.push_back(faultline::common::names_standard_output(path));
  dup2(saved, 1);
  close(saved);
  return answers;
}

}  // namespace

// What a command says about the file it wrote goes to stderr only when that file is stdout itself: a pipe
// or file by any of its names, never another file, and never /dev/null (nothing read there mixes).
TEST(NamesStandardOutput, IsTrueForStdoutByAnyNameAndFalseForOtherFilesAndForDevNull) {
  faultline::testing::TempDir dir;
  const std::string file = dir.file("out.txt"), other = dir.file("other.txt");
  std::ofstream(file) << "";
  std::ofstream(other) << "";
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  EXPECT_EQ(names_stdout_while_on(pipe_fds[1], {"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", file,
                                                "/dev/null", dir.file("missing.txt")}),
            (std::vector<bool>{true, true, true, false, false, false}));
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  // A shell's `> out.txt` with --out out.txt.
  const int file_fd = open(file.c_str(), O_WRONLY);
  ASSERT_GE(file_fd, 0);
  EXPECT_EQ(names_stdout_while_on(file_fd, {file, "/dev/stdout", other}),
            (std::vector<bool>{true, true, false}));
  close(file_fd);
  const int null_fd = open("/dev/null", O_WRONLY);
  ASSERT_GE(null_fd, 0);
  EXPECT_EQ(names_stdout_while_on(null_fd, {"/dev/null", "/dev/stdout"}), (std::vector<bool>{false, false}));
  close(null_fd);
}
