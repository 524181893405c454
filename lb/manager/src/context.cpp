#include <tessera/tessera.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace tessera {

Context::Context(int& argc, char**& argv, MPI_Comm app_comm) {
  RuntimeOptions options;
  options.app_comm = app_comm;
  options.flag_groups = {&collection_flags_, &lb_data_flags_, &termination_flags_, &lb_flags_};
  runtime_ = std::make_unique<Runtime>(argc, argv, std::move(options));
  if (lb_flags_.help_lb) {
    if (runtime_->rank() == 0) fmt::print("{}", lb::Registry::builtin().help());
    std::fflush(stdout);
    runtime_.reset();
    std::exit(0);
  }
  termination_ = std::make_unique<Termination>(*runtime_, termination_flags_);
  phases_ = &collections::PhaseManager::install(*runtime_, collection_flags_.clock());
  lb_manager_ = std::make_unique<lb_manager::LbManager>(*runtime_, *termination_, *phases_, lb_flags_);
  if (lb_data_flags_.enabled) lb_data_ = std::make_unique<lb_manager::LbDataOutput>(lb_data_flags_, runtime_->rank());
}

Context::~Context() {
  if (lb_data_) {
    try {
      lb_data_->write();
    } catch (const std::exception& e) {
      fatal("{}", e.what());
    }
  }
  lb_manager_.reset();
  termination_.reset();
}

collections::PhaseRecord Context::phase_end() {
  collections::PhaseRecord record = phases_->end_phase();
  if (lb_data_) lb_data_->add(record);
  lb_manager_->phase_end(record);
  return record;
}

}  // namespace tessera
