#include <tessera/tessera.hpp>

namespace tessera {

Context::Context(int& argc, char**& argv, MPI_Comm app_comm) {
  RuntimeOptions options;
  options.app_comm = app_comm;
  options.flag_groups = {&collection_flags_, &lb_data_flags_};
  runtime_ = std::make_unique<Runtime>(argc, argv, std::move(options));
  phases_ = &collections::PhaseManager::install(*runtime_, collection_flags_.clock());
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
}

collections::PhaseRecord Context::phase_end() {
  collections::PhaseRecord record = phases_->end_phase();
  if (lb_data_) lb_data_->add(record);
  return record;
}

}  // namespace tessera
