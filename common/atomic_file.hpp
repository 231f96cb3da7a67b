// Output files that are either the old version or the complete new one, never a cut or empty one,
// and never written through a link somebody placed at a predictable temporary name.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/piece_writer.hpp"

namespace faultline::common {

// Writes `content` to a new temporary file beside `path` (O_CREAT|O_EXCL, unpredictable name), checks
// every write and the close, fsyncs, and renames it over `path`. On any failure the temporary file is
// removed, `path` is left as it was, and faultline::Error names `path` and the reason. A symbolic link at
// `path` is followed as the kernel follows it: the file it names is replaced and the link stays. A device,
// FIFO or socket (what `path` names, links followed) is written into instead, with every write checked, and
// stays what it is; so is the descriptor that /dev/stdout, /dev/stderr, /dev/fd/N or /proc/self/fd/N names,
// if the process was handed it (remember_inherited_descriptors). A directory is an error.
void write_file_atomically(const std::string& path, std::string_view content);

// Whether `path` names the pipe, file or terminal that standard output is (/dev/stdout, /dev/fd/1, or the
// same pipe or terminal by another name; not /dev/null, whose contents nobody reads): what a command says
// about its output then belongs elsewhere, not inside it.
bool names_standard_output(const std::string& path);

// Notes the descriptors open now, at the start of the process: the only ones a path like /dev/fd/N may
// name for output (write_file_atomically writes into such a descriptor); any other is one the process opened
// itself. Until it is called, stdout and stderr are.
void remember_inherited_descriptors();

// The same for content better not held whole: `produce` hands its pieces, in order, to the writer it is
// given, which is valid only during the call. The writer throws faultline::Error naming `path` when a write
// fails; a producer that swallows it still gets the error at the end, and nothing is replaced. An exception
// from `produce` itself leaves `path` as it was and passes through unchanged.
void write_file_atomically(const std::string& path, const std::function<void(const PieceWriter&)>& produce);

// Several outputs replaced together, as far as files can be: each is written whole to its temporary file
// beside it (as write_file_atomically writes one) when it is added, and only once every one is, commit()
// renames them over their files one right after the other, removes the files named by remove_on_commit,
// then syncs each directory once. A failure before commit (a full disk, an exception, a kill) replaces
// none of them; only a kill within commit's renames and removals (system calls in a row, no sync between)
// could leave some replaced. Files not put in place are removed by the destructor. A descriptor, device or
// FIFO is written into when added.
class StagedFiles {
 public:
  StagedFiles();
  StagedFiles(const StagedFiles&) = delete;
  StagedFiles& operator=(const StagedFiles&) = delete;
  ~StagedFiles();
  void add(const std::string& path, std::string_view content);
  void add(const std::string& path, const std::function<void(const PieceWriter&)>& produce);
  // `path` goes at commit, if it is there: a file an earlier run wrote beside the others and this one
  // does not. A missing file is no error.
  void remove_on_commit(const std::string& path);
  void commit();
  struct Staged;  // one file written, not yet in place (defined where it is used)

 private:
  std::vector<Staged> staged_;
  std::vector<std::string> removals_;
};

// Throws faultline::Error naming `path` when something other than a directory is there (links followed):
// a directory is never put in its place (`train --models` naming the store swapped the store file out and
// deleted it).
void require_directory_or_nothing(const std::string& path);

// Lets `fill` write a complete new version of the directory `path` into a fresh directory beside it,
// then swaps it in; the old directory stays whole and in place until then. On any failure (an exception
// from `fill` included) the new directory is removed and the old one is left untouched. Refuses, before
// `fill`, a `path` that is not a directory (require_directory_or_nothing).
void replace_directory_atomically(const std::string& path,
                                  const std::function<void(const std::string&)>& fill);

}  // namespace faultline::common
