# CudaDeps.cmake - the cudadeps pre-build hook for CMake projects.
#
#   find_package(cudadeps REQUIRED)      # or include(CudaDeps) with
#                                        # CUDADEPS_EXECUTABLE set
#   cudadeps_resolve(MANIFEST cudadeps.toml
#                    [TARGET_ARCHS sm_90 ...]   # or 90 ...; default: the GPUs
#                    [REQUIRED]                 # stop when nothing builds
#                    [PACKAGES name ...]        # only these packages' toolchain
#                    [FACTS file] [REGISTRY dir ...] [SET key=value ...]
#                    [LAUNCHER ccache|sccache|auto|none|path]
#                    [ARGS extra cudadeps arguments ...])
#   enable_language(CUDA)
#
# Call it after project(... CXX) and before enable_language(CUDA): it runs
# `cudadeps resolve MANIFEST --emit cmake` and includes the result, which
# sets CMAKE_CUDA_COMPILER, CMAKE_CUDA_HOST_COMPILER, CMAKE_CUDA_ARCHITECTURES
# (and CMAKE_CUDA_COMPILER_LAUNCHER), CUDAToolkit_ROOT, CUDADEPS_STATUS,
# CUDADEPS_PACKAGES and CUDADEPS_<PACKAGE>_{STRATEGY,VERSION,ARCHS,FALLBACK,
# PREBUILT_URL} in the caller's scope, plus CUDADEPS_FOUND.
#
# When there is no buildable configuration, configuration stops with
# cudadeps' explanation (REQUIRED), or the explanation is a warning and
# CUDADEPS_FOUND is FALSE. An input error (a bad manifest) always stops.
#
# cudadeps runs again only when something the decision rests on changed:
# the arguments, the cudadeps executable, a file it read (the manifests,
# the knowledge base, the facts file, what the probes looked at: toolkits,
# compilers, torch, the driver) or an environment variable the probes read.
# Those files are also CMAKE_CONFIGURE_DEPENDS, so editing the manifest or
# installing a toolkit re-runs the configuration at the next build.

include_guard(GLOBAL)

# The hook's file and stamp for one call.
function(_cudadeps_fingerprint out)
  set(fp "")
  foreach(f IN LISTS ARGN)
    if(EXISTS "${f}")
      file(TIMESTAMP "${f}" t "%Y-%m-%dT%H:%M:%S" UTC)
      if(IS_DIRECTORY "${f}")
        set(s "dir")
      else()
        file(SIZE "${f}" s)
      endif()
      string(APPEND fp "${f}|${t}|${s}\n")
    else()
      string(APPEND fp "${f}|missing\n")
    endif()
  endforeach()
  set(${out} "${fp}" PARENT_SCOPE)
endfunction()

function(_cudadeps_env_fingerprint out)
  set(fp "")
  foreach(v IN LISTS ARGN)
    if(DEFINED ENV{${v}})
      string(APPEND fp "${v}=$ENV{${v}}\n")
    else()
      string(APPEND fp "${v} unset\n")
    endif()
  endforeach()
  set(${out} "${fp}" PARENT_SCOPE)
endfunction()

