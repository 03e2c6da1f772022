//===- TorchLayout.h - an installed torch as its wheel lays it out --------===//
#ifndef CUDADEPS_TESTS_SUPPORT_TORCHLAYOUT_H
#define CUDADEPS_TESTS_SUPPORT_TORCHLAYOUT_H

#include "tests/support/SharedObjects.h"

#include <gtest/gtest.h>

#include <string>

namespace cudadeps::test {

/// The files of the torch 2.11.0+cu130 wheel from PyPI that decide its C++
/// ABI, as the wheel lays them out: torch/version.py, a TorchConfig.cmake
/// with no ABI line (TORCH_CXX_FLAGS is never set), and torch/lib/libc10.so,
/// here a small library built now with the given _GLIBCXX_USE_CXX11_ABI that
/// needs and defines std::string functions as c10 does
/// (c10::MessageLogger::stream[abi:cxx11]()).
inline std::string realTorchLayout(const TempDir &T, int Abi) {
  std::string Venv = T.sub("venv");
  writeFile(Venv + "/pyvenv.cfg", "version = 3.11.9\n");
  std::string Site = Venv + "/lib/python3.11/site-packages";
  writeFile(Site + "/torch/version.py",
            "from typing import Optional\n\n"
            "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'rocm', 'xpu']\n"
            "__version__ = '2.11.0+cu130'\n"
            "debug = False\n"
            "cuda: Optional[str] = '13.0'\n"
            "git_version = '70d99e998b4955e0049d13a98d77ae1b14db1f45'\n"
            "hip: Optional[str] = None\n"
            "rocm: Optional[str] = None\n"
            "xpu: Optional[str] = None\n");
  writeFile(Site + "/torch/share/cmake/Torch/TorchConfig.cmake",
            "#   TORCH_CXX_FLAGS    -- Additional (required) compiler flags\n"
            "set_target_properties(torch PROPERTIES\n"
            "    INTERFACE_INCLUDE_DIRECTORIES \"${TORCH_INCLUDE_DIRS}\"\n"
            "    CXX_STANDARD 17\n)\n"
            "if(TORCH_CXX_FLAGS)\n"
            "  set_property(TARGET torch PROPERTY INTERFACE_COMPILE_OPTIONS "
            "\"${TORCH_CXX_FLAGS}\")\nendif()\n");
  makeDirs(Site + "/torch/lib");
  std::string Err = buildSharedLibrary(
      T, Site + "/torch/lib/libc10.so",
      "#include <string>\n"
      "namespace c10 { std::string stream(const std::string &S) {"
      " return S + \"c10\"; } }\n",
      {"-D_GLIBCXX_USE_CXX11_ABI=" + std::to_string(Abi)});
  EXPECT_EQ(Err, "");
  return Venv;
}


} // namespace cudadeps::test

#endif
