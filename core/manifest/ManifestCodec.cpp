#include "core/manifest/ManifestCodec.h"

#include "core/support/BinaryCodec.h"

#include <utility>

namespace cudadeps {

// A field added to one of these structs must be added to its list below
// (and LoadCache's FormatVersion bumped): the sizes catch a forgotten one.
#if defined(__GLIBCXX__) && defined(__x86_64__)
static_assert(sizeof(Located) == 48 && sizeof(Requirement) == 128 &&
                  sizeof(Arch) == 104 && sizeof(MatrixDims) == 136 &&
                  sizeof(MatrixExclude) == 152 &&
                  sizeof(PrebuiltMatrix) == 232 && sizeof(Release) == 232 &&
                  sizeof(BuildSpec) == 136 && sizeof(Fallback) == 208 &&
                  sizeof(Package) == 568 && sizeof(Project) == 160 &&
                  sizeof(Manifest) == 832 && sizeof(Diagnostic) == 120 &&
                  sizeof(SourceLocation) == 16 && sizeof(Version) == 24 &&
                  sizeof(Bound) == 32 && sizeof(VersionSet) == 8,
              "a manifest struct changed: update its field list here");
#endif

template <class C> void fields(C &Cd, Located &X) { Cd(X.Value, X.Loc); }
/// What the solver does not read of a requirement (readRequirementRanges()):
/// its bytes skipped in one step.
struct RequirementRest {
  Requirement &R;
};
template <class C> void fields(C &Cd, RequirementRest &X) {
  Cd(X.R.Text, X.R.Loc, X.R.KeyLoc);
}
template <class C> void fields(C &Cd, Requirement &X) {
  // The range as its own bytes: readRequirementRanges() decodes each
  // distinct one once.
  Nested<VersionSet> Range{X.Range};
  RequirementRest Rest{X};
  Nested<RequirementRest> Skipped{Rest};
  Cd(X.Key, Range, X.Extras, Skipped);
}
template <class C> void fields(C &Cd, Arch &X) {
  Cd(X.Name, X.Loc, X.Passed, X.NvccCond, X.NvccCondText);
}
template <class C> void fields(C &Cd, MatrixDims &X) {
  Cd(X.Torch, X.Cuda, X.Python, X.Cxx11Abi, X.Platform);
}
template <class C> void fields(C &Cd, MatrixExclude &X) {
  Cd(static_cast<MatrixDims &>(X), X.Loc);
}
template <class C> void fields(C &Cd, PrebuiltMatrix &X) {
  Cd(static_cast<MatrixDims &>(X), X.Exclude, X.Tag, X.Loc);
}
/// A release but its version (ReleaseList keeps these bytes undecoded); its
/// requirements first, where readReleaseRequires() finds them.
template <class C> void bodyFields(C &Cd, Release &X) {
  Cd(X.Requires, X.VersionText, X.Loc, X.Tag, X.Commit, X.Source, X.Extras,
     X.Archs, X.Prebuilt);
}

static bool decodeBody(llvm::StringRef Bytes, const SourcePath &File,
                       const SourcePath &CacheFile,
                       const std::shared_ptr<const void> &Owner, Release &Out) {
  // Its requirements stay bytes until read, as they would have.
  BinaryDecoder D = BinaryDecoder::deferring(Owner, Bytes, File, CacheFile);
  bodyFields(D, Out);
  return D.ok();
}

/// Each release as its version and the bytes of the rest. A deferring
/// decoder keeps those bytes for the release's first read; any other
/// decodes them now.
template <class C> void codec(C &Cd, ReleaseList &X) {
  if constexpr (C::Decoding) {
    size_t N = Cd.count();
    std::vector<Version> Versions;
    std::vector<llvm::StringRef> Bytes;
    Versions.reserve(N);
    Bytes.reserve(N);
    for (size_t I = 0; I < N && Cd.remaining(); ++I) {
      codec(Cd, Versions.emplace_back());
      Bytes.push_back(Cd.bytes());
    }
    if (Versions.size() < N)
      return (void)Cd.fail(); // ran out of bytes
    if (Cd.owner()) {
      X.keep(std::move(Versions), std::move(Bytes), Cd.owner(), Cd.file(),
             Cd.cacheFile(), decodeBody);
      return;
    }
    X.clear();
    X.reserve(N);
    for (size_t I = 0; I < N; ++I) {
      Release R;
      R.Ver = std::move(Versions[I]);
      BinaryDecoder Inner(Bytes[I], Cd.file());
      bodyFields(Inner, R);
      if (!Inner.ok())
        return (void)Cd.fail();
      X.push_back(std::move(R));
    }
  } else {
    Cd.varint(X.size());
    for (size_t I = 0; I < X.size(); ++I) {
      Release &R = const_cast<Release &>(std::as_const(X)[I]);
      codec(Cd, R.Ver);
      BinaryEncoder Inner(Cd.file());
      bodyFields(Inner, R);
      Cd.bytes(Inner.take());
    }
  }
}
template <class C> void fields(C &Cd, BuildSpec &X) {
  Cd(X.Command, X.CMakeArgs, X.Env, X.Submodules, X.MemoryPerJobGib, X.Loc);
}
template <class C> void fields(C &Cd, Fallback &X) {
  Cd(X.Name, X.Summary, X.Impact, X.Env, X.Requires, X.Loc);
}
template <class C> void fields(C &Cd, Package &X) {
  Cd(X.Name, X.NameLoc, X.Summary, X.Git, X.Tag, X.Kind, X.KindLoc, X.Requires,
     X.Extras, X.Releases, X.Build, X.PrebuiltUrl, X.Fallbacks, X.Loc);
}
template <class C> void fields(C &Cd, Project &X) {
  Cd(X.Name, X.NameLoc, X.Requires, X.Registry, X.TargetArchs, X.Loc);
}
// File is not stored: it is the name the manifest is loaded as.
template <class C> void fields(C &Cd, Manifest &X) {
  Cd(X.Text, X.Pkg, X.Proj, X.Warnings);
}

const VersionSet *RangeMemo::decode(llvm::StringRef Bytes,
                                    const SourcePath &File, uint32_t *Id) {
  auto [At, New] = Index.intern<std::string_view>(
      std::string_view(Bytes.data(), Bytes.size()), Keys);
  if (Id)
    *Id = At;
  if (New) {
    BinaryDecoder D(Bytes, File);
    VersionSet S;
    D(S);
    Decoded.emplace_back();
    if (D.ok())
      Decoded.back() = std::move(S);
  }
  const std::optional<VersionSet> &Set = Decoded[At];
  return Set ? &*Set : nullptr;
}

bool readRequirementRanges(const Deferred<RequirementMap>::Encoded &Requires,
                           std::vector<RequirementRange> &Out,
                           RangeMemo *Memo) {
  // The map's encoding (BinaryCodec.h): a count, then each key and its
  // Requirement's fields in fields()' order, read as views or skipped.
  BinaryDecoder D(Requires.Bytes, Requires.File);
  size_t N = D.count();
  Out.reserve(Out.size() + N);
  for (size_t I = 0; I < N && D.remaining(); ++I) {
    RequirementRange &R = Out.emplace_back();
    R.Key = D.bytes(); // the map's key
    D.bytes();         // Key, the same
    if (Memo) {
      llvm::StringRef Bytes = D.bytes();
      R.Shared = Memo->decode(Bytes, Requires.File, &R.SharedId);
      if (!R.Shared)
        D.fail();
    } else {
      Nested<VersionSet> Range{R.Range};
      D(Range);
    }
    size_t Extras = D.count();
    for (size_t E = 0; E < Extras && D.remaining(); ++E)
      R.Extras.push_back(D.bytes());
    D.bytes(); // the rest (RequirementRest), not read
  }
  return D.ok();
}

bool readReleaseRequires(const ReleaseList::KeptBody &Body,
                         Deferred<RequirementMap>::Encoded &Out) {
  // bodyFields()' order: Requires first.
  BinaryDecoder D(Body.Bytes, Body.File);
  llvm::StringRef Requires = D.bytes();
  // Failed (remaining() is 0 then), or nothing after Requires, where the
  // version's text, its location, ... follow.
  if (!D.remaining())
    return false;
  Out = {Body.Owner, Requires, Body.File, Body.CacheFile,
         &decodeEncoded<RequirementMap>};
  return true;
}

std::string encodeManifest(const Manifest &M) {
  BinaryEncoder E(M.File);
  E(const_cast<Manifest &>(M));
  return E.take();
}

static std::optional<Manifest> decodeWith(BinaryDecoder D,
                                          llvm::StringRef File) {
  Manifest M;
  D(M);
  if (!D.ok())
    return std::nullopt;
  M.File = File.str();
  return M;
}

std::optional<Manifest> decodeManifest(llvm::StringRef Blob,
                                       llvm::StringRef File) {
  return decodeWith(BinaryDecoder(Blob, File), File);
}

std::optional<Manifest>
decodeManifestDeferred(std::shared_ptr<const std::string> Blob,
                       llvm::StringRef File, const SourcePath &CacheFile) {
  llvm::StringRef Bytes = *Blob;
  return decodeManifestDeferred(std::move(Blob), Bytes, File, CacheFile);
}

std::optional<Manifest>
decodeManifestDeferred(std::shared_ptr<const void> Owner, llvm::StringRef Blob,
                       llvm::StringRef File, const SourcePath &CacheFile) {
  return decodeWith(
      BinaryDecoder::deferring(std::move(Owner), Blob, File, CacheFile), File);
}

} // namespace cudadeps
