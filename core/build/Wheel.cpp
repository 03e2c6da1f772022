#include "core/build/Wheel.h"

#include "core/plan/BuildEnvironment.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cudadeps {

std::optional<WheelName> WheelName::parse(StringRef FileName) {
  if (!FileName.consume_back(".whl"))
    return std::nullopt;
  SmallVector<StringRef, 6> Parts;
  FileName.split(Parts, '-');
  if (Parts.size() != 5 && Parts.size() != 6)
    return std::nullopt;
  for (StringRef P : Parts)
    if (P.empty())
      return std::nullopt;
  WheelName W;
  W.Distribution = Parts[0].str();
  W.Version = Parts[1].str();
  size_t I = 2;
  if (Parts.size() == 6)
    W.Build = Parts[I++].str();
  W.Python = Parts[I++].str();
  W.Abi = Parts[I++].str();
  W.Platform = Parts[I].str();
  return W;
}

std::string WheelName::fileName() const {
  std::string S = Distribution + "-" + Version;
  if (!Build.empty())
    S += "-" + Build;
  return S + "-" + Python + "-" + Abi + "-" + Platform + ".whl";
}

std::string localTagFor(const PackageResolution &PR, const Facts &F) {
  std::string Tag;
  if (PR.Nvcc)
    Tag += "cu" + std::to_string(PR.Nvcc->Ver.major()) +
           std::to_string(PR.Nvcc->Ver.minor());
  if (F.Torch)
    Tag += "torch" + std::to_string(F.Torch->Ver.major()) + "." +
           std::to_string(F.Torch->Ver.minor());
  if (!PR.Archs.empty()) {
    std::string Numbers = archNumbers(PR.Archs);
    std::replace(Numbers.begin(), Numbers.end(), ';', '.');
    Tag += "sm" + Numbers;
  }
  return Tag;
}

/// Rewrites a wheel with a new version: argv[1] wheel, argv[2] output
/// directory, argv[3] local tag. Prints the new path.
static const char *RetagScript = R"PY(
import base64, csv, hashlib, io, os, re, sys, zipfile
src, dest, local = sys.argv[1:4]
parts = os.path.basename(src)[:-4].split('-')
dist, ver = parts[0], parts[1]
new = ver + ('.' if '+' in ver else '+') + local
parts[1] = new
out = os.path.join(dest, '-'.join(parts) + '.whl')
tmp = out + '.tmp'
old_info, new_info = dist + '-' + ver + '.dist-info/', dist + '-' + new + '.dist-info/'
rows = []
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(tmp, 'w', zipfile.ZIP_DEFLATED) as zout:
    for item in zin.infolist():
        name = item.filename
        if name.startswith(old_info):
            name = new_info + name[len(old_info):]
        if name == new_info + 'RECORD':
            continue
        data = zin.read(item.filename)
        if name == new_info + 'METADATA':
            data = re.sub(rb'(?m)^Version: .*$', b'Version: ' + new.encode(), data, count=1)
        info = zipfile.ZipInfo(name, item.date_time)
        info.external_attr = item.external_attr
        info.compress_type = zipfile.ZIP_DEFLATED
        zout.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
        rows.append((name, 'sha256=' + digest, str(len(data))))
    rows.append((new_info + 'RECORD', '', ''))
    text = io.StringIO()
    csv.writer(text, lineterminator='\n').writerows(rows)
    zout.writestr(new_info + 'RECORD', text.getvalue())
os.replace(tmp, out)
print(out)
)PY";

Expected<std::string> retagWheel(ProcessRunner &Runner, StringRef Python,
                                 StringRef Wheel, StringRef OutDir,
                                 StringRef Local) {
  std::optional<WheelName> W = WheelName::parse(sys::path::filename(Wheel));
  if (!W)
    return createStringError(inconvertibleErrorCode(),
                             "%s is not a wheel name (PEP 427)",
                             Wheel.str().c_str());
  if (Local.empty() || StringRef(W->Version).endswith(Local)) {
    SmallString<256> Dest(OutDir);
    sys::path::append(Dest, sys::path::filename(Wheel));
    if (Dest != Wheel)
      if (std::error_code EC = sys::fs::copy_file(Wheel, Dest))
        return createStringError(EC, "cannot copy %s: %s",
                                 Wheel.str().c_str(), EC.message().c_str());
    return std::string(Dest);
  }
  ProcessRequest R;
  R.Argv = {Python.str(), "-c", RetagScript, Wheel.str(), OutDir.str(),
            Local.str()};
  R.Timeout = std::chrono::minutes(5);
  Expected<ProcessResult> Res = Runner.run(R);
  if (!Res)
    return Res.takeError();
  if (Res->ExitCode != 0)
    return createStringError(inconvertibleErrorCode(),
                             "cannot add the local tag +%s to %s: %s",
                             Local.str().c_str(), Wheel.str().c_str(),
                             StringRef(Res->Err).trim().str().c_str());
  std::string Out = StringRef(Res->Out).trim().str();
  if (!sys::fs::exists(Out))
    return createStringError(inconvertibleErrorCode(),
                             "retagging %s wrote no wheel",
                             Wheel.str().c_str());
  return Out;
}

} // namespace cudadeps
