//===- PrintableStream.h - a stream that shows others' text safely --------===//
//
// Commands whose output is mostly values from elsewhere -- paths, manifest
// and plugin names, tool messages -- write to a PrintableStream instead of
// escaping each value: every complete line goes out through printableText
// (line breaks kept), so a value holding a terminal escape cannot reach the
// terminal raw even where a new message forgets to escape it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CLI_PRINTABLESTREAM_H
#define CUDADEPS_CLI_PRINTABLESTREAM_H

#include "cli/Cli.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace cudadeps::cli {

class PrintableStream : public llvm::raw_ostream {
public:
  explicit PrintableStream(llvm::raw_ostream &To) : To(To) { SetUnbuffered(); }
  ~PrintableStream() override { sync(); }

  /// Writes out a pending partial line.
  void sync();
  /// The stream underneath, after sync(): for text that is already safe
  /// and carries escapes of its own (colours, a progress line's redraw).
  llvm::raw_ostream &unfiltered() {
    sync();
    return To;
  }

private:
  void write_impl(const char *Ptr, size_t Size) override;
  uint64_t current_pos() const override { return Pos; }

  llvm::raw_ostream &To;
  /// A line not yet ended: held so that a UTF-8 sequence split between two
  /// writes is not taken for stray bytes.
  std::string Pending;
  uint64_t Pos = 0;
};

/// A Context whose Out and Err are PrintableStreams over \p Under's.
class PrintableContext {
public:
  explicit PrintableContext(Context &Under)
      : Out(Under.Out), Err(Under.Err),
        Ctx{Out, Err, Under.Prefix, Under.Color, &Out, &Err,
            Under.FreeOnReturn} {}

  Context &get() { return Ctx; }

private:
  PrintableStream Out;
  PrintableStream Err;
  Context Ctx;
};

/// The stream under \p Ctx's Out when it is a PrintableStream (see
/// PrintableStream::unfiltered), else Ctx.Out itself.
llvm::raw_ostream &unfilteredOut(Context &Ctx);
/// The same for Ctx.Err.
llvm::raw_ostream &unfilteredErr(Context &Ctx);

} // namespace cudadeps::cli

#endif