function(cudadeps_resolve)
  cmake_parse_arguments(PARSE_ARGV 0 _cd "REQUIRED"
    "MANIFEST;FACTS;LAUNCHER" "TARGET_ARCHS;PACKAGES;REGISTRY;SET;ARGS")
  if(_cd_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "cudadeps_resolve: unknown arguments: ${_cd_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT _cd_MANIFEST)
    message(FATAL_ERROR "cudadeps_resolve: MANIFEST is required")
  endif()
  if(CMAKE_CUDA_COMPILER_LOADED)
    message(FATAL_ERROR "cudadeps_resolve: CUDA is already enabled (with "
      "${CMAKE_CUDA_COMPILER}), so the toolchain can no longer be chosen; "
      "call cudadeps_resolve() before enable_language(CUDA), and leave CUDA "
      "out of project(LANGUAGES)")
  endif()
  if(NOT CUDADEPS_EXECUTABLE OR NOT EXISTS "${CUDADEPS_EXECUTABLE}")
    message(FATAL_ERROR "cudadeps_resolve: CUDADEPS_EXECUTABLE "
      "('${CUDADEPS_EXECUTABLE}') is not the cudadeps program; use "
      "find_package(cudadeps) or set it")
  endif()
  get_filename_component(manifest "${_cd_MANIFEST}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")

  set(args resolve "${manifest}" --emit cmake)
  foreach(a IN LISTS _cd_TARGET_ARCHS)
    if(a MATCHES "^[0-9]+[af]?$")
      set(a "sm_${a}")
    endif()
    list(APPEND args --arch "${a}")
  endforeach()
  foreach(p IN LISTS _cd_PACKAGES)
    list(APPEND args --package "${p}")
  endforeach()
  foreach(r IN LISTS _cd_REGISTRY)
    get_filename_component(r "${r}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args --registry "${r}")
  endforeach()
  if(_cd_FACTS)
    get_filename_component(f "${_cd_FACTS}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args --facts "${f}")
  endif()
  foreach(s IN LISTS _cd_SET)
    list(APPEND args --set "${s}")
  endforeach()
  if(_cd_LAUNCHER)
    list(APPEND args --launcher "${_cd_LAUNCHER}")
  endif()
  list(APPEND args ${_cd_ARGS})

  string(MD5 id "${manifest}")
  set(dir "${CMAKE_BINARY_DIR}/cudadeps")
  set(hook "${dir}/${id}.cmake")
  set(stampfile "${dir}/${id}.stamp")
  list(APPEND args -o "${hook}")

  # The stamp: the command, then what the last decision rested on.
  string(REPLACE ";" "\n" key "${CUDADEPS_EXECUTABLE}\n${args}")
  _cudadeps_fingerprint(exe_fp "${CUDADEPS_EXECUTABLE}")
  string(APPEND key "\n${exe_fp}")
  set(fresh FALSE)
  if(EXISTS "${hook}" AND EXISTS "${stampfile}")
    file(READ "${stampfile}" old)
    # The inputs the hook itself lists, fingerprinted now.
    set(CUDADEPS_INPUTS "")
    set(CUDADEPS_ENV_INPUTS "")
    include("${hook}")
    _cudadeps_fingerprint(in_fp ${CUDADEPS_INPUTS})
    _cudadeps_env_fingerprint(env_fp ${CUDADEPS_ENV_INPUTS})
    if(old STREQUAL "${key}\n${in_fp}${env_fp}")
      set(fresh TRUE)
    endif()
  endif()

  if(NOT fresh)
    file(MAKE_DIRECTORY "${dir}")
    execute_process(COMMAND "${CUDADEPS_EXECUTABLE}" ${args}
      RESULT_VARIABLE rc OUTPUT_VARIABLE report ERROR_VARIABLE err)
    if(rc EQUAL 1)
      file(REMOVE "${hook}" "${stampfile}")
      set(CUDADEPS_FOUND FALSE PARENT_SCOPE)
      if(_cd_REQUIRED)
        message(FATAL_ERROR
          "cudadeps: no buildable CUDA configuration for ${manifest}:\n"
          "${report}")
      endif()
      message(WARNING
        "cudadeps: no buildable CUDA configuration for ${manifest}:\n"
        "${report}")
      return()
    elseif(NOT rc EQUAL 0)
      file(REMOVE "${hook}" "${stampfile}")
      message(FATAL_ERROR "cudadeps resolve failed (${rc}):\n${err}${report}")
    endif()
    message(STATUS "cudadeps: ${manifest}\n${report}")
    set(CUDADEPS_INPUTS "")
    set(CUDADEPS_ENV_INPUTS "")
    include("${hook}")
    _cudadeps_fingerprint(in_fp ${CUDADEPS_INPUTS})
    _cudadeps_env_fingerprint(env_fp ${CUDADEPS_ENV_INPUTS})
    file(WRITE "${stampfile}" "${key}\n${in_fp}${env_fp}")
  else()
    message(STATUS "cudadeps: ${manifest} unchanged (${CUDADEPS_STATUS})")
  endif()

  # Editing a manifest or installing a toolkit re-runs the configuration.
  # /proc and /sys change under a running system: the stamp covers them.
  set(deps "${manifest}")
  foreach(f IN LISTS CUDADEPS_INPUTS)
    if(EXISTS "${f}" AND NOT f MATCHES "^/(proc|sys)/")
      list(APPEND deps "${f}")
    endif()
  endforeach()
  set_property(DIRECTORY "${CMAKE_SOURCE_DIR}" APPEND PROPERTY
               CMAKE_CONFIGURE_DEPENDS ${deps})

  # What the hook set, in the caller's scope.
  set(vars CMAKE_CUDA_COMPILER CMAKE_CUDA_HOST_COMPILER
           CMAKE_CUDA_ARCHITECTURES CMAKE_CUDA_COMPILER_LAUNCHER
           CUDAToolkit_ROOT CUDADEPS_STATUS CUDADEPS_PACKAGES CUDADEPS_INPUTS
           CUDADEPS_ENV_INPUTS)
  foreach(p IN LISTS CUDADEPS_PACKAGES)
    string(TOUPPER "${p}" P)
    string(REGEX REPLACE "[^A-Z0-9]" "_" P "${P}")
    foreach(s STRATEGY VERSION ARCHS FALLBACK PREBUILT_URL)
      list(APPEND vars "CUDADEPS_${P}_${s}")
    endforeach()
  endforeach()
  foreach(v IN LISTS vars)
    if(DEFINED ${v})
      set(${v} "${${v}}" PARENT_SCOPE)
    endif()
  endforeach()
  set(CUDADEPS_FOUND TRUE PARENT_SCOPE)
endfunction()
