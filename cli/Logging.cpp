#include "cli/Logging.h"

#include "spdlog/sinks/basic_file_sink.h"
#include "spdlog/sinks/stdout_color_sinks.h"
#include "spdlog/spdlog.h"

using namespace llvm;

namespace cudadeps::cli {

Error setupLogging(unsigned Verbosity, StringRef LogFile) {
  auto Console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  spdlog::level::level_enum Level = Verbosity == 0   ? spdlog::level::warn
                                    : Verbosity == 1 ? spdlog::level::debug
                                                     : spdlog::level::trace;
  Console->set_level(Level);
  Console->set_pattern("cudadeps: %^%l%$: %v");
  std::vector<spdlog::sink_ptr> Sinks{Console};
  if (!LogFile.empty()) {
    try {
      auto File = std::make_shared<spdlog::sinks::basic_file_sink_mt>(
          LogFile.str(), /*truncate=*/false);
      File->set_level(spdlog::level::debug);
      File->set_pattern("[%Y-%m-%d %H:%M:%S.%e] %l: %v");
      Sinks.push_back(File);
    } catch (const spdlog::spdlog_ex &E) {
      return createStringError(inconvertibleErrorCode(),
                               "cannot open log file '" + LogFile +
                                   "': " + E.what());
    }
  }
  auto Logger =
      std::make_shared<spdlog::logger>("cudadeps", Sinks.begin(), Sinks.end());
  Logger->set_level(std::min(Level, LogFile.empty() ? Level
                                                    : spdlog::level::debug));
  spdlog::set_default_logger(Logger);
  return Error::success();
}

} // namespace cudadeps::cli
