#include "cli/PrintableStream.h"

#include "core/support/Printable.h"

using namespace llvm;

namespace cudadeps::cli {

void PrintableStream::write_impl(const char *Ptr, size_t Size) {
  Pos += Size;
  Pending.append(Ptr, Size);
  size_t End = Pending.rfind('\n');
  if (End == std::string::npos)
    return;
  To << printableText(StringRef(Pending).take_front(End + 1),
                      /*KeepLineBreaks=*/true);
  To.flush();
  Pending.erase(0, End + 1);
}

void PrintableStream::sync() {
  if (Pending.empty())
    return;
  To << printableText(Pending, /*KeepLineBreaks=*/true);
  To.flush();
  Pending.clear();
}

raw_ostream &unfilteredOut(Context &Ctx) {
  return Ctx.OutFilter ? Ctx.OutFilter->unfiltered() : Ctx.Out;
}

raw_ostream &unfilteredErr(Context &Ctx) {
  return Ctx.ErrFilter ? Ctx.ErrFilter->unfiltered() : Ctx.Err;
}

} // namespace cudadeps::cli
