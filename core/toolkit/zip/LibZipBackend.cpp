//===- LibZipBackend.cpp - core/toolkit/ZipBackend.h over libzip ----------===//
//
// Built as the module libcudadeps-zip.so: links libzip and the C++ runtime
// only (no cudadeps, no LLVM).
//
//===----------------------------------------------------------------------===//

#include "core/toolkit/ZipBackend.h"

#include <cstdlib>
#include <cstring>
#include <zip.h>

namespace cudadeps::libzip {
namespace {

class LibZipMember final : public MemberReader {
public:
  explicit LibZipMember(zip_file_t *F) : F(F) {}
  ~LibZipMember() override { zip_fclose(F); }
  int64_t read(char *Buf, size_t Size) override {
    return zip_fread(F, Buf, Size);
  }
  std::string error() override { return zip_file_strerror(F); }

private:
  zip_file_t *F;
};

class LibZipReader final : public Reader {
public:
  explicit LibZipReader(zip_t *Z) : Z(Z) {}
  ~LibZipReader() override { zip_discard(Z); }

  uint64_t members() override {
    zip_int64_t N = zip_get_num_entries(Z, 0);
    return N < 0 ? 0 : static_cast<uint64_t>(N);
  }

  Status stat(uint64_t Index, MemberInfo &Out) override {
    zip_stat_t St;
    zip_stat_init(&St);
    if (zip_stat_index(Z, Index, 0, &St) != 0 || !(St.valid & ZIP_STAT_NAME))
      return Status::failed(zip_strerror(Z));
    Out = MemberInfo();
    Out.Name = St.name;
    Out.HasSize = St.valid & ZIP_STAT_SIZE;
    Out.Size = Out.HasSize ? St.size : 0;
    zip_uint8_t OpSys = 0;
    zip_uint32_t Attr = 0;
    if (zip_file_get_external_attributes(Z, Index, 0, &OpSys, &Attr) == 0 &&
        OpSys == ZIP_OPSYS_UNIX) {
      Out.HasUnixAttributes = true;
      Out.UnixAttributes = Attr;
    }
    return {};
  }

  Status open(uint64_t Index, std::unique_ptr<MemberReader> &Out) override {
    zip_file_t *F = zip_fopen_index(Z, Index, 0);
    if (!F)
      return Status::failed(zip_strerror(Z));
    Out = std::make_unique<LibZipMember>(F);
    return {};
  }

private:
  zip_t *Z;
};

class LibZipWriter final : public Writer {
public:
  explicit LibZipWriter(zip_t *Z) : Z(Z) {}
  ~LibZipWriter() override {
    if (Z)
      zip_discard(Z);
  }

  Status add(const std::string &Name, const std::string &Data,
             uint32_t UnixAttributes) override {
    // libzip reads the data at close(): it gets a copy of its own, which it
    // frees (freep = 1).
    void *Copy = nullptr;
    if (!Data.empty()) {
      Copy = std::malloc(Data.size());
      if (!Copy)
        return Status::failed("out of memory");
      std::memcpy(Copy, Data.data(), Data.size());
    }
    zip_source_t *Src = zip_source_buffer(Z, Copy, Data.size(), 1);
    if (!Src) {
      std::free(Copy);
      return Status::failed(zip_strerror(Z));
    }
    zip_int64_t I =
        zip_file_add(Z, Name.c_str(), Src, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
    if (I < 0) {
      zip_source_free(Src);
      return Status::failed(zip_strerror(Z));
    }
    zip_file_set_external_attributes(Z, I, 0, ZIP_OPSYS_UNIX, UnixAttributes);
    return {};
  }

  Status close() override {
    if (zip_close(Z) != 0)
      return Status::failed(zip_strerror(Z)); // the destructor discards it
    Z = nullptr;
    return {};
  }

private:
  zip_t *Z;
};

/// Opens the archive at \p Path with \p Flags as a T (the reader or the
/// writer); on failure, the text of zip_open's error code.
template <typename T, typename Base>
Status openAs(const std::string &Path, int Flags, std::unique_ptr<Base> &Out) {
  int Code = 0;
  zip_t *Z = zip_open(Path.c_str(), Flags, &Code);
  if (!Z) {
    zip_error_t E;
    zip_error_init_with_code(&E, Code);
    std::string Msg = zip_error_strerror(&E);
    zip_error_fini(&E);
    return Status::failed(Msg);
  }
  Out = std::make_unique<T>(Z);
  return {};
}

class LibZipBackend final : public Backend {
public:
  Status openArchive(const std::string &Path,
                     std::unique_ptr<Reader> &Out) override {
    return openAs<LibZipReader>(Path, ZIP_RDONLY | ZIP_CHECKCONS, Out);
  }
  Status createArchive(const std::string &Path,
                       std::unique_ptr<Writer> &Out) override {
    return openAs<LibZipWriter>(Path, ZIP_CREATE | ZIP_TRUNCATE, Out);
  }
};

} // namespace
} // namespace cudadeps::libzip

extern "C" __attribute__((visibility("default"))) cudadeps::libzip::Backend *
cudadeps_zip_backend(int AbiVersion) {
  if (AbiVersion != cudadeps::libzip::BackendAbiVersion)
    return nullptr;
  // One backend for the process; the module is never unloaded.
  static cudadeps::libzip::LibZipBackend Backend;
  return &Backend;
}
